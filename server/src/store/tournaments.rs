//! Tournaments as the database keeps them: each one a row (`tournaments`: its id, status and
//! the whole tournament as JSON, rewritten after each change), and each tournament game's
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
        /// The whole tournament, as JSON.
        body: String,
        /// Whether it finished with this write.
        finished: bool,
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

/// Applies `write`.
pub(super) fn apply(conn: &mut impl Sql, write: &TournamentWrite) -> Result<(), StoreError> {
    match write {
        TournamentWrite::Put {
            id,
            status,
            created_ms,
            body,
            finished,
        } => put(conn, (id, status, *created_ms), body, *finished),
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
    let mut bodies: Vec<String> = conn
        .query(
            "SELECT body FROM tournaments WHERE status <> 'finished' ORDER BY created_ms",
            &[],
        )?
        .iter()
        .map(Row::only_text)
        .collect::<Result<_, _>>()?;
    let done = conn.query(
        &format!(
            "SELECT body FROM tournaments WHERE status = 'finished'
             ORDER BY created_ms DESC LIMIT {finished}"
        ),
        &[],
    )?;
    for row in &done {
        bodies.push(row.only_text()?);
    }
    Ok(bodies)
}

/// Tournament `id`'s JSON, if there is one.
pub(super) fn one(conn: &mut impl Sql, id: &str) -> Result<Option<String>, StoreError> {
    conn.query_one("SELECT body FROM tournaments WHERE id = ?1", &[id.into()])?
        .map(|row| row.only_text())
        .transpose()
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
