//! What the operator reads (the operator's listener, `GET /admin/…` and `/metrics`): the
//! games in memory and their phases, the games asked rated but played unrated, and the
//! chat's reports. Reads only: nothing here changes a game, and nothing waits for a game's
//! lock (each game's phase and plies are read as of its last commit).

use std::collections::HashMap;
use std::sync::Arc;

use serde::Serialize;

use super::chat::{ChatError, Chats};
use super::games::{Games, PHASES};
use crate::room::Phase;
use crate::store::{self, ReportGroup, ReportPage, Store, StoreError, UnratedRow};
use crate::telemetry;

/// One side of a game in the operator's list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct ListedSide {
    /// `"human"` or `"bot"`.
    pub player: &'static str,
    /// The player's name, if a named player (or a server bot) holds the seat.
    pub name: Option<String>,
}

/// A game in memory, as `GET /admin/games` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct GameRow {
    /// Its id.
    pub id: String,
    /// Its phase as of its last commit (`"reloading"` while its room is rebuilt).
    pub phase: &'static str,
    /// Plies played.
    pub plies: u64,
    /// White.
    pub white: ListedSide,
    /// Black.
    pub black: ListedSide,
    /// Whether it is rated.
    pub rated: bool,
    /// When it was created, in milliseconds since the Unix epoch.
    pub created_ms: u64,
}

/// The operator's desk.
pub(crate) struct Desk {
    games: Arc<Games>,
    chats: Arc<Chats>,
    store: Store,
}

impl Desk {
    /// The desk over `games`, `chats` and the database.
    #[must_use]
    pub(crate) fn new(games: Arc<Games>, chats: Arc<Chats>, store: Store) -> Desk {
        Desk {
            games,
            chats,
            store,
        }
    }

    /// Every game in memory, oldest first (at most `limit`).
    #[must_use]
    pub(crate) fn live_games(&self, limit: usize) -> Vec<GameRow> {
        let mut games: Vec<GameRow> = self
            .games
            .tables()
            .all()
            .iter()
            .map(|table| {
                let shown = table.shown();
                let side = |i: usize| ListedSide {
                    player: shown.players()[i].kind_word(),
                    name: shown.name(i),
                };
                GameRow {
                    id: table.id().to_owned(),
                    phase: shown.phase().map_or("reloading", Phase::word),
                    plies: shown.plies(),
                    white: side(0),
                    black: side(1),
                    rated: shown.rated(),
                    created_ms: shown.created_ms(),
                }
            })
            .collect();
        games.sort_by(|a, b| (a.created_ms, &a.id).cmp(&(b.created_ms, &b.id)));
        games.truncate(limit);
        games
    }

    /// Sets the gauge of games in memory by phase (for a scrape of `/metrics`).
    pub(crate) fn count_phases(&self) {
        let mut counts = PHASES.map(|p| (p.word(), 0));
        for table in self.games.tables().all() {
            if let Some(i) = PHASES
                .iter()
                .position(|&p| Some(p) == table.shown().phase())
            {
                counts[i].1 += 1;
            }
        }
        telemetry::games_live(&counts);
    }

    /// The games asked rated but played unrated, newest first, at most `limit` (`GET
    /// /admin/unrated`).
    ///
    /// # Errors
    /// The database's error.
    pub(crate) async fn unrated(&self, limit: usize) -> Result<Vec<UnratedRow>, StoreError> {
        self.store.unrated(limit).await
    }

    /// A page of reported lines, oldest first reported first (`GET /admin/reports`).
    ///
    /// # Errors
    /// The database's error.
    pub(crate) async fn reports(&self, page: ReportPage) -> Result<Vec<ReportGroup>, ChatError> {
        self.chats.reports(page).await
    }
}

/// The most reported lines a page of `GET /admin/reports` or the moderators' queue lists.
pub(crate) const REPORTS_LISTED: usize = 200;

/// The page of reported lines a query asks for (`GET /admin/reports`, and the moderators'
/// queue, `open`: the lines no action answered yet), or what is wrong with it.
pub(crate) fn report_page(
    query: &HashMap<String, String>,
    open: bool,
) -> Result<store::ReportPage, String> {
    if let Some(other) = query
        .keys()
        .find(|k| !["after", "player", "limit"].contains(&k.as_str()))
    {
        return Err(format!("no parameter {other:?}: after, player or limit"));
    }
    let after =
        match query.get("after") {
            Some(word) => Some(store::ReportCursor::parse(word).ok_or_else(|| {
                format!("after must be a cursor a page gave as next, not {word:?}")
            })?),
            None => None,
        };
    let limit = match query.get("limit") {
        Some(word) => match word.parse::<usize>() {
            Ok(n) if (1..=REPORTS_LISTED).contains(&n) => n,
            _ => return Err(format!("limit must be 1 … {REPORTS_LISTED}, not {word:?}")),
        },
        None => REPORTS_LISTED,
    };
    Ok(store::ReportPage {
        after,
        player: query.get("player").cloned(),
        limit,
        open,
    })
}
