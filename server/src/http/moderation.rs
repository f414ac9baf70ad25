//! The moderators' desk's routes (`/api/mod/…`, a moderator's key), and a player's own
//! moderation and appeals (`/api/moderation…`, open to a closed account's key too).

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use serde_json::json;

use super::extract::{Body, Player};
use super::reply::{ApiError, json};
use super::route::{Owner, Route, route};
use crate::services::Services;
use crate::wire::{ActionRequest, AppealRequest};

/// The desk's routes.
pub(crate) fn routes() -> Vec<Route> {
    vec![
        route("/api/mod/reports", Owner::Any, get(queue)),
        route("/api/mod/actions", Owner::Any, post(act)),
        route("/api/mod/log", Owner::Any, get(log)),
        route("/api/moderation", Owner::Any, get(mine)),
        route("/api/moderation/{id}/appeal", Owner::Any, post(appeal)),
    ]
}

async fn queue(
    State(services): State<Arc<Services>>,
    Player(moderator): Player,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let (reports, next) = services.moderation.queue(&moderator, &query).await?;
    Ok(json(
        StatusCode::OK,
        &json!({ "reports": reports, "next": next }),
    ))
}

async fn act(
    State(services): State<Arc<Services>>,
    Player(moderator): Player,
    Body(request): Body<ActionRequest>,
) -> Result<Response, ApiError> {
    let entry = services.moderation.act(&moderator, request).await?;
    Ok(json(StatusCode::CREATED, &entry))
}

async fn log(
    State(services): State<Arc<Services>>,
    Player(moderator): Player,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let entries = services.moderation.log(&moderator, &query).await?;
    Ok(json(StatusCode::OK, &json!({ "actions": entries })))
}

async fn mine(
    State(services): State<Arc<Services>>,
    Player(player): Player,
) -> Result<Response, ApiError> {
    let told = services.moderation.mine(&player).await?;
    Ok(json(StatusCode::OK, &json!({ "actions": told })))
}

async fn appeal(
    State(services): State<Arc<Services>>,
    Player(player): Player,
    Path(id): Path<String>,
    Body(request): Body<AppealRequest>,
) -> Result<Response, ApiError> {
    let told = services.moderation.appeal(&player, &id, request).await?;
    Ok(json(StatusCode::OK, &told))
}
