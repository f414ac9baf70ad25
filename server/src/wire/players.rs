//! The contract's players, lobby and pairing, typed: the HTTP bodies of `/api/players`,
//! `/api/lobby`, `/api/seeks` and `/api/pool`, and the frames of the player socket and the
//! lobby socket. Nothing here depends on a formation or a rank.

use serde::{Deserialize, Serialize};

use super::{Code, RulesWords, SideWord};
use crate::clock::ClockSettings;

/// `POST /api/players`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegisterRequest {
    /// The name asked for.
    pub name: String,
    /// A bot account (default false): marked as a bot everywhere, for good.
    #[serde(default)]
    pub bot: Option<bool>,
    /// A bot account's description (at most `MAX_DESCRIPTION` characters): what it is, who
    /// runs it.
    #[serde(default)]
    pub description: Option<String>,
}

/// The longest description of a bot account, in characters.
pub(crate) const MAX_DESCRIPTION: usize = 200;

/// One bot of `GET /api/bots`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct BotEntry {
    /// Its name.
    pub name: String,
    /// Its rating, rounded.
    pub rating: i64,
    /// Its rating deviation, rounded.
    pub rd: i64,
    /// Finished games.
    pub games: u64,
    /// Whether it is online: a server bot always, a bot account while its player socket is
    /// open.
    pub online: bool,
    /// Whether it is one of the server's own bots (a reference: the levels).
    pub server: bool,
    /// Its owner's description (a server bot's says which agent it is).
    pub description: Option<String>,
}

/// `GET /api/bots`: every bot, the highest rated first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct BotList {
    /// The bots.
    pub bots: Vec<BotEntry>,
}

/// The reply to `POST /api/players`: the name and its secret key (the only time it is sent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct RegisterReply {
    /// The name, as registered.
    pub name: String,
    /// The player's key.
    pub key: String,
}

/// `GET /api/players/{name}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Profile {
    /// The name.
    pub name: String,
    /// Whether it is a bot: one of the server's, or a bot account.
    pub bot: bool,
    /// A bot account's description (an addition; absent for a person).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The rating, rounded.
    pub rating: i64,
    /// The rating deviation, rounded.
    pub rd: i64,
    /// Whether the rating is provisional (RD above 110).
    pub provisional: bool,
    /// The army rank the rating earns, `"Recruit"` while provisional.
    pub title: String,
    /// Finished games (rated and unrated; aborted games are not counted).
    pub games: u64,
    /// Of which won.
    pub won: u64,
    /// Lost.
    pub lost: u64,
    /// Drawn.
    pub drawn: u64,
    /// Its rated games' changes, newest first (at most [`HISTORY_SHOWN`]).
    pub history: Vec<Rated>,
}

/// The rated games a profile shows.
pub(crate) const HISTORY_SHOWN: usize = 10;

/// One rated game's change of a player's rating, rounded as ratings are shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Rated {
    /// The game.
    pub game: String,
    /// The rating before it.
    pub before: i64,
    /// The rating after it.
    pub after: i64,
    /// When it ended, in milliseconds since the Unix epoch.
    pub ended_ms: u64,
}

/// Each seat's rating before and after a rated game (`null` for a game rated for nobody).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    /// Before.
    pub before: i64,
    /// After.
    pub after: i64,
}

/// A rated game's changes, by seat.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Changes {
    /// White's.
    pub white: Option<Change>,
    /// Black's.
    pub black: Option<Change>,
}

/// One finished game in `GET /api/players/{name}/games`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Listed {
    /// The game's id.
    pub game: String,
    /// Each seat's player's name.
    pub names: Names,
    /// Whether each seat's player is a bot.
    pub bots: Bots,
    /// How it ended, as the summary's `status` says it.
    pub status: super::StatusWords,
    /// Whether it was rated.
    pub rated: bool,
    /// Why it was not, when it was asked rated (an addition; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unrated: Option<super::Unrated>,
    /// Each seat's rating before and after it, for a rated game (`null` otherwise).
    pub ratings: Option<Changes>,
    /// The plies played.
    pub plies: u64,
    /// When it ended, in milliseconds since the Unix epoch.
    pub ended_ms: u64,
}

/// `GET /api/players/{name}/games`: newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct GameList {
    /// The games.
    pub games: Vec<Listed>,
}

/// One player of `GET /api/leaderboard`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Ranked {
    /// The name.
    pub name: String,
    /// Whether it is one of the server's bots.
    pub bot: bool,
    /// The rating, rounded.
    pub rating: i64,
    /// The rating deviation, rounded.
    pub rd: i64,
    /// Finished games.
    pub games: u64,
    /// The army rank the rating earns.
    pub title: String,
}

/// `GET /api/leaderboard`: at most [`LEADERBOARD_SIZE`] players whose ratings are not
/// provisional, highest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Leaderboard {
    /// The players.
    pub players: Vec<Ranked>,
}

/// The most players `GET /api/leaderboard` lists.
pub(crate) const LEADERBOARD_SIZE: usize = 50;
/// The games `GET /api/players/{name}/games` lists without a `limit`.
pub(crate) const GAMES_LISTED: usize = 20;
/// The most games one page of `GET /api/players/{name}/games` lists.
pub(crate) const MAX_GAMES_LISTED: usize = 100;

/// Each seat's player's name; `null` for an anonymous seat.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Names {
    /// White's.
    pub white: Option<String>,
    /// Black's.
    pub black: Option<String>,
}

/// Whether each seat's player is a bot (a game summary's and a list's `bots`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bots {
    /// White's.
    pub white: bool,
    /// Black's.
    pub black: bool,
}

super::with_settings! {
    /// `POST /api/seeks`: every field optional.
    #[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(default)]
    pub struct SeekRequest {
        /// Whether a bot account may accept it (default false: people only; a bot's own
        /// seek always allows bots) (an addition).
        pub bots: Option<bool>,
    }
}

/// The reply to `POST /api/seeks`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SeekReply {
    /// The seek's id.
    pub seek: String,
}

/// An open seek as the lobby shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeekWords {
    /// Its id.
    pub seek: String,
    /// Its owner's name.
    pub name: String,
    /// Whether its owner is a bot.
    pub bot: bool,
    /// Its owner's rating, rounded.
    pub rating: i64,
    /// Whether that rating is provisional.
    pub provisional: bool,
    /// The clock; `null` for an untimed game.
    pub clock: Option<ClockSettings>,
    /// The rules.
    pub rules: RulesWords,
    /// Whether the game is rated.
    pub rated: bool,
    /// The setup time (an addition).
    pub setup_ms: u64,
    /// Whether a bot account may accept it (an addition): a bot's seek always, a
    /// person's when it asked for `"bots": true`.
    #[serde(default)]
    pub bots: bool,
}

/// `GET /api/lobby`, and the lobby socket's `lobby` frame's content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lobby {
    /// The open seeks, oldest first.
    pub seeks: Vec<SeekWords>,
    /// Games in play.
    pub playing: usize,
}

/// `POST /api/pool`: every field optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PoolRequest {
    /// The clock; untimed when absent or null.
    pub clock: Option<ClockSettings>,
    /// Whether the games are rated (default false).
    pub rated: Option<bool>,
    /// Whether the game is listed (default true; a pairing is unlisted if either player
    /// asked for that).
    pub listed: Option<bool>,
    /// Whether the pool allows bots (default false: a pool of people only, which a bot
    /// account may not join). A pool that allows bots is the bots' arena: its name ends
    /// `" bots"`, and the server's levels take a seat opposite whoever waits there too long
    /// (an addition).
    pub bots: Option<bool>,
}

/// The reply to `POST /api/pool`: the pool's name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct PoolReply {
    /// The pool, as `"5+3"` (minutes and seconds of increment) or `"untimed"`, with
    /// `" rated"` for a rated pool.
    pub pool: String,
    /// How long until a server bot takes the other seat if nobody comes, in milliseconds
    /// (`null`: the server never seats one) (an addition).
    pub bot_after_ms: Option<u64>,
}

/// A pool's name: `"5+3"` (minutes, and seconds of increment), or milliseconds where they
/// are not whole, or `"untimed"`; `" rated"` after a rated pool's.
#[must_use]
pub fn pool_name(clock: Option<ClockSettings>, rated: bool) -> String {
    let clock = match clock {
        None => "untimed".to_owned(),
        Some(c) if c.initial_ms % 60_000 == 0 && c.increment_ms % 1000 == 0 => {
            format!("{}+{}", c.initial_ms / 60_000, c.increment_ms / 1000)
        }
        Some(c) => format!("{}ms+{}ms", c.initial_ms, c.increment_ms),
    };
    if rated {
        format!("{clock} rated")
    } else {
        clock
    }
}

/// A frame from a client on the player socket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub enum PlayerClientMessage {
    /// The first frame: the player's key.
    Auth {
        /// The key.
        key: String,
    },
    /// Answered with a pong.
    Ping,
}

/// A frame the server sends on the player socket or the lobby socket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub enum LobbyMessage {
    /// The key was good: the socket is the player's.
    Welcome {
        /// The player's name.
        name: String,
    },
    /// One of the player's seeks was accepted, or the pool paired the player: its seat.
    Paired {
        /// The game.
        game: String,
        /// The player's side.
        side: SideWord,
        /// The player's seat token in it.
        token: String,
    },
    /// A tournament paired the player (an addition): its seat in game `game`, to be set up
    /// by `cutoff_ms` (a game not started by then is a default). A player away when it was
    /// paired takes its seat with `POST /api/games/{id}/seat`.
    TournamentGame {
        /// The tournament.
        tournament: String,
        /// The round, from 1.
        round: usize,
        /// The game.
        game: String,
        /// The player's side.
        side: SideWord,
        /// The player's seat token in it.
        token: String,
        /// The round's cutoff, in milliseconds since the Unix epoch.
        cutoff_ms: u64,
    },
    /// A challenge to the player, or the player's own (an addition): on both players'
    /// sockets when it is made, and to a socket that opens while it stands.
    Challenge(super::ChallengeOffer),
    /// A challenge ended without a game, or with one (`accepted`; the challenger hears
    /// `paired` too) (an addition).
    ChallengeGone {
        /// The challenge.
        challenge: String,
        /// Why it ended.
        reason: super::challenges::Gone,
        /// What the challenged player said, when it declined.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        decline: Option<super::challenges::DeclineReason>,
    },
    /// A moderator acted on the player (an addition): what, and why.
    Moderated(super::Told),
    /// The lobby now (the lobby socket's frame).
    Lobby {
        /// The lobby's version, on a socket opened with `?deltas=1` (an addition).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        v: Option<u64>,
        /// The open seeks.
        seeks: Vec<SeekWords>,
        /// Games in play.
        playing: usize,
    },
    /// What changed since version `v - 1`, on a socket opened with `?deltas=1` (an
    /// addition): seeks added, seeks gone, the order of the seeks shown now (newest first),
    /// and the games in play.
    LobbyDelta {
        /// The lobby's version.
        v: u64,
        /// Seeks new since the version before.
        added: Vec<SeekWords>,
        /// Seeks no longer shown.
        gone: Vec<String>,
        /// Every seek shown now, by id, newest first.
        order: Vec<String>,
        /// Games in play.
        playing: usize,
    },
    /// A frame refused; nothing changed.
    Error {
        /// Why.
        code: Code,
        /// What was wrong.
        message: String,
    },
    /// The answer to a ping.
    Pong,
}

impl LobbyMessage {
    /// The frame's text.
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Whether `name` is one the contract allows: 3 to 20 characters from `A-Z a-z 0-9 _ -`.
#[must_use]
pub fn valid_name(name: &str) -> bool {
    (3..=20).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The prefix of the server's bots' names (refused to anyone else, in any case, and in every
/// look-alike: see [`skeleton`]).
pub(crate) const BOT_PREFIX: &str = "bot-";

/// A name as look-alikes fold it: lower case, `_` as `-`, `0` as `o`, `1` and `i` as `l`.
/// Two names with one skeleton are one name to a reader (`Mar1a_S`, `maria-s`), so a name is
/// refused when its skeleton is another player's, or begins as a bot's ([`BOT_PREFIX`]). The
/// same fold is written in SQL for PostgreSQL (`translate(lower(name), '_01i', '-oll')`).
#[must_use]
pub(crate) fn skeleton(name: &str) -> String {
    name.chars()
        .map(|c| match c.to_ascii_lowercase() {
            '_' => '-',
            '0' => 'o',
            '1' | 'i' => 'l',
            other => other,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_are_named_by_clock_and_rated_flag() {
        let clock = |initial_ms, increment_ms| {
            Some(ClockSettings {
                initial_ms,
                increment_ms,
            })
        };
        assert_eq!(pool_name(clock(300_000, 3_000), false), "5+3");
        assert_eq!(pool_name(clock(600_000, 0), true), "10+0 rated");
        assert_eq!(pool_name(None, false), "untimed");
        assert_eq!(pool_name(clock(90_500, 250), false), "90500ms+250ms");
    }

    #[test]
    fn look_alikes_fold_to_one_skeleton() {
        assert_eq!(skeleton("Mar1a_S"), skeleton("maria-s"));
        assert_eq!(skeleton("b0t_greedy"), "bot-greedy");
        assert!(skeleton("BOT_random").starts_with(BOT_PREFIX));
        assert_eq!(skeleton("Iliad"), skeleton("l1lad"));
        assert_ne!(skeleton("maria"), skeleton("marla_"));
    }

    #[test]
    fn names_are_three_to_twenty_of_the_allowed_characters() {
        for good in ["abc", "Maria_Santos-7", "x".repeat(20).as_str()] {
            assert!(valid_name(good), "{good}");
        }
        for bad in [
            "ab",
            "",
            "x".repeat(21).as_str(),
            "a b c",
            "ñandu",
            "a.b.c",
            "abc!",
        ] {
            assert!(!valid_name(bad), "{bad}");
        }
    }

    #[test]
    fn frames_are_spelled_as_the_contract_says() {
        let paired = LobbyMessage::Paired {
            game: "g".into(),
            side: SideWord(salpakan::Side::Black),
            token: "t".into(),
        };
        assert_eq!(
            paired.to_json(),
            r#"{"t":"paired","game":"g","side":"black","token":"t"}"#
        );
        assert_eq!(
            serde_json::from_str::<PlayerClientMessage>(r#"{"t":"auth","key":"k"}"#).unwrap(),
            PlayerClientMessage::Auth { key: "k".into() }
        );
    }
}
