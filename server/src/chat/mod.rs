//! The chat's rules, with no I/O (beside [`crate::room`] and [`crate::tournament`]): what a
//! free line may be (`line`: made clean, the operator's words), and one game's chat
//! (`game`: its two channels' lines, each seat's and socket's mode, mutes and rates, who
//! hears what, and what a request decides). The chat service (`services::chat`) commits what
//! a decision keeps, then sends each line to the sockets that hear it; a game never handles
//! a line.
//!
//! A server bot says only what public events decide: a greeting at `start`, "good game" at
//! `over`; nothing it computes reaches a line.

mod game;
mod line;

pub use game::{MAX_LINES, SEAT_SHARE, SPEAKER_SHARE};

pub(crate) use game::{Command, Decision, GameChat, Policy};
pub(crate) use line::Blocklist;
pub use line::clean;
