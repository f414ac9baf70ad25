//! The games' routes: made, joined, read, replayed, and their sockets.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};

use super::extract::{Body, Client, MaybePlayer, Player};
use super::reply::{ApiError, JSON, json, rendered};
use super::route::{Owner, Route, route};
use crate::services::Services;
use crate::wire::{Code, CreateRequest, JoinRequest};

/// The games' routes.
pub(crate) fn routes() -> Vec<Route> {
    vec![
        route("/api/games", Owner::Any, post(create)),
        route("/api/games/{id}", Owner::Game, get(summary)),
        route("/api/games/{id}/join", Owner::Game, post(join)),
        route("/api/games/{id}/seat", Owner::Game, post(seat)),
        route("/api/games/{id}/record", Owner::Game, get(record)),
        route("/api/games/{id}/replay", Owner::Game, get(replay)),
        route("/api/games/{id}/socket", Owner::Game, get(socket)),
        route("/api/games/{id}/chat", Owner::Game, get(chat)),
    ]
}

async fn create(
    State(services): State<Arc<Services>>,
    Client(ip): Client,
    MaybePlayer(player): MaybePlayer,
    Body(request): Body<CreateRequest>,
) -> Result<Response, ApiError> {
    let created = services.games.create(request, ip, player).await?;
    Ok(json(StatusCode::CREATED, &created))
}

async fn join(
    State(services): State<Arc<Services>>,
    Client(ip): Client,
    MaybePlayer(player): MaybePlayer,
    Path(id): Path<String>,
    Body(request): Body<JoinRequest>,
) -> Result<Response, ApiError> {
    let joined = services.games.join(&id, request, player, ip).await?;
    Ok(json(StatusCode::OK, &joined))
}

async fn seat(
    State(services): State<Arc<Services>>,
    Player(player): Player,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    Ok(json(
        StatusCode::OK,
        &services.games.reseat(&id, &player).await?,
    ))
}

async fn summary(
    State(services): State<Arc<Services>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    Ok(json(StatusCode::OK, &services.games.summary(&id).await?))
}

/// The `?token=` of a request for game `id`'s record, replay or chat, once the game's seal
/// (a running tournament's game) lets it through: to its players only, by token or key.
async fn unsealed<'q>(
    services: &Services,
    id: &str,
    player: Option<&str>,
    query: &'q HashMap<String, String>,
) -> Result<Option<&'q str>, ApiError> {
    let token = query.get("token").map(String::as_str);
    services
        .tournaments
        .unsealed(id, (token, player), false)
        .await?;
    Ok(token)
}

async fn record(
    State(services): State<Arc<Services>>,
    MaybePlayer(player): MaybePlayer,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    unsealed(&services, &id, player.as_deref(), &query).await?;
    let text = services.games.record(&id).await?;
    Ok(rendered(StatusCode::OK, "text/plain; charset=utf-8", text))
}

async fn replay(
    State(services): State<Arc<Services>>,
    MaybePlayer(player): MaybePlayer,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    unsealed(&services, &id, player.as_deref(), &query).await?;
    let reply = services.replays.replay(&id).await?;
    Ok(rendered(StatusCode::OK, JSON, &*reply))
}

async fn chat(
    State(services): State<Arc<Services>>,
    MaybePlayer(player): MaybePlayer,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let token = unsealed(&services, &id, player.as_deref(), &query).await?;
    let record = services.chats.record(&id, player.as_deref(), token).await?;
    Ok(json(StatusCode::OK, &record))
}

async fn socket(
    State(services): State<Arc<Services>>,
    Client(ip): Client,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    // A request that is not an upgrade is refused before the game is looked up.
    let upgrade =
        upgrade.map_err(|rejection| ApiError::new(Code::BadMessage, rejection.body_text()))?;
    let games = &services.games;
    let token = query.get("token").map(String::as_str);
    // A watcher of a sealed game is refused before the game is looked up for it.
    if token.is_none() {
        services
            .tournaments
            .unsealed(&id, (None, None), true)
            .await?;
    }
    let (table, to) = games
        .authorize(&id, query.get("token").map(String::as_str))
        .await?;
    let slot = match games.admit_socket(&table, to, ip).await {
        Ok(slot) => slot,
        Err(e) => {
            // A finished game loaded for this request leaves memory again.
            games.let_go(&table).await;
            return Err(e.into());
        }
    };
    Ok(crate::socket::upgrade(upgrade)
        .on_upgrade(move |ws| crate::socket::game::serve(ws, services, table, to, slot)))
}
