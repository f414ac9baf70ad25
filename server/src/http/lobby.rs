//! The lobby's routes: the lobby and its socket, seeks, and the quick-pairing pools.

use std::sync::Arc;

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};

use super::extract::{AddressSocket, Body, Client, Player};
use super::reply::{ApiError, json};
use super::route::{Owner, Route, route};
use crate::services::Services;
use crate::wire::{PoolRequest, SeekRequest};

/// The lobby's routes.
pub(crate) fn routes() -> Vec<Route> {
    vec![
        route("/api/lobby", Owner::Lobby, get(lobby)),
        route("/api/lobby/socket", Owner::Lobby, get(socket)),
        route("/api/seeks", Owner::Lobby, post(create_seek)),
        route("/api/seeks/{sid}", Owner::Lobby, delete(withdraw_seek)),
        route("/api/seeks/{sid}/accept", Owner::Lobby, post(accept_seek)),
        route(
            "/api/pool",
            Owner::Lobby,
            post(join_pool).delete(leave_pool),
        ),
    ]
}

async fn lobby(
    State(services): State<Arc<Services>>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let after = query.get("after").map(String::as_str);
    json(StatusCode::OK, &services.lobby.lobby(after))
}

async fn socket(
    State(services): State<Arc<Services>>,
    Client(ip): Client,
    Query(query): Query<HashMap<String, String>>,
    AddressSocket(upgrade, slot): AddressSocket,
) -> Result<Response, ApiError> {
    let watching = services.lobby.watch(ip)?;
    let deltas = query.get("deltas").is_some_and(|v| v == "1");
    Ok(upgrade.on_upgrade(move |ws| {
        crate::socket::lobby::serve_lobby(ws, services, (slot, watching), deltas)
    }))
}

async fn create_seek(
    State(services): State<Arc<Services>>,
    Player(player): Player,
    Client(ip): Client,
    Body(request): Body<SeekRequest>,
) -> Result<Response, ApiError> {
    let seek = services.lobby.create_seek(&player, request, ip)?;
    Ok(json(StatusCode::CREATED, &seek))
}

async fn withdraw_seek(
    State(services): State<Arc<Services>>,
    Player(player): Player,
    Path(sid): Path<String>,
) -> Result<Response, ApiError> {
    services.lobby.withdraw_seek(&player, &sid)?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn accept_seek(
    State(services): State<Arc<Services>>,
    Player(player): Player,
    Client(ip): Client,
    Path(sid): Path<String>,
) -> Result<Response, ApiError> {
    let seat = services.lobby.accept_seek(&player, &sid, ip).await?;
    Ok(json(StatusCode::OK, &seat))
}

async fn join_pool(
    State(services): State<Arc<Services>>,
    Player(player): Player,
    Client(ip): Client,
    Body(request): Body<PoolRequest>,
) -> Result<Response, ApiError> {
    let pool = services.lobby.join_pool(&player, request, ip).await?;
    Ok(json(StatusCode::ACCEPTED, &pool))
}

async fn leave_pool(
    State(services): State<Arc<Services>>,
    Player(player): Player,
) -> Result<Response, ApiError> {
    services.lobby.leave_pool(&player);
    Ok(StatusCode::NO_CONTENT.into_response())
}
