//! What one side may know: the constraints the public history puts on each enemy piece's rank
//! ([`Tracker`]), the exact posterior over ranks ([`Beliefs`]) and samples of the hidden
//! position drawn from it.

mod beliefs;
mod rankset;
mod tracker;

pub use beliefs::{Beliefs, PieceBelief};
pub use rankset::RankSet;
pub use tracker::{ObserveError, Tracker};
