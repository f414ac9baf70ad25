//! Forwarding to the node that owns a game (or the lobby) (feature `nodes`): a request is
//! sent on and its reply handed back; a socket is opened to the owner first (its refusal
//! handed back as is), then the client's is accepted and served by the one socket loop
//! ([`crate::socket::forward`]). A forwarded request carries
//! the nodes' key (kept in the database, never sent to a client) and the client's address,
//! which the owner believes only with the key: the per-address limits count the client, not
//! the node.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, FromRequestParts, RawPathParams, Request, State};
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::MethodRouter;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use tokio_tungstenite::tungstenite;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use super::extract::{CLIENT, NODE_KEY, carries_key, client_ip};
use super::reply::{ApiError, json};
use super::route::Owner;
use crate::services::Services;
use crate::services::games::{GameError, Place};
use crate::services::quotas::SocketSlot;
use crate::socket::{self, Env, READ_LIMIT};
use crate::store::LOBBY;
use crate::wire::{Code, Refusal};

/// The longest a node waits for the owner's reply (or its socket's opening).
const WAIT: Duration = Duration::from_secs(10);

/// The headers of a request handed on (the rest are the connection's own).
const REQUEST_HEADERS: [HeaderName; 3] =
    [header::CONTENT_TYPE, header::AUTHORIZATION, header::ACCEPT];
/// The headers of a reply handed back.
const REPLY_HEADERS: [HeaderName; 3] = [header::CONTENT_TYPE, header::CACHE_CONTROL, header::ALLOW];

/// Hands requests and sockets on to other nodes.
pub(crate) struct Forwarder {
    client: Client<HttpConnector, Body>,
    key: HeaderValue,
}

/// The reply when the owner cannot be reached: try again (by then another node may own it).
fn unreachable() -> Response {
    let refusal = Refusal::new(
        Code::Draining,
        "the game's server did not answer; try again shortly",
    );
    json(StatusCode::SERVICE_UNAVAILABLE, &refusal.body())
}

impl Forwarder {
    /// A forwarder whose requests carry `key`.
    ///
    /// # Panics
    /// Never: the key is hexadecimal.
    #[must_use]
    pub(crate) fn new(key: &str) -> Forwarder {
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        connector.set_connect_timeout(Some(WAIT));
        Forwarder {
            client: Client::builder(TokioExecutor::new())
                .pool_idle_timeout(Duration::from_secs(30))
                .build(connector),
            key: HeaderValue::from_str(key).unwrap_or(HeaderValue::from_static("")),
        }
    }

    /// Whether `request` was forwarded by a node (it carries the nodes' key).
    #[must_use]
    pub(crate) fn is_from_node(&self, headers: &axum::http::HeaderMap) -> bool {
        carries_key(headers, self.key.as_bytes())
    }

    /// `request` handed to the node at `base` (`http://host:port`) for `client`; its reply.
    pub(crate) async fn http(&self, base: &str, request: Request, client: IpAddr) -> Response {
        crate::telemetry::forwarded("http");
        let (parts, body) = request.into_parts();
        let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
        let Ok(uri) = format!("{base}{path}").parse::<axum::http::Uri>() else {
            return unreachable();
        };
        let mut onward = axum::http::Request::builder().method(parts.method).uri(uri);
        for name in REQUEST_HEADERS {
            for value in parts.headers.get_all(&name) {
                onward = onward.header(&name, value);
            }
        }
        let onward = onward
            .header(NODE_KEY, &self.key)
            .header(CLIENT, client.to_string())
            .body(body);
        let Ok(onward) = onward else {
            return unreachable();
        };
        match tokio::time::timeout(WAIT, self.client.request(onward)).await {
            Ok(Ok(reply)) => {
                let (parts, body) = reply.into_parts();
                let mut back = Response::builder().status(parts.status);
                for name in REPLY_HEADERS {
                    for value in parts.headers.get_all(&name) {
                        back = back.header(&name, value);
                    }
                }
                back.body(Body::new(body)).unwrap_or_else(|_| unreachable())
            }
            _ => unreachable(),
        }
    }

    /// The socket `request` asks for, opened at the node at `base` for `client`, then
    /// accepted here and served by the socket loop of `env`. A refusal of the owner's (401,
    /// 404, 429…) is handed back as it is; a request that is not a socket's is forwarded as
    /// one.
    pub(crate) async fn socket(
        &self,
        base: &str,
        request: Request,
        client: IpAddr,
        held: Held,
    ) -> Response {
        let (mut parts, body) = request.into_parts();
        let upgrade = match WebSocketUpgrade::from_request_parts(&mut parts, &()).await {
            Ok(upgrade) => upgrade,
            Err(_) => {
                return self
                    .http(base, Request::from_parts(parts, body), client)
                    .await;
            }
        };
        crate::telemetry::forwarded("socket");
        let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
        let ws = base
            .replacen("https://", "wss://", 1)
            .replacen("http://", "ws://", 1);
        let Ok(mut onward) = format!("{ws}{path}").into_client_request() else {
            return unreachable();
        };
        onward.headers_mut().insert(NODE_KEY, self.key.clone());
        if let Ok(value) = HeaderValue::from_str(&client.to_string()) {
            onward.headers_mut().insert(CLIENT, value);
        }
        let config = tungstenite::protocol::WebSocketConfig::default()
            .max_message_size(Some(READ_LIMIT))
            .max_frame_size(Some(READ_LIMIT));
        let opened = tokio::time::timeout(
            WAIT,
            tokio_tungstenite::connect_async_with_config(onward, Some(config), true),
        )
        .await;
        let owner = match opened {
            Ok(Ok((owner, _))) => owner,
            Ok(Err(tungstenite::Error::Http(refused))) => {
                let (parts, body) = refused.into_parts();
                let mut back = Response::builder().status(parts.status);
                for name in REPLY_HEADERS {
                    for value in parts.headers.get_all(&name) {
                        back = back.header(&name, value);
                    }
                }
                return back
                    .body(Body::from(body.unwrap_or_default()))
                    .unwrap_or_else(|_| unreachable());
            }
            _ => return unreachable(),
        };
        socket::upgrade(upgrade).on_upgrade(move |ws| {
            let Held { env, slot, lapse } = held;
            socket::forward::serve(ws, env, owner, lapse, slot)
        })
    }
}

/// What a forwarded socket holds here: the loop's limits, its slot among its client
/// address's sockets at this node, and what tells it the owner's lease lapsed.
pub(crate) struct Held {
    /// The socket loop's limits and signals.
    pub env: Env,
    /// The client address's socket slot at this node (none for a seat's socket).
    pub slot: Option<SocketSlot>,
    /// Turns true when the owner's lease lapses.
    pub lapse: tokio::sync::watch::Receiver<bool>,
}

/// What forwards one route's requests: the services, the route's owner, the forwarder.
#[derive(Clone)]
struct Owning {
    services: Arc<Services>,
    owner: Owner,
    forwarder: Arc<Forwarder>,
}

/// The forwarder of one node of several (`None` for a server alone).
#[must_use]
pub(crate) fn forwarder(services: &Services) -> Option<Arc<Forwarder>> {
    services.node_key().map(|key| Arc::new(Forwarder::new(key)))
}

/// `handlers` of a route owned by `owner`: with a `forwarder` (one node of several), served
/// here for what this node owns and forwarded to the owner for the rest; a server alone, or
/// a route any node serves, as they are.
pub(crate) fn owned(
    services: &Arc<Services>,
    forwarder: Option<&Arc<Forwarder>>,
    owner: Owner,
    handlers: MethodRouter<Arc<Services>>,
) -> MethodRouter<Arc<Services>> {
    let Some(forwarder) = forwarder else {
        return handlers;
    };
    if owner == Owner::Any {
        return handlers;
    }
    let owning = Owning {
        services: Arc::clone(services),
        owner,
        forwarder: Arc::clone(forwarder),
    };
    handlers.route_layer(axum::middleware::from_fn_with_state(owning, to_owner))
}

/// Serves here what this node owns; forwards the rest to its owner (a request another node
/// forwarded is never forwarded again: it is refused with 503 `draining`, try again).
async fn to_owner(
    State(owning): State<Owning>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    params: RawPathParams,
    request: Request,
    next: axum::middleware::Next,
) -> Response {
    let key = match owning.owner {
        Owner::Any => return next.run(request).await,
        Owner::Lobby => LOBBY.to_owned(),
        Owner::Game => match params.iter().find(|(name, _)| *name == "id") {
            Some((_, id)) => id.to_owned(),
            None => return next.run(request).await,
        },
    };
    let services = &owning.services;
    let place = match services.games.place(&key).await {
        Ok(place) => place,
        Err(e) => return ApiError::from(e).into_response(),
    };
    let Place::At(url) = place else {
        return next.run(request).await;
    };
    if owning.forwarder.is_from_node(request.headers()) {
        return ApiError::from(GameError::Elsewhere(url)).into_response();
    }
    let client = client_ip(services, peer, request.headers());
    if request.uri().path().ends_with("/socket") {
        // A forwarded socket counts against its client's sockets here as it does at the owner
        // (a spectator's, a player's, the lobby's: a seat's, with a token, is bounded by its
        // seat there instead), and closes when the owner's lease lapses.
        let seat = request.uri().query().is_some_and(|q| q.contains("token="));
        let slot = if seat {
            None
        } else {
            match services.quotas.take_socket(client) {
                Ok(slot) => Some(slot),
                Err(e) => return ApiError::from(e).into_response(),
            }
        };
        let Some(cluster) = services.cluster.as_ref() else {
            return next.run(request).await;
        };
        let held = Held {
            env: Env::of(services),
            slot,
            lapse: cluster.lapse_of(&url),
        };
        owning.forwarder.socket(&url, request, client, held).await
    } else {
        owning.forwarder.http(&url, request, client).await
    }
}
