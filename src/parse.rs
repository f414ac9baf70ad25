//! Errors from parsing the small value types (squares, ranks, moves, sides, statuses).

use crate::prelude::*;
use thiserror::Error;

use crate::error_kind::{ErrorKind, engine_error};

/// A string that is not a valid square, rank code, move, side or status.
///
/// The message names the text that was given and what was expected instead.
///
/// # Examples
/// ```
/// use salpakan::Square;
/// use salpakan::text::ParseError;
///
/// let err = "j9".parse::<Square>().unwrap_err();
/// assert_eq!(err, ParseError::Square("j9".into()));
/// assert!(err.to_string().contains("a file a-i then a row 1-8"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    /// Not a square name.
    #[error("invalid square {0:?}: expected a file a-i then a row 1-8, like \"e4\"")]
    Square(String),
    /// Not a rank code.
    #[error(
        "invalid rank {0:?}: expected one of 5G 4G 3G 2G 1G CO LC MJ CP 1L 2L SG PV FL SP (either case)"
    )]
    Rank(String),
    /// Not a move.
    #[error("invalid move {0:?}: expected two squares joined by '-' or 'x', like \"e3-e4\"")]
    Move(String),
    /// Not a piece id.
    #[error("invalid piece id {0:?}: expected 0..42")]
    Piece(String),
    /// Not a side.
    #[error("invalid side {0:?}: expected \"white\" or \"black\"")]
    Side(String),
    /// Not a status token.
    #[error(
        "invalid status {0:?}: expected \"-\", \"white:\" or \"black:\" and flag-captured, flag-reached-end, resignation, time or abandoned, or \"draw:\" and agreement or move-limit"
    )]
    Status(String),
    /// Not an outcome's word.
    #[error("invalid outcome {0:?}: expected \"win\", \"lose\" or \"tie\"")]
    Outcome(String),
}

impl ParseError {
    /// Its kind: [`ErrorKind::Text`] for a move's notation or a status token (texts a
    /// caller hands over to be read), [`ErrorKind::Argument`] for a value given by its word
    /// (a square, rank, piece id, side or outcome).
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        match self {
            ParseError::Move(_) | ParseError::Status(_) => ErrorKind::Text,
            ParseError::Square(_)
            | ParseError::Rank(_)
            | ParseError::Piece(_)
            | ParseError::Side(_)
            | ParseError::Outcome(_) => ErrorKind::Argument,
        }
    }
}

engine_error!(ParseError);
