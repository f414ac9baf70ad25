//! The two sides of the game.

use crate::prelude::*;
use core::str::FromStr;

use crate::parse::ParseError;
use crate::value_error::ValueError;

crate::enums::simple_enum! {
    /// One of the two armies. The colours are only names: who moves first is chosen when a game
    /// is created (see [`crate::Game::new`]).
    ///
    /// The numeric values (`White` = 0, `Black` = 1) are part of the C ABI.
    ///
    /// # Examples
    /// ```
    /// use salpakan::Side;
    ///
    /// assert_eq!(Side::White.other(), Side::Black);
    /// assert_eq!("black".parse::<Side>()?, Side::Black);
    /// assert_eq!(Side::try_index(1), Some(Side::Black));
    /// # Ok::<_, salpakan::text::ParseError>(())
    /// ```
    pub enum Side {
        /// White: home row 1, far end row 8.
        White = 0 => "White",
        /// Black: home row 8, far end row 1.
        Black = 1 => "Black",
    }
    number_error = ValueError::Side
}

impl Side {
    /// The side's word as the bindings and the server write it: `"white"` or `"black"` (its
    /// `FromStr` reads these in any case, and `w`/`b`).
    #[must_use]
    pub const fn word(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }

    /// The other side.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// The side's home row, 0-based (row 1 for White, row 8 for Black).
    #[inline]
    #[must_use]
    pub const fn home_row(self) -> u8 {
        match self {
            Side::White => 0,
            Side::Black => 7,
        }
    }

    /// The row this side's Flag must reach to win, 0-based (row 8 for White, row 1 for Black).
    #[inline]
    #[must_use]
    pub const fn far_row(self) -> u8 {
        self.other().home_row()
    }
}

impl FromStr for Side {
    type Err = ParseError;

    /// Parses `white`/`black` (any case) or `w`/`b`.
    fn from_str(s: &str) -> Result<Side, ParseError> {
        match s.to_ascii_lowercase().as_str() {
            "white" | "w" => Ok(Side::White),
            "black" | "b" => Ok(Side::Black),
            _ => Err(ParseError::Side(s.to_owned())),
        }
    }
}
