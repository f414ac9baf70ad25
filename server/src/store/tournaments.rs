//! Tournaments as the database keeps them: each one a row (`tournaments`: its id, status and
//! the tournament as JSON but its log, rewritten after each change), its log's lines each a
//! row of their own (`tournament_log`: a change writes the lines it said and deletes those a
//! full log dropped, never the rest), and each tournament game's
//! tournament (`tournament_games`, written in the transaction that makes the game) so that
//! any node can tell whether a game is sealed: a game of a tournament not yet finished.

use super::sql::{Columns, Row, Sql};
use super::values::StoreError;

/// A write to the tournaments.
#[derive(Debug, Clone)]
pub enum TournamentWrite {
    /// A tournament, new or changed: its id, status word, creation time and JSON; with
    /// `finished`, its games are listed from now on.
    Put {
        /// Its id.
        id: String,
        /// `upcoming`, `running` or `finished`.
        status: &'static str,
        /// When it was created.
        created_ms: u64,
        /// The tournament but its log, as JSON.
        body: String,
        /// Whether it finished with this write.
        finished: bool,
        /// What changed in its log.
        log: LogWrite,
    },
    /// Game `game` is a game of tournament `tournament` (sealed until it finishes; watched
    /// meanwhile only with `watching`).
    Game {
        /// The game.
        game: String,
        /// The tournament.
        tournament: String,
        /// Whether spectators may watch it while the tournament runs.
        watching: bool,
    },
}

/// What a write changes in a tournament's log: every line anew (the first write after it
/// was read into memory, or made), or the lines said since the last write and those dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogWrite {
    /// The whole log, each line's number and JSON.
    All(Vec<(u64, String)>),
    /// The lines said since (number, JSON), and the numbers of those dropped.
    Change {
        /// The new lines.
        said: Vec<(u64, String)>,
        /// The lines a full log dropped.
        dropped: Vec<u64>,
    },
}

/// Applies `write`.
pub(super) fn apply(conn: &mut impl Sql, write: &TournamentWrite) -> Result<(), StoreError> {
    match write {
        TournamentWrite::Put {
            id,
            status,
            created_ms,
            body,
            finished,
            log,
        } => {
            put(conn, (id, status, *created_ms), body, *finished)?;
            put_log(conn, id, log)
        }
        TournamentWrite::Game {
            game,
            tournament,
            watching,
        } => add_game(conn, game, tournament, *watching),
    }
}

/// The tables of schema version 6 (PostgreSQL 7), the same on both databases, and each
/// game's `sealed` flag.
pub(super) const TOURNAMENTS_SCHEMA: &str = "
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX tournaments_by_status ON tournaments (status, created_ms);
CREATE TABLE tournament_games (
    game TEXT PRIMARY KEY,
    tournament TEXT NOT NULL,
    watching BIGINT NOT NULL DEFAULT 0
);
ALTER TABLE games ADD COLUMN sealed BIGINT NOT NULL DEFAULT 0;
CREATE INDEX tournament_games_by_tournament ON tournament_games (tournament);
";

/// The table of schema version 12 (PostgreSQL 13), the same on both databases: each line of
/// each tournament's log.
pub(super) const TOURNAMENT_LOG_SCHEMA: &str = "
CREATE TABLE tournament_log (
    tournament TEXT NOT NULL,
    n BIGINT NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (tournament, n)
);
";

/// Writes tournament `id` (its status, creation time and JSON `body`), new or changed; with
/// `finished`, its games are listed from now on (their records and replays public).
pub(super) fn put(
    conn: &mut impl Sql,
    (id, status, created_ms): (&str, &str, u64),
    body: &str,
    finished: bool,
) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO tournaments (id, status, created_ms, body) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (id) DO UPDATE SET status = excluded.status, body = excluded.body",
        &[id.into(), status.into(), created_ms.into(), body.into()],
    )?;
    if finished {
        conn.execute(
            "UPDATE games SET listed = 1
             WHERE id IN (SELECT game FROM tournament_games WHERE tournament = ?1)",
            &[id.into()],
        )?;
    }
    Ok(())
}

/// Writes what changed in tournament `id`'s log.
fn put_log(conn: &mut impl Sql, id: &str, log: &LogWrite) -> Result<(), StoreError> {
    let said = match log {
        LogWrite::All(lines) => {
            conn.execute(
                "DELETE FROM tournament_log WHERE tournament = ?1",
                &[id.into()],
            )?;
            lines
        }
        LogWrite::Change { said, dropped } => {
            for n in dropped {
                conn.execute(
                    "DELETE FROM tournament_log WHERE tournament = ?1 AND n = ?2",
                    &[id.into(), (*n).into()],
                )?;
            }
            said
        }
    };
    for (n, line) in said {
        conn.execute(
            "INSERT INTO tournament_log (tournament, n, line) VALUES (?1, ?2, ?3)",
            &[id.into(), (*n).into(), line.into()],
        )?;
    }
    Ok(())
}

/// Tournament `id`'s JSON `body` with its log: the lines of `tournament_log`, or, for a body
/// written whole before the log had rows of its own, its own log, each line numbered.
fn with_log(conn: &mut impl Sql, id: &str, body: String) -> Result<String, StoreError> {
    let mut value: serde_json::Value =
        serde_json::from_str(&body).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    let lines = if let Some(serde_json::Value::Array(lines)) = value.get_mut("log") {
        for (i, line) in lines.iter_mut().enumerate() {
            if line.get("n").is_none() {
                line["n"] = serde_json::Value::from(i as u64 + 1);
            }
        }
        return Ok(value.to_string());
    } else {
        conn.query(
            "SELECT line FROM tournament_log WHERE tournament = ?1 ORDER BY n",
            &[id.into()],
        )?
    };
    let lines: Vec<serde_json::Value> = lines
        .iter()
        .map(|row| {
            serde_json::from_str(&row.only_text()?).map_err(|e| StoreError::Corrupt(e.to_string()))
        })
        .collect::<Result<_, StoreError>>()?;
    value["log"] = serde_json::Value::Array(lines);
    Ok(value.to_string())
}

/// Notes that `game` is a game of tournament `tournament`, which spectators may watch
/// with `watching`.
pub(super) fn add_game(
    conn: &mut impl Sql,
    game: &str,
    tournament: &str,
    watching: bool,
) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO tournament_games (game, tournament, watching) VALUES (?1, ?2, ?3)",
        &[game.into(), tournament.into(), watching.into()],
    )?;
    Ok(())
}

/// Every tournament's JSON not finished, and the newest `finished` finished ones.
pub(super) fn all(conn: &mut impl Sql, finished: usize) -> Result<Vec<String>, StoreError> {
    const BODY: Columns = Columns(&["id", "body"]);
    let mut rows = conn.query(
        "SELECT id, body FROM tournaments WHERE status <> 'finished' ORDER BY created_ms",
        &[],
    )?;
    rows.extend(conn.query(
        &format!(
            "SELECT id, body FROM tournaments WHERE status = 'finished'
             ORDER BY created_ms DESC LIMIT {finished}"
        ),
        &[],
    )?);
    rows.iter()
        .map(|row| {
            let row = BODY.of(row);
            let id = row.text("id")?;
            with_log(conn, &id, row.text("body")?)
        })
        .collect()
}

/// Tournament `id`'s JSON, with its log, if there is one.
pub(super) fn one(conn: &mut impl Sql, id: &str) -> Result<Option<String>, StoreError> {
    let body = conn
        .query_one("SELECT body FROM tournaments WHERE id = ?1", &[id.into()])?
        .map(|row| row.only_text())
        .transpose()?;
    body.map(|body| with_log(conn, id, body)).transpose()
}

/// A tournament game's tournament, as its seal reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TournamentOf {
    /// The tournament's id.
    pub tournament: String,
    /// Whether it has finished (the seal is off).
    pub finished: bool,
    /// Whether spectators may watch its games while it runs.
    pub watching: bool,
}

/// The tournament `game` belongs to; `None` for a game of no tournament.
pub(super) fn of_game(conn: &mut impl Sql, game: &str) -> Result<Option<TournamentOf>, StoreError> {
    const OF: Columns = Columns(&["t.id AS id", "t.status AS status", "g.watching AS watching"]);
    conn.query_one(
        &format!(
            "SELECT {} FROM tournament_games g JOIN tournaments t ON t.id = g.tournament
             WHERE g.game = ?1",
            OF.list()
        ),
        &[game.into()],
    )?
    .map(|row| {
        let row = OF.of(&row);
        Ok(TournamentOf {
            tournament: row.text("id")?,
            finished: row.text("status")? == "finished",
            watching: row.flag("watching")?,
        })
    })
    .transpose()
}

/// The games of tournament `tournament` that have ended (played to an end or aborted).
pub(super) fn ended_games(
    conn: &mut impl Sql,
    tournament: &str,
) -> Result<Vec<String>, StoreError> {
    conn.query(
        "SELECT g.game FROM tournament_games g JOIN games x ON x.id = g.game
         WHERE g.tournament = ?1 AND x.over = 1",
        &[tournament.into()],
    )?
    .iter()
    .map(Row::only_text)
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A body written whole before the log had rows keeps its log, numbered; a body written
    /// since gets its rows, in order, whatever was dropped between.
    #[test]
    fn a_body_s_log_is_its_rows_or_its_own_numbered() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch(TOURNAMENT_LOG_SCHEMA).unwrap();
        let old = r#"{"id":"t","log":[{"at_ms":1,"by":"a","action":"created","detail":""},
            {"at_ms":2,"by":"b","action":"registered","detail":""}]}"#;
        let read: serde_json::Value =
            serde_json::from_str(&with_log(&mut conn, "t", old.to_owned()).unwrap()).unwrap();
        assert_eq!(read["log"][0]["n"], 1);
        assert_eq!(read["log"][1]["n"], 2);
        let line = |n: u64| {
            (
                n,
                format!(r#"{{"n":{n},"at_ms":{n},"by":"a","action":"x","detail":""}}"#),
            )
        };
        put_log(
            &mut conn,
            "u",
            &LogWrite::All(vec![line(1), line(2), line(3)]),
        )
        .unwrap();
        let change = LogWrite::Change {
            said: vec![line(4)],
            dropped: vec![2],
        };
        put_log(&mut conn, "u", &change).unwrap();
        let read: serde_json::Value =
            serde_json::from_str(&with_log(&mut conn, "u", r#"{"id":"u"}"#.to_owned()).unwrap())
                .unwrap();
        let numbers: Vec<u64> = read["log"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["n"].as_u64().unwrap())
            .collect();
        assert_eq!(numbers, [1, 3, 4]);
        // Another tournament's lines are its own.
        let other = with_log(&mut conn, "v", r#"{"id":"v"}"#.to_owned()).unwrap();
        assert!(other.contains(r#""log":[]"#), "{other}");
    }
}
