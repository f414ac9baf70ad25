//! Random moves and playouts: what AI users run millions of times.

use super::Position;
use crate::movegen::{self, Move};
use crate::rng::SplitMix64;
#[cfg(target_arch = "x86_64")]
use crate::select::FastPdep;
use crate::select::{Broadword, Select};
use crate::side::Side;
use crate::status::Status;

/// The end of a random playout: the status reached and the plies played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Playout {
    /// The status when the playout stopped (`Ongoing` if it stopped at the ply cap).
    pub status: Status,
    /// The number of plies played.
    pub plies: u32,
}

impl Position {
    /// A uniformly random legal move, or `None` once the game has ended. Picks the move from the
    /// per-direction bitboard counts without building a move list.
    #[inline(always)]
    pub fn random_move(&self, rng: &mut SplitMix64) -> Option<Move> {
        movegen::random(self.movers(), rng, Broadword)
    }

    /// Plays uniformly random legal moves on a copy of the position, drawn from `rng`, until the
    /// game ends or `max_plies` plies were played. The position itself is unchanged; the same
    /// position, generator state and cap give the same result.
    ///
    /// ```
    /// use salpakan::{Position, Rules, Setup, Side, SplitMix64};
    ///
    /// let rules = Rules::default();
    /// let pos = Position::new(
    ///     &Setup::random(Side::White, rules, 1),
    ///     &Setup::random(Side::Black, rules, 2),
    ///     Side::White,
    ///     rules,
    /// )?;
    /// let a = pos.playout(&mut SplitMix64::new(9), 10_000);
    /// let b = pos.playout(&mut SplitMix64::new(9), 10_000);
    /// assert_eq!(a, b);
    /// assert!(!a.status.is_ongoing() || a.plies == 10_000);
    /// # Ok::<_, salpakan::SetupError>(())
    /// ```
    pub fn playout(&self, rng: &mut SplitMix64, max_plies: u32) -> Playout {
        #[cfg(target_arch = "x86_64")]
        if x86_has!("popcnt") {
            if let Some(pdep) = FastPdep::detect() {
                // SAFETY: the CPU has popcnt (checked just above) and BMI2 (`detect`).
                return unsafe { self.playout_bmi2(rng, max_plies, pdep) };
            }
            // SAFETY: the CPU has the popcnt instruction, as checked just above.
            return unsafe { self.playout_popcnt(rng, max_plies) };
        }
        self.playout_with(rng, max_plies, Broadword)
    }

    /// [`Position::playout`] compiled for CPUs with the popcnt instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn playout_popcnt(&self, rng: &mut SplitMix64, max_plies: u32) -> Playout {
        self.playout_with(rng, max_plies, Broadword)
    }

    /// [`Position::playout`] compiled for CPUs with popcnt and a fast PDEP, which picks the
    /// random move's target in two instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    fn playout_bmi2(&self, rng: &mut SplitMix64, max_plies: u32, pdep: FastPdep) -> Playout {
        self.playout_with(rng, max_plies, pdep)
    }

    #[inline(always)]
    fn playout_with(&self, rng: &mut SplitMix64, max_plies: u32, select: impl Select) -> Playout {
        let mut pos = *self;
        let mut plies = 0;
        while plies < max_plies {
            let moved = match pos.side_to_move {
                Side::White => pos.random_ply::<false>(rng, select),
                Side::Black => pos.random_ply::<true>(rng, select),
            };
            if !moved {
                break;
            }
            plies += 1;
        }
        Playout {
            status: pos.status,
            plies,
        }
    }

    /// One random ply for the side `BLACK` says is to move; false if it has no move.
    #[inline(always)]
    fn random_ply<const BLACK: bool>(&mut self, rng: &mut SplitMix64, select: impl Select) -> bool {
        let us = if BLACK { Side::Black } else { Side::White };
        let Some(mv) = movegen::random(self.movers_of(us), rng, select) else {
            return false;
        };
        self.make_as::<false, BLACK>(mv);
        true
    }
}
