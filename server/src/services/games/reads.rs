//! Reading games: a summary, a finished game's record (from its stored row when it is not in
//! memory: never replayed for it), and who a socket is for.

use std::net::IpAddr;
use std::sync::Arc;

use salpakan::Side;
use tokio::time::Instant;

use super::{GameError, Games, Live};
use crate::room::{Phase, Recipient};
use crate::secret;
use crate::secret::plausible_id;
use crate::services::quotas::SocketSlot;
use crate::store::{Ending, FinishedSeats, StoreError};
use crate::wire::Summary;

impl Games {
    /// `GET /api/games/{id}`.
    ///
    /// # Errors
    /// [`GameError::NotFound`] for an unknown game.
    pub async fn summary(self: &Arc<Games>, id: &str) -> Result<Summary, GameError> {
        if let Some(ending) = self.kept_ending(id).await? {
            return serde_json::from_str(&ending.summary)
                .map_err(|e| GameError::Store(StoreError::Corrupt(e.to_string())));
        }
        let live = self.live(id).await?.ok_or(GameError::NotFound)?;
        let mut state = live.state.lock().await;
        if state.gone {
            return Err(GameError::NotFound);
        }
        let now = self.now(&mut state.room);
        let summary = state.room.summary(now);
        self.evict_if_done(&live, &state);
        Ok(summary)
    }

    /// `GET /api/games/{id}/record`.
    ///
    /// # Errors
    /// [`GameError::NotFound`] for an unknown game or an aborted one (its formations are never
    /// revealed), [`GameError::NotOver`] while it is not over.
    pub async fn record(self: &Arc<Games>, id: &str) -> Result<String, GameError> {
        if let Some(ending) = self.kept_ending(id).await? {
            return ending.record.ok_or(GameError::NotFound);
        }
        let live = self.live(id).await?.ok_or(GameError::NotFound)?;
        let state = live.state.lock().await;
        if state.gone {
            return Err(GameError::NotFound);
        }
        let record = state.room.record();
        let aborted = state.room.phase() == Phase::Aborted;
        self.evict_if_done(&live, &state);
        match record {
            Some(record) => Ok(record),
            None if aborted => Err(GameError::NotFound),
            None => Err(GameError::NotOver),
        }
    }

    /// A finished game's summary and record as its row keeps them, when it is not in memory:
    /// read by a reader, never replayed.
    async fn kept_ending(&self, id: &str) -> Result<Option<Ending>, GameError> {
        if !plausible_id(id) || self.held(id).is_some() {
            return Ok(None);
        }
        Ok(self.store.finished(id).await?.and_then(|f| f.ending))
    }

    /// Whether a socket for `to` may open, from `ip`: a seat's within its own sockets and
    /// reconnects a minute (never counted against its address, so that another client at
    /// the same address cannot keep it out), a spectator's within its address's sockets
    /// (the slot it then holds).
    ///
    /// # Errors
    /// [`GameError::TooManySockets`], [`GameError::TooManyReconnects`] or a quota's past a
    /// limit.
    pub async fn admit_socket(
        &self,
        live: &Arc<Live>,
        to: Recipient,
        ip: IpAddr,
    ) -> Result<Option<SocketSlot>, GameError> {
        let limits = &self.config.limits;
        let Recipient::Seat(side) = to else {
            return Ok(Some(self.quotas.take_socket(ip)?));
        };
        let mut state = live.state.lock().await;
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

    /// A request for `live` failed: a finished game it loaded leaves memory again (unless a
    /// socket follows it).
    pub async fn let_go(&self, live: &Arc<Live>) {
        let state = live.state.lock().await;
        self.evict_if_done(live, &state);
    }

    /// Who a socket to game `id` with `token` is for.
    ///
    /// # Errors
    /// [`GameError::Unauthorized`], the same for an unknown game, a wrong token and another
    /// game's token.
    pub async fn authorize(
        self: &Arc<Games>,
        id: &str,
        token: Option<&str>,
    ) -> Result<(Arc<Live>, Recipient), GameError> {
        // A finished game not in memory is loaded only for a socket it will serve: a wrong
        // token is refused from its row.
        if let Some(seats) = self.finished_seats(id).await
            && let Some(token) = token
            && seat_of(&seats.tokens, token).is_none()
        {
            return Err(GameError::Unauthorized);
        }
        let live = self
            .live(id)
            .await
            .ok()
            .flatten()
            .ok_or(GameError::Unauthorized)?;
        let state = live.state.lock().await;
        if state.gone {
            return Err(GameError::Unauthorized);
        }
        let Some(token) = token else {
            drop(state);
            return Ok((live, Recipient::Spectator));
        };
        let found = seat_of(&state.room.spec().tokens, token);
        drop(state);
        match found {
            Some(side) => Ok((live, Recipient::Seat(side))),
            None => Err(GameError::Unauthorized),
        }
    }

    /// The seats of game `id` if it is finished and not in memory, read from its row (a
    /// failed read is as none: the request goes on as before).
    pub(super) async fn finished_seats(&self, id: &str) -> Option<FinishedSeats> {
        if !plausible_id(id) || self.held(id).is_some() {
            return None;
        }
        let finished = self.store.finished(id).await.ok().flatten();
        finished.map(|f| f.seats)
    }
}

/// The seat whose token digest in `tokens` is `token`'s: both seats are compared, each in
/// constant time, whatever the first gives.
pub(super) fn seat_of(tokens: &[Option<String>; 2], token: &str) -> Option<Side> {
    let found = Side::ALL.map(|side| {
        tokens[side.index()]
            .as_deref()
            .is_some_and(|stored| secret::matches(token, stored))
    });
    match found {
        [true, _] => Some(Side::White),
        [_, true] => Some(Side::Black),
        _ => None,
    }
}
