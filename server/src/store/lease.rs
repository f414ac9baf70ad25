//! The nodes sharing one PostgreSQL database, and which of them owns each game.
//!
//! A node holds a lease: its row in `nodes`, valid until `until_ms` by the database's clock,
//! renewed every third of its length. Its epoch changes each time it registers. Every
//! transaction a node's writer commits first locks that row for share and checks it is still
//! the node's epoch and unexpired: a node whose lease lapsed (paused, cut off, or thought dead)
//! commits nothing more, however late it wakes. The fence.
//!
//! Every game has an owner in `owners`: the node that created it. A node that finds a game's
//! owner expired takes over the owner's unfinished games in one transaction (which waits for
//! any commit of the old owner still holding its row's lock), then restores them from their
//! events. `~lobby` is the lobby's row: the node owning it holds the seeks, the pool and the
//! lobby's sockets.

use super::sql::{Columns, Row, Sql, Value};
use super::values::StoreError;

/// The owner's row of the lobby (no game id has a `~`).
pub(crate) const LOBBY: &str = "~lobby";

/// The channel on which a node that stops says so (its name), so that another takes its
/// games over at once.
pub(super) const NODES_CHANNEL: &str = "salpakan_nodes";
/// The channel on which a player's row that changed is named.
pub(super) const PLAYERS_CHANNEL: &str = "salpakan_players";
/// The channel a game's end is told on, with its commit: `{"node", "game", "end"}`.
pub(super) const ENDED_CHANNEL: &str = "salpakan_ended";

/// This node, as its writer's transactions check it.
#[derive(Debug, Clone)]
pub(super) struct Fence {
    pub(super) node: String,
    pub(super) url: String,
    pub(super) epoch: i64,
    pub(super) lease_ms: i64,
}

/// Who owns a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    /// The owner's name.
    pub node: String,
    /// Where it is reached.
    pub url: String,
    /// Whether its lease is valid now.
    pub alive: bool,
}

/// What a node that registers finds.
#[derive(Debug, Clone)]
pub(super) struct Registered {
    pub(super) epoch: i64,
    /// The key the nodes' forwarded requests carry (made by the first node to register).
    #[cfg_attr(not(feature = "nodes"), allow(dead_code))]
    pub(super) key: String,
}

/// Registers `fence.node` (a new epoch, its lease from now), claims the games no node owns
/// (made before nodes were kept) and the lobby if no node has it; returns its epoch and the
/// nodes' shared key (`fresh_key` if it is the first).
pub(super) fn register(
    conn: &mut impl Sql,
    fence: &Fence,
    fresh_key: &str,
) -> Result<Registered, StoreError> {
    conn.batch("BEGIN")?;
    let done = (|| {
        let epoch = conn
            .query_one(
                "INSERT INTO nodes (name, url, epoch, until_ms)
                 VALUES (?1, ?2, 1, salpakan_now_ms() + ?3)
                 ON CONFLICT (name) DO UPDATE SET url = EXCLUDED.url,
                 epoch = nodes.epoch + 1, until_ms = EXCLUDED.until_ms
                 RETURNING epoch",
                &[
                    Value::from(&fence.node),
                    Value::from(&fence.url),
                    Value::Int(fence.lease_ms),
                ],
            )?
            .ok_or_else(|| StoreError::Corrupt("no epoch returned".into()))?
            .only_int()?;
        conn.execute(
            "INSERT INTO owners (game, node)
             SELECT id, ?1 FROM games WHERE over = 0 AND quarantined IS NULL
             ON CONFLICT (game) DO NOTHING",
            &[Value::from(&fence.node)],
        )?;
        conn.execute(
            "INSERT INTO owners (game, node) VALUES (?1, ?2) ON CONFLICT (game) DO NOTHING",
            &[Value::from(LOBBY), Value::from(&fence.node)],
        )?;
        conn.execute(
            "INSERT INTO cluster (id, key) VALUES (1, ?1) ON CONFLICT (id) DO NOTHING",
            &[Value::from(fresh_key)],
        )?;
        let key = conn
            .query_one("SELECT key FROM cluster WHERE id = 1", &[])?
            .ok_or_else(|| StoreError::Corrupt("no cluster key".into()))?
            .only_text()?;
        Ok(Registered { epoch, key })
    })();
    super::sql::finish(conn, done)
}

/// `BEGIN`, then this node's row locked for share and checked (`salpakan_fence`), in one
/// round trip: unless the lease is this epoch's and unexpired, the check raises an error,
/// read back as [`StoreError::Fenced`].
pub(super) fn begin_checked(conn: &mut impl Sql, fence: &Fence) -> Result<(), StoreError> {
    // The name is `a-z 0-9 _ -` (checked by the configuration; anything else is refused
    // here too), the epoch a number: both are written into the statement as they are.
    if !fence
        .node
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
    {
        return Err(StoreError::Fenced);
    }
    let sql = format!(
        "BEGIN; SELECT salpakan_fence('{}', {})",
        fence.node, fence.epoch
    );
    match conn.batch(&sql) {
        #[cfg(feature = "nodes")]
        Err(StoreError::Postgres(e))
            if e.as_db_error().is_some_and(|db| db.message() == FENCED) =>
        {
            Err(StoreError::Fenced)
        }
        other => other,
    }
}

/// The message `salpakan_fence` raises.
#[cfg(feature = "nodes")]
const FENCED: &str = "salpakan: this node's lease lapsed";

/// Extends the lease from now, if it is still valid: `false` if it lapsed or was taken.
pub(super) fn renew(conn: &mut impl Sql, fence: &Fence) -> Result<bool, StoreError> {
    let changed = conn.execute(
        "UPDATE nodes SET until_ms = salpakan_now_ms() + ?3
         WHERE name = ?1 AND epoch = ?2 AND until_ms > salpakan_now_ms()",
        &[
            Value::from(&fence.node),
            Value::Int(fence.epoch),
            Value::Int(fence.lease_ms),
        ],
    )?;
    Ok(changed == 1)
}

/// Ends the lease now (a node that stops) and says so on [`NODES_CHANNEL`].
pub(super) fn expire(conn: &mut impl Sql, fence: &Fence) -> Result<(), StoreError> {
    conn.execute(
        "UPDATE nodes SET until_ms = 0 WHERE name = ?1 AND epoch = ?2",
        &[Value::from(&fence.node), Value::Int(fence.epoch)],
    )?;
    notify(conn, NODES_CHANNEL, &fence.node)
}

/// `NOTIFY channel, payload` (delivered when the transaction commits).
pub(super) fn notify(conn: &mut impl Sql, channel: &str, payload: &str) -> Result<(), StoreError> {
    conn.execute(
        "SELECT pg_notify(?1, ?2)",
        &[Value::from(channel), Value::from(payload)],
    )
    .map(|_| ())
}

/// Takes over from `dead` (if its lease has lapsed): its unfinished games and the lobby, or
/// only `game` (one of its finished games, asked for). Returns the games now this node's
/// (none if `dead` is alive, or another node took them first).
pub(super) fn take_over(
    conn: &mut impl Sql,
    fence: &Fence,
    dead: &str,
    game: Option<&str>,
) -> Result<Vec<String>, StoreError> {
    begin_checked(conn, fence)?;
    let done = (|| {
        // Waits for the lapsed owner's commits still holding its row's lock: what they wrote
        // is in the games taken.
        let lapsed = conn.execute(
            "UPDATE nodes SET epoch = epoch + 1
             WHERE name = ?1 AND until_ms <= salpakan_now_ms()",
            &[Value::from(dead)],
        )?;
        if lapsed == 0 {
            return Ok(Vec::new());
        }
        let moved = match game {
            Some(game) => conn.query(
                "UPDATE owners SET node = ?2 WHERE node = ?1 AND game = ?3 RETURNING game",
                &[
                    Value::from(dead),
                    Value::from(&fence.node),
                    Value::from(game),
                ],
            )?,
            None => conn.query(
                "UPDATE owners SET node = ?2 WHERE node = ?1 AND (game = ?3 OR game IN
                 (SELECT id FROM games WHERE over = 0 AND quarantined IS NULL))
                 RETURNING game",
                &[
                    Value::from(dead),
                    Value::from(&fence.node),
                    Value::from(LOBBY),
                ],
            )?,
        };
        moved.iter().map(Row::only_text).collect()
    })();
    super::sql::finish(conn, done)
}

/// Records that this node owns the new game `game` (in the transaction that creates it).
pub(super) fn claim(conn: &mut impl Sql, fence: &Fence, game: &str) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO owners (game, node) VALUES (?1, ?2)",
        &[Value::from(game), Value::from(&fence.node)],
    )
    .map(|_| ())
}

/// Who owns `game` (`None`: no row, a game of before nodes were kept, or none).
pub(super) fn owner(conn: &mut impl Sql, game: &str) -> Result<Option<Owner>, StoreError> {
    const OWNER: Columns = Columns(&[
        "o.node AS node",
        "n.url AS url",
        "CASE WHEN n.until_ms > salpakan_now_ms() THEN 1 ELSE 0 END AS alive",
    ]);
    conn.query_one(
        &format!(
            "SELECT {} FROM owners o JOIN nodes n ON n.name = o.node WHERE o.game = ?1",
            OWNER.list()
        ),
        &[Value::from(game)],
    )?
    .map(|row| {
        let row = OWNER.of(&row);
        Ok(Owner {
            node: row.text("node")?,
            url: row.text("url")?,
            alive: row.flag("alive")?,
        })
    })
    .transpose()
}

/// The nodes whose leases lapsed while they own an unfinished game or the lobby.
pub(super) fn lapsed(conn: &mut impl Sql) -> Result<Vec<String>, StoreError> {
    conn.query(
        "SELECT n.name FROM nodes n WHERE n.until_ms <= salpakan_now_ms() AND EXISTS
         (SELECT 1 FROM owners o LEFT JOIN games g ON g.id = o.game WHERE o.node = n.name
          AND (o.game = ?1 OR (g.over = 0 AND g.quarantined IS NULL)))",
        &[Value::from(LOBBY)],
    )?
    .iter()
    .map(Row::only_text)
    .collect()
}

/// The unfinished games created from the address `ip` (at every node).
pub(super) fn unfinished_by(conn: &mut impl Sql, ip: &str) -> Result<u64, StoreError> {
    let row = conn.query_one(
        "SELECT count(*) FROM games WHERE creator_ip = ?1 AND over = 0",
        &[Value::from(ip)],
    )?;
    Ok(row.map_or(Ok(0), |row| row.only_int())?.max(0) as u64)
}

/// The arrivals of `kind` from `ip` since `since_ms` (at every node).
pub(super) fn arrivals(
    conn: &mut impl Sql,
    kind: &str,
    ip: &str,
    since_ms: u64,
) -> Result<u64, StoreError> {
    let row = conn.query_one(
        "SELECT count(*) FROM arrivals WHERE kind = ?1 AND ip = ?2 AND at_ms >= ?3",
        &[Value::from(kind), Value::from(ip), Value::from(since_ms)],
    )?;
    Ok(row.map_or(Ok(0), |row| row.only_int())?.max(0) as u64)
}

/// The unfinished games `node` owns.
pub(super) fn owned(conn: &mut impl Sql, node: &str) -> Result<Vec<String>, StoreError> {
    conn.query(
        "SELECT g.id FROM games g JOIN owners o ON o.game = g.id
         WHERE g.over = 0 AND g.quarantined IS NULL AND o.node = ?1",
        &[Value::from(node)],
    )?
    .iter()
    .map(Row::only_text)
    .collect()
}

/// The URLs of the nodes whose leases are valid, but `me`.
#[cfg(feature = "nodes")]
pub(super) fn others(
    conn: &mut impl Sql,
    me: &str,
    alive: bool,
) -> Result<Vec<String>, StoreError> {
    let when = if alive { ">" } else { "<=" };
    conn.query(
        &format!("SELECT url FROM nodes WHERE until_ms {when} salpakan_now_ms() AND name <> ?1"),
        &[Value::from(me)],
    )?
    .iter()
    .map(Row::only_text)
    .collect()
}

/// PostgreSQL's step 2: the nodes, the owners, the nodes' shared key, and the database's
/// clock in milliseconds (every lease is read by it, never by a node's own).
pub(super) const PG_NODES: &str = "
CREATE TABLE nodes (
    name TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    until_ms BIGINT NOT NULL
);
CREATE TABLE owners (
    game TEXT PRIMARY KEY,
    node TEXT NOT NULL
);
CREATE INDEX owners_node ON owners (node);
CREATE INDEX games_creator ON games (creator_ip) WHERE over = 0;
CREATE TABLE arrivals (
    kind TEXT NOT NULL,
    ip TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX arrivals_by_ip ON arrivals (kind, ip, at_ms);
CREATE TABLE cluster (
    id BIGINT PRIMARY KEY,
    key TEXT NOT NULL
);
CREATE FUNCTION salpakan_now_ms() RETURNS BIGINT LANGUAGE SQL VOLATILE AS
    'SELECT (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT';
CREATE FUNCTION salpakan_fence(node TEXT, node_epoch BIGINT) RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM nodes WHERE name = node AND epoch = node_epoch
        AND until_ms > salpakan_now_ms() FOR SHARE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'salpakan: this node''s lease lapsed';
    END IF;
END $$;
";

/// What a node hears from the others at once (`LISTEN`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// A node stopped: its games are to be taken over now.
    NodeStopped(String),
    /// A player's row changed (registered, or a game of theirs ended).
    Player(String),
    /// A game ended on a node (`{"node", "game", "end"}`, as JSON).
    Ended(String),
    /// The listening connection was made again: what was said meanwhile is lost, so every
    /// player is to be read again.
    Resync,
}
