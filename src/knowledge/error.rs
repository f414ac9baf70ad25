//! Why a public event or a request does not fit what one side knows.

use thiserror::Error;

use crate::error_kind::{ErrorKind, engine_error};

use crate::movegen::Move;
use crate::status::Status;

/// A public event that does not fit the game as the tracker knows it. Messages name only
/// public facts (the ply, the move, the reported status).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ObserveError {
    /// There is no start to follow: the enemy's squares are not 21 squares of its setup zone
    /// apart from the tracking side's pieces, or the game started from a position (without
    /// setups and the history before it, no side's knowledge can be known).
    #[error("invalid start: {0}")]
    Start(String),
    /// The game has already ended.
    #[error("the game is over ({status})")]
    GameOver {
        /// How it ended.
        status: Status,
    },
    /// The move cannot have been played.
    #[error("ply {ply}: {mv} is not a legal move here: {why}")]
    IllegalMove {
        /// The ply number (1-based).
        ply: usize,
        /// The move.
        mv: Move,
        /// What is wrong.
        why: &'static str,
    },
    /// No assignment of the enemy's ranks fits the facts as a whole, or beliefs do not belong
    /// to the game they are used with.
    #[error("no rank assignment fits: {why}")]
    NoFit {
        /// What does not fit.
        why: &'static str,
    },
    /// A status given as the end of the game is not an end no move makes (a resignation, an
    /// agreed draw, a loss on time, an abandonment).
    #[error(
        "{status} is not an end that no move makes (resignation, agreement, time, abandonment)"
    )]
    NotAnEnd {
        /// The status given.
        status: Status,
    },
    /// The reported outcome or status cannot follow from any assignment of enemy ranks.
    #[error("ply {ply}: {mv} reported as {reported}: {why}")]
    Inconsistent {
        /// The ply number (1-based).
        ply: usize,
        /// The move.
        mv: Move,
        /// The reported status.
        reported: Status,
        /// What contradicts it.
        why: &'static str,
    },
}

impl ObserveError {
    /// Its kind: [`ErrorKind::GameOver`] for a report after the end, else
    /// [`ErrorKind::Observe`].
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        match self {
            ObserveError::GameOver { .. } => ErrorKind::GameOver,
            _ => ErrorKind::Observe,
        }
    }
}

engine_error!(ObserveError);
