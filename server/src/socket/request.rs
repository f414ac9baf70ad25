//! A game socket's frame read once, at the edge, into a typed request (mini-redis's
//! `Command::from_frame`): the room takes [`Command`]s and the chat service
//! `chat::Command`s; neither sees wire text.

use core::str::FromStr;

use salpakan::Move;

use crate::chat;
use crate::room::{Command, Recipient};
use crate::wire::{ClientMessage, Code, Refusal};

/// What a frame on a game socket asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// `ping`: the socket answers `pong` itself.
    Ping,
    /// `hello`: the events after version `v` (a reconnect).
    Hello {
        /// The last version the client has.
        v: u64,
    },
    /// A chat request, for the chat service.
    Chat(chat::Command),
    /// A seat's command, for the room.
    Play(Command),
}

impl Request {
    /// Reads `text`, a frame from a socket for `to`.
    ///
    /// # Errors
    /// `bad-message` for text that is not one of the contract's messages, for a game command
    /// from a spectator, and for a move that is no move (in that order: the contract's order
    /// of refusals; the room decides the rest).
    pub fn read(text: &str, to: Recipient) -> Result<Request, Refusal> {
        let message = ClientMessage::parse(text).map_err(|e| Refusal::new(Code::BadMessage, e))?;
        let play = Request::Play;
        Ok(match (message, to.side()) {
            (ClientMessage::Ping, _) => Request::Ping,
            (ClientMessage::Hello { v }, _) => Request::Hello { v },
            (ClientMessage::Say { phrase, text }, _) => {
                Request::Chat(chat::Command::Say { phrase, text })
            }
            (ClientMessage::ChatMode { mode }, _) => Request::Chat(chat::Command::Mode(mode)),
            (ClientMessage::Mute { who }, _) => {
                Request::Chat(chat::Command::Mute { who, on: true })
            }
            (ClientMessage::Unmute { who }, _) => {
                Request::Chat(chat::Command::Mute { who, on: false })
            }
            (ClientMessage::Report { room, n }, _) => {
                Request::Chat(chat::Command::Report { channel: room, n })
            }
            (ClientMessage::Auth { key }, _) => Request::Chat(chat::Command::Auth { key }),
            (_, None) => {
                return Err(Refusal::new(
                    Code::BadMessage,
                    "a spectator may send only hello and ping",
                ));
            }
            (ClientMessage::Setup { cells }, Some(side)) => play(Command::Setup { side, cells }),
            (ClientMessage::Move { mv, ply }, Some(side)) => {
                let mv = Move::from_str(&mv)
                    .map_err(|_| Refusal::new(Code::BadMessage, format!("not a move: {mv:?}")))?;
                play(Command::Move { side, mv, ply })
            }
            (ClientMessage::Resign, Some(side)) => play(Command::Resign { side }),
            (ClientMessage::Draw, Some(side)) => play(Command::Draw { side }),
            (ClientMessage::Abort, Some(side)) => play(Command::Abort { side }),
            (ClientMessage::Rematch, Some(side)) => play(Command::Rematch { side }),
        })
    }
}

#[cfg(test)]
mod tests {
    use salpakan::Side;

    use super::*;
    use crate::wire::{Channel, ChatMode};

    const WHITE: Recipient = Recipient::Seat(Side::White);

    fn code(read: Result<Request, Refusal>) -> (Code, String) {
        let refusal = read.expect_err("refused");
        (refusal.code, refusal.message)
    }

    #[test]
    fn each_message_becomes_its_typed_request_once() {
        let read = |text: &str| Request::read(text, WHITE).expect("read");
        assert_eq!(read(r#"{"t":"ping"}"#), Request::Ping);
        assert_eq!(read(r#"{"t":"hello","v":7}"#), Request::Hello { v: 7 });
        assert_eq!(
            read(r#"{"t":"move","move":"e3-e4","ply":4}"#),
            Request::Play(Command::Move {
                side: Side::White,
                mv: "e3-e4".parse().unwrap(),
                ply: 4
            })
        );
        assert_eq!(
            read(r#"{"t":"resign"}"#),
            Request::Play(Command::Resign { side: Side::White })
        );
        assert_eq!(
            read(r#"{"t":"chat-mode","mode":"free"}"#),
            Request::Chat(chat::Command::Mode(ChatMode::Free))
        );
        assert_eq!(
            read(r#"{"t":"unmute","who":"black"}"#),
            Request::Chat(chat::Command::Mute {
                who: "black".into(),
                on: false
            })
        );
        assert_eq!(
            read(r#"{"t":"report","room":"players","n":2}"#),
            Request::Chat(chat::Command::Report {
                channel: Channel::Players,
                n: 2
            })
        );
    }

    #[test]
    fn refusals_come_in_the_contracts_order() {
        // Not the contract's, before anything else.
        let (c, _) = code(Request::read("{", Recipient::Spectator));
        assert_eq!(c, Code::BadMessage);
        // A spectator's game command, before its move is read.
        let spectator = Request::read(r#"{"t":"move","move":"zz","ply":0}"#, Recipient::Spectator);
        assert_eq!(
            code(spectator),
            (
                Code::BadMessage,
                "a spectator may send only hello and ping".into()
            )
        );
        // A seat's move that is no move.
        let seat = Request::read(r#"{"t":"move","move":"zz","ply":0}"#, WHITE);
        assert_eq!(code(seat), (Code::BadMessage, r#"not a move: "zz""#.into()));
        // A spectator may chat, and hello.
        let say = Request::read(r#"{"t":"say","phrase":"gg"}"#, Recipient::Spectator);
        assert!(matches!(say, Ok(Request::Chat(chat::Command::Say { .. }))));
    }
}
