#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

/// cbindgen:ignore
mod agents;
/// cbindgen:ignore
mod arbiter;
/// cbindgen:ignore
mod bitboard;
/// cbindgen:ignore
mod enums;
/// cbindgen:ignore
mod game;
/// cbindgen:ignore
mod knowledge;
/// cbindgen:ignore
mod movegen;
/// cbindgen:ignore
mod notation;
/// cbindgen:ignore
mod parse;
/// cbindgen:ignore
mod piece;
/// cbindgen:ignore
mod position;
/// cbindgen:ignore
mod rank;
/// cbindgen:ignore
mod rng;
/// cbindgen:ignore
mod rules;
/// cbindgen:ignore
mod select;
/// cbindgen:ignore
mod setup;
/// cbindgen:ignore
mod side;
/// cbindgen:ignore
mod square;
/// cbindgen:ignore
mod status;
/// cbindgen:ignore
mod view;
/// cbindgen:ignore
mod zobrist;

/// The rules this crate implements, exactly: board and numbering, armies, setup, turn order,
/// the challenge table, every way a game ends, and perft (the text of `docs/RULES.md`).
pub mod rulebook {
    #![doc = include_str!("../docs/RULES.md")]
}

/// The C ABI (`include/salpakan.h`): for C callers, not for Rust code, so hidden from these
/// docs; the header documents every item.
#[doc(hidden)]
pub mod ffi;

pub use agents::{Agent, Greedy, Ismcts, Random};
pub use arbiter::{Outcome, challenge};
pub use bitboard::Bitboard;
pub use game::Game;
pub use knowledge::{
    Beliefs, Observation, ObserveError, Orientation, PieceBelief, RankSet, Tracker,
};
pub use movegen::{ActionMask, IntoIter as MoveListIntoIter, Move, MoveList};
pub use notation::{PositionText, TextCell, TextError};
pub use parse::ParseError;
pub use piece::PieceId;
pub use position::{MoveError, Playout, Position, Report};
pub use rank::Rank;
pub use rng::SplitMix64;
pub use rules::{Rules, RulesError};
pub use setup::{Setup, SetupError};
pub use side::Side;
pub use square::{Direction, Square};
pub use status::{DrawReason, Status, WinReason};
pub use view::{View, ViewCell};
