//! The error for a number or word from a caller that is not the value it stands for.

use crate::prelude::*;
use thiserror::Error;

use crate::error_kind::{ErrorKind, engine_error};

/// A number from a caller that is not the value it stands for. The message says what was
/// given and what is accepted.
///
/// # Examples
/// ```
/// use salpakan::{Side, Square};
/// use salpakan::bindings::{ErrorKind, ValueError};
///
/// assert_eq!(Side::from_number(1), Ok(Side::Black));
/// assert_eq!(Side::from_number(2), Err(ValueError::Side(2)));
/// assert_eq!(Square::from_number(72).unwrap_err().to_string(), "square 72: it must be 0..72");
/// assert_eq!(ValueError::Side(2).kind(), ErrorKind::Argument);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ValueError {
    /// Not a side's number.
    #[error("side {0}: it must be 0 (White) or 1 (Black)")]
    Side(i64),
    /// Not a square's number.
    #[error("square {0}: it must be 0..72")]
    Square(i64),
    /// Not a rank's number.
    #[error("rank {0}: it must be 0..15")]
    Rank(i64),
    /// Not an action id.
    #[error("action {0}: action ids are 0..288")]
    Action(i64),
    /// An action id whose step leaves the board: an illegal move in every position.
    #[error("action {0}: its step leaves the board")]
    ActionOffBoard(u16),
    /// Not the word of one of the crate's players.
    #[error("agent {0:?}: it must be \"random\", \"greedy\" or \"ismcts\"")]
    AgentKind(String),
    /// Not the word of one of the crate's bots.
    #[error(
        "bot {0:?}: it must be \"random\", \"greedy\", \"ismcts\" or \"level-1\" to \"level-8\""
    )]
    Bot(String),
    /// Not a level of the ladder.
    #[error("level {0}: it must be 1 to 8")]
    Level(i64),
    /// Not the name of a built-in formation (or its power not finite and >= 0).
    #[error(
        "formation {0:?}: it must be \"uniform\" or \"classic\", tempered or not (\"classic^0.5\": a power >= 0)"
    )]
    Formation(String),
    /// Not the number of one of the crate's players.
    #[error("agent kind {0}: it must be 0 (random), 1 (greedy) or 2 (ismcts)")]
    AgentNumber(i64),
}

impl ValueError {
    /// Its kind: [`ErrorKind::IllegalMove`] for an action whose step leaves the board, else
    /// [`ErrorKind::Argument`].
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        match self {
            ValueError::ActionOffBoard(_) => ErrorKind::IllegalMove,
            _ => ErrorKind::Argument,
        }
    }
}

engine_error!(ValueError);
