//! A game's numbered events: the one log every recipient sees through its own eyes
//! ([`Room::render`](super::Room::render)), the database stores, and a room is folded from
//! ([`Room::apply`](super::Room::apply)).

use salpakan::{Move, Outcome, Setup, Side, Status};
use serde::{Deserialize, Serialize};

use crate::clock::Reading;
use crate::wire::AbortReason;

/// A game's event. Stored as JSON in the database, in this form; a `ready`'s formation is
/// the one part of it kept apart (in the `games` row), never in the public log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub enum Event {
    /// A side's formation was accepted.
    Ready {
        /// The side.
        side: Side,
        /// The formation, while the event is in memory; `None` when read from the log, until
        /// the room restoring it puts the stored formation back.
        #[serde(skip)]
        formation: Option<Setup>,
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
    /// The game was called off before its first ply: no result, no formation revealed.
    Aborted {
        /// Why.
        reason: AbortReason,
        /// The side that ran out of setup time, or that aborted.
        side: Side,
    },
    /// After the end, a seat asks for a rematch.
    RematchOffer {
        /// The side that asks.
        side: Side,
    },
    /// Both seats asked: the rematch was made (in the same transaction as this event).
    Rematched {
        /// The new game's id.
        game: String,
    },
    /// The game ended.
    Over {
        /// How.
        status: Status,
        /// The clock at the end (absent in events stored before it was kept).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock: Option<Reading>,
    },
}
