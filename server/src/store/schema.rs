//! The database's tables, and the bringing up to date of a database an earlier version made.

use rusqlite::{Connection, params};

/// The tables. `games` holds a row per game: its spec, the seats' token digests, the invite's
/// digest, the accepted formations, and, once it is over, its summary and record (so that a
/// finished game is read without replaying it); `quarantined` marks a game that could not
/// be read back, left out at every start. `players` holds a row per player: the name as
/// registered and folded to lower case (unique), the SHA-256 of its key (`NULL` for the
/// server's bots), its rating and its counts of finished games. `events` holds a row per event, the JSON of an
/// `Event` (a formation never in it).
pub(super) const SCHEMA: &str = "
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
    creator_ip TEXT,
    summary TEXT,
    record TEXT,
    quarantined TEXT,
    ended_ms INTEGER,
    setup_ms INTEGER,
    seated_ms INTEGER,
    white_name TEXT,
    black_name TEXT,
    rated INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS games_unfinished ON games (over);
CREATE TABLE IF NOT EXISTS players (
    name TEXT PRIMARY KEY,
    folded TEXT NOT NULL UNIQUE,
    key TEXT UNIQUE,
    bot INTEGER NOT NULL DEFAULT 0,
    rating REAL NOT NULL DEFAULT 1500,
    rd REAL NOT NULL DEFAULT 350,
    volatility REAL NOT NULL DEFAULT 0.06,
    games INTEGER NOT NULL DEFAULT 0,
    won INTEGER NOT NULL DEFAULT 0,
    lost INTEGER NOT NULL DEFAULT 0,
    drawn INTEGER NOT NULL DEFAULT 0,
    created_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    game TEXT NOT NULL,
    v INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game, v)
) WITHOUT ROWID;
";

/// Brings a database made by an earlier version up to [`SCHEMA`]: `created_ms` is new (the
/// games already there count as created now), and so are `creator_ip` (unknown for them),
/// `summary` and `record` (read by replaying, for games that ended before them),
/// `quarantined` and `ended_ms` (games that ended before it are as old as their creation),
/// `setup_ms` (the default for them) and `seated_ms` (their setup time does not run: they
/// expire as before), `white_name`, `black_name` and `rated` (anonymous and unrated).
pub(super) fn migrate(conn: &Connection) -> rusqlite::Result<()> {
    let has = |column: &str| -> rusqlite::Result<bool> {
        conn.prepare("SELECT 1 FROM pragma_table_info('games') WHERE name = ?1")?
            .exists([column])
    };
    for column in ["creator_ip", "summary", "record", "quarantined"] {
        if !has(column)? {
            conn.execute_batch(&format!("ALTER TABLE games ADD COLUMN {column} TEXT"))?;
        }
    }
    if !has("created_ms")? {
        conn.execute_batch("ALTER TABLE games ADD COLUMN created_ms INTEGER")?;
        conn.execute(
            "UPDATE games SET created_ms = ?1 WHERE created_ms IS NULL",
            params![crate::clock::unix_ms() as i64],
        )?;
    }
    if !has("ended_ms")? {
        conn.execute_batch(
            "ALTER TABLE games ADD COLUMN ended_ms INTEGER;
             UPDATE games SET ended_ms = COALESCE(created_ms, 0) WHERE over = 1;",
        )?;
    }
    for column in ["setup_ms", "seated_ms"] {
        if !has(column)? {
            conn.execute_batch(&format!("ALTER TABLE games ADD COLUMN {column} INTEGER"))?;
        }
    }
    for column in ["white_name", "black_name"] {
        if !has(column)? {
            conn.execute_batch(&format!("ALTER TABLE games ADD COLUMN {column} TEXT"))?;
        }
    }
    if !has("rated")? {
        conn.execute_batch("ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0")?;
    }
    // The pruner's index: finished games by the time they ended; and each seat's, for a
    // player's list of games.
    conn.execute_batch(
        "CREATE INDEX IF NOT EXISTS games_ended ON games (ended_ms) WHERE over = 1;
         CREATE INDEX IF NOT EXISTS games_white_name ON games (white_name, ended_ms, id)
             WHERE over = 1;
         CREATE INDEX IF NOT EXISTS games_black_name ON games (black_name, ended_ms, id)
             WHERE over = 1;",
    )?;
    Ok(())
}

/// Makes sure each of the server's bots is a player (`bot-random`, `bot-greedy`, …), with no
/// key: nobody can act as one.
pub(super) fn seat_bots(conn: &Connection) -> rusqlite::Result<()> {
    let mut insert = conn.prepare(
        "INSERT OR IGNORE INTO players (name, folded, key, bot, created_ms)
         VALUES (?1, ?1, NULL, 1, ?2)",
    )?;
    for kind in salpakan::AgentKind::ALL {
        let name = crate::room::Player::Bot(kind)
            .bot_name()
            .unwrap_or_default();
        insert.execute(params![name, crate::clock::unix_ms() as i64])?;
    }
    Ok(())
}
