//! The socket's messages: what a client sends, and every message the server sends, each with
//! its type `t` first.

use salpakan::Square;

use super::{Channel, Phrase};
use serde::{Deserialize, Serialize};

use super::{
    AbortReason, Bots, ChatLine, ChatMode, ChatSettings, ClockWords, Code, Commitments, MoveText,
    Names, OutcomeWord, Phase, Presence, RulesWords, SideWord, StatusWords, Unrated, ViewWords,
};

/// A message from a client, as the contract spells it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub(crate) enum ClientMessage {
    /// The seat's formation: 72 cell values (a rank's number 0 … 14, or 255 for empty).
    Setup {
        /// The cells, indexed by square (a1 = 0 … i8 = 71).
        cells: Vec<i64>,
    },
    /// A move, with the number of plies already played.
    Move {
        /// `"e3-e4"` (or `"e3xe4"`), read by the room (an unreadable one is refused there,
        /// naming it).
        #[serde(rename = "move")]
        mv: String,
        /// Plies already played when the client chose it.
        ply: u64,
    },
    /// Resign.
    Resign,
    /// Offer a draw, or accept the opponent's standing offer.
    Draw,
    /// Call the game off, until its first ply has been played.
    Abort,
    /// After the end: ask for a rematch, or accept the opponent's standing request.
    Rematch,
    /// On reconnect: the events after version `v`.
    Hello {
        /// The last version the client has.
        v: u64,
    },
    /// Answered with a pong.
    Ping,
    /// A chat line: a preset `phrase`, or a free `text` (exactly one of the two). A seat
    /// says it in the players' room, a spectator in the spectators'.
    Say {
        /// The phrase's word.
        #[serde(default)]
        phrase: Option<Phrase>,
        /// A free line.
        #[serde(default)]
        text: Option<String>,
    },
    /// This seat's (or this spectator socket's) chat mode.
    ChatMode {
        /// `"off"`, `"presets"` or `"free"`.
        mode: ChatMode,
    },
    /// Hides the lines of `who` (a side's word, or a player's name) from this seat, or this
    /// spectator's socket.
    Mute {
        /// Whose lines.
        who: String,
    },
    /// Shows the lines of `who` again.
    Unmute {
        /// Whose lines.
        who: String,
    },
    /// Reports line `n` of `room` to the operator.
    Report {
        /// The room.
        room: Channel,
        /// The line's number.
        n: u64,
    },
    /// A spectator names itself with its player's key, to say lines in the spectators' room.
    Auth {
        /// The player's key.
        key: String,
    },
}

impl ClientMessage {
    /// Reads one frame's text.
    ///
    /// # Errors
    /// What is wrong with it (the text of a `bad-message` error): not JSON, no or an unknown
    /// `t`, a missing field or one of the wrong type, a formation of other than 72 cells.
    pub fn parse(text: &str) -> Result<ClientMessage, String> {
        let message: ClientMessage = super::object(text)?;
        if let ClientMessage::Setup { cells } = &message
            && cells.len() != Square::NUM
        {
            return Err(format!(
                "a formation has {} cells, not {}",
                Square::NUM,
                cells.len()
            ));
        }
        if let ClientMessage::Say { phrase, text } = &message
            && phrase.is_some() == text.is_some()
        {
            return Err("a chat line is a phrase or a text: exactly one".into());
        }
        Ok(message)
    }
}

/// Every message the server sends on a game socket. The events (`ready` … `over`) carry the
/// game's version `v`; `state`, `presence`, `error` and `pong` are for one moment or one
/// socket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub enum ServerMessage {
    /// The game now, as the recipient may see it: on connect, and after a `hello` that cannot
    /// be served from events.
    State {
        /// The latest version.
        v: u64,
        /// The recipient's side; `null` for a spectator.
        side: Option<SideWord>,
        /// The phase.
        phase: Phase,
        /// The recipient's view (`null` before there is one).
        view: Option<ViewWords>,
        /// The status.
        status: StatusWords,
        /// The clock, for a timed game.
        clock: Option<ClockWords>,
        /// The side whose draw offer stands.
        draw_offer: Option<SideWord>,
        /// Each seat's presence.
        presence: Presence,
        /// The rules.
        rules: RulesWords,
        /// The game's setup time, in milliseconds.
        setup_ms: u64,
        /// What is left of it, rounded up to a whole second, while it runs (both seats
        /// taken, a formation missing); `null` otherwise.
        setup_left_ms: Option<u64>,
        /// Each seat's player's name (`null`: anonymous).
        names: Names,
        /// Whether the game is rated.
        rated: bool,
        /// Why a game asked rated is not (an addition; absent otherwise).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unrated: Option<Unrated>,
        /// Whether each seat's player is a bot (an addition).
        bots: Bots,
        /// The recipient's chat settings (an addition; left out where a room alone
        /// renders the state, as in its tests).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        chat: Option<Box<ChatSettings>>,
        /// Each side's formation commitment, once play has started (an addition).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        commitments: Option<Box<Commitments>>,
    },
    /// A side's formation was accepted (nothing of it is shown).
    Ready {
        /// The version.
        v: u64,
        /// The side.
        side: SideWord,
    },
    /// Both formations are in: play starts.
    Start {
        /// The version.
        v: u64,
        /// The side that moves first.
        first: SideWord,
        /// The recipient's view of the start.
        view: Option<ViewWords>,
        /// The clock, for a timed game.
        clock: Option<ClockWords>,
        /// Each side's formation commitment (absent for a game from before commitments).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        commitments: Option<Commitments>,
    },
    /// A ply was played: the same for every recipient.
    Ply {
        /// The version.
        v: u64,
        /// This ply's number (1 for the first move).
        ply: u32,
        /// The side that moved.
        side: SideWord,
        /// The move.
        #[serde(rename = "move")]
        mv: MoveText,
        /// Whether it was a challenge.
        challenge: bool,
        /// The arbiter's word for a challenge, the attacker's.
        outcome: Option<OutcomeWord>,
        /// The status after it.
        status: StatusWords,
        /// The clock after it.
        clock: Option<ClockWords>,
    },
    /// A side's draw offer stands.
    DrawOffer {
        /// The version.
        v: u64,
        /// The side that offers.
        side: SideWord,
    },
    /// The game ended; the record reveals both formations.
    Over {
        /// The version.
        v: u64,
        /// How it ended.
        status: StatusWords,
        /// The crate's game record.
        record: Option<String>,
        /// Why a game asked rated ends unrated (an addition; absent otherwise).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unrated: Option<Unrated>,
    },
    /// The game was called off before its first ply: no result, nothing revealed.
    Aborted {
        /// The version.
        v: u64,
        /// `"setup-time"` or `"abort"`.
        reason: AbortReason,
        /// The side that ran out of setup time, or that aborted.
        side: SideWord,
    },
    /// A seat asks for a rematch (once both have, each gets its own `rematch`).
    RematchOffer {
        /// The version.
        v: u64,
        /// The side that asks.
        side: SideWord,
    },
    /// The rematch was made (to everyone: a spectator may follow it); each seat then gets its
    /// own `rematch`.
    RematchMade {
        /// The version.
        v: u64,
        /// The new game's id.
        game: String,
    },
    /// The rematch is made: the recipient's seat in the new game (each seat gets its own).
    Rematch {
        /// The new game's id.
        game: String,
        /// The recipient's side in it.
        side: SideWord,
        /// The recipient's seat token in it.
        token: String,
    },
    /// A seat's socket came or went.
    Presence {
        /// The seat.
        side: SideWord,
        /// Whether it has a socket now.
        connected: bool,
    },
    /// The request was refused; nothing changed.
    Error {
        /// Why, in one word.
        code: Code,
        /// What was wrong, naming only what the recipient knows.
        message: String,
    },
    /// The answer to a ping.
    Pong,
    /// A chat line (never an event: it has no version, and nothing in it is the arbiter's).
    Chat(ChatLine),
    /// The recipient's chat settings, after each change (on connect they are the
    /// `state`'s `chat`).
    ChatSettings(ChatSettings),
    /// A report was kept for the operator.
    Reported {
        /// The room.
        room: Channel,
        /// The line's number.
        n: u64,
    },
}

impl ServerMessage {
    /// The frame's text.
    #[must_use]
    pub fn to_json(&self) -> String {
        // Every field is a string, a number, a boolean or null: serialization cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A `ply`'s public report (its move, the arbiter's word, the status after it), as a
    /// side's tracker or an engine takes it in; `None` for any other message.
    #[must_use]
    pub fn report(&self) -> Option<salpakan::Report> {
        match self {
            ServerMessage::Ply {
                mv,
                outcome,
                status,
                ..
            } => Some(salpakan::Report {
                mv: mv.0,
                outcome: outcome.map(|o| o.0),
                status: status.0,
            }),
            _ => None,
        }
    }

    /// The event's version, for the messages that are events.
    #[must_use]
    pub fn version(&self) -> Option<u64> {
        match self {
            ServerMessage::Ready { v, .. }
            | ServerMessage::Start { v, .. }
            | ServerMessage::Ply { v, .. }
            | ServerMessage::DrawOffer { v, .. }
            | ServerMessage::Over { v, .. }
            | ServerMessage::Aborted { v, .. }
            | ServerMessage::RematchOffer { v, .. }
            | ServerMessage::RematchMade { v, .. } => Some(*v),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use salpakan::{Move, Side, Status};

    #[test]
    fn messages_parse_as_the_contract_spells_them() {
        assert_eq!(
            ClientMessage::parse(r#"{"t":"ping"}"#),
            Ok(ClientMessage::Ping)
        );
        assert_eq!(
            ClientMessage::parse(r#"{"t":"move","move":"e3xe4","ply":7}"#),
            Ok(ClientMessage::Move {
                mv: "e3xe4".into(),
                ply: 7
            })
        );
        assert_eq!(
            ClientMessage::parse(r#"{"t":"hello","v":0}"#),
            Ok(ClientMessage::Hello { v: 0 })
        );
        assert_eq!(
            ClientMessage::parse(r#"{"t":"say","phrase":"gg"}"#),
            Ok(ClientMessage::Say {
                phrase: Some(Phrase::GoodGame),
                text: None
            })
        );
        assert_eq!(
            ClientMessage::parse(r#"{"t":"chat-mode","mode":"free"}"#),
            Ok(ClientMessage::ChatMode {
                mode: ChatMode::Free
            })
        );
        assert_eq!(
            ClientMessage::parse(r#"{"t":"report","room":"spectators","n":3}"#),
            Ok(ClientMessage::Report {
                room: Channel::Spectators,
                n: 3
            })
        );
        for bad in [
            "",
            "[]",
            "{}",
            r#"{"t":"fly"}"#,
            r#"{"t":"move","move":"e3-e4"}"#,
            r#"{"t":"move","move":3,"ply":0}"#,
            r#"{"t":"move","move":"e3-e4","ply":-1}"#,
            r#"{"t":"hello","v":"1"}"#,
            r#"{"t":"setup","cells":[1,2,3]}"#,
            r#"{"t":"setup","cells":"x"}"#,
            r#"{"t":"say"}"#,
            r#"{"t":"say","phrase":"gg","text":"gg"}"#,
            r#"{"t":"say","phrase":"your-spy-lost"}"#,
            r#"{"t":"say","text":5}"#,
            r#"{"t":"chat-mode","mode":"loud"}"#,
            r#"{"t":"report","room":"arbiter","n":1}"#,
            r#"{"t":"mute"}"#,
        ] {
            assert!(ClientMessage::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn server_messages_read_back_as_they_were_written() {
        let ply = ServerMessage::Ply {
            v: 9,
            ply: 5,
            side: SideWord(Side::Black),
            mv: MoveText("e6-e5".parse::<Move>().unwrap()),
            challenge: true,
            outcome: Some(OutcomeWord(salpakan::Outcome::Lose)),
            status: StatusWords(Status::Ongoing),
            clock: None,
        };
        let text = ply.to_json();
        assert_eq!(
            text,
            r#"{"t":"ply","v":9,"ply":5,"side":"black","move":"e6-e5","challenge":true,"outcome":"lose","status":{"state":"ongoing","winner":null,"reason":null},"clock":null}"#
        );
        assert_eq!(serde_json::from_str::<ServerMessage>(&text).unwrap(), ply);
        assert_eq!(ply.version(), Some(9));
        assert_eq!(ServerMessage::Pong.to_json(), r#"{"t":"pong"}"#);
        let line = ServerMessage::Chat(ChatLine {
            room: Channel::Players,
            n: 2,
            side: Some(SideWord(Side::White)),
            name: None,
            bot: false,
            phrase: Some(Phrase::GoodGame),
            text: "Good game!".into(),
        });
        let text = line.to_json();
        assert_eq!(
            text,
            r#"{"t":"chat","room":"players","n":2,"side":"white","name":null,"bot":false,"phrase":"gg","text":"Good game!"}"#
        );
        assert_eq!(serde_json::from_str::<ServerMessage>(&text).unwrap(), line);
        assert_eq!(line.version(), None);
        let error = ServerMessage::Error {
            code: Code::StalePly,
            message: "1 ply".into(),
        };
        assert_eq!(
            error.to_json(),
            r#"{"t":"error","code":"stale-ply","message":"1 ply"}"#
        );
    }
}
