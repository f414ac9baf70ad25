//! A game's seats and sockets: who a socket is for and whether it may open, a socket
//! attached (its `state`, its chat) and detached, a named player taking its seat again, and
//! what a game in memory says of its seats.

use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use salpakan::Side;
use tokio::time::Instant;

use super::play::GONE_REASON;
use super::tables::Subscriber;
use super::{GameError, Games, Table};
use crate::budget::Budget;
use crate::room::{Player, Recipient};
use crate::secret::{self, TOKEN_BYTES, plausible_id};
use crate::services::outbox::{Out, Outlet};
use crate::services::quotas::SocketSlot;
use crate::store::GameWrite;
use crate::store::{FinishedSeats, Write};
use crate::wire::{CloseCode, JoinReply, SideWord};

/// What a game in memory says of its seats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Seats {
    /// Whether it is sealed (a tournament's).
    pub sealed: bool,
    /// Each seat's token's digest.
    pub tokens: [Option<String>; 2],
    /// Each seat's player's name.
    pub names: [Option<String>; 2],
}

impl Games {
    /// A socket for `to` opened: it gets the `state` (with its chat settings) and the chat's
    /// lines it hears, then every event. Returns its subscriber id and its message budget: a
    /// seat's is shared by the seat's sockets, a spectator's is `spectating` (its address's,
    /// shared by the address's spectators) or, without one, its own.
    pub(crate) async fn attach(
        &self,
        table: &Arc<Table>,
        to: Recipient,
        outlet: Outlet,
        spectating: Option<Arc<Mutex<Budget>>>,
    ) -> (u64, Arc<Mutex<Budget>>) {
        let id = self
            .next_subscriber
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut state = table.state.lock().await;
        let budget = match to {
            Recipient::Seat(side) => Arc::clone(&state.budgets[side.index()]),
            Recipient::Spectator => {
                spectating.unwrap_or_else(|| Arc::new(Mutex::new(Budget::new(&self.config.limits))))
            }
        };
        if state.gone {
            outlet.send(Out::close(CloseCode::Expired, GONE_REASON));
            return (id, budget);
        }
        if let Recipient::Seat(side) = to {
            state.used[side.index()] = true;
        }
        if let Recipient::Seat(side) = to
            && state.room.connect(side)
        {
            table.show_presence(&mut state, Instant::now());
            table.timer.notify_one();
        }
        let now = self.pauses.now(&mut state.room);
        let name = to
            .side()
            .and_then(|side| state.room.spec().names[side.index()].clone());
        let first = state.room.state(to, now);
        self.chats
            .join(table.chat(), (id, to, name), outlet.clone(), first)
            .await;
        state.subscribers.push(Subscriber { id, to, outlet });
        (id, budget)
    }

    /// The socket `subscriber` closed.
    pub(crate) async fn detach(&self, table: &Arc<Table>, subscriber: u64, to: Recipient) {
        self.chats.leave(table.chat(), subscriber).await;
        let mut state = table.state.lock().await;
        state.subscribers.retain(|s| s.id != subscriber);
        if let Recipient::Seat(side) = to
            && state.room.disconnect(side, Instant::now())
        {
            table.show_presence(&mut state, Instant::now());
            table.timer.notify_one();
        }
        self.tables.evict_if_done(table, &state);
    }

    /// Whether a socket for `to` may open, from `ip`: a seat's within its own sockets and
    /// reconnects a minute (never counted against its address, so that another client at
    /// the same address cannot keep it out), a spectator's within its address's sockets
    /// (the slot it then holds).
    ///
    /// # Errors
    /// [`GameError::TooManySockets`], [`GameError::TooManyReconnects`] or a quota's past a
    /// limit.
    pub(crate) async fn admit_socket(
        &self,
        table: &Arc<Table>,
        to: Recipient,
        ip: IpAddr,
    ) -> Result<Option<SocketSlot>, GameError> {
        let limits = &self.config.limits;
        let Recipient::Seat(side) = to else {
            return Ok(Some(self.quotas.take_socket(ip)?));
        };
        let mut state = table.state.lock().await;
        if state.room.sockets(side) >= limits.sockets_per_seat {
            return Err(GameError::TooManySockets(limits.sockets_per_seat));
        }
        if !state.connects[side.index()].take(Instant::now(), 1) {
            return Err(GameError::TooManyReconnects(
                limits.seat_connects_per_minute,
            ));
        }
        Ok(None)
    }

    /// A request for `table` failed: a finished game it loaded leaves memory again (unless a
    /// socket follows it).
    pub(crate) async fn let_go(&self, table: &Arc<Table>) {
        let state = table.state.lock().await;
        self.tables.evict_if_done(table, &state);
    }

    /// Who a socket to game `id` with `token` is for.
    ///
    /// # Errors
    /// [`GameError::Unauthorized`], the same for an unknown game, a wrong token and another
    /// game's token.
    pub(crate) async fn authorize(
        self: &Arc<Games>,
        id: &str,
        token: Option<&str>,
    ) -> Result<(Arc<Table>, Recipient), GameError> {
        // A finished game not in memory is loaded only for a socket it will serve: a wrong
        // token is refused from its row.
        if let Some(seats) = self.finished_seats(id).await
            && let Some(token) = token
            && secret::seat_of(&seats.tokens, token).is_none()
        {
            return Err(GameError::Unauthorized);
        }
        let table = self
            .table(id)
            .await
            .ok()
            .flatten()
            .ok_or(GameError::Unauthorized)?;
        let state = table.state.lock().await;
        if state.gone {
            return Err(GameError::Unauthorized);
        }
        let Some(token) = token else {
            drop(state);
            return Ok((table, Recipient::Spectator));
        };
        let found = secret::seat_of(&state.room.spec().tokens, token);
        drop(state);
        match found {
            Some(side) => Ok((table, Recipient::Seat(side))),
            None => Err(GameError::Unauthorized),
        }
    }

    /// The seats of game `id` if it is finished and not in memory, read from its row (a
    /// failed read is as none: the request goes on as before).
    pub(super) async fn finished_seats(&self, id: &str) -> Option<FinishedSeats> {
        if !plausible_id(id) || self.tables.get(id).is_some() {
            return None;
        }
        let finished = self.store.finished(id).await.ok().flatten();
        finished.map(|f| f.seats)
    }

    /// `POST /api/games/{id}/seat`: `player`, named at a seat of game `id` (a tournament's
    /// pairing names its players), takes that seat with a new token (the one before no
    /// longer opens a socket). For a player away when its game was made, or on another
    /// device.
    ///
    /// # Errors
    /// [`GameError::NotFound`] for an unknown game or one with no seat of `player`,
    /// [`GameError::GameOver`] for a finished one, or the database's error.
    pub(crate) async fn reseat(
        self: &Arc<Games>,
        id: &str,
        player: &str,
    ) -> Result<JoinReply, GameError> {
        if self.finished_seats(id).await.is_some() {
            return Err(GameError::GameOver);
        }
        let table = self.table(id).await?.ok_or(GameError::NotFound)?;
        let mut state = table.state.lock().await;
        if state.gone {
            return Err(GameError::NotFound);
        }
        if state.room.phase().finished() {
            return Err(GameError::GameOver);
        }
        let spec = state.room.spec();
        let side = Side::ALL
            .into_iter()
            .find(|s| {
                spec.players[s.index()] == Player::Human
                    && spec.names[s.index()]
                        .as_deref()
                        .is_some_and(|n| n.eq_ignore_ascii_case(player))
            })
            .ok_or(GameError::NotFound)?;
        let name = spec.names[side.index()].clone();
        let token = secret::random_hex(&*self.entropy, TOKEN_BYTES);
        let digest = secret::digest(&token);
        self.store
            .write(vec![Write::Game(GameWrite::Join {
                game: table.id().to_owned(),
                side,
                token: digest.clone(),
                seated_ms: None,
                name: name.clone(),
                ip: None,
                unrated: None,
            })])
            .await?;
        state
            .room
            .take_seat(side, digest, name, crate::clock::unix_ms(), Instant::now());
        Ok(JoinReply {
            game: table.id().to_owned(),
            side: SideWord(side),
            token,
        })
    }

    /// The seats of game `id` if it is in memory (no read of the database).
    pub(crate) async fn seats(&self, id: &str) -> Option<Seats> {
        let table = self.tables.get(id)?;
        let state = table.state.lock().await;
        let spec = state.room.spec();
        Some(Seats {
            sealed: spec.sealed,
            tokens: spec.tokens.clone(),
            names: spec.names.clone(),
        })
    }
}
