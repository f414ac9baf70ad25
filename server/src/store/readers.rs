//! The readers: threads of their own, each with its own connection, so that loading a game
//! (however long) never delays the writer's commits. SQLite's WAL lets them read while it
//! writes; PostgreSQL's snapshots do the same.

use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::thread;

use tokio::sync::oneshot;

use super::games::{
    Finished, ListedRow, RatedSince, UnratedRow, any_ended_before, finished, load, player_games,
    rated_since, unrated,
};
use super::lease::{self, Owner};
use super::players::{RatingChange, RatingsOf, rating_changes};
use super::sql::Sql;
use super::values::{PlayerRow, StoreError};
use crate::room::Saved;

/// A read for one of the readers.
pub(super) enum ReadJob {
    /// A game as stored.
    Load(String, oneshot::Sender<Result<Option<Saved>, StoreError>>),
    /// A finished game's kept summary, record and seats.
    Finished(
        String,
        oneshot::Sender<Result<Option<Finished>, StoreError>>,
    ),
    /// Rated games a day of a pair and of its addresses.
    RatedSince {
        names: [String; 2],
        ips: [Option<String>; 2],
        since_ms: u64,
        not: String,
        done: oneshot::Sender<Result<RatedSince, StoreError>>,
    },
    /// Rating changes: a player's newest, or some games'.
    Ratings(
        RatingsOf,
        oneshot::Sender<Result<Vec<RatingChange>, StoreError>>,
    ),
    /// The games asked rated but played unrated.
    Unrated(usize, oneshot::Sender<Result<Vec<UnratedRow>, StoreError>>),

    /// A page of a player's finished games: the name, the game to start before, the limit.
    PlayerGames {
        name: String,
        before: Option<String>,
        limit: usize,
        unlisted: bool,
        done: oneshot::Sender<Result<Option<Vec<ListedRow>>, StoreError>>,
    },
    /// Whether a finished game ended before the cut.
    EndedBefore(u64, oneshot::Sender<Result<bool, StoreError>>),
    /// A read of the games table, for a readiness probe.
    Ping(oneshot::Sender<Result<(), StoreError>>),
    /// Who owns a game (PostgreSQL).
    Owner(String, oneshot::Sender<Result<Option<Owner>, StoreError>>),
    /// The nodes whose leases lapsed with games on them (PostgreSQL).
    Lapsed(oneshot::Sender<Result<Vec<String>, StoreError>>),
    /// A player's row.
    Player(
        String,
        oneshot::Sender<Result<Option<PlayerRow>, StoreError>>,
    ),
    /// The unfinished games created from an address, at every node.
    UnfinishedBy(String, oneshot::Sender<Result<u64, StoreError>>),
    /// The arrivals of a kind from an address since a time, at every node.
    Arrivals {
        kind: &'static str,
        ip: String,
        since_ms: u64,
        done: oneshot::Sender<Result<u64, StoreError>>,
    },
    /// The unfinished games a node owns.
    Owned(String, oneshot::Sender<Result<Vec<String>, StoreError>>),
    /// The other nodes' URLs: those alive, or (false) those whose lease lapsed.
    #[cfg(feature = "nodes")]
    Others(
        String,
        bool,
        oneshot::Sender<Result<Vec<String>, StoreError>>,
    ),
    /// Every player's row.
    Players(oneshot::Sender<Result<Vec<PlayerRow>, StoreError>>),
    /// A finished game's chat.
    Chat(
        String,
        oneshot::Sender<Result<Option<super::FinishedChat>, StoreError>>,
    ),
    /// The other nodes' live entries.
    LiveElsewhere(String, oneshot::Sender<Result<Vec<String>, StoreError>>),
    /// Every tournament not finished, and the newest finished ones.
    Tournaments(usize, oneshot::Sender<Result<Vec<String>, StoreError>>),
    /// One tournament.
    Tournament(String, oneshot::Sender<Result<Option<String>, StoreError>>),
    /// A tournament's games that have ended.
    EndedGames(String, oneshot::Sender<Result<Vec<String>, StoreError>>),
    /// A game's tournament, and whether it finished.
    TournamentOf(
        String,
        oneshot::Sender<Result<Option<super::TournamentOf>, StoreError>>,
    ),
    /// A reported line, as its reports keep it.
    ReportedLine(
        crate::wire::LineRef,
        oneshot::Sender<Result<Option<crate::wire::ChatLine>, StoreError>>,
    ),
    /// A page of the moderation log.
    Moderation(
        super::LogPage,
        oneshot::Sender<Result<Vec<super::Entry>, StoreError>>,
    ),
    /// A page of reported chat lines.
    Reports(
        super::ReportPage,
        oneshot::Sender<Result<Vec<super::ReportGroup>, StoreError>>,
    ),
}

/// Starts a reader on each of `conns`; they end when the sender is dropped.
pub(super) fn start<C: Sql + Send + 'static>(
    conns: Vec<C>,
) -> Result<mpsc::Sender<ReadJob>, StoreError> {
    let (jobs, queue) = mpsc::channel::<ReadJob>();
    let queue = Arc::new(Mutex::new(queue));
    for (i, mut conn) in conns.into_iter().enumerate() {
        let queue = Arc::clone(&queue);
        thread::Builder::new()
            .name(format!("salpakan-reader-{i}"))
            .spawn(move || serve(&mut conn, &queue))
            .map_err(StoreError::Thread)?;
    }
    Ok(jobs)
}

fn serve(conn: &mut impl Sql, queue: &Mutex<mpsc::Receiver<ReadJob>>) {
    loop {
        let job = queue.lock().unwrap_or_else(PoisonError::into_inner).recv();
        match job {
            Ok(ReadJob::Load(game, done)) => {
                let _ = done.send(load(conn, &game));
            }
            Ok(ReadJob::Finished(game, done)) => {
                let _ = done.send(finished(conn, &game));
            }
            Ok(ReadJob::RatedSince {
                names,
                ips,
                since_ms,
                not,
                done,
            }) => {
                let _ = done.send(rated_since(conn, (&names, &ips), since_ms, &not));
            }
            Ok(ReadJob::Ratings(of, done)) => {
                let _ = done.send(rating_changes(conn, of));
            }
            Ok(ReadJob::Unrated(limit, done)) => {
                let _ = done.send(unrated(conn, limit));
            }

            Ok(ReadJob::PlayerGames {
                name,
                before,
                limit,
                unlisted,
                done,
            }) => {
                let page = player_games(conn, &name, before.as_deref(), (limit, unlisted));
                let _ = done.send(page);
            }
            Ok(ReadJob::EndedBefore(cut_ms, done)) => {
                let _ = done.send(any_ended_before(conn, cut_ms));
            }
            Ok(ReadJob::Ping(done)) => {
                let read = conn.query("SELECT 1 FROM games LIMIT 1", &[]).map(|_| ());
                let _ = done.send(read);
            }
            Ok(ReadJob::Owner(game, done)) => {
                let _ = done.send(lease::owner(conn, &game));
            }
            Ok(ReadJob::Lapsed(done)) => {
                let _ = done.send(lease::lapsed(conn));
            }
            Ok(ReadJob::Player(name, done)) => {
                let _ = done.send(super::players::player(conn, &name));
            }
            Ok(ReadJob::UnfinishedBy(ip, done)) => {
                let _ = done.send(lease::unfinished_by(conn, &ip));
            }
            Ok(ReadJob::Arrivals {
                kind,
                ip,
                since_ms,
                done,
            }) => {
                let _ = done.send(lease::arrivals(conn, kind, &ip, since_ms));
            }
            Ok(ReadJob::Owned(node, done)) => {
                let _ = done.send(lease::owned(conn, &node));
            }
            #[cfg(feature = "nodes")]
            Ok(ReadJob::Others(me, alive, done)) => {
                let _ = done.send(lease::others(conn, &me, alive));
            }
            Ok(ReadJob::Players(done)) => {
                let _ = done.send(super::players::players(conn));
            }
            Ok(ReadJob::Chat(game, done)) => {
                let _ = done.send(super::chat::finished_chat(conn, &game));
            }
            Ok(ReadJob::LiveElsewhere(me, done)) => {
                let _ = done.send(super::live::elsewhere(conn, &me));
            }
            Ok(ReadJob::Tournaments(finished, done)) => {
                let _ = done.send(super::tournaments::all(conn, finished));
            }
            Ok(ReadJob::Tournament(id, done)) => {
                let _ = done.send(super::tournaments::one(conn, &id));
            }
            Ok(ReadJob::EndedGames(tournament, done)) => {
                let _ = done.send(super::tournaments::ended_games(conn, &tournament));
            }
            Ok(ReadJob::TournamentOf(game, done)) => {
                let _ = done.send(super::tournaments::of_game(conn, &game));
            }
            Ok(ReadJob::ReportedLine(line, done)) => {
                let _ = done.send(super::chat::reported_line(conn, &line));
            }
            Ok(ReadJob::Moderation(page, done)) => {
                let _ = done.send(super::moderation::log(conn, &page));
            }
            Ok(ReadJob::Reports(page, done)) => {
                let _ = done.send(super::chat::reports(conn, &page));
            }
            Err(_) => return,
        }
    }
}
