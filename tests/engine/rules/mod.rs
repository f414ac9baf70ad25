//! The rules of the rulebook (docs/RULES.md), rule by rule: the challenge table, setups,
//! play and every way a game ends, perft, and the public rule vectors.

mod arbiter;
mod perft;
mod play;
mod setup;
mod vectors;
