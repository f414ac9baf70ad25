//! The tables: each game the games service holds in memory at its table (its room behind
//! one lock, the sockets that hear it, what its timer and bot are woken by), the registry of
//! them by id with the counts the lobby and the operator read, and what the operator reads of
//! a table without its lock (its phase and
//! plies noted after each commit, the log lines and counts of its life). Never a token, an
//! invite or a formation.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use salpakan::Side;
use tokio::sync::{Mutex as AsyncMutex, Notify};
use tokio::time::Instant;

use crate::budget::Budget;
use crate::config::Limits;
use crate::room::{Event, Phase, Player, Recipient, Room, Spec};
use crate::services::chat::Chat;
use crate::services::outbox::{Out, Outlet};
use crate::telemetry;
use crate::wire::AbortReason;

/// Locks `mutex`, a poisoned one too (what it holds is kept whole by every holder).
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A socket that hears a game.
pub(super) struct Subscriber {
    pub(super) id: u64,
    pub(super) to: Recipient,
    pub(super) outlet: Outlet,
}

/// What the room's lock guards.
pub(super) struct TableState {
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

impl TableState {
    /// Sends `out` to socket `subscriber` alone, if it still hears the game.
    pub(super) fn send_to(&self, subscriber: u64, out: Out) {
        if let Some(s) = self.subscribers.iter().find(|s| s.id == subscriber) {
            s.outlet.send(out);
        }
    }
}

/// Every table in memory, by game id, and the counts read without any table's lock.
#[derive(Default)]
pub(crate) struct Tables {
    held: Mutex<HashMap<String, Arc<Table>>>,
    /// Tables in their playing phase.
    playing: AtomicUsize,
    /// Rooms replayed from the database since the start.
    restored: AtomicU64,
}

impl Tables {
    /// Game `id`'s table, if it is in memory.
    pub(crate) fn get(&self, id: &str) -> Option<Arc<Table>> {
        lock(&self.held).get(id).map(Arc::clone)
    }

    /// Every table in memory, in no order.
    pub(crate) fn all(&self) -> Vec<Arc<Table>> {
        lock(&self.held).values().cloned().collect()
    }

    /// Tables in memory.
    pub(crate) fn count(&self) -> usize {
        lock(&self.held).len()
    }

    /// The games in play held here that the live list may show (listed ones), each as of
    /// its last commit, in no order.
    pub(crate) fn listings(&self) -> Vec<crate::wire::LiveEntry> {
        self.all()
            .iter()
            .filter_map(|table| lock(&table.listing).clone())
            .collect()
    }

    /// Tables in their playing phase.
    pub(crate) fn playing(&self) -> usize {
        self.playing.load(Ordering::Relaxed)
    }

    /// Rooms replayed from the database since the start (each unfinished game at start, and
    /// each game loaded for a request since).
    pub(crate) fn restored(&self) -> u64 {
        self.restored.load(Ordering::Relaxed)
    }

    /// Counts a room replayed from the database.
    pub(super) fn count_restored(&self) {
        self.restored.fetch_add(1, Ordering::Relaxed);
    }

    /// Wakes every table's tasks: the server is stopping, and they end.
    pub(crate) fn wake_all(&self) {
        for table in lock(&self.held).values() {
            table.wake();
        }
    }

    /// Holds game `id`'s table `make` gives, unless one is held already: `Err` with it then
    /// (`make` is not called).
    pub(super) fn hold(
        &self,
        id: &str,
        make: impl FnOnce() -> Arc<Table>,
    ) -> Result<Arc<Table>, Arc<Table>> {
        let mut held = lock(&self.held);
        if let Some(existing) = held.get(id) {
            return Err(Arc::clone(existing));
        }
        let table = make();
        held.insert(id.to_owned(), Arc::clone(&table));
        Ok(table)
    }

    /// Takes every table out of memory.
    #[cfg(feature = "nodes")]
    pub(super) fn take_all(&self) -> Vec<Arc<Table>> {
        lock(&self.held).drain().map(|(_, table)| table).collect()
    }

    /// Takes `table` out of memory, if it is still the one held under its id.
    pub(super) fn forget(&self, table: &Arc<Table>) {
        let mut held = lock(&self.held);
        if held.get(table.id()).is_some_and(|t| Arc::ptr_eq(t, table)) {
            held.remove(table.id());
        }
    }

    /// Takes `table` out of memory once its game is over and no socket hears it.
    pub(super) fn evict_if_done(&self, table: &Arc<Table>, state: &TableState) {
        if state.room.phase().finished() && state.subscribers.is_empty() {
            self.forget(table);
        }
    }

    /// Counts the table among the games in play, or no longer, as its phase says now; notes
    /// its phase, plies and live listing for the readers that take no lock.
    pub(super) fn recount(&self, table: &Table, state: &mut TableState) {
        table.shown().note(&state.room, state.broken);
        let listing = if state.broken {
            None
        } else {
            state.room.listing()
        };
        *lock(&table.listing) = listing;
        let playing = state.room.phase() == Phase::Playing && !state.broken;
        if playing != state.counted {
            state.counted = playing;
            // The lobby's frame shows the new count within a second.
            if playing {
                self.playing.fetch_add(1, Ordering::Relaxed);
            } else {
                self.playing.fetch_sub(1, Ordering::Relaxed);
            }
        }
    }
}

/// Where a game's clients came from: its creator's address (its slot among the address's
/// unfinished games, given back at the end) and each seat's when it was taken.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Origin {
    /// The creator's address (none for a game made by the server: a pairing, a rematch).
    pub creator: Option<IpAddr>,
    /// Each seat's address when it was taken.
    pub ips: [Option<IpAddr>; 2],
}

/// A game at its table: in memory, behind its one lock.
pub(crate) struct Table {
    id: String,
    /// What the operator's list and the metrics read without the room's lock.
    shown: Shown,
    /// The game as the live list shows it, as of its last commit (`None` unless in play
    /// and listed): read without the room's lock.
    pub(super) listing: Mutex<Option<crate::wire::LiveEntry>>,
    pub(super) state: AsyncMutex<TableState>,
    /// The game's chat, which the chat service keeps under a lock of its own.
    chat: Arc<Chat>,
    /// Wakes the room's timer (a deadline may have moved).
    pub(super) timer: Notify,
    /// Wakes the room's bot (it may be its move).
    pub(super) bot: Notify,
    /// The least time between two changes of a seat's presence told (`presence.rs`).
    pub(super) presence_gap: std::time::Duration,
}

impl Table {
    /// `room` in memory, created by `creator`, its seats taken from `ips`, under `limits`.
    pub(super) fn new(
        room: Room,
        Origin { creator, ips }: Origin,
        chat: Arc<Chat>,
        limits: &Limits,
    ) -> Table {
        let shown = Side::ALL.map(|side| (room.present(side), None));
        let used = Side::ALL.map(|side| {
            room.events()
                .iter()
                .any(|e| matches!(e, crate::room::Event::Ready { side: s, .. } if *s == side))
        });
        Table {
            id: room.spec().id.clone(),
            shown: Shown::of(room.spec()),
            listing: Mutex::new(None),
            state: AsyncMutex::new(TableState {
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
            presence_gap: limits.presence_gap,
        }
    }

    /// What the operator reads of it, without its lock.
    #[must_use]
    pub(crate) fn shown(&self) -> &Shown {
        &self.shown
    }

    /// The game's chat.
    #[must_use]
    pub(crate) fn chat(&self) -> &Chat {
        &self.chat
    }

    /// The game's id.
    #[must_use]
    pub(crate) fn id(&self) -> &str {
        &self.id
    }

    /// Wakes the room's timer and bot.
    pub(super) fn wake(&self) {
        self.timer.notify_one();
        self.bot.notify_one();
    }
}

/// A room's facts for the operator: fixed ones from its spec, and its phase and plies noted
/// after each commit.
pub(crate) struct Shown {
    phase: AtomicU8,
    plies: AtomicU64,
    /// Who plays each side.
    players: [Player; 2],
    names: [Option<String>; 2],
    created_ms: u64,
    rated: bool,
    /// Whether anyone may find it on the live list (listed, and not a sealed tournament's).
    listed: bool,
}

/// Every phase, in the order [`Shown`] numbers them (`BROKEN` for a room being reloaded).
pub(crate) const PHASES: [Phase; 4] = [Phase::Setup, Phase::Playing, Phase::Over, Phase::Aborted];
const BROKEN: u8 = u8::MAX;

impl Shown {
    pub(super) fn of(spec: &Spec) -> Shown {
        Shown {
            phase: AtomicU8::new(0),
            plies: AtomicU64::new(0),
            players: spec.players,
            names: spec.names.clone(),
            created_ms: spec.created_ms,
            rated: spec.rated,
            listed: spec.listed && !spec.sealed,
        }
    }

    /// Notes the room's phase and plies now.
    pub(super) fn note(&self, room: &Room, broken: bool) {
        let phase = if broken {
            BROKEN
        } else {
            PHASES.iter().position(|&p| p == room.phase()).unwrap_or(0) as u8
        };
        self.phase.store(phase, Ordering::Relaxed);
        self.plies.store(room.ply(), Ordering::Relaxed);
    }

    /// Its phase as of its last commit (`None` while its room is being reloaded).
    #[must_use]
    pub(crate) fn phase(&self) -> Option<Phase> {
        PHASES
            .get(usize::from(self.phase.load(Ordering::Relaxed)))
            .copied()
    }

    /// Plies played, as of its last commit.
    #[must_use]
    pub(crate) fn plies(&self) -> u64 {
        self.plies.load(Ordering::Relaxed)
    }

    /// Who plays each side.
    #[must_use]
    pub(crate) fn players(&self) -> [Player; 2] {
        self.players
    }

    /// Each seat's player's name, if a named player (or a server bot) holds it.
    #[must_use]
    pub(crate) fn name(&self, side: usize) -> Option<String> {
        self.names[side]
            .clone()
            .or_else(|| self.players[side].bot_name())
    }

    /// When it was made, in milliseconds since the Unix epoch.
    #[must_use]
    pub(crate) fn created_ms(&self) -> u64 {
        self.created_ms
    }

    /// Whether it is rated.
    #[must_use]
    pub(crate) fn rated(&self) -> bool {
        self.rated
    }

    /// Whether the live list may show it (listed, and not a sealed tournament's).
    #[must_use]
    pub(crate) fn listed(&self) -> bool {
        self.listed
    }
}

/// A committed stretch of game `id`'s events, for the log and the counts: its start, its
/// plies, its end (the last `ply` played).
pub(super) fn tell(id: &str, events: &[Event], ply: u64) {
    let mut plies = 0;
    for event in events {
        match event {
            Event::Start { first, .. } => {
                tracing::info!(game = %id, first = first.word(), "game started");
            }
            Event::Ply { .. } => plies += 1,
            Event::Over { status, .. } => {
                let reason = status.reason_token().unwrap_or("unknown");
                let winner = status.winner().map_or("none", |w| w.word());
                tracing::info!(game = %id, reason, winner, plies = ply, "game ended");
                telemetry::game_ended(reason);
            }
            Event::Aborted { reason, side } => {
                let reason = match reason {
                    AbortReason::SetupTime => "setup-time",
                    AbortReason::Abort => "abort",
                };
                tracing::info!(game = %id, reason, side = side.word(), "game aborted");
                telemetry::game_ended("aborted");
            }
            _ => {}
        }
    }
    if plies > 0 {
        telemetry::plies(plies);
    }
}
