//! The player socket (a player's own: it hears `paired`, for it alone) and the lobby socket
//! (public: the lobby frame on connect and after every change). Both take only `ping` from
//! the client once open (the player socket first takes `auth`), within the same limits as a
//! game socket: frame size, message budget, idle timeout, write timeout.

use std::sync::Arc;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;
use tokio::time::{Duration, Instant, MissedTickBehavior, interval_at, timeout};

use crate::budget::Budget;
use crate::hub::{Hub, Out, SocketSlot};
use crate::telemetry::SocketGauge;
use crate::wire::{CloseCode, Code, LobbyMessage, PlayerClientMessage};

/// How long a player socket may take to send its key.
pub const AUTH_WAIT: Duration = Duration::from_secs(10);

type Sink = SplitSink<WebSocket, Message>;
type Stream = SplitStream<WebSocket>;

async fn close(sink: &mut Sink, code: CloseCode, reason: &'static str, within: Duration) {
    crate::telemetry::closed(code.number());
    let frame = Message::Close(Some(CloseFrame {
        code: code.number(),
        reason: reason.into(),
    }));
    let _ = timeout(within, sink.send(frame)).await;
    let _ = timeout(within, sink.close()).await;
}

async fn send(sink: &mut Sink, text: &str, within: Duration) -> bool {
    let message = Message::Text(text.into());
    matches!(timeout(within, sink.send(message)).await, Ok(Ok(())))
}

/// The answer to a frame on an open player or lobby socket: a pong, or a `bad-message`.
#[must_use]
pub fn answer(text: &str) -> String {
    match serde_json::from_str::<PlayerClientMessage>(text) {
        Ok(PlayerClientMessage::Ping) => LobbyMessage::Pong,
        Ok(PlayerClientMessage::Auth { .. }) => LobbyMessage::Error {
            code: Code::BadMessage,
            message: "this socket is open: only ping".into(),
        },
        Err(e) => LobbyMessage::Error {
            code: Code::BadMessage,
            message: e.to_string(),
        },
    }
    .to_json()
}

/// Sends what `outbox` brings and answers what the client sends, until either side ends it.
async fn run(sink: &mut Sink, stream: &mut Stream, hub: &Hub, mut outbox: mpsc::Receiver<Out>) {
    let limits = hub.config().limits;
    let mut budget = Budget::new(&limits);
    let mut pings = interval_at(Instant::now() + limits.ping_interval, limits.ping_interval);
    pings.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut heard = Instant::now();
    let mut stopping = hub.stopping();
    let within = limits.write_timeout;
    loop {
        tokio::select! {
            out = outbox.recv() => match out {
                Some(Out::Text(text)) => {
                    if !send(sink, &text, within).await {
                        return close(sink, CloseCode::Policy, "too slow to read", within).await;
                    }
                }
                Some(Out::Frames(frames)) => {
                    for text in frames {
                        if !send(sink, &text, within).await {
                            return close(sink, CloseCode::Policy, "too slow to read", within).await;
                        }
                    }
                }
                Some(Out::Close(code, reason)) => return close(sink, code, reason, within).await,
                None => return close(sink, CloseCode::Policy, "too slow to read", within).await,
            },
            frame = stream.next() => {
                let now = Instant::now();
                heard = now;
                let text = match frame {
                    None | Some(Err(_) | Ok(Message::Close(_))) => return,
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Text(text))) => text.to_string(),
                    Some(Ok(Message::Binary(_))) => String::from("binary"),
                };
                if text.len() > limits.max_frame_bytes {
                    return close(sink, CloseCode::TooBig, "a frame is at most 4096 bytes", within).await;
                }
                if !budget.take(now, 1) {
                    return close(sink, CloseCode::Policy, "too many messages", within).await;
                }
                if !send(sink, &answer(&text), within).await {
                    return;
                }
            }
            _ = pings.tick() => {
                if Instant::now().duration_since(heard) >= limits.idle_timeout {
                    return close(sink, CloseCode::Idle, "idle", within).await;
                }
                let ping = sink.send(Message::Ping(Default::default()));
                if !matches!(timeout(within, ping).await, Ok(Ok(()))) {
                    return;
                }
            }
            _ = stopping.changed() => {
                return close(sink, CloseCode::Restart, "the server is restarting", within).await;
            }
        }
    }
}

/// The key a player socket's first frame carries, if it is an `auth` frame within
/// [`AUTH_WAIT`].
async fn first_key(stream: &mut Stream) -> Option<String> {
    let deadline = Instant::now() + AUTH_WAIT;
    loop {
        let frame = tokio::time::timeout_at(deadline, stream.next())
            .await
            .ok()??;
        match frame.ok()? {
            Message::Ping(_) | Message::Pong(_) => {}
            Message::Text(text) if text.len() <= 4096 => {
                return match serde_json::from_str(&text).ok()? {
                    PlayerClientMessage::Auth { key } => Some(key),
                    PlayerClientMessage::Ping => None,
                };
            }
            _ => return None,
        }
    }
}

/// Serves a player socket: `auth` first (a wrong key, or none within 10 s: close 4401), then
/// `welcome`, then the player's `paired` frames. The player's seeks and pool entry live while
/// one of its player sockets is open.
pub async fn serve_player(socket: WebSocket, hub: Arc<Hub>, slot: SocketSlot) {
    let _open = SocketGauge::open("player");
    let within = hub.config().limits.write_timeout;
    let (mut sink, mut stream) = socket.split();
    let name = match first_key(&mut stream)
        .await
        .map(|key| hub.player_by_key(&key))
    {
        Some(Ok(name)) => name,
        _ => return close(&mut sink, CloseCode::BadKey, "bad key", within).await,
    };
    let (tx, outbox) = mpsc::channel(hub.config().limits.outbox);
    let Ok(id) = hub.open_player_socket(&name, tx) else {
        return close(&mut sink, CloseCode::Policy, "too many sockets", within).await;
    };
    let welcome = LobbyMessage::Welcome { name: name.clone() }.to_json();
    if send(&mut sink, &welcome, within).await {
        run(&mut sink, &mut stream, &hub, outbox).await;
    }
    hub.close_player_socket(&name, id);
    drop(slot);
}

/// Serves a lobby socket: the lobby frame now, then the newest after each change (a socket
/// that reads slowly skips to the latest).
pub async fn serve_lobby(socket: WebSocket, hub: Arc<Hub>, slot: SocketSlot) {
    let _open = SocketGauge::open("lobby");
    let (mut sink, mut stream) = socket.split();
    let (tx, outbox) = mpsc::channel(2);
    let mut frames = hub.lobby_frames();
    let forward = tokio::spawn(async move {
        loop {
            let frame = Arc::clone(&frames.borrow_and_update());
            if !frame.is_empty() && tx.send(Out::Text(frame)).await.is_err() {
                return;
            }
            if frames.changed().await.is_err() {
                return;
            }
        }
    });
    run(&mut sink, &mut stream, &hub, outbox).await;
    forward.abort();
    hub.close_lobby_socket();
    drop(slot);
}
