//! The finished games the dataset export may hold, read from the database: played to an end
//! (never aborted), listed, never a tournament's sealed game, and every named player of them
//! agreed to share its games. Each comes with its record and the names its players agreed to
//! show.

use std::path::Path;

use super::sql::Sql;
use super::{Location, StoreError};

/// A finished game the export may hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shareable {
    /// The game's id.
    pub game: String,
    /// Its record, both formations in it.
    pub record: String,
    /// When it ended, in milliseconds since the Unix epoch.
    pub ended_ms: u64,
    /// Whether it was rated.
    pub rated: bool,
    /// Each seat's name, where its player agreed to show it (a server bot's always); `None`
    /// otherwise.
    pub names: [Option<String>; 2],
    /// Whether each seat was a bot (the server's, or a bot account).
    pub bots: [bool; 2],
}

/// What the export found, besides the games it holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Found {
    /// Finished games it holds.
    pub shared: u64,
    /// Finished games left out: a player did not agree, a seat was anonymous, or the game
    /// ended without a result.
    pub left_out: u64,
}

/// Games read at once.
const PAGE: i64 = 200;

/// The query: every listed, unsealed finished game after an id, in order of id, with each
/// seat's player's choices (none for a server bot or an anonymous seat).
const SHAREABLE: &str = "SELECT g.id, g.record, g.ended_ms, g.rated, g.white_name, g.black_name,
        g.white_player, g.black_player, g.summary,
        w.share_games, w.share_names, w.bot, b.share_games, b.share_names, b.bot
    FROM games g
    LEFT JOIN players w ON w.folded = lower(g.white_name)
    LEFT JOIN players b ON b.folded = lower(g.black_name)
    WHERE g.over = 1 AND g.record IS NOT NULL AND g.listed = 1 AND g.sealed = 0
        AND g.quarantined IS NULL AND g.id > ?1
        AND g.id NOT IN (SELECT game FROM tournament_games)
    ORDER BY g.id LIMIT ?2";

/// Calls `each` with every game of the database at `db` the export may hold, in order of
/// id, reading a page at a time (the database is only read).
///
/// # Errors
/// The database's error, or `each`'s (which stops the reading).
pub fn shareable(
    db: &Path,
    mut each: impl FnMut(Shareable) -> Result<(), String>,
) -> Result<Found, StoreError> {
    match Location::of(db) {
        Location::Sqlite(path) => {
            let conn = rusqlite::Connection::open_with_flags(
                &path,
                rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY
                    | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )
            .map_err(|source| StoreError::Open {
                path: path.display().to_string(),
                source,
            })?;
            read_all(conn, &mut each)
        }
        #[cfg(feature = "nodes")]
        Location::Postgres(url) => read_all(super::postgres::Postgres::connect(&url)?, &mut each),
        #[cfg(not(feature = "nodes"))]
        Location::Postgres(_) => Err(StoreError::Corrupt(
            "this build has no PostgreSQL client (feature nodes)".into(),
        )),
    }
}

fn read_all(
    mut conn: impl Sql,
    each: &mut impl FnMut(Shareable) -> Result<(), String>,
) -> Result<Found, StoreError> {
    let mut found = Found::default();
    let mut after = String::new();
    loop {
        let rows = conn.query(SHAREABLE, &[after.as_str().into(), PAGE.into()])?;
        let Some(last) = rows.last() else {
            return Ok(found);
        };
        after = last.text(0)?;
        for row in &rows {
            // A seat agrees if its player shares its games; a server bot's seat always does
            // (`*_player` is its agent's word); an anonymous seat never can.
            let seat = |name: usize,
                        player: usize,
                        share: usize|
             -> Result<(bool, Option<String>, bool), StoreError> {
                let server_bot = row.text(player)? != "human";
                let name = row.opt_text(name)?;
                let games = row.opt_int(share)?.is_some_and(|v| v != 0);
                let names = row.opt_int(share + 1)?.is_some_and(|v| v != 0);
                let account_bot = row.opt_int(share + 2)?.is_some_and(|v| v != 0);
                let agreed = server_bot || (name.is_some() && games);
                let shown = if server_bot || names { name } else { None };
                Ok((agreed, shown, server_bot || account_bot))
            };
            let (white_agreed, white, white_bot) = seat(4, 6, 9)?;
            let (black_agreed, black, black_bot) = seat(5, 7, 12)?;
            // A game without a result (aborted) has none in its summary.
            let summary = row.opt_text(8)?.unwrap_or_default();
            let ended = summary.contains("\"phase\":\"over\"");
            if !(white_agreed && black_agreed && ended) {
                found.left_out += 1;
                continue;
            }
            each(Shareable {
                game: row.text(0)?,
                record: row.text(1)?,
                ended_ms: row.opt_int(2)?.unwrap_or(0) as u64,
                rated: row.int(3)? != 0,
                names: [white, black],
                bots: [white_bot, black_bot],
            })
            .map_err(StoreError::Corrupt)?;
            found.shared += 1;
        }
    }
}
