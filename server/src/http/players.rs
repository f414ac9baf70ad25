//! The players' routes: registration, profiles, finished games, the leaderboard, and the
//! player socket.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::response::Response;
use axum::routing::{delete, get, post};

use super::extract::{AddressSocket, Body, Client, MaybePlayer, Player};
use super::reply::{ApiError, json};
use super::route::{Owner, Route, route};
use crate::services::Services;
use crate::wire::{RedeemRequest, RegisterRequest, TokenRequest};

/// The players' routes.
pub(crate) fn routes() -> Vec<Route> {
    vec![
        route("/api/players", Owner::Any, post(register)),
        route("/api/players/socket", Owner::Lobby, get(socket)),
        route("/api/players/{name}", Owner::Any, get(profile)),
        route("/api/players/{name}/games", Owner::Any, get(games)),
        route("/api/leaderboard", Owner::Any, get(leaderboard)),
        route("/api/bots", Owner::Lobby, get(bots)),
        route("/api/sharing", Owner::Any, get(sharing).put(share)),
        route("/api/tokens", Owner::Any, get(tokens).post(mint)),
        route("/api/tokens/{id}", Owner::Any, delete(revoke)),
        route("/api/link", Owner::Any, post(link)),
        route("/api/link/redeem", Owner::Any, post(redeem)),
    ]
}

async fn link(
    State(services): State<Arc<Services>>,
    Player(player): Player,
) -> Result<Response, ApiError> {
    Ok(json(
        StatusCode::CREATED,
        &services.players.link(&player).await?,
    ))
}

async fn redeem(
    State(services): State<Arc<Services>>,
    Client(ip): Client,
    Body(request): Body<RedeemRequest>,
) -> Result<Response, ApiError> {
    let linked = services.players.redeem(request, ip).await?;
    Ok(json(StatusCode::CREATED, &linked))
}

async fn tokens(
    State(services): State<Arc<Services>>,
    Player(player): Player,
) -> Result<Response, ApiError> {
    Ok(json(StatusCode::OK, &services.players.tokens(&player)?))
}

async fn mint(
    State(services): State<Arc<Services>>,
    Player(player): Player,
    Body(request): Body<TokenRequest>,
) -> Result<Response, ApiError> {
    let minted = services.players.mint(&player, request).await?;
    Ok(json(StatusCode::CREATED, &minted))
}

async fn revoke(
    State(services): State<Arc<Services>>,
    Player(player): Player,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    services.players.revoke(&player, &id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn sharing(
    State(services): State<Arc<Services>>,
    Player(player): Player,
) -> Result<Response, ApiError> {
    let sharing = services.players.sharing(&player)?;
    Ok(json(StatusCode::OK, &sharing))
}

async fn share(
    State(services): State<Arc<Services>>,
    Player(player): Player,
    Body(sharing): Body<crate::store::Sharing>,
) -> Result<Response, ApiError> {
    let sharing = services.players.set_sharing(&player, sharing).await?;
    Ok(json(StatusCode::OK, &sharing))
}

async fn register(
    State(services): State<Arc<Services>>,
    Client(ip): Client,
    Body(request): Body<RegisterRequest>,
) -> Result<Response, ApiError> {
    let registered = services.players.register(request, ip).await?;
    Ok(json(StatusCode::CREATED, &registered))
}

async fn profile(
    State(services): State<Arc<Services>>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    Ok(json(
        StatusCode::OK,
        &services.players.profile(&name).await?,
    ))
}

async fn games(
    State(services): State<Arc<Services>>,
    MaybePlayer(asker): MaybePlayer,
    Path(name): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let page = (
        query.get("limit").map(String::as_str),
        query.get("before").map(String::as_str),
    );
    let list = services
        .players
        .games(&name, page, asker.as_deref())
        .await?;
    Ok(json(StatusCode::OK, &list))
}

async fn leaderboard(State(services): State<Arc<Services>>) -> Response {
    json(StatusCode::OK, &services.ratings.leaderboard())
}

async fn bots(State(services): State<Arc<Services>>) -> Response {
    let sockets = &services.sockets;
    json(
        StatusCode::OK,
        &services.players.bots(|name| sockets.online(name)),
    )
}

async fn socket(
    State(services): State<Arc<Services>>,
    AddressSocket(upgrade, slot): AddressSocket,
) -> Response {
    upgrade.on_upgrade(move |ws| crate::socket::lobby::serve_player(ws, services, slot))
}
