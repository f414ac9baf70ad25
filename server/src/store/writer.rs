//! The writer thread: group commits, each write in a savepoint of its own.

use std::sync::mpsc;

use salpakan::Side;

use super::lease::{self, ENDED_CHANNEL, Fence, PLAYERS_CHANNEL};
use super::rows::{PLAYER_COLUMNS, player_row, quarantine};
use super::sql::{Sql, Value};
use super::{
    Committed, Done, GROUP, GameResult, LeaseJob, PRUNE_BATCH, PlayerRow, Settlement, StoreError,
    Write, WriteJob,
};
use crate::rating::glicko::Glicko;
use crate::room::Event;

/// The writer thread: takes what is waiting (up to [`GROUP`] writes), commits it as one
/// transaction, then answers each. It only writes (reads have connections of their own, so
/// no read ever delays a commit). It ends when every [`Store`] is dropped, after the last
/// write, or when closed ([`Store::close`]): then its connection (and the lock that says a
/// server writes the database) goes with it. With a `fence` (PostgreSQL), every transaction
/// first checks this node's lease, and the lease's own jobs run here too.
pub(super) fn run(mut conn: impl Sql, queue: &mpsc::Receiver<WriteJob>, mut fence: Option<Fence>) {
    let mut closing = false;
    while !closing && let Ok(job) = queue.recv() {
        let mut group = Vec::new();
        let mut flushed = Vec::new();
        let mut next = Some(job);
        while let Some(job) = next.take() {
            match job {
                WriteJob::Write(writes, done) => group.push((writes, done)),
                WriteJob::Flush(done) => flushed.push(done),
                WriteJob::Close(done) => {
                    closing = true;
                    flushed.push(done);
                    break;
                }
                WriteJob::Lease(job) => {
                    // The writes before it first: a lease's end comes after them.
                    if !group.is_empty() {
                        commit_and_answer(&mut conn, std::mem::take(&mut group), fence.as_ref());
                    }
                    lease_job(&mut conn, &mut fence, job);
                }
            }
            if group.len() < GROUP {
                next = queue.try_recv().ok();
            }
        }
        if !group.is_empty() {
            commit_and_answer(&mut conn, group, fence.as_ref());
        }
        for done in flushed {
            let _ = done.send(());
        }
    }
}

/// Commits `group`, counts it, and answers each of its writes.
fn commit_and_answer(conn: &mut impl Sql, group: Vec<(Vec<Write>, Done)>, fence: Option<&Fence>) {
    let started = std::time::Instant::now();
    let results = commit(conn, &group, fence);
    let failed = results.iter().filter(|r| r.is_err()).count();
    crate::telemetry::committed(group.len(), started.elapsed(), failed == 0);
    if let Some(Err(e)) = results.iter().find(|r| r.is_err()) {
        tracing::error!(error = %e, failed, writes = group.len(), "commit failed");
    }
    for ((_, done), result) in group.into_iter().zip(results) {
        let _ = done.send(result);
    }
}

/// Runs one of the lease's jobs; a new registration's epoch becomes the fence.
fn lease_job(conn: &mut impl Sql, fence: &mut Option<Fence>, job: LeaseJob) {
    let Some(held) = fence.as_mut() else {
        // SQLite: no nodes, nothing to do.
        return;
    };
    match job {
        LeaseJob::Register(key, done) => {
            let registered = lease::register(conn, held, &key);
            if let Ok(registered) = &registered {
                held.epoch = registered.epoch;
            }
            let _ = done.send(registered);
        }
        LeaseJob::Renew(done) => {
            let _ = done.send(lease::renew(conn, held));
        }
        LeaseJob::Expire(done) => {
            let _ = done.send(lease::expire(conn, held));
        }
        LeaseJob::TakeOver { dead, game, done } => {
            let _ = done.send(lease::take_over(conn, held, &dead, game.as_deref()));
        }
    }
}

fn commit(
    conn: &mut impl Sql,
    group: &[(Vec<Write>, Done)],
    fence: Option<&Fence>,
) -> Vec<Result<Committed, StoreError>> {
    // Almost every group commits whole: tried first as one plain transaction (on
    // PostgreSQL each statement is a round trip, and a savepoint costs two more). Only a
    // group with a failing write is done again, each write in a savepoint of its own.
    let mut results = Vec::with_capacity(group.len());
    match commit_group(conn, group, &mut results, false, fence) {
        Ok(()) => return results,
        Err(e) => {
            let _ = conn.batch("ROLLBACK");
            results.clear();
            // A node that lost its lease writes nothing: no write is tried alone.
            if matches!(e, StoreError::Fenced) {
                return all_failed(group, &e);
            }
        }
    }
    match commit_group(conn, group, &mut results, true, fence) {
        Ok(()) => results,
        Err(e) => {
            let _ = conn.batch("ROLLBACK");
            all_failed(group, &e)
        }
    }
}

/// The whole transaction failed with `e`: every write of `group` fails alike, fenced if the
/// node's lease lapsed (its requests are refused as a draining node's), otherwise with the
/// transaction's words.
fn all_failed(group: &[(Vec<Write>, Done)], e: &StoreError) -> Vec<Result<Committed, StoreError>> {
    group
        .iter()
        .map(|_| {
            Err(match e {
                StoreError::Fenced => StoreError::Fenced,
                e => StoreError::Failed(e.to_string()),
            })
        })
        .collect()
}

/// One transaction for the group. With `savepoints`, each write has one of its own: a
/// write that fails is undone alone, and answered with its error. Without, the first
/// failure fails the transaction, and the group's events are inserted together at its end
/// (a few statements for a group of plies, not one each: on PostgreSQL each is a round trip).
fn commit_group(
    conn: &mut impl Sql,
    group: &[(Vec<Write>, Done)],
    results: &mut Vec<Result<Committed, StoreError>>,
    savepoints: bool,
    fence: Option<&Fence>,
) -> Result<(), StoreError> {
    match fence {
        Some(fence) => lease::begin_checked(conn, fence)?,
        None => conn.batch("BEGIN")?,
    }
    let mut rows = Vec::new();
    for (writes, _) in group {
        if savepoints {
            conn.batch("SAVEPOINT w")?;
        }
        let mut committed = Committed::default();
        let mut gathered = (!savepoints).then_some(&mut rows);
        match writes
            .iter()
            .try_for_each(|w| apply(conn, w, &mut committed, gathered.as_deref_mut(), fence))
        {
            Ok(()) => {
                if savepoints {
                    conn.batch("RELEASE SAVEPOINT w")?;
                }
                results.push(Ok(committed));
            }
            Err(e) if savepoints => {
                conn.batch("ROLLBACK TO SAVEPOINT w; RELEASE SAVEPOINT w")?;
                results.push(Err(e));
            }
            Err(e) => return Err(e),
        }
    }
    insert_events(conn, rows)?;
    conn.batch("COMMIT")
}

/// The sizes of the multi-row inserts a group's events are cut into: a few distinct
/// statements, each prepared once.
const EVENT_CHUNKS: [usize; 4] = [64, 16, 4, 1];

/// Inserts `rows` (game, version, body) with as few statements as [`EVENT_CHUNKS`] allow.
fn insert_events(conn: &mut impl Sql, rows: Vec<[Value; 3]>) -> Result<(), StoreError> {
    let mut left = rows.len();
    let mut rows = rows.into_iter();
    for size in EVENT_CHUNKS {
        if left < size {
            continue;
        }
        let sql = events_insert(size);
        while left >= size {
            let values: Vec<Value> = rows.by_ref().take(size).flatten().collect();
            conn.execute(&sql, &values)?;
            left -= size;
        }
    }
    Ok(())
}

/// `INSERT INTO events … VALUES (?1, ?2, ?3), (?4, ?5, ?6), …` for `rows` rows.
fn events_insert(rows: usize) -> String {
    let mut sql = String::from("INSERT INTO events (game, v, body) VALUES ");
    for row in 0..rows {
        let first = row * 3 + 1;
        if row > 0 {
            sql.push_str(", ");
        }
        sql.push_str(&format!("(?{first}, ?{}, ?{})", first + 1, first + 2));
    }
    sql
}

/// Applies `write`; its events' rows go to `gathered` if given (inserted by the caller),
/// else are inserted now.
fn apply(
    conn: &mut impl Sql,
    write: &Write,
    committed: &mut Committed,
    gathered: Option<&mut Vec<[Value; 3]>>,
    fence: Option<&Fence>,
) -> Result<(), StoreError> {
    match write {
        Write::Create {
            spec,
            creator,
            ips,
            unrated,
        } => {
            let clock = spec.clock;
            let ip = |side: usize| ips[side].map(|ip| ip.to_string());
            conn.execute(
                "INSERT INTO games (id, setup_rows, move_limit, first, white_player,
                 black_player, clock_initial_ms, clock_increment_ms, white_token, black_token,
                 invite, bot_seed, created_ms, creator_ip, setup_ms, seated_ms, white_name,
                 black_name, rated, listed, white_ip, black_ip, unrated, white_salt, black_salt,
                 sealed)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
                 ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26)",
                &[
                    Value::from(&spec.id),
                    i64::from(spec.rules.setup_rows()).into(),
                    i64::from(spec.rules.move_limit().unwrap_or(0)).into(),
                    spec.first.word().into(),
                    spec.players[0].word().into(),
                    spec.players[1].word().into(),
                    clock.map(|c| c.initial_ms).into(),
                    clock.map(|c| c.increment_ms).into(),
                    spec.tokens[0].clone().into(),
                    spec.tokens[1].clone().into(),
                    spec.invite.clone().into(),
                    // The seed's bits, as SQLite's and PostgreSQL's signed 64-bit integer.
                    Value::Int(spec.bot_seed as i64),
                    spec.created_ms.into(),
                    creator.map(|ip| ip.to_string()).into(),
                    spec.setup_ms.into(),
                    spec.seated_ms.into(),
                    spec.names[0].clone().into(),
                    spec.names[1].clone().into(),
                    spec.rated.into(),
                    spec.listed.into(),
                    ip(0).into(),
                    ip(1).into(),
                    (*unrated).into(),
                    spec.salts.map(|s| s[0].to_string()).into(),
                    spec.salts.map(|s| s[1].to_string()).into(),
                    spec.sealed.into(),
                ],
            )?;
            if let Some(fence) = fence {
                lease::claim(conn, fence, &spec.id)?;
            }
        }
        Write::Delete(game) => {
            conn.execute("DELETE FROM events WHERE game = ?1", &[game.into()])?;
            conn.execute("DELETE FROM chat_lines WHERE game = ?1", &[game.into()])?;
            conn.execute("DELETE FROM games WHERE id = ?1", &[game.into()])?;
            if fence.is_some() {
                conn.execute("DELETE FROM owners WHERE game = ?1", &[game.into()])?;
            }
        }
        Write::Quarantine { game, reason } => quarantine(conn, game, reason)?,
        Write::Chat { game, line, at_ms } => super::chat::insert_line(conn, game, line, *at_ms)?,
        Write::LiveGames { node, entries } => {
            if fence.is_some() {
                super::live::publish(conn, node, entries)?;
            }
        }
        Write::ChatMode { game, side, mode } => super::chat::set_mode(conn, game, *side, *mode)?,
        Write::Tournament {
            id,
            status,
            created_ms,
            body,
            finished,
        } => super::tournaments::put(conn, (id, status, *created_ms), body, *finished)?,
        Write::SetupTime { game, setup_ms } => {
            conn.execute(
                "UPDATE games SET setup_ms = ?2 WHERE id = ?1",
                &[game.into(), (*setup_ms).into()],
            )?;
        }
        Write::TournamentGame {
            game,
            tournament,
            watching,
        } => {
            super::tournaments::add_game(conn, game, tournament, *watching)?;
        }
        Write::Report {
            game,
            line,
            reporter,
            at_ms,
        } => super::chat::insert_report(conn, game, line, (reporter, *at_ms))?,
        Write::Arrival { kind, ip, at_ms } => {
            if fence.is_some() {
                conn.execute(
                    "INSERT INTO arrivals (kind, ip, at_ms) VALUES (?1, ?2, ?3)",
                    &[(*kind).into(), ip.to_string().into(), (*at_ms).into()],
                )?;
            }
        }
        Write::ForgetArrivals { before_ms } => {
            if fence.is_some() {
                conn.execute(
                    "DELETE FROM arrivals WHERE at_ms < ?1",
                    &[(*before_ms).into()],
                )?;
            }
        }
        Write::Prune { ended_before_ms } => {
            // A batch at most, the oldest first, through the index of ended games: a prune
            // never holds the writer for long, whatever the backlog.
            let old = format!(
                "SELECT id FROM games WHERE over = 1 AND ended_ms < ?1
                 ORDER BY ended_ms LIMIT {PRUNE_BATCH}"
            );
            let cut = [Value::from(*ended_before_ms)];
            if fence.is_some() {
                conn.execute(&format!("DELETE FROM owners WHERE game IN ({old})"), &cut)?;
            }
            conn.execute(&format!("DELETE FROM events WHERE game IN ({old})"), &cut)?;
            conn.execute(
                &format!("DELETE FROM chat_lines WHERE game IN ({old})"),
                &cut,
            )?;
            conn.execute(&format!("DELETE FROM games WHERE id IN ({old})"), &cut)?;
        }
        Write::Join {
            game,
            side,
            token,
            seated_ms,
            name,
            ip,
            unrated,
        } => {
            let sql = format!(
                "UPDATE games SET {seat}_token = ?2, seated_ms = COALESCE(?3, seated_ms),
                 {seat}_name = ?4, {seat}_ip = COALESCE(?5, {seat}_ip),
                 rated = CASE WHEN CAST(?6 AS TEXT) IS NULL THEN rated ELSE 0 END,
                 unrated = COALESCE(?6, unrated) WHERE id = ?1",
                seat = side.word()
            );
            conn.execute(
                &sql,
                &[
                    game.into(),
                    token.into(),
                    (*seated_ms).into(),
                    name.clone().into(),
                    ip.map(|ip| ip.to_string()).into(),
                    (*unrated).into(),
                ],
            )?;
        }
        Write::Sharing { name, sharing } => {
            conn.execute(
                "UPDATE players SET share_games = ?2, share_names = ?3 WHERE folded = ?1",
                &[
                    name.to_ascii_lowercase().into(),
                    sharing.games.into(),
                    sharing.names.into(),
                ],
            )?;
        }
        Write::Player {
            name,
            key,
            bot,
            description,
            created_ms,
        } => {
            let skeleton = crate::wire::skeleton(name);
            if conn
                .query_one(
                    "SELECT 1 FROM players WHERE skeleton = ?1",
                    &[(&skeleton).into()],
                )?
                .is_some()
            {
                return Err(StoreError::LookAlike);
            }
            conn.execute(
                "INSERT INTO players (name, folded, key, bot, created_ms, skeleton, description)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                &[
                    name.into(),
                    name.to_ascii_lowercase().into(),
                    key.clone().into(),
                    (*bot).into(),
                    (*created_ms).into(),
                    skeleton.into(),
                    description.clone().into(),
                ],
            )?;
            if fence.is_some() {
                lease::notify(conn, PLAYERS_CHANNEL, name)?;
            }
        }
        Write::Events {
            game,
            first_v,
            events,
            ending,
        } => {
            let mut rows = Vec::with_capacity(events.len());
            for (i, event) in events.iter().enumerate() {
                let body =
                    serde_json::to_string(event).map_err(|e| StoreError::Corrupt(e.to_string()))?;
                rows.push([game.into(), (*first_v + i as u64).into(), body.into()]);
                if let Event::Ready {
                    side,
                    formation: Some(setup),
                } = event
                {
                    let sql = match side {
                        Side::White => "UPDATE games SET white_setup = ?2 WHERE id = ?1",
                        Side::Black => "UPDATE games SET black_setup = ?2 WHERE id = ?1",
                    };
                    conn.execute(sql, &[game.into(), setup.cell_values().to_vec().into()])?;
                }
            }
            if let Some(ended) = ending {
                conn.execute(
                    "UPDATE games SET over = 1, creator_ip = NULL, summary = ?2, record = ?3,
                     ended_ms = ?4, rated = rated * ?5, unrated = COALESCE(?6, unrated)
                     WHERE id = ?1",
                    &[
                        game.into(),
                        (&ended.ending.summary).into(),
                        ended.ending.record.clone().into(),
                        ended.ended_ms.into(),
                        ended.rated.into(),
                        ended.unrated.into(),
                    ],
                )?;
                count_results(conn, (game, ended), committed)?;
                for name in &ended.strikes {
                    committed.players.push(strike(conn, name, ended.ended_ms)?);
                }
                if let Some(fence) = fence {
                    // The other nodes read these players' rows again, and hear the end.
                    let names = ended.results.iter().map(|(name, _)| name);
                    for name in names.chain(&ended.strikes) {
                        lease::notify(conn, PLAYERS_CHANNEL, name)?;
                    }
                    if let Some(end) = ended.end {
                        let told =
                            serde_json::json!({"node": fence.node, "game": game, "end": end});
                        lease::notify(conn, ENDED_CHANNEL, &told.to_string())?;
                    }
                }
            }
            match gathered {
                Some(gathered) => gathered.extend(rows),
                None => insert_events(conn, rows)?,
            }
        }
    }
    Ok(())
}

/// Counts a finished game's results in its players' rows and, for a rated game, moves both
/// ratings by Glicko-2 from the rows' values before it (each change kept in
/// `rating_history`) (rows locked on PostgreSQL, where
/// another server may end another game of the same player at once); notes the rows as they
/// end up.
fn count_results(
    conn: &mut impl Sql,
    (game, ended): (&str, &Settlement),
    committed: &mut Committed,
) -> Result<(), StoreError> {
    for (name, result) in &ended.results {
        let one = |r| Value::from(*result == r);
        conn.execute(
            "UPDATE players SET games = games + 1, won = won + ?2, lost = lost + ?3,
             drawn = drawn + ?4 WHERE name = ?1",
            &[
                name.into(),
                one(GameResult::Won),
                one(GameResult::Lost),
                one(GameResult::Drawn),
            ],
        )?;
    }
    let read = format!(
        "SELECT {PLAYER_COLUMNS} FROM players WHERE name = ?1{}",
        conn.dialect().for_update()
    );
    let mut rows = Vec::with_capacity(ended.results.len());
    for (name, _) in &ended.results {
        let row = conn
            .query_one(&read, &[name.into()])?
            .ok_or_else(|| StoreError::Corrupt(format!("no player {name}")))?;
        // Memory keeps the key it has: the row's is not handed on.
        rows.push(PlayerRow {
            key: None,
            ..player_row(&row)?
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
        for (row, after) in [(&*first, a), (&*second, b)] {
            conn.execute(
                "INSERT INTO rating_history (game, name, rating_before, rating_after, ended_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                &[
                    game.into(),
                    (&row.name).into(),
                    row.rating.into(),
                    after.rating.into(),
                    ended.ended_ms.into(),
                ],
            )?;
        }
        for (row, after) in [(first, a), (second, b)] {
            conn.execute(
                "UPDATE players SET rating = ?2, rd = ?3, volatility = ?4 WHERE name = ?1",
                &[
                    (&row.name).into(),
                    after.rating.into(),
                    after.rd.into(),
                    after.volatility.into(),
                ],
            )?;
            (row.rating, row.rd, row.volatility) = (after.rating, after.rd, after.volatility);
        }
    }
    committed.players.extend(rows);
    Ok(())
}

/// One more strike for player `name` at `now_ms` (a ban if it is one too many): its row after.
fn strike(conn: &mut impl Sql, name: &str, now_ms: u64) -> Result<PlayerRow, StoreError> {
    let read = format!(
        "SELECT {PLAYER_COLUMNS} FROM players WHERE name = ?1{}",
        conn.dialect().for_update()
    );
    let row = conn
        .query_one(&read, &[name.into()])?
        .ok_or_else(|| StoreError::Corrupt(format!("no player {name}")))?;
    let mut row = PlayerRow {
        key: None,
        ..player_row(&row)?
    };
    row.playban = row.playban.struck(now_ms);
    let p = row.playban;
    conn.execute(
        "UPDATE players SET strikes = ?2, strike_ms = ?3, bans = ?4, banned_until_ms = ?5
         WHERE name = ?1",
        &[
            name.into(),
            p.strikes.into(),
            p.strike_ms.into(),
            p.bans.into(),
            p.banned_until_ms.into(),
        ],
    )?;
    Ok(row)
}

/// A player's rating, deviation and volatility as its row holds them.
fn glicko(row: &PlayerRow) -> Glicko {
    Glicko {
        rating: row.rating,
        rd: row.rd,
        volatility: row.volatility,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_groups_events_go_in_at_most_four_kinds_of_insert_and_all_arrive_in_order() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE events (game TEXT, v INTEGER, body TEXT, PRIMARY KEY (game, v))",
        )
        .unwrap();
        for n in [0_u64, 1, 3, 5, 64, 85, 150] {
            let game = format!("g{n}");
            let rows = (1..=n)
                .map(|v| {
                    [
                        Value::from(&game),
                        v.into(),
                        format!("{{\"n\":{v}}}").into(),
                    ]
                })
                .collect();
            insert_events(&mut conn, rows).unwrap();
            let stored = Sql::query(
                &mut conn,
                "SELECT v, body FROM events WHERE game = ?1 ORDER BY v",
                &[game.as_str().into()],
            )
            .unwrap();
            assert_eq!(stored.len() as u64, n);
            for (i, row) in stored.iter().enumerate() {
                let v = i as i64 + 1;
                assert_eq!(
                    (row.int(0).unwrap(), row.text(1).unwrap()),
                    (v, format!("{{\"n\":{v}}}"))
                );
            }
        }
        // 64 + 16 + 4 + 1 = 85 rows in four statements, each of a size the list names.
        assert_eq!(EVENT_CHUNKS.iter().sum::<usize>(), 85);
        assert_eq!(
            events_insert(2),
            "INSERT INTO events (game, v, body) VALUES (?1, ?2, ?3), (?4, ?5, ?6)"
        );
    }
}
