//! The path of every change to a game: a seat's command decided by the room under its lock,
//! the events committed, then each recipient's frames sent (a `hello`'s catch-up too); a
//! room given up or discarded.

use std::sync::Arc;

use tokio::time::Instant;

use super::tables::TableState;
use super::{Games, Table};
use crate::room::{Catchup, Change, Command, Event, Recipient};
use crate::services::ends::Ended;
use crate::services::outbox::Out;
use crate::store::GameWrite;
use crate::store::Write;
use crate::wire::{CloseCode, ServerMessage};

/// The reason a socket of a game that expired before it started is closed with.
pub(super) const GONE_REASON: &str = "the game expired before it started";

impl Games {
    /// A `hello` from `subscriber`, a socket for `to` that has the events up to version `v`:
    /// every later event's frame, or a fresh `state` past the latest. The replay is paid
    /// before it is sent: `pay` is given the number of event frames it would send, and
    /// `false` from it (the socket's budget cannot pay) sends nothing and returns `false`.
    pub(crate) async fn hello(
        &self,
        table: &Arc<Table>,
        (subscriber, to): (u64, Recipient),
        v: u64,
        pay: impl FnOnce(usize) -> bool + Send,
    ) -> bool {
        let mut state = table.state.lock().await;
        if state.broken {
            return true;
        }
        let now = self.pauses.now(&mut state.room);
        let out = match state.room.since(v, to, now) {
            Catchup::Frames(frames) => {
                if !pay(frames.len()) {
                    return false;
                }
                Out::Frames(frames)
            }
            Catchup::State(mut message) => {
                if let ServerMessage::State { chat, .. } = &mut message {
                    *chat = self
                        .chats
                        .settings(table.chat(), subscriber)
                        .await
                        .map(Box::new);
                }
                Out::Text(message.to_json().into())
            }
        };
        state.send_to(subscriber, out);
        true
    }

    /// A seat's `command`, from socket `subscriber`, read at `received`: the time the room
    /// decides it at (waiting for the room's lock is charged to nobody's clock). Refused (to
    /// the sender alone), or its events committed and sent to all.
    pub(crate) async fn play(
        self: &Arc<Games>,
        table: &Arc<Table>,
        subscriber: u64,
        command: Command,
        received: Instant,
    ) {
        let side = command.side();
        let mut state = table.state.lock().await;
        if state.broken {
            return;
        }
        // A bot account's move keeps the server bots' think-time floor: it is applied no
        // sooner than the floor after its turn began (the wait is its own thinking time).
        let mut received = received;
        if state.room.spec().bot_accounts[side.index()] && matches!(command, Command::Move { .. }) {
            let due = state.room.turn_since() + self.config.bot_floor;
            if due > Instant::now() {
                drop(state);
                tokio::time::sleep_until(due).await;
                state = table.state.lock().await;
                received = received.max(due);
                if state.broken {
                    return;
                }
            }
        }
        let now = self.pauses.at(&mut state.room, received);
        match state.room.execute(&command, now) {
            Err(refusal) => {
                crate::telemetry::refused(refusal.code.word());
                state.send_to(subscriber, Out::Text(refusal.message().to_json().into()));
            }
            Ok(Change::Resend(v)) => {
                let frame = state.room.frame(v, Recipient::Seat(side));
                state.send_to(subscriber, Out::Frames(vec![frame]));
            }
            Ok(Change::Events(from)) => {
                self.settle(table, &mut state, from).await;
                if state.room.rematch_due(now) {
                    self.make_rematch(table, &mut state, now).await;
                }
            }
            Ok(Change::Rematch(side)) => {
                let answer = match self.reissue(&state, side).await {
                    Ok(message) => message,
                    Err(refusal) => refusal.message(),
                };
                state.send_to(subscriber, Out::Text(answer.to_json().into()));
            }
        }
    }

    /// Commits the room's events from index `from`, then sends them to every recipient.
    pub(super) async fn settle(&self, table: &Arc<Table>, state: &mut TableState, from: usize) {
        let events = &state.room.events()[from..];
        if events.is_empty() {
            return;
        }
        // A game's end is kept (and its players' results counted) once: with the events that
        // end it, not with a rematch offer after it.
        let ends = events
            .iter()
            .any(|e| matches!(e, Event::Over { .. } | Event::Aborted { .. }));
        let write_ending = if ends {
            super::ending(&state.room)
        } else {
            None
        };
        let end = write_ending.as_ref().and_then(|settled| settled.end);
        let write = Write::Game(GameWrite::Events {
            game: table.id().to_owned(),
            first_v: from as u64 + 1,
            events: events.to_vec(),
            ending: write_ending,
        });
        let committed = match self.store.write(vec![write]).await {
            Ok(committed) => committed,
            Err(e) => {
                tracing::error!(game = %table.id(), error = %e, "commit failed: the game reloads");
                self.break_off(
                    table,
                    state,
                    Out::close(CloseCode::Reloading, "the game is reloading"),
                );
                self.tables.forget(table);
                return;
            }
        };
        if state.presence_due.take().is_some() {
            table.tell_presence(state, Instant::now(), true);
        }
        state.room.sent(from, Instant::now());
        self.players.update(committed.players);
        if let Some(end) = end {
            self.ends.publish(Ended {
                game: table.id().to_owned(),
                end,
            });
        }
        self.tables.recount(table, state);
        super::tables::tell(table.id(), &state.room.events()[from..], state.room.ply());
        let room = &state.room;
        for v in from as u64 + 1..=room.version() {
            // A socket that cannot keep up is dropped (its task closes it with 1008).
            state
                .subscribers
                .retain(|s| s.outlet.send(Out::Text(room.frame(v, s.to))));
        }
        self.chats
            .after(table.chat(), &state.room.events()[from..])
            .await;
        let room = &state.room;
        if room.phase().finished() {
            let creator = state.creator.take();
            self.quotas.release_game(creator);
            self.tables.evict_if_done(table, state);
        }
        table.wake();
    }

    /// The room is no longer this server's to play (a refused commit, a lease lost): every
    /// socket is closed with `close`, and its tasks end.
    pub(super) fn break_off(&self, table: &Table, state: &mut TableState, close: Out) {
        state.broken = true;
        self.tables.recount(table, state);
        for s in &state.subscribers {
            s.outlet.send(close.clone());
        }
        state.subscribers.clear();
        table.wake();
    }

    /// Deletes a game that expired in its setup phase: from the database first, then from
    /// memory; its sockets close with [`CloseCode::Expired`], and its creator's count goes
    /// down. If the database refuses, the room stays as it is and the timer tries again later.
    pub(super) async fn discard(&self, table: &Arc<Table>, state: &mut TableState) -> bool {
        if let Err(e) = self
            .store
            .write(vec![Write::Game(GameWrite::Delete(table.id().to_owned()))])
            .await
        {
            tracing::error!(game = %table.id(), error = %e, "expired game not deleted yet");
            return false;
        }
        state.gone = true;
        for s in &state.subscribers {
            s.outlet.send(Out::close(CloseCode::Expired, GONE_REASON));
        }
        state.subscribers.clear();
        let creator = state.creator.take();
        self.quotas.release_game(creator);
        self.tables.forget(table);
        table.bot.notify_one();
        true
    }
}
