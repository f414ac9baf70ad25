//! The setup text: a side's pieces as `code:square` words, `"FL:a1 PV:b1 …"`, upper-case codes
//! for White and lower-case for Black. Records, serde and `Debug` all print and read it here.

use crate::prelude::*;
use core::fmt;
use core::str::FromStr;

use crate::rank::Rank;
use crate::rules::Rules;
use crate::setup::Setup;
use crate::side::Side;
use crate::square::Square;

use super::{TextError, words};

impl fmt::Display for Setup {
    /// The setup text, pieces in square order: `"FL:a1 PV:b1 …"` (lower case for Black).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = self.side();
        for (i, (square, rank)) in self.pieces().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}:{square}", rank.code_for(side))?;
        }
        Ok(())
    }
}

impl fmt::Debug for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Setup")
            .field("side", &self.side())
            .field("pieces", &format_args!("{self}"))
            .finish()
    }
}

impl FromStr for Setup {
    type Err = TextError;

    /// Reads a setup text. The side follows from the case of the codes; the zone checked is
    /// the widest (4 rows): a game checks its own rules' zone again.
    ///
    /// ```
    /// use salpakan::{Rules, Setup, Side};
    /// let setup = Setup::random(Side::Black, Rules::default(), 7);
    /// assert_eq!(setup.to_string().parse::<Setup>()?, setup);
    /// assert!(setup.to_string().starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit()));
    /// # Ok::<_, salpakan::text::TextError>(())
    /// ```
    fn from_str(text: &str) -> Result<Setup, TextError> {
        let widest = Rules::new(4, 0).unwrap_or(Rules::OFFICIAL);
        parse_setup(text, None, widest, 1, 1)
    }
}

/// Reads a setup text found at `line` and `column` (for errors). With `side` given, the codes
/// must be that side's; without, the first code's case decides.
pub(crate) fn parse_setup(
    text: &str,
    side: Option<Side>,
    rules: Rules,
    line: usize,
    column: usize,
) -> Result<Setup, TextError> {
    let mut side = side;
    let mut pieces = Vec::new();
    for word in words(text) {
        let at = column + word.column - 1;
        let example = Rank::Private.code_for(side.unwrap_or(Side::White));
        let bad = || {
            TextError::new(
                line,
                at,
                format!("a piece such as \"{example}:a1\" (rank code, ':', square)"),
                word.quoted(),
            )
        };
        let (code, square) = word.text.split_once(':').ok_or_else(bad)?;
        let (rank, written) = Rank::parse_with_side(code).map_err(|_| bad())?;
        let expected = *side.get_or_insert(written);
        if written != expected {
            let case = match expected {
                Side::White => "upper",
                Side::Black => "lower",
            };
            return Err(TextError::new(
                line,
                at,
                format!("{expected}'s rank codes ({case} case)"),
                word.quoted(),
            ));
        }
        let square: Square = square.parse().map_err(|_| bad())?;
        pieces.push((square, rank));
    }
    let Some(side) = side else {
        return Err(TextError::new(
            line,
            column,
            "a setup: 21 pieces such as \"FL:a1\"",
            "no piece",
        ));
    };
    Setup::new(side, rules, pieces)
        .map_err(|e| TextError::new(line, column, format!("a valid {side} setup"), e))
}
