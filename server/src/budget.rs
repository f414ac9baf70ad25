//! The message budget of a socket, or of a seat across its sockets.

use std::collections::VecDeque;

use tokio::time::Instant;

use crate::config::Limits;

/// The message budget: at most `limit` messages in any `window`. A seat's budget is shared
/// by all its sockets (a reconnect does not make a fresh one).
pub struct Budget {
    limit: usize,
    window: std::time::Duration,
    times: VecDeque<Instant>,
}

impl Budget {
    /// A socket's full budget: the limits' messages per window.
    #[must_use]
    pub fn new(limits: &Limits) -> Budget {
        Budget::per(limits.messages_per_window, limits.window)
    }

    /// A full budget of `limit` in any `window`.
    #[must_use]
    pub fn per(limit: usize, window: std::time::Duration) -> Budget {
        Budget {
            limit,
            window,
            times: VecDeque::new(),
        }
    }

    /// Whether nothing is counted any more at `now` (the budget is as good as new).
    #[must_use]
    pub fn is_empty(&self, now: Instant) -> bool {
        self.times
            .back()
            .is_none_or(|&t| now.duration_since(t) >= self.window)
    }

    /// Counts `units` messages at `now`; `false` if that is more than the budget has left
    /// (nothing is counted then).
    pub fn take(&mut self, now: Instant, units: usize) -> bool {
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
}
