//! The one place every refusal of every service gets its contract code and, over HTTP, its
//! status. A service's error names what went wrong in its own terms; here each becomes the
//! [`Refusal`] a client receives (a code of the contract and a message that names nothing
//! the client does not know), and each code its HTTP status.

use axum::http::StatusCode;

use crate::services::challenges::ChallengeError;
use crate::services::chat::ChatError;
use crate::services::games::GameError;
use crate::services::lobby::LobbyError;
use crate::services::moderation::ModerationError;
use crate::services::players::PlayerError;
use crate::services::quotas::QuotaError;
use crate::services::replays::ReplayError;
use crate::services::tournaments::TournamentsError;
use crate::store::StoreError;
use crate::wire::{Code, Refusal};

/// A service's error as a client hears it.
pub(crate) trait Refused: std::error::Error {
    /// The error of another service (or of the database) this one passes on, if it does.
    fn passed_on(&self) -> Option<&dyn Refused> {
        None
    }

    /// The contract's code of this error's own refusal (one that passes a cause on is refused
    /// as its cause is).
    fn own_code(&self) -> Code;

    /// The code of the contract this error is refused with.
    #[cfg(test)]
    fn code(&self) -> Code {
        self.passed_on()
            .map_or_else(|| self.own_code(), Refused::code)
    }

    /// The cause to log, for a refusal the client hears only as `internal`.
    fn internal(&self) -> Option<String> {
        self.passed_on().and_then(Refused::internal)
    }

    /// The refusal a client receives: the code, and the error's own words (for `internal`,
    /// never the cause).
    fn refusal(&self) -> Refusal {
        match self.passed_on() {
            Some(cause) => cause.refusal(),
            None => Refusal::new(self.own_code(), self.to_string()),
        }
    }
}

/// The HTTP status of a refusal with `code`.
#[must_use]
pub(crate) fn status(code: Code) -> StatusCode {
    match code {
        Code::BadMessage
        | Code::BadSetup
        | Code::IllegalMove
        | Code::NotYourTurn
        | Code::StalePly
        | Code::WrongPhase
        | Code::GameOver
        | Code::BadRules
        | Code::BadClock
        | Code::BadName
        | Code::ChatNotAllowed
        | Code::ChatTooLong
        | Code::ChatBlocked
        | Code::ChatTimeout
        | Code::ChatMuted => StatusCode::BAD_REQUEST,
        Code::Unauthorized | Code::BadKey => StatusCode::UNAUTHORIZED,
        Code::NotDirector
        | Code::NotEligible
        | Code::Sealed
        | Code::HumansOnly
        | Code::OutOfScope
        | Code::NotModerator
        | Code::AccountClosed => StatusCode::FORBIDDEN,
        Code::NotFound => StatusCode::NOT_FOUND,
        Code::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
        Code::SeatTaken
        | Code::NotOver
        | Code::NameTaken
        | Code::NoSocket
        | Code::OwnSeek
        | Code::OwnGame
        | Code::Offline
        | Code::Appealed => StatusCode::CONFLICT,
        Code::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        Code::RateLimited
        | Code::TooManyGames
        | Code::TooManyConnections
        | Code::TooManySeeks
        | Code::TooManyChallenges
        | Code::TooManyPlayers
        | Code::PlayBanned
        | Code::ChatRateLimited
        | Code::ChatFull
        | Code::TooManyMuted
        | Code::TooManyTokens => StatusCode::TOO_MANY_REQUESTS,
        Code::Draining => StatusCode::SERVICE_UNAVAILABLE,
        Code::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl Refused for StoreError {
    /// A node whose lease lapsed (paused past it) or that is stopping gives its games up: the
    /// request is refused as a draining node's (503, try again: another node holds them by
    /// then); every other failure of the database is `internal`.
    fn own_code(&self) -> Code {
        match self {
            StoreError::Fenced | StoreError::Stopped => Code::Draining,
            _ => Code::Internal,
        }
    }

    fn internal(&self) -> Option<String> {
        (self.own_code() == Code::Internal).then(|| self.to_string())
    }

    fn refusal(&self) -> Refusal {
        match self.own_code() {
            Code::Draining => Refusal::new(
                Code::Draining,
                "this node gave its games up (its lease lapsed, or it stops): try again",
            ),
            code => Refusal::new(code, "the server could not do that"),
        }
    }
}

impl Refused for QuotaError {
    fn passed_on(&self) -> Option<&dyn Refused> {
        match self {
            QuotaError::Store(e) => Some(e),
            _ => None,
        }
    }

    fn own_code(&self) -> Code {
        match self {
            QuotaError::TooManyGames(_) | QuotaError::TooManyCreated(_) => Code::TooManyGames,
            QuotaError::TooManyConnections(_) => Code::TooManyConnections,
            QuotaError::TooManySeeks(_) => Code::TooManySeeks,
            QuotaError::TooManyPlayers(_) => Code::TooManyPlayers,
            QuotaError::RateLimited(..) => Code::RateLimited,
            QuotaError::Store(_) => Code::Internal,
        }
    }
}

impl Refused for PlayerError {
    fn passed_on(&self) -> Option<&dyn Refused> {
        match self {
            PlayerError::Quota(e) => Some(e),
            PlayerError::Store(e) => Some(e),
            _ => None,
        }
    }

    fn own_code(&self) -> Code {
        match self {
            PlayerError::BadName => Code::BadName,
            PlayerError::NameTaken => Code::NameTaken,
            PlayerError::BadKey => Code::BadKey,
            PlayerError::NotFound => Code::NotFound,
            PlayerError::BadLimit
            | PlayerError::BadBefore(_)
            | PlayerError::BadDescription(_)
            | PlayerError::BadToken(_) => Code::BadMessage,
            PlayerError::OutOfScope(_) => Code::OutOfScope,
            PlayerError::TooManyTokens => Code::TooManyTokens,
            PlayerError::Closed => Code::AccountClosed,
            PlayerError::Banned(_) => Code::PlayBanned,
            PlayerError::Quota(_) | PlayerError::Store(_) => Code::Internal,
        }
    }
}

impl Refused for ModerationError {
    fn passed_on(&self) -> Option<&dyn Refused> {
        match self {
            ModerationError::Store(e) => Some(e),
            _ => None,
        }
    }

    fn own_code(&self) -> Code {
        match self {
            ModerationError::NotModerator => Code::NotModerator,
            ModerationError::NotFound(_) => Code::NotFound,
            ModerationError::Bad(_) => Code::BadMessage,
            ModerationError::WrongPhase(_) => Code::WrongPhase,
            ModerationError::Appealed => Code::Appealed,
            ModerationError::Store(_) => Code::Internal,
        }
    }
}

impl Refused for GameError {
    fn passed_on(&self) -> Option<&dyn Refused> {
        match self {
            GameError::Quota(e) => Some(e),
            GameError::Store(e) => Some(e),
            _ => None,
        }
    }

    fn own_code(&self) -> Code {
        match self {
            GameError::Invalid(refusal) => refusal.code,
            GameError::NotFound => Code::NotFound,
            GameError::Unauthorized => Code::Unauthorized,
            GameError::SeatTaken => Code::SeatTaken,
            GameError::NotOver => Code::NotOver,
            GameError::GameOver => Code::GameOver,
            GameError::BadKey => Code::BadKey,
            GameError::OwnGame => Code::OwnGame,
            GameError::TooManySockets(_) | GameError::TooManyReconnects(_) => {
                Code::TooManyConnections
            }
            GameError::Draining => Code::Draining,
            #[cfg(feature = "nodes")]
            GameError::Elsewhere(_) => Code::Draining,
            GameError::Quota(_) | GameError::Store(_) => Code::Internal,
        }
    }

    fn refusal(&self) -> Refusal {
        match (self, self.passed_on()) {
            (GameError::Invalid(refusal), _) => refusal.clone(),
            (_, Some(cause)) => cause.refusal(),
            (_, None) => Refusal::new(self.own_code(), self.to_string()),
        }
    }
}

impl Refused for ChatError {
    fn passed_on(&self) -> Option<&dyn Refused> {
        match self {
            ChatError::Store(e) => Some(e),
            ChatError::NotFound => None,
        }
    }

    fn own_code(&self) -> Code {
        match self {
            ChatError::NotFound => Code::NotFound,
            ChatError::Store(_) => Code::Internal,
        }
    }
}

impl Refused for LobbyError {
    fn passed_on(&self) -> Option<&dyn Refused> {
        match self {
            LobbyError::Quota(e) => Some(e),
            LobbyError::Player(e) => Some(e),
            LobbyError::Game(e) => Some(e),
            _ => None,
        }
    }

    fn own_code(&self) -> Code {
        match self {
            LobbyError::NoSocket => Code::NoSocket,
            LobbyError::TooManySeeks(_) => Code::TooManySeeks,
            LobbyError::OwnSeek => Code::OwnSeek,
            LobbyError::NoSeek => Code::NotFound,
            LobbyError::TooManySockets(_) => Code::TooManyConnections,
            LobbyError::HumansOnly(_) => Code::HumansOnly,
            LobbyError::Quota(_) | LobbyError::Player(_) | LobbyError::Game(_) => Code::Internal,
        }
    }
}

impl Refused for ChallengeError {
    fn passed_on(&self) -> Option<&dyn Refused> {
        match self {
            ChallengeError::Lobby(e) => Some(e),
            _ => None,
        }
    }

    fn own_code(&self) -> Code {
        match self {
            ChallengeError::NotFound(_) => Code::NotFound,
            ChallengeError::Own => Code::OwnGame,
            ChallengeError::ServerBot => Code::BadMessage,
            ChallengeError::Offline(_) => Code::Offline,
            ChallengeError::TooMany(_) => Code::TooManyChallenges,
            ChallengeError::Lobby(_) => Code::Internal,
        }
    }
}

impl Refused for TournamentsError {
    fn passed_on(&self) -> Option<&dyn Refused> {
        match self {
            TournamentsError::Game(e) => Some(e),
            TournamentsError::Store(e) => Some(e),
            _ => None,
        }
    }

    fn own_code(&self) -> Code {
        use crate::tournament::event::TournamentError as T;
        match self {
            TournamentsError::NotFound => Code::NotFound,
            TournamentsError::Sealed => Code::Sealed,
            TournamentsError::TooMany(_) => Code::TooManyGames,
            TournamentsError::Refused(T::Invalid(_)) => Code::BadMessage,
            TournamentsError::Refused(T::NotDirector | T::OwnBoard) => Code::NotDirector,
            TournamentsError::Refused(T::NotEligible(_)) => Code::NotEligible,
            TournamentsError::Refused(T::WrongState(_)) => Code::WrongPhase,
            TournamentsError::Refused(T::NoBoard) => Code::NotFound,
            TournamentsError::Game(_) | TournamentsError::Store(_) => Code::Internal,
        }
    }
}

impl Refused for ReplayError {
    fn passed_on(&self) -> Option<&dyn Refused> {
        match self {
            ReplayError::Game(e) => Some(e),
            ReplayError::Unreplayable(_) => None,
        }
    }

    fn own_code(&self) -> Code {
        Code::Internal
    }

    fn internal(&self) -> Option<String> {
        match self {
            ReplayError::Game(e) => e.internal(),
            ReplayError::Unreplayable(cause) => Some(cause.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every code the contract gives a status has the status `docs/SERVER.md` says, and a
    /// service error's refusal keeps the service's words, except for the database's, which
    /// are logged and never sent.
    #[test]
    fn each_refusal_has_its_code_and_status() {
        for (code, expected) in [
            (Code::BadMessage, 400),
            (Code::BadRules, 400),
            (Code::BadName, 400),
            (Code::Unauthorized, 401),
            (Code::BadKey, 401),
            (Code::NotFound, 404),
            (Code::MethodNotAllowed, 405),
            (Code::SeatTaken, 409),
            (Code::NotOver, 409),
            (Code::NameTaken, 409),
            (Code::NoSocket, 409),
            (Code::OwnSeek, 409),
            (Code::OwnGame, 409),
            (Code::Offline, 409),
            (Code::HumansOnly, 403),
            (Code::TooManyChallenges, 429),
            (Code::TooLarge, 413),
            (Code::TooManyGames, 429),
            (Code::TooManyConnections, 429),
            (Code::TooManySeeks, 429),
            (Code::TooManyPlayers, 429),
            (Code::Draining, 503),
            (Code::Internal, 500),
        ] {
            assert_eq!(status(code).as_u16(), expected, "{code:?}");
        }
        let quota = GameError::Quota(QuotaError::TooManyCreated(120));
        assert_eq!(
            quota.refusal(),
            Refusal::new(
                Code::TooManyGames,
                "at most 120 new games an hour per client"
            )
        );
        let stored = LobbyError::Game(GameError::Store(StoreError::Corrupt("row 7".into())));
        assert_eq!(stored.refusal().code, Code::Internal);
        assert!(!stored.refusal().message.contains("row 7"));
        assert!(stored.internal().unwrap().contains("row 7"));
        // A fenced or stopping node's refusal is a draining node's: try again (elsewhere).
        for gone in [StoreError::Fenced, StoreError::Stopped] {
            let refused = GameError::Store(gone);
            assert_eq!(refused.refusal().code, Code::Draining);
            assert_eq!(status(refused.code()).as_u16(), 503);
            assert_eq!(refused.internal(), None);
        }
        assert_eq!(
            LobbyError::Quota(QuotaError::TooManySeeks(12)).refusal(),
            Refusal::new(Code::TooManySeeks, "at most 12 open seeks")
        );
        assert_eq!(PlayerError::NotFound.refusal().code, Code::NotFound);
        #[cfg(feature = "nodes")]
        assert_eq!(
            GameError::Elsewhere("http://b".into()).code(),
            Code::Draining
        );
    }
}
