//! Moves and the fixed-capacity move list.

use core::fmt;
use core::ops::Deref;

use crate::square::{Direction, Square};

/// A move: one piece from `from` to the orthogonally adjacent `to`. Moving onto an enemy piece
/// is a challenge. Whether a move is legal depends on the position ([`crate::Position::play`]
/// checks it).
///
/// A move alone does not know what stands on its target, so its `Display` always writes
/// `e3-e4`, and its `FromStr` reads `e3-e4` and `e3xe4` alike without checking the `x`.
/// [`crate::Position::move_text`] writes a move with its board (`x` for a challenge), and
/// [`crate::Position::parse_move`] reads one and refuses a marker that contradicts the board.
///
/// # Examples
/// ```
/// use salpakan::{Direction, Move};
///
/// let mv: Move = "e3-e4".parse()?;
/// assert_eq!(mv.to_string(), "e3-e4");
/// assert_eq!(mv.direction(), Some(Direction::Up));
/// assert_eq!("e4xe5".parse::<Move>()?.to.to_string(), "e5"); // 'x' marks a challenge
/// # Ok::<_, salpakan::text::ParseError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
// Laid out as two bytes, `from` then `to`, so that the bulk writer fills a list as byte pairs.
#[repr(C)]
pub struct Move {
    /// The square the piece leaves.
    pub from: Square,
    /// The square the piece enters.
    pub to: Square,
}

impl Move {
    /// The move from `from` to `to`.
    #[inline]
    #[must_use]
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// The move of one step from `from` in `direction`, if that stays on the board.
    #[inline]
    #[must_use]
    pub const fn step(from: Square, direction: Direction) -> Option<Move> {
        match from.offset(direction) {
            Some(to) => Some(Move { from, to }),
            None => None,
        }
    }

    /// The direction of the move, if `to` is orthogonally adjacent to `from`.
    #[inline]
    #[must_use]
    pub fn direction(self) -> Option<Direction> {
        self.from.direction_to(self.to)
    }
}

/// A list of at most [`MoveList::CAPACITY`] moves in a fixed array: building one never allocates.
/// It dereferences to a slice of moves.
///
/// # Examples
/// ```
/// use salpakan::{Game, MoveList, Rules, Setup, Side};
///
/// let rules = Rules::default();
/// let game = Game::dealt(Side::White, rules, 1);
/// let moves: MoveList = game.legal_moves();
/// assert!(!moves.is_empty() && moves.len() <= MoveList::CAPACITY);
/// assert!(moves.iter().all(|mv| mv.direction().is_some()));
/// # Ok::<_, salpakan::SetupError>(())
/// ```
#[derive(Clone, Copy)]
pub struct MoveList {
    moves: [Move; MoveList::CAPACITY],
    len: u8,
}

impl MoveList {
    /// The most legal moves any position has, and so the list's capacity: 21 pieces × 4
    /// directions.
    pub const CAPACITY: usize = 84;

    /// An empty list.
    #[inline]
    #[must_use]
    pub const fn new() -> MoveList {
        let square = Square::clamped(0);
        MoveList {
            moves: [Move {
                from: square,
                to: square,
            }; MoveList::CAPACITY],
            len: 0,
        }
    }

    /// The moves' storage as `[from, to]` byte pairs, for the bulk writer.
    ///
    /// # Safety
    /// Every pair written must hold two squares below 72 (a [`Square`]'s invariant).
    #[inline(always)]
    pub(crate) unsafe fn as_pairs_mut(&mut self) -> &mut [[u8; 2]; MoveList::CAPACITY] {
        const _: () = assert!(core::mem::size_of::<Move>() == 2);
        const _: () = assert!(core::mem::align_of::<Move>() == 1);
        // SAFETY: `Move` is `repr(C)` of two `repr(transparent)` `u8` squares, `from` first:
        // the same size, alignment and layout as `[u8; 2]`; the caller writes only valid
        // squares.
        unsafe {
            &mut *self
                .moves
                .as_mut_ptr()
                .cast::<[[u8; 2]; MoveList::CAPACITY]>()
        }
    }

    /// Sets the number of moves (at most [`MoveList::CAPACITY`]).
    #[inline(always)]
    pub(crate) fn set_len(&mut self, len: usize) {
        self.len = len.min(MoveList::CAPACITY) as u8;
    }

    /// The moves as a slice.
    #[inline]
    #[must_use]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];

    #[inline]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl PartialEq for MoveList {
    fn eq(&self, other: &MoveList) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for MoveList {}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// An iterator over the moves of a [`MoveList`], by value.
#[derive(Debug, Clone)]
pub struct IntoIter {
    list: MoveList,
    next: u8,
}

impl Iterator for IntoIter {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        let mv = self.list.as_slice().get(self.next as usize).copied()?;
        self.next += 1;
        Some(mv)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.list.len - self.next) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for IntoIter {}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = IntoIter;

    fn into_iter(self) -> IntoIter {
        IntoIter {
            list: self,
            next: 0,
        }
    }
}
