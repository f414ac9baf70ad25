//! `--live-watchers` and `--chat-per-second`: sockets watching the live list beside the
//! games (each counts the frames and bytes it is sent), and chat lines said across the games
//! at a steady rate (a seat about to move says a phrase first when the rate allows; the other
//! seat times its arrival). And the server's CPU time, read from `/proc`, for the cost of a
//! ply.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use salpakan_server::client::{ClientError, Frame, Socket};

use super::client_address;

/// Lines said across the games: a bucket refilled at the rate asked, taken by seats about to
/// move.
#[derive(Default)]
pub struct Pace {
    per_second: u64,
    tokens: AtomicU64,
}

impl Pace {
    /// `per_second` lines a second (0: none).
    pub fn new(per_second: u64) -> Pace {
        Pace {
            per_second,
            tokens: AtomicU64::new(0),
        }
    }

    /// Whether a line may be said now (one is taken).
    pub fn take(&self) -> bool {
        self.per_second > 0
            && self
                .tokens
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |t| t.checked_sub(1))
                .is_ok()
    }

    /// Refills the bucket a hundredth of the rate every 10 ms, until `deadline` (at most a
    /// second's worth waiting: the rate is a rate, not a debt).
    pub async fn run(self: Arc<Pace>, deadline: Instant) {
        if self.per_second == 0 {
            return;
        }
        let mut owed = 0.0_f64;
        while Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(10)).await;
            owed += self.per_second as f64 / 100.0;
            let whole = owed.floor();
            owed -= whole;
            let cap = self.per_second;
            let _ = self
                .tokens
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |t| {
                    Some((t + whole as u64).min(cap))
                });
        }
    }
}

/// What the live list's watchers were sent.
#[derive(Debug, Default)]
pub struct Watched {
    /// Frames, over all sockets.
    pub frames: u64,
    /// Bytes, over all sockets.
    pub bytes: u64,
    /// Whole lists among the frames.
    pub whole: u64,
}

/// `watchers` live-list sockets (each from an address of its own) until `deadline`.
pub async fn watch_live(
    addr: SocketAddr,
    watchers: usize,
    deadline: Instant,
) -> Result<Watched, ClientError> {
    let mut tasks = Vec::new();
    for k in 0..watchers as u64 {
        let mut socket =
            Socket::open(Some(client_address(40_000 + k)), addr, "/api/live/socket").await?;
        tasks.push(tokio::spawn(async move {
            let mut seen = Watched::default();
            while Instant::now() < deadline {
                let Ok(Some(Frame::Text(text))) =
                    tokio::time::timeout(Duration::from_millis(500), socket.next()).await
                else {
                    continue;
                };
                seen.frames += 1;
                seen.bytes += text.len() as u64;
                seen.whole += u64::from(text.starts_with(r#"{"t":"live","#));
            }
            socket.close().await;
            seen
        }));
    }
    let mut all = Watched::default();
    for task in tasks {
        if let Ok(seen) = task.await {
            all.frames += seen.frames;
            all.bytes += seen.bytes;
            all.whole += seen.whole;
        }
    }
    Ok(all)
}

/// The CPU time process `pid` has used (user and system), from `/proc/PID/stat`.
pub fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's closing parenthesis: utime and stime are the 12th and
    // 13th of them, in clock ticks (100 a second on Linux).
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}
