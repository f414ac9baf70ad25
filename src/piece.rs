//! Stable piece identities.

use crate::prelude::*;
use core::fmt;

use crate::arbiter::Outcome;
use crate::bitboard::Bitboard;
use crate::movegen::Move;
use crate::parse::ParseError;
use crate::rank::Rank;
use crate::side::Side;
use crate::square::Square;

/// A piece's identity for the whole game: `side * 21 + n`, where `n` numbers the side's pieces
/// in the order of their starting squares (lowest square index first). Both sides can compute
/// every id from the start position alone (where the pieces stand is public), so a side can
/// follow an enemy piece across moves without knowing its rank.
///
/// # Examples
/// ```
/// use salpakan::{PieceId, Side};
///
/// let id = PieceId::new(Side::Black, 3).unwrap();
/// assert_eq!(id.index(), 24);
/// assert_eq!((id.side(), id.number()), (Side::Black, 3));
/// assert!(PieceId::new(Side::White, 21).is_none());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "u8", into = "u8"))]
pub struct PieceId(u8);

impl PieceId {
    /// The number of ids: 42.
    pub const NUM: usize = 2 * Rank::ARMY_SIZE;

    /// The id of `side`'s `number`-th piece (0..21), or `None` if `number >= 21`.
    #[inline]
    #[must_use]
    pub const fn new(side: Side, number: usize) -> Option<PieceId> {
        if number < Rank::ARMY_SIZE {
            Some(PieceId((side as usize * Rank::ARMY_SIZE + number) as u8))
        } else {
            None
        }
    }

    /// The id with this index (0..42), or `None`.
    #[inline]
    #[must_use]
    pub const fn try_index(index: usize) -> Option<PieceId> {
        if index < Self::NUM {
            Some(PieceId(index as u8))
        } else {
            None
        }
    }

    /// The index, 0..42.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The side the piece belongs to.
    #[inline]
    #[must_use]
    pub const fn side(self) -> Side {
        if (self.0 as usize) < Rank::ARMY_SIZE {
            Side::White
        } else {
            Side::Black
        }
    }

    /// The piece's number within its side, 0..21.
    #[inline]
    #[must_use]
    pub const fn number(self) -> usize {
        self.0 as usize % Rank::ARMY_SIZE
    }
}

impl fmt::Debug for PieceId {
    /// The id as `Display` writes it (`W3`, `B20`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for PieceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = match self.side() {
            Side::White => 'W',
            Side::Black => 'B',
        };
        write!(f, "{side}{}", self.number())
    }
}

impl From<PieceId> for u8 {
    fn from(id: PieceId) -> u8 {
        id.0
    }
}

impl TryFrom<u8> for PieceId {
    type Error = ParseError;

    fn try_from(index: u8) -> Result<PieceId, Self::Error> {
        PieceId::try_index(usize::from(index)).ok_or_else(|| ParseError::Piece(index.to_string()))
    }
}

/// The id board at the start: each side's pieces numbered in square order.
pub(crate) fn initial_ids(white: Bitboard, black: Bitboard) -> IdBoard {
    let mut ids = [None; Square::NUM];
    for (side, squares) in [(Side::White, white), (Side::Black, black)] {
        for (number, square) in squares.enumerate() {
            ids[square.index()] = PieceId::new(side, number);
        }
    }
    ids
}

/// Which piece stands on each square.
pub(crate) type IdBoard = [Option<PieceId>; Square::NUM];

/// Moves the ids on the board as the arbiter moved the pieces: a plain move or a won challenge
/// moves the attacker; a lost challenge removes it; a tie removes both.
pub(crate) fn move_ids(ids: &mut IdBoard, mv: Move, outcome: Option<Outcome>) {
    let attacker = ids[mv.from.index()].take();
    match outcome {
        None | Some(Outcome::Win) => ids[mv.to.index()] = attacker,
        Some(Outcome::Lose) => {}
        Some(Outcome::Tie) => ids[mv.to.index()] = None,
    }
}
