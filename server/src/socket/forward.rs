//! A socket handed on to the node that owns its game (or the lobby) (feature `nodes`): the
//! client's frames go to the owner, the owner's come back through the outbox, and the
//! owner's close (its code and reason) closes the client's socket. This node pings the
//! client and times it out like any socket; the owner counts the client's messages.

use std::borrow::Cow;

use axum::extract::ws::WebSocket;
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite;

use super::{Closing, Env, Flow, Handler, Incoming, Outbox, Socket};
use crate::services::outbox::Out;
use crate::wire::CloseCode;

/// The owner's side of a forwarded socket.
pub type Owner =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The reason a forwarded socket is closed with when the owner's side ends without a close.
const OWNER_GONE: &str = "the game moves to another server; connect again";

struct ToOwner(SplitSink<Owner, tungstenite::Message>);

impl Handler for ToOwner {
    async fn frame(&mut self, frame: Incoming, _: Instant) -> Flow {
        let onward = match frame {
            Incoming::Text(text) => tungstenite::Message::text(text.as_str()),
            Incoming::Binary(bytes) => tungstenite::Message::binary(bytes),
        };
        match self.0.send(onward).await {
            Ok(()) => Flow::Go,
            Err(_) => Flow::Close(Closing::new(CloseCode::Restart, OWNER_GONE)),
        }
    }

    async fn finish(mut self) {
        let _ = self.0.close().await;
    }
}

struct FromOwner(SplitStream<Owner>);

impl Outbox for FromOwner {
    async fn next(&mut self) -> Option<Out> {
        loop {
            let frame = match self.0.next().await {
                Some(Ok(frame)) => frame,
                _ => return Some(Out::close(CloseCode::Restart, OWNER_GONE)),
            };
            return Some(match frame {
                tungstenite::Message::Text(text) => Out::Text(text.as_str().into()),
                tungstenite::Message::Close(Some(frame)) => Out::Close(
                    CloseCode::from_number(frame.code.into()).unwrap_or(CloseCode::Restart),
                    Cow::Owned(frame.reason.as_str().to_owned()),
                ),
                tungstenite::Message::Close(None) => Out::close(CloseCode::Restart, OWNER_GONE),
                // The owner's pings are answered by the client library; nothing else is
                // the contract's.
                _ => continue,
            });
        }
    }
}

/// Serves the client's socket `ws` over the owner's `owner` until either ends.
pub async fn serve(ws: WebSocket, env: Env, owner: Owner) {
    let (to_owner, from_owner) = owner.split();
    Socket::new(ws, "forwarded", env)
        .run(ToOwner(to_owner), FromOwner(from_owner), None)
        .await;
}
