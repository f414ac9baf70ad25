//! What a tournament may hold and why a change is refused: the bounds every tournament
//! keeps to, and its one error type, below the settings and the tournament that use them.

use thiserror::Error;

/// The most lines a tournament's log keeps (the oldest go first, the first line stays).
pub(crate) const MAX_LOG: usize = 2_000;

/// The most entrants a tournament may take.
pub(crate) const MAX_ENTRANTS: u32 = 256;

/// How many times a player who withdrew from a tournament may register in it again.
pub(crate) const MAX_RETURNS: u32 = 3;

/// How long an upcoming tournament waits to be started before it expires: a day.
pub(crate) const START_WITHIN_MS: u64 = 24 * 3_600_000;

/// How long an upcoming tournament with no entrant but its directors waits before it
/// expires: an hour.
pub(crate) const EMPTY_WITHIN_MS: u64 = 3_600_000;

/// The longest reason a director gives for a decision, in characters.
pub(crate) const MAX_REASON: usize = 200;

/// The most directors a tournament may name.
pub(crate) const MAX_DIRECTORS: usize = 8;

/// A change refused; nothing changed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TournamentError {
    /// A setting out of range.
    #[error("{0}")]
    Invalid(String),
    /// Not one of its directors.
    #[error("only a director of this tournament may do that")]
    NotDirector,
    /// Not now: the tournament's state does not allow it.
    #[error("{0}")]
    WrongState(String),
    /// The player may not register.
    #[error("{0}")]
    NotEligible(String),
    /// No such round or board.
    #[error("no such round or board")]
    NoBoard,
    /// A director deciding a board it plays.
    #[error("a director does not decide a board it plays: another director decides it")]
    OwnBoard,
}

impl TournamentError {
    /// A setting out of range, saying which.
    pub(super) fn invalid(text: impl Into<String>) -> TournamentError {
        TournamentError::Invalid(text.into())
    }
}
