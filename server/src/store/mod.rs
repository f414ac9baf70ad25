//! The database: SQLite (compiled in, the default) or PostgreSQL (`--db postgres://…`),
//! through one seam (`sql::Sql`): every statement is written once and runs on both. One
//! thread writes, committing whatever is waiting in one transaction (a group commit), so that
//! every event is durable before any client hears of it and many games share each flush;
//! readers of their own serve every load, so that no read delays a commit.
//!
//! A room is its `games` row plus its events, replayed ([`Room::restore`]); a finished game
//! also keeps its summary and record in its row, so that reading it needs no replay. A game
//! that cannot be read back is quarantined: left out, and said, at every start.
//!
//! [`Room::restore`]: crate::room::Room::restore

mod backup;
mod chat;
mod export;
mod games;
mod lease;
mod live;
mod moderation;
mod nodes;
mod players;
#[cfg(feature = "nodes")]
mod postgres;
mod readers;
mod schema;
mod sql;
mod tournaments;
mod values;
mod writer;

pub use backup::backup;

pub use backup::Backup;
pub(crate) use chat::{ChatWrite, FinishedChat, ReportCursor, ReportGroup, ReportPage};
pub(crate) use export::{Found, Shareable, shareable};
pub use games::GameWrite;
pub(crate) use games::{Finished, FinishedSeats, ListedRow, RatedSince, UnratedRow, Unreadable};
pub(crate) use lease::Notice;
#[cfg(feature = "nodes")]
pub(crate) use lease::{LOBBY, Owner};
pub use moderation::{Entry, LogPage, ModerationWrite, Refunded};
pub use nodes::NodeWrite;
pub(crate) use players::{PlayerWrite, RatingChange, RatingsOf};
pub use schema::Upgrade;
pub use schema::{PG_VERSION, VERSION};
pub(crate) use tournaments::{LogWrite, TournamentOf, TournamentWrite};
pub use values::{
    Committed, Durability, Ending, GameResult, PlayerRow, Settlement, Sharing, Standing,
    StoreError, TokenRow,
};

use std::net::IpAddr;
use std::path::Path;
use std::sync::mpsc;
use std::thread;

use rusqlite::Connection;
use tokio::sync::oneshot;

use crate::room::Saved;
use readers::ReadJob;
use sql::Sql;

/// One write: applied in a savepoint of its own, inside a group's transaction. Each
/// concern declares its own writes and applies them (`games.rs`, `players.rs`, `chat.rs`,
/// `tournaments.rs`, `nodes.rs`); the writer only dispatches.
#[derive(Debug, Clone)]
// A write is made once and moved into the writer's queue: a game's settings inline cost
// nothing measurable, a box would cost an allocation per game made.
#[allow(clippy::large_enum_variant)]
pub enum Write {
    /// A game's row and events.
    Game(GameWrite),
    /// A player's row.
    Player(PlayerWrite),
    /// A game's chat.
    Chat(ChatWrite),
    /// A tournament.
    Tournament(TournamentWrite),
    /// What the nodes share.
    Node(NodeWrite),
    /// The moderators' desk.
    Moderation(ModerationWrite),
}

impl From<ModerationWrite> for Write {
    fn from(write: ModerationWrite) -> Write {
        Write::Moderation(write)
    }
}

impl From<GameWrite> for Write {
    fn from(write: GameWrite) -> Write {
        Write::Game(write)
    }
}

impl From<PlayerWrite> for Write {
    fn from(write: PlayerWrite) -> Write {
        Write::Player(write)
    }
}

impl From<ChatWrite> for Write {
    fn from(write: ChatWrite) -> Write {
        Write::Chat(write)
    }
}

impl From<TournamentWrite> for Write {
    fn from(write: TournamentWrite) -> Write {
        Write::Tournament(write)
    }
}

impl From<NodeWrite> for Write {
    fn from(write: NodeWrite) -> Write {
        Write::Node(write)
    }
}

/// Where a write's result goes.
type Done = oneshot::Sender<Result<Committed, StoreError>>;

enum WriteJob {
    Write(Vec<Write>, Done),
    /// The writes before it committed, the writer ends: later writes fail with
    /// [`StoreError::Stopped`].
    Close(oneshot::Sender<()>),
    /// One of the lease's jobs (PostgreSQL), after the writes before it.
    Lease(LeaseJob),
}

/// A job of this node's lease, run by the writer (whose connection is the node's).
enum LeaseJob {
    /// Register again with this key for the nodes if none is kept: a new epoch.
    Register(
        String,
        oneshot::Sender<Result<lease::Registered, StoreError>>,
    ),
    /// Extend the lease.
    Renew(oneshot::Sender<Result<bool, StoreError>>),
    /// End the lease now.
    Expire(oneshot::Sender<Result<(), StoreError>>),
    /// Take over from a node whose lease lapsed.
    TakeOver {
        dead: String,
        game: Option<String>,
        done: oneshot::Sender<Result<Vec<String>, StoreError>>,
    },
}

/// This server as one node of several sharing a PostgreSQL database (ignored on SQLite).
#[derive(Debug, Clone)]
pub struct Node {
    /// Its name (`--node`).
    pub name: String,
    /// Where the others reach it (`--public-url`).
    pub url: String,
    /// How long its lease lasts unrenewed (`--lease-secs`).
    pub lease: std::time::Duration,
}

/// What a node of several learns at start.
pub struct Cluster {
    /// The key the nodes' forwarded requests carry, shared through the database.
    pub key: String,
    /// What the other nodes say at once.
    pub notices: tokio::sync::mpsc::UnboundedReceiver<Notice>,
}

/// Where the database is: an SQLite file, or a PostgreSQL server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Location {
    /// An SQLite database file (created if missing).
    Sqlite(std::path::PathBuf),
    /// A PostgreSQL connection URL (`postgres://…` or `postgresql://…`).
    Postgres(String),
}

impl Location {
    /// What `--db` names: a URL of PostgreSQL's, or a path.
    #[must_use]
    pub fn of(db: &Path) -> Location {
        match db.to_str() {
            Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
                Location::Postgres(url.to_owned())
            }
            _ => Location::Sqlite(db.to_path_buf()),
        }
    }
}

/// Opens the PostgreSQL database at `url` and brings its schema up to date.
#[cfg(feature = "nodes")]
fn open_postgres(url: &str) -> Result<(postgres::Postgres, Upgrade), StoreError> {
    let mut conn = postgres::Postgres::connect(url)?;
    let upgrade = schema::upgrade_postgres(&mut conn)?;
    let upgrade = upgraded(Path::new("the PostgreSQL database"), upgrade)?;
    Ok((conn, upgrade))
}

/// Opens the database at `path` (created if missing), refuses one a newer binary made before
/// anything is written to it, sets `pragmas`, and runs the steps of the schema it lacks.
fn open_current(path: &Path, pragmas: &str) -> Result<(Connection, Upgrade), StoreError> {
    let at = |source| StoreError::Open {
        path: path.display().to_string(),
        source,
    };
    let mut conn = Connection::open(path).map_err(at)?;
    if let Some(newer) = schema::newer(&conn, VERSION).map_err(at)? {
        upgraded(path, newer)?;
    }
    conn.execute_batch(pragmas).map_err(at)?;
    let upgrade = upgraded(path, schema::upgrade(&mut conn, schema::STEPS).map_err(at)?)?;
    conn.set_prepared_statement_cache_capacity(STATEMENTS);
    Ok((conn, upgrade))
}

/// `upgrade`'s answer, a newer database an error.
fn upgraded(path: &Path, upgrade: Upgrade) -> Result<Upgrade, StoreError> {
    match upgrade {
        Upgrade::Newer { found, known } => Err(StoreError::Newer {
            path: path.display().to_string(),
            found,
            known,
        }),
        done @ Upgrade::Done { .. } => Ok(done),
    }
}

/// The most finished games one `Write::Prune` deletes, so that no prune holds the writer
/// for long.
pub const PRUNE_BATCH: usize = 256;

/// Statements an SQLite connection keeps prepared: every one the store makes (rusqlite's
/// default, 16, is fewer, and a statement pushed out is prepared again).
const STATEMENTS: usize = 64;

/// How long a starting server waits, unless told otherwise, for another to let go of an
/// SQLite database.
pub(crate) const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// The most writes one transaction takes.
const GROUP: usize = 512;
/// Threads that read.
const READERS: usize = 2;

/// The database's writer and readers, shared by every game.
#[derive(Clone)]
pub struct Store {
    writes: mpsc::Sender<WriteJob>,
    reads: mpsc::Sender<ReadJob>,
    /// Whether games have owners among several nodes (PostgreSQL).
    shared: bool,
}

/// What opening the database found: the store, every unfinished game, and the games that
/// could not be read (now quarantined).
pub struct Opened {
    /// The store.
    pub store: Store,
    /// The unfinished games, to restore.
    pub unfinished: Vec<Saved>,
    /// The games left out.
    pub unreadable: Vec<Unreadable>,
    /// Every player.
    pub players: Vec<PlayerRow>,
    /// On PostgreSQL: the nodes' key, and what they say.
    pub cluster: Option<Cluster>,
}

impl Store {
    /// Opens (or creates) the database at `path` and starts its writer and readers.
    ///
    /// # Errors
    /// [`StoreError`] if it cannot be opened, brought up to date or read.
    pub fn open(path: &Path, durability: Durability, node: &Node) -> Result<Opened, StoreError> {
        Store::open_waiting(path, durability, node, LOCK_WAIT)
    }

    /// [`Store::open`], waiting at most `lock_wait` for another server to let go of the
    /// database (an SQLite file's lock, or on PostgreSQL this node's session lock: one
    /// stopping lets go soon) before it says [`StoreError::Busy`].
    ///
    /// # Errors
    /// As [`Store::open`].
    pub(crate) fn open_waiting(
        path: &Path,
        durability: Durability,
        node: &Node,
        lock_wait: std::time::Duration,
    ) -> Result<Opened, StoreError> {
        match Location::of(path) {
            Location::Sqlite(path) => Store::open_sqlite(&path, durability, lock_wait),
            #[cfg(feature = "nodes")]
            Location::Postgres(url) => Store::open_postgres(&url, durability, node, lock_wait),
            #[cfg(not(feature = "nodes"))]
            Location::Postgres(_) => {
                let _ = (node, lock_wait);
                Err(StoreError::NoPostgres)
            }
        }
    }

    fn open_sqlite(
        path: &Path,
        durability: Durability,
        lock_wait: std::time::Duration,
    ) -> Result<Opened, StoreError> {
        // One server writes a database: the first holds a lock on its file while it runs
        // (advisory, apart from SQLite's own locks; `backup` and `migrate` do not take it).
        let held = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| StoreError::Open {
                path: path.display().to_string(),
                source: rusqlite::Error::SqliteFailure(
                    rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CANTOPEN),
                    Some(e.to_string()),
                ),
            })?;
        // A server stopping (in this process, or a process still exiting) lets go soon.
        let until = std::time::Instant::now() + lock_wait;
        while held.try_lock().is_err() {
            if std::time::Instant::now() >= until {
                return Err(StoreError::Busy);
            }
            thread::sleep(std::time::Duration::from_millis(20));
        }
        let sync = match durability {
            Durability::Full => "FULL",
            Durability::Normal => "NORMAL",
        };
        let (conn, _) = open_current(
            path,
            &format!(
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = {sync}; \
                 PRAGMA busy_timeout = 5000;"
            ),
        )?;
        let readers = (0..READERS)
            .map(|_| {
                let conn = Connection::open(path).map_err(|source| StoreError::Open {
                    path: path.display().to_string(),
                    source,
                })?;
                conn.execute_batch("PRAGMA query_only = ON; PRAGMA busy_timeout = 5000;")?;
                conn.set_prepared_statement_cache_capacity(STATEMENTS);
                Ok(conn)
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Store::serve(conn, readers, Some(held), None)
    }

    #[cfg(feature = "nodes")]
    fn open_postgres(
        url: &str,
        durability: Durability,
        node: &Node,
        lock_wait: std::time::Duration,
    ) -> Result<Opened, StoreError> {
        let (mut conn, _) = open_postgres(url)?;
        // A server stopping lets go of its session's lock soon (its connection closes as it
        // ends), as of an SQLite file's: waited for alike.
        let until = std::time::Instant::now() + lock_wait;
        loop {
            match conn.take_writer_lock(&node.name) {
                Err(StoreError::Busy) if std::time::Instant::now() < until => {
                    thread::sleep(std::time::Duration::from_millis(20));
                }
                taken => break taken?,
            }
        }
        // A node paused in the middle of a transaction (SIGSTOP) would hold its lease's row
        // locked, and no other node could take its games over: PostgreSQL ends a writer's
        // transaction left idle for half a lease (a writer's statements follow each other
        // within microseconds), and the paused node's commit then fails.
        let idle_ms = (node.lease.as_millis() / 2).max(500);
        let mut session = format!("SET idle_in_transaction_session_timeout = {idle_ms};");
        if durability == Durability::Normal {
            // A commit returns before PostgreSQL's own flush: it survives this server's crash
            // (the database has it), not the database machine's.
            session.push_str(" SET synchronous_commit = off;");
        }
        conn.set_session(&session)?;
        let readers = (0..READERS)
            .map(|_| postgres::Postgres::connect(url))
            .collect::<Result<Vec<_>, StoreError>>()?;
        let mut fence = lease::Fence {
            node: node.name.clone(),
            url: node.url.clone(),
            epoch: 0,
            lease_ms: i64::try_from(node.lease.as_millis()).unwrap_or(i64::MAX),
        };
        let fresh = crate::secret::random_hex(&crate::secret::OsEntropy, 32);
        let registered = lease::register(&mut conn, &fence, &fresh)?;
        fence.epoch = registered.epoch;
        let (tx, notices) = tokio::sync::mpsc::unbounded_channel();
        postgres::listen(url.to_owned(), tx)?;
        let mut opened = Store::serve(conn, readers, None, Some(fence))?;
        opened.cluster = Some(Cluster {
            key: registered.key,
            notices,
        });
        Ok(opened)
    }

    /// Reads what a start needs through `conn`, then makes it the writer and starts the
    /// `readers`; the writer keeps `held` (the file whose lock says a server writes the
    /// database) until it ends.
    fn serve<C: Sql + Send + 'static>(
        mut conn: C,
        readers: Vec<C>,
        held: Option<std::fs::File>,
        fence: Option<lease::Fence>,
    ) -> Result<Opened, StoreError> {
        schema::seat_bots(&mut conn)?;
        let owner = fence.as_ref().map(|f| f.node.as_str());
        let (unfinished, unreadable) = games::load_unfinished(&mut conn, owner)?;
        let players = players::players(&mut conn)?;
        let reads = readers::start(readers)?;
        let (writes, queue) = mpsc::channel();
        let shared = fence.is_some();
        thread::Builder::new()
            .name("salpakan-store".into())
            .spawn(move || {
                writer::run(conn, &queue, fence);
                drop(held);
            })
            .map_err(StoreError::Thread)?;
        Ok(Opened {
            store: Store {
                writes,
                reads,
                shared,
            },
            unfinished,
            unreadable,
            players,
            cluster: None,
        })
    }

    /// Brings the database at `path` (created if missing) up to this binary's schema
    /// version: `salpakan-server migrate`. A server does the same at every start.
    ///
    /// # Errors
    /// [`StoreError::Newer`] for a database a newer binary made (left untouched), or the
    /// database's error.
    pub fn migrate(path: &Path) -> Result<Upgrade, StoreError> {
        match Location::of(path) {
            Location::Sqlite(path) => open_current(
                &path,
                "PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;",
            )
            .map(|(_, upgrade)| upgrade),
            #[cfg(feature = "nodes")]
            Location::Postgres(url) => open_postgres(&url).map(|(_, upgrade)| upgrade),
            #[cfg(not(feature = "nodes"))]
            Location::Postgres(_) => Err(StoreError::NoPostgres),
        }
    }

    /// Commits `writes` (all or none of them); returns once they are on disk.
    ///
    /// # Errors
    /// The database's error; nothing was written.
    pub async fn write(&self, writes: Vec<Write>) -> Result<Committed, StoreError> {
        let (done, wait) = oneshot::channel();
        self.writes
            .send(WriteJob::Write(writes, done))
            .map_err(|_| StoreError::Stopped)?;
        wait.await.map_err(|_| StoreError::Stopped)?
    }

    /// Commits every write sent before it, then ends the writer (and lets go of the
    /// database: another server may open it); later writes fail with [`StoreError::Stopped`].
    pub async fn close(&self) {
        let (done, wait) = oneshot::channel();
        if self.writes.send(WriteJob::Close(done)).is_ok() {
            let _ = wait.await;
        }
    }

    /// Hands the read `job` (made with the sender of its answer) to a reader; its answer.
    async fn read<T>(
        &self,
        job: impl FnOnce(oneshot::Sender<Result<T, StoreError>>) -> ReadJob,
    ) -> Result<T, StoreError> {
        let (done, wait) = oneshot::channel();
        self.reads
            .send(job(done))
            .map_err(|_| StoreError::Stopped)?;
        wait.await.map_err(|_| StoreError::Stopped)?
    }

    /// A read through one of the readers (a readiness probe).
    ///
    /// # Errors
    /// The database's error.
    pub async fn ping(&self) -> Result<(), StoreError> {
        self.read(ReadJob::Ping).await
    }

    /// A game as stored, finished or not (`None` for no such game, or a quarantined one).
    ///
    /// # Errors
    /// The database's error.
    pub async fn load(&self, game: &str) -> Result<Option<Saved>, StoreError> {
        self.read(|done| ReadJob::Load(game.to_owned(), done)).await
    }

    /// Whether a finished game ended before `cut_ms` (milliseconds since the Unix epoch):
    /// what `Write::Prune` would delete.
    ///
    /// # Errors
    /// The database's error.
    pub async fn any_ended_before(&self, cut_ms: u64) -> Result<bool, StoreError> {
        self.read(|done| ReadJob::EndedBefore(cut_ms, done)).await
    }

    /// A finished game as its row keeps it: its summary and record, and its seats' digests;
    /// `None` for a game not over.
    ///
    /// # Errors
    /// The database's error.
    pub async fn finished(&self, game: &str) -> Result<Option<Finished>, StoreError> {
        self.read(|done| ReadJob::Finished(game.to_owned(), done))
            .await
    }

    /// Rated games started since `since_ms` between the players `names`, and those each of
    /// `ips` took part in, leaving out game `not` (the one being decided).
    ///
    /// # Errors
    /// The database's error.
    pub(crate) async fn rated_since(
        &self,
        (names, ips): ([String; 2], [Option<IpAddr>; 2]),
        since_ms: u64,
        not: &str,
    ) -> Result<RatedSince, StoreError> {
        let ips = ips.map(|ip| ip.map(|ip| ip.to_string()));
        self.read(|done| ReadJob::RatedSince {
            names,
            ips,
            since_ms,
            not: not.to_owned(),
            done,
        })
        .await
    }

    /// Rating changes: a player's newest, or every change some games made.
    ///
    /// # Errors
    /// The database's error.
    pub(crate) async fn rating_changes(
        &self,
        of: RatingsOf,
    ) -> Result<Vec<RatingChange>, StoreError> {
        self.read(|done| ReadJob::Ratings(of, done)).await
    }

    /// A finished game's chat and seats (`None` for a game not over).
    ///
    /// # Errors
    /// The database's error.
    pub(crate) async fn finished_chat(
        &self,
        game: &str,
    ) -> Result<Option<FinishedChat>, StoreError> {
        self.read(|done| ReadJob::Chat(game.to_owned(), done)).await
    }

    /// The live list's entries of the other nodes (JSON; several nodes only).
    ///
    /// # Errors
    /// The database's error.
    pub(crate) async fn live_elsewhere(&self, me: &str) -> Result<Vec<String>, StoreError> {
        self.read(|done| ReadJob::LiveElsewhere(me.to_owned(), done))
            .await
    }

    /// Every tournament not finished and the newest `finished` finished ones, as JSON.
    ///
    /// # Errors
    /// The database's error.
    pub async fn tournaments(&self, finished: usize) -> Result<Vec<String>, StoreError> {
        self.read(|done| ReadJob::Tournaments(finished, done)).await
    }

    /// Tournament `id` as JSON, if there is one.
    ///
    /// # Errors
    /// The database's error.
    pub async fn tournament(&self, id: &str) -> Result<Option<String>, StoreError> {
        self.read(|done| ReadJob::Tournament(id.to_owned(), done))
            .await
    }

    /// The games of tournament `tournament` that have ended (played to an end or aborted).
    ///
    /// # Errors
    /// The database's error.
    pub(crate) async fn ended_games(&self, tournament: &str) -> Result<Vec<String>, StoreError> {
        self.read(|done| ReadJob::EndedGames(tournament.to_owned(), done))
            .await
    }

    /// The tournament game `game` belongs to: whether it has finished and whether its games
    /// may be watched (`None` for a game of no tournament).
    ///
    /// # Errors
    /// The database's error.
    pub(crate) async fn tournament_of(
        &self,
        game: &str,
    ) -> Result<Option<TournamentOf>, StoreError> {
        self.read(|done| ReadJob::TournamentOf(game.to_owned(), done))
            .await
    }

    /// A page of reported chat lines, oldest first reported first.
    ///
    /// # Errors
    /// The database's error.
    pub async fn reports(&self, page: ReportPage) -> Result<Vec<ReportGroup>, StoreError> {
        self.read(|done| ReadJob::Reports(page, done)).await
    }

    /// The reported line `line`, as its reports keep it (`None`: nobody reported it).
    ///
    /// # Errors
    /// The database's error.
    pub(crate) async fn reported_line(
        &self,
        line: crate::wire::LineRef,
    ) -> Result<Option<crate::wire::ChatLine>, StoreError> {
        self.read(|done| ReadJob::ReportedLine(line, done)).await
    }

    /// A page of the moderation log.
    ///
    /// # Errors
    /// [`StoreError::Refused`] for a page `before` an action that is not there; the
    /// database's error.
    pub async fn moderation_log(&self, page: LogPage) -> Result<Vec<Entry>, StoreError> {
        self.read(|done| ReadJob::Moderation(page, done)).await
    }

    /// The games asked rated but played unrated, newest first, at most `limit`.
    ///
    /// # Errors
    /// The database's error.
    pub async fn unrated(&self, limit: usize) -> Result<Vec<UnratedRow>, StoreError> {
        self.read(|done| ReadJob::Unrated(limit, done)).await
    }

    /// A page of player `name`'s finished games, newest first, at most `limit`, starting
    /// after the game `before` if given (its unlisted games too with `unlisted`); `None` if
    /// `before` is not one of them.
    ///
    /// # Errors
    /// The database's error.
    pub(crate) async fn player_games(
        &self,
        name: &str,
        before: Option<&str>,
        (limit, unlisted): (usize, bool),
    ) -> Result<Option<Vec<ListedRow>>, StoreError> {
        self.read(|done| ReadJob::PlayerGames {
            name: name.to_owned(),
            before: before.map(str::to_owned),
            limit,
            unlisted,
            done,
        })
        .await
    }
}

#[cfg(all(test, not(feature = "nodes")))]
mod single_node {
    use super::*;

    /// A server built without the feature `nodes` names what it lacks for a PostgreSQL
    /// database, and opens nothing.
    #[test]
    fn a_single_node_server_refuses_postgresql_by_name() {
        let node = Node {
            name: "main".into(),
            url: "http://127.0.0.1:8080".into(),
            lease: std::time::Duration::from_secs(10),
        };
        let url = Path::new("postgres://salpakan@db/games");
        let refused = Store::open(url, Durability::Full, &node).err();
        assert!(matches!(refused, Some(StoreError::NoPostgres)));
        assert!(matches!(Store::migrate(url), Err(StoreError::NoPostgres)));
        assert!(refused.unwrap().to_string().contains("feature `nodes`"));
    }
}
