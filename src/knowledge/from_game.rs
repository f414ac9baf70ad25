//! What the arbiter's [`Game`] hands each side: its tracker, its beliefs and samples of the
//! hidden position drawn from them.

use crate::game::Game;
use crate::rng::SplitMix64;
use crate::side::Side;

use super::beliefs::Beliefs;
use super::error::ObserveError;
use super::observation::{Observation, Orientation};
use super::tracker::Tracker;

impl Game {
    /// `side`'s knowledge of the game: its own setup and the public events (see [`Tracker`]).
    ///
    /// # Errors
    /// None for a real game; the `Result` is the tracker's own.
    pub fn tracker(&self, side: Side) -> Result<Tracker, ObserveError> {
        let (Some(own), Some(enemy)) = (self.setup(side), self.setup(side.other())) else {
            return Err(ObserveError::Start(
                "this game started from a position: beliefs need its setups and whole history"
                    .into(),
            ));
        };
        let mut tracker = Tracker::new(own, enemy.occupied(), self.first_mover(), self.rules())?;
        for report in self.history() {
            tracker.observe(report)?;
        }
        if !self.status().is_ongoing() && tracker.status().is_ongoing() {
            tracker.observe_end(self.status())?;
        }
        Ok(tracker)
    }

    /// The exact posterior over the enemy's ranks for `side` (see [`Beliefs`]).
    ///
    /// # Errors
    /// None for a real game (see [`Game::tracker`]).
    pub fn beliefs(&self, side: Side) -> Result<Beliefs, ObserveError> {
        self.tracker(side)?.beliefs()
    }

    /// A complete game that `side` cannot tell from this one: the same own setup, the same
    /// squares, the same public history (so the same beliefs), with the enemy's ranks drawn
    /// from `side`'s posterior with a [`SplitMix64`] seeded with `seed`. Hidden state such as
    /// a waiting Flag follows from the ranks drawn, because the sample is the history replayed.
    /// A client gets the same game from its own [`Tracker::sample`].
    ///
    /// # Errors
    /// None for a real game (see [`Game::tracker`]).
    pub fn sample(&self, side: Side, seed: u64) -> Result<Game, ObserveError> {
        self.tracker(side)?.sample(seed)
    }

    /// As [`Game::sample`], drawing from beliefs already computed (cheap: compute once, draw
    /// many). The same as [`Tracker::sample_from`] on `side`'s tracker.
    ///
    /// # Errors
    /// [`ObserveError::NoFit`] if `beliefs` are not this game's for their side.
    pub fn sample_from(
        &self,
        beliefs: &Beliefs,
        rng: &mut SplitMix64,
    ) -> Result<Game, ObserveError> {
        self.tracker(beliefs.side())?.sample_from(beliefs, rng)
    }

    /// `side`'s [`Observation`] tensor (see there for its planes), built from `side`'s tracker:
    /// a function of what `side` may know only.
    ///
    /// # Errors
    /// As [`Game::tracker`].
    pub fn observation(
        &self,
        side: Side,
        orientation: Orientation,
    ) -> Result<Observation, ObserveError> {
        self.tracker(side)?.observation(orientation)
    }
}
