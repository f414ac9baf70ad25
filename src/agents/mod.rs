//! Players that see only what a player may see: an [`Agent`] chooses its move from a
//! [`Tracker`] (its own setup, the enemy's squares, the public history), never from the
//! arbiter's game, so no agent can cheat by construction.
//!
//! - [`Random`]: a uniformly random legal move, seeded.
//! - [`Greedy`]: one ply of look-ahead on the exact posterior: it challenges where it likely
//!   wins, steps away from likely losses, guards its Flag, and wins by the Flag's arrival
//!   when the far row is clear.
//! - [`Ismcts`]: information-set Monte Carlo tree search over determinizations drawn from the
//!   exact posterior, with a budget in iterations and a seed.

mod greedy;
mod ismcts;

pub use greedy::Greedy;
pub use ismcts::Ismcts;

use crate::knowledge::Tracker;
use crate::movegen::Move;
use crate::rank::Rank;
use crate::rng::SplitMix64;

/// A player. It is handed only its side's [`Tracker`], so its choice is a function of what
/// that side may know (and of the agent's own state, such as its seed).
pub trait Agent {
    /// The move to play, or `None` if the game is over or it is not the tracker's side to
    /// move.
    fn choose(&mut self, me: &Tracker) -> Option<Move>;
}

/// What a game won (or lost) is worth, against the material values below.
pub(crate) const WIN: f64 = 1000.0;

/// What a piece is worth in material: its rank's strength, the Spy as a Major (it beats every
/// officer but loses to a Private), the Flag dearly (losing it loses the game).
pub(crate) fn value(rank: Rank) -> f64 {
    match rank {
        Rank::Flag => WIN,
        Rank::Spy => 6.0,
        rank => rank.index() as f64,
    }
}

/// Whether it is `me`'s side to move in a game that goes on.
fn my_turn(me: &Tracker) -> bool {
    me.status().is_ongoing() && me.side_to_move() == me.side()
}

/// Plays a uniformly random legal move, drawn from a [`SplitMix64`]: the same seed and the same
/// positions give the same moves.
///
/// ```
/// use salpakan::{Agent, Game, Random, Rules, Setup, Side};
///
/// let rules = Rules::default();
/// let game = Game::new(Setup::random(Side::White, rules, 1),
///     Setup::random(Side::Black, rules, 2), Side::White, rules)?;
/// let mut agent = Random::new(7);
/// let mv = agent.choose(&game.tracker(Side::White)?).unwrap();
/// assert!(game.position().is_legal(mv));
/// assert_eq!(agent.choose(&game.tracker(Side::Black)?), None); // not Black's turn
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Random {
    rng: SplitMix64,
}

impl Random {
    /// A random player seeded with `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Random {
        Random {
            rng: SplitMix64::new(seed),
        }
    }
}

impl Agent for Random {
    fn choose(&mut self, me: &Tracker) -> Option<Move> {
        if !my_turn(me) {
            return None;
        }
        let moves = me.legal_moves();
        if moves.is_empty() {
            return None;
        }
        Some(moves[self.rng.below(moves.len() as u64) as usize])
    }
}
