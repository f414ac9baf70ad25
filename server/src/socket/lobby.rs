//! The player socket (a player's own: it hears `paired`, for it alone) and the lobby socket
//! (public: the lobby frame on connect and after every change). Both take only `ping` from
//! the client once open (the player socket first takes `auth`), within the limits every
//! socket is held to.

use std::sync::Arc;

use axum::extract::ws::WebSocket;
use tokio::sync::mpsc;
use tokio::time::{Duration, Instant};

use super::{Closing, Env, Flow, Handler, Incoming, Latest, Socket};
use crate::services::Services;
use crate::services::lobby::Watching;
use crate::services::player_sockets::PlayerSockets;
use crate::services::quotas::SocketSlot;
use crate::wire::{CloseCode, Code, LobbyMessage, PlayerClientMessage};

/// How long a player socket may take to send its key.
pub(crate) const AUTH_WAIT: Duration = Duration::from_secs(10);

/// The answer to a frame on an open player or lobby socket: a pong, or a `bad-message`.
#[must_use]
pub fn answer(text: &str) -> String {
    match crate::wire::object::<PlayerClientMessage>(text) {
        Ok(PlayerClientMessage::Ping) => LobbyMessage::Pong,
        Ok(PlayerClientMessage::Auth { .. }) => LobbyMessage::Error {
            code: Code::BadMessage,
            message: "this socket is open: only ping".into(),
        },
        Err(message) => LobbyMessage::Error {
            code: Code::BadMessage,
            message,
        },
    }
    .to_json()
}

/// A socket that answers pings, and lets go of what it holds when it ends.
struct Pings<F: FnOnce() + Send> {
    on_end: Option<F>,
}

impl<F: FnOnce() + Send> Handler for Pings<F> {
    async fn frame(&mut self, frame: Incoming, _: Instant) -> Flow {
        let reply = match frame {
            Incoming::Text(text) => answer(text.as_str()),
            Incoming::Binary(_) => answer("binary"),
        };
        Flow::Reply(reply.into())
    }

    async fn finish(mut self) {
        if let Some(on_end) = self.on_end.take() {
            on_end();
        }
    }
}

/// Serves a player socket: `auth` first (a wrong key, or none within [`AUTH_WAIT`]: close
/// 4401), then `welcome`, then the player's `paired` frames. The player's seeks and pool
/// entry live while one of its player sockets is open.
pub(crate) async fn serve_player(ws: WebSocket, services: Arc<Services>, slot: SocketSlot) {
    let env = Env::of(&services);
    let mut socket = Socket::new(ws, "player", env.clone());
    let key = socket.first_text(AUTH_WAIT).await.and_then(|text| {
        match crate::wire::object(&text).ok()? {
            PlayerClientMessage::Auth { key } => Some(key),
            PlayerClientMessage::Ping => None,
        }
    });
    let opens = crate::wire::PLAYER_SOCKET_SCOPES;
    let name = key.and_then(|key| services.players.by_key(&key).ok());
    let name = name.map(|principal| principal.may(opens)).filter(|name| {
        name.as_ref()
            .is_ok_and(|n| services.players.open_account(n).is_ok())
    });
    let Some(Ok(name)) = name else {
        return socket
            .refuse(Closing::new(CloseCode::BadKey, "bad key"))
            .await;
    };
    let (tx, outbox) = mpsc::channel(services.config.limits.outbox);
    let sockets: Arc<PlayerSockets> = Arc::clone(&services.sockets);
    let Ok(id) = sockets.open(&name, tx) else {
        return socket
            .refuse(Closing::new(CloseCode::Policy, "too many sockets"))
            .await;
    };
    let welcome = LobbyMessage::Welcome { name: name.clone() }.to_json();
    let on_end = move || {
        sockets.close(&name, id);
        drop(slot);
    };
    if socket.send(&welcome).await {
        let handler = Pings {
            on_end: Some(on_end),
        };
        socket.run(handler, outbox, Some(env.fresh_budget())).await;
    } else {
        on_end();
    }
}

/// Serves a live list's socket: the whole list now, then what changed in each version (the
/// whole list again after falling behind). It counts among its address's lobby sockets.
pub(crate) async fn serve_live(
    ws: WebSocket,
    services: Arc<Services>,
    slot: SocketSlot,
    mut watching: Watching,
) {
    let env = Env::of(&services);
    let socket = Socket::new(ws, "live", env.clone());
    let evicted = watching.evicted();
    let handler = Pings {
        on_end: Some(move || drop((slot, watching))),
    };
    let frames = super::Deltas::until(services.live.frames(), evicted);
    socket.run(handler, frames, Some(env.fresh_budget())).await;
}

/// Serves a lobby socket: the lobby frame now, then the newest after each change (a socket
/// that reads slowly skips to the latest).
pub(crate) async fn serve_lobby(
    ws: WebSocket,
    services: Arc<Services>,
    (slot, mut watching): (SocketSlot, Watching),
    deltas: bool,
) {
    let env = Env::of(&services);
    let socket = Socket::new(ws, "lobby", env.clone());
    let evicted = watching.evicted();
    let handler = Pings {
        on_end: Some(move || drop((slot, watching))),
    };
    let budget = Some(env.fresh_budget());
    if deltas {
        let frames = super::Deltas::until(services.lobby.versions(), evicted);
        socket.run(handler, frames, budget).await;
    } else {
        let frames = Latest::until(services.lobby.frames(), evicted);
        socket.run(handler, frames, budget).await;
    }
}
