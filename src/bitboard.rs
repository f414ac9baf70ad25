//! A set of squares as the low 72 bits of a `u128`.

use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::square::{Direction, FILES, Square};

/// A set of squares: bit `i` is square index `i`. Bits 72..128 are always clear.
///
/// # Examples
/// ```
/// use salpakan::{Bitboard, Direction, Square};
///
/// let a1 = Square::try_index(0).unwrap();
/// let i3: Square = "i3".parse()?;
/// let bb = Bitboard::from_square(a1) | Bitboard::from_square(i3);
/// assert_eq!(bb.len(), 2);
/// // Shifting right drops i3 (no wrap to a4) and moves a1 to b1.
/// assert_eq!(bb.shift(Direction::Right), Bitboard::from_square("b1".parse()?));
/// # Ok::<_, salpakan::ParseError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(u128);

const fn file_mask(file: u8) -> u128 {
    let mut mask = 0u128;
    let mut row = 0;
    while row < 8 {
        mask |= 1u128 << (row * FILES + file);
        row += 1;
    }
    mask
}

const fn row_mask(row: u8) -> u128 {
    0x1ffu128 << (row * FILES)
}

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 72 squares.
    pub const FULL: Bitboard = Bitboard((1u128 << 72) - 1);
    /// File `a`.
    pub const FILE_A: Bitboard = Bitboard(file_mask(0));
    /// File `i`.
    pub const FILE_I: Bitboard = Bitboard(file_mask(8));

    /// The set with these bits; bits 72 and above are dropped.
    #[inline]
    pub const fn from_bits(bits: u128) -> Bitboard {
        Bitboard(bits & Bitboard::FULL.0)
    }

    /// The set's bits: bit `i` is square index `i`.
    #[inline]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// The squares of one row, 0 (row 1) to 7 (row 8). Rows past 7 give the empty set.
    #[inline]
    pub const fn row(row: u8) -> Bitboard {
        if row < 8 {
            Bitboard(row_mask(row))
        } else {
            Bitboard::EMPTY
        }
    }

    /// The squares of rows `from..to` (0-based, `to` exclusive).
    #[inline]
    pub const fn rows(from: u8, to: u8) -> Bitboard {
        let mut bb = 0;
        let mut r = from;
        while r < to && r < 8 {
            bb |= row_mask(r);
            r += 1;
        }
        Bitboard(bb)
    }

    /// The set holding only `square`.
    #[inline]
    pub const fn from_square(square: Square) -> Bitboard {
        Bitboard(1u128 << square.index())
    }

    /// Whether `square` is in the set.
    #[inline]
    pub const fn has(self, square: Square) -> bool {
        self.0 >> square.index() & 1 != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of squares in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The set with `square` added.
    #[inline]
    pub const fn with(self, square: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << square.index())
    }

    /// The set with `square` removed.
    #[inline]
    pub const fn without(self, square: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << square.index()))
    }

    /// The lowest square of the set, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// Every square moved one step in `direction`; squares that would leave the board (or wrap
    /// from file `i` to file `a` and back) are dropped.
    #[inline]
    pub const fn shift(self, direction: Direction) -> Bitboard {
        match direction {
            Direction::Up => Bitboard((self.0 << FILES) & Bitboard::FULL.0),
            Direction::Down => Bitboard(self.0 >> FILES),
            Direction::Left => Bitboard((self.0 & !Bitboard::FILE_A.0) >> 1),
            Direction::Right => Bitboard((self.0 & !Bitboard::FILE_I.0) << 1),
        }
    }

    /// The squares orthogonally adjacent to some square of the set.
    #[inline]
    pub const fn neighbours(self) -> Bitboard {
        Bitboard(
            self.shift(Direction::Up).0
                | self.shift(Direction::Down).0
                | self.shift(Direction::Left).0
                | self.shift(Direction::Right).0,
        )
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let square = self.first()?;
        self.0 &= self.0 - 1;
        Some(square)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

macro_rules! bit_op {
    ($trait:ident, $fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_fn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}
