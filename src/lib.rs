//! A rules engine for **Game of the Generals** (Salpakan), the Filipino hidden-information war
//! game: exact rules, bitboard move generation, per-side views that never leak a hidden rank,
//! exact beliefs about every enemy piece, and engine players.
//!
//! - A [`Game`] is made from two [`Setup`]s (a formation each, checked against the [`Rules`]),
//!   the side that moves first, and the rules; [`Game::play`] returns a [`Report`] whose
//!   [`Outcome`] is all the arbiter says of a challenge: win, lose or tie, never a rank.
//! - What a side may know: [`Game::view`] (a [`View`]: its own ranks, the enemy's squares),
//!   [`Game::public_view`] (a spectator's [`PublicView`]), and a [`Tracker`] that keeps a
//!   side's knowledge from the reports alone, with exact [`Beliefs`] and samples; a
//!   [`Replay`] shows a finished game as each side knew it, ply by ply, with each
//!   challenge's [`Odds`] and each side's [`Luck`].
//! - Players: the [`Agent`]s [`Random`], [`Greedy`] and [`Ismcts`], and the ladder's
//!   [`Level`]s; [`training::VecEnv`] steps many games at once for learning (the workspace's
//!   `salpakan-evaluation` scores matches between them).
//! - Text: [`text::PositionText`], game records ([`Game::record`], [`Game::from_record`]),
//!   view text ([`View::to_text`]), each with errors that name the line and column; formation
//!   [`commitment`]s that let anyone check the arbiter from a record.
//! - For bindings: the kind of every error ([`bindings::ErrorKind`]), decided once for all.
//! - The exact rules are the [`rulebook`]. The repository's `README.md` and its `docs/`
//!   folder cover the C, Python and JavaScript bindings and the arbiter server.
//!
//! ```
//! use salpakan::{Game, Rules, Setup, Side, ViewCell};
//!
//! let rules = Rules::default(); // official: 3-row setup zone, no move limit
//! let mut game = Game::new(
//!     Setup::random(Side::White, rules, 1),
//!     Setup::random(Side::Black, rules, 2),
//!     Side::White,
//!     rules,
//! )?;
//! while game.status().is_ongoing() && game.history().len() < 200 {
//!     game.play(game.legal_moves()[0])?;
//! }
//! let view = game.view(Side::Black);
//! let hidden = view.cells().iter().filter(|c| matches!(c, ViewCell::Enemy { .. })).count();
//! assert_eq!(hidden, game.position().occupied(Side::White).len() as usize);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

// Without `std` the crate needs only an allocator: `Vec`, `String`, `Box` and the rest come
// from `alloc` (see `prelude.rs`).
extern crate alloc;

// The crate in layers, the lowest first: each module imports only from its own layer and
// those before it (`scripts/check-layers` holds it to that).
//
// Under everything: what the standard prelude gives that a `no_std` build imports from
// `alloc`, and which instructions this CPU offers (`x86_has!`).
#[macro_use]
mod cpu;
mod prelude;
// Values: squares, sides, ranks, bitboards, the one challenge table, rules, setups and
// statuses, and the small helpers under them.
mod arbiter;
mod bitboard;
mod enums;
mod error_kind;
mod parse;
mod rank;
mod rng;
mod rules;
mod select;
mod setup;
mod side;
mod square;
mod status;
mod value_error;
mod zobrist;
// Moves and positions: every move's generation, the pieces' identities, and the arbiter's
// full-information state (play, end rules, perft, playouts).
mod movegen;
mod piece;
mod position;
// A game and what each side may see: a position with rules, setups and history; a side's
// view and a spectator's.
mod game;
mod view;
// Knowledge: what one side knows from the reports alone (trackers, exact beliefs, samples,
// observations), and how people deploy (formations, and the exact sums under them).
#[cfg(feature = "std")]
mod knowledge;
// Agents: players that see only a tracker, the ladder's levels, and many games at once.
#[cfg(feature = "std")]
mod agents;
#[cfg(feature = "std")]
mod vecenv;
// Notation: every text form, printed and parsed in one place each; a record replayed as
// each side knew it; formations committed before the first move and checked from a record.
pub mod commitment;
mod notation;
#[cfg(feature = "std")]
mod replay;

/// Text forms beyond a value's own `Display` and `FromStr`: the position text (a whole
/// position, or as one side sees it), the version of every text and record, and what went
/// wrong reading one. A game record is read and written by [`Game::from_record`] and
/// [`Game::record`], a view's text by [`View::to_text`]; the grammar is `docs/TEXT.md`.
pub mod text {
    pub use crate::notation::{PositionText, TEXT_FORMAT, TextCell, TextError};
    pub use crate::parse::ParseError;
}

/// What every binding shares: the kind of each error (a C result code, a Python exception
/// class, a JavaScript error's `kind`), the errors of the engine's own values, and the error
/// of a value given as a number out of range.
pub mod bindings {
    pub use crate::error_kind::{EngineError, ErrorKind};
    pub use crate::value_error::ValueError;
}

/// Many games stepped at once for self-play training ([`training::VecEnv`]): each seen from
/// its side to move through that side's [`Tracker`], stepped by action ids, restarted when
/// it ends; its jobs run on the caller's threads.
#[cfg(feature = "std")]
pub mod training {
    pub use crate::vecenv::{Job, StepError, StepOutputs, StepResult, VecEnv};
}

/// The rules this crate implements, exactly: board and numbering, armies, setup, turn order,
/// the challenge table, every way a game ends, and perft (the text of `docs/RULES.md`).
pub mod rulebook {
    #![doc = include_str!("../docs/RULES.md")]
}

#[cfg(feature = "std")]
pub use agents::{Agent, AgentKind, Bot, ChooseError, Greedy, Ismcts, Level, Random};
pub use arbiter::{Outcome, captures_flag, challenge};
pub use bitboard::Bitboard;
pub use game::Game;
#[cfg(feature = "std")]
pub use knowledge::{
    Beliefs, Formation, FormationError, Observation, ObserveError, Orientation, PieceBelief,
    RankSet, Tracker,
};
pub use movegen::{ActionMask, IntoIter as MoveListIntoIter, Move, MoveList};
pub use piece::PieceId;
pub use position::{MoveError, Playout, Position, Report};
pub use rank::Rank;
#[cfg(feature = "std")]
pub use replay::{Luck, Odds, Replay, ReplayError, Walk};
pub use rng::SplitMix64;
pub use rules::{Rules, RulesError};
pub use setup::{CellsError, Setup, SetupError};
pub use side::Side;
pub use square::{Direction, Square};
pub use status::{DeclaredEnd, DrawReason, Status, WinReason};
pub use view::{PublicView, View, ViewCell};

/// The README's Rust example, run as a doctest (the README itself is written for the
/// repository's page, where its links to `docs/` resolve).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
