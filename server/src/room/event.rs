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

/// How a game ended, as anyone may know it from its public events: what a tournament (or a
/// club's match, or a correspondence ladder) counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "end", rename_all = "kebab-case")]
pub enum End {
    /// A side won.
    Won {
        /// The winner.
        winner: Side,
    },
    /// A draw.
    Drawn,
    /// Called off before its first ply.
    Aborted {
        /// Why.
        reason: AbortReason,
        /// The side that ran out of setup time, or that aborted.
        side: Side,
        /// Whether the other side's formation was in.
        other_ready: bool,
    },
}

impl End {
    /// The end `events` tell, if they end the game; `ready` says whose formation was in
    /// (the events of a `ready` say it too, but a stored log's formations are kept apart).
    #[must_use]
    pub fn of(events: &[Event], ready: [bool; 2]) -> Option<End> {
        events.iter().rev().find_map(|event| match *event {
            Event::Over { status, .. } => Some(match status.winner() {
                Some(winner) => End::Won { winner },
                None => End::Drawn,
            }),
            Event::Aborted { reason, side } => Some(End::Aborted {
                reason,
                side,
                other_ready: ready[side.other().index()],
            }),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_end_is_the_last_ending_event() {
        let start = Event::Start {
            first: Side::White,
            clock: None,
        };
        assert_eq!(End::of(std::slice::from_ref(&start), [true; 2]), None);
        let over = Event::Over {
            status: Status::Won {
                winner: Side::Black,
                reason: salpakan::WinReason::Resignation,
            },
            clock: None,
        };
        let offer = Event::RematchOffer { side: Side::White };
        assert_eq!(
            End::of(&[start, over, offer], [true; 2]),
            Some(End::Won {
                winner: Side::Black
            })
        );
        let aborted = Event::Aborted {
            reason: AbortReason::SetupTime,
            side: Side::White,
        };
        assert_eq!(
            End::of(&[aborted], [false, true]),
            Some(End::Aborted {
                reason: AbortReason::SetupTime,
                side: Side::White,
                other_ready: true
            })
        );
    }
}
