//! Moves and all move generation: the [`Move`] value, the fixed-capacity [`MoveList`], action
//! ids with their [`ActionMask`], and the generators every caller shares.
//!
//! A piece moves one square up, down, left or right onto a square its own side does not hold
//! (an enemy there means a challenge). So the legal moves of a side are exactly four bitboards,
//! one per [`Direction`]: its pieces shifted one step, minus its own squares. Everything here
//! works from those four sets; nothing else in the crate generates moves. [`crate::Position`]
//! calls these generators for its side to move (and none once the game has ended), and
//! perft, playouts, action masks and the C ABI all go through it.

mod action;
mod list;
mod pairs;

pub use action::ActionMask;
pub use list::{IntoIter, Move, MoveList};
pub(crate) use pairs::write as write_pairs;

use crate::bitboard::Bitboard;
use crate::rng::SplitMix64;
use crate::select::Select;
use crate::square::{Direction, Square};

/// The squares that `own`'s pieces can step to in `direction`.
#[inline(always)]
pub(crate) const fn targets(own: Bitboard, direction: Direction) -> Bitboard {
    own.shift(direction).and_not(own)
}

/// The start of a move that reaches `to` by a step in `direction`.
#[inline(always)]
const fn start(to: Square, direction: Direction) -> Square {
    Square::clamped((to.index() as i8 - direction.index_delta()) as u8)
}

/// The four target sets, indexed by [`Direction::index`].
#[inline(always)]
pub(crate) fn all_targets(own: Bitboard) -> [Bitboard; 4] {
    Direction::ALL.map(|direction| targets(own, direction))
}

/// The number of moves of `own`'s pieces: four population counts.
#[inline(always)]
pub(crate) fn count(own: Bitboard) -> u32 {
    all_targets(own).into_iter().map(Bitboard::len).sum()
}

/// Calls `f` on every move of `own`'s pieces, direction by direction (up, down, left, right)
/// and by target square within each, until `f` returns `true`. Returns whether it stopped
/// early.
#[inline(always)]
pub(crate) fn generate(own: Bitboard, mut f: impl FnMut(Move) -> bool) -> bool {
    for direction in Direction::ALL {
        let mut bits = targets(own, direction).bits();
        while bits != 0 {
            let to = Square::clamped(bits.trailing_zeros() as u8);
            if f(Move::new(start(to, direction), to)) {
                return true;
            }
            bits &= bits - 1;
        }
    }
    false
}

/// Every move of `own`'s pieces in a [`MoveList`], in the order of [`generate`] (a test checks
/// it), written by the pairs writer (branch-free where the CPU allows): the bulk writer behind
/// [`crate::Position::legal_moves`], and through [`crate::Position::legal_move_pairs`] the
/// C ABI's move list.
#[inline(always)]
pub(crate) fn list(own: Bitboard) -> MoveList {
    let mut list = MoveList::new();
    // SAFETY: the pairs writer writes only moves of `own`'s pieces: squares below 72.
    let len = write_pairs(own, unsafe { list.as_pairs_mut() });
    list.set_len(len);
    list
}

/// The moves of `own`'s pieces as action ids (see [`Move::action`]).
pub(crate) fn action_mask(own: Bitboard) -> ActionMask {
    let mut mask = ActionMask::EMPTY;
    for direction in Direction::ALL {
        for from in targets(own, direction).shift(direction.opposite()) {
            mask.insert(from.index() as u16 * 4 + direction as u16);
        }
    }
    mask
}

/// A uniformly random move of `own`'s pieces drawn from `rng`, or `None` if there is none.
/// Picks from the per-direction counts without listing the moves, and without a branch that
/// depends on the random number (such branches mispredict every time).
#[inline(always)]
pub(crate) fn random(own: Bitboard, rng: &mut SplitMix64, select: impl Select) -> Option<Move> {
    let targets = all_targets(own);
    let counts = targets.map(Bitboard::len);
    let starts = [
        0,
        counts[0],
        counts[0] + counts[1],
        counts[0] + counts[1] + counts[2],
    ];
    let total = starts[3] + counts[3];
    if total == 0 {
        return None;
    }
    let k = rng.below(u64::from(total)) as u32;
    let d = usize::from(k >= starts[1]) + usize::from(k >= starts[2]) + usize::from(k >= starts[3]);
    let to = targets[d].nth_square_with(k - starts[d], select);
    Some(Move::new(start(to, Direction::ALL[d]), to))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::select::{Broadword, FastPdep};

    /// An army on a few squares, including the board's edges and corners.
    fn own() -> Bitboard {
        ["a1", "i1", "e4", "e5", "a8", "i8", "d4"]
            .into_iter()
            .map(|s| s.parse::<Square>().unwrap())
            .fold(Bitboard::EMPTY, Bitboard::with)
    }

    /// The moves of `own` found square by square, the slow obvious way.
    fn naive(own: Bitboard) -> Vec<Move> {
        let mut moves = Vec::new();
        for from in own {
            for direction in Direction::ALL {
                if let Some(mv) = Move::step(from, direction)
                    && !own.has(mv.to)
                {
                    moves.push(mv);
                }
            }
        }
        moves.sort();
        moves
    }

    #[test]
    fn every_generator_gives_the_same_moves() {
        let own = own();
        let expected = naive(own);
        let mut listed = list(own).to_vec();
        listed.sort();
        assert_eq!(listed, expected);
        assert_eq!(count(own) as usize, expected.len());
        let mut generated = Vec::new();
        assert!(!generate(own, |mv| {
            generated.push(mv);
            false
        }));
        assert_eq!(generated, list(own).to_vec(), "the same order as the list");
        let mask = action_mask(own);
        assert_eq!(mask.len(), expected.len());
        assert!(
            expected
                .iter()
                .all(|mv| mask.contains(mv.action().unwrap()))
        );
    }

    #[test]
    fn generation_stops_when_asked() {
        let own = own();
        let mut seen = 0;
        assert!(generate(own, |_| {
            seen += 1;
            seen == 3
        }));
        assert_eq!(seen, 3);
    }

    #[test]
    fn random_moves_are_legal_and_reach_every_move() {
        let own = own();
        let expected = naive(own);
        let mut rng = SplitMix64::new(5);
        let mut seen = alloc::collections::BTreeSet::new();
        for _ in 0..2000 {
            let mv = random(own, &mut rng, Broadword).unwrap();
            if let Some(pdep) = FastPdep::detect() {
                let (mut a, mut b) = (rng.clone(), rng.clone());
                assert_eq!(random(own, &mut a, pdep), random(own, &mut b, Broadword));
            }
            assert!(expected.contains(&mv));
            seen.insert(mv);
        }
        assert_eq!(seen.len(), expected.len());
        assert_eq!(random(Bitboard::EMPTY, &mut rng, Broadword), None);
    }
}
