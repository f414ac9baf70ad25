//! The chat's words on the wire: its two channels, the preset phrases, a line (`chat`), a
//! socket's settings (`chat-settings`), and a report's receipt (`reported`). A line is a message of its own type, never a field of an
//! event, so that nothing a player types can be read as the arbiter's words.

use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Serialize};

use super::SideWord;

/// A game's two chat channels, kept apart (the wire calls each a `room`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Channel {
    /// The two seats. During the game only they hear it; after it, only its two players.
    Players,
    /// The spectators. During the game only they hear it; after it, anyone.
    Spectators,
}

impl Channel {
    /// Both channels.
    pub const ALL: [Channel; 2] = [Channel::Players, Channel::Spectators];

    /// `"players"` or `"spectators"`.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Channel::Players => "players",
            Channel::Spectators => "spectators",
        }
    }

    /// 0 for the players' channel, 1 for the spectators'.
    #[must_use]
    pub fn index(self) -> usize {
        match self {
            Channel::Players => 0,
            Channel::Spectators => 1,
        }
    }
}

impl FromStr for Channel {
    type Err = String;

    fn from_str(word: &str) -> Result<Channel, String> {
        match word {
            "players" => Ok(Channel::Players),
            "spectators" => Ok(Channel::Spectators),
            other => Err(format!("a room is players or spectators, not {other:?}")),
        }
    }
}

/// Defines the preset phrases: each one's id (its wire word) and its English text.
macro_rules! phrases {
    ($($(#[$doc:meta])* $name:ident = $word:literal, $text:literal;)*) => {
        /// A preset phrase: what anyone may say in any room, whatever the free-text settings.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Phrase {
            $($(#[$doc])* $name,)*
        }

        impl Phrase {
            /// Every phrase, in the order the page offers them.
            pub const ALL: &'static [Phrase] = &[$(Phrase::$name,)*];

            /// Its wire word (`"gg"`, `"your-move"` …).
            #[must_use]
            pub fn word(self) -> &'static str {
                match self { $(Phrase::$name => $word,)* }
            }

            /// Its English text (the page says it in the reader's language).
            #[must_use]
            pub fn text(self) -> &'static str {
                match self { $(Phrase::$name => $text,)* }
            }
        }

        impl FromStr for Phrase {
            type Err = String;

            fn from_str(word: &str) -> Result<Phrase, String> {
                match word {
                    $($word => Ok(Phrase::$name),)*
                    other => Err(format!("no phrase {other:?}")),
                }
            }
        }
    };
}

phrases! {
    /// A greeting.
    Hello = "hello", "Hello!";
    /// Good luck.
    GoodLuck = "good-luck", "Good luck!";
    /// Have fun.
    HaveFun = "have-fun", "Have fun!";
    /// Your move.
    YourMove = "your-move", "Your move.";
    /// Nice challenge.
    NiceChallenge = "nice-challenge", "Nice challenge!";
    /// Well played.
    WellPlayed = "well-played", "Well played.";
    /// Thinking.
    Thinking = "thinking", "Let me think…";
    /// A bluff: that piece is strong.
    BigPiece = "big-piece", "Careful, that one is a General.";
    /// A bluff: come and take it.
    ComeAndTake = "come-and-take", "Come and take it.";
    /// A bluff: my Spy is waiting.
    SpyWaiting = "spy-waiting", "My Spy is waiting for you.";
    /// A bluff: my Flag is safe.
    FlagSafe = "flag-safe", "My Flag is safe.";
    /// Oops.
    Oops = "oops", "Oops!";
    /// Thanks.
    Thanks = "thanks", "Thanks!";
    /// Good game.
    GoodGame = "gg", "Good game!";
}

impl fmt::Display for Phrase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl Serialize for Phrase {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.word())
    }
}

impl<'de> Deserialize<'de> for Phrase {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Phrase, D::Error> {
        let word = String::deserialize(d)?;
        word.parse().map_err(serde::de::Error::custom)
    }
}

/// What a seat (or a spectator's socket) hears and may say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChatMode {
    /// No chat: it hears no line and says none.
    Off,
    /// Preset phrases only (the default between strangers): free lines need both seats at
    /// [`ChatMode::Free`].
    #[default]
    Presets,
    /// Free lines allowed from this seat's side (the default in a friend's game).
    Free,
}

impl ChatMode {
    /// `"off"`, `"presets"` or `"free"`.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            ChatMode::Off => "off",
            ChatMode::Presets => "presets",
            ChatMode::Free => "free",
        }
    }

    /// Reads [`ChatMode::word`].
    #[must_use]
    pub(crate) fn from_word(word: &str) -> Option<ChatMode> {
        match word {
            "off" => Some(ChatMode::Off),
            "presets" => Some(ChatMode::Presets),
            "free" => Some(ChatMode::Free),
            _ => None,
        }
    }
}

/// One line of a game's chat, as every recipient gets it and as the database keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    /// The room it was said in.
    pub room: Channel,
    /// Its number in its room: 1, 2, 3 …
    pub n: u64,
    /// The seat that said it (the players' room); `null` in the spectators'.
    pub side: Option<SideWord>,
    /// The player who said it; `null` for an anonymous seat.
    pub name: Option<String>,
    /// Whether a server bot said it.
    pub bot: bool,
    /// The preset phrase, if it is one (the page says it in the reader's language).
    pub phrase: Option<Phrase>,
    /// What was said (a phrase's English text).
    pub text: String,
}

impl ChatLine {
    /// Who it is from, as `mute` names it: the side's word in the players' room, the name
    /// in the spectators'.
    #[must_use]
    pub(crate) fn speaker_word(&self) -> String {
        match (&self.side, &self.name) {
            (Some(side), _) => side.0.word().to_owned(),
            (None, Some(name)) => name.to_ascii_lowercase(),
            (None, None) => String::new(),
        }
    }

    /// Whether `muted` (words as `mute` takes them, lower case) hides it.
    #[must_use]
    pub(crate) fn muted_by(&self, muted: &[String]) -> bool {
        let from = self.speaker_word();
        let name = self.name.as_deref().map(str::to_ascii_lowercase);
        muted
            .iter()
            .any(|m| *m == from || name.as_deref() == Some(m.as_str()))
    }
}

/// Each seat's chat mode, as the seats are told it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatModes {
    /// White's.
    pub white: ChatMode,
    /// Black's.
    pub black: ChatMode,
}

/// What a socket says and hears of a game's chat: the `chat` of its `state`, and the
/// `chat-settings` message after each change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatSettings {
    /// This socket's mode (a seat's is the seat's).
    pub mode: ChatMode,
    /// Each seat's mode, for a seat (free lines need both at `free`); `null` for a
    /// spectator.
    pub seats: Option<ChatModes>,
    /// The player this socket says lines as; `null` for an anonymous seat, or a spectator
    /// that has not sent its key (it may only listen).
    pub name: Option<String>,
    /// Whose lines it hides.
    pub muted: Vec<String>,
}

/// A game's chat after its end (`GET /api/games/{id}/chat`): the spectators' room for
/// anyone, the players' room for its two players only (`null` for anyone else).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ChatRecord {
    /// The game.
    pub game: String,
    /// The players' room, for one of its players.
    pub players: Option<Vec<ChatLine>>,
    /// The spectators' room.
    pub spectators: Vec<ChatLine>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_phrase_reads_back_from_its_word() {
        for phrase in Phrase::ALL {
            assert_eq!(phrase.word().parse::<Phrase>(), Ok(*phrase));
            assert!(!phrase.text().is_empty());
        }
        assert!("arbiter".parse::<Phrase>().is_err());
        let words: std::collections::HashSet<_> = Phrase::ALL.iter().map(|p| p.word()).collect();
        assert_eq!(words.len(), Phrase::ALL.len());
    }
}
