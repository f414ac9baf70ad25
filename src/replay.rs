//! A game replayed as each side knew it: at every ply, a side's view and its exact beliefs;
//! for every challenge, the attacker's chances as it saw them just before it attacked; and
//! each side's luck, its challenges' results against what its beliefs expected.
//!
//! A finished game's record holds both formations, so a replay shows the game from either
//! side without anyone's word for what they knew: a side's knowledge is a function of its
//! own formation and the public reports only ([`Tracker`]).

use thiserror::Error;

use crate::arbiter::{Outcome, challenge};
use crate::error_kind::{ErrorKind, engine_error};
use crate::game::Game;
use crate::knowledge::{Beliefs, ObserveError, Tracker};
use crate::notation::TextError;
use crate::rank::Rank;
use crate::side::Side;
use crate::square::Square;
use crate::view::{PublicView, View};

/// Why a replay cannot be made, or a ply asked of it does not exist.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReplayError {
    /// The record does not read.
    #[error(transparent)]
    Text(#[from] TextError),
    /// The game has no start a side's knowledge can follow (it started from a position).
    #[error(transparent)]
    Observe(#[from] ObserveError),
    /// A ply the game does not have: past the end (or, for a ply's odds, 0).
    #[error("ply {ply} is not in the game (it has {plies} plies)")]
    Ply {
        /// The ply asked for.
        ply: usize,
        /// The game's plies.
        plies: usize,
    },
}

impl ReplayError {
    /// The kind of refusal: [`ErrorKind::Text`], [`ErrorKind::Observe`] or, for a ply past
    /// the end, [`ErrorKind::Argument`].
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        match self {
            ReplayError::Text(e) => e.kind(),
            ReplayError::Observe(e) => e.kind(),
            ReplayError::Ply { .. } => ErrorKind::Argument,
        }
    }
}

engine_error!(ReplayError);

/// A challenge's chances as the attacker saw them just before it attacked: its own rank
/// against the defender's rank distribution under the attacker's exact beliefs.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Odds {
    /// The side that attacked.
    pub attacker: Side,
    /// The attacking piece's rank (the attacker knows it).
    pub rank: Rank,
    /// The probability that the attacker wins.
    pub win: f64,
    /// The probability of a tie.
    pub tie: f64,
    /// The probability that the attacker loses.
    pub lose: f64,
    /// What happened.
    pub outcome: Outcome,
}

impl Odds {
    /// The attacker's expected score: a win 1, a tie ½, a loss 0.
    #[must_use]
    pub fn expected(&self) -> f64 {
        self.win + self.tie / 2.0
    }

    /// The attacker's score: 1 for a win, ½ for a tie, 0 for a loss.
    #[must_use]
    pub fn score(&self) -> f64 {
        match self.outcome {
            Outcome::Win => 1.0,
            Outcome::Tie => 0.5,
            Outcome::Lose => 0.0,
        }
    }

    /// The score minus the expected score: above 0 when the challenge went better than the
    /// attacker could expect.
    #[must_use]
    pub fn luck(&self) -> f64 {
        self.score() - self.expected()
    }
}

/// One side's luck over a game: the challenges it made, their results and what its beliefs
/// expected of them (a win 1, a tie ½, a loss 0).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Luck {
    /// The challenges the side made.
    pub challenges: u32,
    /// The sum of their scores.
    pub score: f64,
    /// The sum of their expected scores.
    pub expected: f64,
}

impl Luck {
    /// The results minus what was expected: above 0 for a lucky side.
    #[must_use]
    pub fn luck(&self) -> f64 {
        self.score - self.expected
    }
}

/// A game replayed as each side knew it.
///
/// Made from a game with both formations and its whole history ([`Replay::new`], or
/// [`Replay::from_record`] from a record's text). Ply `n` means "after `n` plies": ply 0 is
/// the start, ply [`Replay::plies`] the end (with the game's result, a resignation too).
///
/// # Examples
/// ```
/// use salpakan::{Game, Replay, Rules, Side};
///
/// let rules = Rules::new(3, 40)?;
/// let mut game = Game::dealt(Side::White, rules, 3);
/// while game.status().is_ongoing() {
///     game.play(game.legal_moves()[0])?;
/// }
/// let replay = Replay::from_record(&game.record())?;
/// assert_eq!(replay.plies(), game.history().len());
/// // White's beliefs at the end are the game's own.
/// assert_eq!(replay.beliefs(replay.plies(), Side::White)?, game.beliefs(Side::White)?);
/// // Each challenge's odds, as the attacker saw them.
/// for ply in 1..=replay.plies() {
///     if let Some(odds) = replay.odds(ply) {
///         assert!((odds.win + odds.tie + odds.lose - 1.0).abs() < 1e-9);
///     }
/// }
/// let luck = replay.luck(Side::White);
/// assert!((luck.luck() - (luck.score - luck.expected)).abs() < 1e-12);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Replay {
    game: Game,
    odds: Vec<Option<Odds>>,
}

impl Replay {
    /// The replay of `game` (finished or not).
    ///
    /// # Errors
    /// [`ReplayError::Observe`] for a game started from a position (it has no formations to
    /// know from).
    pub fn new(game: &Game) -> Result<Replay, ReplayError> {
        let mut replay = Replay {
            game: game.clone(),
            odds: Vec::new(),
        };
        replay.odds = replay.challenges()?;
        Ok(replay)
    }

    /// Every ply's odds (for challenges), from one walk per side.
    fn challenges(&self) -> Result<Vec<Option<Odds>>, ReplayError> {
        let mut walks = [self.walk(Side::White)?, self.walk(Side::Black)?];
        let mut odds = Vec::with_capacity(self.plies());
        for report in self.game.history() {
            let attacker = walks[0].game().side_to_move();
            odds.push(match report.outcome {
                Some(outcome) => {
                    Some(walks[attacker.index()].odds(report.mv.from, report.mv.to, outcome)?)
                }
                None => None,
            });
            for walk in &mut walks {
                walk.advance()?;
            }
        }
        Ok(odds)
    }

    /// The replay of the game a record's text gives ([`Game::from_record`]).
    ///
    /// # Errors
    /// [`ReplayError::Text`] for a record that does not read; [`ReplayError::Observe`] for a
    /// game started from a position.
    pub fn from_record(text: &str) -> Result<Replay, ReplayError> {
        Replay::new(&Game::from_record(text)?)
    }

    /// The number of plies played.
    #[must_use]
    pub fn plies(&self) -> usize {
        self.game.history().len()
    }

    /// The whole game, as it ended.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The attacker's odds of the `ply`-th ply (1-based), if it was a challenge; `None` for
    /// a plain move or a ply outside `1..=plies`.
    #[must_use]
    pub fn odds(&self, ply: usize) -> Option<Odds> {
        self.odds.get(ply.checked_sub(1)?).copied().flatten()
    }

    /// As [`Replay::odds`], refusing a ply that is not one of the game's: what the bindings
    /// answer for `odds(ply)`.
    ///
    /// # Errors
    /// [`ReplayError::Ply`] for ply 0 or a ply past the end.
    pub fn challenge(&self, ply: usize) -> Result<Option<Odds>, ReplayError> {
        if ply == 0 || ply > self.plies() {
            return Err(ReplayError::Ply {
                ply,
                plies: self.plies(),
            });
        }
        Ok(self.odds(ply))
    }

    /// `side`'s luck over the whole game: the sums over its challenges' odds.
    #[must_use]
    pub fn luck(&self, side: Side) -> Luck {
        self.odds
            .iter()
            .flatten()
            .filter(|o| o.attacker == side)
            .fold(Luck::default(), |luck, o| Luck {
                challenges: luck.challenges + 1,
                score: luck.score + o.score(),
                expected: luck.expected + o.expected(),
            })
    }

    /// A walk through the game as `side` knew it, from ply 0.
    ///
    /// # Errors
    /// [`ReplayError::Observe`] for a game started from a position.
    pub fn walk(&self, side: Side) -> Result<Walk<'_>, ReplayError> {
        Walk::new(self, side)
    }

    /// A walk as [`Replay::walk`], moved on to `ply`.
    fn walk_to(&self, ply: usize, side: Side) -> Result<Walk<'_>, ReplayError> {
        if ply > self.plies() {
            return Err(ReplayError::Ply {
                ply,
                plies: self.plies(),
            });
        }
        let mut walk = self.walk(side)?;
        while walk.ply() < ply && walk.advance()? {}
        Ok(walk)
    }

    /// The game after `ply` plies (with both sides' ranks: a replay's game is finished).
    ///
    /// # Errors
    /// [`ReplayError::Ply`] past the end.
    pub fn game_at(&self, ply: usize) -> Result<Game, ReplayError> {
        Ok(self.walk_to(ply, Side::White)?.game)
    }

    /// `side`'s knowledge after `ply` plies.
    ///
    /// # Errors
    /// [`ReplayError::Ply`] past the end.
    pub fn tracker(&self, ply: usize, side: Side) -> Result<Tracker, ReplayError> {
        Ok(self.walk_to(ply, side)?.tracker)
    }

    /// `side`'s view after `ply` plies.
    ///
    /// # Errors
    /// [`ReplayError::Ply`] past the end.
    pub fn view(&self, ply: usize, side: Side) -> Result<View, ReplayError> {
        Ok(self.walk_to(ply, side)?.view())
    }

    /// A spectator's view after `ply` plies.
    ///
    /// # Errors
    /// [`ReplayError::Ply`] past the end.
    pub fn public_view(&self, ply: usize) -> Result<PublicView, ReplayError> {
        Ok(self.walk_to(ply, Side::White)?.game.public_view())
    }

    /// `side`'s exact beliefs after `ply` plies.
    ///
    /// # Errors
    /// [`ReplayError::Ply`] past the end.
    pub fn beliefs(&self, ply: usize, side: Side) -> Result<Beliefs, ReplayError> {
        Ok(self.walk_to(ply, side)?.tracker.beliefs()?)
    }

    /// `side`'s beliefs after `ply` plies laid out by square, as
    /// [`Tracker::beliefs_by_square`] gives them (the bindings' `(72, 15)` array).
    ///
    /// # Errors
    /// [`ReplayError::Ply`] past the end.
    pub fn beliefs_by_square(
        &self,
        ply: usize,
        side: Side,
    ) -> Result<[[f64; Rank::NUM]; Square::NUM], ReplayError> {
        Ok(self.walk_to(ply, side)?.tracker.beliefs_by_square()?)
    }
}

/// A walk through a replay as one side knew it, one ply at a time: the game so far and the
/// side's [`Tracker`] fed the same reports. Each step costs one ply, so walking a whole game
/// is linear in its length.
///
/// ```
/// use salpakan::{Game, Replay, Rules, Side};
///
/// let rules = Rules::new(3, 10)?;
/// let mut game = Game::dealt(Side::White, rules, 5);
/// while game.status().is_ongoing() {
///     game.play(game.legal_moves()[0])?;
/// }
/// let replay = Replay::new(&game)?;
/// let mut walk = replay.walk(Side::Black)?;
/// while walk.advance()? {
///     let beliefs = walk.tracker().beliefs()?;
///     assert_eq!(beliefs.side(), Side::Black);
/// }
/// assert_eq!(walk.ply(), replay.plies());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Walk<'a> {
    replay: &'a Replay,
    game: Game,
    tracker: Tracker,
    ply: usize,
}

impl<'a> Walk<'a> {
    fn new(replay: &'a Replay, side: Side) -> Result<Walk<'a>, ReplayError> {
        let whole = &replay.game;
        let (Some(white), Some(black)) = (whole.setup(Side::White), whole.setup(Side::Black))
        else {
            return Err(ObserveError::Start(
                "this game started from a position: a replay needs its setups and whole history"
                    .into(),
            )
            .into());
        };
        let game = Game::new(
            white.clone(),
            black.clone(),
            whole.first_mover(),
            whole.rules(),
        )
        .map_err(|e| ObserveError::Start(e.to_string()))?;
        let tracker = game.tracker(side)?;
        let mut walk = Walk {
            replay,
            game,
            tracker,
            ply: 0,
        };
        walk.settle()?;
        Ok(walk)
    }

    /// Plays the next ply; `false` at the end (nothing changes then).
    ///
    /// # Errors
    /// None for a game the crate made or read (the reports are the game's own).
    pub fn advance(&mut self) -> Result<bool, ReplayError> {
        let Some(report) = self.replay.game.history().get(self.ply) else {
            return Ok(false);
        };
        let ply = self.ply + 1;
        self.game
            .play(report.mv)
            .map_err(|_| ObserveError::IllegalMove {
                ply,
                mv: report.mv,
                why: "the replayed game refuses its own move",
            })?;
        self.tracker.observe(report)?;
        self.ply = ply;
        self.settle()?;
        Ok(true)
    }

    /// At the last ply, the end no move makes (a resignation, an agreement, time) is the
    /// game's and the side's too.
    fn settle(&mut self) -> Result<(), ReplayError> {
        let whole = &self.replay.game;
        if self.ply == whole.history().len() && !whole.status().is_ongoing() {
            if self.game.status().is_ongoing() {
                self.game = whole.clone();
            }
            if self.tracker.status().is_ongoing() {
                self.tracker.observe_end(whole.status())?;
            }
        }
        Ok(())
    }

    /// The plies played so far.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// The side walking.
    #[must_use]
    pub fn side(&self) -> Side {
        self.tracker.side()
    }

    /// The game so far (both sides' ranks: the replay's game is finished).
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The side's knowledge so far.
    #[must_use]
    pub fn tracker(&self) -> &Tracker {
        &self.tracker
    }

    /// The side's view so far.
    #[must_use]
    pub fn view(&self) -> View {
        self.game.view(self.side())
    }

    /// The odds of the challenge from `from` to `to` as this side sees it now (it must be the
    /// side to move, and the challenge its next ply).
    fn odds(&self, from: Square, to: Square, outcome: Outcome) -> Result<Odds, ReplayError> {
        let unfit = || ObserveError::NoFit {
            why: "the challenge's pieces are not where the replay has them",
        };
        let rank = self.tracker.own_rank(from).ok_or_else(unfit)?;
        let beliefs = self.tracker.beliefs()?;
        let defender = beliefs.at(to).ok_or_else(unfit)?;
        let mut chances = [0.0; 3];
        for enemy in Rank::ALL {
            chances[challenge(rank, enemy) as usize] += defender.probability(enemy);
        }
        Ok(Odds {
            attacker: self.side(),
            rank,
            win: chances[Outcome::Win as usize],
            tie: chances[Outcome::Tie as usize],
            lose: chances[Outcome::Lose as usize],
            outcome,
        })
    }
}
