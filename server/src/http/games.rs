//! The games' routes: made, joined, read, replayed, and their sockets.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{FromRequestParts, Path, Query, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
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
    Ok(json(StatusCode::OK, &services.records.summary(&id).await?))
}

/// A request for game `{id}`'s record, replay or chat that its seal (a running
/// tournament's game) lets through: to its players only, by a seat's `?token=` or the
/// player's key. Given to the handler as the game, the player and the token.
struct Unsealed {
    id: String,
    player: Option<String>,
    token: Option<String>,
}

impl FromRequestParts<Arc<Services>> for Unsealed {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        services: &Arc<Services>,
    ) -> Result<Unsealed, ApiError> {
        let MaybePlayer(player) = MaybePlayer::from_request_parts(parts, services).await?;
        let Path(id) = Path::<String>::from_request_parts(parts, services)
            .await
            .map_err(|rejection| ApiError::new(Code::BadMessage, rejection.body_text()))?;
        let Query(mut query) =
            Query::<HashMap<String, String>>::from_request_parts(parts, services)
                .await
                .map_err(|rejection| ApiError::new(Code::BadMessage, rejection.body_text()))?;
        let token = query.remove("token");
        services
            .tournaments
            .unsealed(&id, (token.as_deref(), player.as_deref()), false)
            .await?;
        Ok(Unsealed { id, player, token })
    }
}

async fn record(
    State(services): State<Arc<Services>>,
    Unsealed { id, .. }: Unsealed,
) -> Result<Response, ApiError> {
    let text = services.records.record(&id).await?;
    Ok(rendered(StatusCode::OK, "text/plain; charset=utf-8", text))
}

async fn replay(
    State(services): State<Arc<Services>>,
    Unsealed { id, .. }: Unsealed,
) -> Result<Response, ApiError> {
    let reply = services.replays.replay(&id).await?;
    Ok(rendered(StatusCode::OK, JSON, &*reply))
}

async fn chat(
    State(services): State<Arc<Services>>,
    Unsealed { id, player, token }: Unsealed,
) -> Result<Response, ApiError> {
    let record = services
        .chats
        .record(&id, player.as_deref(), token.as_deref())
        .await?;
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
        .on_upgrade(move |ws| crate::socket::game::serve(ws, services, (table, to), ip, slot)))
}
