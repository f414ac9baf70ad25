//! Tournaments as plain values, no I/O: who plays whom in each round, and the standings the
//! results give. The scoring is the Generals League's: a win 2, a draw 1, a loss 0, and a
//! *default* (a game not started by its round's cutoff) of its own, which scores the present
//! player a win's points but counts for nothing in the tie-breaks, so that a default win
//! loses tie-breaks to a played win.
//!
//! - [`standings`]: the score, then the tie-breaks in order: direct encounter (the points
//!   scored in played games among the players tied on score), the points scored in played
//!   games (where a default win loses to a played win), Buchholz (the sum of the scores of
//!   the opponents met in played games), Sonneborn-Berger (the sum, over played games, of
//!   the points earned times the opponent's score); equal in all, a place is shared.
//! - [`swiss`]: a Swiss round (pairings by score then rating, no repeat pairing, a bye for an
//!   odd count, colours kept within one).
//! - [`round_robin`]: every pairing of a round robin (the circle method, colours balanced).
//! - [`series`]: a race to N points between two players, colours alternating.
//! - [`bounds`]: what a tournament may hold, and why a change is refused.
//! - [`settings`]: a tournament's settings and who may register; [`rows`]: what it keeps of
//!   its entrants, rounds, boards and log.
//! - [`event`]: one tournament as a value, and every change a player or a director makes to
//!   it; [`progress`]: its rounds paired when due, its games to make and in play, its end.
//! - [`arena`]: an arena's pairing of whoever is waiting, nearest in score, never the last
//!   opponent at once.

pub mod arena;
pub mod bounds;
pub mod event;
pub mod progress;
pub mod round_robin;
pub mod rows;
pub mod series;
pub mod settings;
pub mod standings;
pub mod swiss;

use salpakan::Side;

/// An entrant: its index in the tournament's list of entrants.
pub(crate) type Entrant = usize;

/// How a tournament game ended, as the standings count it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Played to an end: won by this side.
    Won(Side),
    /// Played to a draw.
    Drawn,
    /// Not started by the round's cutoff: the side present (if either was) scores the
    /// default; the other scores nothing.
    Default(Option<Side>),
    /// Voided by the director: it scores nothing for either side and counts in no tie-break
    /// (the two have still met).
    Void,
}

/// A game of a round: its two entrants and, once it is decided, how it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pairing {
    /// White's entrant.
    pub white: Entrant,
    /// Black's entrant.
    pub black: Entrant,
    /// How it ended (`None` while it is played).
    pub outcome: Option<Outcome>,
}

impl Pairing {
    /// A pairing not yet played.
    #[must_use]
    pub fn new(white: Entrant, black: Entrant) -> Pairing {
        Pairing {
            white,
            black,
            outcome: None,
        }
    }

    /// The entrant of `side`.
    #[must_use]
    pub fn of(&self, side: Side) -> Entrant {
        match side {
            Side::White => self.white,
            Side::Black => self.black,
        }
    }

    /// `entrant`'s side in it, if it plays.
    #[must_use]
    pub(crate) fn side_of(&self, entrant: Entrant) -> Option<Side> {
        if self.white == entrant {
            Some(Side::White)
        } else if self.black == entrant {
            Some(Side::Black)
        } else {
            None
        }
    }
}

/// A round: its pairings and the entrant with the bye (an odd count), who scores
/// [`Scoring::bye`] and nothing in the tie-breaks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Round {
    /// The games.
    pub pairings: Vec<Pairing>,
    /// The entrant who sits this round out.
    pub bye: Option<Entrant>,
}

/// Points for each result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scoring {
    /// A win.
    pub win: u32,
    /// A draw.
    pub draw: u32,
    /// A loss.
    pub loss: u32,
    /// The present player's default win.
    pub default_win: u32,
    /// A bye.
    pub bye: u32,
}

impl Default for Scoring {
    /// Win 2, draw 1, loss 0, a default win 2, a bye 2.
    fn default() -> Scoring {
        Scoring {
            win: 2,
            draw: 1,
            loss: 0,
            default_win: 2,
            bye: 2,
        }
    }
}

impl Scoring {
    /// The points `side` scores for `outcome`, and whether the game was played (only played
    /// games count in the tie-breaks).
    #[must_use]
    pub fn points(&self, outcome: Outcome, side: Side) -> (u32, bool) {
        match outcome {
            Outcome::Won(winner) if winner == side => (self.win, true),
            Outcome::Won(_) => (self.loss, true),
            Outcome::Drawn => (self.draw, true),
            Outcome::Default(Some(present)) if present == side => (self.default_win, false),
            Outcome::Default(_) | Outcome::Void => (0, false),
        }
    }
}
