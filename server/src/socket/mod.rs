//! Every socket the server serves (a seat's, a spectator's, the lobby's, a player's, and one
//! forwarded to another node) runs the one loop of this module: frames in, bounded in size
//! and in rate; frames out from the socket's `Outbox`, in order, each within the write
//! timeout; pings, and the idle timeout with the server's own pauses left out; the stop
//! signal; the close codes of the contract and the closing handshake. What a kind of socket
//! does with a frame is its `Handler`: [`game`], [`lobby`], and `forward` (feature
//! `nodes`).

#[cfg(feature = "nodes")]
pub mod forward;
pub mod game;
pub mod lobby;
pub mod request;

use std::borrow::Cow;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{mpsc, watch};
use tokio::time::{Duration, Instant, MissedTickBehavior, interval_at, timeout, timeout_at};

use crate::budget::Budget;
use crate::config::Limits;
use crate::services::Services;
use crate::services::outbox::{Inbox, Out};
use crate::services::pauses::Pauses;
use crate::services::stopping::Stopping;
use crate::telemetry::SocketGauge;
use crate::wire::{CloseCode, Code, Refusal};

/// Frames larger than the contract's 4,096 bytes are read (up to this) only to be answered
/// with close code 1009; larger still, the connection is dropped.
pub(crate) const READ_LIMIT: usize = 1 << 20;
/// A socket's read and write buffers (they grow for a larger frame).
const SOCKET_BUFFER: usize = 8 * 1024;
/// How long a closing socket waits for the client's close frame.
const CLOSING_WAIT: Duration = Duration::from_secs(2);

/// An upgrade as every socket of the server takes it: frames read up to [`READ_LIMIT`], and
/// small buffers, so that thousands of sockets hold little memory (the default is 128 KiB
/// each way per socket).
pub(crate) fn upgrade(upgrade: WebSocketUpgrade) -> WebSocketUpgrade {
    upgrade
        .max_message_size(READ_LIMIT)
        .max_frame_size(READ_LIMIT)
        .read_buffer_size(SOCKET_BUFFER)
        .write_buffer_size(SOCKET_BUFFER)
}

/// What every socket's loop needs of the server: its limits, its pauses, its stop signal.
#[derive(Clone)]
pub(crate) struct Env {
    limits: Limits,
    pauses: Arc<Pauses>,
    stopping: Stopping,
}

impl Env {
    /// The loop's view of `services`.
    #[must_use]
    pub(crate) fn of(services: &Services) -> Env {
        Env {
            limits: services.config.limits,
            pauses: Arc::clone(&services.pauses),
            stopping: services.stopping.clone(),
        }
    }

    /// A fresh message budget of the limits' size, for one socket.
    #[must_use]
    pub(crate) fn fresh_budget(&self) -> Arc<Mutex<Budget>> {
        Arc::new(Mutex::new(Budget::new(&self.limits)))
    }
}

/// A frame the client sent, within the frame size and the message budget.
pub(crate) enum Incoming {
    /// A text frame.
    Text(Utf8Bytes),
    /// A binary frame (not the contract's: each handler says so, or hands it on).
    Binary(Bytes),
}

/// How a socket closes: its code and reason, and a last frame to send before the close.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Closing {
    /// The close code.
    pub code: CloseCode,
    /// The close frame's reason.
    pub reason: Cow<'static, str>,
    /// A frame sent just before the close frame (the refusal that closes it).
    pub last: Option<Arc<str>>,
}

impl Closing {
    /// A close with `code` and a fixed `reason`.
    #[must_use]
    pub(crate) const fn new(code: CloseCode, reason: &'static str) -> Closing {
        Closing {
            code,
            reason: Cow::Borrowed(reason),
            last: None,
        }
    }

    /// Closed for sending more than the budget allows: a `rate-limited` refusal, then 1008.
    #[must_use]
    pub(crate) fn rate_limited(limits: &Limits) -> Closing {
        let refusal = Refusal::new(
            Code::RateLimited,
            format!(
                "more than {} messages in {} s",
                limits.messages_per_window,
                limits.window.as_secs()
            ),
        );
        Closing {
            last: Some(refusal.message().to_json().into()),
            ..Closing::new(CloseCode::Policy, "too many messages")
        }
    }
}

const TOO_SLOW: Closing = Closing::new(CloseCode::Policy, "too slow to read");

/// What a handler makes of a client's frame.
pub(crate) enum Flow {
    /// Nothing to send now (what it caused comes through the outbox).
    Go,
    /// A frame to send back at once.
    Reply(Arc<str>),
    /// Close the socket.
    Close(Closing),
}

/// What one kind of socket does with the client's frames.
pub(crate) trait Handler: Send {
    /// The client's `frame`, read at `received` (within the frame size, and paid from the
    /// socket's budget).
    fn frame(&mut self, frame: Incoming, received: Instant) -> impl Future<Output = Flow> + Send;

    /// The loop has ended (the client left, or the socket is closing): let go of what the
    /// socket held, before the closing handshake.
    fn finish(self) -> impl Future<Output = ()> + Send;
}

/// Where a socket's outgoing frames come from.
pub(crate) trait Outbox: Send {
    /// The next frame to send; `None` when the sender has let the socket go (it fell too far
    /// behind).
    fn next(&mut self) -> impl Future<Output = Option<Out>> + Send;

    /// Frames already queued when the socket closes, sent before its close.
    fn queued(&mut self) -> Vec<Arc<str>> {
        Vec::new()
    }
}

/// The frames `next` gives until it gives none or a close: what is queued when a socket
/// closes.
fn drained(mut next: impl FnMut() -> Option<Out>) -> Vec<Arc<str>> {
    let mut queued = Vec::new();
    while let Some(out) = next() {
        match out {
            Out::Text(text) => queued.push(text),
            Out::Frames(frames) => queued.extend(frames),
            Out::Shared(frame) => queued.push(Arc::from(frame.as_str())),
            Out::Close(..) => break,
        }
    }
    queued
}

impl Outbox for Inbox {
    async fn next(&mut self) -> Option<Out> {
        self.recv().await
    }

    fn queued(&mut self) -> Vec<Arc<str>> {
        drained(|| self.try_recv())
    }
}

impl Outbox for mpsc::Receiver<Out> {
    async fn next(&mut self) -> Option<Out> {
        self.recv().await
    }

    fn queued(&mut self) -> Vec<Arc<str>> {
        drained(|| self.try_recv().ok())
    }
}

/// Where a watched list's frames come from: the next one to send.
pub(crate) trait Newest: Send {
    /// The next frame to send (waiting for one).
    fn newest(&mut self) -> impl Future<Output = Option<Out>> + Send;
}

/// The frames of a [`Newest`] until `evicted` fires: then the socket closes (1008), its
/// place given to another address's socket.
pub(crate) struct Until<S> {
    source: S,
    evicted: Option<tokio::sync::oneshot::Receiver<()>>,
}

impl<S: Newest> Outbox for Until<S> {
    async fn next(&mut self) -> Option<Out> {
        let Some(fires) = self.evicted.as_mut() else {
            return self.source.newest().await;
        };
        tokio::select! {
            out = self.source.newest() => out,
            fired = fires => {
                self.evicted = None;
                match fired {
                    Ok(()) => Some(Out::close(
                        CloseCode::Policy,
                        "the lobby is full, and your address holds the most of its sockets",
                    )),
                    // Its place given back as the socket ends: nothing to do.
                    Err(_) => self.source.newest().await,
                }
            }
        }
    }
}

/// The newest of a stream of frames (the lobby's): the one there now, then each newer one;
/// a socket that reads slowly skips to the latest.
pub(crate) struct Latest {
    frames: watch::Receiver<Shared>,
    first: bool,
}

impl Latest {
    /// The frames of `frames`, starting with the one there now, until `evicted` fires.
    #[must_use]
    pub(crate) fn until(
        frames: watch::Receiver<Shared>,
        evicted: Option<tokio::sync::oneshot::Receiver<()>>,
    ) -> Until<Latest> {
        Until {
            source: Latest {
                frames,
                first: true,
            },
            evicted,
        }
    }
}

impl Newest for Latest {
    async fn newest(&mut self) -> Option<Out> {
        loop {
            if !std::mem::take(&mut self.first) && self.frames.changed().await.is_err() {
                // The sender is gone only when the server stops: wait for the stop.
                std::future::pending::<()>().await;
            }
            let frame = self.frames.borrow_and_update().clone();
            if !frame.is_empty() {
                return Some(Out::Shared(frame));
            }
        }
    }
}

/// A versioned list's frames (the live list's, and the lobby's with `?deltas=1`): the
/// whole list first, then each newer version's delta when the version before was the last
/// sent, the whole list otherwise (a socket that reads slowly skips to the newest). Every
/// frame is rendered once, for all.
pub(crate) struct Deltas {
    frames: watch::Receiver<Arc<Versioned>>,
    sent: Option<u64>,
}

impl Deltas {
    /// The frames of `frames`, starting with the whole list there now, until `evicted`
    /// fires.
    #[must_use]
    pub(crate) fn until(
        frames: watch::Receiver<Arc<Versioned>>,
        evicted: Option<tokio::sync::oneshot::Receiver<()>>,
    ) -> Until<Deltas> {
        Until {
            source: Deltas { frames, sent: None },
            evicted,
        }
    }
}

impl Newest for Deltas {
    async fn newest(&mut self) -> Option<Out> {
        loop {
            if self.sent.is_some() && self.frames.changed().await.is_err() {
                // The sender is gone only when the server stops: wait for the stop.
                std::future::pending::<()>().await;
            }
            let version = Arc::clone(&self.frames.borrow_and_update());
            if version.full.is_empty() {
                // Nothing rendered yet.
                self.sent = Some(version.v);
                continue;
            }
            let frame = match self.sent {
                Some(v) if v + 1 == version.v => version.delta.clone(),
                _ => version.full.clone(),
            };
            self.sent = Some(version.v);
            return Some(Out::Shared(frame));
        }
    }
}

use crate::services::outbox::{Shared, Versioned};

type Sink = SplitSink<WebSocket, Message>;
type Stream = SplitStream<WebSocket>;

/// An accepted socket of one kind, before and during its loop.
pub(crate) struct Socket {
    sink: Sink,
    stream: Stream,
    env: Env,
    kind: &'static str,
    /// The game it is for, for the log.
    game: Option<String>,
    /// Counted among the open sockets until its close frame is sent.
    open: Option<SocketGauge>,
    /// A write to the client waited past the write timeout: the client reads nothing, so
    /// nothing more is written to it (not even the close), and the connection is dropped.
    stalled: bool,
}

impl Socket {
    /// The socket `ws` of `kind` (`"seat"`, `"spectator"`, `"lobby"`, `"player"`,
    /// `"forwarded"`), counted among the open sockets until it ends.
    #[must_use]
    pub(crate) fn new(ws: WebSocket, kind: &'static str, env: Env) -> Socket {
        let (sink, stream) = ws.split();
        Socket {
            sink,
            stream,
            env,
            kind,
            game: None,
            open: Some(SocketGauge::open(kind)),
            stalled: false,
        }
    }

    /// The socket is for game `id` (its log line names it).
    #[must_use]
    pub(crate) fn for_game(mut self, id: &str) -> Socket {
        self.game = Some(id.to_owned());
        self
    }

    /// The limits the socket is held to.
    #[must_use]
    pub(crate) fn limits(&self) -> &Limits {
        &self.env.limits
    }

    /// The first text frame, if it comes within `wait` and the frame size (pings and pongs
    /// pass): a handshake before the loop (a player socket's `auth`).
    pub(crate) async fn first_text(&mut self, wait: Duration) -> Option<Utf8Bytes> {
        let deadline = Instant::now() + wait;
        loop {
            let frame = tokio::time::timeout_at(deadline, self.stream.next())
                .await
                .ok()??;
            match frame.ok()? {
                Message::Ping(_) | Message::Pong(_) => {}
                Message::Text(text) if text.len() <= self.env.limits.max_frame_bytes => {
                    return Some(text);
                }
                _ => return None,
            }
        }
    }

    /// Sends `text` now, before the loop; `false` if the client did not take it in time.
    pub(crate) async fn send(&mut self, text: &str) -> bool {
        let message = Message::Text(text.into());
        matches!(
            timeout(self.env.limits.write_timeout, self.sink.send(message)).await,
            Ok(Ok(()))
        )
    }

    /// Closes the socket now, before any loop, with `closing`.
    pub(crate) async fn refuse(self, closing: Closing) {
        self.finish(Some(closing), Vec::new()).await;
    }

    /// Writes `frames` in order, each within the write timeout: a client that does not read
    /// what it is sent is closed, and holds nothing for longer.
    async fn write(&mut self, frames: &[Arc<str>]) -> Result<(), Option<Closing>> {
        for frame in frames {
            self.send_text(frame.as_ref().into()).await?;
        }
        Ok(())
    }

    /// Sends one text frame within the write timeout.
    async fn send_text(&mut self, text: Shared) -> Result<(), Option<Closing>> {
        match timeout(
            self.env.limits.write_timeout,
            self.sink.send(Message::Text(text)),
        )
        .await
        {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => Err(None),
            Err(_) => {
                self.stalled = true;
                Err(Some(TOO_SLOW))
            }
        }
    }

    /// Serves the socket until either side ends it: `handler` takes the client's frames,
    /// each paid from `budget` (`None`: counted elsewhere, as a forwarded socket's are by
    /// the owner), and `outbox` brings what to send. Returns the close code sent, if any.
    pub(crate) async fn run(
        mut self,
        mut handler: impl Handler,
        mut outbox: impl Outbox,
        budget: Option<Arc<Mutex<Budget>>>,
    ) -> Option<CloseCode> {
        let limits = self.env.limits;
        let mut pings = interval_at(Instant::now() + limits.ping_interval, limits.ping_interval);
        pings.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let mut heard = Instant::now();
        // The server's pauses when the client was last heard: a pause is not its idling.
        let mut paused_then = self.env.pauses.notice(heard);
        let mut stop = self.env.stopping.listen();
        let take = |now: Instant| {
            budget.as_ref().is_none_or(|budget| {
                budget
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .take(now, 1)
            })
        };
        let closing: Option<Closing> = loop {
            tokio::select! {
                out = outbox.next() => {
                    let written = match out {
                        Some(Out::Text(text)) => self.write(&[text]).await,
                        Some(Out::Frames(frames)) => self.write(&frames).await,
                        Some(Out::Shared(frame)) => self.send_text(frame).await,
                        Some(Out::Close(code, reason)) => {
                            break Some(Closing { code, reason, last: None })
                        }
                        None => break Some(TOO_SLOW),
                    };
                    if let Err(closing) = written {
                        break closing;
                    }
                }
                frame = self.stream.next() => {
                    let now = Instant::now();
                    heard = now;
                    paused_then = self.env.pauses.notice(now);
                    let frame = match frame {
                        None | Some(Err(_) | Ok(Message::Close(_))) => break None,
                        Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                        Some(Ok(Message::Text(text))) => Incoming::Text(text),
                        Some(Ok(Message::Binary(bytes))) => Incoming::Binary(bytes),
                    };
                    let size = match &frame {
                        Incoming::Text(text) => text.len(),
                        Incoming::Binary(bytes) => bytes.len(),
                    };
                    if size > limits.max_frame_bytes {
                        break Some(Closing::new(CloseCode::TooBig, "a frame is at most 4096 bytes"));
                    }
                    if !take(now) {
                        break Some(Closing::rate_limited(&limits));
                    }
                    match handler.frame(frame, now).await {
                        Flow::Go => {}
                        Flow::Reply(text) => {
                            if let Err(closing) = self.write(&[text]).await {
                                break closing;
                            }
                        }
                        Flow::Close(closing) => break Some(closing),
                    }
                }
                _ = pings.tick() => {
                    let now = Instant::now();
                    let paused = self.env.pauses.notice(now).saturating_sub(paused_then);
                    if now.duration_since(heard).saturating_sub(paused) >= limits.idle_timeout {
                        break Some(Closing::new(CloseCode::Idle, "idle"));
                    }
                    let ping = self.sink.send(Message::Ping(Bytes::new()));
                    match timeout(limits.write_timeout, ping).await {
                        Ok(Ok(())) => {}
                        Ok(Err(_)) => break None,
                        Err(_) => {
                            self.stalled = true;
                            break Some(TOO_SLOW);
                        }
                    }
                }
                () = stop.recv() => {
                    break Some(Closing::new(CloseCode::Restart, "the server is restarting"));
                }
            }
        };
        handler.finish().await;
        let queued = if closing.is_some() {
            outbox.queued()
        } else {
            Vec::new()
        };
        let code = closing.as_ref().map(|c| c.code);
        self.finish(closing, queued).await;
        code
    }

    /// Ends the socket: with a `closing`, the frames already `queued` go out first, then
    /// its last frame, then the close; then a short wait for the client's close, so that the
    /// connection does not end before the client has read the code. All of it within one
    /// write timeout; nothing of it for a client whose write stalled (it reads nothing): its
    /// connection is dropped at once.
    async fn finish(mut self, closing: Option<Closing>, mut queued: Vec<Arc<str>>) {
        let code = closing.as_ref().map(|c| c.code.number());
        tracing::info!(
            kind = self.kind,
            game = self.game.as_deref().unwrap_or(""),
            code,
            "socket closed"
        );
        let deadline = Instant::now() + self.env.limits.write_timeout;
        if let Some(Closing { code, reason, last }) = closing {
            crate::telemetry::closed(code.number());
            if self.stalled {
                return;
            }
            queued.extend(last);
            let written = timeout_at(deadline, async {
                for frame in &queued {
                    self.sink.send(Message::Text(frame.as_ref().into())).await?;
                }
                self.sink
                    .send(Message::Close(Some(CloseFrame {
                        code: code.number(),
                        reason: reason.as_ref().into(),
                    })))
                    .await
            })
            .await;
            if !matches!(written, Ok(Ok(()))) {
                return;
            }
            // Closing now, no longer open: the wait for the client's close counts not.
            self.open = None;
            let _ = timeout(CLOSING_WAIT, async {
                while let Some(Ok(frame)) = self.stream.next().await {
                    if matches!(frame, Message::Close(_)) {
                        break;
                    }
                }
            })
            .await;
        }
        if !self.stalled {
            let _ = timeout_at(
                deadline.max(Instant::now() + CLOSING_WAIT),
                self.sink.close(),
            )
            .await;
        }
    }
}
