//! A game: a position with its rules, both setups and its history.

use crate::prelude::*;
use alloc::collections::BTreeMap;

use crate::movegen::ActionMask;
use crate::movegen::{Move, MoveList};
use crate::piece::{IdBoard, PieceId, initial_ids, move_ids};
use crate::position::{MoveError, Playout, Position, Report};
use crate::rng::SplitMix64;
use crate::rules::Rules;
use crate::setup::{Setup, SetupError};
use crate::side::Side;
use crate::square::Square;
use crate::status::{DeclaredEnd, Status};

/// The tag names the game record itself uses: [`Game::set_tag`] ignores them.
pub(crate) const RESERVED_TAGS: [&str; 8] = [
    "Format",
    "SetupRows",
    "MoveLimit",
    "First",
    "WhiteSetup",
    "BlackSetup",
    "Position",
    "Result",
];

/// A whole game as the arbiter holds it: the current [`Position`], the [`Rules`], both setups,
/// who moved first, and every move with its report. Views, beliefs and records are built from it.
///
/// # Examples
/// ```
/// use salpakan::{Game, Rules, Setup, Side};
///
/// let rules = Rules::default();
/// let mut game = Game::new(
///     Setup::random(Side::White, rules, 1),
///     Setup::random(Side::Black, rules, 2),
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
    tags: BTreeMap<String, String>,
}

impl Game {
    /// A new game from White's and Black's setups, the side that moves first and the rules.
    ///
    /// # Errors
    /// [`SetupError::WrongSide`] if the setups are for the wrong sides,
    /// [`SetupError::OutsideZone`] if one does not fit `rules`' setup zone.
    pub fn new(white: Setup, black: Setup, first: Side, rules: Rules) -> Result<Game, SetupError> {
        let position = Position::new(&white, &black, first, rules)?;
        let ids = initial_ids(white.occupied(), black.occupied());
        Ok(Game {
            position,
            start: position,
            rules,
            setups: Some([white, black]),
            first,
            history: Vec::new(),
            ids,
            tags: BTreeMap::new(),
        })
    }

    /// A game of the two formations one `seed` deals ([`Setup::dealt`]: White's from `seed`,
    /// Black's from `seed + 1`), `first` to move: the game the Python and JavaScript
    /// `Game(seed)` make. For tests, benches and bots playing bots; a person's game needs
    /// formations from secret seeds ([`Setup::random`] says why).
    ///
    /// # Examples
    /// ```
    /// use salpakan::{Game, Rules, Setup, Side};
    ///
    /// let rules = Rules::default();
    /// let game = Game::dealt(Side::Black, rules, 7);
    /// let by_hand = Game::new(
    ///     Setup::random(Side::White, rules, 7),
    ///     Setup::random(Side::Black, rules, 8),
    ///     Side::Black,
    ///     rules,
    /// )?;
    /// assert_eq!(game, by_hand);
    /// # Ok::<_, salpakan::SetupError>(())
    /// ```
    #[must_use]
    pub fn dealt(first: Side, rules: Rules, seed: u64) -> Game {
        let [white, black] = Side::ALL.map(|side| Setup::dealt(side, rules, seed));
        match Game::new(white, black, first, rules) {
            Ok(game) => game,
            // Each formation is its own side's and fits the zone of the rules it was made by.
            Err(e) => unreachable!("a dealt pair of formations is always a game: {e}"),
        }
    }

    /// A game that starts from `position` (for example one parsed from a position text), with
    /// no setups and no history before it. Play, views and records work as usual; beliefs and
    /// samples need the setups and the whole public history, so they are refused for such a
    /// game ([`ObserveError::Start`](crate::ObserveError::Start)).
    #[must_use]
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
            tags: BTreeMap::new(),
        }
    }

    /// The position the game started from.
    #[inline]
    #[must_use]
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The record's extra tags (player names, date, …) by name; see [`Game::set_tag`].
    pub fn tags(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.tags.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// The value of the extra tag `name`, if set.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.get(name).map(String::as_str)
    }

    /// The most extra tags a game (and its record) may have.
    pub const MAX_TAGS: usize = 1000;
    /// The longest tag value, in characters.
    pub const MAX_TAG_LEN: usize = 4096;

    /// Sets an extra tag of the game record, such as `White`, `Black` or `Date` (replacing a
    /// tag of the same name), and returns whether it did. It refuses (returning `false`, the
    /// game unchanged) the names the record itself uses (`Format`, `SetupRows`, `MoveLimit`,
    /// `First`, `WhiteSetup`, `BlackSetup`, `Position`, `Result`), names that are not letters
    /// and digits, values over [`Game::MAX_TAG_LEN`] characters, and a new tag beyond
    /// [`Game::MAX_TAGS`]: what a record could not hold.
    pub fn set_tag(&mut self, name: &str, value: &str) -> bool {
        let refused = RESERVED_TAGS.contains(&name)
            || name.is_empty()
            || !name.chars().all(|c| c.is_ascii_alphanumeric())
            || value.chars().count() > Game::MAX_TAG_LEN
            || (self.tags.len() >= Game::MAX_TAGS && !self.tags.contains_key(name));
        if refused {
            return false;
        }
        self.tags.insert(name.to_owned(), value.to_owned());
        true
    }

    /// The current position.
    #[inline]
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The rules of the game.
    #[inline]
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// `side`'s setup, as the game started; `None` for a game started from a position.
    #[inline]
    #[must_use]
    pub fn setup(&self, side: Side) -> Option<&Setup> {
        self.setups.as_ref().map(|s| &s[side.index()])
    }

    /// The side that moved first.
    #[inline]
    #[must_use]
    pub fn first_mover(&self) -> Side {
        self.first
    }

    /// Every move played so far with the arbiter's report, in order.
    #[inline]
    #[must_use]
    pub fn history(&self) -> &[Report] {
        &self.history
    }

    /// The side to move.
    #[inline]
    #[must_use]
    pub fn side_to_move(&self) -> Side {
        self.position.side_to_move()
    }

    /// The game's status.
    #[inline]
    #[must_use]
    pub fn status(&self) -> Status {
        self.position.status()
    }

    /// Every legal move of the side to move (none once the game has ended).
    #[inline]
    #[must_use]
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

    /// Ends the game as `end` says: a resignation, an agreed draw, or one of the ends only
    /// whoever keeps the clocks and the seats can decide, a loss on time
    /// ([`DeclaredEnd::Time`]), an abandonment ([`DeclaredEnd::Abandoned`]) or a draw when
    /// both sides left ([`DeclaredEnd::AbandonedByBoth`]). Nothing is added to the history;
    /// the record writes the end in its result.
    ///
    /// ```
    /// use salpakan::{DeclaredEnd, Game, Rules, Side, WinReason};
    ///
    /// let rules = Rules::default();
    /// let mut game = Game::dealt(Side::White, rules, 1);
    /// let status = game.declare(DeclaredEnd::Time { loser: Side::White })?;
    /// assert_eq!(status.winner(), Some(Side::Black));
    /// assert!(game.record().contains("[Result \"black:time\"]"));
    /// assert_eq!(Game::from_record(&game.record())?, game);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`MoveError::GameOver`] if the game has already ended.
    pub fn declare(&mut self, end: DeclaredEnd) -> Result<Status, MoveError> {
        self.position.declare(end)
    }

    /// Perft of the current position (see [`Position::perft`]).
    #[inline]
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        self.position.perft(depth)
    }

    /// The legal moves as a mask of action ids (see [`Move::action`]).
    #[inline]
    #[must_use]
    pub fn legal_action_mask(&self) -> ActionMask {
        self.position.legal_action_mask()
    }

    /// A random playout from the current position with a [`SplitMix64`] seeded with `seed`
    /// (see [`Position::playout`]); the game itself is unchanged.
    #[inline]
    #[must_use]
    pub fn playout(&self, seed: u64, max_plies: u32) -> Playout {
        self.position.playout(&mut SplitMix64::new(seed), max_plies)
    }

    /// The id of the piece on `square`, if any (see [`PieceId`]).
    #[inline]
    #[must_use]
    pub fn piece_id_at(&self, square: Square) -> Option<PieceId> {
        self.ids[square.index()]
    }
}
