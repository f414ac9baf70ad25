//! The message budget of a socket, or of a seat across its sockets; and [`Rate`], a
//! constant-size bound on how often something is done (requests, pool joins).

use std::collections::VecDeque;

use tokio::time::Instant;

use crate::config::Limits;

/// The message budget: at most `limit` messages in any `window`. A seat's budget is shared
/// by all its sockets (a reconnect does not make a fresh one).
pub(crate) struct Budget {
    limit: usize,
    window: std::time::Duration,
    times: VecDeque<Instant>,
}

impl Budget {
    /// A socket's full budget: the limits' messages per window.
    #[must_use]
    pub(crate) fn new(limits: &Limits) -> Budget {
        Budget::per(limits.messages_per_window, limits.window)
    }

    /// A full budget of `limit` in any `window`.
    #[must_use]
    pub(crate) fn per(limit: usize, window: std::time::Duration) -> Budget {
        Budget {
            limit,
            window,
            times: VecDeque::new(),
        }
    }

    /// Whether nothing is counted any more at `now` (the budget is as good as new).
    #[must_use]
    pub(crate) fn is_empty(&self, now: Instant) -> bool {
        self.times
            .back()
            .is_none_or(|&t| now.duration_since(t) >= self.window)
    }

    /// Counts `units` messages at `now`; `false` if that is more than the budget has left
    /// (nothing is counted then).
    pub(crate) fn take(&mut self, now: Instant, units: usize) -> bool {
        while self
            .times
            .front()
            .is_some_and(|&t| now.duration_since(t) >= self.window)
        {
            self.times.pop_front();
        }
        if self.times.len() + units > self.limit {
            return false;
        }
        self.times.extend(std::iter::repeat_n(now, units));
        true
    }

    /// Gives back the last `units` counted (a taking undone).
    pub(crate) fn give_back(&mut self, units: usize) {
        let keep = self.times.len().saturating_sub(units);
        self.times.truncate(keep);
    }
}

/// At most `burst` at once and `burst` per `period` on average: a token bucket, refilled
/// continuously. Unlike [`Budget`] it keeps no time per unit, so it costs the same whatever
/// it counts (a rate per address or per player may be large).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rate {
    burst: f64,
    per_sec: f64,
    tokens: f64,
    at: Instant,
}

impl Rate {
    /// A full bucket at `now`: `burst` at once, refilled at `burst` per `period`.
    #[must_use]
    pub(crate) fn per(burst: usize, period: std::time::Duration, now: Instant) -> Rate {
        let burst = burst as f64;
        Rate {
            burst,
            per_sec: burst / period.as_secs_f64().max(1e-9),
            tokens: burst,
            at: now,
        }
    }

    fn refill(&mut self, now: Instant) {
        let passed = now.saturating_duration_since(self.at).as_secs_f64();
        self.tokens = (self.tokens + passed * self.per_sec).min(self.burst);
        self.at = now;
    }

    /// Counts one at `now`; `false` if none is left (nothing is counted then).
    pub(crate) fn take(&mut self, now: Instant) -> bool {
        self.refill(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Whether it is full again at `now` (as good as new: it may be forgotten).
    #[must_use]
    pub(crate) fn is_full(&self, now: Instant) -> bool {
        let passed = now.saturating_duration_since(self.at).as_secs_f64();
        self.tokens + passed * self.per_sec >= self.burst
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_allows_its_limit_per_window() {
        let limits = Limits {
            messages_per_window: 3,
            window: std::time::Duration::from_secs(10),
            ..Limits::default()
        };
        let mut budget = Budget::new(&limits);
        let t0 = Instant::now();
        assert!((0..3).all(|_| budget.take(t0, 1)));
        assert!(!budget.take(t0 + std::time::Duration::from_secs(9), 1));
        assert!(budget.take(t0 + std::time::Duration::from_secs(10), 1));
        // A replay's cost counts all at once, or not at all.
        assert!(!budget.take(t0 + std::time::Duration::from_secs(11), 3));
        assert!(budget.take(t0 + std::time::Duration::from_secs(11), 2));
    }

    #[test]
    fn a_rate_allows_its_burst_then_refills_at_its_pace() {
        let t0 = Instant::now();
        let mut rate = Rate::per(3, std::time::Duration::from_secs(3), t0);
        assert!((0..3).all(|_| rate.take(t0)));
        assert!(!rate.take(t0));
        assert!(!rate.is_full(t0));
        let second = t0 + std::time::Duration::from_millis(1000);
        assert!(rate.take(second), "one a second comes back");
        assert!(!rate.take(second));
        assert!(rate.is_full(t0 + std::time::Duration::from_secs(4)));
    }
}
