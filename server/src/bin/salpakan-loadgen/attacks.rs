//! The attacks the load generator runs beside its normal games: what a hostile client could
//! do to other games within every documented limit. Each counts what it did.

use std::net::{IpAddr, SocketAddr};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use salpakan::{Rules, Setup, Side};
use salpakan_server::client::{
    ClientError, Frame, Received, Socket, post, request_as, request_from,
};
use salpakan_server::wire::{CreateReply, JoinReply, ServerMessage};
use serde_json::json;

/// An attack to run beside the normal games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attack {
    /// 8 clients reading a long finished game's summary and record without pause.
    Readers,
    /// 30 spectators of long games asking for their whole history again and again.
    Replayers,
    /// Connections from another address that send nothing, opened again when closed.
    Idle,
    /// A seat reconnecting without pause.
    Reconnects,
    /// A player joining and leaving a pool without pause (each wait's cost must end with
    /// it; joins are bounded a minute).
    PoolChurn,
    /// 24 addresses holding every lobby socket they may and reopening each the server
    /// closes, and 3 players of one address holding 9 seeks: neither locks nor hides.
    LobbyLock,
    /// All of them at once.
    All,
}

impl FromStr for Attack {
    type Err = String;

    fn from_str(word: &str) -> Result<Attack, String> {
        Ok(match word {
            "readers" => Attack::Readers,
            "replayers" => Attack::Replayers,
            "idle" => Attack::Idle,
            "reconnects" => Attack::Reconnects,
            "pool-churn" => Attack::PoolChurn,
            "lobby-lock" => Attack::LobbyLock,
            "all" => Attack::All,
            other => {
                return Err(format!(
                    "--attack readers, replayers, idle, reconnects, pool-churn, lobby-lock or \
                     all, not {other}"
                ));
            }
        })
    }
}

impl Attack {
    fn includes(self, kind: Attack) -> bool {
        self == kind || self == Attack::All
    }
}

/// Where each attack comes from: another client than the normal games (127.0.0.1) to the
/// server's per-address limits.
fn from(kind: Attack) -> Option<IpAddr> {
    let last = match kind {
        Attack::Idle => 2,
        Attack::Readers => 3,
        Attack::Replayers => 4,
        Attack::Reconnects | Attack::All => 5,
        Attack::PoolChurn => 6,
        Attack::LobbyLock => 7,
    };
    Some(IpAddr::from([127, 0, 0, last]))
}

/// How long an attacker the server refused waits before it tries again. Without a pause, a
/// refused attacker is a flood of connections the server closes at once, each at the cost
/// of an accept: a firewall's job (see the repository's `docs/SERVER.md`), and on one
/// machine a measure of the attacker's own processor time more than the server's.
const REFUSED_PAUSE: Duration = Duration::from_millis(5);

/// The plies of each long game the readers and replayers work on.
const LONG_PLIES: usize = 2_000;

/// A finished game of [`LONG_PLIES`] quiet plies (each side steps one piece out of its zone
/// and back), played as fast as the server answers, then resigned: its id.
async fn long_game(addr: SocketAddr, seed: u64) -> Result<String, ClientError> {
    let body = json!({"side": "white", "first": "white", "rules": {"move_limit": 0}});
    let created: CreateReply = post(addr, "/api/games", &body.to_string()).await?;
    let join = json!({"invite": created.invite}).to_string();
    let joined: JoinReply = post(addr, &format!("/api/games/{}/join", created.game), &join).await?;
    let rules = Rules::default();
    let mut seats = Vec::new();
    let mut steps = Vec::new();
    for (side, token) in [(Side::White, created.token), (Side::Black, joined.token)] {
        let mut socket = Socket::connect(addr, &created.game, Some(&token)).await?;
        let setup = Setup::random(side, rules, seed * 2 + side.index() as u64);
        let (front, out) = if side == Side::White {
            ('3', '4')
        } else {
            ('6', '5')
        };
        let file = setup
            .pieces()
            .map(|(square, _)| square.to_string())
            .find(|name| name.ends_with(front))
            .and_then(|name| name.chars().next())
            .ok_or_else(|| ClientError::Game("no piece on the zone's front row".into()))?;
        steps.push([
            format!("{file}{front}-{file}{out}"),
            format!("{file}{out}-{file}{front}"),
        ]);
        let cells = setup.cell_values().to_vec();
        socket
            .send(&json!({"t": "setup", "cells": cells}).to_string())
            .await?;
        seats.push(socket);
    }
    // Play starts once both formations are in.
    for seat in &mut seats {
        while !matches!(
            seat.receive().await?,
            Received::Message(ServerMessage::Start { .. })
        ) {}
    }
    for ply in 0..LONG_PLIES {
        let side = ply % 2;
        let mv = &steps[side][(ply / 2) % 2];
        let message = json!({"t": "move", "move": mv, "ply": ply}).to_string();
        seats[side].send(&message).await?;
        // Both seats read until this ply's event.
        for seat in &mut seats {
            loop {
                match seat.receive().await? {
                    Received::Message(ServerMessage::Ply { ply: p, .. })
                        if p as usize == ply + 1 =>
                    {
                        break;
                    }
                    Received::Message(ServerMessage::Error { code, message }) => {
                        return Err(ClientError::Game(format!("{}: {message}", code.word())));
                    }
                    Received::Closed(code) => {
                        return Err(ClientError::Game(format!("closed with {code}")));
                    }
                    _ => {}
                }
            }
        }
    }
    seats[0].send(r#"{"t":"resign"}"#).await?;
    for seat in seats {
        seat.close().await;
    }
    Ok(created.game)
}

/// What an attack did.
#[derive(Default)]
pub struct Done {
    /// Requests, sockets or connections it made.
    pub acts: AtomicU64,
    /// Of them, those the server refused or closed early.
    pub refused: AtomicU64,
}

/// Everything an attack needs made before it starts (the long games take a while).
pub struct Prepared {
    long: Vec<String>,
    waiting_seat: Option<(String, String)>,
    /// The pool churner's key, and its player socket (held open: a pool entry needs one).
    churner: Option<(String, Socket)>,
    /// The seek holders' player sockets (their seeks stand while these are open).
    _seekers: Vec<Socket>,
}

/// A player registered from `from` with its player socket open (welcomed).
async fn player(
    addr: SocketAddr,
    from: Option<IpAddr>,
    name: &str,
) -> Result<(String, Socket), ClientError> {
    let body = json!({"name": name}).to_string();
    let (status, text) = request_from(from, addr, "POST", "/api/players", &body).await?;
    if status != 201 {
        return Err(ClientError::Refused { status, body: text });
    }
    let reply: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| ClientError::Game(e.to_string()))?;
    let key = reply["key"].as_str().unwrap_or_default().to_owned();
    let mut socket = Socket::open(from, addr, "/api/players/socket").await?;
    socket
        .send(&json!({"t": "auth", "key": key}).to_string())
        .await?;
    match socket.next().await {
        Some(Frame::Text(text)) if text.contains("welcome") => Ok((key, socket)),
        other => Err(ClientError::Game(format!(
            "{name}: not welcomed: {other:?}"
        ))),
    }
}

/// Makes what `attack` works on.
///
/// # Errors
/// The server's refusal of what it needs.
pub async fn prepare(attack: Attack, addr: SocketAddr) -> Result<Prepared, ClientError> {
    let mut long = Vec::new();
    if attack.includes(Attack::Readers) || attack.includes(Attack::Replayers) {
        for seed in 0..3 {
            long.push(long_game(addr, 9_000 + seed).await?);
        }
    }
    let mut waiting_seat = None;
    if attack.includes(Attack::Reconnects) {
        let created: CreateReply = post(addr, "/api/games", "{}").await?;
        waiting_seat = Some((created.game, created.token));
    }
    let churner = if attack.includes(Attack::PoolChurn) {
        Some(player(addr, from(Attack::PoolChurn), "attack-churner").await?)
    } else {
        None
    };
    let mut seekers = Vec::new();
    if attack.includes(Attack::LobbyLock) {
        for i in 0..3 {
            let (key, socket) =
                player(addr, from(Attack::LobbyLock), &format!("attack-seeker-{i}")).await?;
            for _ in 0..3 {
                let (status, text) = request_as(
                    from(Attack::LobbyLock),
                    addr,
                    "POST",
                    "/api/seeks",
                    "{}",
                    Some(&key),
                )
                .await?;
                if status != 201 {
                    return Err(ClientError::Refused { status, body: text });
                }
            }
            seekers.push(socket);
        }
    }
    Ok(Prepared {
        long,
        waiting_seat,
        churner,
        _seekers: seekers,
    })
}

/// Runs `attack` until `deadline`.
pub async fn run(
    attack: Attack,
    addr: SocketAddr,
    prepared: &Prepared,
    deadline: Instant,
    done: Arc<Done>,
) {
    let mut tasks = Vec::new();
    if attack.includes(Attack::Readers) {
        let id = prepared.long[0].clone();
        for _ in 0..8 {
            tasks.push(tokio::spawn(readers(
                addr,
                id.clone(),
                deadline,
                Arc::clone(&done),
            )));
        }
    }
    if attack.includes(Attack::Replayers) {
        for i in 0..30 {
            let id = prepared.long[i % prepared.long.len()].clone();
            tasks.push(tokio::spawn(replayer(
                addr,
                id,
                deadline,
                Arc::clone(&done),
            )));
        }
    }
    if attack.includes(Attack::Idle) {
        tasks.push(tokio::spawn(idle(addr, deadline, Arc::clone(&done))));
    }
    if let (true, Some((id, token))) = (attack.includes(Attack::Reconnects), &prepared.waiting_seat)
    {
        tasks.push(tokio::spawn(reconnects(
            addr,
            id.clone(),
            token.clone(),
            deadline,
            Arc::clone(&done),
        )));
    }
    if let (true, Some((key, _))) = (attack.includes(Attack::PoolChurn), &prepared.churner) {
        tasks.push(tokio::spawn(pool_churn(
            addr,
            key.clone(),
            deadline,
            Arc::clone(&done),
        )));
    }
    if attack.includes(Attack::LobbyLock) {
        tasks.push(tokio::spawn(lobby_lock(addr, deadline, Arc::clone(&done))));
    }
    for task in tasks {
        let _ = task.await;
    }
}

fn count(done: &Done, refused: bool) {
    done.acts.fetch_add(1, Ordering::Relaxed);
    if refused {
        done.refused.fetch_add(1, Ordering::Relaxed);
    }
}

async fn readers(addr: SocketAddr, id: String, deadline: Instant, done: Arc<Done>) {
    let paths = [
        format!("/api/games/{id}"),
        format!("/api/games/{id}/record"),
    ];
    while Instant::now() < deadline {
        for path in &paths {
            let reply = request_from(from(Attack::Readers), addr, "GET", path, "").await;
            let refused = !matches!(reply, Ok((200, _)));
            count(&done, refused);
            if refused {
                tokio::time::sleep(REFUSED_PAUSE).await;
            }
        }
    }
}

async fn replayer(addr: SocketAddr, id: String, deadline: Instant, done: Arc<Done>) {
    while Instant::now() < deadline {
        let Ok(mut socket) = Socket::connect_from(from(Attack::Replayers), addr, &id, None).await
        else {
            count(&done, true);
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        'socket: while Instant::now() < deadline {
            if socket.send(r#"{"t":"hello","v":0}"#).await.is_err() {
                break;
            }
            count(&done, false);
            // Read the replay through: two formations, the start, the plies and the end (or
            // the close of an over-budget socket).
            let mut got = 0;
            while got < LONG_PLIES + 4 {
                match tokio::time::timeout(Duration::from_secs(5), socket.next()).await {
                    // Counted, not read: the attacker spends no time on them.
                    Ok(Some(Frame::Text(text))) => {
                        if text.contains(r#""v":"#) && !text.contains(r#""t":"state""#) {
                            got += 1;
                        }
                    }
                    _ => {
                        count(&done, true);
                        break 'socket;
                    }
                }
            }
        }
    }
}

async fn idle(addr: SocketAddr, deadline: Instant, done: Arc<Done>) {
    let mut held: Vec<tokio::net::TcpStream> = Vec::new();
    while Instant::now() < deadline {
        // Keep 600 open from another address, as far as the server lets them stay.
        while held.len() < 600 {
            let Ok(socket) = tokio::net::TcpSocket::new_v4() else {
                break;
            };
            let Some(local) = from(Attack::Idle) else {
                break;
            };
            if socket.bind(SocketAddr::new(local, 0)).is_err() {
                break;
            }
            match socket.connect(addr).await {
                Ok(stream) => {
                    count(&done, false);
                    held.push(stream);
                }
                Err(_) => {
                    count(&done, true);
                    break;
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        // Those the server closed are dropped, to be opened again.
        let mut open = Vec::with_capacity(held.len());
        for stream in held {
            let mut byte = [0u8; 1];
            match stream.try_read(&mut byte) {
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => open.push(stream),
                _ => count(&done, true),
            }
        }
        held = open;
    }
}

async fn reconnects(
    addr: SocketAddr,
    id: String,
    token: String,
    deadline: Instant,
    done: Arc<Done>,
) {
    while Instant::now() < deadline {
        match Socket::connect_from(from(Attack::Reconnects), addr, &id, Some(&token)).await {
            Ok(socket) => {
                count(&done, false);
                socket.close().await;
            }
            Err(_) => {
                count(&done, true);
                tokio::time::sleep(REFUSED_PAUSE).await;
            }
        }
    }
}

async fn pool_churn(addr: SocketAddr, key: String, deadline: Instant, done: Arc<Done>) {
    let from = from(Attack::PoolChurn);
    let body = json!({"clock": {"initial_ms": 300_000, "increment_ms": 3_000}}).to_string();
    while Instant::now() < deadline {
        for (method, body) in [("POST", body.as_str()), ("DELETE", "")] {
            let reply = request_as(from, addr, method, "/api/pool", body, Some(&key)).await;
            let refused = !matches!(reply, Ok((202 | 204, _)));
            count(&done, refused);
            if refused {
                tokio::time::sleep(REFUSED_PAUSE).await;
            }
        }
    }
}

/// Lobby sockets from 24 addresses (127.0.1.1 …), each holding as many as the server lets
/// it and opening again each one the server closes or refuses.
async fn lobby_lock(addr: SocketAddr, deadline: Instant, done: Arc<Done>) {
    let mut held: Vec<Socket> = Vec::new();
    while Instant::now() < deadline {
        for n in 1..=24u8 {
            let from = Some(IpAddr::from([127, 0, 1, n]));
            match Socket::open(from, addr, "/api/lobby/socket").await {
                Ok(socket) => {
                    count(&done, false);
                    held.push(socket);
                }
                Err(_) => count(&done, true),
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        // Read what came; those closed are dropped, to be opened again.
        let mut open = Vec::with_capacity(held.len());
        for mut socket in held {
            match tokio::time::timeout(Duration::from_millis(1), socket.next()).await {
                Ok(Some(Frame::Close(_)) | None) => count(&done, true),
                _ => open.push(socket),
            }
        }
        held = open;
    }
}
