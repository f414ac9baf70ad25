//! Reading games back: a game's row and events, a finished game's summary and record, and
//! every unfinished game at start (a game that cannot be read is quarantined, not fatal).

use rusqlite::{Connection, OptionalExtension, params};
use salpakan::{Rules, Side};

use super::{Ending, PlayerRow};
use crate::clock::ClockSettings;
use crate::room::{Event, Player, Saved, Spec};

const SELECT_GAME: &str = "SELECT id, setup_rows, move_limit, first, white_player, black_player,
    clock_initial_ms, clock_increment_ms, white_token, black_token, invite, bot_seed,
    white_setup, black_setup, created_ms, creator_ip, setup_ms, seated_ms, white_name, black_name,
    rated FROM games";

fn bad(what: String) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, what.into())
}

/// A game's row, its events not yet read.
fn read_game(row: &rusqlite::Row<'_>) -> rusqlite::Result<Saved> {
    let rules = Rules::from_numbers(row.get(1)?, row.get(2)?).map_err(|e| bad(e.to_string()))?;
    let first: String = row.get(3)?;
    let first = first.parse::<Side>().map_err(|e| bad(e.to_string()))?;
    let player = |i: usize| -> rusqlite::Result<Player> {
        let word: String = row.get(i)?;
        Player::from_word(&word).map_err(|e| bad(e.to_string()))
    };
    let initial: Option<i64> = row.get(6)?;
    let increment: Option<i64> = row.get(7)?;
    let clock = initial.map(|initial| ClockSettings {
        initial_ms: initial as u64,
        increment_ms: increment.unwrap_or(0) as u64,
    });
    let spec = Spec {
        id: row.get(0)?,
        rules,
        first,
        players: [player(4)?, player(5)?],
        clock,
        tokens: [row.get(8)?, row.get(9)?],
        invite: row.get(10)?,
        bot_seed: row.get::<_, i64>(11)? as u64,
        created_ms: row
            .get::<_, Option<i64>>(14)?
            .map_or_else(crate::clock::unix_ms, |ms| ms as u64),
        setup_ms: row
            .get::<_, Option<i64>>(16)?
            .map_or(crate::wire::SETUP_MS, |ms| ms as u64),
        seated_ms: row.get::<_, Option<i64>>(17)?.map(|ms| ms as u64),
        names: [row.get(18)?, row.get(19)?],
        rated: row.get::<_, i64>(20)? != 0,
    };
    let creator: Option<String> = row.get(15)?;
    Ok(Saved {
        spec,
        setups: [row.get(12)?, row.get(13)?],
        events: Vec::new(),
        creator: creator.and_then(|ip| ip.parse().ok()),
    })
}

fn events(conn: &Connection, game: &str) -> rusqlite::Result<Vec<Event>> {
    let mut stmt = conn.prepare_cached("SELECT body FROM events WHERE game = ?1 ORDER BY v")?;
    let rows = stmt.query_map(params![game], |row| row.get::<_, String>(0))?;
    rows.map(|body| serde_json::from_str(&body?).map_err(|e| bad(e.to_string())))
        .collect()
}

/// A game as stored, finished or not (`None` for no such game, or a quarantined one).
pub(super) fn load(conn: &Connection, game: &str) -> rusqlite::Result<Option<Saved>> {
    let found = conn
        .prepare_cached(&format!(
            "{SELECT_GAME} WHERE id = ?1 AND quarantined IS NULL"
        ))?
        .query_row(params![game], read_game)
        .optional()?;
    let Some(mut saved) = found else {
        return Ok(None);
    };
    saved.events = events(conn, game)?;
    Ok(Some(saved))
}

/// A finished game's summary and record (no record for an aborted game), kept when it ended
/// (`None` for a game not over, or one that ended before they were kept).
pub(super) fn ending(conn: &Connection, game: &str) -> rusqlite::Result<Option<Ending>> {
    conn.prepare_cached(
        "SELECT summary, record FROM games
         WHERE id = ?1 AND over = 1 AND summary IS NOT NULL",
    )?
    .query_row(params![game], |row| {
        Ok(Ending {
            summary: row.get(0)?,
            record: row.get(1)?,
        })
    })
    .optional()
}

/// One finished game of a player's list, as its row keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedRow {
    /// The game's id.
    pub game: String,
    /// Its summary's JSON.
    pub summary: String,
    /// When it ended, in milliseconds since the Unix epoch.
    pub ended_ms: u64,
}

/// Where a page of a player's games starts: before the game `before` (one of the player's
/// finished games), or from the newest.
fn list_start(
    conn: &Connection,
    name: &str,
    before: Option<&str>,
) -> rusqlite::Result<Option<(i64, String)>> {
    let Some(before) = before else {
        return Ok(Some((i64::MAX, String::new())));
    };
    conn.prepare_cached(
        "SELECT ended_ms FROM games WHERE id = ?1 AND over = 1 AND record IS NOT NULL
         AND summary IS NOT NULL AND (white_name = ?2 OR black_name = ?2)",
    )?
    .query_row(params![before, name], |row| row.get::<_, i64>(0))
    .optional()
    .map(|ended| ended.map(|ms| (ms, before.to_owned())))
}

/// Player `name`'s finished games (those with a record: never an aborted one, never one in
/// play), newest first, at most `limit`, after `before` if given; `None` if `before` is not
/// one of them. Each seat's index of ended games answers it in `limit` steps.
pub(super) fn player_games(
    conn: &Connection,
    name: &str,
    before: Option<&str>,
    limit: usize,
) -> rusqlite::Result<Option<Vec<ListedRow>>> {
    let Some((ended_ms, id)) = list_start(conn, name, before)? else {
        return Ok(None);
    };
    let seat = |column: &str| {
        format!(
            "SELECT id, summary, ended_ms FROM games INDEXED BY games_{column}
             WHERE {column} = ?1 AND over = 1 AND record IS NOT NULL AND summary IS NOT NULL
             AND (ended_ms < ?2 OR (ended_ms = ?2 AND id < ?3))"
        )
    };
    let sql = format!(
        "SELECT * FROM ({white} ORDER BY ended_ms DESC, id DESC LIMIT ?4)
         UNION ALL SELECT * FROM ({black} ORDER BY ended_ms DESC, id DESC LIMIT ?4)
         ORDER BY 3 DESC, 1 DESC LIMIT ?4",
        white = seat("white_name"),
        black = seat("black_name"),
    );
    conn.prepare_cached(&sql)?
        .query_map(params![name, ended_ms, id, limit as i64], |row| {
            Ok(ListedRow {
                game: row.get(0)?,
                summary: row.get(1)?,
                ended_ms: row.get::<_, i64>(2)? as u64,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()
        .map(Some)
}

/// A game that could not be read back: its id and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    /// The game.
    pub game: String,
    /// What could not be read.
    pub reason: String,
}

/// Every unfinished game, and each one that could not be read (marked quarantined, so that
/// it is left out from then on; the others start).
pub(super) fn load_unfinished(
    conn: &Connection,
) -> rusqlite::Result<(Vec<Saved>, Vec<Unreadable>)> {
    let ids: Vec<String> = conn
        .prepare("SELECT id FROM games WHERE over = 0 AND quarantined IS NULL")?
        .query_map([], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    let (mut games, mut unreadable) = (Vec::new(), Vec::new());
    for id in ids {
        match load(conn, &id) {
            Ok(Some(saved)) => games.push(saved),
            Ok(None) => {}
            Err(e) => unreadable.push(Unreadable {
                game: id,
                reason: e.to_string(),
            }),
        }
    }
    for game in &unreadable {
        quarantine(conn, &game.game, &game.reason)?;
    }
    Ok((games, unreadable))
}

/// Whether a finished game ended before `cut_ms` (milliseconds since the Unix epoch): one
/// look in the index of ended games.
pub(super) fn any_ended_before(conn: &Connection, cut_ms: u64) -> rusqlite::Result<bool> {
    conn.prepare_cached("SELECT 1 FROM games WHERE over = 1 AND ended_ms < ?1 LIMIT 1")?
        .exists(params![cut_ms as i64])
}

/// Marks `game` quarantined, saying why.
pub(super) fn quarantine(conn: &Connection, game: &str, reason: &str) -> rusqlite::Result<()> {
    conn.prepare_cached("UPDATE games SET quarantined = ?2 WHERE id = ?1")?
        .execute(params![game, reason])?;
    Ok(())
}

/// The columns [`player_row`] reads, in its order.
pub(super) const PLAYER_COLUMNS: &str =
    "name, key, bot, rating, rd, volatility, games, won, lost, drawn";

/// A player from a row of [`PLAYER_COLUMNS`].
pub(super) fn player_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<PlayerRow> {
    Ok(PlayerRow {
        name: row.get(0)?,
        key: row.get(1)?,
        bot: row.get::<_, i64>(2)? != 0,
        rating: row.get(3)?,
        rd: row.get(4)?,
        volatility: row.get(5)?,
        games: row.get::<_, i64>(6)? as u64,
        won: row.get::<_, i64>(7)? as u64,
        lost: row.get::<_, i64>(8)? as u64,
        drawn: row.get::<_, i64>(9)? as u64,
    })
}

/// Every player, as its row holds it.
pub(super) fn players(conn: &Connection) -> rusqlite::Result<Vec<PlayerRow>> {
    conn.prepare(&format!("SELECT {PLAYER_COLUMNS} FROM players"))?
        .query_map([], player_row)?
        .collect()
}
