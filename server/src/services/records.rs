//! A game's summary and record (`GET /api/games/{id}` and its `record`): from its room under
//! the room's lock while the game is in memory; once it is finished and out of memory, from
//! its row, read by a reader and never replayed.

use std::sync::Arc;

use super::games::{GameError, Games};
use crate::room::Phase;
use crate::secret::plausible_id;
use crate::store::{Ending, Store, StoreError};
use crate::wire::Summary;

/// The reads of a game's summary and record.
pub(crate) struct Records {
    games: Arc<Games>,
    store: Store,
}

impl Records {
    /// The summaries and records of the games of `games`, finished ones read from `store`.
    #[must_use]
    pub(crate) fn new(games: Arc<Games>, store: Store) -> Records {
        Records { games, store }
    }

    /// `GET /api/games/{id}`.
    ///
    /// # Errors
    /// [`GameError::NotFound`] for an unknown game.
    pub(crate) async fn summary(&self, id: &str) -> Result<Summary, GameError> {
        if let Some(ending) = self.kept_ending(id).await? {
            return serde_json::from_str(&ending.summary)
                .map_err(|e| GameError::Store(StoreError::Corrupt(e.to_string())));
        }
        self.games
            .look(id, |room, now| room.summary(now))
            .await?
            .ok_or(GameError::NotFound)
    }

    /// `GET /api/games/{id}/record`.
    ///
    /// # Errors
    /// [`GameError::NotFound`] for an unknown game or an aborted one (its formations are never
    /// revealed), [`GameError::NotOver`] while it is not over.
    pub(crate) async fn record(&self, id: &str) -> Result<String, GameError> {
        if let Some(ending) = self.kept_ending(id).await? {
            return ending.record.ok_or(GameError::NotFound);
        }
        let seen = self
            .games
            .look(id, |room, _| {
                (room.record(), room.phase() == Phase::Aborted)
            })
            .await?;
        match seen {
            None | Some((None, true)) => Err(GameError::NotFound),
            Some((Some(record), _)) => Ok(record),
            Some((None, false)) => Err(GameError::NotOver),
        }
    }

    /// A finished game's summary and record as its row keeps them, when it is not in memory.
    async fn kept_ending(&self, id: &str) -> Result<Option<Ending>, GameError> {
        if !plausible_id(id) || self.games.tables().get(id).is_some() {
            return Ok(None);
        }
        Ok(self.store.finished(id).await?.and_then(|f| f.ending))
    }
}
