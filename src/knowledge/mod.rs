//! What one side may know: the constraints the public history puts on each enemy piece's rank
//! ([`Tracker`]), the exact posterior over ranks ([`Beliefs`]) and samples of the hidden
//! position drawn from it.

mod beliefs;
mod cache;
mod count;
mod error;
mod from_game;
mod observation;
mod rankset;
mod sample;
mod tracker;

pub use beliefs::{Beliefs, PieceBelief};
pub use error::ObserveError;
pub use observation::{Observation, Orientation};
pub use rankset::RankSet;
pub use tracker::Tracker;
