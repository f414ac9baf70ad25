#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

mod agents;
mod arbiter;
mod bitboard;
mod enums;
mod error_kind;
mod game;
mod knowledge;
mod movegen;
mod notation;
mod parse;
mod piece;
mod position;
mod rank;
mod rng;
mod rules;
mod select;
mod setup;
mod side;
mod square;
mod status;
mod value_error;
mod vecenv;
mod view;
mod zobrist;

pub mod evaluation;

/// The rules this crate implements, exactly: board and numbering, armies, setup, turn order,
/// the challenge table, every way a game ends, and perft (the text of `docs/RULES.md`).
pub mod rulebook {
    #![doc = include_str!("../docs/RULES.md")]
}

pub use agents::{Agent, AgentKind, ChooseError, Greedy, Ismcts, Random};
pub use arbiter::{Outcome, captures_flag, challenge};
pub use bitboard::Bitboard;
pub use error_kind::{EngineError, ErrorKind};
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
pub use setup::{CellsError, Setup, SetupError};
pub use side::Side;
pub use square::{Direction, Square};
pub use status::{DeclaredEnd, DrawReason, Status, WinReason};
pub use value_error::ValueError;
pub use vecenv::{Job, StepError, StepOutputs, StepResult, VecEnv};
pub use view::{PublicView, View, ViewCell};
