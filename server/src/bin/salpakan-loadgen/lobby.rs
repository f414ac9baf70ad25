//! `--lobby`: the games are reached through the lobby. Each game slot has two players (each
//! registered, with its player socket open for the whole run, from the slot's own address);
//! a game is paired by a seek one player makes and the other accepts, or (every other game)
//! by both joining the slot's own quick-pairing pool. Beside them, lobby sockets watch the
//! lobby (from their own addresses) and a probe player opens a seek, withdraws it 125 ms later
//! and opens the next 125 ms after that: each watcher times how long each of the probe's
//! seeks took to reach it.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use salpakan_server::client::{ClientError, Frame, Socket, request_as};
use salpakan_server::wire::{JoinReply, LobbyMessage, SideWord};
use serde_json::{Value, json};
use tokio::sync::{Mutex, mpsc};

use super::{CLOCK_MS, MOVE_LIMIT, client_address};

/// A player of the run: its name, key, address and the `paired` frames its socket hears.
pub struct Player {
    key: String,
    from: IpAddr,
    paired: Mutex<mpsc::Receiver<(String, SideWord, String)>>,
}

/// The two players of each game slot, and what the watchers measured.
pub struct Lobby {
    players: Vec<[Player; 2]>,
    /// Each pairing's time, from the first request to both seats known, in µs.
    pub pairings_us: Mutex<Vec<u32>>,
    /// Each watcher's delay in seeing the probe's seek, in µs.
    pub updates_us: Arc<Mutex<Vec<u32>>>,
}

fn failed(what: String) -> ClientError {
    ClientError::Game(what)
}

/// A request as `key` from `from`; its JSON, or the refusal.
async fn call(
    addr: SocketAddr,
    from: IpAddr,
    key: &str,
    method: &str,
    path: &str,
    body: &Value,
) -> Result<Value, ClientError> {
    let body = if body.is_null() {
        String::new()
    } else {
        body.to_string()
    };
    let (status, text) = request_as(Some(from), addr, method, path, &body, Some(key)).await?;
    if !(200..300).contains(&status) {
        return Err(ClientError::Refused { status, body: text });
    }
    Ok(serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Registers `name` from `from` and opens its player socket; its `paired` frames go to the
/// returned player.
async fn player(addr: SocketAddr, from: IpAddr, name: &str) -> Result<Player, ClientError> {
    let body = json!({"name": name}).to_string();
    let (status, text) = request_as(Some(from), addr, "POST", "/api/players", &body, None).await?;
    if status != 201 {
        return Err(ClientError::Refused { status, body: text });
    }
    let reply: Value = serde_json::from_str(&text).map_err(|e| failed(e.to_string()))?;
    let key = reply["key"].as_str().unwrap_or_default().to_owned();
    let mut socket = Socket::open(Some(from), addr, "/api/players/socket").await?;
    socket
        .send(&json!({"t": "auth", "key": key}).to_string())
        .await?;
    // Welcomed: from now on its seeks are taken.
    match socket.next().await {
        Some(Frame::Text(text)) if text.starts_with(r#"{"t":"welcome""#) => {}
        other => return Err(failed(format!("{name}: not welcomed: {other:?}"))),
    }
    let (tx, rx) = mpsc::channel(16);
    tokio::spawn(async move {
        while let Some(Frame::Text(text)) = socket.next().await {
            if let Ok(LobbyMessage::Paired { game, side, token }) = serde_json::from_str(&text)
                && tx.send((game, side, token)).await.is_err()
            {
                return;
            }
        }
    });
    Ok(Player {
        key,
        from,
        paired: Mutex::new(rx),
    })
}

impl Lobby {
    /// Two players for each of `games` slots, with their sockets open.
    pub async fn prepare(addr: SocketAddr, games: usize) -> Result<Lobby, ClientError> {
        let mut players = Vec::with_capacity(games);
        for n in 0..games as u64 {
            let from = client_address(n);
            players.push([
                player(addr, from, &format!("load-{n}-a")).await?,
                player(addr, from, &format!("load-{n}-b")).await?,
            ]);
        }
        Ok(Lobby {
            players,
            pairings_us: Mutex::new(Vec::new()),
            updates_us: Arc::new(Mutex::new(Vec::new())),
        })
    }

    /// Pairs slot `n`'s players for its `count`th game, rated (so that each end moves two
    /// ratings in its transaction): by a seek and its acceptance, or by the slot's own pool. The game's id and its seats' tokens, White's first.
    pub async fn pair(
        &self,
        addr: SocketAddr,
        n: u64,
        count: u64,
    ) -> Result<(String, [String; 2]), ClientError> {
        let [a, b] = &self.players[n as usize];
        let started = Instant::now();
        let clock = json!({"initial_ms": CLOCK_MS + 1000 * n, "increment_ms": 0});
        let seats: [(String, SideWord, String); 2] = if count.is_multiple_of(2) {
            let body = json!({"rules": {"move_limit": MOVE_LIMIT}, "clock": clock, "rated": true});
            let seek = call(addr, a.from, &a.key, "POST", "/api/seeks", &body).await?;
            let sid = seek["seek"].as_str().unwrap_or_default();
            let path = format!("/api/seeks/{sid}/accept");
            let accepted = call(addr, b.from, &b.key, "POST", &path, &Value::Null).await?;
            let joined: JoinReply =
                serde_json::from_value(accepted).map_err(|e| failed(e.to_string()))?;
            let mine = paired(a).await?;
            [mine, (joined.game, joined.side, joined.token)]
        } else {
            let body = json!({"clock": clock, "rated": true});
            call(addr, a.from, &a.key, "POST", "/api/pool", &body).await?;
            call(addr, b.from, &b.key, "POST", "/api/pool", &body).await?;
            [paired(a).await?, paired(b).await?]
        };
        if seats[0].0 != seats[1].0 || seats[0].1 == seats[1].1 {
            return Err(failed(format!(
                "slot {n}: paired into different games or seats"
            )));
        }
        let us = u32::try_from(started.elapsed().as_micros()).unwrap_or(u32::MAX);
        self.pairings_us.lock().await.push(us);
        let white = usize::from(seats[0].1 != SideWord(salpakan::Side::White));
        let tokens = [seats[white].2.clone(), seats[1 - white].2.clone()];
        Ok((seats[0].0.clone(), tokens))
    }
}

/// The next `paired` frame `player` hears (within 10 s).
async fn paired(player: &Player) -> Result<(String, SideWord, String), ClientError> {
    let mut rx = player.paired.lock().await;
    match tokio::time::timeout(Duration::from_secs(10), rx.recv()).await {
        Ok(Some(seat)) => Ok(seat),
        Ok(None) => Err(failed("a player socket closed".into())),
        Err(_) => Err(failed("no paired frame within 10 s".into())),
    }
}

/// `watchers` lobby sockets (asking for deltas with `deltas`), each from an address of its
/// own, opened 64 at a time (before a phase's clock starts: opening thousands is not the
/// load measured).
pub async fn open_watchers(
    addr: SocketAddr,
    (watchers, deltas): (usize, bool),
) -> Result<Vec<Socket>, ClientError> {
    let path = if deltas {
        "/api/lobby/socket?deltas=1"
    } else {
        "/api/lobby/socket"
    };
    let mut sockets = Vec::with_capacity(watchers);
    let mut k = 0_u64;
    while sockets.len() < watchers {
        let batch = (watchers - sockets.len()).min(64) as u64;
        let opening: Vec<_> = (k..k + batch)
            .map(|k| {
                tokio::spawn(async move {
                    Socket::open(Some(client_address(30_000 + k)), addr, path).await
                })
            })
            .collect();
        for task in opening {
            let socket = task
                .await
                .map_err(|e| failed(format!("a watcher's task: {e}")))??;
            sockets.push(socket);
        }
        k += batch;
    }
    Ok(sockets)
}

/// The lobby sockets `sockets` and the probe, until `deadline`: each watcher times the
/// probe's seeks' arrival into `updates_us`.
pub async fn watch(
    addr: SocketAddr,
    sockets: Vec<Socket>,
    deadline: Instant,
    updates_us: Arc<Mutex<Vec<u32>>>,
) -> Result<(), ClientError> {
    let opened: Arc<Mutex<HashMap<String, Instant>>> = Arc::default();
    let mut tasks = Vec::new();
    for mut socket in sockets {
        let opened = Arc::clone(&opened);
        let updates = Arc::clone(&updates_us);
        tasks.push(tokio::spawn(async move {
            // When this watcher first saw each seek (timed against the probe's afterwards: a
            // frame may come before the probe has noted its seek's id).
            let mut first_seen: HashMap<String, Instant> = HashMap::new();
            while Instant::now() < deadline {
                let Ok(Some(Frame::Text(text))) =
                    tokio::time::timeout(Duration::from_millis(500), socket.next()).await
                else {
                    continue;
                };
                // The seeks' ids, found without reading the whole frame (the watchers share
                // the machine with the server they measure).
                let now = Instant::now();
                for part in text.split(r#"{"seek":""#).skip(1) {
                    if let Some((sid, _)) = part.split_once('"') {
                        first_seen.entry(sid.to_owned()).or_insert(now);
                    }
                }
            }
            socket.close().await;
            let opened = opened.lock().await;
            let mut updates = updates.lock().await;
            for (sid, seen) in first_seen {
                if let Some(at) = opened.get(&sid) {
                    let us = seen.saturating_duration_since(*at).as_micros();
                    updates.push(u32::try_from(us).unwrap_or(u32::MAX));
                }
            }
        }));
    }
    // A probe of its own each phase (a run beside an attack watches twice, on one server).
    static PROBES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = PROBES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let from = client_address(29_999 - n);
    let probe = player(addr, from, &format!("load-probe-{n}")).await?;
    while Instant::now() < deadline {
        let body = json!({"rules": {"move_limit": MOVE_LIMIT}});
        let at = Instant::now();
        let seek = call(addr, probe.from, &probe.key, "POST", "/api/seeks", &body).await?;
        let sid = seek["seek"].as_str().unwrap_or_default().to_owned();
        opened.lock().await.insert(sid.clone(), at);
        tokio::time::sleep(Duration::from_millis(125)).await;
        let path = format!("/api/seeks/{sid}");
        call(addr, probe.from, &probe.key, "DELETE", &path, &Value::Null).await?;
        // Apart from the withdrawal by more than the lobby's gap (changes within one are
        // sent together, a gap after the first).
        tokio::time::sleep(Duration::from_millis(125)).await;
    }
    for task in tasks {
        let _ = task.await;
    }
    Ok(())
}
