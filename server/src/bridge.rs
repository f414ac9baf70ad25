//! The bridge: an engine of the Salpakan engine protocol (`docs/ENGINES.md`) playing on a
//! server as a bot account. (Feature `bridge`; the `salpakan-bridge` binary.)
//!
//! It holds the account's player socket: it answers the challenges it hears (accepting
//! those its [`Accept`] allows while it has a game free, declining the rest with a reason),
//! plays every game it is paired in (an accepted challenge, the bots' pool, a seek), and
//! waits in the bots' pool when asked to. Each game is one engine process, driven with the
//! host's lines made from the seat's socket alone ([`salpakan_engine::host::Seat`]): the
//! engine hears its own side's formation, the squares the enemy stands on, each ply's public
//! move and the arbiter's word, its clocks; nothing of the enemy's ranks reaches the bridge,
//! so none can reach the engine.
//!
//! A socket that closes (a server restart, a lost connection) is opened again, with a
//! growing wait, and a game goes on from the last event the bridge had (`hello`).

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use salpakan::{Rules, Side, Status};
use salpakan_engine::engine::AgentEngine;
use salpakan_engine::host::{Fault, Limits, Seat};
use salpakan_engine::protocol::Forfeit;
use serde_json::json;
use thiserror::Error;
use tokio::sync::watch;

use crate::client::{ClientError, Frame, Socket, request_as};
use crate::wire::{
    ChallengeList, ChallengeOffer, ClockWords, Code, JoinReply, LobbyMessage, Phase, PoolRequest,
    ServerMessage, Summary,
};

/// Which challenges the bridge accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Accept {
    /// Rated games.
    pub rated: bool,
    /// Unrated games.
    pub casual: bool,
    /// Untimed games.
    pub untimed: bool,
}

impl Default for Accept {
    /// Every challenge.
    fn default() -> Accept {
        Accept {
            rated: true,
            casual: true,
            untimed: true,
        }
    }
}

/// What the bridge is to do.
#[derive(Debug, Clone)]
pub struct Options {
    /// The server.
    pub addr: SocketAddr,
    /// The bot account's key.
    pub key: String,
    /// The engine, one for each game.
    pub engine: Launch,
    /// Games at once, at most.
    pub games: usize,
    /// Which challenges it accepts.
    pub accept: Accept,
    /// The pool it waits in whenever it has a game free (`bots` is set: a bot joins only
    /// the bots' pools).
    pub pool: Option<PoolRequest>,
    /// How long the engine has for each answer (a move's is cut to its clock).
    pub limits: Limits,
}

/// How the bridge starts an engine for a game.
#[derive(Clone)]
pub enum Launch {
    /// A command, run through `sh -c`: one process a game.
    Command(String),
    /// An engine in this process, made for the game numbered `n` (from 1) by the function:
    /// a Rust program's own [`salpakan_engine::engine::Engine`], or one of the crate's agents
    /// ([`Launch::agent`]).
    InProcess(Arc<dyn Fn(u64) -> Result<Seat, String> + Send + Sync>),
}

impl std::fmt::Debug for Launch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Launch::Command(command) => f.debug_tuple("Command").field(command).finish(),
            Launch::InProcess(_) => f.write_str("InProcess(..)"),
        }
    }
}

impl Launch {
    /// One of the crate's agents in this process (`salpakan-engine`'s words: `greedy`,
    /// `level-4`, …), each game's seeded from `seed` and the game's number: its formations
    /// follow from the seed, so give it 64 secret bits from the operating system's
    /// generator.
    ///
    /// # Errors
    /// A word that names no agent.
    pub fn agent(word: &str, seed: u64) -> Result<Launch, String> {
        AgentEngine::new(word, seed)?;
        let word = word.to_owned();
        Ok(Launch::InProcess(Arc::new(move |n: u64| {
            let seed = seed.wrapping_add(n.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            AgentEngine::new(&word, seed).map(Seat::in_process)
        })))
    }

    /// The engine of the game numbered `n` (from 1; 0 is the check made at the start).
    ///
    /// # Errors
    /// The process's error, or the in-process engine's.
    pub fn start(&self, n: u64) -> Result<Seat, String> {
        match self {
            Launch::Command(command) => Seat::spawn(command).map_err(|e| e.to_string()),
            Launch::InProcess(make) => make(n),
        }
    }
}

/// Why the bridge stopped.
#[derive(Debug, Error)]
pub enum BridgeError {
    /// The key is not a player's, or the account is a person's.
    #[error("the server refused the account: {0}")]
    Account(String),
    /// The engine could not be started.
    #[error("the engine does not start: {0}")]
    Engine(String),
}

/// The longest wait before a socket is opened again.
const MOST_BACKOFF: Duration = Duration::from_secs(5);

/// Runs the bridge until `stop` says so (or the account is refused).
///
/// # Errors
/// [`BridgeError::Account`] when the server refuses the key; [`BridgeError::Engine`] when
/// the engine cannot be started at all (tried once, before anything else).
pub async fn run(options: Options, mut stop: watch::Receiver<bool>) -> Result<(), BridgeError> {
    let probe = options.engine.start(0).map_err(BridgeError::Engine)?;
    let _ = tokio::task::spawn_blocking(move || probe.quit()).await;
    let options = Arc::new(options);
    let playing = Arc::new(AtomicUsize::new(0));
    let started = Arc::new(AtomicU64::new(1));
    let (ended_tx, mut ended) = tokio::sync::mpsc::unbounded_channel::<()>();
    let mut backoff = Duration::from_millis(100);
    loop {
        if *stop.borrow() {
            return Ok(());
        }
        let (mut socket, name) = match open_player_socket(&options).await {
            Ok(opened) => opened,
            Err(Opened::Refused(why)) => return Err(BridgeError::Account(why)),
            Err(Opened::Retry(why)) => {
                tracing::warn!(%why, "the player socket does not open; trying again");
                tokio::select! {
                    () = tokio::time::sleep(backoff) => {}
                    _ = stop.changed() => return Ok(()),
                }
                backoff = (backoff * 2).min(MOST_BACKOFF);
                continue;
            }
        };
        backoff = Duration::from_millis(100);
        // An engine plays as a bot, never passing for a person.
        let profile = format!("/api/players/{name}");
        if let Ok((200, text)) = request_as(None, options.addr, "GET", &profile, "", None).await
            && serde_json::from_str::<crate::wire::Profile>(&text).is_ok_and(|p| !p.bot)
        {
            return Err(BridgeError::Account(format!(
                "{name} is a person's account: an engine plays as a bot account (POST /api/players with \"bot\": true)"
            )));
        }
        let lobby = Lobby {
            options: Arc::clone(&options),
            playing: Arc::clone(&playing),
            started: Arc::clone(&started),
            ended: ended_tx.clone(),
            stop: stop.clone(),
        };
        lobby.answer_standing().await;
        lobby.wait_in_pool().await;
        loop {
            tokio::select! {
                frame = socket.next() => {
                    let Some(Frame::Text(text)) = frame else { break };
                    match serde_json::from_str::<LobbyMessage>(&text) {
                        // Its own challenges of others are told it too.
                        Ok(LobbyMessage::Challenge(offer)) if offer.to.eq_ignore_ascii_case(&name) => {
                            lobby.answer(&offer).await;
                        }
                        Ok(LobbyMessage::Paired { game, side, token }) => {
                            lobby.play(JoinReply { game, side, token });
                        }
                        _ => {}
                    }
                }
                Some(()) = ended.recv() => lobby.wait_in_pool().await,
                _ = stop.changed() => return Ok(()),
            }
        }
        tracing::info!("the player socket closed; opening it again");
    }
}

enum Opened {
    Refused(String),
    Retry(String),
}

/// The player socket, the key accepted, and the account's name.
async fn open_player_socket(options: &Options) -> Result<(Socket, String), Opened> {
    let retry = |e: ClientError| Opened::Retry(e.to_string());
    let mut socket = Socket::open(None, options.addr, "/api/players/socket")
        .await
        .map_err(retry)?;
    socket
        .send(&json!({"t": "auth", "key": options.key}).to_string())
        .await
        .map_err(retry)?;
    match socket.next().await {
        Some(Frame::Text(text)) => match serde_json::from_str::<LobbyMessage>(&text) {
            Ok(LobbyMessage::Welcome { name }) => Ok((socket, name)),
            _ => Err(Opened::Retry(format!("{text} for welcome"))),
        },
        Some(Frame::Close(4401)) => Err(Opened::Refused("not a player's key".into())),
        other => Err(Opened::Retry(format!("{other:?} for welcome"))),
    }
}

/// The account's side of the lobby: challenges answered, games started, the pool joined.
struct Lobby {
    options: Arc<Options>,
    playing: Arc<AtomicUsize>,
    /// Games started so far (each engine's number).
    started: Arc<AtomicU64>,
    ended: tokio::sync::mpsc::UnboundedSender<()>,
    stop: watch::Receiver<bool>,
}

impl Lobby {
    async fn call(&self, method: &str, path: &str, body: &str) -> Option<(u16, String)> {
        let options = &self.options;
        request_as(None, options.addr, method, path, body, Some(&options.key))
            .await
            .ok()
    }

    /// The challenges that stood before the socket opened.
    async fn answer_standing(&self) {
        let Some((200, text)) = self.call("GET", "/api/challenges", "").await else {
            return;
        };
        let Ok(list) = serde_json::from_str::<ChallengeList>(&text) else {
            return;
        };
        for offer in &list.incoming {
            self.answer(offer).await;
        }
    }

    /// Accepts `offer` if it may and has a game free; declines it otherwise, saying why.
    async fn answer(&self, offer: &ChallengeOffer) {
        let accept = self.options.accept;
        let reason = if self.playing.load(Ordering::SeqCst) >= self.options.games {
            Some("later")
        } else if offer.rated && !accept.rated {
            Some("casual")
        } else if !offer.rated && !accept.casual {
            Some("rated")
        } else if offer.clock.is_none() && !accept.untimed {
            Some("too-slow")
        } else {
            None
        };
        let cid = &offer.challenge;
        if let Some(reason) = reason {
            let body = json!({ "reason": reason }).to_string();
            let _ = self
                .call("POST", &format!("/api/challenges/{cid}/decline"), &body)
                .await;
            return;
        }
        match self
            .call("POST", &format!("/api/challenges/{cid}/accept"), "")
            .await
        {
            Some((200, text)) => match serde_json::from_str::<JoinReply>(&text) {
                Ok(seat) => self.play(seat),
                Err(e) => tracing::warn!(error = %e, "an accept's reply not read"),
            },
            other => tracing::info!(?other, "a challenge not accepted"),
        }
    }

    /// Waits in the pool, if asked to and a game is free.
    async fn wait_in_pool(&self) {
        let Some(pool) = &self.options.pool else {
            return;
        };
        if self.playing.load(Ordering::SeqCst) >= self.options.games {
            return;
        }
        let mut pool = pool.clone();
        pool.bots = Some(true);
        let body = serde_json::to_string(&pool).unwrap_or_default();
        match self.call("POST", "/api/pool", &body).await {
            Some((202, _)) => {}
            other => tracing::warn!(?other, "the pool refused"),
        }
    }

    /// Plays `seat`'s game on a task of its own; the lobby hears when it ends.
    fn play(&self, seat: JoinReply) {
        self.playing.fetch_add(1, Ordering::SeqCst);
        let n = self.started.fetch_add(1, Ordering::SeqCst);
        let (options, playing, ended) = (
            Arc::clone(&self.options),
            Arc::clone(&self.playing),
            self.ended.clone(),
        );
        let stop = self.stop.clone();
        tokio::spawn(async move {
            let game = seat.game.clone();
            match play_seat(&options, (seat, n), stop).await {
                Ok(status) => tracing::info!(%game, ?status, "a game ended"),
                Err(why) => tracing::warn!(%game, %why, "a game left"),
            }
            playing.fetch_sub(1, Ordering::SeqCst);
            let _ = ended.send(());
        });
    }
}

/// One seat's game, on its socket, opened again whenever it closes, to its end.
struct Table {
    options: Arc<Options>,
    seat: JoinReply,
    side: Side,
    first: Side,
    rules: Rules,
    engine: Arc<Mutex<Seat>>,
    /// The last event taken in.
    v: u64,
    /// Plies played.
    plies: u64,
    /// The engine's formation, once it gave it.
    formed: Option<salpakan::Setup>,
    /// The side to move, once play started.
    to_move: Option<Side>,
    /// The clocks last told.
    clock: Option<ClockWords>,
}

/// What a socket's frame leaves the table to do.
enum Next {
    Go,
    Wait,
    Over(Status),
}

async fn play_seat(
    options: &Arc<Options>,
    (seat, n): (JoinReply, u64),
    mut stop: watch::Receiver<bool>,
) -> Result<Status, String> {
    let path = format!("/api/games/{}", seat.game);
    let (status, text) = request_as(None, options.addr, "GET", &path, "", None)
        .await
        .map_err(|e| e.to_string())?;
    if status != 200 {
        return Err(format!("the game's summary: {status} {text}"));
    }
    let summary: Summary = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let move_limit = (summary.rules.move_limit > 0).then_some(summary.rules.move_limit);
    let rules =
        Rules::new(summary.rules.setup_rows, move_limit.unwrap_or(0)).map_err(|e| e.to_string())?;
    let engine = options.engine.start(n)?;
    let mut table = Table {
        options: Arc::clone(options),
        side: seat.side.0,
        seat,
        first: summary.first.0,
        rules,
        engine: Arc::new(Mutex::new(engine)),
        v: 0,
        plies: 0,
        formed: None,
        to_move: None,
        clock: None,
    };
    let mut backoff = Duration::from_millis(100);
    let outcome = loop {
        let opened = Socket::connect(
            table.options.addr,
            &table.seat.game,
            Some(&table.seat.token),
        );
        let mut socket = match opened.await {
            Ok(socket) => socket,
            Err(ClientError::Refused { status, body }) if status != 503 => {
                break Err(format!("the seat is refused: {status} {body}"));
            }
            Err(_) => {
                tokio::select! {
                    () = tokio::time::sleep(backoff) => {}
                    _ = stop.changed() => break Err("stopped".into()),
                }
                backoff = (backoff * 2).min(MOST_BACKOFF);
                continue;
            }
        };
        backoff = Duration::from_millis(100);
        if table.v > 0 {
            let hello = json!({"t": "hello", "v": table.v}).to_string();
            if socket.send(&hello).await.is_err() {
                continue;
            }
        }
        match table.serve(&mut socket, &mut stop).await {
            Some(done) => break done,
            None => {
                tracing::info!(game = %table.seat.game, "the game's socket closed; opening it again")
            }
        }
    };
    // The engine is told to quit (and killed if it does not).
    let engine = table.engine;
    let _ = tokio::task::spawn_blocking(move || {
        if let Ok(mutex) = Arc::try_unwrap(engine)
            && let Ok(seat) = mutex.into_inner()
        {
            seat.quit();
        }
    })
    .await;
    outcome
}

impl Table {
    /// Plays on `socket` until the game ends (`Some`) or the socket closes (`None`).
    async fn serve(
        &mut self,
        socket: &mut Socket,
        stop: &mut watch::Receiver<bool>,
    ) -> Option<Result<Status, String>> {
        loop {
            let frame = tokio::select! {
                frame = socket.next() => frame,
                _ = stop.changed() => return Some(Err("stopped".into())),
            };
            let text = match frame {
                Some(Frame::Text(text)) => text,
                // A close of the seat's own (4xxx: no such seat) ends it; others reopen.
                Some(Frame::Close(code)) if (4000..5000).contains(&code) => {
                    return Some(Err(format!("the seat's socket closed with {code}")));
                }
                Some(Frame::Close(_)) | None => return None,
            };
            let Ok(message) = serde_json::from_str::<ServerMessage>(&text) else {
                continue;
            };
            let next = match self.take(&message, socket).await {
                Ok(next) => next,
                Err(why) => return Some(Err(why)),
            };
            match next {
                Next::Wait => {}
                Next::Over(status) => return Some(Ok(status)),
                Next::Go => {
                    if let Err(why) = self.go(socket).await {
                        return Some(Err(why));
                    }
                }
            }
        }
    }

    /// Takes one message in: the engine is told what its side may know of it.
    async fn take(&mut self, message: &ServerMessage, socket: &mut Socket) -> Result<Next, String> {
        if let Some(v) = message.version() {
            if v <= self.v {
                return Ok(Next::Wait);
            }
            self.v = v;
        }
        match message {
            ServerMessage::State {
                v,
                phase,
                status,
                view,
                ..
            } => {
                if phase.finished() {
                    return Ok(Next::Over(status.0));
                }
                // No formation of this seat's accepted (none given yet, or the server lost
                // it in a crash before keeping it): given, or given again.
                if *phase == Phase::Setup && view.is_none() {
                    self.form(socket).await?;
                }
                // Caught up, and this side's turn: the move sent before a crash may be
                // lost, so the engine is asked again.
                let mine = self.to_move == Some(self.side);
                Ok(if *phase == Phase::Playing && *v == self.v && mine {
                    Next::Go
                } else {
                    Next::Wait
                })
            }
            ServerMessage::Start {
                first, view, clock, ..
            } => {
                let view = view.as_ref().ok_or("a start without a view")?;
                let enemy = view.squares_of(self.side.other());
                self.clock = *clock;
                self.to_move = Some(first.0);
                self.blocking(move |seat| seat.start(enemy)).await;
                Ok(if first.0 == self.side {
                    Next::Go
                } else {
                    Next::Wait
                })
            }
            ServerMessage::Ply {
                ply,
                side,
                status,
                clock,
                ..
            } => {
                let report = message.report().ok_or("a ply without its report")?;
                self.plies = u64::from(*ply);
                self.clock = *clock;
                self.to_move = Some(side.0.other());
                self.blocking(move |seat| seat.ply(report)).await;
                Ok(if status.0.is_ongoing() && side.0 != self.side {
                    Next::Go
                } else {
                    Next::Wait
                })
            }
            ServerMessage::Over { status, .. } => {
                let status = status.0;
                self.blocking(move |seat| seat.over(status, None)).await;
                Ok(Next::Over(status))
            }
            ServerMessage::Aborted { .. } => Err("the game was aborted".into()),
            ServerMessage::Error { code, message } => match code {
                Code::BadSetup => {
                    let _ = socket.send(r#"{"t":"abort"}"#).await;
                    Err(format!("the engine's formation was refused: {message}"))
                }
                Code::IllegalMove => {
                    self.forfeit(socket, Forfeit::IllegalMove).await;
                    Err(format!("the engine's move was refused: {message}"))
                }
                _ => Ok(Next::Wait),
            },
            _ => Ok(Next::Wait),
        }
    }

    /// Runs `f` on the engine on a blocking thread (never on the async threads).
    async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Seat) -> T + Send + 'static,
    ) -> Option<T> {
        let engine = Arc::clone(&self.engine);
        tokio::task::spawn_blocking(move || {
            let mut seat = engine.lock().ok()?;
            Some(f(&mut seat))
        })
        .await
        .ok()
        .flatten()
    }

    /// Asks the engine for its formation (once) and sends it.
    async fn form(&mut self, socket: &mut Socket) -> Result<(), String> {
        if let Some(setup) = &self.formed {
            let cells = setup.cell_values().to_vec();
            return socket
                .send(&json!({"t": "setup", "cells": cells}).to_string())
                .await
                .map_err(|e| e.to_string());
        }
        let (side, first, rules, limits) = (self.side, self.first, self.rules, self.options.limits);
        let setup = self
            .blocking(move |seat| seat.new_game((side, first, rules), &limits))
            .await
            .ok_or("the engine's thread died")?;
        let setup = match setup {
            Ok(setup) => setup,
            Err(fault) => {
                let _ = socket.send(r#"{"t":"abort"}"#).await;
                return Err(format!("no formation: {fault}"));
            }
        };
        let cells = setup.cell_values().to_vec();
        socket
            .send(&json!({"t": "setup", "cells": cells}).to_string())
            .await
            .map_err(|e| e.to_string())?;
        self.formed = Some(setup);
        Ok(())
    }

    /// Asks the engine for its move and sends it (or resigns for it).
    async fn go(&mut self, socket: &mut Socket) -> Result<(), String> {
        let clocks = self.clock.map(|c| {
            let [own, enemy] = match self.side {
                Side::White => [c.white_ms, c.black_ms],
                Side::Black => [c.black_ms, c.white_ms],
            };
            (own, enemy)
        });
        let mut within = self.options.limits.mv;
        if let Some((own, _)) = clocks {
            within = within.min(Duration::from_millis(own + 500));
        }
        let answer = self
            .blocking(move |seat| seat.go(clocks, within))
            .await
            .ok_or("the engine's thread died")?;
        match answer {
            Ok(Some(mv)) => {
                let message = json!({"t": "move", "move": mv.to_string(), "ply": self.plies});
                socket
                    .send(&message.to_string())
                    .await
                    .map_err(|e| e.to_string())
            }
            Ok(None) => socket
                .send(r#"{"t":"resign"}"#)
                .await
                .map_err(|e| e.to_string()),
            Err(fault) => {
                let forfeit = fault.forfeit();
                self.forfeit(socket, forfeit).await;
                Err(match fault {
                    Fault::Timeout => "the engine did not move in time".into(),
                    other => format!("the engine said {other}"),
                })
            }
        }
    }

    /// Resigns for an engine at fault, and tells it so.
    async fn forfeit(&mut self, socket: &mut Socket, forfeit: Forfeit) {
        let _ = socket.send(r#"{"t":"resign"}"#).await;
        let status = Status::Won {
            winner: self.side.other(),
            reason: salpakan::WinReason::Resignation,
        };
        self.blocking(move |seat| seat.over(status, Some(forfeit)))
            .await;
    }
}
