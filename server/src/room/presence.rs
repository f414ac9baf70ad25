//! Who is at the table: each seat's open sockets, since when an empty seat has been away,
//! the grace an absent seat has before it loses, and the longer one after which a game both
//! seats left is drawn. This is the connections' state, not the
//! game's: it is never stored, and a restart starts it afresh.

use salpakan::Side;
use tokio::time::{Duration, Instant};

use super::Player;

/// How many graces a game both seats left waits before it is drawn (10 minutes with the
/// default grace of 60 seconds).
pub(crate) const BOTH_AWAY: u32 = 10;

/// Each seat's sockets and absence.
#[derive(Debug, Clone)]
pub(super) struct Presence {
    bots: [bool; 2],
    sockets: [u32; 2],
    away_since: [Instant; 2],
    grace: Duration,
}

impl Presence {
    /// Nobody connected yet (a bot's seat is always present), counting absence from `now`.
    pub(super) fn new(players: [Player; 2], grace: Duration, now: Instant) -> Presence {
        Presence {
            bots: players.map(|p| matches!(p, Player::Bot(_))),
            sockets: [0, 0],
            away_since: [now; 2],
            grace,
        }
    }

    /// Whether `side`'s seat is present: a bot, or a socket open.
    pub(super) fn present(&self, side: Side) -> bool {
        self.bots[side.index()] || self.sockets[side.index()] > 0
    }

    /// `side`'s seat's open sockets.
    pub(super) fn sockets(&self, side: Side) -> usize {
        self.sockets[side.index()] as usize
    }

    /// A socket of `side`'s seat opened. Returns whether the seat was away until now.
    pub(super) fn connect(&mut self, side: Side) -> bool {
        self.sockets[side.index()] += 1;
        self.sockets[side.index()] == 1
    }

    /// A socket of `side`'s seat closed at `now`. Returns whether the seat is now away.
    pub(super) fn disconnect(&mut self, side: Side, now: Instant) -> bool {
        let count = &mut self.sockets[side.index()];
        *count = count.saturating_sub(1);
        if *count == 0 {
            self.away_since[side.index()] = now;
            true
        } else {
            false
        }
    }

    /// Absences do not count for `pause` (the server's own, ended by `now`).
    pub(super) fn forgive(&mut self, pause: Duration, now: Instant) {
        for since in &mut self.away_since {
            *since = (*since + pause).min(now).max(*since);
        }
    }

    /// When `side`, away while its opponent is present, loses by abandonment: its absence
    /// counts only while it is to move (`turn`: the side to move and since when), so a player
    /// who steps away on the opponent's turn loses nothing by it.
    pub(super) fn abandons_at(&self, side: Side, turn: Option<(Side, Instant)>) -> Option<Instant> {
        let (_, since) = turn.filter(|&(to_move, _)| to_move == side)?;
        (!self.present(side) && self.present(side.other()))
            .then(|| self.away_since[side.index()].max(since) + self.grace)
    }

    /// When a game both seats are away from is drawn: [`BOTH_AWAY`] graces after the later
    /// of them left (so that a game nobody will come back to ends, and one both players lost
    /// their connection to for a moment does not).
    pub(super) fn both_abandon_at(&self) -> Option<Instant> {
        (!self.present(Side::White) && !self.present(Side::Black))
            .then(|| self.away_since[0].max(self.away_since[1]) + self.grace * BOTH_AWAY)
    }
}
