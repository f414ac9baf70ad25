//! The vocabulary every binding shares: the words for sides and statuses, values read from
//! the numbers a foreign caller passes (each refusal with one message), and the 72-cell setup
//! arrays. The C ABI, the Python package and the npm package convert through these, so that
//! they accept and refuse the same inputs the same way; every error's
//! [`kind`](crate::ErrorKind) says what each binding turns it into.

use core::fmt;

use thiserror::Error;

use crate::agents::ChooseError;
use crate::arbiter::Outcome;
use crate::error_kind::{EngineError, ErrorKind};
use crate::knowledge::ObserveError;
use crate::movegen::Move;
use crate::notation::TextError;
use crate::parse::ParseError;
use crate::position::MoveError;
use crate::rank::Rank;
use crate::rules::{Rules, RulesError};
use crate::setup::{Setup, SetupError};
use crate::side::Side;
use crate::square::Square;
use crate::status::Status;
use crate::value_error::ValueError;
use crate::vecenv::StepError;

/// A setup given as cell values that does not make a setup: a value that is no cell, or a
/// formation that breaks the rules.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CellsError {
    /// A value that is not a cell, or not 72 of them.
    #[error(transparent)]
    Value(#[from] ValueError),
    /// Cells that break the setup rules.
    #[error(transparent)]
    Setup(#[from] SetupError),
}

impl CellsError {
    /// Its kind: the kind of the error it holds.
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        match self {
            CellsError::Value(e) => e.kind(),
            CellsError::Setup(e) => e.kind(),
        }
    }
}

/// An `i64` index into `0..len`, if it is one.
fn index(value: i64, len: usize) -> Option<usize> {
    usize::try_from(value).ok().filter(|&i| i < len)
}

impl Side {
    /// The side's word as the bindings write it: `"white"` or `"black"` (its `FromStr` reads
    /// these in any case, and `w`/`b`).
    #[must_use]
    pub const fn word(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }

    /// The side with number `value` (0 White, 1 Black).
    ///
    /// # Errors
    /// [`ValueError::Side`] for any other number.
    pub fn from_number(value: i64) -> Result<Side, ValueError> {
        index(value, Side::NUM)
            .map(|i| Side::ALL[i])
            .ok_or(ValueError::Side(value))
    }
}

impl Square {
    /// The square with number `value` (`(row - 1) * 9 + file`: a1 = 0 … i8 = 71).
    ///
    /// # Errors
    /// [`ValueError::Square`] for any other number.
    pub fn from_number(value: i64) -> Result<Square, ValueError> {
        index(value, Square::NUM)
            .map(|i| Square::ALL[i])
            .ok_or(ValueError::Square(value))
    }
}

impl Rank {
    /// The rank with number `value` (0 Flag, 1 Private … 13 5-Star General, 14 Spy).
    ///
    /// # Errors
    /// [`ValueError::Rank`] for any other number.
    pub fn from_number(value: i64) -> Result<Rank, ValueError> {
        index(value, Rank::NUM)
            .map(|i| Rank::ALL[i])
            .ok_or(ValueError::Rank(value))
    }
}

impl Move {
    /// The move with action id `value` (`from * 4 + direction`).
    ///
    /// # Errors
    /// [`ValueError::Action`] for a number outside `0..288`, [`ValueError::ActionOffBoard`]
    /// (an illegal move) for an id whose step leaves the board.
    ///
    /// # Examples
    /// ```
    /// use salpakan::{ErrorKind, Move, ValueError};
    ///
    /// assert_eq!(Move::from_action_number(4 * 4)?.to_string(), "e1-e2");
    /// assert_eq!(Move::from_action_number(288), Err(ValueError::Action(288)));
    /// assert_eq!(Move::from_action_number(1).unwrap_err().kind(), ErrorKind::IllegalMove);
    /// # Ok::<_, ValueError>(())
    /// ```
    pub fn from_action_number(value: i64) -> Result<Move, ValueError> {
        let id = index(value, Move::NUM_ACTIONS).ok_or(ValueError::Action(value))? as u16;
        Move::from_action(id).ok_or(ValueError::ActionOffBoard(id))
    }
}

impl Setup {
    /// The value of an empty square in a setup's cell array (`SALPAKAN_NO_PIECE` in C).
    pub const EMPTY_CELL: u8 = 255;

    /// A setup from 72 cell values indexed by square: a rank's number (0 Flag … 14 Spy) or
    /// [`Setup::EMPTY_CELL`], as the C ABI, the Python and the npm packages take them.
    ///
    /// # Errors
    /// [`CellsError::Value`] for a length other than 72 or a value that is no cell (the first
    /// one); [`CellsError::Setup`] for cells that break the rules (as [`Setup::from_cells`]).
    ///
    /// # Examples
    /// ```
    /// use salpakan::{CellsError, ErrorKind, Rules, Setup, Side};
    ///
    /// let rules = Rules::default();
    /// let setup = Setup::random(Side::White, rules, 7);
    /// let mut cells = setup.cell_values();
    /// assert_eq!(Setup::from_cell_values(Side::White, rules, &cells)?, setup);
    /// cells[0] = 15;
    /// let err = Setup::from_cell_values(Side::White, rules, &cells).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::Argument);
    /// # Ok::<_, CellsError>(())
    /// ```
    pub fn from_cell_values<T>(side: Side, rules: Rules, values: &[T]) -> Result<Setup, CellsError>
    where
        T: Copy + Into<i64> + fmt::Display,
    {
        let values: &[T; Square::NUM] = values
            .try_into()
            .map_err(|_| ValueError::CellCount(values.len()))?;
        // Checked first, then converted without a branch per cell (a random formation's empty
        // cells are a coin toss for the branch predictor).
        let valid = |value: i64| index(value, Rank::NUM).is_some() || value == 255;
        if let Some(i) = values.iter().position(|&v| !valid(v.into())) {
            return Err(ValueError::Cell {
                square: Square::ALL[i],
                value: values[i].to_string(),
            }
            .into());
        }
        let ranks: [Option<Rank>; Square::NUM] =
            core::array::from_fn(|i| index(values[i].into(), Rank::NUM).map(|r| Rank::ALL[r]));
        Ok(Setup::from_cells(side, rules, &ranks)?)
    }

    /// The setup's 72 cell values indexed by square: rank numbers, [`Setup::EMPTY_CELL`] for
    /// an empty square.
    #[must_use]
    pub fn cell_values(&self) -> [u8; Square::NUM] {
        self.cells()
            .map(|cell| cell.map_or(Setup::EMPTY_CELL, |rank| rank as u8))
    }
}

impl Status {
    /// The state's word: `"ongoing"`, `"won"` or `"drawn"`.
    #[must_use]
    pub const fn state_word(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Won { .. } => "won",
            Status::Drawn { .. } => "drawn",
        }
    }

    /// Why the game ended, as a token (`"flag-captured"`, `"flag-reached-end"`,
    /// `"resignation"`, `"agreement"`, `"move-limit"`), or `None` while it goes on.
    #[must_use]
    pub const fn reason_token(self) -> Option<&'static str> {
        match self {
            Status::Ongoing => None,
            Status::Won { reason, .. } => Some(reason.token()),
            Status::Drawn { reason } => Some(reason.token()),
        }
    }
}

impl Status {
    /// The status its three words describe: [`Status::state_word`], the winner's
    /// [`Side::word`] and [`Status::reason_token`], as the server's JSON and the bindings
    /// give them (the inverse of those three).
    ///
    /// # Errors
    /// [`ParseError::Status`] for words that are no status.
    ///
    /// # Examples
    /// ```
    /// use salpakan::{Side, Status, WinReason};
    ///
    /// let status = Status::Won { winner: Side::Black, reason: WinReason::Time };
    /// let words = (status.state_word(), status.winner().map(Side::word), status.reason_token());
    /// assert_eq!(Status::from_words(words.0, words.1, words.2)?, status);
    /// assert_eq!(Status::from_words("ongoing", None, None)?, Status::Ongoing);
    /// assert!(Status::from_words("won", None, Some("time")).is_err());
    /// # Ok::<_, salpakan::ParseError>(())
    /// ```
    pub fn from_words(
        state: &str,
        winner: Option<&str>,
        reason: Option<&str>,
    ) -> Result<Status, ParseError> {
        let token = match (state, winner, reason) {
            ("ongoing", None, None) => "-".to_owned(),
            ("won", Some(winner @ ("white" | "black")), Some(reason)) => {
                format!("{winner}:{reason}")
            }
            ("drawn", None, Some(reason)) => format!("draw:{reason}"),
            _ => {
                let words = [Some(state), winner, reason].map(|w| w.unwrap_or("-"));
                return Err(ParseError::Status(words.join(" ")));
            }
        };
        token.parse()
    }
}

impl Outcome {
    /// The outcome whose [`name`](Outcome::name) is `word`: `"win"`, `"lose"` or `"tie"`.
    ///
    /// # Errors
    /// [`ParseError::Outcome`] for any other word.
    ///
    /// # Examples
    /// ```
    /// use salpakan::Outcome;
    /// assert_eq!(Outcome::from_word("tie")?, Outcome::Tie);
    /// assert!(Outcome::from_word("draw").is_err());
    /// # Ok::<_, salpakan::ParseError>(())
    /// ```
    pub fn from_word(word: &str) -> Result<Outcome, ParseError> {
        Outcome::ALL
            .into_iter()
            .find(|o| o.name() == word)
            .ok_or_else(|| ParseError::Outcome(word.to_owned()))
    }
}

/// Every error type of the crate is an [`EngineError`], through its own `kind()`.
macro_rules! engine_errors {
    ($($error:ty),* $(,)?) => {
        $(
            impl EngineError for $error {
                fn kind(&self) -> ErrorKind {
                    <$error>::kind(self)
                }
            }
        )*
    };
}

engine_errors!(
    ValueError,
    CellsError,
    SetupError,
    MoveError,
    TextError,
    ObserveError,
    RulesError,
    ParseError,
    ChooseError,
    StepError,
);
