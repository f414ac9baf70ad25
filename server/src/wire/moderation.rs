//! The moderators' desk on the wire: an action asked (`POST /api/mod/actions`), an appeal,
//! what a player reads of its own moderation, and the operator's naming of moderators.

use serde::{Deserialize, Serialize};

use super::Channel;

/// What a moderator may do to a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// Tell the player its conduct was seen; nothing else changes.
    Warn,
    /// Its chat lines are refused (`chat-timeout`) for `hours` (1 … 720).
    Timeout,
    /// Its chat lines are refused everywhere (`chat-muted`) until lifted.
    Mute,
    /// Lifts a mute and a timeout.
    Unmute,
    /// Closes the account: its key opens only its moderation and its appeals (`account-closed`).
    Close,
    /// Opens a closed account again.
    Reopen,
    /// Takes back, from the opponents of a closed account's rated games of the last `days`
    /// (1 … 90), what each game moved their ratings by; each game once.
    Refund,
    /// Answers a reported line with nothing done to its speaker.
    Dismiss,
}

impl Action {
    /// The action's word.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Action::Warn => "warn",
            Action::Timeout => "timeout",
            Action::Mute => "mute",
            Action::Unmute => "unmute",
            Action::Close => "close",
            Action::Reopen => "reopen",
            Action::Refund => "refund",
            Action::Dismiss => "dismiss",
        }
    }
}

/// The longest reason or appeal, in characters.
pub(crate) const MAX_REASON: usize = 500;
/// The longest timeout, in hours (30 days).
pub(crate) const MAX_TIMEOUT_HOURS: u64 = 720;
/// The furthest a refund reaches back, in days.
pub(crate) const MAX_REFUND_DAYS: u64 = 90;

/// `POST /api/mod/actions`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ActionRequest {
    /// The player acted on.
    pub player: String,
    /// What is done.
    pub action: Action,
    /// Why (1 … 500 characters), told to the player.
    pub reason: String,
    /// A timeout's hours.
    #[serde(default)]
    pub hours: Option<u64>,
    /// A refund's days.
    #[serde(default)]
    pub days: Option<u64>,
    /// The reported line the action answers (it leaves the queue).
    #[serde(default)]
    pub line: Option<LineRef>,
}

/// `POST /api/moderation/{id}/appeal`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AppealRequest {
    /// What the player says (1 … 500 characters).
    pub text: String,
}

/// An action as its player reads it (`GET /api/moderation`, and the player socket's
/// `moderated` frame): never the moderator's name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Told {
    /// The action's id (its appeal's route names it).
    pub id: String,
    /// When.
    pub at_ms: u64,
    /// What was done.
    pub action: String,
    /// Why.
    pub reason: String,
    /// When a timeout ends.
    pub until_ms: Option<u64>,
    /// A refund's days.
    pub days: Option<u64>,
    /// The player's appeal, once made.
    pub appeal: Option<String>,
}

/// `POST /admin/moderators` (the operator's listener).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ModeratorRequest {
    /// The player.
    pub name: String,
    /// Whether it moderates from now on.
    pub moderator: bool,
}

/// A reported line an action answers: its reports leave the open queue.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineRef {
    /// The game.
    pub game: String,
    /// Its room.
    pub room: Channel,
    /// The line's number in its room.
    pub n: u64,
}
