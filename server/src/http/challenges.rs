//! The challenges' routes: a player's challenges, a challenge made, accepted, declined or
//! withdrawn. All with the lobby's owner, where the players' sockets are.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use super::extract::{Body, Client, Player};
use super::reply::{ApiError, json};
use super::route::{Owner, Route, route};
use crate::services::Services;
use crate::wire::{ChallengeRequest, DeclineRequest};

/// The challenges' routes.
pub(crate) fn routes() -> Vec<Route> {
    vec![
        route("/api/challenges", Owner::Lobby, get(list).post(create)),
        route(
            "/api/challenges/{cid}",
            Owner::Lobby,
            axum::routing::delete(withdraw),
        ),
        route("/api/challenges/{cid}/accept", Owner::Lobby, post(accept)),
        route("/api/challenges/{cid}/decline", Owner::Lobby, post(decline)),
    ]
}

async fn list(State(services): State<Arc<Services>>, Player(player): Player) -> Response {
    json(StatusCode::OK, &services.challenges.list(&player))
}

async fn create(
    State(services): State<Arc<Services>>,
    Player(player): Player,
    Client(ip): Client,
    Body(request): Body<ChallengeRequest>,
) -> Result<Response, ApiError> {
    let made = services.challenges.create(&player, request, ip)?;
    Ok(json(StatusCode::CREATED, &made))
}

async fn accept(
    State(services): State<Arc<Services>>,
    Player(player): Player,
    Client(ip): Client,
    Path(cid): Path<String>,
) -> Result<Response, ApiError> {
    let seat = services.challenges.accept(&player, &cid, ip).await?;
    Ok(json(StatusCode::OK, &seat))
}

async fn decline(
    State(services): State<Arc<Services>>,
    Player(player): Player,
    Path(cid): Path<String>,
    Body(request): Body<DeclineRequest>,
) -> Result<Response, ApiError> {
    services.challenges.decline(&player, &cid, request.reason)?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn withdraw(
    State(services): State<Arc<Services>>,
    Player(player): Player,
    Path(cid): Path<String>,
) -> Result<Response, ApiError> {
    services.challenges.withdraw(&player, &cid)?;
    Ok(StatusCode::NO_CONTENT.into_response())
}
