//! What a game is made with: who plays each seat, the settings the `games` table holds, and
//! what the database gives back to restore a room.

use core::str::FromStr;

use salpakan::commitment::Salt;
use salpakan::{Bot, Rules, Side};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::Event;
use crate::clock::ClockSettings;

/// Who plays a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// A person (or an external bot) with the seat's token.
    Human,
    /// The server's own agent.
    Bot(Bot),
}

/// A word that names no player.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("opponent must be human, random, greedy, ismcts or level-1 to level-8, not {0:?}")]
pub(crate) struct UnknownPlayer(pub String);

impl Player {
    /// `"human"` or the bot's word (`"random"`, `"greedy"`, `"ismcts"`, `"level-1"` …).
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Bot(kind) => kind.word(),
        }
    }

    /// The player name of a server bot (`bot-greedy`); `None` for a person.
    #[must_use]
    pub(crate) fn bot_name(self) -> Option<String> {
        match self {
            Player::Human => None,
            Player::Bot(kind) => Some(format!("{}{}", crate::wire::BOT_PREFIX, kind.word())),
        }
    }

    /// `"human"` or `"bot"`, as a game's summary says who plays.
    #[must_use]
    pub(crate) fn kind_word(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Bot(_) => "bot",
        }
    }

    /// Reads [`Player::word`].
    ///
    /// # Errors
    /// [`UnknownPlayer`] for any other word.
    pub(crate) fn from_word(word: &str) -> Result<Player, UnknownPlayer> {
        match word {
            "human" => Ok(Player::Human),
            other => Bot::from_str(other)
                .map(Player::Bot)
                .map_err(|_| UnknownPlayer(other.to_owned())),
        }
    }
}

/// What a game is made with: everything the `games` table holds of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    /// The game's public id.
    pub id: String,
    /// The rules.
    pub rules: Rules,
    /// The side that moves first.
    pub first: Side,
    /// Who plays White and Black.
    pub players: [Player; 2],
    /// The clock, for a timed game.
    pub clock: Option<ClockSettings>,
    /// The SHA-256 of each seat's token, once the seat is taken (a bot's stays `None`).
    pub tokens: [Option<String>; 2],
    /// The SHA-256 of the invite code, for a game against a person.
    pub invite: Option<String>,
    /// The bot's seed (its formation and its choices follow from it).
    pub bot_seed: u64,
    /// White's and Black's secret salts for the formation commitments, 128 bits each from
    /// the OS's generator (`None` for a game stored before commitments: it publishes none).
    /// Never sent before the game's end, and never for an aborted game.
    pub salts: Option<[Salt; 2]>,
    /// When the game was created, in milliseconds since the Unix epoch (a game whose seats
    /// are not both taken expires from then).
    pub created_ms: u64,
    /// Milliseconds each side has, from `seated_ms`, to have its formation accepted.
    pub setup_ms: u64,
    /// Each seat's player's name (a bot's is its player name, `bot-greedy`), `None` for an
    /// anonymous seat or one not yet taken.
    pub names: [Option<String>; 2],
    /// Whether the game is rated.
    pub rated: bool,
    /// Why the game, asked rated, is played unrated (then `rated` is false).
    pub unrated: Option<crate::wire::Unrated>,
    /// Whether the game is listed (in its players' lists of games; an unlisted game's record
    /// and replay reach whoever has its link).
    pub listed: bool,
    /// Whether the game is sealed (a tournament's): a spectator's `over` carries no record
    /// (the formations are opened only to its players, and to everyone through the record's
    /// route once the tournament ends), and it has no rematch.
    pub sealed: bool,
    /// When both seats were taken (a bot's at once), in milliseconds since the Unix epoch;
    /// `None` while a seat is open. The setup time runs from then.
    pub seated_ms: Option<u64>,
    /// Whether each seat's named player is a bot account (not stored: the games service
    /// reads it from the players whenever it makes, seats or restores a game, since an
    /// account's bot flag never changes). A bot account's seat is marked a bot in every
    /// summary and state, and its moves keep the bots' think-time floor.
    pub bot_accounts: [bool; 2],
}

impl Spec {
    /// An untimed game `id` of `players` under the official rules, White first, no seat
    /// taken, no invite, bot seed `bot_seed`, made at the Unix epoch, the default setup time
    /// not yet running: what a test or a fuzz target starts from (the server makes its games
    /// with every field chosen).
    #[must_use]
    pub fn plain(id: &str, players: [Player; 2], bot_seed: u64) -> Spec {
        Spec {
            id: id.to_owned(),
            rules: Rules::default(),
            first: Side::White,
            players,
            clock: None,
            tokens: [None, None],
            invite: None,
            bot_seed,
            salts: Some(Side::ALL.map(|side| test_salt(bot_seed, side))),
            created_ms: 0,
            setup_ms: crate::wire::SETUP_MS,
            names: [None, None],
            rated: false,
            unrated: None,
            listed: true,
            sealed: false,
            seated_ms: None,
            bot_accounts: [false; 2],
        }
    }
}

/// A salt drawn from `seed` for `side`: what [`Spec::plain`] gives a test's game, never a
/// served one (the server draws each salt from the OS's generator).
fn test_salt(seed: u64, side: Side) -> Salt {
    let mut bytes = [0_u8; Salt::BYTES];
    for (i, half) in bytes.chunks_exact_mut(8).enumerate() {
        let n = 2 * side.index() as u64 + i as u64;
        half.copy_from_slice(&crate::secret::derive(seed, "test-salt", n).to_le_bytes());
    }
    Salt::from_bytes(bytes)
}

impl Spec {
    /// Whether every seat a person plays is held by a token.
    #[must_use]
    pub(crate) fn all_seated(&self) -> bool {
        Side::ALL.into_iter().all(|side| {
            self.players[side.index()] != Player::Human || self.tokens[side.index()].is_some()
        })
    }
}

/// What a room is restored from: its spec, formations and events, as the database holds
/// them.
#[derive(Debug, Clone)]
pub struct Saved {
    /// The spec.
    pub spec: Spec,
    /// Each side's accepted formation, as cell values (the `ready` events carry none: a
    /// formation is kept apart from the public log).
    pub setups: [Option<Vec<u8>>; 2],
    /// The events, in order of version.
    pub events: Vec<Event>,
    /// The address of the client that created the game, while it is unfinished (for the
    /// limit of games per address; the room itself never reads it).
    pub creator: Option<std::net::IpAddr>,
    /// Each seat's address when it was taken, while kept (for the bounds of rated games a
    /// day, and a rematch's count of games an hour; the room itself never reads them).
    pub ips: [Option<std::net::IpAddr>; 2],
    /// Its chat (the room itself never reads it: the games service does).
    pub chat: SavedChat,
}

/// A game's chat as the database keeps it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SavedChat {
    /// Its lines, both rooms, each in order.
    pub lines: Vec<crate::wire::ChatLine>,
    /// Each seat's chat mode as last set (`None`: the game's default).
    pub modes: [Option<crate::wire::ChatMode>; 2],
}
