//! A socket handed on to the node that owns its game (or the lobby) (feature `nodes`): the
//! client's frames go to the owner, the owner's come back through the outbox, and the
//! owner's close (its code and reason) closes the client's socket. This node pings the
//! client and times it out like any socket; the owner counts the client's messages. Every
//! write to the owner is bounded in time (a paused or slow owner closes the pipe, 1012), the
//! pipe closes when either end closes or the owner's lease lapses, and the socket holds a
//! slot of its client's address here.

use std::borrow::Cow;

use axum::extract::ws::WebSocket;
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::watch;
use tokio::time::{Duration, Instant, timeout};
use tokio_tungstenite::tungstenite;

use super::{Closing, Env, Flow, Handler, Incoming, Outbox, Socket};
use crate::services::outbox::Out;
use crate::services::quotas::SocketSlot;
use crate::wire::CloseCode;

/// The owner's side of a forwarded socket.
pub type Owner =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The reason a forwarded socket is closed with when the owner's side ends without a close.
const OWNER_GONE: &str = "the game moves to another server; connect again";

struct ToOwner {
    sink: SplitSink<Owner, tungstenite::Message>,
    /// The longest a write to the owner may take.
    within: Duration,
    /// The client address's slot here, held until the socket ends.
    slot: Option<SocketSlot>,
}

impl Handler for ToOwner {
    async fn frame(&mut self, frame: Incoming, _: Instant) -> Flow {
        let onward = match frame {
            Incoming::Text(text) => tungstenite::Message::text(text.as_str()),
            Incoming::Binary(bytes) => tungstenite::Message::binary(bytes),
        };
        match timeout(self.within, self.sink.send(onward)).await {
            Ok(Ok(())) => Flow::Go,
            _ => Flow::Close(Closing::new(CloseCode::Restart, OWNER_GONE)),
        }
    }

    async fn finish(mut self) {
        let _ = timeout(self.within, self.sink.close()).await;
        drop(self.slot.take());
    }
}

struct FromOwner {
    stream: SplitStream<Owner>,
    /// Turns true when the owner's lease lapses.
    lapse: watch::Receiver<bool>,
}

impl FromOwner {
    async fn lapsed(lapse: &mut watch::Receiver<bool>) {
        if lapse.wait_for(|lapsed| *lapsed).await.is_err() {
            // No one tells of this owner's lapses any more: nothing to wait for.
            std::future::pending::<()>().await;
        }
    }
}

impl Outbox for FromOwner {
    async fn next(&mut self) -> Option<Out> {
        loop {
            let next = tokio::select! {
                next = self.stream.next() => next,
                () = FromOwner::lapsed(&mut self.lapse) => {
                    return Some(Out::close(CloseCode::Restart, OWNER_GONE));
                }
            };
            let frame = match next {
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

/// Serves the client's socket `ws` over the owner's `owner` until either ends or `lapse`
/// turns true (the owner's lease lapsed), holding `slot` of the client's address here.
pub(crate) async fn serve(
    ws: WebSocket,
    env: Env,
    owner: Owner,
    lapse: watch::Receiver<bool>,
    slot: Option<SocketSlot>,
) {
    let (sink, stream) = owner.split();
    let socket = Socket::new(ws, "forwarded", env);
    let to_owner = ToOwner {
        sink,
        within: socket.limits().write_timeout,
        slot,
    };
    socket
        .run(to_owner, FromOwner { stream, lapse }, None)
        .await;
}
