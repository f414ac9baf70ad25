//! The npm package's WebAssembly module: a thin shell over the crate's API for JavaScript,
//! as `capi/` is for C. It converts values and errors through the crate's vocabulary (the
//! same readers and words the C ABI and the Python package use); every rule stays in the
//! crate.
//!
//! Sides are `"white"`/`"black"` (any case, or `"w"`/`"b"`, or 0/1), squares their names
//! (`"e4"`) or indices, moves their notation (`"e3-e4"`) or `{from, to}`. Errors are thrown
//! as `Error`s named `"SalpakanError"` whose `kind` is the crate's `ErrorKind` word
//! (`"argument"`, `"setup"`, `"illegal-move"`, `"game-over"`, `"text"`, `"observe"`,
//! `"commitment"`). The
//! TypeScript declarations (`types`) give every returned object its shape.

mod agents;
mod convert;
mod game;
mod replay;
mod rules;
mod setup;
mod tracker;
mod types;

pub use agents::{Greedy, Ismcts, Level, Random};
pub use game::Game;
pub use replay::Replay;
pub use rules::{
    captures_flag, challenge, constants, observation_shape, rank_code, rank_name, setup_zone,
    square_index, square_name,
};
pub use setup::Setup;
pub use tracker::Tracker;
