//! The routes of the contract: the HTTP API, the sockets' upgrades and the page. Each
//! resource declares its routes beside their handlers ([`games`], [`players`], [`lobby`],
//! [`health`]), with what owns their requests among several nodes; handlers take the player
//! and the client's address as parameters ([`extract`]), and every refusal is the
//! contract's `{"error", "message"}` with its status ([`reply`], [`crate::refusals`]).

pub(crate) mod challenges;
pub(crate) mod extract;
#[cfg(feature = "nodes")]
pub(crate) mod forward;
pub(crate) mod games;
pub(crate) mod health;
pub(crate) mod live;
pub(crate) mod lobby;
pub(crate) mod moderation;
pub(crate) mod players;
pub(crate) mod reply;
pub(crate) mod route;
pub(crate) mod scopes;
pub(crate) mod tournaments;

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use tower_http::services::ServeDir;

use crate::services::Services;
use crate::wire::Code;
use reply::ApiError;
use route::Route;

/// The largest request body (a game's settings, an invite): 4 KiB.
const BODY_LIMIT: usize = 4096;

/// Every route of the API, as the resources declare them.
#[must_use]
pub(crate) fn routes() -> Vec<Route> {
    [
        health::routes(),
        games::routes(),
        players::routes(),
        lobby::routes(),
        challenges::routes(),
        live::routes(),
        tournaments::routes(),
        moderation::routes(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

async fn no_route() -> ApiError {
    ApiError::new(Code::NotFound, "no such route")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        Code::MethodNotAllowed,
        "this route does not take that method",
    )
}

async fn no_page() -> Response {
    reply::rendered(
        StatusCode::OK,
        "text/plain; charset=utf-8",
        "salpakan-server: the API is at /api. To serve the page, build it (scripts/build-npm) \
         and start the server with --static web/dist.\n",
    )
}

/// The server's routes over `services`.
pub(crate) fn router(services: Arc<Services>) -> Router {
    let mut api = Router::new();
    #[cfg(feature = "nodes")]
    let forwarder = forward::forwarder(&services);
    for Route {
        path,
        owner,
        handlers,
    } in routes()
    {
        #[cfg(feature = "nodes")]
        let handlers = forward::owned(&services, forwarder.as_ref(), owner, handlers);
        #[cfg(not(feature = "nodes"))]
        let _ = owner;
        api = api.route(path, handlers);
    }
    let api = api
        .route("/api", any(no_route))
        .route("/api/{*rest}", any(no_route))
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .route_layer(axum::middleware::from_fn_with_state(
            Arc::clone(&services),
            limit_requests,
        ));
    let router = match services.config.static_dir.clone() {
        Some(dir) => {
            api.fallback_service(ServeDir::new(dir).precompressed_br().precompressed_gzip())
        }
        None => api.fallback(no_page),
    };
    router.with_state(services)
}

/// Every API request counts against its client address's requests a minute: past them, 429
/// `rate-limited` before any work (a request another node forwards counts at both nodes). The
/// page's files are not counted: a page's load is a few dozen of them, and each is a file
/// read with no other work. A socket's upgrade refused (here or by the node it was
/// forwarded to) closes its connection: a client retrying refused upgrades holds no
/// connection for each.
async fn limit_requests(
    State(services): State<Arc<Services>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let upgrade = request.headers().contains_key(axum::http::header::UPGRADE);
    let peer = request
        .extensions()
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|info| info.0);
    let mut response = match peer.map(|peer| {
        let ip = extract::client_ip(&services, peer, request.headers());
        services.quotas.take_request(ip)
    }) {
        Some(Err(e)) => ApiError::from(e).into_response(),
        _ => next.run(request).await,
    };
    if upgrade && response.status() != StatusCode::SWITCHING_PROTOCOLS {
        response.headers_mut().insert(
            axum::http::header::CONNECTION,
            axum::http::HeaderValue::from_static("close"),
        );
    }
    response
}

#[cfg(test)]
mod tests {
    use super::route::Owner;

    /// A game's routes are owned by its game, the lobby's state by the lobby; nothing else
    /// is owned (any node serves it).
    #[test]
    fn a_game_s_routes_and_the_lobby_s_are_owned_the_rest_served_anywhere() {
        let lobby = [
            "/api/lobby",
            "/api/lobby/socket",
            "/api/players/socket",
            "/api/seeks",
            "/api/seeks/{sid}",
            "/api/seeks/{sid}/accept",
            "/api/pool",
            "/api/bots",
            "/api/challenges",
            "/api/challenges/{cid}",
            "/api/challenges/{cid}/accept",
            "/api/challenges/{cid}/decline",
            "/api/tournaments",
            "/api/tournaments/{tid}",
            "/api/tournaments/{tid}/register",
            "/api/tournaments/{tid}/withdraw",
            "/api/tournaments/{tid}/start",
            "/api/tournaments/{tid}/pause",
            "/api/tournaments/{tid}/resume",
            "/api/tournaments/{tid}/extend",
            "/api/tournaments/{tid}/decide",
        ];
        let routes = super::routes();
        assert_eq!(routes.len(), 47);
        for route in &routes {
            let expected = if route.path.starts_with("/api/games/{id}") {
                Owner::Game
            } else if lobby.contains(&route.path) {
                Owner::Lobby
            } else {
                Owner::Any
            };
            assert_eq!(route.owner, expected, "{}", route.path);
        }
        for path in lobby {
            assert!(routes.iter().any(|r| r.path == path), "{path}");
        }
    }
}
