//! The live list's routes: the games in play anyone may watch, and its socket.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;

use super::extract::{AddressSocket, Client};
use super::reply::{ApiError, JSON, rendered};
use super::route::{Owner, Route, route};
use crate::services::Services;

/// The live list's routes (any node serves them: each lists every node's games).
pub(crate) fn routes() -> Vec<Route> {
    vec![
        route("/api/live", Owner::Any, get(list)),
        route("/api/live/socket", Owner::Any, get(socket)),
    ]
}

async fn list(State(services): State<Arc<Services>>) -> Response {
    rendered(StatusCode::OK, JSON, &*services.live.reply())
}

async fn socket(
    State(services): State<Arc<Services>>,
    Client(ip): Client,
    AddressSocket(upgrade, slot): AddressSocket,
) -> Result<Response, ApiError> {
    let watching = services.lobby.watch(ip)?;
    Ok(
        upgrade
            .on_upgrade(move |ws| crate::socket::lobby::serve_live(ws, services, slot, watching)),
    )
}
