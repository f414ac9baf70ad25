//! An online copy of a live database: consistent (one read transaction's snapshot, taken
//! while the server writes) and checked before it is called done.

use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use super::schema;
use super::values::StoreError;

/// What a backup wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backup {
    /// The copy's size in bytes.
    pub bytes: u64,
    /// Games in it (finished or not).
    pub games: u64,
    /// Its schema version (the source's).
    pub version: u32,
}

/// Copies the database at `db` to a new file `to` with `VACUUM INTO` (safe while a server
/// writes it: the copy is one snapshot, and in WAL mode the copy neither blocks the writer
/// nor is blocked by it), then opens the copy and checks it with `PRAGMA integrity_check`.
/// `to` must not exist. A copy that does not check is deleted.
///
/// # Errors
/// [`StoreError::Backup`]: no database at `db`, `to` exists, the copy failed or did not
/// check.
pub fn backup(db: &Path, to: &Path) -> Result<Backup, StoreError> {
    let failed = |reason: String| StoreError::Backup {
        to: to.display().to_string(),
        reason,
    };
    if matches!(super::Location::of(db), super::Location::Postgres(_)) {
        return Err(failed(
            "a PostgreSQL database is backed up with its own tools (pg_dump, or the \
             server's base backups and write-ahead log)"
                .into(),
        ));
    }
    if to.exists() {
        return Err(failed("it exists; a backup never overwrites".into()));
    }
    let source = Connection::open_with_flags(
        db,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| failed(format!("{}: {e}", db.display())))?;
    source
        .execute_batch("PRAGMA busy_timeout = 5000;")
        .map_err(|e| failed(e.to_string()))?;
    let target = to
        .to_str()
        .ok_or_else(|| failed("not a UTF-8 path".into()))?;
    source
        .execute("VACUUM INTO ?1", [target])
        .map_err(|e| failed(e.to_string()))?;
    let checked = check(to);
    if checked.is_err() {
        let _ = std::fs::remove_file(to);
    }
    checked.map_err(failed)
}

/// The copy's integrity check and figures.
fn check(to: &Path) -> Result<Backup, String> {
    let copy = Connection::open_with_flags(to, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| e.to_string())?;
    let verdict: String = copy
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .map_err(|e| e.to_string())?;
    if verdict != "ok" {
        return Err(format!("the copy does not check: {verdict}"));
    }
    let games: i64 = copy
        .query_row("SELECT COUNT(*) FROM games", [], |row| row.get(0))
        .map_err(|e| format!("the copy has no games table ({e}): not a server's database"))?;
    Ok(Backup {
        bytes: std::fs::metadata(to).map_err(|e| e.to_string())?.len(),
        games: u64::try_from(games).unwrap_or(0),
        version: schema::version(&copy).map_err(|e| e.to_string())?,
    })
}
