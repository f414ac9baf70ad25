//! A set of squares as the low 72 bits of a `u128`.

use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::select::{Broadword, Select};
use crate::square::{Direction, Square};

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
/// # Ok::<_, salpakan::text::ParseError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bitboard(u128);

impl core::fmt::Debug for Bitboard {
    /// The board as a grid, row 8 first, `X` for a square in the set and `.` for one outside:
    /// rows separated by `/` on one line, or one row per line with `{:#?}`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Bitboard(")?;
        for row in (0..Square::ROWS).rev() {
            if f.alternate() {
                f.write_str("\n    ")?;
            } else if row != Square::ROWS - 1 {
                f.write_str("/")?;
            }
            for file in 0..Square::FILES {
                let on = Square::from_coords(file, row).is_some_and(|s| self.has(s));
                f.write_str(if on { "X" } else { "." })?;
            }
        }
        f.write_str(if f.alternate() { "\n)" } else { ")" })
    }
}

const fn file_mask(file: u8) -> u128 {
    let mut mask = 0u128;
    let mut row = 0;
    while row < 8 {
        mask |= 1u128 << (row * Square::FILES + file);
        row += 1;
    }
    mask
}

/// The one-square sets, looked up rather than shifted (a variable `u128` shift is several
/// instructions on 64-bit machines).
const SINGLE: [Bitboard; Square::NUM] = {
    let mut table = [Bitboard(0); Square::NUM];
    let mut i = 0;
    while i < Square::NUM {
        table[i] = Bitboard(1u128 << i);
        i += 1;
    }
    table
};

const fn row_mask(row: u8) -> u128 {
    0x1ffu128 << (row * Square::FILES)
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
    #[must_use]
    pub const fn from_bits(bits: u128) -> Bitboard {
        Bitboard(bits & Bitboard::FULL.0)
    }

    /// The set's bits: bit `i` is square index `i`.
    #[inline]
    #[must_use]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// The squares of rows `from..to` (0-based, `to` exclusive).
    #[inline]
    #[must_use]
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
    #[must_use]
    pub const fn from_square(square: Square) -> Bitboard {
        SINGLE[square.index()]
    }

    /// Whether `square` is in the set.
    #[inline]
    #[must_use]
    pub const fn has(self, square: Square) -> bool {
        let i = square.index();
        // The word that holds the square, then its bit: cheaper than a 128-bit shift.
        let word = if i < 64 {
            self.0 as u64
        } else {
            (self.0 >> 64) as u64
        };
        word >> (i % 64) & 1 != 0
    }

    /// Whether the set is empty.
    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of squares in the set.
    #[inline]
    #[must_use]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The squares of `self` that are not in `other`.
    #[inline(always)]
    #[must_use]
    pub const fn and_not(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    /// The set with `square` added.
    #[inline]
    #[must_use]
    pub const fn with(self, square: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << square.index())
    }

    /// The set with `square` removed.
    #[inline]
    #[must_use]
    pub const fn without(self, square: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << square.index()))
    }

    /// Calls `f` on every square of the set in index order. Faster than the iterator in hot
    /// loops: each 64-bit half is walked on its own, so every step is one 64-bit operation.
    #[inline(always)]
    pub fn for_each(self, mut f: impl FnMut(Square)) {
        let mut low = self.0 as u64;
        while low != 0 {
            f(Square::clamped(low.trailing_zeros() as u8));
            low &= low - 1;
        }
        let mut high = (self.0 >> 64) as u64;
        while high != 0 {
            f(Square::clamped(64 + high.trailing_zeros() as u8));
            high &= high - 1;
        }
    }

    /// The lowest square of the set, if any.
    #[inline]
    #[must_use]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::clamped(self.0.trailing_zeros() as u8))
        }
    }

    /// The `n`-th square of the set in index order (0-based), found without branches; `n` must
    /// be below [`Bitboard::len`], otherwise the result is some square of the board.
    #[inline(always)]
    #[must_use]
    pub fn nth_square(self, n: u32) -> Square {
        self.nth_square_with(n, Broadword)
    }

    /// [`Bitboard::nth_square`] with a chosen way to find the `k`-th bit of a word.
    #[inline(always)]
    pub(crate) fn nth_square_with(self, n: u32, select: impl Select) -> Square {
        let low = self.0 as u64;
        let low_count = low.count_ones();
        let high = n >= low_count;
        let word = if high { (self.0 >> 64) as u64 } else { low };
        let n = if high { n - low_count } else { n };
        let index = select.select64(word, n) + if high { 64 } else { 0 };
        Square::clamped(index as u8)
    }

    /// Every square moved one step in `direction`; squares that would leave the board (or wrap
    /// from file `i` to file `a` and back) are dropped.
    #[inline]
    #[must_use]
    pub const fn shift(self, direction: Direction) -> Bitboard {
        match direction {
            Direction::Up => Bitboard((self.0 << Square::FILES) & Bitboard::FULL.0),
            Direction::Down => Bitboard(self.0 >> Square::FILES),
            Direction::Left => Bitboard((self.0 & !Bitboard::FILE_A.0) >> 1),
            Direction::Right => Bitboard((self.0 & !Bitboard::FILE_I.0) << 1),
        }
    }

    /// The squares orthogonally adjacent to some square of the set.
    #[inline]
    #[must_use]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_square_walks_the_set_in_order() {
        let bb = Bitboard::from_bits(0xff_8000_0000_0000_0001 | 1 << 40);
        let squares: Vec<Square> = bb.collect();
        for (n, square) in squares.iter().enumerate() {
            assert_eq!(bb.nth_square(n as u32), *square);
        }
        assert_eq!(Bitboard::FULL.nth_square(71).index(), 71);
    }
}
