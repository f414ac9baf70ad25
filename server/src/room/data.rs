//! The values a room is made of and speaks in: who plays, what a game is made with, its
//! events, who a message is for, and what the database gives back.

use core::str::FromStr;

use salpakan::{AgentKind, Move, Outcome, Rules, Side, Status, Tracker};
use serde::{Deserialize, Serialize};

use crate::clock::{ClockSettings, Reading};
use crate::wire::Refusal;

/// Who plays a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// A person (or an external bot) with the seat's token.
    Human,
    /// The server's own agent.
    Bot(AgentKind),
}

impl Player {
    /// `"human"` or the agent's word (`"random"`, `"greedy"`, `"ismcts"`).
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Bot(kind) => kind.word(),
        }
    }

    /// Reads [`Player::word`].
    ///
    /// # Errors
    /// The word, if it is none of them.
    pub fn from_word(word: &str) -> Result<Player, String> {
        match word {
            "human" => Ok(Player::Human),
            other => AgentKind::from_str(other).map(Player::Bot).map_err(|_| {
                format!("opponent must be human, random, greedy or ismcts, not {other:?}")
            }),
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
    /// When the game was created, in milliseconds since the Unix epoch (its setup phase
    /// expires from then).
    pub created_ms: u64,
}

/// A game's numbered event, shared by every recipient (each sees it through its own eyes:
/// [`Room::render`](super::Room::render)). Stored as JSON in the database, in this form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub enum Event {
    /// A side's formation was accepted.
    Ready {
        /// The side.
        side: Side,
    },
    /// Both formations are in; play starts.
    Start {
        /// The side to move first.
        first: Side,
        /// The clock at the start.
        clock: Option<Reading>,
    },
    /// A ply was played.
    Ply {
        /// The ply's number (1 for the first move).
        ply: u32,
        /// The side that moved.
        side: Side,
        /// The move.
        mv: Move,
        /// The arbiter's announcement, for a challenge.
        outcome: Option<Outcome>,
        /// The status after it.
        status: Status,
        /// The clock after it.
        clock: Option<Reading>,
    },
    /// A side offers a draw.
    DrawOffer {
        /// The side.
        side: Side,
    },
    /// The game ended.
    Over {
        /// How.
        status: Status,
    },
}

/// Who a message is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Recipient {
    /// A seat.
    Seat(Side),
    /// A spectator.
    Spectator,
}

impl Recipient {
    pub(crate) fn side(self) -> Option<Side> {
        match self {
            Recipient::Seat(side) => Some(side),
            Recipient::Spectator => None,
        }
    }
}

/// A room's answer to one frame from a client ([`Room::handle`](super::Room::handle)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Refused: the `error` frame for the sender; nothing changed.
    Refused(Refusal),
    /// New events from this index of [`Room::events`](super::Room::events): commit them, then send them to all.
    Events(usize),
    /// Frames for the sender only (a pong, missed events, a resent move's event).
    Frames(Vec<String>),
}

/// How a request changed a room.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// New events were appended from this index of [`Room::events`](super::Room::events).
    Events(usize),
    /// The seat's last move sent again: the event with this version answers it.
    Resend(u64),
}

/// The phase of a game: `"setup"`, `"playing"`, `"over"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Formations are being submitted.
    Setup,
    /// The game goes on.
    Playing,
    /// It has ended.
    Over,
}

impl Phase {
    /// The contract's word.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Phase::Setup => "setup",
            Phase::Playing => "playing",
            Phase::Over => "over",
        }
    }
}

/// What a room is restored from: its spec, formations and events, as the database holds
/// them.
#[derive(Debug, Clone)]
pub struct Saved {
    /// The spec.
    pub spec: Spec,
    /// Each side's accepted formation, as cell values.
    pub setups: [Option<Vec<u8>>; 2],
    /// The events, in order of version.
    pub events: Vec<Event>,
    /// The address of the client that created the game, while it is unfinished (for the
    /// limit of games per address; the room itself never reads it).
    pub creator: Option<std::net::IpAddr>,
}

/// The server's own player, between its moves.
pub(crate) struct BotSeat {
    pub(crate) side: Side,
    pub(crate) kind: AgentKind,
    /// `None` while it thinks (the tracker is with the thinking task).
    pub(crate) tracker: Option<Tracker>,
}

/// A bot's turn: what a blocking task needs to choose the bot's move.
pub struct BotTurn {
    /// The bot's side.
    pub side: Side,
    /// The ply it moves at (plies already played).
    pub ply: u64,
    /// Its knowledge (never the game).
    pub tracker: Tracker,
    /// The agent, seeded from the game's bot seed and the ply.
    pub agent: Box<dyn salpakan::Agent + Send>,
}

impl BotTurn {
    /// Chooses the move: blocking, run off the async threads.
    #[must_use]
    pub fn think(mut self) -> (Tracker, Option<Move>) {
        let mv = self.agent.choose(&self.tracker);
        (self.tracker, mv)
    }
}
