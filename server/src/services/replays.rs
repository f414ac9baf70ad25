//! `GET /api/games/{id}/replay`: the engine's replay of a finished game's record, computed
//! off the runtime's threads, a few at a time, once per game however many ask at once (the
//! others wait for it and share it), and kept for the most recently asked games (a finished
//! game's replay never changes).

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use thiserror::Error;
use tokio::sync::{OnceCell, Semaphore};

use super::games::{GameError, lock};
use super::records::Records;
use crate::wire::ReplayReply;

/// Why a replay was refused.
#[derive(Debug, Error)]
pub(crate) enum ReplayError {
    /// Its record was refused (no such game, an aborted one, one in play).
    #[error(transparent)]
    Game(#[from] GameError),
    /// A kept record the engine does not replay (logged; the client hears `internal`).
    #[error("the server could not do that")]
    Unreplayable(String),
}

/// The replies kept.
const KEPT: usize = 64;

/// Replays being computed at most at once (the rest wait their turn).
const AT_ONCE: usize = 2;

/// Replies by game, and the games in the order they were kept (the oldest first out).
type Kept = (HashMap<String, Arc<str>>, VecDeque<String>);

/// A replay being computed, which every request for its game meanwhile waits for.
type InFlight = Arc<OnceCell<Arc<str>>>;

/// The replays service: the kept replies, the computations in flight, and their gate.
pub(crate) struct Replays {
    records: Arc<Records>,
    kept: Mutex<Kept>,
    in_flight: Mutex<HashMap<String, InFlight>>,
    gate: Semaphore,
    computed: AtomicU64,
}

impl Replays {
    /// Replays of the finished games whose records `records` reads; none kept yet.
    #[must_use]
    pub(crate) fn new(records: Arc<Records>) -> Replays {
        Replays {
            records,
            kept: Mutex::new((HashMap::new(), VecDeque::new())),
            in_flight: Mutex::new(HashMap::new()),
            gate: Semaphore::new(AT_ONCE),
            computed: AtomicU64::new(0),
        }
    }

    /// Replays computed since the start (not those served from the kept ones, nor from
    /// another request's computation).
    #[must_use]
    pub(crate) fn computed(&self) -> u64 {
        self.computed.load(Ordering::Relaxed)
    }

    fn get(&self, id: &str) -> Option<Arc<str>> {
        lock(&self.kept).0.get(id).cloned()
    }

    fn keep(&self, id: &str, reply: Arc<str>) {
        let mut kept = lock(&self.kept);
        let (map, order) = &mut *kept;
        if map.insert(id.to_owned(), reply).is_none() {
            order.push_back(id.to_owned());
        }
        while order.len() > KEPT {
            if let Some(old) = order.pop_front() {
                map.remove(&old);
            }
        }
    }

    /// `GET /api/games/{id}/replay` as JSON: refused as the record is (404 for no such game
    /// or an aborted one, 409 while it is in play).
    ///
    /// # Errors
    /// As [`Records::record`]; [`ReplayError::Unreplayable`] if the record does not replay.
    pub(crate) async fn replay(&self, id: &str) -> Result<Arc<str>, ReplayError> {
        if let Some(reply) = self.get(id) {
            return Ok(reply);
        }
        let cell = Arc::clone(lock(&self.in_flight).entry(id.to_owned()).or_default());
        // One request computes; the others wait here and share its reply (if it fails, the
        // next of them tries).
        let reply = cell.get_or_try_init(|| self.compute(id)).await.cloned();
        {
            let mut in_flight = lock(&self.in_flight);
            if in_flight.get(id).is_some_and(|c| Arc::ptr_eq(c, &cell)) {
                in_flight.remove(id);
            }
        }
        let reply = reply?;
        self.keep(id, Arc::clone(&reply));
        Ok(reply)
    }

    /// The replay of game `id`, computed now (its record read first, as [`Records::record`]
    /// refuses it).
    async fn compute(&self, id: &str) -> Result<Arc<str>, ReplayError> {
        let record = self.records.record(id).await?;
        let _turn = self
            .gate
            .acquire()
            .await
            .map_err(|_| ReplayError::Unreplayable("the replay gate is closed".into()))?;
        self.computed.fetch_add(1, Ordering::Relaxed);
        let game = id.to_owned();
        let reply = tokio::task::spawn_blocking(move || {
            let replay = salpakan::Replay::from_record(&record)
                .map_err(|e| ReplayError::Unreplayable(format!("game {game}: {e}")))?;
            serde_json::to_string(&ReplayReply::of(&game, &replay))
                .map_err(|e| ReplayError::Unreplayable(format!("game {game}: {e}")))
        })
        .await
        .map_err(|e| ReplayError::Unreplayable(e.to_string()))??;
        Ok(reply.into())
    }
}
