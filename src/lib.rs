#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_op_in_unsafe_fn)]

mod arbiter;
mod bitboard;
mod game;
mod movegen;
mod parse;
mod position;
mod rank;
mod rng;
mod rules;
mod setup;
mod side;
mod square;
mod status;
mod view;

pub use arbiter::{Outcome, challenge};
pub use bitboard::Bitboard;
pub use game::Game;
pub use movegen::{IntoIter as MoveListIntoIter, MAX_MOVES, Move, MoveList};
pub use parse::ParseError;
pub use position::{MoveError, Position, Report};
pub use rank::{ARMY_SIZE, Rank};
pub use rng::SplitMix64;
pub use rules::{Rules, RulesError};
pub use setup::{Setup, SetupError};
pub use side::Side;
pub use square::{Direction, FILES, ROWS, Square};
pub use status::{DrawReason, Status, WinReason};
pub use view::{View, ViewCell};
