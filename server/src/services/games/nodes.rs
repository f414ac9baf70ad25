//! One node of several sharing a PostgreSQL database, as the games see it (feature
//! `nodes`): where a game is played, the games of a node that lapsed taken over into memory,
//! and every game given up when this node's own lease lapsed.

use std::sync::Arc;

use super::Games;
use super::error::GameError;
use crate::secret::plausible_id;
use crate::services::outbox::Out;
use crate::store::{LOBBY, Owner, StoreError};
use crate::wire::CloseCode;

/// Where a request for a game (or the lobby) is served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Place {
    /// Here: the game is in memory, or loaded now.
    Here,
    /// At another node, reached at this URL.
    At(String),
}

/// The reason a socket is closed when its game moves to another node.
const MOVED: &str = "the game moves to another server; connect again";

impl Games {
    /// Where `key` (a game's id, or [`LOBBY`]) is served: here if this node owns it (taking
    /// it over first from an owner whose lease lapsed), else at its owner's URL.
    ///
    /// # Errors
    /// The database's error; [`GameError::Elsewhere`] never.
    pub(crate) async fn place(self: &Arc<Games>, key: &str) -> Result<Place, GameError> {
        if !self.store.shared()
            || (key != LOBBY && (!plausible_id(key) || self.tables.get(key).is_some()))
        {
            return Ok(Place::Here);
        }
        let owner = self.store.owner(key).await?;
        match owner {
            None => Ok(Place::Here),
            Some(owner) if owner.node == self.config.node => Ok(Place::Here),
            Some(Owner {
                url, alive: true, ..
            }) => Ok(Place::At(url)),
            Some(dead) => {
                self.take_over_from(&dead.node).await;
                // A finished game of the lapsed node is not among its unfinished ones.
                self.store.take_over(&dead.node, Some(key)).await?;
                match self.store.owner(key).await? {
                    Some(owner) if owner.node == self.config.node => Ok(Place::Here),
                    Some(Owner {
                        url, alive: true, ..
                    }) => Ok(Place::At(url)),
                    _ => Err(GameError::Store(StoreError::Failed(
                        "the game's owner lapsed and it could not be taken over".into(),
                    ))),
                }
            }
        }
    }

    /// Takes over the unfinished games (and the lobby) of `dead`, if its lease lapsed and no
    /// other node took them first, and puts them in memory: their clocks and bots run here.
    pub(crate) async fn take_over_from(self: &Arc<Games>, dead: &str) {
        let moved = match self.store.take_over(dead, None).await {
            Ok(moved) => moved,
            Err(e) => {
                tracing::warn!(node = %dead, error = %e, "games of a lapsed node not taken over");
                return;
            }
        };
        if moved.is_empty() {
            return;
        }
        let started = std::time::Instant::now();
        let mut restored = 0_usize;
        for id in moved.iter().filter(|id| *id != LOBBY) {
            match self.load_here(id).await {
                Ok(Some(_)) => restored += 1,
                Ok(None) => {}
                Err(e) => tracing::warn!(game = %id, error = %e, "game taken over not loaded"),
            }
        }
        crate::telemetry::taken_over(restored);
        tracing::info!(
            from = %dead,
            games = restored,
            lobby = moved.iter().any(|id| id == LOBBY),
            ms = started.elapsed().as_millis() as u64,
            "took over the games of a node whose lease lapsed"
        );
    }

    /// Loads every unfinished game this node owns that is not in memory.
    pub(crate) async fn load_owned(self: &Arc<Games>) {
        match self.store.owned(&self.config.node).await {
            Ok(ids) => {
                for id in ids {
                    if let Err(e) = self.load_here(&id).await {
                        tracing::warn!(game = %id, error = %e, "own game not loaded");
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "own games not read"),
        }
    }

    /// Drops every game in memory: its sockets are told to connect again (1012).
    pub(crate) fn give_up_all(&self) {
        let rooms = self.tables.take_all();
        for table in rooms {
            // A room busy now finds its commit refused, and closes its sockets then.
            if let Ok(mut state) = table.state.try_lock() {
                self.break_off(&table, &mut state, Out::close(CloseCode::Restart, MOVED));
            }
            table.wake();
        }
    }
}
