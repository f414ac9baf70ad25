//! The writer thread: group commits, each write in a savepoint of its own.

use std::sync::mpsc;

use super::lease::{self, Fence};
use super::sql::{Sql, Value};
use super::{Committed, Done, GROUP, LeaseJob, StoreError, Write, WriteJob};

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
pub(super) fn insert_events(conn: &mut impl Sql, rows: Vec<[Value; 3]>) -> Result<(), StoreError> {
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

/// Applies `write` (its concern's file does); a game's events' rows go to `gathered` if
/// given (inserted by the caller), else are inserted now.
fn apply(
    conn: &mut impl Sql,
    write: &Write,
    committed: &mut Committed,
    gathered: Option<&mut Vec<[Value; 3]>>,
    fence: Option<&Fence>,
) -> Result<(), StoreError> {
    match write {
        Write::Game(write) => super::games::apply(conn, write, committed, gathered, fence),
        Write::Player(write) => super::players::apply(conn, write, fence),
        Write::Chat(write) => super::chat::apply(conn, write),
        Write::Tournament(write) => super::tournaments::apply(conn, write),
        Write::Node(write) => super::nodes::apply(conn, write, fence),
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
