//! Development tools of the `salpakan` crate, kept out of the crate itself so that building it
//! (and its examples) never compiles them:
//!
//! - `benches/engine.rs`: criterion benches of move generation, play, perft, playouts, beliefs
//!   and the C ABI (`cargo bench --bench engine`);
//! - `benches/compare.rs`: the side-by-side comparison with cozy-chess
//!   (`cargo bench --bench compare`).
#![deny(missing_docs)]
