//! Whether a game goes on, and how it ended.

use core::fmt;

use crate::side::Side;

crate::enums::simple_enum! {
    /// Why a side won. The numeric values are the C ABI's `SALPAKAN_REASON_*`.
    pub enum WinReason {
        /// The loser's Flag was removed (as defender, or attacking and losing).
        FlagCaptured = 1 => "flag captured",
        /// The winner's Flag reached its far row and was not captured.
        FlagReachedEnd = 2 => "flag reached the far end",
        /// The loser resigned.
        Resignation = 3 => "resignation",
    }
}

crate::enums::simple_enum! {
    /// Why a game was drawn. The numeric values are the C ABI's `SALPAKAN_REASON_*`.
    pub enum DrawReason {
        /// Both sides agreed to a draw.
        Agreement = 4 => "agreement",
        /// The optional move limit was reached (see [`crate::Rules`]).
        MoveLimit = 5 => "move limit",
    }
}

/// The state of a game: going on, won (by whom and why) or drawn (why).
///
/// # Examples
/// ```
/// use salpakan::{Side, Status, WinReason};
///
/// let status = Status::Won { winner: Side::Black, reason: WinReason::FlagCaptured };
/// assert_eq!(status.to_string(), "Black wins: flag captured");
/// assert_eq!(status.winner(), Some(Side::Black));
/// assert!(!status.is_ongoing());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Status {
    /// The game goes on.
    #[default]
    Ongoing,
    /// The game is won.
    Won {
        /// The side that won.
        winner: Side,
        /// Why it won.
        reason: WinReason,
    },
    /// The game is drawn.
    Drawn {
        /// Why it was drawn.
        reason: DrawReason,
    },
}

impl Status {
    /// Whether the game goes on.
    #[inline]
    #[must_use]
    pub const fn is_ongoing(self) -> bool {
        matches!(self, Status::Ongoing)
    }

    /// The winner, if the game is won.
    #[inline]
    #[must_use]
    pub const fn winner(self) -> Option<Side> {
        match self {
            Status::Won { winner, .. } => Some(winner),
            _ => None,
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Ongoing => f.write_str("ongoing"),
            Status::Won { winner, reason } => write!(f, "{winner} wins: {}", reason.name()),
            Status::Drawn { reason } => write!(f, "Draw: {}", reason.name()),
        }
    }
}
