//! The server's game clock: each side's time left, the side whose time runs, and an
//! increment added after each of its moves. Only the server reads the time; a client's
//! messages carry none.

use salpakan::Side;
use serde::{Deserialize, Serialize};
use thiserror::Error;
use tokio::time::{Duration, Instant};

/// The wall clock: milliseconds since the Unix epoch (0 for a clock set before it). Only a
/// game's creation is stamped with it; clocks and deadlines run on [`Instant`]s.
#[must_use]
pub fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Clock settings out of bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum ClockError {
    /// An initial time of zero or over a day.
    #[error("initial_ms must be 1 … {max}, not {given}", max = ClockSettings::MAX_INITIAL_MS)]
    Initial {
        /// What was asked for.
        given: u64,
    },
    /// An increment over an hour.
    #[error("increment_ms must be 0 … {max}, not {given}", max = ClockSettings::MAX_INCREMENT_MS)]
    Increment {
        /// What was asked for.
        given: u64,
    },
}

/// A clock's settings, as `POST /api/games` takes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockSettings {
    /// Each side's time at the start, in milliseconds.
    pub initial_ms: u64,
    /// Added to a side's time after each of its moves, in milliseconds.
    pub increment_ms: u64,
}

impl ClockSettings {
    /// The longest initial time a game may have: a day.
    pub(crate) const MAX_INITIAL_MS: u64 = 86_400_000;
    /// The longest increment: an hour.
    pub(crate) const MAX_INCREMENT_MS: u64 = 3_600_000;

    /// Checks the settings' bounds.
    ///
    /// # Errors
    /// [`ClockError`] naming what is out of bounds.
    pub fn check(self) -> Result<ClockSettings, ClockError> {
        if self.initial_ms == 0 || self.initial_ms > Self::MAX_INITIAL_MS {
            return Err(ClockError::Initial {
                given: self.initial_ms,
            });
        }
        if self.increment_ms > Self::MAX_INCREMENT_MS {
            return Err(ClockError::Increment {
                given: self.increment_ms,
            });
        }
        Ok(self)
    }
}

/// What a clock shows at one moment: the `CLOCK` of the contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reading {
    /// White's and Black's time left, in milliseconds.
    pub remaining_ms: [u64; 2],
    /// The side whose time runs, if any.
    pub running: Option<Side>,
}

/// A running game clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Clock {
    settings: ClockSettings,
    remaining_ms: [u64; 2],
    running: Option<Side>,
    since: Instant,
}

impl Clock {
    /// A stopped clock with each side's initial time.
    #[must_use]
    pub fn new(settings: ClockSettings, now: Instant) -> Clock {
        Clock {
            settings,
            remaining_ms: [settings.initial_ms; 2],
            running: None,
            since: now,
        }
    }

    /// A clock as a reading left it, running from `now` (time while the server was down is
    /// charged to nobody).
    #[must_use]
    pub fn resume(settings: ClockSettings, reading: Reading, now: Instant) -> Clock {
        Clock {
            settings,
            remaining_ms: reading.remaining_ms,
            running: reading.running,
            since: now,
        }
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> ClockSettings {
        self.settings
    }

    fn elapsed_ms(&self, now: Instant) -> u64 {
        u64::try_from(now.saturating_duration_since(self.since).as_millis()).unwrap_or(u64::MAX)
    }

    /// What the clock shows at `now`.
    #[must_use]
    pub fn reading(&self, now: Instant) -> Reading {
        let mut remaining_ms = self.remaining_ms;
        if let Some(side) = self.running {
            let left = &mut remaining_ms[side.index()];
            *left = left.saturating_sub(self.elapsed_ms(now));
        }
        Reading {
            remaining_ms,
            running: self.running,
        }
    }

    /// Starts `side`'s time at `now`.
    pub fn start(&mut self, side: Side, now: Instant) {
        self.remaining_ms = self.reading(now).remaining_ms;
        self.running = Some(side);
        self.since = now;
    }

    /// The side whose time has run out at `now`, if any.
    #[must_use]
    pub(crate) fn flagged(&self, now: Instant) -> Option<Side> {
        let side = self.running?;
        (self.reading(now).remaining_ms[side.index()] == 0).then_some(side)
    }

    /// When the running side's time runs out.
    #[must_use]
    pub fn deadline(&self) -> Option<Instant> {
        let side = self.running?;
        Some(self.since + Duration::from_millis(self.remaining_ms[side.index()]))
    }

    /// The running side moved at `now`: its time is charged, the increment added and the
    /// other side's time starts.
    pub fn moved(&mut self, now: Instant) {
        let Some(side) = self.running else { return };
        let mut reading = self.reading(now);
        let left = &mut reading.remaining_ms[side.index()];
        *left = left.saturating_add(self.settings.increment_ms);
        self.remaining_ms = reading.remaining_ms;
        self.running = Some(side.other());
        self.since = now;
    }

    /// The running side's time starts again at `now`, with what it had left when it started
    /// running: the time between the decision that started it and `now` (a commit, the
    /// frames on their way) is charged to nobody.
    pub(crate) fn start_over_at(&mut self, now: Instant) {
        if self.running.is_some() && now > self.since {
            self.since = now;
        }
    }

    /// The running side is not charged for `pause` (the server's own, ended by `now`).
    pub(crate) fn forgive(&mut self, pause: Duration, now: Instant) {
        if self.running.is_some() {
            self.since = (self.since + pause).min(now).max(self.since);
        }
    }

    /// Stops the clock at `now`.
    pub fn stop(&mut self, now: Instant) {
        self.remaining_ms = self.reading(now).remaining_ms;
        self.running = None;
        self.since = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_is_charged_to_the_side_that_runs_and_the_increment_added() {
        let t0 = Instant::now();
        let settings = ClockSettings {
            initial_ms: 10_000,
            increment_ms: 500,
        };
        let mut clock = Clock::new(settings, t0);
        assert_eq!(
            clock.reading(t0 + Duration::from_secs(5)).remaining_ms,
            [10_000; 2]
        );
        clock.start(Side::White, t0);
        let t1 = t0 + Duration::from_millis(3_000);
        assert_eq!(clock.reading(t1).remaining_ms, [7_000, 10_000]);
        clock.moved(t1);
        assert_eq!(clock.reading(t1).remaining_ms, [7_500, 10_000]);
        assert_eq!(clock.reading(t1).running, Some(Side::Black));
        assert_eq!(clock.deadline(), Some(t1 + Duration::from_millis(10_000)));
        assert_eq!(clock.flagged(t1 + Duration::from_millis(9_999)), None);
        assert_eq!(
            clock.flagged(t1 + Duration::from_millis(10_000)),
            Some(Side::Black)
        );
        clock.stop(t1 + Duration::from_millis(1_000));
        assert_eq!(
            clock.reading(t1 + Duration::from_secs(99)).remaining_ms,
            [7_500, 9_000]
        );
    }

    #[test]
    fn bounds_are_checked() {
        let ok = ClockSettings {
            initial_ms: 60_000,
            increment_ms: 0,
        };
        assert!(ok.check().is_ok());
        assert!(
            ClockSettings {
                initial_ms: 0,
                ..ok
            }
            .check()
            .is_err()
        );
        assert!(
            ClockSettings {
                increment_ms: ClockSettings::MAX_INCREMENT_MS + 1,
                ..ok
            }
            .check()
            .is_err()
        );
    }
}
