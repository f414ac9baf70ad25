//! The routes of the contract: the HTTP API, the game socket's upgrade and the page.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::Router;
use axum::extract::rejection::StringRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use serde_json::{Value, json};
use tower_http::services::ServeDir;

use crate::hub::{HttpError, Hub};

/// The largest request body (a game's settings, an invite): 4 KiB.
const BODY_LIMIT: usize = 4096;
/// Frames larger than the contract's 4,096 bytes are read (up to this) only to be answered
/// with close code 1009; larger still, the connection is dropped.
const READ_LIMIT: usize = 1 << 20;
/// A socket's read and write buffers (they grow for a larger frame).
const SOCKET_BUFFER: usize = 8 * 1024;

fn json_reply(status: u16, body: &Value) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

fn reply(result: Result<Value, HttpError>, ok: u16) -> Response {
    match result {
        Ok(body) => json_reply(ok, &body),
        Err(e) => json_reply(e.status, &e.body()),
    }
}

/// The client's address: the connection's, or the last `X-Forwarded-For` entry when the
/// server is told to trust its proxy.
fn client_ip(hub: &Hub, peer: SocketAddr, headers: &HeaderMap) -> IpAddr {
    if hub.config().trust_forwarded_for
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
    json_reply(
        200,
        &json!({"ok": true, "version": env!("CARGO_PKG_VERSION")}),
    )
}

/// A body that could not be read (over 4 KiB, not UTF-8), in the contract's error shape.
fn unreadable(rejection: &StringRejection) -> Response {
    let code = if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        "too-large"
    } else {
        "bad-message"
    };
    let body = json!({"error": code, "message": rejection.body_text()});
    json_reply(rejection.status().as_u16(), &body)
}

async fn create(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<String, StringRejection>,
) -> Response {
    let body = match body {
        Ok(body) => body,
        Err(rejection) => return unreadable(&rejection),
    };
    let ip = client_ip(&hub, peer, &headers);
    reply(hub.create(&body, ip).await, 201)
}

async fn join(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    body: Result<String, StringRejection>,
) -> Response {
    let body = match body {
        Ok(body) => body,
        Err(rejection) => return unreadable(&rejection),
    };
    reply(hub.join(&id, &body).await, 200)
}

async fn summary(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Response {
    reply(hub.summary(&id).await, 200)
}

async fn record(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Response {
    match hub.record(&id).await {
        Ok(text) => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            text,
        )
            .into_response(),
        Err(e) => json_reply(e.status, &e.body()),
    }
}

async fn socket(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Response {
    let (live, to) = match hub
        .authorize(&id, query.get("token").map(String::as_str))
        .await
    {
        Ok(found) => found,
        Err(e) => return json_reply(e.status, &e.body()),
    };
    let upgrade = match upgrade {
        Ok(upgrade) => upgrade,
        Err(rejection) => return rejection.into_response(),
    };
    let slot = match hub.socket_slot(client_ip(&hub, peer, &headers)) {
        Ok(slot) => slot,
        Err(e) => return json_reply(e.status, &e.body()),
    };
    upgrade
        .max_message_size(READ_LIMIT)
        .max_frame_size(READ_LIMIT)
        // Frames are small: small buffers keep thousands of sockets in little memory (the
        // default is 128 KiB each way per socket).
        .read_buffer_size(SOCKET_BUFFER)
        .write_buffer_size(SOCKET_BUFFER)
        .on_upgrade(move |ws| crate::socket::serve(ws, hub, live, to, slot))
}

async fn no_route() -> Response {
    json_reply(
        404,
        &json!({"error": "not-found", "message": "no such route"}),
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

/// The server's routes over `hub`.
pub fn router(hub: Arc<Hub>) -> Router {
    let api = Router::new()
        .route("/api/health", get(health))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(summary))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/socket", get(socket))
        .route("/api", any(no_route))
        .route("/api/{*rest}", any(no_route))
        .layer(DefaultBodyLimit::max(BODY_LIMIT));
    let router = match hub.config().static_dir.clone() {
        Some(dir) => api.fallback_service(ServeDir::new(dir)),
        None => api.fallback(no_page),
    };
    router.with_state(hub)
}
