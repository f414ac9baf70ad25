//! The routes of the contract: the HTTP API, the game socket's upgrade and the page. Every
//! body is typed ([`crate::wire`]): requests are read into their type by one extractor, replies
//! are serialized from theirs, and every refusal is the contract's `{"error", "message"}`
//! with its HTTP status.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, delete, get, post};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tower_http::services::ServeDir;

use crate::hub::{Hub, HubError};
use crate::wire::{
    Code, CreateRequest, Health, JoinRequest, PoolRequest, Refusal, RegisterRequest, SeekRequest,
};

/// The largest request body (a game's settings, an invite): 4 KiB.
const BODY_LIMIT: usize = 4096;
/// Frames larger than the contract's 4,096 bytes are read (up to this) only to be answered
/// with close code 1009; larger still, the connection is dropped.
const READ_LIMIT: usize = 1 << 20;
/// A socket's read and write buffers (they grow for a larger frame).
const SOCKET_BUFFER: usize = 8 * 1024;

/// A reply: a typed body as JSON with its status.
fn json(status: StatusCode, body: &impl Serialize) -> Response {
    let text = serde_json::to_string(body).unwrap_or_default();
    (status, [(header::CONTENT_TYPE, "application/json")], text).into_response()
}

/// A refusal as the contract's error reply.
struct ApiError(StatusCode, Refusal);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        crate::telemetry::refused(self.1.code.word());
        json(self.0, &self.1.body())
    }
}

/// An internal error's cause for the log (the client's reply never names it).
struct DebugCause<'a>(&'a HubError);

impl std::fmt::Display for DebugCause<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            HubError::Store(cause) => write!(f, "{cause}"),
            other => write!(f, "{other:?}"),
        }
    }
}

impl From<HubError> for ApiError {
    fn from(e: HubError) -> ApiError {
        let status = match &e {
            HubError::Invalid(_) | HubError::BadName => StatusCode::BAD_REQUEST,
            HubError::BadKey => StatusCode::UNAUTHORIZED,
            HubError::NameTaken | HubError::NoSocket | HubError::OwnSeek | HubError::OwnGame => {
                StatusCode::CONFLICT
            }
            HubError::TooManySeeks(_) | HubError::TooManyPlayers(_) => {
                StatusCode::TOO_MANY_REQUESTS
            }
            HubError::NotFound => StatusCode::NOT_FOUND,
            HubError::Draining | HubError::Elsewhere(_) => StatusCode::SERVICE_UNAVAILABLE,
            HubError::Unauthorized => StatusCode::UNAUTHORIZED,
            HubError::SeatTaken | HubError::NotOver => StatusCode::CONFLICT,
            HubError::TooManyGames(_)
            | HubError::TooManyConnections(_)
            | HubError::TooManyReconnects(_)
            | HubError::TooManyCreated(_) => StatusCode::TOO_MANY_REQUESTS,
            HubError::Store(_) | HubError::Unreplayable(_) => {
                tracing::error!(error = %DebugCause(&e), "a request failed");
                StatusCode::INTERNAL_SERVER_ERROR
            }
        };
        ApiError(status, e.refusal())
    }
}

/// A request body read as JSON into `T`, whatever its content type (the contract asks for
/// none); an empty body reads as `{}`. A body that cannot be read or is not a `T` is refused
/// in the contract's shape: 413 `too-large` over the limit, 400 `bad-message` otherwise,
/// naming what is wrong.
struct Body<T>(T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Body<T>, ApiError> {
        let bytes =
            Bytes::from_request(request, state)
                .await
                .map_err(|rejection: BytesRejection| {
                    let code = if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                        Code::TooLarge
                    } else {
                        Code::BadMessage
                    };
                    ApiError(
                        rejection.status(),
                        Refusal::new(code, rejection.body_text()),
                    )
                })?;
        let text = std::str::from_utf8(&bytes).map_err(|e| {
            ApiError(
                StatusCode::BAD_REQUEST,
                Refusal::new(Code::BadMessage, format!("the body is not UTF-8: {e}")),
            )
        })?;
        let text = if text.trim().is_empty() { "{}" } else { text };
        serde_json::from_str(text).map(Body).map_err(|e| {
            ApiError(
                StatusCode::BAD_REQUEST,
                Refusal::new(Code::BadMessage, e.to_string()),
            )
        })
    }
}

/// The client's address as the per-address limits count it: the connection's, or, for a
/// connection from a trusted proxy, the last `X-Forwarded-For` entry; an IPv6 address by its
/// prefix ([`crate::config::AddressKey`]).
fn client_ip(hub: &Hub, peer: SocketAddr, headers: &HeaderMap) -> IpAddr {
    hub.config()
        .address_key
        .of(forwarded_for(hub, peer, headers))
}

fn forwarded_for(hub: &Hub, peer: SocketAddr, headers: &HeaderMap) -> IpAddr {
    let config = hub.config();
    // A request another node forwarded names its client, believed with the nodes' key.
    if let Some(key) = hub.node_key()
        && crate::forward::carries_key(headers, key.as_bytes())
        && let Some(ip) = headers
            .get(crate::forward::CLIENT)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse().ok())
    {
        return ip;
    }
    if config
        .trusted_proxies
        .iter()
        .any(|proxy| proxy.contains(peer.ip()))
        && let Some(ip) = headers
            .get_all("x-forwarded-for")
            .iter()
            .next_back()
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.rsplit(',').next())
            .and_then(|v| v.trim().parse().ok())
    {
        return ip;
    }
    peer.ip()
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
async fn ready(State(hub): State<Arc<Hub>>) -> Response {
    let ready = hub.ready().await;
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    json(status, &serde_json::json!({ "ready": ready }))
}

/// The player a request is made as: `None` without an `Authorization` header.
fn player(hub: &Hub, headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let header = headers
        .get(header::AUTHORIZATION)
        .map(|value| value.to_str().unwrap_or(""));
    Ok(hub.player_of(header)?)
}

/// The player a request must be made as.
fn required_player(hub: &Hub, headers: &HeaderMap) -> Result<String, ApiError> {
    player(hub, headers)?.ok_or_else(|| HubError::BadKey.into())
}

async fn create(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Body(request): Body<CreateRequest>,
) -> Result<Response, ApiError> {
    let ip = client_ip(&hub, peer, &headers);
    let player = player(&hub, &headers)?;
    let created = hub.create(request, ip, player).await?;
    Ok(json(StatusCode::CREATED, &created))
}

async fn join(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Body(request): Body<JoinRequest>,
) -> Result<Response, ApiError> {
    let player = player(&hub, &headers)?;
    let joined = hub.join(&id, request, player).await?;
    Ok(json(StatusCode::OK, &joined))
}

async fn register(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Body(request): Body<RegisterRequest>,
) -> Result<Response, ApiError> {
    let ip = client_ip(&hub, peer, &headers);
    let registered = hub.register(request, ip).await?;
    Ok(json(StatusCode::CREATED, &registered))
}

async fn profile(
    State(hub): State<Arc<Hub>>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    Ok(json(StatusCode::OK, &hub.profile(&name)?))
}

async fn player_games(
    State(hub): State<Arc<Hub>>,
    Path(name): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let list = hub
        .player_games(
            &name,
            query.get("limit").map(String::as_str),
            query.get("before").map(String::as_str),
        )
        .await?;
    Ok(json(StatusCode::OK, &list))
}

async fn leaderboard(State(hub): State<Arc<Hub>>) -> Response {
    json(StatusCode::OK, &hub.leaderboard())
}

async fn lobby(State(hub): State<Arc<Hub>>) -> Response {
    json(StatusCode::OK, &hub.lobby())
}

async fn create_seek(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Body(request): Body<SeekRequest>,
) -> Result<Response, ApiError> {
    let player = required_player(&hub, &headers)?;
    let ip = client_ip(&hub, peer, &headers);
    Ok(json(
        StatusCode::CREATED,
        &hub.create_seek(&player, request, ip)?,
    ))
}

async fn withdraw_seek(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    Path(sid): Path<String>,
) -> Result<Response, ApiError> {
    let player = required_player(&hub, &headers)?;
    hub.withdraw_seek(&player, &sid)?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn accept_seek(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Path(sid): Path<String>,
) -> Result<Response, ApiError> {
    let player = required_player(&hub, &headers)?;
    let ip = client_ip(&hub, peer, &headers);
    Ok(json(
        StatusCode::OK,
        &hub.accept_seek(&player, &sid, ip).await?,
    ))
}

async fn join_pool(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Body(request): Body<PoolRequest>,
) -> Result<Response, ApiError> {
    let player = required_player(&hub, &headers)?;
    let ip = client_ip(&hub, peer, &headers);
    Ok(json(
        StatusCode::ACCEPTED,
        &hub.join_pool(&player, request, ip).await?,
    ))
}

async fn leave_pool(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> Result<Response, ApiError> {
    let player = required_player(&hub, &headers)?;
    hub.leave_pool(&player);
    Ok(StatusCode::NO_CONTENT.into_response())
}

type Upgrade = Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>;

/// The upgrade of a player or lobby socket: a slot of the address's sockets, small buffers.
fn upgraded(
    hub: &Arc<Hub>,
    peer: SocketAddr,
    headers: &HeaderMap,
    upgrade: Upgrade,
) -> Result<(WebSocketUpgrade, crate::hub::SocketSlot), ApiError> {
    let upgrade = upgrade.map_err(|rejection| {
        HubError::Invalid(Refusal::new(Code::BadMessage, rejection.body_text()))
    })?;
    let slot = hub
        .quotas()
        .take_socket(client_ip(hub, peer, headers), &hub.config().limits)?;
    let upgrade = upgrade
        .max_message_size(READ_LIMIT)
        .max_frame_size(READ_LIMIT)
        .read_buffer_size(SOCKET_BUFFER)
        .write_buffer_size(SOCKET_BUFFER);
    Ok((upgrade, slot))
}

async fn player_socket(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    upgrade: Upgrade,
) -> Result<Response, ApiError> {
    let (upgrade, slot) = upgraded(&hub, peer, &headers, upgrade)?;
    Ok(upgrade.on_upgrade(move |ws| crate::lobby_socket::serve_player(ws, hub, slot)))
}

async fn lobby_socket(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    upgrade: Upgrade,
) -> Result<Response, ApiError> {
    let (upgrade, slot) = upgraded(&hub, peer, &headers, upgrade)?;
    hub.open_lobby_socket()?;
    Ok(upgrade.on_upgrade(move |ws| crate::lobby_socket::serve_lobby(ws, hub, slot)))
}

async fn summary(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    Ok(json(StatusCode::OK, &hub.summary(&id).await?))
}

async fn record(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let text = hub.record(&id).await?;
    Ok((
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        text,
    )
        .into_response())
}

async fn replay(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let reply = hub.replay(&id).await?;
    Ok((
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        reply.to_string(),
    )
        .into_response())
}

async fn socket(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let (live, to) = hub
        .authorize(&id, query.get("token").map(String::as_str))
        .await?;
    let admitted = match upgrade {
        Ok(upgrade) => hub
            .admit_socket(&live, to, client_ip(&hub, peer, &headers))
            .await
            .map(|slot| (upgrade, slot)),
        Err(rejection) => Err(HubError::Invalid(Refusal::new(
            Code::BadMessage,
            rejection.body_text(),
        ))),
    };
    let (upgrade, slot) = match admitted {
        Ok(admitted) => admitted,
        Err(e) => {
            // A finished game loaded for this request leaves memory again.
            hub.let_go(&live).await;
            return Err(e.into());
        }
    };
    Ok(upgrade
        .max_message_size(READ_LIMIT)
        .max_frame_size(READ_LIMIT)
        // Frames are small: small buffers keep thousands of sockets in little memory (the
        // default is 128 KiB each way per socket).
        .read_buffer_size(SOCKET_BUFFER)
        .write_buffer_size(SOCKET_BUFFER)
        .on_upgrade(move |ws| crate::socket::serve(ws, hub, live, to, slot)))
}

async fn no_route() -> ApiError {
    ApiError(
        StatusCode::NOT_FOUND,
        Refusal::new(Code::NotFound, "no such route"),
    )
}

async fn method_not_allowed() -> ApiError {
    ApiError(
        StatusCode::METHOD_NOT_ALLOWED,
        Refusal::new(
            Code::MethodNotAllowed,
            "this route does not take that method",
        ),
    )
}

async fn no_page() -> Response {
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "salpakan-server: the API is at /api. To serve the page, build it (scripts/build-npm) \
         and start the server with --static web/dist.\n",
    )
        .into_response()
}

/// What owns the requests to `path`: a game (its id), the lobby ([`LOBBY`]), or nothing
/// (served by any node).
///
/// [`LOBBY`]: crate::store::LOBBY
fn owned_by(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("/api/")?;
    if let Some(game) = rest.strip_prefix("games/") {
        return game.split('/').next().filter(|id| !id.is_empty());
    }
    let lobby = rest == "lobby"
        || rest == "lobby/socket"
        || rest == "players/socket"
        || rest == "pool"
        || rest == "seeks"
        || rest.starts_with("seeks/");
    lobby.then_some(crate::store::LOBBY)
}

/// Serves here what this node owns; forwards the rest to its owner (a request another node
/// forwarded is never forwarded again: it is refused with 503 `draining`, try again).
async fn to_owner(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
    next: axum::middleware::Next,
) -> Response {
    let Some(key) = owned_by(request.uri().path()).map(str::to_owned) else {
        return next.run(request).await;
    };
    let place = match hub.place(&key).await {
        Ok(place) => place,
        Err(e) => return ApiError::from(e).into_response(),
    };
    let crate::hub::Place::At(url) = place else {
        return next.run(request).await;
    };
    let Some(forwarder) = request
        .extensions()
        .get::<Arc<crate::forward::Forwarder>>()
        .cloned()
    else {
        return next.run(request).await;
    };
    if forwarder.from_node(request.headers()) {
        return ApiError::from(HubError::Elsewhere(url)).into_response();
    }
    let client = client_ip(&hub, peer, request.headers());
    if request.uri().path().ends_with("/socket") {
        forwarder.socket(&url, request, client, READ_LIMIT).await
    } else {
        forwarder.http(&url, request, client).await
    }
}

/// The server's routes over `hub`.
pub fn router(hub: Arc<Hub>) -> Router {
    let api = Router::new()
        .route("/api/health", get(health))
        .route("/api/ready", get(ready))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(summary))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/replay", get(replay))
        .route("/api/games/{id}/socket", get(socket))
        .route("/api/players", post(register))
        .route("/api/players/socket", get(player_socket))
        .route("/api/players/{name}", get(profile))
        .route("/api/players/{name}/games", get(player_games))
        .route("/api/leaderboard", get(leaderboard))
        .route("/api/lobby", get(lobby))
        .route("/api/lobby/socket", get(lobby_socket))
        .route("/api/seeks", post(create_seek))
        .route("/api/seeks/{sid}", delete(withdraw_seek))
        .route("/api/seeks/{sid}/accept", post(accept_seek))
        .route("/api/pool", post(join_pool).delete(leave_pool))
        .route("/api", any(no_route))
        .route("/api/{*rest}", any(no_route))
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT));
    // One node of several: a game's (or the lobby's) requests go to the node that owns it.
    let api = match hub.node_key() {
        Some(key) => api
            .layer(axum::middleware::from_fn_with_state(
                Arc::clone(&hub),
                to_owner,
            ))
            .layer(axum::Extension(Arc::new(crate::forward::Forwarder::new(
                key,
            )))),
        None => api,
    };
    let router = match hub.config().static_dir.clone() {
        Some(dir) => api.fallback_service(ServeDir::new(dir)),
        None => api.fallback(no_page),
    };
    router.with_state(hub)
}

#[cfg(test)]
mod tests {
    use super::owned_by;
    use crate::store::LOBBY;

    #[test]
    fn a_game_s_routes_and_the_lobby_s_are_owned_the_rest_served_anywhere() {
        for (path, owner) in [
            ("/api/games/abc", Some("abc")),
            ("/api/games/abc/join", Some("abc")),
            ("/api/games/abc/record", Some("abc")),
            ("/api/games/abc/replay", Some("abc")),
            ("/api/games/abc/socket", Some("abc")),
            ("/api/lobby", Some(LOBBY)),
            ("/api/lobby/socket", Some(LOBBY)),
            ("/api/players/socket", Some(LOBBY)),
            ("/api/seeks", Some(LOBBY)),
            ("/api/seeks/s1", Some(LOBBY)),
            ("/api/seeks/s1/accept", Some(LOBBY)),
            ("/api/pool", Some(LOBBY)),
            ("/api/games", None),
            ("/api/games/", None),
            ("/api/players", None),
            ("/api/players/Maria", None),
            ("/api/players/Maria/games", None),
            ("/api/leaderboard", None),
            ("/api/ready", None),
            ("/api/health", None),
            ("/index.html", None),
        ] {
            assert_eq!(owned_by(path), owner, "{path}");
        }
    }
}
