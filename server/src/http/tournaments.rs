//! The tournaments' routes: listed, made, joined and left, directed. Every one is served by
//! the node that owns the lobby (the tournaments live there).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};

use super::extract::{Body, Client, Player};
use super::reply::{ApiError, json};
use super::route::{Owner, Route, route};
use crate::services::Services;
use crate::wire::{CreateTournament, DecideRequest, ExtendRequest};

/// The tournaments' routes.
pub(crate) fn routes() -> Vec<Route> {
    vec![
        route("/api/tournaments", Owner::Lobby, get(list).post(create)),
        route("/api/tournaments/{tid}", Owner::Lobby, get(one)),
        route(
            "/api/tournaments/{tid}/register",
            Owner::Lobby,
            post(register),
        ),
        route(
            "/api/tournaments/{tid}/withdraw",
            Owner::Lobby,
            post(withdraw),
        ),
        route("/api/tournaments/{tid}/start", Owner::Lobby, post(start)),
        route("/api/tournaments/{tid}/pause", Owner::Lobby, post(pause)),
        route("/api/tournaments/{tid}/resume", Owner::Lobby, post(resume)),
        route("/api/tournaments/{tid}/extend", Owner::Lobby, post(extend)),
        route("/api/tournaments/{tid}/decide", Owner::Lobby, post(decide)),
    ]
}

async fn list(State(services): State<Arc<Services>>) -> Result<Response, ApiError> {
    Ok(json(StatusCode::OK, &services.tournaments.list().await?))
}

async fn one(
    State(services): State<Arc<Services>>,
    Path(tid): Path<String>,
) -> Result<Response, ApiError> {
    Ok(json(StatusCode::OK, &services.tournaments.get(&tid).await?))
}

async fn create(
    State(services): State<Arc<Services>>,
    Player(player): Player,
    Client(ip): Client,
    Body(request): Body<CreateTournament>,
) -> Result<Response, ApiError> {
    let made = services.tournaments.create(&player, request, ip).await?;
    Ok(json(StatusCode::CREATED, &made))
}

async fn register(
    State(services): State<Arc<Services>>,
    Player(player): Player,
    Client(ip): Client,
    Path(tid): Path<String>,
) -> Result<Response, ApiError> {
    let t = services.tournaments.register(&tid, &player, ip).await?;
    Ok(json(StatusCode::OK, &t))
}

async fn withdraw(
    State(services): State<Arc<Services>>,
    Player(player): Player,
    Path(tid): Path<String>,
) -> Result<Response, ApiError> {
    let t = services.tournaments.withdraw(&tid, &player).await?;
    Ok(json(StatusCode::OK, &t))
}

async fn start(
    State(services): State<Arc<Services>>,
    Player(player): Player,
    Path(tid): Path<String>,
) -> Result<Response, ApiError> {
    let t = services.tournaments.begin(&tid, &player).await?;
    Ok(json(StatusCode::OK, &t))
}

async fn pause(
    State(services): State<Arc<Services>>,
    Player(player): Player,
    Path(tid): Path<String>,
) -> Result<Response, ApiError> {
    let t = services.tournaments.pause(&tid, &player, true).await?;
    Ok(json(StatusCode::OK, &t))
}

async fn resume(
    State(services): State<Arc<Services>>,
    Player(player): Player,
    Path(tid): Path<String>,
) -> Result<Response, ApiError> {
    let t = services.tournaments.pause(&tid, &player, false).await?;
    Ok(json(StatusCode::OK, &t))
}

async fn extend(
    State(services): State<Arc<Services>>,
    Player(player): Player,
    Path(tid): Path<String>,
    Body(request): Body<ExtendRequest>,
) -> Result<Response, ApiError> {
    let t = services
        .tournaments
        .extend(&tid, &player, request.minutes)
        .await?;
    Ok(json(StatusCode::OK, &t))
}

async fn decide(
    State(services): State<Arc<Services>>,
    Player(player): Player,
    Path(tid): Path<String>,
    Body(request): Body<DecideRequest>,
) -> Result<Response, ApiError> {
    let t = services.tournaments.decide(&tid, &player, request).await?;
    Ok(json(StatusCode::OK, &t))
}
