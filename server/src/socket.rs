//! A game socket: frames in (bounded in size and rate), frames out (from the socket's outbox,
//! in order), pings, and the close codes of the contract.

use std::collections::VecDeque;
use std::sync::Arc;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;
use tokio::time::{Instant, MissedTickBehavior, interval_at};

use crate::config::Limits;
use crate::hub::{Hub, Live, Out, SocketSlot};
use crate::room::Recipient;
use crate::wire::{CloseCode, Code, Refusal};

/// How long a closing socket waits for the client's close frame.
const CLOSING_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// The message budget: at most `limit` messages in any `window`.
struct Budget {
    limit: usize,
    window: std::time::Duration,
    times: VecDeque<Instant>,
}

impl Budget {
    fn new(limits: &Limits) -> Budget {
        Budget {
            limit: limits.messages_per_window,
            window: limits.window,
            times: VecDeque::with_capacity(limits.messages_per_window),
        }
    }

    /// Counts a message at `now`; `false` if it is one too many.
    fn take(&mut self, now: Instant) -> bool {
        while self
            .times
            .front()
            .is_some_and(|&t| now.duration_since(t) >= self.window)
        {
            self.times.pop_front();
        }
        if self.times.len() >= self.limit {
            return false;
        }
        self.times.push_back(now);
        true
    }
}

fn close_frame(code: CloseCode, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame {
        code: code.number(),
        reason: reason.into(),
    }))
}

/// Serves one socket for `to` until it closes.
pub async fn serve(
    socket: WebSocket,
    hub: Arc<Hub>,
    live: Arc<Live>,
    to: Recipient,
    slot: SocketSlot,
) {
    let limits = hub.config().limits;
    let (mut sink, mut stream) = socket.split();
    let (tx, mut outbox) = mpsc::channel(limits.outbox);
    let subscriber = hub.attach(&live, to, tx).await;
    let mut budget = Budget::new(&limits);
    let mut pings = interval_at(Instant::now() + limits.ping_interval, limits.ping_interval);
    pings.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut heard = Instant::now();
    let mut stopping = hub.stopping();
    let closing = loop {
        tokio::select! {
            out = outbox.recv() => match out {
                Some(Out::Text(text)) => {
                    if sink.send(Message::Text(text.into())).await.is_err() {
                        break None;
                    }
                }
                Some(Out::Close(code, reason)) => break Some((code, reason, None)),
                None => break Some((CloseCode::Policy, "too slow to read the game", None)),
            },
            frame = stream.next() => {
                let now = Instant::now();
                heard = now;
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
                if !budget.take(now) {
                    let refusal = Refusal::new(Code::RateLimited, format!(
                        "more than {} messages in {} s",
                        limits.messages_per_window,
                        limits.window.as_secs()
                    ));
                    break Some((CloseCode::Policy, "too many messages", Some(refusal.message().to_json())));
                }
                match text {
                    Ok(text) => hub.handle(&live, subscriber, to, text.as_str()).await,
                    Err(_) => {
                        let refusal = Refusal::new(Code::BadMessage, "frames are text");
                        if sink.send(Message::Text(refusal.message().to_json().into())).await.is_err() {
                            break None;
                        }
                    }
                }
            }
            _ = pings.tick() => {
                if heard.elapsed() >= limits.idle_timeout {
                    break Some((CloseCode::Idle, "idle", None));
                }
                if sink.send(Message::Ping(Default::default())).await.is_err() {
                    break None;
                }
            }
            _ = stopping.changed() => break Some((CloseCode::Restart, "the server is restarting", None)),
        }
    };
    hub.detach(&live, subscriber, to).await;
    if let Some((code, reason, last)) = closing {
        // Frames already queued go out first, then the refusal that closes, then the close.
        while let Ok(Out::Text(text)) = outbox.try_recv() {
            if sink.send(Message::Text(text.into())).await.is_err() {
                break;
            }
        }
        if let Some(last) = last {
            let _ = sink.send(Message::Text(last.into())).await;
        }
        let _ = sink.send(close_frame(code, reason)).await;
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
    let _ = sink.close().await;
    drop(slot);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_allows_its_limit_per_window() {
        let limits = Limits {
            messages_per_window: 3,
            window: std::time::Duration::from_secs(10),
            ..Limits::default()
        };
        let mut budget = Budget::new(&limits);
        let t0 = Instant::now();
        assert!((0..3).all(|_| budget.take(t0)));
        assert!(!budget.take(t0 + std::time::Duration::from_secs(9)));
        assert!(budget.take(t0 + std::time::Duration::from_secs(10)));
    }
}
