//! The finished games the dataset export may hold, read from the database: played to an end
//! (never aborted), listed, never a tournament's sealed game, and every named player of them
//! agreed to share its games. Each comes with its record and the names its players agreed to
//! show.

use std::path::Path;

use super::Location;
use super::sql::{Columns, Sql};
use super::values::StoreError;

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

/// The columns of [`SHAREABLE`]'s rows: a game's, and each seat's player's choices (none for
/// a server bot or an anonymous seat).
const COLUMNS: Columns = Columns(&[
    "g.id AS id",
    "g.record AS record",
    "g.ended_ms AS ended_ms",
    "g.rated AS rated",
    "g.white_name AS white_name",
    "g.black_name AS black_name",
    "g.white_player AS white_player",
    "g.black_player AS black_player",
    "g.summary AS summary",
    "w.share_games AS white_share_games",
    "w.share_names AS white_share_names",
    "w.bot AS white_bot",
    "b.share_games AS black_share_games",
    "b.share_names AS black_share_names",
    "b.bot AS black_bot",
]);

/// The query after its columns: every listed, unsealed finished game after an id, in order
/// of id.
const SHAREABLE: &str = "FROM games g
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
pub(crate) fn shareable(
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
    let query = format!("SELECT {} {SHAREABLE}", COLUMNS.list());
    loop {
        let rows = conn.query(&query, &[after.as_str().into(), PAGE.into()])?;
        let Some(last) = rows.last() else {
            return Ok(found);
        };
        after = COLUMNS.of(last).text("id")?;
        for row in &rows {
            let row = COLUMNS.of(row);
            // A seat agrees if its player shares its games; a server bot's seat always does
            // (`*_player` is its agent's word); an anonymous seat never can.
            let seat = |side: &str| -> Result<(bool, Option<String>, bool), StoreError> {
                let server_bot = row.text(&format!("{side}_player"))? != "human";
                let name = row.opt_text(&format!("{side}_name"))?;
                let set = |column: &str| -> Result<bool, StoreError> {
                    Ok(row
                        .opt_int(&format!("{side}_{column}"))?
                        .is_some_and(|v| v != 0))
                };
                let (games, names) = (set("share_games")?, set("share_names")?);
                let account_bot = set("bot")?;
                let agreed = server_bot || (name.is_some() && games);
                let shown = if server_bot || names { name } else { None };
                Ok((agreed, shown, server_bot || account_bot))
            };
            let (white_agreed, white, white_bot) = seat("white")?;
            let (black_agreed, black, black_bot) = seat("black")?;
            // A game without a result (aborted) has none in its summary.
            let summary = row.opt_text("summary")?.unwrap_or_default();
            let ended = summary.contains("\"phase\":\"over\"");
            if !(white_agreed && black_agreed && ended) {
                found.left_out += 1;
                continue;
            }
            each(Shareable {
                game: row.text("id")?,
                record: row.text("record")?,
                ended_ms: row.opt_int("ended_ms")?.unwrap_or(0) as u64,
                rated: row.flag("rated")?,
                names: [white, black],
                bots: [white_bot, black_bot],
            })
            .map_err(StoreError::Corrupt)?;
            found.shared += 1;
        }
    }
}
