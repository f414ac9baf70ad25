//! The database's tables, and the bringing up to date of a database an earlier version made:
//! ordered steps, the schema's version in `PRAGMA user_version`.

use rusqlite::{Connection, params};

use super::sql::Sql;
use super::values::StoreError;

/// One step of the schema: what takes a database from the version before it to its own.
pub(super) type Step = fn(&Connection) -> rusqlite::Result<()>;

/// The steps, in order: step `i` brings a database to version `i + 1`. A new layout is a
/// step added at the end, never a change to one already released.
pub(super) const STEPS: &[Step] = &[
    baseline,
    fair_play,
    rating_history,
    chat,
    commitments,
    tournaments,
    bot_accounts,
    sharing,
    tokens,
    moderation,
    links,
    tournament_log,
];

/// The schema version this binary writes.
pub const VERSION: u32 = STEPS.len() as u32;

/// Version 1: every table and index of the first versioned release. Databases from before
/// versions (`user_version` 0) may hold any earlier layout: [`migrate`] brings each up to
/// it (every part of it does nothing to a database that has it).
fn baseline(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(SCHEMA)?;
    migrate(conn)
}

/// Version 2: what fair play keeps. A game's `listed` flag (an unlisted game is in no list),
/// each seat's address while it counts (`white_ip`, `black_ip`, for the bounds of rated games
/// a day) and `unrated` (why a game asked rated was not: `same-address`, `pair-day`,
/// `address-day`, `early`). A player's `skeleton` (its name as look-alikes fold it, for
/// uniqueness), and its strikes (aborts and early resignations), bans and when its ban ends.
fn fair_play(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(FAIR_PLAY_COLUMNS)?;
    conn.execute_batch(FAIR_PLAY_INDEXES)?;
    let names: Vec<String> = conn
        .prepare("SELECT name FROM players")?
        .query_map([], |row| row.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    for name in names {
        conn.execute(
            "UPDATE players SET skeleton = ?2 WHERE name = ?1",
            params![name, crate::wire::skeleton(&name)],
        )?;
    }
    Ok(())
}

/// Version 3: each rated game's rating change for each of its players, written in the
/// transaction that ends the game (a profile's history, a list's changes).
fn rating_history(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(RATING_HISTORY)
}

/// Version 4: the games' chat: its lines, the lines reported, each seat's chat mode.
fn chat(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(super::chat::CHAT_SCHEMA)
}

/// Version 5: each game's two secret salts of its formation commitments (hexadecimal; a
/// game from before has none, and publishes no commitment).
fn commitments(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(COMMITMENT_SALTS)
}

/// Version 7: a bot account's description (a bot account is a player whose `bot` flag is set
/// and that has a key).
fn bot_accounts(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(BOT_ACCOUNTS)
}

/// The column version 7 adds, the same on both databases.
const BOT_ACCOUNTS: &str = "ALTER TABLE players ADD COLUMN description TEXT;";

/// Version 8: what each player agreed to share of its finished games (the dataset export).
fn sharing(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(SHARING)
}

/// The columns version 8 adds, the same on both databases.
const SHARING: &str = "
ALTER TABLE players ADD COLUMN share_games BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN share_names BIGINT NOT NULL DEFAULT 0;
";

/// Version 9: the players' scoped tokens (each token's SHA-256, never the token).
fn tokens(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(TOKENS)
}

/// The table version 9 adds, the same on both databases.
const TOKENS: &str = "
CREATE TABLE tokens (
    id TEXT PRIMARY KEY,
    player TEXT NOT NULL,
    digest TEXT NOT NULL UNIQUE,
    scopes TEXT NOT NULL,
    label TEXT,
    created_ms BIGINT NOT NULL
);
CREATE INDEX tokens_player ON tokens (player);
";

/// Version 10: the moderators' desk: each player's moderator flag and standing (a chat
/// timeout's end, a mute, a closed account), the moderation log with each action's appeal,
/// the games whose ratings were refunded, and a report's handling.
fn moderation(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(super::moderation::MODERATION_SCHEMA)
}

/// Version 11: the codes that link another device to a player (each code's SHA-256, its
/// player, when it lapses).
fn links(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(LINKS)
}

/// The table version 11 adds, the same on both databases.
const LINKS: &str = "
CREATE TABLE links (
    digest TEXT PRIMARY KEY,
    player TEXT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX links_player ON links (player);
";

/// Version 12: each line of a tournament's log a row of its own (a change writes the lines
/// it said, not the whole log; a body written before keeps its log until its next write).
fn tournament_log(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(super::tournaments::TOURNAMENT_LOG_SCHEMA)
}

/// Version 6: tournaments (each a row of JSON) and the tournament of each tournament game.
fn tournaments(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(super::tournaments::TOURNAMENTS_SCHEMA)
}

/// The columns version 5 adds, the same on both databases.
const COMMITMENT_SALTS: &str = "
ALTER TABLE games ADD COLUMN white_salt TEXT;
ALTER TABLE games ADD COLUMN black_salt TEXT;
";

/// The table version 3 adds, the same on both databases.
const RATING_HISTORY: &str = "
CREATE TABLE rating_history (
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    ended_ms BIGINT NOT NULL,
    PRIMARY KEY (game, name)
);
CREATE INDEX rating_history_by_player ON rating_history (name, ended_ms);
";

/// The columns version 2 adds, the same on both databases (SQLite reads `BIGINT` as an
/// integer).
const FAIR_PLAY_COLUMNS: &str = "
ALTER TABLE games ADD COLUMN listed BIGINT NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN white_ip TEXT;
ALTER TABLE games ADD COLUMN black_ip TEXT;
ALTER TABLE games ADD COLUMN unrated TEXT;
ALTER TABLE players ADD COLUMN skeleton TEXT;
ALTER TABLE players ADD COLUMN strikes BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN strike_ms BIGINT;
ALTER TABLE players ADD COLUMN bans BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN banned_until_ms BIGINT;
";

/// The indexes version 2 adds: look-alike names; rated games a day by player and by address;
/// a player's listed games.
const FAIR_PLAY_INDEXES: &str = "
CREATE INDEX players_skeleton ON players (skeleton);
CREATE INDEX games_rated_white ON games (white_name, created_ms) WHERE rated = 1;
CREATE INDEX games_rated_black ON games (black_name, created_ms) WHERE rated = 1;
CREATE INDEX games_rated_white_ip ON games (white_ip, created_ms) WHERE rated = 1;
CREATE INDEX games_rated_black_ip ON games (black_ip, created_ms) WHERE rated = 1;
CREATE INDEX games_unrated ON games (created_ms) WHERE unrated IS NOT NULL;
";

/// The version a database is at.
pub(super) fn version(conn: &Connection) -> rusqlite::Result<u32> {
    conn.query_row("PRAGMA user_version", [], |row| row.get(0))
}

/// A database at a version newer than `known`, found before anything is written to it (not
/// even its journal mode).
pub(super) fn newer(conn: &Connection, known: u32) -> rusqlite::Result<Option<Upgrade>> {
    let found = version(conn)?;
    Ok((found > known).then_some(Upgrade::Newer { found, known }))
}

/// What bringing a database up to date found and did ([`Store::migrate`](super::Store::migrate)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Upgrade {
    /// It was at `from` and is now at `to` (equal: nothing to do).
    Done {
        /// The version it was at.
        from: u32,
        /// The version it is at.
        to: u32,
    },
    /// It is at `found`, newer than the `known` steps: left untouched.
    Newer {
        /// Its version.
        found: u32,
        /// The newest this binary knows.
        known: u32,
    },
}

/// Runs the `steps` a database at an older version lacks, each in a transaction of its own
/// that also sets its version (a step that fails leaves the database at the one before);
/// leaves a newer database untouched.
pub(super) fn upgrade(conn: &mut Connection, steps: &[Step]) -> rusqlite::Result<Upgrade> {
    let from = version(conn)?;
    let known = u32::try_from(steps.len()).unwrap_or(u32::MAX);
    if from > known {
        return Ok(Upgrade::Newer { found: from, known });
    }
    for (at, step) in steps.iter().enumerate().skip(from as usize) {
        let tx = conn.transaction()?;
        step(&tx)?;
        tx.execute_batch(&format!("PRAGMA user_version = {}", at + 1))?;
        tx.commit()?;
    }
    Ok(Upgrade::Done { from, to: known })
}

/// The tables. `games` holds a row per game: its spec, the seats' token digests, the invite's
/// digest, the accepted formations, and, once it is over, its summary and record (so that a
/// finished game is read without replaying it); `quarantined` marks a game that could not
/// be read back, left out at every start. `players` holds a row per player: the name as
/// registered and folded to lower case (unique), the SHA-256 of its key (`NULL` for the
/// server's bots), its rating and its counts of finished games. `events` holds a row per event, the JSON of an
/// `Event` (a formation never in it).
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
fn migrate(conn: &Connection) -> rusqlite::Result<()> {
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
/// key: nobody can act as one. A bot starts from its measured strength
/// ([`crate::rating::bots`]); one that has not played yet is given it again (a database made
/// before the seeds, or after they were measured anew), one that has keeps what it earned.
pub(super) fn seat_bots(conn: &mut impl Sql) -> Result<(), StoreError> {
    for kind in salpakan::Bot::ALL {
        let name = crate::room::Player::Bot(kind)
            .bot_name()
            .unwrap_or_default();
        conn.execute(
            "INSERT INTO players (name, folded, key, bot, rating, rd, created_ms)
             VALUES (?1, ?1, NULL, 1, ?2, ?3, ?4)
             ON CONFLICT (name) DO UPDATE SET rating = excluded.rating, rd = excluded.rd
             WHERE players.games = 0",
            &[
                name.into(),
                crate::rating::bots::seeded(kind).into(),
                crate::rating::bots::SEEDED_RD.into(),
                crate::clock::unix_ms().into(),
            ],
        )?;
    }
    Ok(())
}

/// PostgreSQL's steps, in order (its own types; the same tables, columns and indexes as
/// SQLite's [`STEPS`], so that every statement of the store runs on both). Its version is
/// the row of `salpakan_schema`.
const PG_STEPS: &[&[&str]] = &[
    &[PG_BASELINE],
    &[super::lease::PG_NODES],
    &[FAIR_PLAY_COLUMNS, PG_SKELETONS, FAIR_PLAY_INDEXES],
    &[RATING_HISTORY],
    &[super::chat::CHAT_SCHEMA, super::live::PG_LIVE_GAMES],
    &[COMMITMENT_SALTS],
    &[super::tournaments::TOURNAMENTS_SCHEMA],
    &[BOT_ACCOUNTS],
    &[SHARING],
    &[TOKENS],
    &[super::moderation::MODERATION_SCHEMA],
    &[LINKS],
    &[super::tournaments::TOURNAMENT_LOG_SCHEMA],
];

/// Version 3 on PostgreSQL (SQLite's 2, [`fair_play`]) folds the names already there in SQL.
const PG_SKELETONS: &str = "UPDATE players SET skeleton = translate(lower(name), '_01i', '-oll');";

/// The newest PostgreSQL schema version this binary knows (SQLite's is [`VERSION`]: its
/// databases have no nodes).
pub const PG_VERSION: u32 = PG_STEPS.len() as u32;

/// Version 1 on PostgreSQL.
const PG_BASELINE: &str = "
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    setup_rows BIGINT NOT NULL,
    move_limit BIGINT NOT NULL,
    first TEXT NOT NULL,
    white_player TEXT NOT NULL,
    black_player TEXT NOT NULL,
    clock_initial_ms BIGINT,
    clock_increment_ms BIGINT,
    white_token TEXT,
    black_token TEXT,
    invite TEXT,
    bot_seed BIGINT NOT NULL,
    white_setup BYTEA,
    black_setup BYTEA,
    over BIGINT NOT NULL DEFAULT 0,
    created_ms BIGINT,
    creator_ip TEXT,
    summary TEXT,
    record TEXT,
    quarantined TEXT,
    ended_ms BIGINT,
    setup_ms BIGINT,
    seated_ms BIGINT,
    white_name TEXT,
    black_name TEXT,
    rated BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX games_unfinished ON games (over);
CREATE INDEX games_ended ON games (ended_ms) WHERE over = 1;
CREATE INDEX games_white_name ON games (white_name, ended_ms, id) WHERE over = 1;
CREATE INDEX games_black_name ON games (black_name, ended_ms, id) WHERE over = 1;
CREATE TABLE players (
    name TEXT PRIMARY KEY,
    folded TEXT NOT NULL UNIQUE,
    key TEXT UNIQUE,
    bot BIGINT NOT NULL DEFAULT 0,
    rating DOUBLE PRECISION NOT NULL DEFAULT 1500,
    rd DOUBLE PRECISION NOT NULL DEFAULT 350,
    volatility DOUBLE PRECISION NOT NULL DEFAULT 0.06,
    games BIGINT NOT NULL DEFAULT 0,
    won BIGINT NOT NULL DEFAULT 0,
    lost BIGINT NOT NULL DEFAULT 0,
    drawn BIGINT NOT NULL DEFAULT 0,
    created_ms BIGINT NOT NULL
);
CREATE TABLE events (
    game TEXT NOT NULL,
    v BIGINT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game, v)
);
";

/// Brings a PostgreSQL database up to [`PG_STEPS`]: in one transaction that first locks the
/// version's table, so that servers started together migrate it once; a newer database is
/// left untouched.
#[cfg(feature = "nodes")]
pub(super) fn upgrade_postgres(conn: &mut impl Sql) -> Result<Upgrade, StoreError> {
    let known = PG_VERSION;
    conn.batch(
        "CREATE TABLE IF NOT EXISTS salpakan_schema (version BIGINT NOT NULL);
         BEGIN;
         LOCK TABLE salpakan_schema IN EXCLUSIVE MODE;",
    )?;
    let result = (|| {
        let from = match conn.query_one("SELECT version FROM salpakan_schema", &[])? {
            Some(row) => u32::try_from(row.only_int()?).unwrap_or(u32::MAX),
            None => {
                conn.execute("INSERT INTO salpakan_schema (version) VALUES (0)", &[])?;
                0
            }
        };
        if from > known {
            return Ok(Upgrade::Newer { found: from, known });
        }
        for step in PG_STEPS.iter().skip(from as usize) {
            for part in *step {
                conn.batch(part)?;
            }
        }
        conn.execute(
            "UPDATE salpakan_schema SET version = ?1",
            &[i64::from(known).into()],
        )?;
        Ok(Upgrade::Done { from, to: known })
    })();
    super::sql::finish(conn, result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step_a(conn: &Connection) -> rusqlite::Result<()> {
        conn.execute_batch("CREATE TABLE a (x INTEGER)")
    }
    fn step_b(conn: &Connection) -> rusqlite::Result<()> {
        conn.execute_batch("INSERT INTO a VALUES (1)")
    }
    fn step_bad(conn: &Connection) -> rusqlite::Result<()> {
        conn.execute_batch("INSERT INTO a VALUES (2); INSERT INTO nowhere VALUES (3)")
    }

    fn count(conn: &Connection) -> i64 {
        conn.query_row("SELECT COUNT(*) FROM a", [], |r| r.get(0))
            .unwrap()
    }

    #[test]
    fn steps_run_in_order_once_each_and_a_failed_step_changes_nothing() {
        let mut conn = Connection::open_in_memory().unwrap();
        assert_eq!(
            upgrade(&mut conn, &[step_a]).unwrap(),
            Upgrade::Done { from: 0, to: 1 }
        );
        assert_eq!(
            upgrade(&mut conn, &[step_a, step_b]).unwrap(),
            Upgrade::Done { from: 1, to: 2 }
        );
        assert_eq!(count(&conn), 1);
        // Again: nothing runs twice.
        assert_eq!(
            upgrade(&mut conn, &[step_a, step_b]).unwrap(),
            Upgrade::Done { from: 2, to: 2 }
        );
        assert_eq!(count(&conn), 1);
        // A failing step: its version is not set and its first statement is undone.
        assert!(upgrade(&mut conn, &[step_a, step_b, step_bad]).is_err());
        assert_eq!((version(&conn).unwrap(), count(&conn)), (2, 1));
        // A newer database is left alone.
        assert_eq!(
            upgrade(&mut conn, &[step_a]).unwrap(),
            Upgrade::Newer { found: 2, known: 1 }
        );
        assert_eq!((version(&conn).unwrap(), count(&conn)), (2, 1));
    }

    #[test]
    fn a_database_from_before_versions_is_brought_to_the_baseline() {
        let mut conn = Connection::open_in_memory().unwrap();
        // The layout of the first release: games lacked every later column.
        conn.execute_batch(
            "CREATE TABLE games (id TEXT PRIMARY KEY, setup_rows INTEGER NOT NULL,
             move_limit INTEGER NOT NULL, first TEXT NOT NULL, white_player TEXT NOT NULL,
             black_player TEXT NOT NULL, clock_initial_ms INTEGER, clock_increment_ms INTEGER,
             white_token TEXT, black_token TEXT, invite TEXT, bot_seed INTEGER NOT NULL,
             white_setup BLOB, black_setup BLOB, over INTEGER NOT NULL DEFAULT 0);
             INSERT INTO games (id, setup_rows, move_limit, first, white_player, black_player,
             bot_seed, over) VALUES ('g', 3, 200, 'white', 'person', 'person', 1, 1);",
        )
        .unwrap();
        assert_eq!(
            upgrade(&mut conn, STEPS).unwrap(),
            Upgrade::Done {
                from: 0,
                to: VERSION
            }
        );
        let (ended, rated): (i64, i64) = conn
            .query_row(
                "SELECT ended_ms, rated FROM games WHERE id = 'g'",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert!(ended > 0);
        assert_eq!(rated, 0);
        for table in ["players", "events"] {
            let n: i64 = conn
                .query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
                .unwrap();
            assert_eq!(n, 0);
        }
    }

    #[test]
    fn a_version_1_database_gains_the_skeletons_of_its_players() {
        let mut conn = Connection::open_in_memory().unwrap();
        upgrade(&mut conn, &STEPS[..1]).unwrap();
        conn.execute_batch(
            "INSERT INTO players (name, folded, created_ms) VALUES ('Mar1a_S', 'mar1a_s', 0);",
        )
        .unwrap();
        assert_eq!(
            upgrade(&mut conn, STEPS).unwrap(),
            Upgrade::Done {
                from: 1,
                to: VERSION
            }
        );
        let (skeleton, listed): (String, i64) = conn
            .query_row(
                "SELECT skeleton, (SELECT COUNT(*) FROM games WHERE listed = 1) FROM players",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(skeleton, crate::wire::skeleton("maria-s"));
        assert_eq!(listed, 0);
    }
}
