//! The writer thread: group commits, each write in a savepoint of its own.

use std::sync::mpsc;

use rusqlite::{Connection, params};
use salpakan::Side;

use super::rows::{PLAYER_COLUMNS, player_row, quarantine};
use super::{
    Committed, Done, Ended, GROUP, GameResult, PRUNE_BATCH, PlayerRow, StoreError, Write, WriteJob,
};
use crate::rating::glicko::Glicko;
use crate::room::Event;

/// The writer thread: takes what is waiting (up to [`GROUP`] writes), commits it as one
/// transaction, then answers each. It only writes (reads have connections of their own, so
/// no read ever delays a commit). It ends when every [`Store`] is dropped, after the last
/// write.
pub(super) fn run(mut conn: Connection, queue: &mpsc::Receiver<WriteJob>) {
    while let Ok(job) = queue.recv() {
        let mut group = Vec::new();
        let mut flushed = Vec::new();
        let mut next = Some(job);
        while let Some(job) = next.take() {
            match job {
                WriteJob::Write(writes, done) => group.push((writes, done)),
                WriteJob::Flush(done) => flushed.push(done),
            }
            if group.len() < GROUP {
                next = queue.try_recv().ok();
            }
        }
        if !group.is_empty() {
            let started = std::time::Instant::now();
            let results = commit(&mut conn, &group);
            let failed = results.iter().filter(|r| r.is_err()).count();
            crate::telemetry::committed(group.len(), started.elapsed(), failed == 0);
            if let Some(Err(e)) = results.iter().find(|r| r.is_err()) {
                tracing::error!(error = %e, failed, writes = group.len(), "commit failed");
            }
            for ((_, done), result) in group.into_iter().zip(results) {
                let _ = done.send(result);
            }
        }
        for done in flushed {
            let _ = done.send(());
        }
    }
}

fn commit(
    conn: &mut Connection,
    group: &[(Vec<Write>, Done)],
) -> Vec<Result<Committed, StoreError>> {
    let mut results = Vec::with_capacity(group.len());
    let outcome = (|| -> rusqlite::Result<()> {
        let mut tx = conn.transaction()?;
        for (writes, _) in group {
            let mut sp = tx.savepoint()?;
            let mut committed = Committed::default();
            let result = writes
                .iter()
                .try_for_each(|w| apply(&sp, w, &mut committed));
            match result {
                Ok(()) => {
                    sp.commit()?;
                    results.push(Ok(committed));
                }
                Err(e) => {
                    sp.rollback()?;
                    drop(sp);
                    results.push(Err(StoreError::Sqlite(e)));
                }
            }
        }
        tx.commit()
    })();
    match outcome {
        Ok(()) => results,
        // The whole transaction failed: every write in it fails alike.
        Err(e) => group
            .iter()
            .map(|_| Err(StoreError::Sqlite(clone_error(&e))))
            .collect(),
    }
}

/// An SQLite error again, for each write of a failed group (rusqlite's errors are not
/// `Clone`): its code and message kept.
fn clone_error(e: &rusqlite::Error) -> rusqlite::Error {
    match e {
        rusqlite::Error::SqliteFailure(code, message) => {
            rusqlite::Error::SqliteFailure(*code, message.clone())
        }
        other => rusqlite::Error::ToSqlConversionFailure(other.to_string().into()),
    }
}

fn apply(conn: &Connection, write: &Write, committed: &mut Committed) -> rusqlite::Result<()> {
    match write {
        Write::Create { spec, creator } => {
            let clock = spec.clock;
            conn.prepare_cached(
                "INSERT INTO games (id, setup_rows, move_limit, first, white_player,
                 black_player, clock_initial_ms, clock_increment_ms, white_token, black_token,
                 invite, bot_seed, created_ms, creator_ip, setup_ms, seated_ms, white_name,
                 black_name, rated)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
                 ?17, ?18, ?19)",
            )?
            .execute(params![
                spec.id,
                spec.rules.setup_rows(),
                spec.rules.move_limit().unwrap_or(0),
                spec.first.word(),
                spec.players[0].word(),
                spec.players[1].word(),
                clock.map(|c| c.initial_ms as i64),
                clock.map(|c| c.increment_ms as i64),
                spec.tokens[0],
                spec.tokens[1],
                spec.invite,
                spec.bot_seed as i64,
                spec.created_ms as i64,
                creator.map(|ip| ip.to_string()),
                spec.setup_ms as i64,
                spec.seated_ms.map(|ms| ms as i64),
                spec.names[0],
                spec.names[1],
                i64::from(spec.rated),
            ])?;
        }
        Write::Delete(game) => {
            conn.prepare_cached("DELETE FROM events WHERE game = ?1")?
                .execute(params![game])?;
            conn.prepare_cached("DELETE FROM games WHERE id = ?1")?
                .execute(params![game])?;
        }
        Write::Quarantine { game, reason } => quarantine(conn, game, reason)?,
        Write::Prune { ended_before_ms } => {
            // A batch at most, the oldest first, through the index of ended games: a prune
            // never holds the writer for long, whatever the backlog.
            let old = format!(
                "SELECT id FROM games WHERE over = 1 AND ended_ms < ?1
                 ORDER BY ended_ms LIMIT {PRUNE_BATCH}"
            );
            conn.prepare_cached(&format!("DELETE FROM events WHERE game IN ({old})"))?
                .execute(params![*ended_before_ms as i64])?;
            conn.prepare_cached(&format!("DELETE FROM games WHERE id IN ({old})"))?
                .execute(params![*ended_before_ms as i64])?;
        }
        Write::Join {
            game,
            side,
            token,
            seated_ms,
            name,
        } => {
            let sql = match side {
                Side::White => {
                    "UPDATE games SET white_token = ?2, seated_ms = COALESCE(?3, seated_ms),
                     white_name = ?4 WHERE id = ?1"
                }
                Side::Black => {
                    "UPDATE games SET black_token = ?2, seated_ms = COALESCE(?3, seated_ms),
                     black_name = ?4 WHERE id = ?1"
                }
            };
            conn.prepare_cached(sql)?.execute(params![
                game,
                token,
                seated_ms.map(|ms| ms as i64),
                name
            ])?;
        }
        Write::Player {
            name,
            key,
            bot,
            created_ms,
        } => {
            conn.prepare_cached(
                "INSERT INTO players (name, folded, key, bot, created_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                name,
                name.to_ascii_lowercase(),
                key,
                i64::from(*bot),
                *created_ms as i64
            ])?;
        }
        Write::Events {
            game,
            first_v,
            events,
            ending,
        } => {
            let mut insert =
                conn.prepare_cached("INSERT INTO events (game, v, body) VALUES (?1, ?2, ?3)")?;
            for (i, event) in events.iter().enumerate() {
                let body = serde_json::to_string(event)
                    .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
                insert.execute(params![game, (*first_v + i as u64) as i64, body])?;
                if let Event::Ready {
                    side,
                    formation: Some(setup),
                } = event
                {
                    let sql = match side {
                        Side::White => "UPDATE games SET white_setup = ?2 WHERE id = ?1",
                        Side::Black => "UPDATE games SET black_setup = ?2 WHERE id = ?1",
                    };
                    conn.prepare_cached(sql)?
                        .execute(params![game, setup.cell_values().to_vec()])?;
                }
            }
            if let Some(ended) = ending {
                conn.prepare_cached(
                    "UPDATE games SET over = 1, creator_ip = NULL, summary = ?2, record = ?3,
                     ended_ms = ?4 WHERE id = ?1",
                )?
                .execute(params![
                    game,
                    ended.ending.summary,
                    ended.ending.record,
                    ended.ended_ms as i64
                ])?;
                count_results(conn, ended, committed)?;
            }
        }
    }
    Ok(())
}

/// Counts a finished game's results in its players' rows and, for a rated game, moves both
/// ratings by Glicko-2 from the rows' values before it; notes the rows as they end up.
fn count_results(
    conn: &Connection,
    ended: &Ended,
    committed: &mut Committed,
) -> rusqlite::Result<()> {
    let mut count = conn.prepare_cached(
        "UPDATE players SET games = games + 1, won = won + ?2, lost = lost + ?3,
         drawn = drawn + ?4 WHERE name = ?1",
    )?;
    for (name, result) in &ended.results {
        let one = |r| i64::from(*result == r);
        count.execute(params![
            name,
            one(GameResult::Won),
            one(GameResult::Lost),
            one(GameResult::Drawn)
        ])?;
    }
    let mut read = conn.prepare_cached(&format!(
        "SELECT {PLAYER_COLUMNS} FROM players WHERE name = ?1"
    ))?;
    let mut rows = Vec::with_capacity(ended.results.len());
    for (name, _) in &ended.results {
        // Memory keeps the key it has: the row's is not handed on.
        rows.push(PlayerRow {
            key: None,
            ..read.query_row(params![name], player_row)?
        });
    }
    if let ([(_, result), _], [first, second]) = (ended.results.as_slice(), rows.as_mut_slice())
        && ended.rated
    {
        let score = match result {
            GameResult::Won => 1.0,
            GameResult::Drawn => 0.5,
            GameResult::Lost => 0.0,
        };
        let (a, b) = Glicko::game(glicko(first), glicko(second), score);
        let mut set = conn.prepare_cached(
            "UPDATE players SET rating = ?2, rd = ?3, volatility = ?4 WHERE name = ?1",
        )?;
        for (row, after) in [(first, a), (second, b)] {
            set.execute(params![row.name, after.rating, after.rd, after.volatility])?;
            (row.rating, row.rd, row.volatility) = (after.rating, after.rd, after.volatility);
        }
    }
    committed.players.extend(rows);
    Ok(())
}

/// A player's rating, deviation and volatility as its row holds them.
fn glicko(row: &PlayerRow) -> Glicko {
    Glicko {
        rating: row.rating,
        rd: row.rd,
        volatility: row.volatility,
    }
}
