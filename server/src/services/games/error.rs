//! Why the games service refused a request: one error for every operation of the games, each
//! variant given its contract code and HTTP status in `crate::refusals`.

use thiserror::Error;

use crate::services::quotas::QuotaError;
use crate::store::StoreError;
use crate::wire::{Code, Refusal};

/// Why the games service refused a request.
#[derive(Debug, Error)]
pub(crate) enum GameError {
    /// A body that is not the contract's, or values out of range: the refusal says which.
    #[error("{0}")]
    Invalid(Refusal),
    /// No such game, or not this invite: one reply for both.
    #[error("no such game, or not this invite")]
    NotFound,
    /// No such game or seat, for a socket: one reply for every wrong token.
    #[error("no such game or seat")]
    Unauthorized,
    /// The seat an invite opens is taken.
    #[error("the seat is taken")]
    SeatTaken,
    /// The record of a game that is not over.
    #[error("the game is not over")]
    NotOver,
    /// A rated game asked for, or joined, without a player's key.
    #[error("a player's key is needed, and this is not one")]
    BadKey,
    /// A player taking the second seat of a game whose first it holds.
    #[error("you hold the other seat of this game: the second seat is for another player")]
    OwnGame,
    /// A seat taken again in a finished game.
    #[error("the game is over")]
    GameOver,
    /// Past the open sockets of one seat.
    #[error("at most {0} sockets per client")]
    TooManySockets(usize),
    /// Past a seat's sockets opened in a minute.
    #[error("at most {0} new sockets a minute for a seat")]
    TooManyReconnects(usize),
    /// The server is draining: it makes no new game.
    #[error("the server is draining: it makes no new games; try again shortly")]
    Draining,
    /// The game moved to another node after the request reached this one.
    #[error("the game moved to another server; try again")]
    #[cfg(feature = "nodes")]
    Elsewhere(String),
    /// Past one of the address's limits.
    #[error(transparent)]
    Quota(#[from] QuotaError),
    /// The database failed (the cause is logged, never sent).
    #[error("the server could not do that")]
    Store(#[from] StoreError),
}

impl GameError {
    pub(super) fn invalid(code: Code, message: impl Into<String>) -> GameError {
        GameError::Invalid(Refusal::new(code, message))
    }
}
