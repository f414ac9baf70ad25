//! A refused request, one type for the socket's `error` frame and the HTTP error reply: its
//! fixed code and a message naming only what the recipient already knows.

use core::fmt;

use serde::{Deserialize, Serialize};

use super::{ErrorBody, ServerMessage};

/// The contract's refusal codes (`docs/SERVER.md`), socket and HTTP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Code {
    /// Not a message of the contract: not JSON, an unknown type, a field missing or of the
    /// wrong type or shape (socket and HTTP).
    BadMessage,
    /// A well-formed formation the rules refuse.
    BadSetup,
    /// A well-formed move the rules refuse.
    IllegalMove,
    /// A move out of turn.
    NotYourTurn,
    /// A move made for another ply than the current one.
    StalePly,
    /// A request this phase does not allow.
    WrongPhase,
    /// A request after the end.
    GameOver,
    /// Too many messages: the socket is closing.
    RateLimited,
    /// Rules out of range (HTTP).
    BadRules,
    /// A clock out of range (HTTP).
    BadClock,
    /// A request body over its limit (HTTP).
    TooLarge,
    /// No such game, route, or invite (HTTP).
    NotFound,
    /// A route asked with a method it does not take (HTTP 405).
    MethodNotAllowed,
    /// No such game or seat, for a socket (HTTP).
    Unauthorized,
    /// The seat is taken (HTTP).
    SeatTaken,
    /// The record of a game that is not over (HTTP).
    NotOver,
    /// Too many unfinished games from one address (HTTP).
    TooManyGames,
    /// Too many sockets from one address (HTTP).
    TooManyConnections,
    /// The server could not do it (HTTP; the cause is logged, never sent).
    Internal,
    /// A player name that is not 3 to 20 of `A-Z a-z 0-9 _ -` (HTTP).
    BadName,
    /// A name taken (in any case), or one of the bots' (HTTP).
    NameTaken,
    /// A missing or wrong player key (HTTP, and the player socket's close 4401).
    BadKey,
    /// A seek or pool entry made with no player socket open (HTTP).
    NoSocket,
    /// Past the open seeks a player (or an address) may have (HTTP).
    TooManySeeks,
    /// A player accepting its own seek (HTTP).
    OwnSeek,
    /// A player joining a game whose other seat it holds (HTTP; an addition).
    OwnGame,
    /// Past the players an address may register in an hour (HTTP; an addition).
    TooManyPlayers,
    /// The server is draining and makes no new game: another node (or this one after its
    /// restart) will (HTTP 503; an addition).
    Draining,
    /// A player who aborted or resigned early too often: the lobby pairs it with nobody until
    /// its ban ends (HTTP 429; an addition).
    PlayBanned,
    /// A chat line this socket may not say: chat off, a free line where only phrases are
    /// allowed, a spectator with no player's name (socket; an addition).
    ChatNotAllowed,
    /// A free chat line past its length (socket; an addition).
    ChatTooLong,
    /// A free chat line with a word the server does not carry (socket; an addition).
    ChatBlocked,
    /// Past the chat lines a socket or a player may say in a while (socket; an addition).
    ChatRateLimited,
    /// A game's room holds all the lines it keeps, or the speaker said its share of them
    /// (socket; an addition).
    ChatFull,
    /// A seat or socket mutes as many as it may (socket; an addition).
    TooManyMuted,
    /// Only a tournament's directors may do that (HTTP 403; an addition).
    NotDirector,
    /// A player outside a tournament's eligibility, or one that is full (HTTP 403; an
    /// addition).
    NotEligible,
    /// A record, replay, chat or watch of a game of a tournament not finished, asked by
    /// anyone but its two players (HTTP 403; an addition).
    Sealed,
    /// A bot account joining a pool, or accepting a seek, of people only (HTTP 403; an
    /// addition).
    HumansOnly,
    /// A challenge to a player with no player socket open (HTTP 409; an addition).
    Offline,
    /// Past a player's open challenges, or its challenges a minute (HTTP 429; an addition).
    TooManyChallenges,
    /// A token whose scopes do not cover the request, or a request only the player's key may
    /// make (HTTP 403, and the chat's `auth`).
    OutOfScope,
    /// A player holding as many tokens as it may (HTTP 429; an addition).
    TooManyTokens,
    /// The moderators' desk asked by a player who is not a moderator (HTTP 403; an
    /// addition).
    NotModerator,
    /// A chat line of a player a moderator timed out (socket; an addition).
    ChatTimeout,
    /// A chat line of a player a moderator muted (socket; an addition).
    ChatMuted,
    /// A request made with the key of an account a moderator closed (HTTP 403, the player
    /// socket's close 4401; an addition).
    AccountClosed,
    /// A second appeal of one action (HTTP 409; an addition).
    Appealed,
}

impl Code {
    /// The code's word, as the contract writes it (`"bad-message"`, …).
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Code::BadMessage => "bad-message",
            Code::BadSetup => "bad-setup",
            Code::IllegalMove => "illegal-move",
            Code::NotYourTurn => "not-your-turn",
            Code::StalePly => "stale-ply",
            Code::WrongPhase => "wrong-phase",
            Code::GameOver => "game-over",
            Code::RateLimited => "rate-limited",
            Code::BadRules => "bad-rules",
            Code::BadClock => "bad-clock",
            Code::TooLarge => "too-large",
            Code::NotFound => "not-found",
            Code::MethodNotAllowed => "method-not-allowed",
            Code::Unauthorized => "unauthorized",
            Code::SeatTaken => "seat-taken",
            Code::NotOver => "not-over",
            Code::TooManyGames => "too-many-games",
            Code::TooManyConnections => "too-many-connections",
            Code::Internal => "internal",
            Code::BadName => "bad-name",
            Code::NameTaken => "name-taken",
            Code::BadKey => "bad-key",
            Code::NoSocket => "no-socket",
            Code::TooManySeeks => "too-many-seeks",
            Code::OwnSeek => "own-seek",
            Code::OwnGame => "own-game",
            Code::TooManyPlayers => "too-many-players",
            Code::Draining => "draining",
            Code::PlayBanned => "play-banned",
            Code::ChatNotAllowed => "chat-not-allowed",
            Code::ChatTooLong => "chat-too-long",
            Code::ChatBlocked => "chat-blocked",
            Code::ChatRateLimited => "chat-rate-limited",
            Code::ChatFull => "chat-full",
            Code::TooManyMuted => "too-many-muted",
            Code::NotDirector => "not-director",
            Code::NotEligible => "not-eligible",
            Code::Sealed => "sealed",
            Code::HumansOnly => "humans-only",
            Code::Offline => "offline",
            Code::TooManyChallenges => "too-many-challenges",
            Code::OutOfScope => "out-of-scope",
            Code::TooManyTokens => "too-many-tokens",
            Code::NotModerator => "not-moderator",
            Code::ChatTimeout => "chat-timeout",
            Code::ChatMuted => "chat-muted",
            Code::AccountClosed => "account-closed",
            Code::Appealed => "appealed",
        }
    }
}

/// A refused request: its code and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// One of the contract's codes.
    pub code: Code,
    /// What was wrong, naming only what the recipient already knows.
    pub message: String,
}

impl Refusal {
    /// A refusal with `code` saying `message`.
    pub fn new(code: Code, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }

    /// The socket's `error` message.
    #[must_use]
    pub fn message(&self) -> ServerMessage {
        ServerMessage::Error {
            code: self.code,
            message: self.message.clone(),
        }
    }

    /// The HTTP reply's body, `{"error", "message"}`.
    #[must_use]
    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            error: self.code,
            message: self.message.clone(),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.word(), self.message)
    }
}

impl std::error::Error for Refusal {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_written_as_its_word() {
        let all = [
            Code::BadMessage,
            Code::BadSetup,
            Code::IllegalMove,
            Code::NotYourTurn,
            Code::StalePly,
            Code::WrongPhase,
            Code::GameOver,
            Code::RateLimited,
            Code::BadRules,
            Code::BadClock,
            Code::TooLarge,
            Code::NotFound,
            Code::MethodNotAllowed,
            Code::Unauthorized,
            Code::SeatTaken,
            Code::NotOver,
            Code::TooManyGames,
            Code::TooManyConnections,
            Code::Internal,
            Code::BadName,
            Code::NameTaken,
            Code::BadKey,
            Code::NoSocket,
            Code::TooManySeeks,
            Code::OwnSeek,
            Code::OwnGame,
            Code::TooManyPlayers,
            Code::Draining,
            Code::PlayBanned,
            Code::ChatNotAllowed,
            Code::ChatTooLong,
            Code::ChatBlocked,
            Code::ChatRateLimited,
            Code::ChatFull,
            Code::TooManyMuted,
            Code::NotDirector,
            Code::NotEligible,
            Code::Sealed,
            Code::HumansOnly,
            Code::Offline,
            Code::TooManyChallenges,
            Code::OutOfScope,
            Code::TooManyTokens,
            Code::NotModerator,
            Code::ChatTimeout,
            Code::ChatMuted,
            Code::AccountClosed,
            Code::Appealed,
        ];
        for code in all {
            let json = serde_json::to_string(&code).unwrap();
            assert_eq!(json, format!("\"{}\"", code.word()));
            assert_eq!(serde_json::from_str::<Code>(&json).unwrap(), code);
        }
        let refusal = Refusal::new(Code::NotOver, "the game is not over");
        assert_eq!(
            serde_json::to_string(&refusal.body()).unwrap(),
            r#"{"error":"not-over","message":"the game is not over"}"#
        );
        assert_eq!(
            refusal.message().to_json(),
            r#"{"t":"error","code":"not-over","message":"the game is not over"}"#
        );
    }
}
