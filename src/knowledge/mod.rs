//! What one side may know: the constraints the public history puts on each enemy piece's rank
//! ([`Tracker`]), the exact posterior over ranks ([`Beliefs`]) and samples of the hidden
//! position drawn from it; and how people deploy ([`Formation`], a distribution over one
//! side's setups, with the exact sums under it in `weighted`).

mod beliefs;
mod cache;
mod count;
mod error;
mod formation;
mod from_game;
mod observation;
mod rankset;
mod sample;
mod tracker;
mod weighted;

pub use beliefs::{Beliefs, PieceBelief};
pub use error::ObserveError;
pub use formation::{Formation, FormationError};
pub use observation::{Observation, Orientation};
pub use rankset::RankSet;
pub use tracker::Tracker;
