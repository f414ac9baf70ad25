//! A game: a position with its rules, both setups and its history.

use crate::action::ActionMask;
use crate::movegen::{Move, MoveList};
use crate::position::{MoveError, Playout, Position, Report};
use crate::rng::SplitMix64;
use crate::rules::Rules;
use crate::setup::{Setup, SetupError};
use crate::side::Side;
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
    rules: Rules,
    setups: [Setup; 2],
    first: Side,
    history: Vec<Report>,
}

impl Game {
    /// A new game from White's and Black's setups, the side that moves first and the rules.
    ///
    /// # Errors
    /// [`SetupError::WrongSide`] if the setups are for the wrong sides,
    /// [`SetupError::OutsideZone`] if one does not fit `rules`' setup zone.
    pub fn new(white: Setup, black: Setup, first: Side, rules: Rules) -> Result<Game, SetupError> {
        let position = Position::new(&white, &black, first, &rules)?;
        Ok(Game {
            position,
            rules,
            setups: [white, black],
            first,
            history: Vec::new(),
        })
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

    /// `side`'s setup, as the game started.
    #[inline]
    pub fn setup(&self, side: Side) -> &Setup {
        &self.setups[side.index()]
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

    /// The board as `side` sees it: its own ranks, enemy pieces as unknown.
    #[inline]
    pub fn view(&self, side: Side) -> View {
        View::of(&self.position, side)
    }
}
