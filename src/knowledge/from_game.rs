//! What the arbiter's [`Game`] hands each side: its tracker, its beliefs and samples of the
//! hidden position drawn from them.

use crate::game::Game;
use crate::rng::SplitMix64;
use crate::setup::Setup;
use crate::side::Side;
use crate::status::{DrawReason, Status, WinReason};

use super::beliefs::Beliefs;
use super::error::ObserveError;
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
    ///
    /// # Errors
    /// None for a real game (see [`Game::tracker`]).
    pub fn sample(&self, side: Side, seed: u64) -> Result<Game, ObserveError> {
        let beliefs = self.beliefs(side)?;
        self.sample_from(&beliefs, &mut SplitMix64::new(seed))
    }

    /// As [`Game::sample`], drawing from beliefs already computed (cheap: compute once, draw
    /// many).
    ///
    /// # Errors
    /// [`ObserveError::NoFit`] if `beliefs` are not this game's for their side.
    pub fn sample_from(
        &self,
        beliefs: &Beliefs,
        rng: &mut SplitMix64,
    ) -> Result<Game, ObserveError> {
        let side = beliefs.side();
        let enemy = side.other();
        let ranks = beliefs.sample(rng);
        let (Some(own), Some(enemy_start)) = (self.setup(side), self.setup(enemy)) else {
            return Err(ObserveError::Start(
                "this game started from a position: samples need its setups and whole history"
                    .into(),
            ));
        };
        let squares = enemy_start.occupied();
        let mismatch = |why| ObserveError::NoFit { why };
        let enemy_setup = Setup::new(enemy, self.rules(), squares.zip(ranks))
            .map_err(|_| mismatch("the beliefs do not belong to this game"))?;
        let (white, black) = match side {
            Side::White => (own.clone(), enemy_setup),
            Side::Black => (enemy_setup, own.clone()),
        };
        let mut game = Game::new(white, black, self.first_mover(), self.rules())
            .map_err(|_| mismatch("the beliefs do not belong to this game"))?;
        for report in self.history() {
            let replayed = game
                .play(report.mv)
                .map_err(|_| mismatch("the sample cannot replay the history"))?;
            if replayed != *report {
                return Err(mismatch("the sample replays the history differently"));
            }
        }
        match self.status() {
            Status::Won {
                winner,
                reason: WinReason::Resignation,
            } if game.status().is_ongoing() => {
                game.resign(winner.other())
                    .map_err(|_| mismatch("the sample cannot end the same way"))?;
            }
            Status::Drawn {
                reason: DrawReason::Agreement,
            } if game.status().is_ongoing() => {
                game.agree_draw()
                    .map_err(|_| mismatch("the sample cannot end the same way"))?;
            }
            _ => {}
        }
        Ok(game)
    }
}
