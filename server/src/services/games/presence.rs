//! Each seat's presence told to everyone at a table, at most once a `presence_gap` (a
//! second) a seat: a change sooner than that waits for the room's timer, which tells the
//! presence as it is then.

use std::sync::Arc;

use salpakan::Side;
use tokio::time::Instant;

use super::tables::{Table, TableState};
use crate::services::outbox::Out;
use crate::wire::{ServerMessage, SideWord};

impl Table {
    /// Tells everyone each seat's presence that changed since they were last told, at most
    /// once a `presence_gap` a seat: a change sooner than that waits for the room's timer
    /// (which calls this again), so a seat that drops and comes back tells its opponent
    /// little, and a flood of reconnects at most once a second.
    pub(super) fn show_presence(&self, state: &mut TableState, now: Instant) {
        self.tell_presence(state, now, false);
    }

    /// As [`Table::show_presence`]; `at_once` tells every change now (before events that end
    /// the game, so that they come after what led to them).
    pub(super) fn tell_presence(&self, state: &mut TableState, now: Instant, at_once: bool) {
        let gap = self.presence_gap;
        for side in Side::ALL {
            let present = state.room.present(side);
            let (shown, at) = state.shown[side.index()];
            if present == shown {
                continue;
            }
            // Once the game is over no timer runs: every change is told at once (a seat's
            // reconnects a minute still bound them).
            let wait = !at_once && !state.room.phase().finished();
            match at {
                Some(at) if wait && now < at + gap => {
                    let due = at + gap;
                    state.presence_due = Some(state.presence_due.map_or(due, |d| d.min(due)));
                    self.timer.notify_one();
                }
                _ => {
                    broadcast(state, side, present);
                    state.shown[side.index()] = (present, Some(now));
                }
            }
        }
    }
}

/// Tells every socket at the table that `side` is `connected` or not (a socket whose queue
/// is full is dropped).
fn broadcast(state: &mut TableState, side: Side, connected: bool) {
    let frame: Arc<str> = ServerMessage::Presence {
        side: SideWord(side),
        connected,
    }
    .to_json()
    .into();
    state
        .subscribers
        .retain(|s| s.outlet.send(Out::Text(frame.clone())));
}
