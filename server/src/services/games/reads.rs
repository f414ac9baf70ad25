//! Reading games: a summary, and a finished game's record (from its stored row when it is
//! not in memory: never replayed for it).

use std::sync::Arc;

use super::{GameError, Games};
use crate::room::Phase;
use crate::secret::plausible_id;
use crate::store::{Ending, StoreError};
use crate::wire::Summary;

impl Games {
    /// `GET /api/games/{id}`.
    ///
    /// # Errors
    /// [`GameError::NotFound`] for an unknown game.
    pub(crate) async fn summary(self: &Arc<Games>, id: &str) -> Result<Summary, GameError> {
        if let Some(ending) = self.kept_ending(id).await? {
            return serde_json::from_str(&ending.summary)
                .map_err(|e| GameError::Store(StoreError::Corrupt(e.to_string())));
        }
        let table = self.table(id).await?.ok_or(GameError::NotFound)?;
        let mut state = table.state.lock().await;
        if state.gone {
            return Err(GameError::NotFound);
        }
        let now = self.now(&mut state.room);
        let summary = state.room.summary(now);
        self.evict_if_done(&table, &state);
        Ok(summary)
    }

    /// `GET /api/games/{id}/record`.
    ///
    /// # Errors
    /// [`GameError::NotFound`] for an unknown game or an aborted one (its formations are never
    /// revealed), [`GameError::NotOver`] while it is not over.
    pub(crate) async fn record(self: &Arc<Games>, id: &str) -> Result<String, GameError> {
        if let Some(ending) = self.kept_ending(id).await? {
            return ending.record.ok_or(GameError::NotFound);
        }
        let table = self.table(id).await?.ok_or(GameError::NotFound)?;
        let state = table.state.lock().await;
        if state.gone {
            return Err(GameError::NotFound);
        }
        let record = state.room.record();
        let aborted = state.room.phase() == Phase::Aborted;
        self.evict_if_done(&table, &state);
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
}
