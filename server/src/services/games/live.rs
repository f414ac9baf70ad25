//! A game in memory: its room behind one lock, the sockets that hear it, and what its
//! timer and bot are woken by.

use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use salpakan::Side;
use tokio::sync::{Mutex as AsyncMutex, Notify};
use tokio::time::Instant;

use super::operator::Shown;
use crate::budget::Budget;
use crate::config::Limits;
use crate::room::{Recipient, Room};
use crate::services::chat::Chat;
use crate::services::outbox::{Out, Outlet};

/// A socket that hears a game.
pub(super) struct Subscriber {
    pub(super) id: u64,
    pub(super) to: Recipient,
    pub(super) outlet: Outlet,
}

/// What the room's lock guards.
pub(super) struct LiveState {
    pub(super) room: Room,
    pub(super) subscribers: Vec<Subscriber>,
    /// Each seat's message budget, shared by its sockets (a reconnect does not refill it).
    pub(super) budgets: [Arc<Mutex<Budget>>; 2],
    /// Each seat's sockets opened in the last minute.
    pub(super) connects: [Budget; 2],
    /// Each seat's presence as everyone was last told it, and when.
    pub(super) shown: [(bool, Option<Instant>); 2],
    /// When a change of presence told too soon after the last is to be told.
    pub(super) presence_due: Option<Instant>,
    pub(super) creator: Option<IpAddr>,
    /// Each seat's address when it was taken (a rematch counts against their games an
    /// hour; the bounds of rated games a day count them).
    pub(super) ips: [Option<IpAddr>; 2],
    /// The database refused a write: the room is no longer the database's, and is dropped.
    pub(super) broken: bool,
    /// The game expired before it started and was deleted: it answers as an unknown game.
    pub(super) gone: bool,
    /// Whether the game is counted among the games in play.
    pub(super) counted: bool,
    /// Each seat has been used (a socket opened with its token, or its formation sent): a
    /// rematch's seat used is opened by its own token only, never given anew.
    pub(super) used: [bool; 2],
}

impl LiveState {
    /// Sends `out` to socket `subscriber` alone, if it still hears the game.
    pub(super) fn send_to(&self, subscriber: u64, out: Out) {
        if let Some(s) = self.subscribers.iter().find(|s| s.id == subscriber) {
            s.outlet.send(out);
        }
    }
}

/// A game in memory, behind its one lock.
pub struct Live {
    id: String,
    /// What the operator's list and the metrics read without the room's lock.
    pub(super) shown: Shown,
    /// The game as the live list shows it, as of its last commit (`None` unless in play
    /// and listed): read without the room's lock.
    pub(super) listing: Mutex<Option<crate::wire::LiveEntry>>,
    pub(super) state: AsyncMutex<LiveState>,
    /// The game's chat, which the chat service keeps under a lock of its own.
    chat: Arc<Chat>,
    /// Wakes the room's timer (a deadline may have moved).
    pub(super) timer: Notify,
    /// Wakes the room's bot (it may be its move).
    pub(super) bot: Notify,
}

impl Live {
    /// `room` in memory, created by `creator`, its seats taken from `ips`, under `limits`.
    pub(super) fn new(
        room: Room,
        (creator, ips): (Option<IpAddr>, [Option<IpAddr>; 2]),
        chat: Arc<Chat>,
        limits: &Limits,
    ) -> Live {
        let shown = Side::ALL.map(|side| (room.present(side), None));
        let used = Side::ALL.map(|side| {
            room.events()
                .iter()
                .any(|e| matches!(e, crate::room::Event::Ready { side: s, .. } if *s == side))
        });
        Live {
            id: room.spec().id.clone(),
            shown: Shown::of(room.spec()),
            listing: Mutex::new(None),
            state: AsyncMutex::new(LiveState {
                room,
                subscribers: Vec::new(),
                budgets: [(); 2].map(|()| Arc::new(Mutex::new(Budget::new(limits)))),
                shown,
                presence_due: None,
                connects: [(); 2].map(|()| {
                    Budget::per(
                        limits.seat_connects_per_minute,
                        std::time::Duration::from_secs(60),
                    )
                }),
                creator,
                ips,
                broken: false,
                gone: false,
                counted: false,
                used,
            }),
            chat,
            timer: Notify::new(),
            bot: Notify::new(),
        }
    }

    /// The game's chat.
    #[must_use]
    pub fn chat(&self) -> &Chat {
        &self.chat
    }

    /// The game's id.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Wakes the room's timer and bot.
    pub(super) fn wake(&self) {
        self.timer.notify_one();
        self.bot.notify_one();
    }
}
