//! Whether the server should be sent new clients: its restore done, not draining, and its
//! database answering. A readiness probe reads and commits once at most a second, whoever
//! asks and however often.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::time::Instant;

use crate::store::Store;

/// How long a probe's answer is kept.
const PROBE_KEPT: Duration = Duration::from_secs(1);

/// The longest a readiness probe waits for the database.
const PROBE: Duration = Duration::from_secs(2);

/// The flags of readiness, and the last probe of the database (one at a time, its answer
/// kept for a second: a client asking often costs the database nothing more).
pub(crate) struct Readiness {
    store: Store,
    ready: AtomicBool,
    draining: AtomicBool,
    probed: tokio::sync::Mutex<Option<(Instant, bool)>>,
}

impl Readiness {
    /// Not ready yet, not draining.
    #[must_use]
    pub(crate) fn new(store: Store) -> Readiness {
        Readiness {
            store,
            ready: AtomicBool::new(false),
            draining: AtomicBool::new(false),
            probed: tokio::sync::Mutex::new(None),
        }
    }

    /// The server accepts games from now on (its restore is done).
    pub(crate) fn set_ready(&self) {
        self.ready.store(true, Ordering::Relaxed);
    }

    /// From now on the server makes no new game (creations, pairings and rematches are
    /// refused with 503 `draining`) and `/api/ready` answers 503; the games it holds go on.
    pub(crate) fn drain(&self) {
        if !self.draining.swap(true, Ordering::Relaxed) {
            tracing::info!("draining: no new games");
        }
    }

    /// Whether the server is draining.
    #[must_use]
    pub(crate) fn draining(&self) -> bool {
        self.draining.load(Ordering::Relaxed)
    }

    /// Whether the server should be sent new clients: its restore is done, it is not
    /// draining, and a read and a commit round trip through the database each answer
    /// within two seconds.
    pub(crate) async fn ready(&self) -> bool {
        if !self.ready.load(Ordering::Relaxed) || self.draining() {
            return false;
        }
        let mut probed = self.probed.lock().await;
        let now = Instant::now();
        if let Some((at, answer)) = *probed
            && now.duration_since(at) < PROBE_KEPT
        {
            return answer;
        }
        let read = tokio::time::timeout(PROBE, self.store.ping()).await;
        let write = tokio::time::timeout(PROBE, self.store.write(Vec::new())).await;
        let answer = matches!(read, Ok(Ok(()))) && matches!(write, Ok(Ok(_)));
        if !answer {
            tracing::warn!("readiness probe: the database did not answer");
        }
        *probed = Some((Instant::now(), answer));
        answer
    }
}
