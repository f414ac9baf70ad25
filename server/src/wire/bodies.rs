//! The HTTP bodies of the contract: what `POST /api/games` and `POST /api/games/{id}/join`
//! take, and what the routes answer.

use serde::{Deserialize, Serialize};

use super::players::Bots;
use super::{ClockWords, Code, Names, Phase, RulesWords, SideWord, StatusWords};
use crate::clock::ClockSettings;

/// A game's settings as a request asks for them, every field optional: what `POST
/// /api/games`, `POST /api/seeks` and `POST /api/challenges` share (the games service checks
/// them once, `games::Settings::check`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SettingsRequest {
    /// The rules (official when absent).
    pub rules: Option<RulesRequest>,
    /// The clock, for a timed game; untimed when absent or null.
    pub clock: Option<ClockSettings>,
    /// Whether the game is rated (default false).
    pub rated: Option<bool>,
    /// Milliseconds each side has, once both seats are taken, to have its formation accepted
    /// (default [`SETUP_MS`], at most [`MAX_SETUP_MS`]); a side that misses it aborts the game.
    pub setup_ms: Option<i64>,
    /// Whether the game is listed in its players' lists of games (default true); an unlisted
    /// game's record and replay reach whoever has its link.
    pub listed: Option<bool>,
}

/// Declares a request body that asks for a game's settings: its own fields, then the five
/// of [`SettingsRequest`] (each optional, as a field of the body itself: its errors name
/// their place in the text), and `settings()`, which gives them as one value.
macro_rules! with_settings {
    (
        $(#[$attr:meta])*
        $vis:vis struct $name:ident {
            $($(#[$field_attr:meta])* pub $field:ident: $ty:ty,)*
        }
    ) => {
        $(#[$attr])*
        $vis struct $name {
            $($(#[$field_attr])* pub $field: $ty,)*
            /// The rules (official when absent).
            #[serde(default)]
            pub rules: Option<$crate::wire::RulesRequest>,
            /// The clock; untimed when absent or null.
            #[serde(default)]
            pub clock: Option<$crate::clock::ClockSettings>,
            /// Whether the game is rated (default false).
            #[serde(default)]
            pub rated: Option<bool>,
            /// The setup time, in milliseconds (see `SettingsRequest::setup_ms`).
            #[serde(default)]
            pub setup_ms: Option<i64>,
            /// Whether the game is listed (default true).
            #[serde(default)]
            pub listed: Option<bool>,
        }

        impl $name {
            /// The game's settings it asks for.
            #[must_use]
            pub fn settings(&self) -> $crate::wire::SettingsRequest {
                $crate::wire::SettingsRequest {
                    rules: self.rules,
                    clock: self.clock,
                    rated: self.rated,
                    setup_ms: self.setup_ms,
                    listed: self.listed,
                }
            }
        }
    };
}
pub(crate) use with_settings;

with_settings! {
    /// `POST /api/games`: every field optional. A rated game needs a key, and a person
    /// opponent's seat taken with one (or a bot opponent).
    #[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(default)]
    pub struct CreateRequest {
        /// `"white"`, `"black"` or `"random"` (the default): the creator's side.
        pub side: Option<String>,
        /// `"human"` (the default) or a bot's name.
        pub opponent: Option<String>,
        /// The side that moves first: `"white"`, `"black"` or `"random"` (the default).
        pub first: Option<String>,
    }
}

/// The setup time a game has when none is asked for: 3 minutes.
pub(crate) const SETUP_MS: u64 = 180_000;

/// The longest setup time a game may ask for, in milliseconds: an hour (the shortest is the
/// server's, 10 seconds: [`crate::config::Limits::min_setup`]).
pub const MAX_SETUP_MS: u64 = 3_600_000;

/// `setup_ms` as asked (the default when absent), at least `min_ms`.
///
/// # Errors
/// The text of a `bad-message` refusal for a value out of `min_ms ..= MAX_SETUP_MS`.
pub fn setup_ms(asked: Option<i64>, min_ms: u64) -> Result<u64, String> {
    match asked {
        None => Ok(SETUP_MS),
        Some(ms) if ms >= 0 && (min_ms..=MAX_SETUP_MS).contains(&ms.unsigned_abs()) => {
            Ok(ms.unsigned_abs())
        }
        Some(ms) => Err(format!(
            "setup_ms must be {min_ms} … {MAX_SETUP_MS} (milliseconds to arrange the pieces), \
             not {ms}"
        )),
    }
}

/// The rules a game is asked for; each absent field is the official rule's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RulesRequest {
    /// 3 (the default) or 4.
    pub setup_rows: Option<i64>,
    /// Plies without a challenge that draw; 0 (the default) for none.
    pub move_limit: Option<i64>,
}

/// `POST /api/games/{id}/join`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct JoinRequest {
    /// The invite code.
    pub invite: String,
}

/// The reply to `POST /api/games`: the creator's seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreateReply {
    /// The game's id.
    pub game: String,
    /// The creator's side.
    pub side: SideWord,
    /// The creator's seat token.
    pub token: String,
    /// The invite for a human opponent; `null` against a bot.
    pub invite: Option<String>,
}

/// The reply to `POST /api/games/{id}/join`: the joiner's seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JoinReply {
    /// The game's id.
    pub game: String,
    /// The joiner's side.
    pub side: SideWord,
    /// The joiner's seat token.
    pub token: String,
}

/// Who plays each side: `"human"` or `"bot"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Players {
    /// White's player.
    pub white: String,
    /// Black's player.
    pub black: String,
}

/// Why a game asked rated is played unrated (an addition): said to both seats from the moment
/// it is decided (the summary and `state`), and again in `over`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unrated {
    /// The two players are at one client address and one of them is still provisional.
    SameAddress,
    /// The two players are at one client address, which (or whose pair) has had its rated
    /// games among its own players today.
    SameAddressDay,
    /// The pair has had its rated games today.
    PairDay,
    /// A player's address has had its rated games today.
    AddressDay,
    /// A side made fewer than 2 plies (the contract's "unrated until played").
    Early,
}

impl Unrated {
    /// Every reason, in the order above.
    pub const ALL: [Unrated; 5] = [
        Unrated::SameAddress,
        Unrated::SameAddressDay,
        Unrated::PairDay,
        Unrated::AddressDay,
        Unrated::Early,
    ];

    /// The reason's word, as the database and the wire keep it.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Unrated::SameAddress => "same-address",
            Unrated::SameAddressDay => "same-address-day",
            Unrated::PairDay => "pair-day",
            Unrated::AddressDay => "address-day",
            Unrated::Early => "early",
        }
    }

    /// The reason a word names.
    #[must_use]
    pub fn of_word(word: &str) -> Option<Unrated> {
        Unrated::ALL.into_iter().find(|why| why.word() == word)
    }
}

/// The reply to `GET /api/games/{id}`: no rank.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// The game's id.
    pub game: String,
    /// Its phase.
    pub phase: Phase,
    /// Plies played.
    pub ply: u64,
    /// Its status.
    pub status: StatusWords,
    /// Its clock, for a timed game.
    pub clock: Option<ClockWords>,
    /// Who plays each side.
    pub players: Players,
    /// Its rules.
    pub rules: RulesWords,
    /// The side that moves first.
    pub first: SideWord,
    /// The setup time, in milliseconds (absent in the summaries of games that ended before
    /// it was kept: they had none).
    #[serde(default)]
    pub setup_ms: u64,
    /// Each seat's player's name (`null`: anonymous).
    #[serde(default)]
    pub names: Names,
    /// Whether the game is rated.
    #[serde(default)]
    pub rated: bool,
    /// Why a game asked rated is not (an addition; absent for a game rated or asked casual).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unrated: Option<Unrated>,
    /// Whether each seat's player is a bot (absent in the summaries of games that ended
    /// before it was kept: `players` says it).
    #[serde(default)]
    pub bots: Bots,
    /// Whether the game is listed in its players' lists (absent in the summaries of games
    /// that ended before it was kept: they were).
    #[serde(default = "listed")]
    pub listed: bool,
    /// Each side's formation commitment, once play has started (an addition; absent before,
    /// and for games from before commitments).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commitments: Option<Commitments>,
}

/// A game is listed unless it says otherwise.
fn listed() -> bool {
    true
}

/// The reply to `GET /api/health`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub(crate) struct Health {
    /// Always true: the server answers.
    pub ok: bool,
    /// The server's version.
    pub version: &'static str,
}

/// An HTTP error reply: `{"error": CODE, "message": "…"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// The code.
    pub error: Code,
    /// What was wrong.
    pub message: String,
}

/// Each side's formation commitment (`start`, `state` and a game's summary, once play has
/// started): the lower-case hexadecimal SHA-256 of the scheme in `docs/SERVER.md`
/// ([`salpakan::commitment::Commitment`]). The record of a finished game opens them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Commitments {
    /// White's.
    pub white: String,
    /// Black's.
    pub black: String,
}

impl Commitments {
    /// The words of White's and Black's commitments.
    #[must_use]
    pub fn of(commitments: &[salpakan::commitment::Commitment; 2]) -> Commitments {
        Commitments {
            white: commitments[0].to_string(),
            black: commitments[1].to_string(),
        }
    }
}
