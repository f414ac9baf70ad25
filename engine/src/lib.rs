//! The Salpakan engine protocol (SEP): a line protocol on standard input and output through
//! which a program in any language plays Game of the Generals, as UCI does for chess. The
//! host (an arbiter: a local match, or the server's bridge) sends an engine only what its
//! side may know (its own formation, the squares the enemy stands on, each ply's public move
//! and the arbiter's word, its own time) and asks for a formation and for moves; it never
//! sends an enemy rank, so an engine cannot peek whatever it does. The grammar is in the
//! repository's `docs/ENGINES.md`.
//!
//! - [`protocol`]: the lines, typed both ways.
//! - [`engine`]: an engine over any of the crate's [`salpakan::Agent`]s (what the
//!   `salpakan-engine` program runs), and [`engine::Knowledge`], what an engine knows,
//!   followed from the host's lines.
//! - [`host`]: a host: engines as child processes (or in this process), a game between two
//!   of them with time limits and forfeits, and what each was sent.
//! - [`mod@bench`]: salpakan-bench v1, a frozen evaluation of any engine against pinned
//!   opponents and deals.
//!
//! ```
//! use salpakan_engine::engine::AgentEngine;
//! use salpakan_engine::host::{Match, Seat};
//!
//! // Two of the crate's agents as engines, in this process: a whole game.
//! let mut white = Seat::in_process(AgentEngine::new("random", 1).unwrap());
//! let mut black = Seat::in_process(AgentEngine::new("greedy", 2).unwrap());
//! let played = Match::default().play([&mut white, &mut black]);
//! assert!(!played.status.is_ongoing());
//! ```

#![deny(missing_docs)]

pub mod bench;
pub mod engine;
pub mod host;
pub mod protocol;

pub use protocol::{EngineLine, Forfeit, HostLine, LineError, MAX_LINE, PROTOCOL, VERSION};
