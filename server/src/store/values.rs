//! The store's values: what went wrong, the durability asked for, a player's row, what a
//! game's end settles and what a commit changed: what the store's files and its users share
//! (the writes are each concern's, gathered as `Write` in `mod.rs`).

use thiserror::Error;

/// What went wrong with the database.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The database could not be opened or brought up to date.
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
    /// PostgreSQL's error while connecting, reading or writing.
    #[cfg(feature = "nodes")]
    #[error("{}", postgres_detail(.0))]
    Postgres(#[from] ::postgres::Error),
    /// A PostgreSQL database named to a server built without the feature `nodes`.
    #[error(
        "this salpakan-server was built without the feature `nodes`: it serves an SQLite \
         database only (build it with the default features for PostgreSQL)"
    )]
    NoPostgres,
    /// Another server writes this SQLite database, or runs as this node on this PostgreSQL
    /// database (each would hold the same games).
    #[error(
        "another salpakan-server writes this database (on PostgreSQL: as this --node); give each \
         server an SQLite database of its own, or each node of a PostgreSQL database its own --node"
    )]
    Busy,
    /// The transaction this write was part of failed (the same error for each of its writes).
    #[error("the transaction failed: {0}")]
    Failed(String),
    /// This node's lease lapsed (or another node took its games): it writes nothing more
    /// until it registers again.
    #[error("this node's lease lapsed: another node may own its games")]
    Fenced,
    /// The writer thread has stopped (the server is stopping).
    #[error("the database has stopped")]
    Stopped,
    /// A new player whose name reads as another's (the same skeleton): another node
    /// registered the look-alike first.
    #[error("a player's name reads the same")]
    LookAlike,
    /// A thread of the database could not be started.
    #[error("the database's thread: {0}")]
    Thread(std::io::Error),
    /// A stored value that does not read back.
    #[error("a stored value does not read back: {0}")]
    Corrupt(String),
    /// A write or read that finds nothing it may act on (an appeal already made, a page
    /// after an action that is not there): the caller says what to the client.
    #[error("nothing to act on: {0}")]
    Refused(&'static str),
    /// The database was made by a newer binary: it is left untouched.
    #[error(
        "{path}: the database is at schema version {found}, newer than this binary's \
         {known}; run a newer salpakan-server (nothing was changed)"
    )]
    Newer {
        /// The database's path.
        path: String,
        /// Its version.
        found: u32,
        /// The newest version this binary knows.
        known: u32,
    },
    /// A backup that could not be made, or whose copy did not check.
    #[error("backup to {to}: {reason}")]
    Backup {
        /// Where the copy was to go.
        to: String,
        /// What went wrong.
        reason: String,
    },
}

/// What PostgreSQL's error says: the server's code and message, or the client's error and
/// its cause (the client's own text is only "db error").
#[cfg(feature = "nodes")]
fn postgres_detail(e: &::postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("PostgreSQL {}: {}", db.code().code(), db.message()),
        None => match std::error::Error::source(e) {
            Some(cause) => format!("PostgreSQL: {e}: {cause}"),
            None => format!("PostgreSQL: {e}"),
        },
    }
}

impl StoreError {
    /// Whether a unique key refused the write (a name, or a look-alike of it, another node
    /// registered first).
    #[must_use]
    pub(crate) fn is_conflict(&self) -> bool {
        match self {
            #[cfg(feature = "nodes")]
            StoreError::Postgres(e) => {
                e.code() == Some(&::postgres::error::SqlState::UNIQUE_VIOLATION)
            }
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => {
                e.code == rusqlite::ErrorCode::ConstraintViolation
            }
            StoreError::LookAlike => true,
            _ => false,
        }
    }
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

/// What a finished game keeps in its row: the summary's JSON and the record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ending {
    /// `GET /api/games/{id}`'s reply, as JSON.
    pub summary: String,
    /// The game record; `None` for an aborted game (its formations are never revealed).
    pub record: Option<String>,
}

/// What a game's end settles in the database: its row's summary and record, when it ended,
/// its players' results and ratings, and the strikes it earns; and how it ended, told to the
/// other nodes with the commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settlement {
    /// The summary and the record.
    pub ending: Ending,
    /// How it ended, as anyone may know it.
    pub end: Option<crate::room::End>,
    /// When it ended, in milliseconds since the Unix epoch.
    pub ended_ms: u64,
    /// Each named player's result, counted in its row in the same transaction (none for an
    /// aborted game).
    pub results: Vec<(String, GameResult)>,
    /// Whether the game is rated: then both players' ratings move by Glicko-2 in the same
    /// transaction, from their rows' values before it.
    pub rated: bool,
    /// Why a game asked rated ends unrated (`early`: a side made fewer than 2 plies), kept
    /// in its row for the operator.
    pub unrated: Option<&'static str>,
    /// The named players struck by this end (an abort once both formations were in, a
    /// resignation before one's second ply): counted in their rows in the same transaction.
    pub strikes: Vec<String>,
}

/// What a committed write changed that memory keeps too: each player whose row a game's end
/// counted, as its row holds it after the commit.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Committed {
    /// The players' rows after the write (their keys left out).
    pub players: Vec<PlayerRow>,
}

pub use crate::rating::GameResult;

/// A player as its row holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerRow {
    /// The name as registered.
    pub name: String,
    /// The SHA-256 of its key; `None` for a server bot.
    pub key: Option<String>,
    /// Whether it is a bot: a server bot (no key), or a bot account (registered as one: the
    /// flag is permanent).
    pub bot: bool,
    /// A bot account's description, as its owner wrote it.
    pub description: Option<String>,
    /// Its rating.
    pub rating: f64,
    /// Its rating deviation.
    pub rd: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Finished games.
    pub games: u64,
    /// Won.
    pub won: u64,
    /// Lost.
    pub lost: u64,
    /// Drawn.
    pub drawn: u64,
    /// Its strikes and bans (aborts once both formations were in, resignations before its
    /// second ply): the lobby pairs nobody with a banned player.
    pub playban: crate::rating::playban::Record,
    /// What it agreed to share of its finished games (the dataset export).
    pub sharing: Sharing,
    /// The tokens it minted, oldest first (none in a row a game's end left: memory keeps
    /// the ones it has).
    pub tokens: Vec<TokenRow>,
    /// Whether the operator named it a moderator.
    pub moderator: bool,
    /// Its standing with the moderators.
    pub standing: Standing,
}

/// What a player's row says of its standing with the moderators.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Standing {
    /// Its chat is timed out until then (milliseconds since the Unix epoch).
    pub chat_until_ms: Option<u64>,
    /// Its chat is muted everywhere until a moderator lifts it.
    pub muted: bool,
    /// Its account is closed: its key opens only its moderation and its appeals.
    pub closed: bool,
}

/// One of a player's scoped tokens, as the database keeps it: never the token itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenRow {
    /// Its id (public).
    pub id: String,
    /// The SHA-256 of the token.
    pub digest: String,
    /// What it may do.
    pub scopes: Vec<crate::wire::Scope>,
    /// The player's label for it.
    pub label: Option<String>,
    /// When it was minted, in milliseconds since the Unix epoch.
    pub created_ms: u64,
}

/// What a player agreed to share of its finished games: the games themselves (with their
/// beliefs), and its name with them. Nothing unless it says so.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Sharing {
    /// Its finished games may be exported (a game is, once both its players agreed).
    pub games: bool,
    /// Its name stays in them (otherwise it is removed).
    pub names: bool,
}

impl PlayerRow {
    /// A new player's row: its name, its key's digest, a bot's flag; the initial rating, no
    /// games, no strikes.
    #[must_use]
    pub fn new(name: String, key: Option<String>, bot: bool) -> PlayerRow {
        PlayerRow {
            name,
            key,
            bot,
            description: None,
            rating: crate::rating::INITIAL_RATING,
            rd: crate::rating::INITIAL_RD,
            volatility: crate::rating::INITIAL_VOLATILITY,
            games: 0,
            won: 0,
            lost: 0,
            drawn: 0,
            playban: crate::rating::playban::Record::default(),
            sharing: Sharing::default(),
            tokens: Vec::new(),
            moderator: false,
            standing: Standing::default(),
        }
    }
}
