//! Challenges of a named player (an addition): the request, the challenge as both players
//! see it, and the lists of a player's challenges.

use serde::{Deserialize, Serialize};

use super::RulesWords;
use crate::clock::ClockSettings;

super::with_settings! {
    /// `POST /api/challenges`: whom, and the game's settings (every field but `to` optional,
    /// as in `POST /api/seeks`).
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
    pub(crate) struct ChallengeRequest {
        /// The challenged player's name.
        pub to: String,
    }
}

/// The reply to `POST /api/challenges`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ChallengeReply {
    /// The challenge's id.
    pub challenge: String,
    /// When it lapses unanswered, in milliseconds since the Unix epoch.
    pub expires_ms: u64,
}

/// A challenge as both its players see it: in `GET /api/challenges` and the player
/// socket's `challenge` frame.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeOffer {
    /// Its id.
    pub challenge: String,
    /// Who challenges.
    pub from: String,
    /// Whether the challenger is a bot.
    pub from_bot: bool,
    /// The challenger's rating, rounded.
    pub from_rating: i64,
    /// Who is challenged.
    pub to: String,
    /// Whether the challenged player is a bot.
    pub to_bot: bool,
    /// The clock; `null` for an untimed game.
    pub clock: Option<ClockSettings>,
    /// The rules.
    pub rules: RulesWords,
    /// Whether the game is rated.
    pub rated: bool,
    /// The setup time, in milliseconds.
    pub setup_ms: u64,
    /// When it lapses unanswered, in milliseconds since the Unix epoch.
    pub expires_ms: u64,
}

/// `GET /api/challenges`: the player's open challenges, oldest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ChallengeList {
    /// The challenges to the player.
    pub incoming: Vec<ChallengeOffer>,
    /// The player's challenges to others.
    pub outgoing: Vec<ChallengeOffer>,
}

/// Why a challenge ended without a game, as the `challenge-gone` frame says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Gone {
    /// The challenged player accepted it: the game is made (`paired` follows for the
    /// challenger).
    Accepted,
    /// The challenged player declined it.
    Declined,
    /// The challenger withdrew it.
    Withdrawn,
    /// Nobody answered it in time.
    Expired,
    /// One of its players closed its last player socket.
    Offline,
    /// The challenged player had as many open challenges as it may, and this one's address
    /// held the most of them: its oldest gave way to a challenge of another address.
    Displaced,
}

/// Why the challenged player declines, as it may say it (`POST
/// /api/challenges/{cid}/decline` body `{"reason": …}`, default `generic`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeclineReason {
    /// No reason given.
    #[default]
    Generic,
    /// Not now: busy with other games.
    Later,
    /// The clock is too fast for it.
    TooFast,
    /// The clock is too slow for it.
    TooSlow,
    /// It plays only unrated games.
    Casual,
    /// It plays only rated games.
    Rated,
    /// It does not play these rules.
    Rules,
}

/// `POST /api/challenges/{cid}/decline`: every field optional.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct DeclineRequest {
    /// Why.
    pub reason: DeclineReason,
}
