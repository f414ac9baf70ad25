//! `GET /api/health` and `GET /api/ready`.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;

use super::reply::json;
use super::route::{Owner, Route, route};
use crate::services::Services;
use crate::wire::Health;

/// The routes of the server's health.
pub(crate) fn routes() -> Vec<Route> {
    vec![
        route("/api/health", Owner::Any, get(health)),
        route("/api/ready", Owner::Any, get(ready)),
    ]
}

async fn health() -> Response {
    json(
        StatusCode::OK,
        &Health {
            ok: true,
            version: env!("CARGO_PKG_VERSION"),
        },
    )
}

/// `GET /api/ready`: 200 `{"ready": true}` while the server accepts games; 503
/// `{"ready": false}` while it starts, drains, or its database does not answer.
async fn ready(State(services): State<Arc<Services>>) -> Response {
    let ready = services.readiness.ready().await;
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    json(status, &serde_json::json!({ "ready": ready }))
}
