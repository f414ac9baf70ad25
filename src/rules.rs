//! The rule options that the [rulebook](crate::rulebook) leaves open: the setup zone and an optional move limit.

use core::num::NonZeroU16;

use thiserror::Error;

use crate::error_kind::{ErrorKind, engine_error};

use crate::bitboard::Bitboard;
use crate::side::Side;

/// The rule options of a game. [`Rules::default`] is the official rules: a 3-row setup zone and
/// no move limit.
///
/// # Move limit
/// With a move limit of `n`, the game counts the plies played since the last challenge (or since
/// the start). After a ply that leaves the game going on, if that count has reached `n`, the game
/// is drawn ([`crate::DrawReason::MoveLimit`]) — except while a Flag waits on its far row, because
/// the very next ply settles the game anyway (the Flag is captured or its side wins). A
/// challenge, whatever its outcome, resets the count to 0.
///
/// # Examples
/// ```
/// use salpakan::Rules;
///
/// let official = Rules::default();
/// assert_eq!(official.setup_rows(), 3);
/// assert_eq!(official.move_limit(), None);
///
/// let engine = Rules::new(4, 200)?;
/// assert_eq!(engine.setup_rows(), 4);
/// assert_eq!(engine.move_limit(), Some(200));
/// assert!(Rules::new(5, 0).is_err());
/// # Ok::<_, salpakan::RulesError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "RulesFields", into = "RulesFields")
)]
pub struct Rules {
    setup_rows: u8,
    move_limit: Option<NonZeroU16>,
}

/// A rule option out of range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum RulesError {
    /// The setup zone must be 3 rows (official) or 4 rows (the whole half).
    #[error("setup zone of {0} rows: it must be 3 (official) or 4 (the whole half of the board)")]
    SetupRows(i64),
    /// The move limit is a number of plies, 0 (none) to 65535.
    #[error("move limit of {0} plies: it must be 0 (no limit) to 65535")]
    MoveLimit(i64),
}

impl RulesError {
    /// Its kind: always [`ErrorKind::Argument`] (a rule option out of range).
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        ErrorKind::Argument
    }
}

engine_error!(RulesError);

impl Default for Rules {
    fn default() -> Rules {
        Rules::OFFICIAL
    }
}

impl Rules {
    /// The official rules: 3-row setup zone, no move limit.
    pub const OFFICIAL: Rules = Rules {
        setup_rows: 3,
        move_limit: None,
    };

    /// Rules with a setup zone of `setup_rows` rows (3 or 4) and a move limit of `move_limit`
    /// plies without a challenge (0 for none).
    ///
    /// # Errors
    /// [`RulesError::SetupRows`] if `setup_rows` is not 3 or 4.
    pub const fn new(setup_rows: u8, move_limit: u16) -> Result<Rules, RulesError> {
        match setup_rows {
            3 | 4 => Ok(Rules {
                setup_rows,
                move_limit: NonZeroU16::new(move_limit),
            }),
            _ => Err(RulesError::SetupRows(setup_rows as i64)),
        }
    }

    /// As [`Rules::new`], from any integers (as the bindings receive them).
    ///
    /// # Errors
    /// [`RulesError::SetupRows`] if `setup_rows` is not 3 or 4, [`RulesError::MoveLimit`] if
    /// `move_limit` is not 0..=65535.
    ///
    /// # Examples
    /// ```
    /// use salpakan::{Rules, RulesError};
    ///
    /// assert_eq!(Rules::from_numbers(4, 100)?.move_limit(), Some(100));
    /// assert_eq!(Rules::from_numbers(259, 0), Err(RulesError::SetupRows(259)));
    /// assert_eq!(Rules::from_numbers(3, -1), Err(RulesError::MoveLimit(-1)));
    /// # Ok::<_, RulesError>(())
    /// ```
    pub const fn from_numbers(setup_rows: i64, move_limit: i64) -> Result<Rules, RulesError> {
        if setup_rows != 3 && setup_rows != 4 {
            return Err(RulesError::SetupRows(setup_rows));
        }
        if move_limit < 0 || move_limit > u16::MAX as i64 {
            return Err(RulesError::MoveLimit(move_limit));
        }
        Rules::new(setup_rows as u8, move_limit as u16)
    }

    /// The number of rows of each side's setup zone, 3 or 4.
    #[inline]
    #[must_use]
    pub const fn setup_rows(&self) -> u8 {
        self.setup_rows
    }

    /// The move limit: plies without a challenge before a draw, if any.
    #[inline]
    #[must_use]
    pub const fn move_limit(&self) -> Option<u16> {
        match self.move_limit {
            Some(n) => Some(n.get()),
            None => None,
        }
    }

    /// The squares of `side`'s setup zone: the `setup_rows` rows nearest that side.
    ///
    /// ```
    /// use salpakan::{Rules, Side};
    /// let zone = Rules::default().setup_zone(Side::Black);
    /// assert_eq!(zone.len(), 27);
    /// assert!(zone.has("a6".parse()?) && !zone.has("a5".parse()?));
    /// # Ok::<_, salpakan::text::ParseError>(())
    /// ```
    #[must_use]
    pub const fn setup_zone(&self, side: Side) -> Bitboard {
        match side {
            Side::White => Bitboard::rows(0, self.setup_rows),
            Side::Black => Bitboard::rows(8 - self.setup_rows, 8),
        }
    }
}

/// The serde form of [`Rules`]: `{"setup_rows": 3, "move_limit": 0}`, checked on the way in.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct RulesFields {
    setup_rows: u8,
    move_limit: u16,
}

#[cfg(feature = "serde")]
impl From<Rules> for RulesFields {
    fn from(rules: Rules) -> RulesFields {
        RulesFields {
            setup_rows: rules.setup_rows(),
            move_limit: rules.move_limit().unwrap_or(0),
        }
    }
}

#[cfg(feature = "serde")]
impl TryFrom<RulesFields> for Rules {
    type Error = RulesError;

    fn try_from(fields: RulesFields) -> Result<Rules, RulesError> {
        Rules::new(fields.setup_rows, fields.move_limit)
    }
}
