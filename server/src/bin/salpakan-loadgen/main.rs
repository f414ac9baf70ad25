//! `salpakan-loadgen`: N concurrent games of random bots over real sockets against a server
//! on loopback, for S seconds; then every game's record in the database is checked against
//! the plies its clients saw. Every game has a clock, and each ply's charge is held against
//! the time the mover's client really took: what the server charged beyond it (its own
//! delays, and the network's) is reported as the largest overcharge.
//!
//! With `--attack KIND` it plays S seconds without the attack, then S seconds beside it, and
//! fails unless the normal games' p99 round trip under the attack stays within twice (plus
//! 5 ms) of its value without it and no clock is overcharged by more than 50 ms. The kinds
//! (`attacks.rs`): `readers` (8 clients reading a long finished game's summary and record
//! without pause), `replayers` (30 spectators of long games asking for their whole history
//! again and again), `idle` (connections from another address that send nothing, opened
//! again as fast as they are closed), `reconnects` (a seat reconnecting without pause),
//! `pool-churn` (a player joining and leaving a pool without pause), `lobby-lock` (24
//! addresses holding every lobby socket they may, and one address's 9 standing seeks), or
//! `all` of them at once.
//!
//! ```sh
//! cargo run --release -p salpakan-server --features client --bin salpakan-loadgen -- --games 1000 --seconds 30
//! ```
//!
//! Without `--url` it starts its own server (this program again, in a child process, on a
//! free loopback port with a temporary database, so that the server's memory is its own);
//! with `--url http://127.0.0.1:PORT` it plays against a running one (start that with
//! `--connections-per-ip`, `--games-per-ip`, `--games-per-hour`, `--pending-per-ip` and
//! `--connects-per-minute` above what N games need, `--messages-per-window` too with
//! `--think-ms` under 60, and `--max-move-limit 0` for an attack's long games). The last line is `loadgen: N games, P plies/s, p50 X ms, p99 Y ms, overcharge
//! at most C ms, server RSS Z MB, E errors, L lost, R reconnects (Q silences), longest stall S ms`.
//! A seat whose socket is closed with 1011 or 1012 (or vanishes, or whose game heard nothing
//! for 5 s: a silence) connects again, at the next node, with `hello` from the last version
//! it saw. A game still playing 60 s after the deadline is an error, and the run goes on to
//! its checks. The longest stall is the longest wait
//! between two plies of a game (with a node killed: until its last game played on).

use std::io::{BufRead, BufReader};
use std::net::{IpAddr, SocketAddr};
use std::path::Path;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

mod attacks;
mod lobby;
mod talk;

use salpakan::{Agent, Game, Random, Rules, Setup, Side, Tracker};
use salpakan_server::client::{ClientError, Follower, Received, Socket, post_from, request_from};
use salpakan_server::wire::{ClockWords, Code, CreateReply, JoinReply, ServerMessage};
use serde_json::json;
use tokio::sync::Mutex;

use attacks::Attack;

/// The normal games' move limit (the server's default) and clock: an hour each, no
/// increment, so that no game is decided on time and every charge is measured.
const MOVE_LIMIT: u16 = 200;
const CLOCK_MS: u64 = 3_600_000;

const USAGE: &str = "\
salpakan-loadgen: concurrent games of random bots against a salpakan-server on loopback

  --games N      concurrent games (1 … 5000; default 100)
  --seconds S    how long to play (1 … 600; default 10)
  --think-ms T   each bot's pause before each move (default 150: 1,000 games then ask for
                 about 6,500 plies/s; 0 plays as fast as the server answers)
  --url URL[,URL…]
                 a running server on loopback (http://127.0.0.1:PORT), or several: the games
                 are spread over them in turn; without it the load
                 generator starts its own
  --db DB        its own server's database: a PostgreSQL URL (postgres://…) or a path
                 (default: a temporary SQLite file)
  --lobby        reach the games through the lobby: two named players per game, paired by a
                 rated seek and its acceptance or by a rated quick-pairing pool (each end moves
                 both ratings), with lobby sockets
                 watching (the line adds pairings/s and the lobby's update delay)
  --lobby-sockets N  lobby sockets open beside the games with --lobby (default 500)
  --lobby-deltas  the lobby sockets ask for deltas (?deltas=1): a whole lobby, then changes
  --live-watchers N  sockets watching the live list beside the games (default 0)
  --chat-per-second R  chat lines said across the games a second (default 0): a seat about
                 to move says a phrase first; the other seat times its arrival
  --plies N      resign each game after N plies and start the next (default: play each game
                 to its end or the deadline), to measure pairings
  --spread       with several --url: each game is created at one node, joined at the next,
                 and its Black seat plays through that one (the nodes forward to the owner)
  --attack KIND  S seconds without, then S seconds beside an attack: readers, replayers,
                 idle, reconnects, pool-churn, lobby-lock or all; fails if the p99 round trip
                 more than doubles (+5 ms)
                 or a clock is overcharged by more than 50 ms
";

struct Args {
    games: usize,
    seconds: u64,
    think: Duration,
    url: Option<SocketAddr>,
    /// Every node `--url` names (the first is `url`): the `n`th game is played at the
    /// `n % len`th.
    nodes: Vec<SocketAddr>,
    /// The database of its own server (`--db`; default: a temporary SQLite file).
    db: Option<String>,
    attack: Option<Attack>,
    lobby: bool,
    lobby_sockets: usize,
    lobby_deltas: bool,
    live_watchers: usize,
    chat_per_second: u64,
    plies: Option<u64>,
    /// Each game's join and seats at other nodes than its creation.
    spread: bool,
}

fn parse_args() -> Result<Option<Args>, String> {
    let mut args = Args {
        games: 100,
        seconds: 10,
        think: Duration::from_millis(150),
        url: None,
        nodes: Vec::new(),
        db: None,
        attack: None,
        lobby: false,
        lobby_sockets: 500,
        lobby_deltas: false,
        live_watchers: 0,
        chat_per_second: 0,
        plies: None,
        spread: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--help" | "-h" => return Ok(None),
            "--games" => {
                args.games = value()?.parse().map_err(|_| "--games takes a number")?;
            }
            "--seconds" => {
                args.seconds = value()?.parse().map_err(|_| "--seconds takes a number")?;
            }
            "--think-ms" => {
                let ms: u64 = value()?.parse().map_err(|_| "--think-ms takes a number")?;
                args.think = Duration::from_millis(ms.min(10_000));
            }
            "--url" => {
                let mut nodes = Vec::new();
                for url in value()?.split(',') {
                    let addr: SocketAddr = url
                        .trim_start_matches("http://")
                        .trim_end_matches('/')
                        .parse()
                        .map_err(|_| format!("--url http://IP:PORT[,…], not {url}"))?;
                    if !addr.ip().is_loopback() {
                        return Err(format!(
                            "the load generator plays on loopback only, not {addr}"
                        ));
                    }
                    nodes.push(addr);
                }
                args.url = nodes.first().copied();
                args.nodes = nodes;
            }
            "--spread" => args.spread = true,
            "--attack" => args.attack = Some(value()?.parse()?),
            "--db" => args.db = Some(value()?),
            "--lobby" => args.lobby = true,
            "--plies" => {
                args.plies = Some(value()?.parse().map_err(|_| "--plies takes a number")?);
            }
            "--lobby-deltas" => args.lobby_deltas = true,
            "--live-watchers" => {
                args.live_watchers = value()?
                    .parse()
                    .map_err(|_| "--live-watchers takes a number")?;
            }
            "--chat-per-second" => {
                args.chat_per_second = value()?
                    .parse()
                    .map_err(|_| "--chat-per-second takes a number")?;
            }
            "--lobby-sockets" => {
                args.lobby_sockets = value()?
                    .parse()
                    .map_err(|_| "--lobby-sockets takes a number")?;
            }
            other => return Err(format!("unknown argument {other} (see --help)")),
        }
    }
    if !(1..=5000).contains(&args.games) {
        return Err(format!("--games must be 1 … 5000, not {}", args.games));
    }
    if !(1..=600).contains(&args.seconds) {
        return Err(format!("--seconds must be 1 … 600, not {}", args.seconds));
    }
    Ok(Some(args))
}

/// What every game's clients saw, and what went wrong.
#[derive(Default)]
struct Tally {
    latencies_us: Vec<u32>,
    /// Per ply: what the server charged the mover beyond the time its client took, in µs.
    overcharges_us: Vec<i64>,
    /// Per round trip and per overcharge, the second of the phase it was measured in.
    latency_seconds: Vec<u32>,
    overcharge_seconds: Vec<u32>,
    /// Each chat line's time from its sending to its arrival at the other seat, in µs.
    chat_us: Vec<u32>,
    /// Each finished game: the slot that played it, its id, the plies its clients saw.
    finished: Vec<(u64, String, Vec<String>)>,
    errors: Vec<String>,
}

struct Shared {
    addr: SocketAddr,
    /// The nodes the games are spread over (empty: all at `addr`).
    nodes: Vec<SocketAddr>,
    think: Duration,
    started: Instant,
    deadline: Instant,
    plies: AtomicU64,
    tally: Mutex<Tally>,
    /// The lobby's players, with `--lobby`.
    lobby: Option<Arc<lobby::Lobby>>,
    /// A game is resigned after this many plies.
    resign_after: Option<u64>,
    /// Whether a game's join and Black seat go through the next node (`--spread`).
    spread: bool,
    /// Sockets opened again after their server closed them (1011, 1012) or vanished.
    reconnects: AtomicU64,
    /// Times a game heard nothing for [`SILENCE`] and its seats connected again.
    silences: AtomicU64,
    /// The longest wait between two plies of one game (microseconds): with a node killed,
    /// from the kill until its last game played on elsewhere.
    longest_stall_us: AtomicU64,
    /// The chat lines' pace (`--chat-per-second`).
    chat: Arc<talk::Pace>,
    /// Where each slot's game stands (its id, the last version each seat heard, whose turn
    /// its seats think it is, what it waits for): named for a game still playing after the
    /// grace.
    standing: std::sync::Mutex<std::collections::BTreeMap<u64, String>>,
}

impl Shared {
    /// Where the `n`th game is played.
    fn node(&self, n: u64) -> SocketAddr {
        match self.nodes.len() {
            0 => self.addr,
            len => self.nodes[(n % len as u64) as usize],
        }
    }

    /// The second of the phase it is now.
    fn second(&self) -> u32 {
        u32::try_from(self.started.elapsed().as_secs()).unwrap_or(u32::MAX)
    }

    /// Says where slot `n`'s game stands.
    fn stands(&self, n: u64, what: String) {
        self.standing
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(n, what);
    }

    /// Adds `what` to where slot `n`'s game stands.
    fn also(&self, n: u64, what: &str) {
        if let Some(standing) = self
            .standing
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_mut(&n)
        {
            standing.push_str(what);
        }
    }

    async fn error(&self, what: String) {
        let mut tally = self.tally.lock().await;
        if tally.errors.len() < 20 {
            eprintln!("loadgen: {what}");
        }
        tally.errors.push(what);
    }
}

/// The loopback address the `n`th game's clients come from: one of their own, so that each
/// is held to the server's per-address limits as a real client would be (Linux answers on
/// all of 127.0.0.0/8), and apart from the attackers' 127.0.0.x.
fn client_address(n: u64) -> IpAddr {
    let [_, _, high, low] = u32::try_from(n).unwrap_or(u32::MAX).to_be_bytes();
    IpAddr::from([127, 1 + high, low, 1])
}

/// One game between two random bots, to its end (resigned at the deadline): the plies seen.
async fn play_game(
    shared: &Shared,
    n: u64,
    at: u64,
    seed: u64,
) -> Result<(String, Vec<String>), ClientError> {
    let from = Some(client_address(n));
    let rules = Rules::new(3, MOVE_LIMIT).expect("a move limit in range");
    // A node that does not answer (killed) is passed over: the game is made at the next.
    let mut tries = 0_u64;
    let (addr, id, tokens) = loop {
        let addr = shared.node(at + tries);
        let made = match &shared.lobby {
            Some(lobby) => lobby.pair(addr, n, seed).await,
            None => create_and_join(shared, from, addr, at + tries).await,
        };
        match made {
            Ok((id, tokens)) => break (addr, id, tokens),
            // A node that vanished mid-request is passed over too (its game, if made, is
            // left to expire unplayed), as is one that gave its games up (503: draining, or
            // its lease lapsed while it was paused).
            Err(
                ClientError::Connection(_)
                | ClientError::NotHttp(_)
                | ClientError::Refused { status: 503, .. },
            ) if tries + 1 < shared.nodes.len() as u64 => {
                tries += 1;
            }
            Err(e) => return Err(e),
        }
    };
    let mut seats = Vec::new();
    let mut followers = Vec::new();
    let mut formations = Vec::new();
    for side in Side::ALL {
        let at = if shared.spread && side == Side::Black {
            shared.node(at + tries + 1)
        } else {
            addr
        };
        let mut socket = open_seat(shared, n, at, &id, &tokens[side.index()]).await?;
        let setup = Setup::random(side, rules, seed * 2 + side.index() as u64);
        let cells = json!({"t": "setup", "cells": setup.cell_values().to_vec()}).to_string();
        socket.send(&cells).await?;
        formations.push(cells);
        seats.push(socket);
        followers.push(Follower::new(setup, rules));
    }
    let mut agents = [Random::new(seed), Random::new(seed ^ 0x5555)];
    let mut seen: Vec<String> = Vec::new();
    let mut sent_at: Option<(u64, Instant)> = None;
    // Each side's time left as last announced, when its turn came, and how long its client
    // took to answer (for its charges).
    let mut left: [Option<u64>; 2] = [None, None];
    let mut turn_came: [Option<Instant>; 2] = [None, None];
    let mut took: [Option<Duration>; 2] = [None, None];
    let mut over = [false, false];
    // Whether this game's resignation was sent since its seats last connected (a
    // resignation sent to a node that then stopped, or was paused and gave the game up, may
    // never have been played: it is sent again from the new connection).
    let mut resigned = false;
    let failed = |what: String| ClientError::Game(format!("game {id}: {what}"));
    // The last event version each seat received: a seat whose socket closes (its node
    // stopped, or the game moved) connects again, at the next node, with `hello` from it.
    let mut last_v = [0_u64; 2];
    let mut last_ply_at: Option<Instant> = None;
    let mut reconnected = [false, false];
    // Whose formations the server said it has (`ready`): one sent to a node that then gave
    // the game up may never have been taken, and is sent again from the new connection.
    let mut placed = [false, false];
    // A chat line on its way: the side that said it, and when.
    let mut said: Option<(Side, Instant)> = None;
    while !(over[0] && over[1]) {
        shared.stands(
            n,
            format!(
                "game {id}: heard v{}/v{}, placed {placed:?}, over {over:?}, resigned \
                 {resigned}, reconnected {reconnected:?}, to move {:?}/{:?}, waiting to hear",
                last_v[0],
                last_v[1],
                followers[0].tracker().map(Tracker::side_to_move),
                followers[1].tracker().map(Tracker::side_to_move),
            ),
        );
        let heard = {
            let [white, black] = &mut seats[..] else {
                unreachable!()
            };
            tokio::time::timeout(SILENCE, async {
                tokio::select! {
                    r = white.receive(), if !over[0] => (Side::White, r),
                    r = black.receive(), if !over[1] => (Side::Black, r),
                }
            })
            .await
        };
        // Both bots answer within `think`: a game silent for `SILENCE` has a server that
        // stopped answering (a paused node) on its sockets, which connect again elsewhere.
        let Ok((side, received)) = heard else {
            shared.silences.fetch_add(1, Ordering::Relaxed);
            for side in Side::ALL.into_iter().filter(|s| !over[s.index()]) {
                let i = side.index();
                seats[i] = reconnect(shared, n, &id, &tokens[i], last_v[i]).await?;
                reconnected[i] = true;
                resigned = false;
            }
            continue;
        };
        let i = side.index();
        let message = match received {
            Ok(Received::Message(message)) => message,
            Ok(Received::Closed(code)) if code != RESTART && code != RELOADING => {
                return Err(failed(format!("closed with {code}")));
            }
            // 1011, 1012, or a connection that vanished: connect again, elsewhere if need be.
            _ => {
                seats[i] = reconnect(shared, n, &id, &tokens[i], last_v[i]).await?;
                reconnected[i] = true;
                resigned = false;
                continue;
            }
        };
        if let Some(v) = message.version() {
            if v <= last_v[i] {
                continue;
            }
            last_v[i] = v;
        }
        followers[i].follow(&message)?;
        match &message {
            // After a reconnect, a move sent before it may be answered as already played.
            ServerMessage::Error { code, .. }
                if reconnected[i]
                    && matches!(
                        code,
                        Code::StalePly | Code::NotYourTurn | Code::GameOver | Code::WrongPhase
                    ) =>
            {
                continue;
            }
            // A line past the chat's rates (a few games asked for many lines a second) is
            // not said: the game goes on.
            ServerMessage::Error {
                code: Code::ChatRateLimited,
                ..
            } => {
                said = None;
                continue;
            }
            ServerMessage::Error { code, message } => {
                return Err(failed(format!("refused: {}: {message}", code.word())));
            }
            ServerMessage::Ready { side: whose, .. } => {
                placed[whose.0.index()] = true;
                continue;
            }
            // A fresh connection's state before play: this seat's formation, if the server
            // has not said it has it, is sent again.
            ServerMessage::State {
                phase: salpakan_server::wire::Phase::Setup,
                ..
            } if reconnected[i] && !placed[i] => {
                if seats[i].send(&formations[i]).await.is_err() {
                    seats[i] = reconnect(shared, n, &id, &tokens[i], last_v[i]).await?;
                }
                continue;
            }
            // A fresh connection's state: if nothing was missed, it may be this seat's turn
            // (a move sent before the socket closed may not have been committed).
            ServerMessage::State { v, .. } if *v == last_v[i] && reconnected[i] => {}
            ServerMessage::Over { .. } => {
                over[i] = true;
                continue;
            }
            ServerMessage::Ply {
                ply,
                side: mover,
                mv,
                clock,
                ..
            } => {
                if let Some(clock) = clock {
                    let now_left = time_left(clock, mover.0);
                    // The mover's charge, beside the time its own client took to answer.
                    if side == mover.0
                        && let (Some(before), Some(took)) =
                            (left[side.index()], took[side.index()].take())
                    {
                        let charged = Duration::from_millis(before.saturating_sub(now_left));
                        let over_us = charged.as_micros() as i64 - took.as_micros() as i64;
                        let mut tally = shared.tally.lock().await;
                        tally.overcharges_us.push(over_us);
                        tally.overcharge_seconds.push(shared.second());
                    }
                    left[mover.0.index()] = Some(now_left);
                    turn_came[mover.0.other().index()] = Some(Instant::now());
                }
                let ply = u64::from(*ply);
                if side == Side::White {
                    seen.push(mv.0.to_string());
                    shared.plies.fetch_add(1, Ordering::Relaxed);
                    if let Some(before) = last_ply_at.replace(Instant::now()) {
                        let us = u64::try_from(before.elapsed().as_micros()).unwrap_or(u64::MAX);
                        shared.longest_stall_us.fetch_max(us, Ordering::Relaxed);
                    }
                }
                if let Some((sent_ply, at)) = sent_at
                    && sent_ply == ply
                    && mover.0 == side
                {
                    let us = u32::try_from(at.elapsed().as_micros()).unwrap_or(u32::MAX);
                    let mut tally = shared.tally.lock().await;
                    tally.latencies_us.push(us);
                    tally.latency_seconds.push(shared.second());
                    sent_at = None;
                }
            }
            ServerMessage::Chat(_) => {
                if let Some((speaker, at)) = said
                    && speaker != side
                {
                    let us = u32::try_from(at.elapsed().as_micros()).unwrap_or(u32::MAX);
                    shared.tally.lock().await.chat_us.push(us);
                    said = None;
                }
                continue;
            }
            ServerMessage::Start { clock, first, .. } => {
                if let Some(clock) = clock {
                    left = [Side::White, Side::Black].map(|s| Some(time_left(clock, s)));
                }
                turn_came[first.0.index()] = Some(Instant::now());
            }
            _ => continue,
        }
        let Some(tracker) = followers[i].tracker() else {
            continue;
        };
        if !tracker.status().is_ongoing() || tracker.side_to_move() != side {
            continue;
        }
        let enough = shared
            .resign_after
            .is_some_and(|most| tracker.history().len() as u64 >= most);
        if Instant::now() >= shared.deadline || enough {
            if !resigned {
                resigned = true;
                if seats[i].send(r#"{"t":"resign"}"#).await.is_err() {
                    // Its node is gone: the seat connects again, and resigns from there.
                    seats[i] = reconnect(shared, n, &id, &tokens[i], last_v[i]).await?;
                    reconnected[i] = true;
                    resigned = false;
                }
            }
            continue;
        }
        let mv = agents[i]
            .choose(tracker)
            .ok_or_else(|| failed("no move".into()))?;
        let ply = tracker.history().len() as u64;
        if !shared.think.is_zero() {
            tokio::time::sleep(shared.think).await;
        }
        if said.is_none() && shared.chat.take() {
            said = Some((side, Instant::now()));
            let _ = seats[i].send(r#"{"t":"say","phrase":"your-move"}"#).await;
        }
        sent_at = Some((ply + 1, Instant::now()));
        took[i] = turn_came[i].map(|came| came.elapsed());
        let message = json!({"t": "move", "move": mv.to_string(), "ply": ply});
        if seats[i].send(&message.to_string()).await.is_err() {
            // Its node is gone: the seat connects again; the state it is sent says whether
            // the move was played.
            seats[i] = reconnect(shared, n, &id, &tokens[i], last_v[i]).await?;
            reconnected[i] = true;
            resigned = false;
        }
    }
    for seat in seats {
        seat.close().await;
    }
    Ok((id, seen))
}

/// A game made at `addr` and joined there (at the next node, `--spread`): its id and both
/// seats' tokens.
async fn create_and_join(
    shared: &Shared,
    from: Option<IpAddr>,
    addr: SocketAddr,
    at: u64,
) -> Result<(String, [String; 2]), ClientError> {
    let body = json!({
        "side": "white",
        "rules": {"move_limit": MOVE_LIMIT},
        "clock": {"initial_ms": CLOCK_MS, "increment_ms": 0},
    });
    let created: CreateReply = post_from(from, addr, "/api/games", &body.to_string()).await?;
    let id = created.game;
    let join = json!({"invite": created.invite}).to_string();
    let path = format!("/api/games/{id}/join");
    // A join refused with 503 (its game's node did not answer: the game is being taken over)
    // or not answered at all (that node is gone) is tried again, at the next node, for up to
    // 30 s.
    let mut tries = 0;
    loop {
        let joining = if shared.spread || tries > 0 {
            shared.node(at + 1 + tries)
        } else {
            addr
        };
        match post_from::<JoinReply>(from, joining, &path, &join).await {
            Ok(joined) => return Ok((id, [created.token, joined.token])),
            Err(ClientError::Refused { status: 503, .. } | ClientError::Connection(_))
                if tries < 120 =>
            {
                tries += 1;
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
            Err(e) => return Err(e),
        }
    }
}

/// How long a game may hear nothing before its seats connect again elsewhere (both bots
/// answer within `--think-ms`, at most 1 s).
const SILENCE: Duration = Duration::from_secs(5);

/// How long after the deadline the games still playing are given to end (each resigns at
/// its next turn) before they are counted as errors and the run goes on to its checks.
const GRACE: Duration = Duration::from_secs(60);

/// How long one request of the final checks may take.
const CHECK_TIMEOUT: Duration = Duration::from_secs(15);

/// Close codes after which a seat connects again: the game reloads, or its server stops.
const RESTART: u16 = 1012;
const RELOADING: u16 = 1011;

/// A seat's first socket, at `addr`, or (if that node does not answer) at the next ones.
async fn open_seat(
    shared: &Shared,
    n: u64,
    addr: SocketAddr,
    id: &str,
    token: &str,
) -> Result<Socket, ClientError> {
    let from = Some(client_address(n));
    match Socket::connect_from(from, addr, id, Some(token)).await {
        // Refused with 503: the node answered for a game whose owner did not (being taken
        // over).
        Err(
            ClientError::Connection(_)
            | ClientError::NotHttp(_)
            | ClientError::Refused { status: 503, .. },
        ) if shared.nodes.len() > 1 => {
            // `hello` from 0 asks for nothing: the `state` comes on connect.
            reconnect(shared, n, id, token, 0).await
        }
        opened => opened,
    }
}

/// A seat's socket opened again (at the next node each try, for up to a minute), and its
/// `hello` from version `v` sent.
async fn reconnect(
    shared: &Shared,
    n: u64,
    id: &str,
    token: &str,
    v: u64,
) -> Result<Socket, ClientError> {
    shared.reconnects.fetch_add(1, Ordering::Relaxed);
    shared.also(n, ", then connecting again");
    let mut last = None;
    for attempt in 0..240_u64 {
        let addr = shared.node(n + attempt + 1);
        match Socket::connect_from(Some(client_address(n)), addr, id, Some(token)).await {
            Ok(mut socket) => {
                socket
                    .send(&json!({"t": "hello", "v": v}).to_string())
                    .await?;
                return Ok(socket);
            }
            Err(e) => last = Some(e),
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    Err(last.unwrap_or_else(|| ClientError::Connection("no node answered".into())))
}

/// `side`'s time left on a clock.
fn time_left(clock: &ClockWords, side: Side) -> u64 {
    match side {
        Side::White => clock.white_ms,
        Side::Black => clock.black_ms,
    }
}

async fn worker(shared: Arc<Shared>, n: u64) {
    let mut seed = n * 1_000_003;
    // A game that could not be made at its node is tried at the next.
    let mut at = n;
    while Instant::now() < shared.deadline {
        seed += 1;
        match play_game(&shared, n, at, seed).await {
            Ok((id, seen)) => shared.tally.lock().await.finished.push((n, id, seen)),
            Err(e) => {
                shared.error(e.to_string()).await;
                at += 1;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

/// Plies a client saw that the game's record does not hold, asked from the address of the slot `n` that played it (one address asking for every
/// record would be over the server's connections a minute).
async fn lost_plies(
    addr: SocketAddr,
    n: u64,
    id: &str,
    seen: &[String],
) -> Result<usize, ClientError> {
    let path = format!("/api/games/{id}/record");
    let (status, record) = request_from(Some(client_address(n)), addr, "GET", &path, "").await?;
    if status != 200 {
        return Err(ClientError::Refused {
            status,
            body: record,
        });
    }
    let game = Game::from_record(&record)
        .map_err(|e| ClientError::Game(format!("record of {id}: {e}")))?;
    let stored: Vec<String> = game.history().iter().map(|r| r.mv.to_string()).collect();
    Ok(seen
        .iter()
        .enumerate()
        .filter(|(i, mv)| stored.get(*i) != Some(*mv))
        .count())
}

fn rss_mb(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: f64 = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb / 1024.0)
}

/// The median over the phase's seconds of `stat` of each second's samples (seconds with
/// fewer than 10 left out): what a phase typically saw, which one stall of the machine
/// (a neighbour on a shared host) does not move, and a sustained slowdown does.
fn typical<T: Copy>(samples: &[T], seconds: &[u32], stat: impl Fn(&mut Vec<T>) -> f64) -> f64 {
    let mut by_second: std::collections::BTreeMap<u32, Vec<T>> = Default::default();
    for (&sample, &second) in samples.iter().zip(seconds) {
        by_second.entry(second).or_default().push(sample);
    }
    let mut stats: Vec<f64> = by_second
        .into_values()
        .filter(|samples| samples.len() >= 10)
        .map(|mut samples| stat(&mut samples))
        .collect();
    stats.sort_by(f64::total_cmp);
    stats.get(stats.len() / 2).copied().unwrap_or(0.0)
}

/// Times in microseconds, sorted once: their percentiles, in milliseconds.
struct Spread(Vec<u32>);

impl Spread {
    fn of(mut us: Vec<u32>) -> Spread {
        us.sort_unstable();
        Spread(us)
    }

    /// The `p` percentile (0.5, 0.99), in milliseconds.
    fn at(&self, p: f64) -> f64 {
        percentile(&self.0, p)
    }

    /// How many times.
    fn len(&self) -> usize {
        self.0.len()
    }
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    f64::from(sorted[i]) / 1000.0
}

/// The load generator's own server: this program again, serving on a free loopback port
/// with the database in `dir`, with the server's default limits except two: a game's slot
/// may create more than 120 games an hour (one creates a new game as soon as the last
/// ended), and `unlimited` lifts the message budget and the move limit (for bots that do
/// not pause, and to prepare an attack's long games).
fn spawn_server(
    dir: &Path,
    db: Option<&str>,
    unlimited: bool,
) -> Result<(Child, SocketAddr), String> {
    let db = db.map_or_else(|| dir.join("games.db"), std::path::PathBuf::from);
    let mut child = Command::new(std::env::current_exe().map_err(|e| e.to_string())?)
        .args(["--serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .args([
            "--games-per-hour",
            "1000000000",
            "--players-per-hour",
            "1000000000",
        ])
        // The lobby's pools pair people only: no bot steps in for a slow client.
        .args(["--pool-bot-secs", "0"])
        // A bot pausing 150 ms a move sends about 70 messages in 10 s, within the default
        // budget (200); one that does not pause needs more.
        .args(if unlimited {
            &["--messages-per-window", "1000000", "--max-move-limit", "0"][..]
        } else {
            &[]
        })
        // Its log says little unless asked (RUST_LOG): a line per game would bury the report.
        .env(
            "RUST_LOG",
            std::env::var("RUST_LOG").unwrap_or_else(|_| "warn".to_owned()),
        )
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let mut line = String::new();
    let stdout = child.stdout.take().ok_or("no stdout")?;
    BufReader::new(stdout)
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .and_then(|a| a.parse().ok())
        .ok_or_else(|| format!("the server said {line:?}"))?;
    Ok((child, addr))
}

/// Stops a server child (SIGTERM) and waits for it.
fn stop(mut child: Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let _ = child.wait();
}

/// Starts the load generator's own server in `dir`: first, for an attack, one without a
/// message budget that plays the attack's long games (as fast as it answers) and stops; then
/// the one the run measures, on the same database.
fn start_own(
    runtime: &tokio::runtime::Runtime,
    args: &Args,
    dir: &Path,
) -> Result<(Option<Child>, SocketAddr, Option<attacks::Prepared>), String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let mut prepared = None;
    if let Some(attack) = args.attack {
        let (child, addr) = spawn_server(dir, args.db.as_deref(), true)?;
        let made = runtime.block_on(attacks::prepare(attack, addr));
        stop(child);
        prepared = Some(made.map_err(|e| format!("the attack could not be prepared: {e}"))?);
    }
    let unlimited = args.think < Duration::from_millis(60);
    let (child, addr) = spawn_server(dir, args.db.as_deref(), unlimited)
        .map_err(|e| format!("the server did not start: {e}"))?;
    Ok((Some(child), addr, prepared))
}

fn main() -> ExitCode {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    if raw.first().map(String::as_str) == Some("--serve") {
        return salpakan_server::command::run_command(raw[1..].to_vec());
    }
    // Its clients hold two sockets a game: as many files as the system allows.
    if let Err(e) = salpakan_server::listen::raise_open_file_limit() {
        eprintln!("salpakan-loadgen: the open-file limit could not be raised: {e}");
    }
    let args = match parse_args() {
        Ok(Some(args)) => args,
        Ok(None) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("salpakan-loadgen: {e}");
            return ExitCode::from(2);
        }
    };
    if args.nodes.len() > 1 && (args.lobby || args.attack.is_some()) {
        eprintln!("salpakan-loadgen: --lobby and --attack play at one node: give one --url");
        return ExitCode::from(2);
    }
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let dir = std::env::temp_dir().join(format!("salpakan-loadgen-{}", std::process::id()));
    let started = match args.url {
        Some(addr) => Ok((None, addr, None)),
        None => start_own(&runtime, &args, &dir),
    };
    let (child, addr, prepared) = match started {
        Ok(started) => started,
        Err(e) => {
            eprintln!("salpakan-loadgen: {e}");
            let _ = std::fs::remove_dir_all(&dir);
            return ExitCode::FAILURE;
        }
    };
    let pid = child.as_ref().map(Child::id);
    let (line, failed) = runtime.block_on(async {
        let prepared = match (args.attack, prepared) {
            (Some(attack), None) => Some(attacks::prepare(attack, addr).await),
            (_, prepared) => prepared.map(Ok),
        };
        run(&args, addr, pid, prepared).await
    });
    if let Some(child) = child {
        stop(child);
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!("{line}");
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// What one phase of normal games measured.
struct Phase {
    line: String,
    p99_ms: f64,
    /// The median of each second's p99.
    typical_p99_ms: f64,
    overcharge_ms: f64,
    /// The median of each second's largest overcharge.
    typical_overcharge_ms: f64,
    failed: bool,
}

/// Plays the normal games, with `attack` beside them if one is given, then (without an
/// attack) the baseline before it and the checks: the line or lines to print, and whether
/// the run failed.
async fn run(
    args: &Args,
    addr: SocketAddr,
    server_pid: Option<u32>,
    prepared: Option<Result<attacks::Prepared, ClientError>>,
) -> (String, bool) {
    let lobby = if args.lobby {
        match lobby::Lobby::prepare(addr, args.games).await {
            Ok(lobby) => Some(Arc::new(lobby)),
            Err(e) => return (format!("loadgen: the lobby's players: {e}"), true),
        }
    } else {
        None
    };
    let (Some(attack), Some(prepared)) = (args.attack, prepared) else {
        let phase = play(args, addr, server_pid, None, lobby).await;
        return (phase.line, phase.failed);
    };
    let prepared = match prepared {
        Ok(prepared) => prepared,
        Err(e) => {
            return (
                format!("loadgen: the attack could not be prepared: {e}"),
                true,
            );
        }
    };
    let calm = play(args, addr, server_pid, None, lobby.clone()).await;
    let stormy = play(args, addr, server_pid, Some((attack, &prepared)), lobby).await;
    let ratio = stormy.typical_p99_ms / calm.typical_p99_ms.max(0.001);
    let slow = stormy.typical_p99_ms > 2.0 * calm.typical_p99_ms + 5.0;
    let overcharged = stormy.typical_overcharge_ms > 50.0;
    let verdict = format!(
        "loadgen: under the {attack:?} attack a second's p99 round trip is typically {ratio:.2}× \
         its value without ({:.1} ms against {:.1} ms; at most 2× + 5 ms; over the whole phase \
         {:.1} ms against {:.1} ms), a second's largest overcharge typically {:.1} ms (at most \
         50; at most {:.1} ms over the phase)",
        stormy.typical_p99_ms,
        calm.typical_p99_ms,
        stormy.p99_ms,
        calm.p99_ms,
        stormy.typical_overcharge_ms,
        stormy.overcharge_ms,
    );
    let line = format!("{}\n{}\n{verdict}", calm.line, stormy.line);
    (line, calm.failed || stormy.failed || slow || overcharged)
}

/// One phase: the normal games for `args.seconds`, beside `attack` if one is given.
async fn play(
    args: &Args,
    addr: SocketAddr,
    server_pid: Option<u32>,
    attack: Option<(Attack, &attacks::Prepared)>,
    lobby: Option<Arc<lobby::Lobby>>,
) -> Phase {
    // The lobby's watchers connect before the clock starts.
    let watchers = match &lobby {
        None => None,
        Some(_) => {
            match lobby::open_watchers(addr, (args.lobby_sockets, args.lobby_deltas)).await {
                Ok(sockets) => Some(sockets),
                Err(e) => {
                    return Phase {
                        line: format!("loadgen: the lobby's watchers did not connect: {e}"),
                        p99_ms: 0.0,
                        typical_p99_ms: 0.0,
                        overcharge_ms: 0.0,
                        typical_overcharge_ms: 0.0,
                        failed: true,
                    };
                }
            }
        }
    };
    let started = Instant::now();
    let shared = Arc::new(Shared {
        addr,
        nodes: args.nodes.clone(),
        think: args.think,
        started,
        deadline: started + Duration::from_secs(args.seconds),
        plies: AtomicU64::new(0),
        tally: Mutex::new(Tally::default()),
        lobby: lobby.clone(),
        resign_after: args.plies,
        reconnects: AtomicU64::new(0),
        silences: AtomicU64::new(0),
        longest_stall_us: AtomicU64::new(0),
        spread: args.spread,
        chat: Arc::new(talk::Pace::new(args.chat_per_second)),
        standing: std::sync::Mutex::default(),
    });
    tokio::spawn(Arc::clone(&shared.chat).run(shared.deadline));
    let live_watching = (args.live_watchers > 0)
        .then(|| tokio::spawn(talk::watch_live(addr, args.live_watchers, shared.deadline)));
    let cpu_before = server_pid.and_then(talk::cpu_time);
    let plies_before = shared.plies.load(Ordering::Relaxed);
    let watching = lobby.as_ref().zip(watchers).map(|(lobby, sockets)| {
        tokio::spawn(lobby::watch(
            addr,
            sockets,
            shared.deadline,
            Arc::clone(&lobby.updates_us),
        ))
    });
    let mut peak_rss: f64 = 0.0;
    let workers: Vec<_> = (0..args.games as u64)
        .map(|n| tokio::spawn(worker(Arc::clone(&shared), n)))
        .collect();
    // The plies and the time at the deadline (an attack may take a little longer to stop).
    let sampler = async {
        while Instant::now() < shared.deadline {
            tokio::time::sleep(Duration::from_millis(500)).await;
            if let Some(mb) = server_pid.and_then(rss_mb) {
                peak_rss = peak_rss.max(mb);
            }
        }
        (
            shared.plies.load(Ordering::Relaxed),
            started.elapsed().as_secs_f64(),
            server_pid.and_then(talk::cpu_time),
        )
    };
    let done = Arc::new(attacks::Done::default());
    let attacking = async {
        if let Some((attack, prepared)) = attack {
            attacks::run(attack, addr, prepared, shared.deadline, Arc::clone(&done)).await;
        }
    };
    let ((plies_at_deadline, elapsed, cpu_after), ()) = tokio::join!(sampler, attacking);
    // The server's CPU time a committed ply, over the phase (all it did: every frame, commit,
    // lobby, live list and chat line, over the plies the games played).
    let cpu_words = match (cpu_before, cpu_after) {
        (Some(before), Some(after)) if plies_at_deadline > plies_before => format!(
            ", server CPU {:.0} µs a ply",
            (after - before).as_secs_f64() * 1e6 / (plies_at_deadline - plies_before) as f64
        ),
        _ => String::new(),
    };
    // Every game ends by the deadline and a grace; a game still playing then (a seat that
    // waits for what never comes) is an error, and the run goes on to its checks.
    let ending = shared.deadline + GRACE;
    let mut unfinished = Vec::new();
    for (n, mut w) in workers.into_iter().enumerate() {
        let left = ending.saturating_duration_since(Instant::now());
        if tokio::time::timeout(left, &mut w).await.is_err() {
            w.abort();
            let standing = shared.standing.lock().unwrap_or_else(|e| e.into_inner());
            unfinished.push(standing.get(&(n as u64)).cloned().unwrap_or_default());
        }
    }
    let mut tally = std::mem::take(&mut *shared.tally.lock().await);
    if !unfinished.is_empty() {
        let what = format!(
            "{} games still playing {} s after the deadline ({})",
            unfinished.len(),
            GRACE.as_secs(),
            unfinished.join("; ")
        );
        eprintln!("loadgen: {what}");
        tally.errors.push(what);
    }
    if let Some(watching) = watching {
        match watching.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                eprintln!("loadgen: the lobby's watchers: {e}");
                tally.errors.push(format!("the lobby's watchers: {e}"));
            }
            Err(e) => tally.errors.push(format!("the lobby's watchers: {e}")),
        }
    }
    let live_words = match live_watching {
        None => String::new(),
        Some(task) => match task
            .await
            .map_err(|e| e.to_string())
            .and_then(|r| r.map_err(|e| e.to_string()))
        {
            Ok(seen) => format!(
                "; live list: {} sockets sent {} frames ({} whole), {:.0} kB/s in all",
                args.live_watchers,
                seen.frames,
                seen.whole,
                seen.bytes as f64 / 1024.0 / elapsed,
            ),
            Err(e) => {
                tally.errors.push(format!("the live list's watchers: {e}"));
                String::new()
            }
        },
    };
    let chat_words = if args.chat_per_second == 0 {
        String::new()
    } else {
        let chat = Spread::of(std::mem::take(&mut tally.chat_us));
        format!(
            "; chat: {:.0} lines/s, delivery p50 {:.1} ms, p99 {:.1} ms",
            chat.len() as f64 / elapsed,
            chat.at(0.50),
            chat.at(0.99),
        )
    };
    let lobby_words = match &lobby {
        None => String::new(),
        Some(lobby) => {
            let pairings = Spread::of(std::mem::take(&mut *lobby.pairings_us.lock().await));
            let updates = Spread::of(std::mem::take(&mut *lobby.updates_us.lock().await));
            format!(
                "; lobby: {:.0} pairings/s, pairing p99 {:.1} ms, lobby update p50 {:.1} ms, p99 {:.1} ms over {} sockets ({} updates timed)",
                pairings.len() as f64 / elapsed,
                pairings.at(0.99),
                updates.at(0.50),
                updates.at(0.99),
                args.lobby_sockets,
                updates.len(),
            )
        }
    };
    let mut lost = 0;
    for (n, id, seen) in &tally.finished {
        // Any node answers for any game: the first that does is asked.
        let mut answer = Err(ClientError::Connection("no node".into()));
        for k in 0..shared.nodes.len().max(1) as u64 {
            answer =
                tokio::time::timeout(CHECK_TIMEOUT, lost_plies(shared.node(*n + k), *n, id, seen))
                    .await
                    .unwrap_or_else(|_| Err(ClientError::Connection("no answer in time".into())));
            if answer.is_ok() {
                break;
            }
        }
        match answer {
            Ok(n) => lost += n,
            Err(e) => tally.errors.push(e.to_string()),
        }
    }
    let typical_p99_ms = typical(&tally.latencies_us, &tally.latency_seconds, |s| {
        s.sort_unstable();
        percentile(s, 0.99)
    });
    let typical_overcharge_ms = typical(&tally.overcharges_us, &tally.overcharge_seconds, |s| {
        s.iter().copied().max().unwrap_or(0).max(0) as f64 / 1000.0
    });
    // The round trips once every game has been made and set up (after the first 5 s), apart
    // from the start's burst of creations, joins, sockets and setups.
    let steady = Spread::of(
        tally
            .latencies_us
            .iter()
            .zip(&tally.latency_seconds)
            .filter(|&(_, &second)| second >= 5)
            .map(|(&us, _)| us)
            .collect(),
    );
    let latencies = Spread::of(std::mem::take(&mut tally.latencies_us));
    let rss = if server_pid.is_some() {
        format!("{peak_rss:.0}")
    } else {
        "n/a".to_owned()
    };
    eprintln!(
        "loadgen: {} games finished, {} plies in {elapsed:.1} s, {} round trips timed; after the first 5 s: p50 {:.1} ms, p99 {:.1} ms; the typical second's p99 {typical_p99_ms:.1} ms",
        tally.finished.len(),
        plies_at_deadline,
        latencies.len(),
        steady.at(0.50),
        steady.at(0.99),
    );
    let overcharge_ms = tally
        .overcharges_us
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .max(0) as f64
        / 1000.0;
    let p99_ms = latencies.at(0.99);
    let beside = match attack {
        None => String::new(),
        Some((kind, _)) => format!(
            " beside the {kind:?} attack ({} acts, {} refused or closed)",
            done.acts.load(Ordering::Relaxed),
            done.refused.load(Ordering::Relaxed)
        ),
    };
    let line = format!(
        "loadgen: {} games{beside}, {:.0} plies/s, p50 {:.1} ms, p99 {p99_ms:.1} ms, overcharge at most {overcharge_ms:.1} ms, server RSS {rss} MB{cpu_words}, {} errors, {lost} lost{lobby_words}{live_words}{chat_words}, {} reconnects ({} silences), longest stall {:.0} ms",
        args.games,
        plies_at_deadline as f64 / elapsed,
        latencies.at(0.50),
        tally.errors.len(),
        shared.reconnects.load(Ordering::Relaxed),
        shared.silences.load(Ordering::Relaxed),
        shared.longest_stall_us.load(Ordering::Relaxed) as f64 / 1000.0,
    );
    Phase {
        line,
        p99_ms,
        typical_p99_ms,
        overcharge_ms,
        typical_overcharge_ms,
        failed: !tally.errors.is_empty() || lost > 0,
    }
}
