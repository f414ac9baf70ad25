//! A game socket: frames in (bounded in size and rate), frames out (from the socket's outbox,
//! in order), pings, and the close codes of the contract.

use std::sync::Arc;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;
use tokio::time::{Instant, MissedTickBehavior, interval_at};

use crate::config::Limits;
use crate::hub::{Hub, Live, Out, SocketSlot};
use crate::room::Recipient;
use crate::telemetry::SocketGauge;
use crate::wire::{CloseCode, Code, Refusal};

/// How long a closing socket waits for the client's close frame.
const CLOSING_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Events a replay sends for each message it costs the socket's budget (a `hello` itself
/// costs one), paid before the replay is sent and at most the rest of a whole window: a
/// budget of 200 messages in 10 s replays at most about 5,000 events per window, or one
/// longer game's whole history once. A replay the budget cannot pay is not sent: the
/// socket gets `rate-limited` and is closed.
pub const REPLAYED_PER_MESSAGE: usize = 25;

/// What a replay of `replayed` events costs a budget of `per_window` messages.
#[must_use]
pub fn replay_cost(replayed: usize, per_window: usize) -> usize {
    (replayed / REPLAYED_PER_MESSAGE).min(per_window.saturating_sub(1))
}

fn close_frame(code: CloseCode, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame {
        code: code.number(),
        reason: reason.into(),
    }))
}

/// Why a socket closes: its code and reason, and a last frame to send before the close.
type Closing = Option<(CloseCode, &'static str, Option<String>)>;

const TOO_SLOW: (CloseCode, &str, Option<String>) =
    (CloseCode::Policy, "too slow to read the game", None);

/// Writes `frames` in order, each within `limits.write_timeout`: a client that does not read
/// what it is sent is closed, and holds no slot for longer.
async fn write<S>(sink: &mut S, frames: &[Arc<str>], limits: &Limits) -> Result<(), Closing>
where
    S: SinkExt<Message> + Unpin,
{
    for frame in frames {
        let message = Message::Text(frame.as_ref().into());
        match tokio::time::timeout(limits.write_timeout, sink.send(message)).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) => return Err(None),
            Err(_) => return Err(Some(TOO_SLOW)),
        }
    }
    Ok(())
}

fn rate_limited(limits: &Limits) -> Closing {
    let refusal = Refusal::new(
        Code::RateLimited,
        format!(
            "more than {} messages in {} s",
            limits.messages_per_window,
            limits.window.as_secs()
        ),
    );
    Some((
        CloseCode::Policy,
        "too many messages",
        Some(refusal.message().to_json()),
    ))
}

/// Serves one socket for `to` until it closes. Its message budget is the seat's (shared by
/// the seat's sockets) or, for a spectator, its address's (shared by the address's
/// spectators, whose sockets hold a `slot`).
pub async fn serve(
    socket: WebSocket,
    hub: Arc<Hub>,
    live: Arc<Live>,
    to: Recipient,
    slot: Option<SocketSlot>,
) {
    let limits = hub.config().limits;
    let kind = match to {
        Recipient::Seat(_) => "seat",
        Recipient::Spectator => "spectator",
    };
    let _open = SocketGauge::open(kind);
    let (mut sink, mut stream) = socket.split();
    let (tx, mut outbox) = mpsc::channel(limits.outbox);
    let spectating = slot.as_ref().map(SocketSlot::budget);
    let (subscriber, budget) = hub.attach(&live, to, tx, spectating).await;
    let mut pings = interval_at(Instant::now() + limits.ping_interval, limits.ping_interval);
    pings.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut heard = Instant::now();
    // The server's pauses when the client was last heard: a pause is not the client's idling.
    let mut paused_then = hub.paused(heard);
    let mut stopping = hub.stopping();
    let take = |now: Instant, units: usize| {
        budget
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take(now, units)
    };
    let closing: Closing = loop {
        tokio::select! {
            out = outbox.recv() => {
                let written = match out {
                    Some(Out::Text(text)) => write(&mut sink, &[text], &limits).await,
                    Some(Out::Frames(frames)) => write(&mut sink, &frames, &limits).await,
                    Some(Out::Close(code, reason)) => break Some((code, reason, None)),
                    None => break Some(TOO_SLOW),
                };
                if let Err(closing) = written {
                    break closing;
                }
            },
            frame = stream.next() => {
                let now = Instant::now();
                heard = now;
                paused_then = hub.paused(now);
                let text = match frame {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break None,
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Text(text))) => Ok(text),
                    Some(Ok(Message::Binary(bytes))) => Err(bytes.len()),
                };
                let size = match &text {
                    Ok(text) => text.len(),
                    Err(size) => *size,
                };
                if size > limits.max_frame_bytes {
                    break Some((CloseCode::TooBig, "a frame is at most 4096 bytes", None));
                }
                if !take(now, 1) {
                    break rate_limited(&limits);
                }
                match text {
                    Ok(text) => {
                        let pay = |replayed: usize| {
                            take(now, replay_cost(replayed, limits.messages_per_window))
                        };
                        if !hub.handle(&live, subscriber, to, text.as_str(), now, pay).await {
                            break rate_limited(&limits);
                        }
                    }
                    Err(_) => {
                        let refusal = Refusal::new(Code::BadMessage, "frames are text");
                        let frame: Arc<str> = refusal.message().to_json().into();
                        if let Err(closing) = write(&mut sink, &[frame], &limits).await {
                            break closing;
                        }
                    }
                }
            }
            _ = pings.tick() => {
                let now = Instant::now();
                let paused = hub.paused(now).saturating_sub(paused_then);
                if now.duration_since(heard).saturating_sub(paused) >= limits.idle_timeout {
                    break Some((CloseCode::Idle, "idle", None));
                }
                let ping = sink.send(Message::Ping(Default::default()));
                match tokio::time::timeout(limits.write_timeout, ping).await {
                    Ok(Ok(())) => {}
                    Ok(Err(_)) => break None,
                    Err(_) => break Some(TOO_SLOW),
                }
            }
            _ = stopping.changed() => break Some((CloseCode::Restart, "the server is restarting", None)),
        }
    };
    hub.detach(&live, subscriber, to).await;
    let code = closing.as_ref().map(|(code, ..)| code.number());
    tracing::info!(game = live.id(), kind, code, "socket closed");
    if let Some((code, reason, last)) = closing {
        crate::telemetry::closed(code.number());
        // Frames already queued go out first, then the refusal that closes, then the close;
        // each within the write timeout, so that a client that reads nothing holds nothing.
        let mut queued = Vec::new();
        while let Ok(out) = outbox.try_recv() {
            match out {
                Out::Text(text) => queued.push(text),
                Out::Frames(frames) => queued.extend(frames),
                Out::Close(..) => break,
            }
        }
        queued.extend(last.map(Arc::from));
        if write(&mut sink, &queued, &limits).await.is_ok() {
            let close = sink.send(close_frame(code, reason));
            let _ = tokio::time::timeout(limits.write_timeout, close).await;
            // The closing handshake: wait (a little) for the client's close, so that the TCP
            // connection does not end before the client has read the code.
            let _ = tokio::time::timeout(CLOSING_WAIT, async {
                while let Some(Ok(frame)) = stream.next().await {
                    if matches!(frame, Message::Close(_)) {
                        break;
                    }
                }
            })
            .await;
        }
    }
    let _ = tokio::time::timeout(limits.write_timeout, sink.close()).await;
    drop(slot);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replay_costs_a_message_per_25_events_and_at_most_the_rest_of_a_window() {
        assert_eq!(replay_cost(24, 200), 0);
        assert_eq!(replay_cost(1203, 200), 48);
        assert_eq!(replay_cost(8442, 200), 199);
        assert_eq!(replay_cost(8442, 0), 0);
    }
}
