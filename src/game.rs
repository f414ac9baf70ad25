//! A game: a position with its rules, both setups and its history.

use crate::action::ActionMask;
use crate::knowledge::{Beliefs, ObserveError, Tracker};
use crate::movegen::{Move, MoveList};
use crate::piece::{IdBoard, PieceId, initial_ids, move_ids};
use crate::position::{MoveError, Playout, Position, Report};
use crate::rng::SplitMix64;
use crate::rules::Rules;
use crate::setup::{Setup, SetupError};
use crate::side::Side;
use crate::square::Square;
use crate::status::Status;
use crate::view::View;

/// A whole game as the arbiter holds it: the current [`Position`], the [`Rules`], both setups,
/// who moved first, and every move with its report. Views, beliefs and records are built from it.
///
/// # Examples
/// ```
/// use salpakan::{Game, Rules, Setup, Side};
///
/// let rules = Rules::default();
/// let mut game = Game::new(
///     Setup::random(Side::White, &rules, 1),
///     Setup::random(Side::Black, &rules, 2),
///     Side::White,
///     rules,
/// )?;
/// while game.status().is_ongoing() && game.history().len() < 50 {
///     let mv = game.legal_moves()[0];
///     let report = game.play(mv)?;
///     assert_eq!(report.mv, mv);
/// }
/// assert_eq!(game.history().len() as u32, game.position().ply());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    position: Position,
    start: Position,
    rules: Rules,
    setups: Option<[Setup; 2]>,
    first: Side,
    history: Vec<Report>,
    ids: IdBoard,
    tags: Vec<(String, String)>,
}

impl Game {
    /// A new game from White's and Black's setups, the side that moves first and the rules.
    ///
    /// # Errors
    /// [`SetupError::WrongSide`] if the setups are for the wrong sides,
    /// [`SetupError::OutsideZone`] if one does not fit `rules`' setup zone.
    pub fn new(white: Setup, black: Setup, first: Side, rules: Rules) -> Result<Game, SetupError> {
        let position = Position::new(&white, &black, first, &rules)?;
        let ids = initial_ids(white.occupied(), black.occupied());
        Ok(Game {
            position,
            start: position,
            rules,
            setups: Some([white, black]),
            first,
            history: Vec::new(),
            ids,
            tags: Vec::new(),
        })
    }

    /// A game that starts from `position` (for example one parsed from a position text), with
    /// no setups and no history before it. Play, views and records work as usual; beliefs and
    /// samples need the setups and the whole public history, so they are refused for such a
    /// game ([`ObserveError::Start`]).
    pub fn from_position(position: Position) -> Game {
        Game {
            position,
            start: position,
            rules: position.rules(),
            setups: None,
            first: position.side_to_move(),
            history: Vec::new(),
            ids: initial_ids(
                position.occupied(Side::White),
                position.occupied(Side::Black),
            ),
            tags: Vec::new(),
        }
    }

    /// The position the game started from.
    #[inline]
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The record's extra tags (player names, date, …), in order; see [`Game::set_tag`].
    #[inline]
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// Sets an extra tag of the game record, such as `White`, `Black` or `Date` (replacing a
    /// tag of the same name). The names the record itself uses (`SetupRows`, `MoveLimit`,
    /// `First`, `WhiteSetup`, `BlackSetup`, `Position`, `Result`) are ignored, as are names that
    /// are not letters and digits.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        if crate::notation::is_reserved_tag(name)
            || name.is_empty()
            || !name.chars().all(|c| c.is_ascii_alphanumeric())
        {
            return;
        }
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(tag) => tag.1 = value.to_owned(),
            None => self.tags.push((name.to_owned(), value.to_owned())),
        }
    }

    /// The current position.
    #[inline]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The rules of the game.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// `side`'s setup, as the game started; `None` for a game started from a position.
    #[inline]
    pub fn setup(&self, side: Side) -> Option<&Setup> {
        self.setups.as_ref().map(|s| &s[side.index()])
    }

    /// The side that moved first.
    #[inline]
    pub fn first_mover(&self) -> Side {
        self.first
    }

    /// Every move played so far with the arbiter's report, in order.
    #[inline]
    pub fn history(&self) -> &[Report] {
        &self.history
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.position.side_to_move()
    }

    /// The game's status.
    #[inline]
    pub fn status(&self) -> Status {
        self.position.status()
    }

    /// Every legal move of the side to move (none once the game has ended).
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        self.position.legal_moves()
    }

    /// Plays `mv` and appends its report to the history.
    ///
    /// # Errors
    /// [`MoveError`] for an illegal move or a move after the end; the game is then unchanged.
    pub fn play(&mut self, mv: Move) -> Result<Report, MoveError> {
        let report = self.position.play(mv)?;
        move_ids(&mut self.ids, mv, report.outcome);
        self.history.push(report);
        Ok(report)
    }

    /// `side` resigns (at any time); the other side wins.
    ///
    /// # Errors
    /// [`MoveError::GameOver`] if the game has already ended.
    pub fn resign(&mut self, side: Side) -> Result<Status, MoveError> {
        self.position.resign(side)
    }

    /// Both sides agree to a draw.
    ///
    /// # Errors
    /// [`MoveError::GameOver`] if the game has already ended.
    pub fn agree_draw(&mut self) -> Result<Status, MoveError> {
        self.position.agree_draw()
    }

    /// Perft of the current position (see [`Position::perft`]).
    #[inline]
    pub fn perft(&self, depth: u32) -> u64 {
        self.position.perft(depth)
    }

    /// The legal moves as a mask of action ids (see [`Move::action`]).
    #[inline]
    pub fn legal_action_mask(&self) -> ActionMask {
        self.position.legal_action_mask()
    }

    /// A random playout from the current position with a [`SplitMix64`] seeded with `seed`
    /// (see [`Position::playout`]); the game itself is unchanged.
    #[inline]
    pub fn playout(&self, seed: u64, max_plies: u32) -> Playout {
        self.position.playout(&mut SplitMix64::new(seed), max_plies)
    }

    /// The id of the piece on `square`, if any (see [`PieceId`]).
    #[inline]
    pub fn piece_id_at(&self, square: Square) -> Option<PieceId> {
        self.ids[square.index()]
    }

    /// The game as `side` sees it: its own pieces with rank and id, enemy pieces with id only,
    /// the side to move, the public log and the status.
    pub fn view(&self, side: Side) -> View {
        View::new(self, side)
    }

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
        let mut tracker = Tracker::new(own, enemy.occupied(), self.first, &self.rules)?;
        for report in &self.history {
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
        let enemy_setup = Setup::new(enemy, &self.rules, squares.zip(ranks))
            .map_err(|_| mismatch("the beliefs do not belong to this game"))?;
        let (white, black) = match side {
            Side::White => (own.clone(), enemy_setup),
            Side::Black => (enemy_setup, own.clone()),
        };
        let mut game = Game::new(white, black, self.first, self.rules)
            .map_err(|_| mismatch("the beliefs do not belong to this game"))?;
        for report in &self.history {
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
                reason: crate::status::WinReason::Resignation,
            } if game.status().is_ongoing() => {
                game.resign(winner.other())
                    .map_err(|_| mismatch("the sample cannot end the same way"))?;
            }
            Status::Drawn {
                reason: crate::status::DrawReason::Agreement,
            } if game.status().is_ongoing() => {
                game.agree_draw()
                    .map_err(|_| mismatch("the sample cannot end the same way"))?;
            }
            _ => {}
        }
        Ok(game)
    }
}
