//! The writer thread: group commits, each write in a savepoint of its own.

use std::sync::mpsc;

use super::lease::{self, Fence};
use super::sql::{Sql, Value};
use super::values::{Committed, StoreError};
use super::{Done, GROUP, LeaseJob, Write, WriteJob};

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
    super::games::insert_events(conn, rows)?;
    conn.batch("COMMIT")
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
        Write::Player(write) => super::players::apply(conn, write, committed, fence),
        Write::Chat(write) => super::chat::apply(conn, write),
        Write::Tournament(write) => super::tournaments::apply(conn, write),
        Write::Node(write) => super::nodes::apply(conn, write, fence),
        Write::Moderation(write) => super::moderation::apply(conn, write, committed, fence),
    }
}
