//! A game's chat as the database keeps it: its lines (`chat_lines`, committed before any
//! socket hears them), each seat's chat mode (`games.white_chat`, `black_chat`), and the
//! lines players reported (`chat_reports`, each with a copy of its line: a report outlives
//! its game's pruning).

use salpakan::Side;

use super::sql::{Columns, Named, Sql, Value};
use super::values::StoreError;
use crate::wire::Channel;
use crate::wire::{ChatLine, ChatMode, SideWord};

/// A write to a game's chat.
#[derive(Debug, Clone)]
pub enum ChatWrite {
    /// A line of a game, said at `at_ms`.
    Line {
        /// The game.
        game: String,
        /// The line.
        line: ChatLine,
        /// When, in milliseconds since the Unix epoch.
        at_ms: u64,
    },
    /// A seat's chat mode.
    Mode {
        /// The game.
        game: String,
        /// The seat.
        side: Side,
        /// Its mode.
        mode: ChatMode,
    },
    /// A line reported to the operator.
    Report {
        /// The game.
        game: String,
        /// The line.
        line: ChatLine,
        /// Who reported it.
        reporter: String,
        /// When, in milliseconds since the Unix epoch.
        at_ms: u64,
    },
}

/// Applies `write`.
pub(super) fn apply(conn: &mut impl Sql, write: &ChatWrite) -> Result<(), StoreError> {
    match write {
        ChatWrite::Line { game, line, at_ms } => insert_line(conn, game, line, *at_ms),
        ChatWrite::Mode { game, side, mode } => set_mode(conn, game, *side, *mode),
        ChatWrite::Report {
            game,
            line,
            reporter,
            at_ms,
        } => insert_report(conn, game, line, (reporter, *at_ms)),
    }
}

/// A reported line and its reports, as `GET /admin/reports` lists it: one entry a line, however
/// many reported it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ReportGroup {
    /// The game.
    pub game: String,
    /// The line, as it was said (its `name`, or its `side` for an anonymous seat, is who is
    /// reported).
    pub line: ChatLine,
    /// How many reported it.
    pub reports: u64,
    /// When it was first reported, in milliseconds since the Unix epoch.
    pub first_ms: u64,
    /// When it was last reported.
    pub last_ms: u64,
}

/// Where a page of reported lines starts: after this line, in the order first reported, then
/// by game, room and number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportCursor {
    /// When the last line of the page before was first reported.
    pub first_ms: u64,
    /// Its game.
    pub game: String,
    /// Its room.
    pub room: Channel,
    /// Its number in its room.
    pub n: u64,
}

impl ReportCursor {
    /// The cursor after `group`.
    #[must_use]
    pub fn after(group: &ReportGroup) -> ReportCursor {
        ReportCursor {
            first_ms: group.first_ms,
            game: group.game.clone(),
            room: group.line.room,
            n: group.line.n,
        }
    }

    /// The cursor's word: `FIRST_MS.ROOM.N.GAME`.
    #[must_use]
    pub fn word(&self) -> String {
        format!(
            "{}.{}.{}.{}",
            self.first_ms,
            self.room.word(),
            self.n,
            self.game
        )
    }

    /// The cursor `word` says, if it is one.
    #[must_use]
    pub fn parse(word: &str) -> Option<ReportCursor> {
        let mut parts = word.splitn(4, '.');
        let first_ms = parts.next()?.parse().ok()?;
        let room = parts.next()?.parse().ok()?;
        let n = parts.next()?.parse().ok()?;
        let game = parts.next()?.to_owned();
        crate::secret::plausible_id(&game).then_some(ReportCursor {
            first_ms,
            game,
            room,
            n,
        })
    }
}

/// A page of reported lines asked for: after `after` (from the oldest if none), of the
/// player `player` only if given (its lines, by name), at most `limit`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportPage {
    /// Where it starts.
    pub after: Option<ReportCursor>,
    /// Whose lines only.
    pub player: Option<String>,
    /// Only the lines no moderator's action answered yet (the moderators' queue).
    pub open: bool,
    /// How many lines at the most.
    pub limit: usize,
}

fn bad(what: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(what.to_string())
}

/// A line's columns, in the order [`line_values`] gives them.
const LINE: Columns = Columns(&["room", "n", "side", "name", "bot", "phrase", "text"]);
/// A report's columns: its game, its line's, who reported it and when.
const REPORT: Columns = Columns(&[
    "game", "room", "n", "side", "name", "bot", "phrase", "text", "reporter", "at_ms",
]);

/// The reported line `line`, as its reports keep it, if anyone reported it.
pub(super) fn reported_line(
    conn: &mut impl Sql,
    line: &crate::wire::LineRef,
) -> Result<Option<ChatLine>, StoreError> {
    conn.query_one(
        &format!(
            "SELECT {} FROM chat_reports WHERE game = ?1 AND room = ?2 AND n = ?3 LIMIT 1",
            LINE.list()
        ),
        &[(&line.game).into(), line.room.word().into(), line.n.into()],
    )?
    .map(|row| read_line(&LINE.of(&row)))
    .transpose()
}

/// A line from a row that has [`LINE`]'s columns, by name.
fn read_line(row: &Named<'_>) -> Result<ChatLine, StoreError> {
    let side = match row.opt_text("side")? {
        Some(word) => Some(SideWord(word.parse::<Side>().map_err(bad)?)),
        None => None,
    };
    let phrase = match row.opt_text("phrase")? {
        Some(word) => Some(word.parse().map_err(bad)?),
        None => None,
    };
    Ok(ChatLine {
        room: row.text("room")?.parse::<Channel>().map_err(bad)?,
        n: row.count("n")?,
        side,
        name: row.opt_text("name")?,
        bot: row.flag("bot")?,
        phrase,
        text: row.text("text")?,
    })
}

fn line_values(line: &ChatLine) -> [Value; 7] {
    [
        line.room.word().into(),
        line.n.into(),
        line.side.map(|s| s.0.word()).into(),
        line.name.clone().into(),
        line.bot.into(),
        line.phrase.map(|p| p.word()).into(),
        (&line.text).into(),
    ]
}

/// Game `game`'s lines, both rooms, each in order.
pub(super) fn lines(conn: &mut impl Sql, game: &str) -> Result<Vec<ChatLine>, StoreError> {
    conn.query(
        &format!(
            "SELECT {} FROM chat_lines WHERE game = ?1 ORDER BY room, n",
            LINE.list()
        ),
        &[game.into()],
    )?
    .iter()
    .map(|row| read_line(&LINE.of(row)))
    .collect()
}

/// Each seat's chat mode as last set (`None`: never set, the game's default).
pub(super) fn modes(conn: &mut impl Sql, game: &str) -> Result<[Option<ChatMode>; 2], StoreError> {
    const MODES: Columns = Columns(&["white_chat", "black_chat"]);
    let row = conn.query_one(
        &format!("SELECT {} FROM games WHERE id = ?1", MODES.list()),
        &[game.into()],
    )?;
    let Some(row) = row else {
        return Ok([None, None]);
    };
    let row = MODES.of(&row);
    let mode = |name: &str| -> Result<Option<ChatMode>, StoreError> {
        Ok(row.opt_text(name)?.as_deref().and_then(ChatMode::from_word))
    };
    Ok([mode("white_chat")?, mode("black_chat")?])
}

/// Keeps `line` of `game`, said at `at_ms`.
pub(super) fn insert_line(
    conn: &mut impl Sql,
    game: &str,
    line: &ChatLine,
    at_ms: u64,
) -> Result<(), StoreError> {
    let mut values = vec![Value::from(game)];
    values.extend(line_values(line));
    values.push(at_ms.into());
    conn.execute(
        &format!(
            "INSERT INTO chat_lines (game, {}, at_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            LINE.list()
        ),
        &values,
    )?;
    Ok(())
}

/// Sets `side`'s chat mode in `game`.
pub(super) fn set_mode(
    conn: &mut impl Sql,
    game: &str,
    side: Side,
    mode: ChatMode,
) -> Result<(), StoreError> {
    conn.execute(
        &format!("UPDATE games SET {}_chat = ?2 WHERE id = ?1", side.word()),
        &[game.into(), mode.word().into()],
    )?;
    Ok(())
}

/// Keeps `reporter`'s report of `line` of `game` (a second report of one line by one
/// reporter changes nothing).
pub(super) fn insert_report(
    conn: &mut impl Sql,
    game: &str,
    line: &ChatLine,
    (reporter, at_ms): (&str, u64),
) -> Result<(), StoreError> {
    let mut values = vec![Value::from(game)];
    values.extend(line_values(line));
    values.push(reporter.into());
    values.push(at_ms.into());
    conn.execute(
        &format!(
            "INSERT INTO chat_reports ({})
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
             ON CONFLICT (game, room, n, reporter) DO NOTHING",
            REPORT.list()
        ),
        &values,
    )?;
    Ok(())
}

/// A page of reported lines, each with its reports' count, oldest first reported first.
pub(super) fn reports(
    conn: &mut impl Sql,
    page: &ReportPage,
) -> Result<Vec<ReportGroup>, StoreError> {
    const GROUP: Columns = Columns(&[
        "game", "room", "n", "side", "name", "bot", "phrase", "text", "reports", "first_ms",
        "last_ms",
    ]);
    let after = page.after.clone().unwrap_or(ReportCursor {
        first_ms: 0,
        game: String::new(),
        room: Channel::Players,
        n: 0,
    });
    let mut values = vec![
        Value::from(after.first_ms),
        Value::from(after.game.as_str()),
        Value::from(after.room.word()),
        Value::from(after.n),
    ];
    let mut wheres = Vec::new();
    if let Some(name) = &page.player {
        values.push(Value::from(name.to_ascii_lowercase()));
        wheres.push("lower(name) = ?5");
    }
    if page.open {
        wheres.push("handled_ms IS NULL");
    }
    let whose = if wheres.is_empty() {
        String::new()
    } else {
        format!("WHERE {}", wheres.join(" AND "))
    };
    let first = "MIN(at_ms)";
    conn.query(
        &format!(
            "SELECT game, room, n, side, name, bot, phrase, text, COUNT(*) AS reports,
                    {first} AS first_ms, MAX(at_ms) AS last_ms
             FROM chat_reports {whose}
             GROUP BY game, room, n, side, name, bot, phrase, text
             HAVING {first} > ?1 OR ({first} = ?1 AND (game > ?2 OR (game = ?2
                 AND (room > ?3 OR (room = ?3 AND n > ?4)))))
             ORDER BY first_ms, game, room, n
             LIMIT {}",
            page.limit
        ),
        &values,
    )?
    .iter()
    .map(|row| {
        let row = GROUP.of(row);
        Ok(ReportGroup {
            game: row.text("game")?,
            line: read_line(&row)?,
            reports: row.count("reports")?,
            first_ms: row.count("first_ms")?,
            last_ms: row.count("last_ms")?,
        })
    })
    .collect()
}

/// A finished game's chat, and its seats, read without loading the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FinishedChat {
    /// Each seat's token's SHA-256 (`None` for a bot's seat).
    pub tokens: [Option<String>; 2],
    /// Each seat's player's name.
    pub names: [Option<String>; 2],
    /// Its lines, both rooms, each in order.
    pub lines: Vec<ChatLine>,
}

/// Finished (or aborted) game `game`'s chat; `None` for a game not over, or none.
pub(super) fn finished_chat(
    conn: &mut impl Sql,
    game: &str,
) -> Result<Option<FinishedChat>, StoreError> {
    const SEATS: Columns = Columns(&["white_token", "black_token", "white_name", "black_name"]);
    let Some(row) = conn.query_one(
        &format!(
            "SELECT {} FROM games WHERE id = ?1 AND over = 1 AND quarantined IS NULL",
            SEATS.list()
        ),
        &[game.into()],
    )?
    else {
        return Ok(None);
    };
    let row = SEATS.of(&row);
    Ok(Some(FinishedChat {
        tokens: [row.opt_text("white_token")?, row.opt_text("black_token")?],
        names: [row.opt_text("white_name")?, row.opt_text("black_name")?],
        lines: lines(conn, game)?,
    }))
}

/// A line's columns as `chat_lines` and `chat_reports` both declare them (with its game).
macro_rules! line_columns {
    () => {
        "    game TEXT NOT NULL,
    room TEXT NOT NULL,
    n BIGINT NOT NULL,
    side TEXT,
    name TEXT,
    bot BIGINT NOT NULL,
    phrase TEXT,
    text TEXT NOT NULL,
"
    };
}

/// The tables and columns of schema version 4 (PostgreSQL 5), the same on both databases.
pub(super) const CHAT_SCHEMA: &str = concat!(
    "
CREATE TABLE chat_lines (
",
    line_columns!(),
    "    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game, room, n)
);
CREATE TABLE chat_reports (
",
    line_columns!(),
    "    reporter TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game, room, n, reporter)
);
CREATE INDEX chat_reports_by_time ON chat_reports (at_ms);
ALTER TABLE games ADD COLUMN white_chat TEXT;
ALTER TABLE games ADD COLUMN black_chat TEXT;
"
);
