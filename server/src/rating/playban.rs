//! What abandoning games early costs a player (lichess's "playban"): an abort once both
//! formations are in, or a resignation before one's second ply, is a strike. Such a game moves
//! no rating, but by then each side has seen the other's occupied squares, name and rating:
//! shopping for opponents and formations this way is bounded. `STRIKES` strikes within a day
//! earn a ban: the lobby pairs the player with nobody for `FIRST_BAN`, twice as long for each
//! ban after (at most `LONGEST_BAN`); bans are forgotten a week after the last one ended.

/// Strikes within [`STRIKE_WINDOW_MS`] that earn a ban.
pub(crate) const STRIKES: u64 = 3;
/// How long a strike counts, in milliseconds (a day).
pub(crate) const STRIKE_WINDOW_MS: u64 = 24 * 60 * 60 * 1000;
/// The first ban, in milliseconds (10 minutes).
pub(crate) const FIRST_BAN: u64 = 10 * 60 * 1000;
/// The longest ban, in milliseconds (a day).
pub(crate) const LONGEST_BAN: u64 = 24 * 60 * 60 * 1000;
/// How long after a ban ends it still makes the next one longer, in milliseconds (a week).
pub(crate) const BANS_FORGOTTEN_MS: u64 = 7 * 24 * 60 * 60 * 1000;

/// A player's strikes and bans, as its row keeps them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Record {
    /// Strikes since the last ban.
    pub strikes: u64,
    /// When the last strike was counted (milliseconds since the Unix epoch).
    pub strike_ms: Option<u64>,
    /// Bans so far.
    pub bans: u64,
    /// When the last ban ends (milliseconds since the Unix epoch).
    pub banned_until_ms: Option<u64>,
}

impl Record {
    /// The record after one more strike at `now_ms`: old strikes and bans forgotten first,
    /// then a ban if this strike is the `STRIKES`th within a day.
    #[must_use]
    pub fn struck(self, now_ms: u64) -> Record {
        let recent = |at: Option<u64>, within: u64| at.is_some_and(|at| now_ms < at + within);
        let mut strikes = if recent(self.strike_ms, STRIKE_WINDOW_MS) {
            self.strikes
        } else {
            0
        };
        let mut bans = if recent(self.banned_until_ms, BANS_FORGOTTEN_MS) {
            self.bans
        } else {
            0
        };
        let mut banned_until_ms = self.banned_until_ms;
        strikes += 1;
        if strikes >= STRIKES {
            let length = FIRST_BAN.saturating_mul(1 << bans.min(16)).min(LONGEST_BAN);
            bans += 1;
            strikes = 0;
            banned_until_ms = Some(now_ms + length);
        }
        Record {
            strikes,
            strike_ms: Some(now_ms),
            bans,
            banned_until_ms,
        }
    }

    /// Milliseconds left of a ban at `now_ms` (`None`: not banned).
    #[must_use]
    pub(crate) fn ban_left(&self, now_ms: u64) -> Option<u64> {
        self.banned_until_ms
            .filter(|&until| until > now_ms)
            .map(|until| until - now_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINUTE: u64 = 60_000;

    #[test]
    fn the_third_strike_in_a_day_bans_each_ban_twice_as_long() {
        let start = 1_000_000_000;
        let mut record = Record::default();
        for i in 0..2 {
            record = record.struck(start + i * MINUTE);
            assert_eq!(record.ban_left(start + i * MINUTE), None);
        }
        record = record.struck(start + 2 * MINUTE);
        assert_eq!(record.ban_left(start + 2 * MINUTE), Some(FIRST_BAN));
        assert_eq!((record.strikes, record.bans), (0, 1));
        // Three more after it: twice as long.
        let later = start + 30 * MINUTE;
        for i in 0..3 {
            record = record.struck(later + i);
        }
        assert_eq!(record.ban_left(later + 2), Some(2 * FIRST_BAN));
        // Strikes a day apart never add up; bans a week old are forgotten.
        let mut spread = Record::default();
        for day in 0..5 {
            spread = spread.struck(start + day * STRIKE_WINDOW_MS);
        }
        assert_eq!((spread.strikes, spread.bans), (1, 0));
        let week = record.banned_until_ms.unwrap() + BANS_FORGOTTEN_MS;
        for i in 0..3 {
            record = record.struck(week + i);
        }
        assert_eq!(record.ban_left(week + 2), Some(FIRST_BAN));
    }

    #[test]
    fn no_ban_is_longer_than_a_day() {
        let mut record = Record {
            bans: 40,
            banned_until_ms: Some(5),
            ..Record::default()
        };
        for i in 0..3 {
            record = record.struck(10 + i);
        }
        assert_eq!(record.ban_left(12), Some(LONGEST_BAN));
    }
}
