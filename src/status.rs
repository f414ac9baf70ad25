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
        /// The loser's clock ran out (decided by whoever keeps the clocks, such as a server).
        Time = 6 => "time",
        /// The loser left the game and did not come back in time (decided by a server).
        Abandoned = 7 => "abandonment",
    }
}

crate::enums::simple_enum! {
    /// Why a game was drawn. The numeric values are the C ABI's `SALPAKAN_REASON_*`.
    pub enum DrawReason {
        /// Both sides agreed to a draw.
        Agreement = 4 => "agreement",
        /// The optional move limit was reached (see [`crate::Rules`]).
        MoveLimit = 5 => "move limit",
        /// Both sides left the game and neither came back in time (decided by a server).
        AbandonedByBoth = 8 => "both sides left",
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

/// An end of the game that no move makes: declared by a player (a resignation, an agreed
/// draw) or by whoever keeps the clocks and the seats, such as a server (a loss on time, an
/// abandonment). It says nothing of any rank, so a tracker takes it in as it is
/// ([`crate::Tracker::observe_end`]) and a record writes it only in its result.
///
/// # Examples
/// ```
/// use salpakan::{DeclaredEnd, Side, Status, WinReason};
///
/// let end = DeclaredEnd::Time { loser: Side::White };
/// let status = end.status();
/// assert_eq!(status, Status::Won { winner: Side::Black, reason: WinReason::Time });
/// assert_eq!(DeclaredEnd::of(status), Some(end));
/// let captured = Status::Won { winner: Side::Black, reason: WinReason::FlagCaptured };
/// assert_eq!(DeclaredEnd::of(captured), None); // a move made that end
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum DeclaredEnd {
    /// `loser` resigned.
    Resignation {
        /// The side that resigned.
        loser: Side,
    },
    /// `loser`'s clock ran out.
    Time {
        /// The side out of time.
        loser: Side,
    },
    /// `loser` left the game and did not come back in time.
    Abandoned {
        /// The side that left.
        loser: Side,
    },
    /// Both sides agreed to a draw.
    Agreement,
    /// Both sides left the game and neither came back in time: a draw.
    AbandonedByBoth,
}

impl DeclaredEnd {
    /// The status the game ends with.
    #[must_use]
    pub const fn status(self) -> Status {
        let (loser, reason) = match self {
            DeclaredEnd::Agreement => {
                return Status::Drawn {
                    reason: DrawReason::Agreement,
                };
            }
            DeclaredEnd::AbandonedByBoth => {
                return Status::Drawn {
                    reason: DrawReason::AbandonedByBoth,
                };
            }
            DeclaredEnd::Resignation { loser } => (loser, WinReason::Resignation),
            DeclaredEnd::Time { loser } => (loser, WinReason::Time),
            DeclaredEnd::Abandoned { loser } => (loser, WinReason::Abandoned),
        };
        Status::Won {
            winner: loser.other(),
            reason,
        }
    }

    /// The declared end a status is, or `None` for a game that goes on or an end a move made.
    #[must_use]
    pub const fn of(status: Status) -> Option<DeclaredEnd> {
        match status {
            Status::Won { winner, reason } => {
                let loser = winner.other();
                match reason {
                    WinReason::Resignation => Some(DeclaredEnd::Resignation { loser }),
                    WinReason::Time => Some(DeclaredEnd::Time { loser }),
                    WinReason::Abandoned => Some(DeclaredEnd::Abandoned { loser }),
                    WinReason::FlagCaptured | WinReason::FlagReachedEnd => None,
                }
            }
            Status::Drawn {
                reason: DrawReason::Agreement,
            } => Some(DeclaredEnd::Agreement),
            Status::Drawn {
                reason: DrawReason::AbandonedByBoth,
            } => Some(DeclaredEnd::AbandonedByBoth),
            Status::Drawn {
                reason: DrawReason::MoveLimit,
            }
            | Status::Ongoing => None,
        }
    }
}
