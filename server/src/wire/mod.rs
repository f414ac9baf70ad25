//! The contract's JSON (`docs/SERVER.md`), typed both ways: what clients send
//! (`ClientMessage`), every message the server sends ([`ServerMessage`]), the refusals
//! ([`Refusal`] with its [`Code`], as an `error` frame or an HTTP reply), the close codes
//! (`CloseCode`), the HTTP bodies, and the values they are made of. Each value the server
//! sends is built from one seat's [`View`], the spectator's [`PublicView`] or public facts
//! (statuses, moves, outcomes): never from a `Game`, a `Position` or an enemy `Setup`.
//!
//! Words are written as the contract spells them (`"white"`, `"win"`, `"5G"`, …) by small
//! wrappers of the crate's types, so that a client reading a message gets the crate's values
//! back ([`SideWord`], [`OutcomeWord`], [`RankCode`], [`MoveText`], [`StatusWords`]).

mod bodies;
mod challenges;
mod chat;
mod close;
mod live;
mod messages;
mod moderation;
mod players;
mod refusal;
mod replay;
mod tokens;
mod tournaments;

pub(crate) use bodies::with_settings;
pub(crate) use bodies::{
    Commitments, ErrorBody, Health, JoinRequest, RulesRequest, SETUP_MS, SettingsRequest, Summary,
};
pub use bodies::{CreateReply, CreateRequest, JoinReply, MAX_SETUP_MS, Players, Unrated, setup_ms};
pub(crate) use challenges::{
    ChallengeList, ChallengeOffer, ChallengeReply, ChallengeRequest, DeclineReason, DeclineRequest,
    Gone,
};
pub(crate) use chat::{Channel, ChatLine, ChatMode, ChatModes, ChatRecord, ChatSettings, Phrase};
pub(crate) use close::CloseCode;
pub(crate) use live::{LIVE_SHOWN, LastChallenge, LiveEntry, LiveMessage, LiveRatings, LiveReply};
pub(crate) use messages::ClientMessage;
pub use messages::ServerMessage;
pub use moderation::{Action, LineRef, Told};
pub(crate) use moderation::{
    ActionRequest, AppealRequest, MAX_REASON, MAX_REFUND_DAYS, MAX_TIMEOUT_HOURS, ModeratorRequest,
};
pub(crate) use players::Lobby as LobbyWords;
pub(crate) use players::{
    BOT_PREFIX, BotEntry, BotList, Changes, GAMES_LISTED, GameList, HISTORY_SHOWN,
    LEADERBOARD_SIZE, Leaderboard, MAX_DESCRIPTION, MAX_GAMES_LISTED, Names, PoolReply, Profile,
    Ranked, Rated, RegisterReply, SeekReply, SeekWords, skeleton,
};
pub use players::{
    Bots, Change, Listed, LobbyMessage, PlayerClientMessage, PoolRequest, RegisterRequest,
    SeekRequest, pool_name, valid_name,
};
pub use refusal::Code;
pub use refusal::Refusal;
pub(crate) use replay::ReplayReply;
pub use tokens::Scope;
pub(crate) use tokens::{LinkCode, Linked, RedeemRequest};
pub(crate) use tokens::{
    MAX_LABEL, MAX_TOKENS, PLAYER_SOCKET_SCOPES, TokenEntry, TokenList, TokenReply, TokenRequest,
};
pub(crate) use tournaments::{
    CreateTournament, DecideRequest, ExtendRequest, TournamentEntry, TournamentList,
    TournamentReply,
};

use core::str::FromStr;

use serde::de::DeserializeOwned;

use salpakan::{
    Move, Outcome, PieceId, PublicView, Rank, Rules, Setup, Side, Status, View, ViewCell,
};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::clock::Reading;

/// A crate value written as one of the contract's words: `Serialize` writes `to_word`,
/// `Deserialize` reads it back with `from_word` (refusing anything else, naming `what`).
macro_rules! word {
    ($(#[$doc:meta])* $name:ident($inner:ty), $what:literal, $to_word:expr, $from_word:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub struct $name(pub $inner);

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let to_word: fn(&$inner) -> String = $to_word;
                serializer.serialize_str(&to_word(&self.0))
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$name, D::Error> {
                let word = String::deserialize(deserializer)?;
                let from_word: fn(&str) -> Option<$inner> = $from_word;
                from_word(&word)
                    .map($name)
                    .ok_or_else(|| D::Error::custom(format!("not {}: {word:?}", $what)))
            }
        }
    };
}

/// A client's JSON, which the contract makes an object every time (a body, a socket's frame):
/// read as `T`, or what is wrong with it. An array, a string or a number is refused before it
/// is read, even where `T` could be read from one (serde reads a tagged enum from an array).
///
/// # Errors
/// The text of a `bad-message` refusal.
pub fn object<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    if !text.trim_start().starts_with('{') {
        // Not JSON at all is said as before; JSON of another kind, here.
        return Err(match serde_json::from_str::<serde::de::IgnoredAny>(text) {
            Ok(_) => "a message is a JSON object, {…}".to_owned(),
            Err(e) => e.to_string(),
        });
    }
    serde_json::from_str(text).map_err(|e| e.to_string())
}

word!(
    /// A side: `"white"` or `"black"`.
    SideWord(Side),
    "a side",
    |side| side.word().to_owned(),
    |word| Side::ALL.into_iter().find(|side| side.word() == word)
);

word!(
    /// A challenge's outcome, the attacker's: `"win"`, `"lose"` or `"tie"`.
    OutcomeWord(Outcome),
    "an outcome",
    |outcome| outcome.name().to_owned(),
    |word| Outcome::from_word(word).ok()
);

word!(
    /// A rank's code, upper case for both sides: `"FL"`, `"PV"`, … `"5G"`, `"SP"`.
    RankCode(Rank),
    "a rank code",
    |rank| rank.code().to_owned(),
    |word| Rank::ALL.into_iter().find(|rank| rank.code() == word)
);

word!(
    /// A move in the crate's notation, `"e3-e4"` (a client may write `"e3xe4"`).
    MoveText(Move),
    "a move",
    |mv| mv.to_string(),
    |word| Move::from_str(word).ok()
);

/// Why a game was aborted: `"setup-time"` (a side had no formation in within the game's
/// setup time) or `"abort"` (a seat called it off before the first ply).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AbortReason {
    /// A side's setup time ran out.
    SetupTime,
    /// A seat sent `abort`.
    Abort,
}

/// A game's phase: `"setup"`, `"playing"`, `"over"`, `"aborted"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Formations are being submitted.
    Setup,
    /// The game goes on.
    Playing,
    /// It has ended.
    Over,
    /// It was called off before its first ply: no result, no formation ever revealed.
    Aborted,
}

impl Phase {
    /// Whether the game has ended, with a result or aborted: nothing more happens in it.
    #[must_use]
    pub fn finished(self) -> bool {
        matches!(self, Phase::Over | Phase::Aborted)
    }
}

impl Phase {
    /// The contract's word.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Phase::Setup => "setup",
            Phase::Playing => "playing",
            Phase::Over => "over",
            Phase::Aborted => "aborted",
        }
    }
}

/// A status as `{"state", "winner", "reason"}` with the crate's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatusWords(pub Status);

#[derive(Serialize, Deserialize)]
struct StatusObject {
    state: String,
    winner: Option<String>,
    reason: Option<String>,
}

impl Serialize for StatusWords {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let status = self.0;
        StatusObject {
            state: status.state_word().to_owned(),
            winner: status.winner().map(|side| side.word().to_owned()),
            reason: status.reason_token().map(str::to_owned),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for StatusWords {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<StatusWords, D::Error> {
        let words = StatusObject::deserialize(deserializer)?;
        Status::from_words(
            &words.state,
            words.winner.as_deref(),
            words.reason.as_deref(),
        )
        .map(StatusWords)
        .map_err(D::Error::custom)
    }
}

/// The clock: `{"white_ms", "black_ms", "running"}` (`null` for an untimed game is an
/// `Option` of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockWords {
    /// White's time left, in milliseconds.
    pub white_ms: u64,
    /// Black's time left, in milliseconds.
    pub black_ms: u64,
    /// The side whose time runs.
    pub running: Option<SideWord>,
}

impl From<Reading> for ClockWords {
    fn from(reading: Reading) -> ClockWords {
        ClockWords {
            white_ms: reading.remaining_ms[0],
            black_ms: reading.remaining_ms[1],
            running: reading.running.map(SideWord),
        }
    }
}

/// The rules: `{"setup_rows", "move_limit", "max_plies"}` (0 for no move limit, and then
/// `max_plies` null), as `POST /api/games` takes the first two.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesWords {
    /// The setup zone's rows, 3 or 4.
    pub setup_rows: u8,
    /// Plies without a challenge that draw; 0 for no limit.
    pub move_limit: u16,
    /// The most plies a game can last under this move limit: every challenge removes a
    /// piece and the game ends when a Flag goes, so at most 41 challenges happen, each after
    /// at most `move_limit` quiet plies (and one more while a Flag waits): 42 × (limit + 1).
    #[serde(default)]
    pub max_plies: Option<u32>,
}

impl RulesWords {
    /// The most plies a game can last under `move_limit`.
    #[must_use]
    pub fn max_plies(move_limit: Option<u16>) -> Option<u32> {
        move_limit.map(|limit| 42 * (u32::from(limit) + 1))
    }
}

impl From<Rules> for RulesWords {
    fn from(rules: Rules) -> RulesWords {
        RulesWords {
            setup_rows: rules.setup_rows(),
            move_limit: rules.move_limit().unwrap_or(0),
            max_plies: RulesWords::max_plies(rules.move_limit()),
        }
    }
}

/// Each seat's presence: `{"white": BOOL, "black": BOOL}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Presence {
    /// Whether White's seat has a socket (a bot's always has).
    pub white: bool,
    /// Whether Black's has.
    pub black: bool,
}

/// A square of a `VIEW`: the side whose piece stands there and, for the recipient's own
/// pieces only, its rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// Whose piece it is.
    pub side: SideWord,
    /// Its rank, for the recipient's own pieces; `null` otherwise.
    pub rank: Option<RankCode>,
}

/// A `VIEW`: the view text and 72 cells by square; a spectator's also says whose move it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewWords {
    /// The crate's view text (a seat's), the public view's text (a spectator's), or a
    /// formation's setup text (a seat's own, in the setup phase).
    pub text: String,
    /// 72 cells, indexed by square (a1 = 0 … i8 = 71).
    pub cells: Vec<Option<Cell>>,
    /// The side to move, in a spectator's view (a seat's `Tracker` knows it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side_to_move: Option<SideWord>,
}

impl ViewWords {
    /// The squares `side`'s pieces stand on in this view (a seat's enemy's: what its
    /// tracker and an engine start from).
    #[must_use]
    pub fn squares_of(&self, side: Side) -> salpakan::Bitboard {
        salpakan::Square::ALL
            .into_iter()
            .zip(&self.cells)
            .filter(|(_, cell)| cell.is_some_and(|c| c.side.0 == side))
            .fold(salpakan::Bitboard::EMPTY, |set, (square, _)| {
                set.with(square)
            })
    }

    /// A seat's view: its own pieces with rank, the enemy's without.
    #[must_use]
    pub fn seat(view: &View) -> ViewWords {
        let (own, enemy) = (view.side(), view.side().other());
        let cells = view
            .cells()
            .iter()
            .map(|cell| match *cell {
                ViewCell::Empty => None,
                ViewCell::Own { rank, .. } => Some(Cell {
                    side: SideWord(own),
                    rank: Some(RankCode(rank)),
                }),
                ViewCell::Enemy { .. } => Some(Cell {
                    side: SideWord(enemy),
                    rank: None,
                }),
            })
            .collect();
        ViewWords {
            text: view.to_text().to_string(),
            cells,
            side_to_move: None,
        }
    }

    /// A spectator's view: every piece's side, no rank, and the side to move.
    #[must_use]
    pub fn public(view: &PublicView) -> ViewWords {
        let cells = view
            .cells()
            .iter()
            .map(|cell| {
                cell.map(|id| Cell {
                    side: SideWord(PieceId::side(id)),
                    rank: None,
                })
            })
            .collect();
        ViewWords {
            text: view.to_text().to_string(),
            cells,
            side_to_move: Some(SideWord(view.side_to_move())),
        }
    }

    /// A seat's view in the setup phase: its own accepted formation, `text` its setup text.
    #[must_use]
    pub fn formation(setup: &Setup) -> ViewWords {
        let side = SideWord(setup.side());
        let cells = setup
            .cells()
            .iter()
            .map(|rank| {
                rank.map(|rank| Cell {
                    side,
                    rank: Some(RankCode(rank)),
                })
            })
            .collect();
        ViewWords {
            text: setup.to_string(),
            cells,
            side_to_move: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use salpakan::WinReason;
    use serde_json::json;

    #[test]
    fn words_are_the_contracts_both_ways() {
        let status = Status::Won {
            winner: Side::Black,
            reason: WinReason::Time,
        };
        let text = serde_json::to_string(&StatusWords(status)).unwrap();
        assert_eq!(text, r#"{"state":"won","winner":"black","reason":"time"}"#);
        assert_eq!(
            serde_json::from_str::<StatusWords>(&text).unwrap().0,
            status
        );
        assert_eq!(
            serde_json::to_value(StatusWords(Status::Ongoing)).unwrap(),
            json!({"state": "ongoing", "winner": null, "reason": null})
        );
        assert!(
            serde_json::from_str::<StatusWords>(r#"{"state":"won","winner":null,"reason":"time"}"#)
                .is_err()
        );
        assert_eq!(
            serde_json::to_string(&SideWord(Side::White)).unwrap(),
            r#""white""#
        );
        assert!(serde_json::from_str::<SideWord>(r#""White""#).is_err());
        assert_eq!(
            serde_json::to_string(&RankCode(Rank::FiveStarGeneral)).unwrap(),
            r#""5G""#
        );
        assert_eq!(
            serde_json::from_str::<OutcomeWord>(r#""tie""#).unwrap().0,
            Outcome::Tie
        );
        let mv: MoveText = serde_json::from_str(r#""e3xe4""#).unwrap();
        assert_eq!(serde_json::to_string(&mv).unwrap(), r#""e3-e4""#);
        assert_eq!(
            serde_json::to_string(&Phase::Playing).unwrap(),
            r#""playing""#
        );
    }
}
