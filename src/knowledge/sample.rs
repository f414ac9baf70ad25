//! Samples of the hidden position from one side's information alone: complete games drawn
//! from the exact posterior, replayed from the start so that every hidden state (a waiting
//! Flag, say) follows from the ranks drawn.

use crate::bitboard::Bitboard;
use crate::game::Game;
use crate::position::{Parts, Position};
use crate::rank::Rank;
use crate::rng::SplitMix64;
use crate::setup::Setup;
use crate::side::Side;
use crate::square::Square;
use crate::status::DeclaredEnd;

use super::beliefs::Beliefs;
use super::error::ObserveError;
use super::tracker::Tracker;

impl Tracker {
    /// A complete game that this side cannot tell from the real one, built from the tracker's
    /// information alone (its own setup, the enemy's squares, the public history): the enemy's
    /// ranks are drawn from the exact posterior with a [`SplitMix64`] seeded with `seed`, and
    /// the history is replayed. For the same seed it is the very game
    /// [`Game::sample`] gives the arbiter for this side.
    ///
    /// ```
    /// use salpakan::{Game, Rules, Side, SplitMix64};
    ///
    /// let rules = Rules::default();
    /// let mut game = Game::dealt(Side::White, rules, 1);
    /// let mut rng = SplitMix64::new(3);
    /// for _ in 0..60 {
    ///     let mv = game.position().random_move(&mut rng).unwrap();
    ///     game.play(mv)?;
    /// }
    /// let client = game.tracker(Side::Black)?; // what Black knows, nothing more
    /// let sample = client.sample(7)?;
    /// assert_eq!(sample, game.sample(Side::Black, 7)?);
    /// assert_eq!(sample.view(Side::Black), game.view(Side::Black));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`ObserveError::NoFit`] if no assignment of ranks fits the facts (impossible for the
    /// events of a real game).
    pub fn sample(&self, seed: u64) -> Result<Game, ObserveError> {
        let beliefs = self.beliefs()?;
        self.sample_from(&beliefs, &mut SplitMix64::new(seed))
    }

    /// As [`Tracker::sample`], drawing from beliefs already computed (compute once, draw
    /// many).
    ///
    /// # Errors
    /// [`ObserveError::NoFit`] if `beliefs` are not this tracker's.
    pub fn sample_from(
        &self,
        beliefs: &Beliefs,
        rng: &mut SplitMix64,
    ) -> Result<Game, ObserveError> {
        let mismatch = |why| ObserveError::NoFit { why };
        if beliefs.side() != self.side() {
            return Err(mismatch("the beliefs are the other side's"));
        }
        let side = self.side();
        let enemy = side.other();
        let ranks = beliefs.sample(rng);
        let enemy_setup = Setup::new(enemy, self.rules(), self.enemy_start_squares().zip(ranks))
            .map_err(|_| mismatch("the beliefs do not belong to this game"))?;
        let own = self.own_setup().clone();
        let (white, black) = match side {
            Side::White => (own, enemy_setup),
            Side::Black => (enemy_setup, own),
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
        // An end no move made (a resignation, an agreement, a loss on time, an abandonment) is
        // not in the history: the replay ends where the game did, still going on, and the end
        // is declared as it was.
        if let Some(end) = DeclaredEnd::of(self.status()) {
            game.declare(end)
                .map_err(|_| mismatch("the sample cannot end the same way"))?;
        }
        Ok(game)
    }

    /// The current position with the enemy's ranks drawn from `beliefs` (every fitting
    /// assignment equally likely): a determinization for search, built in one pass over the
    /// board, with no history to replay. It draws from `rng` exactly as
    /// [`Tracker::sample_from`] does, and is that game's position (the same squares, ranks,
    /// side to move, waiting Flag, status and counters).
    ///
    /// ```
    /// use salpakan::{Game, Rules, Side, SplitMix64};
    ///
    /// let rules = Rules::default();
    /// let mut game = Game::dealt(Side::White, rules, 1);
    /// let mut rng = SplitMix64::new(3);
    /// for _ in 0..60 {
    ///     let mv = game.position().random_move(&mut rng).unwrap();
    ///     game.play(mv)?;
    /// }
    /// let client = game.tracker(Side::White)?;
    /// let beliefs = client.beliefs()?;
    /// let position = client.sample_position(&beliefs, &mut SplitMix64::new(9))?;
    /// let sample = client.sample_from(&beliefs, &mut SplitMix64::new(9))?;
    /// assert_eq!(&position, sample.position());
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`ObserveError::NoFit`] if `beliefs` are the other side's.
    pub fn sample_position(
        &self,
        beliefs: &Beliefs,
        rng: &mut SplitMix64,
    ) -> Result<Position, ObserveError> {
        if beliefs.side() != self.side() {
            return Err(ObserveError::NoFit {
                why: "the beliefs are the other side's",
            });
        }
        let enemy_ranks = beliefs.sample(rng);
        let mut occupied = [Bitboard::EMPTY; 2];
        let mut board = [None; Square::NUM];
        for square in Square::ALL {
            if let Some(id) = self.piece_at(square) {
                let rank = if id.side() == self.side() {
                    self.own_rank(square)
                } else {
                    enemy_ranks.get(id.number()).copied()
                };
                board[square.index()] = rank;
                occupied[id.side().index()] = occupied[id.side().index()].with(square);
            }
        }
        // A Flag waits on its far row: ours as the tracker saw it arrive, the enemy's if the
        // piece that just arrived beside ours was drawn as its Flag.
        let waiting_flag = self.own_waiting_flag().or_else(|| {
            self.enemy_arrived()
                .filter(|square| board[square.index()] == Some(Rank::Flag))
        });
        Ok(Position::from_parts(Parts {
            occupied,
            board,
            side_to_move: self.side_to_move(),
            waiting_flag,
            status: self.status(),
            plies_since_challenge: self.plies_since_challenge(),
            rules: self.rules(),
            ply: u32::try_from(self.history().len()).unwrap_or(u32::MAX),
        }))
    }
}
