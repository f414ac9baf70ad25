//! A move's notation: `e3-e4`, and `e4xe5` for a challenge where the board is known (the
//! game record's form).

use crate::prelude::*;
use core::fmt;
use core::str::FromStr;

use crate::movegen::Move;
use crate::parse::ParseError;
use crate::position::Position;

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

impl FromStr for Move {
    type Err = ParseError;

    /// Parses `e3-e4` or `e3xe4`.
    fn from_str(s: &str) -> Result<Move, ParseError> {
        let err = || ParseError::Move(s.to_owned());
        let (from, to) = s
            .split_once('-')
            .or_else(|| s.split_once('x'))
            .ok_or_else(err)?;
        Ok(Move {
            from: from.parse().map_err(|_| err())?,
            to: to.parse().map_err(|_| err())?,
        })
    }
}

impl Position {
    /// The move as the record writes it on this position: `e4xe5` when an enemy piece stands
    /// on the target (a challenge), `e3-e4` otherwise. ([`Move`]'s own `Display` always writes
    /// `-`: a move alone cannot know what stands on its target.)
    ///
    /// ```
    /// # use salpakan::{Position, Rules, Setup, Side};
    /// # let rules = Rules::default();
    /// # let pos = Position::new(&Setup::random(Side::White, rules, 1),
    /// #     &Setup::random(Side::Black, rules, 2), Side::White, rules)?;
    /// let mv = pos.legal_moves()[0];
    /// assert_eq!(pos.move_text(mv), mv.to_string()); // no contact yet: a plain move
    /// # Ok::<_, salpakan::SetupError>(())
    /// ```
    #[must_use]
    pub fn move_text(&self, mv: Move) -> String {
        let enemy = self.side_to_move().other();
        let sep = if self.occupied(enemy).has(mv.to) {
            'x'
        } else {
            '-'
        };
        format!("{}{sep}{}", mv.from, mv.to)
    }

    /// Reads a move written on this position: as [`Move`]'s `FromStr`, and refused when its
    /// marker contradicts the board: `x` (a challenge) onto a square no enemy piece holds, or
    /// `-` onto an enemy piece. Legality is still [`Position::play`]'s to check.
    ///
    /// ```
    /// # use salpakan::{Position, Rules, Setup, Side};
    /// # let rules = Rules::default();
    /// # let pos = Position::new(&Setup::random(Side::White, rules, 1),
    /// #     &Setup::random(Side::Black, rules, 2), Side::White, rules)?;
    /// let mv = pos.legal_moves()[0];
    /// assert_eq!(pos.parse_move(&mv.to_string())?, mv);
    /// let marked = format!("{}x{}", mv.from, mv.to); // no enemy stands there
    /// assert!(pos.parse_move(&marked).is_err());
    /// assert!(marked.parse::<salpakan::Move>().is_ok()); // a move alone cannot know
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`ParseError::Move`] for text that is not a move or whose marker is wrong here.
    pub fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        let mv: Move = text.parse()?;
        let marked = text.contains('x');
        let challenge = self.occupied(self.side_to_move().other()).has(mv.to);
        if marked != challenge {
            return Err(ParseError::Move(text.to_owned()));
        }
        Ok(mv)
    }
}
