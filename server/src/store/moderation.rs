//! The moderators' desk as the database keeps it: who moderates and each player's standing
//! (columns of `players`), every action in the moderation log (`moderation`, with its
//! appeal), the games whose ratings were refunded (`refunds`: each once), and which reported
//! lines an action answered (`chat_reports.handled_ms`).

use super::lease::{self, Fence, PLAYERS_CHANNEL};
use super::sql::{Columns, Row, Sql, Value};
use super::values::{Committed, Standing, StoreError};
use crate::wire::LineRef;

/// The tables and columns of schema version 10, the same on both databases.
pub(super) const MODERATION_SCHEMA: &str = "
ALTER TABLE players ADD COLUMN moderator BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN chat_until_ms BIGINT;
ALTER TABLE players ADD COLUMN muted BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN closed BIGINT NOT NULL DEFAULT 0;
ALTER TABLE chat_reports ADD COLUMN handled_ms BIGINT;
CREATE TABLE moderation (
    id TEXT PRIMARY KEY,
    at_ms BIGINT NOT NULL,
    moderator TEXT NOT NULL,
    player TEXT NOT NULL,
    action TEXT NOT NULL,
    hours BIGINT,
    days BIGINT,
    until_ms BIGINT,
    reason TEXT NOT NULL,
    detail TEXT,
    appeal TEXT,
    appeal_ms BIGINT
);
CREATE INDEX moderation_player ON moderation (player, at_ms);
CREATE INDEX moderation_time ON moderation (at_ms);
CREATE TABLE refunds (
    game TEXT PRIMARY KEY,
    action TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
";

/// One action of the moderation log, as its row keeps it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Entry {
    /// Its id (public to the player and the moderators).
    pub id: String,
    /// When, in milliseconds since the Unix epoch.
    pub at_ms: u64,
    /// The moderator who took it.
    pub moderator: String,
    /// The player it concerns (as registered).
    pub player: String,
    /// The action's word (`warn`, `timeout`, `mute`, `unmute`, `close`, `reopen`, `refund`,
    /// `dismiss`).
    pub action: String,
    /// A timeout's hours.
    pub hours: Option<u64>,
    /// A refund's days.
    pub days: Option<u64>,
    /// When a timeout ends.
    pub until_ms: Option<u64>,
    /// The moderator's reason, told to the player.
    pub reason: String,
    /// A refund's games and rating changes (JSON), or the line a dismissal answered.
    pub detail: Option<String>,
    /// The player's appeal.
    pub appeal: Option<String>,
    /// When it appealed.
    pub appeal_ms: Option<u64>,
}

/// A write of the moderators' desk.
#[derive(Debug, Clone)]
pub enum ModerationWrite {
    /// A player named a moderator, or no longer one.
    Moderator {
        /// The player.
        name: String,
        /// Whether it moderates.
        on: bool,
    },
    /// An action: its log entry, the player's standing after it, the line it answers, and
    /// for a refund the days back it reaches.
    Act {
        /// The log's entry.
        entry: Box<Entry>,
        /// The player's standing after it (`None`: unchanged).
        standing: Option<Standing>,
        /// The reported line it answers.
        line: Option<LineRef>,
    },
    /// A player's appeal of one of its actions (once).
    Appeal {
        /// The action's id.
        id: String,
        /// The player (only its own).
        player: String,
        /// What it says.
        text: String,
        /// When.
        at_ms: u64,
    },
}

/// A refund's change of one opponent's rating in one game.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Refunded {
    /// The game.
    pub game: String,
    /// The opponent.
    pub player: String,
    /// What the game moved its rating by (the refund takes it back).
    pub delta: f64,
}

/// Applies `write`; a refund's changed rows go to `committed` (and, with a `fence`, the
/// other nodes are told of each player changed).
pub(super) fn apply(
    conn: &mut impl Sql,
    write: &ModerationWrite,
    committed: &mut Committed,
    fence: Option<&Fence>,
) -> Result<(), StoreError> {
    let mut told = Vec::new();
    match write {
        ModerationWrite::Moderator { name, on } => {
            conn.execute(
                "UPDATE players SET moderator = ?2 WHERE name = ?1",
                &[name.into(), (*on).into()],
            )?;
            told.push(name.clone());
        }
        ModerationWrite::Act {
            entry,
            standing,
            line,
        } => {
            let mut entry = entry.clone();
            if entry.action == "refund" {
                let since_ms = entry
                    .at_ms
                    .saturating_sub(entry.days.unwrap_or(0) * 24 * 3_600_000);
                let refunded = refund(conn, (&entry.player, since_ms), (&entry.id, entry.at_ms))?;
                told.extend(refunded.iter().map(|r| r.player.clone()));
                entry.detail = serde_json::to_string(&refunded).ok();
            }
            insert(conn, &entry)?;
            if let Some(standing) = standing {
                conn.execute(
                    "UPDATE players SET chat_until_ms = ?2, muted = ?3, closed = ?4
                     WHERE name = ?1",
                    &[
                        (&entry.player).into(),
                        standing.chat_until_ms.into(),
                        standing.muted.into(),
                        standing.closed.into(),
                    ],
                )?;
                told.push(entry.player.clone());
            }
            if let Some(line) = line {
                conn.execute(
                    "UPDATE chat_reports SET handled_ms = ?4
                     WHERE game = ?1 AND room = ?2 AND n = ?3 AND handled_ms IS NULL",
                    &[
                        (&line.game).into(),
                        line.room.word().into(),
                        line.n.into(),
                        entry.at_ms.into(),
                    ],
                )?;
            }
        }
        ModerationWrite::Appeal {
            id,
            player,
            text,
            at_ms,
        } => {
            let changed = conn.execute(
                "UPDATE moderation SET appeal = ?3, appeal_ms = ?4
                 WHERE id = ?1 AND player = ?2 AND appeal IS NULL",
                &[id.into(), player.into(), text.into(), (*at_ms).into()],
            )?;
            if changed == 0 {
                return Err(StoreError::Refused("appeal"));
            }
        }
    }
    told.sort();
    told.dedup();
    for name in told {
        if let Some(row) = super::players::player(conn, &name)? {
            committed.players.push(row);
        }
        if fence.is_some() {
            lease::notify(conn, PLAYERS_CHANNEL, &name)?;
        }
    }
    Ok(())
}

/// Takes back what `player`'s rated games since `since_ms` moved its opponents' ratings, each
/// game once (kept in `refunds` under action `action` at `at_ms`): the changes made.
fn refund(
    conn: &mut impl Sql,
    (player, since_ms): (&str, u64),
    (action, at_ms): (&str, u64),
) -> Result<Vec<Refunded>, StoreError> {
    let rows = conn.query(
        "SELECT o.game, o.name, o.rating_before, o.rating_after FROM rating_history o
         JOIN rating_history p ON p.game = o.game AND p.name = ?1
         WHERE o.name <> ?1 AND p.ended_ms >= ?2
         AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.game = o.game)
         ORDER BY o.ended_ms, o.game",
        &[player.into(), since_ms.into()],
    )?;
    const CHANGE: Columns = Columns(&["game", "name", "rating_before", "rating_after"]);
    let mut refunded = Vec::with_capacity(rows.len());
    for row in &rows {
        let row = CHANGE.of(row);
        let change = Refunded {
            game: row.text("game")?,
            player: row.text("name")?,
            delta: row.real("rating_after")? - row.real("rating_before")?,
        };
        conn.execute(
            "UPDATE players SET rating = rating - ?2 WHERE name = ?1",
            &[(&change.player).into(), change.delta.into()],
        )?;
        conn.execute(
            "INSERT INTO refunds (game, action, at_ms) VALUES (?1, ?2, ?3)",
            &[(&change.game).into(), action.into(), at_ms.into()],
        )?;
        refunded.push(change);
    }
    Ok(refunded)
}

/// The columns [`entry`] reads.
const ENTRY: Columns = Columns(&[
    "id",
    "at_ms",
    "moderator",
    "player",
    "action",
    "hours",
    "days",
    "until_ms",
    "reason",
    "detail",
    "appeal",
    "appeal_ms",
]);

fn insert(conn: &mut impl Sql, e: &Entry) -> Result<(), StoreError> {
    let values: Vec<Value> = vec![
        (&e.id).into(),
        e.at_ms.into(),
        (&e.moderator).into(),
        (&e.player).into(),
        (&e.action).into(),
        e.hours.into(),
        e.days.into(),
        e.until_ms.into(),
        (&e.reason).into(),
        e.detail.clone().into(),
        e.appeal.clone().into(),
        e.appeal_ms.into(),
    ];
    let marks: Vec<String> = (1..=values.len()).map(|i| format!("?{i}")).collect();
    conn.execute(
        &format!(
            "INSERT INTO moderation ({}) VALUES ({})",
            ENTRY.list(),
            marks.join(", ")
        ),
        &values,
    )?;
    Ok(())
}

fn entry(row: &Row) -> Result<Entry, StoreError> {
    let row = ENTRY.of(row);
    let opt = |name: &str| -> Result<Option<u64>, StoreError> {
        Ok(row.opt_int(name)?.map(|n| n as u64))
    };
    Ok(Entry {
        id: row.text("id")?,
        at_ms: row.count("at_ms")?,
        moderator: row.text("moderator")?,
        player: row.text("player")?,
        action: row.text("action")?,
        hours: opt("hours")?,
        days: opt("days")?,
        until_ms: opt("until_ms")?,
        reason: row.text("reason")?,
        detail: row.opt_text("detail")?,
        appeal: row.opt_text("appeal")?,
        appeal_ms: opt("appeal_ms")?,
    })
}

/// A page of the moderation log: newest first, before the action `before` (from the newest
/// if none), of player `player` only if given, at most `limit`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogPage {
    /// Where it starts: after this action (an id), newer ones left out.
    pub before: Option<String>,
    /// Whose actions only (its name, any case).
    pub player: Option<String>,
    /// How many at the most.
    pub limit: usize,
}

/// The moderation log's page `page`.
pub(super) fn log(conn: &mut impl Sql, page: &LogPage) -> Result<Vec<Entry>, StoreError> {
    let mut values: Vec<Value> = Vec::new();
    let mut wheres = Vec::new();
    if let Some(before) = &page.before {
        let Some(row) = conn.query_one(
            "SELECT at_ms FROM moderation WHERE id = ?1",
            &[before.into()],
        )?
        else {
            return Err(StoreError::Refused("before"));
        };
        values.push(row.only_int()?.into());
        values.push(before.into());
        wheres.push("(at_ms < ?1 OR (at_ms = ?1 AND id < ?2))".to_owned());
    }
    if let Some(player) = &page.player {
        values.push(player.to_ascii_lowercase().into());
        wheres.push(format!("lower(player) = ?{}", values.len()));
    }
    let filter = if wheres.is_empty() {
        String::new()
    } else {
        format!("WHERE {}", wheres.join(" AND "))
    };
    conn.query(
        &format!(
            "SELECT {} FROM moderation {filter} ORDER BY at_ms DESC, id DESC LIMIT {}",
            ENTRY.list(),
            page.limit
        ),
        &values,
    )?
    .iter()
    .map(entry)
    .collect()
}
