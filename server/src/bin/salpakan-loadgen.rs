//! `salpakan-loadgen`: N concurrent games of random bots over real sockets against a server
//! on loopback, for S seconds; then every game's record in the database is checked against
//! the plies its clients saw.
//!
//! ```sh
//! cargo run --release -p salpakan-server --features client --bin salpakan-loadgen -- --games 1000 --seconds 30
//! ```
//!
//! Without `--url` it starts its own server (this program again, in a child process, on a
//! free loopback port with a temporary database, so that the server's memory is its own);
//! with `--url http://127.0.0.1:PORT` it plays against a running one (start that with
//! `--connections-per-ip`, `--games-per-ip` and `--messages-per-window` above what N games
//! need). The last line is `loadgen: N games, P plies/s, p50 X ms, p99 Y ms, server RSS Z
//! MB, E errors, L lost`.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use salpakan::{Agent, Game, Random, Rules, Setup, Side};
use salpakan_server::client::{ClientError, Follower, Received, Socket, post, request};
use salpakan_server::wire::{CreateReply, JoinReply, ServerMessage};
use serde_json::json;
use tokio::sync::Mutex;

const USAGE: &str = "\
salpakan-loadgen: concurrent games of random bots against a salpakan-server on loopback

  --games N      concurrent games (1 … 5000; default 100)
  --seconds S    how long to play (1 … 600; default 10)
  --think-ms T   each bot's pause before each move (default 150: 1,000 games then ask for
                 about 6,500 plies/s; 0 plays as fast as the server answers)
  --url URL      a running server on loopback (http://127.0.0.1:PORT); without it the load
                 generator starts its own
";

struct Args {
    games: usize,
    seconds: u64,
    think: Duration,
    url: Option<SocketAddr>,
}

fn parse_args() -> Result<Option<Args>, String> {
    let mut args = Args {
        games: 100,
        seconds: 10,
        think: Duration::from_millis(150),
        url: None,
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
                let url = value()?;
                let addr: SocketAddr = url
                    .trim_start_matches("http://")
                    .trim_end_matches('/')
                    .parse()
                    .map_err(|_| format!("--url http://IP:PORT, not {url}"))?;
                if !addr.ip().is_loopback() {
                    return Err(format!(
                        "the load generator plays on loopback only, not {addr}"
                    ));
                }
                args.url = Some(addr);
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
    finished: Vec<(String, Vec<String>)>,
    errors: Vec<String>,
}

struct Shared {
    addr: SocketAddr,
    think: Duration,
    deadline: Instant,
    plies: AtomicU64,
    tally: Mutex<Tally>,
}

impl Shared {
    async fn error(&self, what: String) {
        let mut tally = self.tally.lock().await;
        if tally.errors.len() < 20 {
            eprintln!("loadgen: {what}");
        }
        tally.errors.push(what);
    }
}

/// One game between two random bots, to its end (resigned at the deadline): the plies seen.
async fn play_game(shared: &Shared, seed: u64) -> Result<(String, Vec<String>), ClientError> {
    let addr = shared.addr;
    let rules = Rules::default();
    let created: CreateReply = post(addr, "/api/games", r#"{"side":"white"}"#).await?;
    let id = created.game;
    let join = json!({"invite": created.invite}).to_string();
    let joined: JoinReply = post(addr, &format!("/api/games/{id}/join"), &join).await?;
    let tokens = [created.token, joined.token];
    let mut seats = Vec::new();
    let mut followers = Vec::new();
    for side in Side::ALL {
        let mut socket = Socket::connect(addr, &id, Some(&tokens[side.index()])).await?;
        let setup = Setup::random(side, rules, seed * 2 + side.index() as u64);
        let cells = setup.cell_values().to_vec();
        socket
            .send(&json!({"t": "setup", "cells": cells}).to_string())
            .await?;
        seats.push(socket);
        followers.push(Follower::new(setup, rules));
    }
    let mut agents = [Random::new(seed), Random::new(seed ^ 0x5555)];
    let mut seen: Vec<String> = Vec::new();
    let mut sent_at: Option<(u64, Instant)> = None;
    let mut over = [false, false];
    let mut resigned = false;
    let failed = |what: String| ClientError::Game(format!("game {id}: {what}"));
    while !(over[0] && over[1]) {
        let (side, received) = {
            let [white, black] = &mut seats[..] else {
                unreachable!()
            };
            tokio::select! {
                r = white.receive(), if !over[0] => (Side::White, r),
                r = black.receive(), if !over[1] => (Side::Black, r),
            }
        };
        let message = match received? {
            Received::Message(message) => message,
            Received::Closed(code) => return Err(failed(format!("closed with {code}"))),
        };
        let i = side.index();
        followers[i].follow(&message)?;
        match &message {
            ServerMessage::Error { code, message } => {
                return Err(failed(format!("refused: {}: {message}", code.word())));
            }
            ServerMessage::Over { .. } => {
                over[i] = true;
                continue;
            }
            ServerMessage::Ply {
                ply,
                side: mover,
                mv,
                ..
            } => {
                let ply = u64::from(*ply);
                if side == Side::White {
                    seen.push(mv.0.to_string());
                    shared.plies.fetch_add(1, Ordering::Relaxed);
                }
                if let Some((sent_ply, at)) = sent_at
                    && sent_ply == ply
                    && mover.0 == side
                {
                    let us = u32::try_from(at.elapsed().as_micros()).unwrap_or(u32::MAX);
                    shared.tally.lock().await.latencies_us.push(us);
                    sent_at = None;
                }
            }
            ServerMessage::Start { .. } => {}
            _ => continue,
        }
        let Some(tracker) = followers[i].tracker() else {
            continue;
        };
        if !tracker.status().is_ongoing() || tracker.side_to_move() != side {
            continue;
        }
        if Instant::now() >= shared.deadline {
            if !resigned {
                resigned = true;
                seats[i].send(r#"{"t":"resign"}"#).await?;
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
        sent_at = Some((ply + 1, Instant::now()));
        let message = json!({"t": "move", "move": mv.to_string(), "ply": ply});
        seats[i].send(&message.to_string()).await?;
    }
    for seat in seats {
        seat.close().await;
    }
    Ok((id, seen))
}

async fn worker(shared: Arc<Shared>, n: u64) {
    let mut seed = n * 1_000_003;
    while Instant::now() < shared.deadline {
        seed += 1;
        match play_game(&shared, seed).await {
            Ok(game) => shared.tally.lock().await.finished.push(game),
            Err(e) => {
                shared.error(e.to_string()).await;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

/// Plies a client saw that the game's record does not hold.
async fn lost_plies(addr: SocketAddr, id: &str, seen: &[String]) -> Result<usize, ClientError> {
    let (status, record) = request(addr, "GET", &format!("/api/games/{id}/record"), "").await?;
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

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    f64::from(sorted[i]) / 1000.0
}

/// The load generator's own server: this program again, serving on a free loopback port.
fn spawn_server(games: usize) -> Result<(Child, SocketAddr, PathBuf), String> {
    let dir = std::env::temp_dir().join(format!("salpakan-loadgen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let allowance = (games * 4 + 64).to_string();
    let mut child = Command::new(std::env::current_exe().map_err(|e| e.to_string())?)
        .args(["--serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(dir.join("games.db"))
        .args([
            "--connections-per-ip",
            &allowance,
            "--games-per-ip",
            &allowance,
        ])
        .args(["--messages-per-window", "1000000"])
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
    Ok((child, addr, dir))
}

fn main() -> ExitCode {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    if raw.first().map(String::as_str) == Some("--serve") {
        return salpakan_server::run_command(raw[1..].to_vec());
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
    let (child, addr, dir) = match args.url {
        Some(addr) => (None, addr, None),
        None => match spawn_server(args.games) {
            Ok((child, addr, dir)) => (Some(child), addr, Some(dir)),
            Err(e) => {
                eprintln!("salpakan-loadgen: the server did not start: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let (line, failed) = runtime.block_on(run(&args, addr, child.as_ref().map(Child::id)));
    if let Some(mut child) = child {
        let _ = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status();
        let _ = child.wait();
    }
    if let Some(dir) = dir {
        let _ = std::fs::remove_dir_all(dir);
    }
    println!("{line}");
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

async fn run(args: &Args, addr: SocketAddr, server_pid: Option<u32>) -> (String, bool) {
    let started = Instant::now();
    let shared = Arc::new(Shared {
        addr,
        think: args.think,
        deadline: started + Duration::from_secs(args.seconds),
        plies: AtomicU64::new(0),
        tally: Mutex::new(Tally::default()),
    });
    let mut peak_rss: f64 = 0.0;
    let workers: Vec<_> = (0..args.games as u64)
        .map(|n| tokio::spawn(worker(Arc::clone(&shared), n)))
        .collect();
    let sampler = async {
        while Instant::now() < shared.deadline {
            tokio::time::sleep(Duration::from_millis(500)).await;
            if let Some(mb) = server_pid.and_then(rss_mb) {
                peak_rss = peak_rss.max(mb);
            }
        }
    };
    sampler.await;
    let plies_at_deadline = shared.plies.load(Ordering::Relaxed);
    let elapsed = started.elapsed().as_secs_f64();
    for w in workers {
        let _ = w.await;
    }
    let mut tally = std::mem::take(&mut *shared.tally.lock().await);
    let mut lost = 0;
    for (id, seen) in &tally.finished {
        match lost_plies(addr, id, seen).await {
            Ok(n) => lost += n,
            Err(e) => tally.errors.push(e.to_string()),
        }
    }
    tally.latencies_us.sort_unstable();
    let rss = if server_pid.is_some() {
        format!("{peak_rss:.0}")
    } else {
        "n/a".to_owned()
    };
    eprintln!(
        "loadgen: {} games finished, {} plies in {elapsed:.1} s, {} round trips timed",
        tally.finished.len(),
        plies_at_deadline,
        tally.latencies_us.len()
    );
    let line = format!(
        "loadgen: {} games, {:.0} plies/s, p50 {:.1} ms, p99 {:.1} ms, server RSS {rss} MB, {} errors, {lost} lost",
        args.games,
        plies_at_deadline as f64 / elapsed,
        percentile(&tally.latencies_us, 0.50),
        percentile(&tally.latencies_us, 0.99),
        tally.errors.len(),
    );
    (line, !tally.errors.is_empty() || lost > 0)
}
