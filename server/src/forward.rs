//! Forwarding to the node that owns a game (or the lobby): a request is sent on and its reply
//! handed back; a socket is opened to the owner first (its refusal handed back as is), then
//! the client's is accepted and every frame copied both ways. A forwarded request carries
//! the nodes' key (kept in the database, never sent to a client) and the client's address,
//! which the owner believes only with the key: the per-address limits count the client, not
//! the node.

use std::net::IpAddr;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequestParts, Request};
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use tokio_tungstenite::tungstenite;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::wire::{CloseCode, Code, Refusal};

/// The header with the nodes' key.
pub const NODE_KEY: &str = "x-salpakan-node-key";
/// The header with the client's address, believed only with [`NODE_KEY`].
pub const CLIENT: &str = "x-salpakan-client";

/// Whether `headers` carry the nodes' `key` (compared in time that does not depend on where
/// they differ; an empty key is never carried).
#[must_use]
pub fn carries_key(headers: &axum::http::HeaderMap, key: &[u8]) -> bool {
    !key.is_empty()
        && headers
            .get(NODE_KEY)
            .is_some_and(|got| crate::secret::same(got.as_bytes(), key))
}

/// The longest a node waits for the owner's reply (or its socket's opening).
const WAIT: Duration = Duration::from_secs(10);

/// The headers of a request handed on (the rest are the connection's own).
const REQUEST_HEADERS: [HeaderName; 3] =
    [header::CONTENT_TYPE, header::AUTHORIZATION, header::ACCEPT];
/// The headers of a reply handed back.
const REPLY_HEADERS: [HeaderName; 3] = [header::CONTENT_TYPE, header::CACHE_CONTROL, header::ALLOW];

/// The reason a forwarded socket is closed with when the owner's side ends without a close.
const OWNER_GONE: &str = "the game moves to another server; connect again";

/// Hands requests and sockets on to other nodes.
pub struct Forwarder {
    client: Client<HttpConnector, Body>,
    key: HeaderValue,
}

/// The reply when the owner cannot be reached: try again (by then another node may own it).
fn unreachable() -> Response {
    let refusal = Refusal::new(
        Code::Draining,
        "the game's server did not answer; try again shortly",
    );
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(header::CONTENT_TYPE, "application/json")],
        serde_json::to_string(&refusal.body()).unwrap_or_default(),
    )
        .into_response()
}

impl Forwarder {
    /// A forwarder whose requests carry `key`.
    ///
    /// # Panics
    /// Never: the key is hexadecimal.
    #[must_use]
    pub fn new(key: &str) -> Forwarder {
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
    pub fn from_node(&self, headers: &axum::http::HeaderMap) -> bool {
        carries_key(headers, self.key.as_bytes())
    }

    /// `request` handed to the node at `base` (`http://host:port`) for `client`; its reply.
    pub async fn http(&self, base: &str, request: Request, client: IpAddr) -> Response {
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
    /// accepted here with every frame copied both ways. A refusal of the owner's (401, 404,
    /// 429…) is handed back as it is; a request that is not a socket's is forwarded as one.
    pub async fn socket(
        &self,
        base: &str,
        request: Request,
        client: IpAddr,
        read_limit: usize,
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
            .max_message_size(Some(read_limit))
            .max_frame_size(Some(read_limit));
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
        upgrade
            .max_message_size(read_limit)
            .max_frame_size(read_limit)
            .on_upgrade(move |socket| pipe(socket, owner))
    }
}

type Owner =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Copies frames both ways until either side closes; the client's close goes on to the
/// owner, the owner's (its code and reason) back to the client, and an owner that vanishes
/// closes the client with 1012 (connect again: another node owns the game by then).
async fn pipe(client: WebSocket, owner: Owner) {
    let (mut to_client, mut from_client) = client.split();
    let (mut to_owner, mut from_owner) = owner.split();
    loop {
        tokio::select! {
            frame = from_client.next() => {
                let Some(Ok(frame)) = frame else {
                    let _ = to_owner.close().await;
                    return;
                };
                let closing = matches!(frame, Message::Close(_));
                if to_owner.send(onward(frame)).await.is_err() || closing {
                    return;
                }
            }
            frame = from_owner.next() => {
                let Some(Ok(frame)) = frame else {
                    let gone = Message::Close(Some(CloseFrame {
                        code: CloseCode::Restart.number(),
                        reason: OWNER_GONE.into(),
                    }));
                    let _ = to_client.send(gone).await;
                    return;
                };
                let closing = matches!(frame, tungstenite::Message::Close(_));
                let Some(frame) = back(frame) else { continue };
                if to_client.send(frame).await.is_err() || closing {
                    return;
                }
            }
        }
    }
}

/// A client's frame as the owner's side sends it.
fn onward(frame: Message) -> tungstenite::Message {
    match frame {
        Message::Text(text) => tungstenite::Message::text(text.as_str()),
        Message::Binary(bytes) => tungstenite::Message::binary(bytes),
        Message::Ping(bytes) => tungstenite::Message::Ping(bytes),
        Message::Pong(bytes) => tungstenite::Message::Pong(bytes),
        Message::Close(frame) => {
            tungstenite::Message::Close(frame.map(|f| tungstenite::protocol::CloseFrame {
                code: f.code.into(),
                reason: f.reason.as_str().into(),
            }))
        }
    }
}

/// An owner's frame as the client's side sends it (`None` for a raw frame).
fn back(frame: tungstenite::Message) -> Option<Message> {
    Some(match frame {
        tungstenite::Message::Text(text) => Message::text(text.as_str()),
        tungstenite::Message::Binary(bytes) => Message::binary(bytes),
        tungstenite::Message::Ping(bytes) => Message::Ping(bytes),
        tungstenite::Message::Pong(bytes) => Message::Pong(bytes),
        tungstenite::Message::Close(frame) => Message::Close(frame.map(|f| CloseFrame {
            code: f.code.into(),
            reason: f.reason.as_str().into(),
        })),
        tungstenite::Message::Frame(_) => return None,
    })
}
