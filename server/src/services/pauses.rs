//! Pauses the server itself noticed: the process stopped (SIGSTOP, a suspended machine) or
//! starved for more than a second. Their time is charged to nobody: no clock runs and no
//! absence counts during them, and a socket is not idle for them.

use std::sync::{Mutex, PoisonError};

use tokio::time::{Duration, Instant};

use super::stopping::Stopping;

/// How often the watch looks at the time.
pub(crate) const TICK: Duration = Duration::from_millis(250);
/// A gap between two looks longer than this (beyond the tick) is a pause.
const PAUSE: Duration = Duration::from_secs(1);

/// The pauses noticed so far.
pub(crate) struct Pauses {
    /// When the time was last looked at, and every pause's length so far.
    ledger: Mutex<(Instant, Duration)>,
}

impl Pauses {
    /// No pause yet, the time last looked at `now`.
    #[must_use]
    pub(crate) fn new(now: Instant) -> Pauses {
        Pauses {
            ledger: Mutex::new((now, Duration::ZERO)),
        }
    }

    /// Looks at the time at `now`: a gap since the last look of more than a second beyond
    /// the tick is a pause. Returns every pause's length so far. Whoever looks first after
    /// a pause (the watch, a room's timer, a socket, a request) notices it, before anything
    /// is decided from the time.
    pub(crate) fn notice(&self, now: Instant) -> Duration {
        let mut ledger = self.ledger.lock().unwrap_or_else(PoisonError::into_inner);
        let (last, total) = &mut *ledger;
        let gap = now.saturating_duration_since(*last);
        if gap > TICK + PAUSE {
            *total += gap - TICK;
        }
        *last = (*last).max(now);
        *total
    }

    /// `at` for `room`, every pause noticed by now first taken out of its clock and its
    /// absences.
    pub(crate) fn at(&self, room: &mut crate::room::Room, at: Instant) -> Instant {
        room.absorb_pauses(self.notice(Instant::now()), at);
        at
    }

    /// The time now for `room`, as [`Pauses::at`].
    pub(crate) fn now(&self, room: &mut crate::room::Room) -> Instant {
        self.at(room, Instant::now())
    }

    /// Looks at the time every [`TICK`], so that a pause is noticed soon after it (if
    /// nothing else looked first), until the server stops.
    pub(crate) async fn watch(self: std::sync::Arc<Pauses>, stopping: Stopping) {
        let mut stop = stopping.listen();
        loop {
            self.notice(Instant::now());
            if !stop.sleep(TICK).await {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_gap_is_a_pause_and_a_tick_is_not() {
        let t0 = Instant::now();
        let pauses = Pauses::new(t0);
        assert_eq!(pauses.notice(t0 + TICK), Duration::ZERO);
        assert_eq!(
            pauses.notice(t0 + TICK + Duration::from_millis(900)),
            Duration::ZERO
        );
        let after = t0 + Duration::from_secs(10);
        let total = pauses.notice(after);
        assert!(
            total > Duration::from_secs(8) && total < Duration::from_secs(9),
            "{total:?}"
        );
        assert_eq!(pauses.notice(after), total, "noticed once");
    }
}
