//! Squares of the 9 × 8 board and the four directions a piece can move in.

use crate::prelude::*;
use core::fmt;
use core::str::FromStr;

use crate::parse::ParseError;
use crate::value_error::ValueError;

/// A square of the board: index `(row - 1) * 9 + file`, so `a1` = 0, `i1` = 8, `a2` = 9,
/// `i8` = 71. This numbering is part of the C ABI and of every text format.
///
/// # Examples
/// ```
/// use salpakan::{Direction, Square};
///
/// let e4: Square = "e4".parse()?;
/// assert_eq!(e4.index(), 31);
/// assert_eq!((e4.file(), e4.row()), (4, 3));
/// assert_eq!(e4.offset(Direction::Up), Some("e5".parse()?));
/// assert_eq!("i3".parse::<Square>()?.offset(Direction::Right), None); // no wrap to a4
/// assert_eq!(Square::try_index(72), None);
/// # Ok::<_, salpakan::text::ParseError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "u8", into = "u8"))]
#[repr(transparent)]
pub struct Square(u8);

impl Square {
    /// The number of squares.
    pub const NUM: usize = 72;
    /// The number of files, `a` to `i`.
    pub const FILES: u8 = 9;
    /// The number of rows, 1 to 8.
    pub const ROWS: u8 = 8;

    /// Every square, in index order.
    pub const ALL: [Square; 72] = {
        let mut all = [Square(0); 72];
        let mut i = 0;
        while i < 72 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with this index, or `None` if `index >= 72`.
    #[inline]
    #[must_use]
    pub const fn try_index(index: usize) -> Option<Square> {
        if index < Self::NUM {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square with number `value` (`(row - 1) * 9 + file`: a1 = 0 … i8 = 71), as a
    /// binding reads it from a foreign caller.
    ///
    /// # Errors
    /// [`ValueError::Square`] for any other number.
    pub fn from_number(value: i64) -> Result<Square, ValueError> {
        usize::try_from(value)
            .ok()
            .and_then(Square::try_index)
            .ok_or(ValueError::Square(value))
    }

    /// The square on `file` (0 = `a` … 8 = `i`) and `row` (0 = row 1 … 7 = row 8), or `None`
    /// if either is off the board.
    #[inline]
    #[must_use]
    pub const fn from_coords(file: u8, row: u8) -> Option<Square> {
        if file < Square::FILES && row < Square::ROWS {
            Some(Square(row * Square::FILES + file))
        } else {
            None
        }
    }

    /// The square for an index the caller knows is below 72 (an index above 71 becomes 71, so
    /// the invariant that [`Square::index`] relies on holds for every input).
    #[inline(always)]
    pub(crate) const fn clamped(index: u8) -> Square {
        debug_assert!(index < 72);
        Square(if index < 72 { index } else { 71 })
    }

    /// The index of the square, 0..=71.
    #[inline(always)]
    #[must_use]
    pub const fn index(self) -> usize {
        // SAFETY: every constructor of `Square` checks or clamps its index to below 72, so this
        // holds for every value. Telling the compiler lets it
        // drop the bounds checks on the 72-entry tables indexed by square.
        unsafe { core::hint::assert_unchecked(self.0 < 72) };
        self.0 as usize
    }

    /// The file, 0 (`a`) to 8 (`i`).
    #[inline]
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 % Square::FILES
    }

    /// The row, 0 (row `1`) to 7 (row `8`).
    #[inline]
    #[must_use]
    pub const fn row(self) -> u8 {
        self.0 / Square::FILES
    }

    /// The neighbouring square in `direction`, or `None` at the edge of the board.
    #[inline]
    #[must_use]
    pub const fn offset(self, direction: Direction) -> Option<Square> {
        let (file, row) = (self.file() as i8, self.row() as i8);
        let (df, dr) = direction.delta();
        let (f, r) = (file + df, row + dr);
        if f < 0 || r < 0 {
            None
        } else {
            Square::from_coords(f as u8, r as u8)
        }
    }

    /// Whether `other` is orthogonally adjacent to `self` (one row or one file apart, not
    /// both).
    ///
    /// ```
    /// # use salpakan::Square;
    /// let sq = |s: &str| s.parse::<Square>().unwrap();
    /// assert!(sq("e4").is_adjacent(sq("e5")) && sq("e4").is_adjacent(sq("d4")));
    /// assert!(!sq("e4").is_adjacent(sq("f5")) && !sq("e4").is_adjacent(sq("e4")));
    /// // i3 and a4 are neighbours in index order only.
    /// assert!(!sq("i3").is_adjacent(sq("a4")));
    /// ```
    #[inline]
    #[must_use]
    pub const fn is_adjacent(self, other: Square) -> bool {
        let step = self.0.abs_diff(other.0);
        // The lower of the two (their sum is below 144).
        let low = (self.0 + other.0 - step) / 2;
        // One row apart, or one file apart with the lower square not on file i.
        (step == Square::FILES) | ((step == 1) & (low % Square::FILES != Square::FILES - 1))
    }

    /// The direction from `self` to `other` if they are orthogonally adjacent.
    #[inline]
    #[must_use]
    pub fn direction_to(self, other: Square) -> Option<Direction> {
        Direction::ALL
            .into_iter()
            .find(|&d| self.offset(d) == Some(other))
    }
}

impl From<Square> for u8 {
    fn from(square: Square) -> u8 {
        square.0
    }
}

impl TryFrom<u8> for Square {
    type Error = ParseError;

    fn try_from(index: u8) -> Result<Square, ParseError> {
        Square::try_index(index as usize).ok_or_else(|| ParseError::Square(index.to_string()))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.row() + 1)
    }
}

impl fmt::Debug for Square {
    /// The square's name, as `Display` (`e4`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Square {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Square, ParseError> {
        match s.as_bytes() {
            &[file @ b'a'..=b'i', row @ b'1'..=b'8'] => {
                Ok(Square::from_coords(file - b'a', row - b'1').expect("checked ranges"))
            }
            _ => Err(ParseError::Square(s.to_owned())),
        }
    }
}

crate::enums::simple_enum! {
    /// One of the four orthogonal directions. The numeric values are those of the C ABI's action
    /// ids (`square * 4 + direction`).
    pub enum Direction {
        /// Towards row 8.
        Up = 0 => "up",
        /// Towards row 1.
        Down = 1 => "down",
        /// Towards file `a`.
        Left = 2 => "left",
        /// Towards file `i`.
        Right = 3 => "right",
    }
}

impl Direction {
    /// The opposite direction.
    #[inline]
    #[must_use]
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
            Direction::Left => Direction::Right,
            Direction::Right => Direction::Left,
        }
    }

    /// The (file, row) step of the direction.
    #[inline]
    #[must_use]
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::Up => (0, 1),
            Direction::Down => (0, -1),
            Direction::Left => (-1, 0),
            Direction::Right => (1, 0),
        }
    }

    /// The change in square index of one step in this direction.
    #[inline]
    #[must_use]
    pub const fn index_delta(self) -> i8 {
        let (df, dr) = self.delta();
        df + dr * Square::FILES as i8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;

    /// Adjacency by arithmetic agrees with the board's geometry for every pair of squares.
    #[test]
    fn adjacency_is_one_orthogonal_step() {
        let mut pairs = 0;
        for from in Square::ALL {
            for to in Square::ALL {
                let by_offset = Direction::ALL.iter().any(|&d| from.offset(d) == Some(to));
                assert_eq!(from.is_adjacent(to), by_offset, "{from} {to}");
                assert_eq!(
                    Bitboard::from_square(from).neighbours().has(to),
                    by_offset,
                    "{from} {to}"
                );
                pairs += usize::from(by_offset);
            }
        }
        // 8 rows of 8 horizontal pairs and 7 row gaps of 9 vertical pairs, both ways.
        assert_eq!(pairs, 2 * (8 * 8 + 7 * 9));
    }
}
