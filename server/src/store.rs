//! The database: SQLite (compiled in), written by one thread that commits whatever is
//! waiting in one transaction (a group commit), so that every event is durable before any
//! client hears of it and many games share each disk flush.
//!
//! Two tables: `games` (a row per game: its spec, the seats' token digests, the invite's
//! digest, the accepted formations) and `events` (a row per event, the JSON of
//! [`Event`]). A room is its `games` row plus its events, replayed ([`Room::restore`]).
//!
//! [`Room::restore`]: crate::room::Room::restore

use std::net::IpAddr;
use std::path::Path;
use std::sync::mpsc;
use std::thread;

use rusqlite::{Connection, OptionalExtension, params};
use salpakan::{Rules, Side};
use thiserror::Error;
use tokio::sync::oneshot;

use crate::clock::ClockSettings;
use crate::room::{Event, Player, Saved, Spec};

/// What went wrong with the database.
#[derive(Debug, Error)]
pub enum StoreError {
    /// SQLite's error (a path that cannot be opened, a full disk, a constraint).
    #[error("{path}: {source}")]
    Open {
        /// The database's path.
        path: String,
        /// SQLite's error.
        source: rusqlite::Error,
    },
    /// SQLite's error while reading or writing.
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
    /// The writer thread has stopped (the server is stopping).
    #[error("the database has stopped")]
    Stopped,
    /// The writer thread could not be started.
    #[error("the database's thread: {0}")]
    Thread(std::io::Error),
}

/// How hard a commit presses the data to disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Durability {
    /// `synchronous = FULL`: a committed event survives a power cut (the default).
    #[default]
    Full,
    /// `synchronous = NORMAL`: it survives the server's crash (`kill -9`), not the
    /// machine's.
    Normal,
}

/// One write: applied in a savepoint of its own, inside a group's transaction.
#[derive(Debug, Clone)]
pub enum Write {
    /// A new game, and the address of the client that created it (kept while the game is
    /// unfinished, for the limit of games per address).
    Create {
        /// The game's settings.
        spec: Spec,
        /// The creator's address.
        creator: Option<IpAddr>,
    },
    /// A game that never started expired: its row and events are deleted.
    Delete(String),
    /// A seat was taken by the token with this digest.
    Join {
        /// The game.
        game: String,
        /// The seat.
        side: Side,
        /// The token's SHA-256.
        token: String,
    },
    /// New events of a game; the formation of a `ready` among them goes to the game's row,
    /// never into the event's stored JSON.
    Events {
        /// The game.
        game: String,
        /// The version of the first event.
        first_v: u64,
        /// The events.
        events: Vec<Event>,
        /// Whether the game ended.
        over: bool,
    },
}

/// Where a write's result goes.
type Done = oneshot::Sender<Result<(), StoreError>>;

enum Job {
    Write(Vec<Write>, Done),
    Load(String, oneshot::Sender<Result<Option<Saved>, StoreError>>),
    Flush(oneshot::Sender<()>),
}

/// The database's writer thread, shared by every game.
#[derive(Clone)]
pub struct Store {
    jobs: mpsc::Sender<Job>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    setup_rows INTEGER NOT NULL,
    move_limit INTEGER NOT NULL,
    first TEXT NOT NULL,
    white_player TEXT NOT NULL,
    black_player TEXT NOT NULL,
    clock_initial_ms INTEGER,
    clock_increment_ms INTEGER,
    white_token TEXT,
    black_token TEXT,
    invite TEXT,
    bot_seed INTEGER NOT NULL,
    white_setup BLOB,
    black_setup BLOB,
    over INTEGER NOT NULL DEFAULT 0,
    created_ms INTEGER,
    creator_ip TEXT
);
CREATE INDEX IF NOT EXISTS games_unfinished ON games (over);
CREATE TABLE IF NOT EXISTS events (
    game TEXT NOT NULL,
    v INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game, v)
) WITHOUT ROWID;
";

/// The most writes one transaction takes.
const GROUP: usize = 512;

impl Store {
    /// Opens (or creates) the database at `path` and starts its writer thread. Returns the
    /// store and every unfinished game in it.
    ///
    /// # Errors
    /// The database's error, if it cannot be opened or read.
    pub fn open(path: &Path, durability: Durability) -> Result<(Store, Vec<Saved>), StoreError> {
        let at = |source| StoreError::Open {
            path: path.display().to_string(),
            source,
        };
        let conn = Connection::open(path).map_err(at)?;
        let sync = match durability {
            Durability::Full => "FULL",
            Durability::Normal => "NORMAL",
        };
        conn.execute_batch(&format!(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = {sync}; PRAGMA busy_timeout = 5000;"
        ))
        .and_then(|()| conn.execute_batch(SCHEMA))
        .and_then(|()| migrate(&conn))
        .map_err(at)?;
        let unfinished = load_unfinished(&conn)?;
        let (jobs, queue) = mpsc::channel();
        thread::Builder::new()
            .name("salpakan-store".into())
            .spawn(move || run(conn, &queue))
            .map_err(StoreError::Thread)?;
        Ok((Store { jobs }, unfinished))
    }

    /// Commits `writes` (all or none of them); returns once they are on disk.
    ///
    /// # Errors
    /// The database's error; nothing was written.
    pub async fn write(&self, writes: Vec<Write>) -> Result<(), StoreError> {
        let (done, wait) = oneshot::channel();
        self.jobs
            .send(Job::Write(writes, done))
            .map_err(|_| StoreError::Stopped)?;
        wait.await.map_err(|_| StoreError::Stopped)?
    }

    /// Returns once every write sent before it is committed.
    pub async fn flush(&self) {
        let (done, wait) = oneshot::channel();
        if self.jobs.send(Job::Flush(done)).is_ok() {
            let _ = wait.await;
        }
    }

    /// A game as stored, finished or not.
    ///
    /// # Errors
    /// The database's error.
    pub async fn load(&self, game: &str) -> Result<Option<Saved>, StoreError> {
        let (done, wait) = oneshot::channel();
        self.jobs
            .send(Job::Load(game.to_owned(), done))
            .map_err(|_| StoreError::Stopped)?;
        wait.await.map_err(|_| StoreError::Stopped)?
    }
}

/// The writer thread: takes what is waiting (up to [`GROUP`] writes), commits it as one
/// transaction, then answers each. It ends when every [`Store`] is dropped, after the last
/// write.
fn run(mut conn: Connection, queue: &mpsc::Receiver<Job>) {
    while let Ok(job) = queue.recv() {
        let mut group = Vec::new();
        let mut flushed = Vec::new();
        let mut next = Some(job);
        while let Some(job) = next.take() {
            match job {
                Job::Load(game, done) => {
                    let _ = done.send(load(&conn, &game).map_err(StoreError::from));
                }
                Job::Write(writes, done) => group.push((writes, done)),
                Job::Flush(done) => flushed.push(done),
            }
            if group.len() < GROUP {
                next = queue.try_recv().ok();
            }
        }
        if !group.is_empty() {
            let results = commit(&mut conn, &group);
            for ((_, done), result) in group.into_iter().zip(results) {
                let _ = done.send(result);
            }
        }
        for done in flushed {
            let _ = done.send(());
        }
    }
}

fn commit(conn: &mut Connection, group: &[(Vec<Write>, Done)]) -> Vec<Result<(), StoreError>> {
    let mut results = Vec::with_capacity(group.len());
    let outcome = (|| -> rusqlite::Result<()> {
        let mut tx = conn.transaction()?;
        for (writes, _) in group {
            let mut sp = tx.savepoint()?;
            let result = writes.iter().try_for_each(|w| apply(&sp, w));
            match result {
                Ok(()) => {
                    sp.commit()?;
                    results.push(Ok(()));
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

fn apply(conn: &Connection, write: &Write) -> rusqlite::Result<()> {
    match write {
        Write::Create { spec, creator } => {
            let clock = spec.clock;
            conn.prepare_cached(
                "INSERT INTO games (id, setup_rows, move_limit, first, white_player,
                 black_player, clock_initial_ms, clock_increment_ms, white_token, black_token,
                 invite, bot_seed, created_ms, creator_ip)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
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
            ])?;
        }
        Write::Delete(game) => {
            conn.prepare_cached("DELETE FROM events WHERE game = ?1")?
                .execute(params![game])?;
            conn.prepare_cached("DELETE FROM games WHERE id = ?1")?
                .execute(params![game])?;
        }
        Write::Join { game, side, token } => {
            let sql = match side {
                Side::White => "UPDATE games SET white_token = ?2 WHERE id = ?1",
                Side::Black => "UPDATE games SET black_token = ?2 WHERE id = ?1",
            };
            conn.prepare_cached(sql)?.execute(params![game, token])?;
        }
        Write::Events {
            game,
            first_v,
            events,
            over,
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
            if *over {
                conn.prepare_cached("UPDATE games SET over = 1, creator_ip = NULL WHERE id = ?1")?
                    .execute(params![game])?;
            }
        }
    }
    Ok(())
}

const SELECT_GAME: &str = "SELECT id, setup_rows, move_limit, first, white_player, black_player,
    clock_initial_ms, clock_increment_ms, white_token, black_token, invite, bot_seed,
    white_setup, black_setup, created_ms, creator_ip FROM games";

/// Brings a database made by an earlier version up to [`SCHEMA`]: `created_ms` is new (the
/// games already there count as created now), and so is `creator_ip` (unknown for them).
fn migrate(conn: &Connection) -> rusqlite::Result<()> {
    let has = |column: &str| -> rusqlite::Result<bool> {
        conn.prepare("SELECT 1 FROM pragma_table_info('games') WHERE name = ?1")?
            .exists([column])
    };
    if !has("creator_ip")? {
        conn.execute_batch("ALTER TABLE games ADD COLUMN creator_ip TEXT")?;
    }
    if !has("created_ms")? {
        conn.execute_batch("ALTER TABLE games ADD COLUMN created_ms INTEGER")?;
        conn.execute(
            "UPDATE games SET created_ms = ?1 WHERE created_ms IS NULL",
            params![crate::clock::unix_ms() as i64],
        )?;
    }
    Ok(())
}

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

fn load(conn: &Connection, game: &str) -> rusqlite::Result<Option<Saved>> {
    let found = conn
        .prepare_cached(&format!("{SELECT_GAME} WHERE id = ?1"))?
        .query_row(params![game], read_game)
        .optional()?;
    let Some(mut saved) = found else {
        return Ok(None);
    };
    saved.events = events(conn, game)?;
    Ok(Some(saved))
}

fn load_unfinished(conn: &Connection) -> rusqlite::Result<Vec<Saved>> {
    let mut stmt = conn.prepare(&format!("{SELECT_GAME} WHERE over = 0"))?;
    let games: Vec<_> = stmt.query_map([], read_game)?.collect::<Result<_, _>>()?;
    games
        .into_iter()
        .map(|mut saved: Saved| {
            saved.events = events(conn, &saved.spec.id)?;
            Ok(saved)
        })
        .collect()
}
