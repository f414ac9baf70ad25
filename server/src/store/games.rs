//! Games as the database keeps them: each game's row (its settings, seats, formations, and
//! once it ends its summary and record) and its numbered events. Written: made, a seat
//! taken, events appended (the end settled with them: [`super::players::settle`]), a setup
//! time moved, deleted, pruned, quarantined. Read back: a game's row and events, a finished
//! game's summary and record, a player's finished games, the rated games counted against
//! the bounds, and every unfinished game at start (a game that cannot be read is
//! quarantined, not fatal).

use salpakan::commitment::Salt;
use salpakan::{Rules, Side};

use std::net::IpAddr;

use super::PRUNE_BATCH;
use super::lease::{self, ENDED_CHANNEL, Fence, PLAYERS_CHANNEL};
use super::sql::{Columns, Row, Sql, Value};
use super::values::{Committed, Ending, Settlement, StoreError};
use crate::clock::ClockSettings;
use crate::room::{Event, Player, Saved, Spec};

/// The columns of a game's row that [`read_game`] reads.
const GAME: Columns = Columns(&[
    "id",
    "setup_rows",
    "move_limit",
    "first",
    "white_player",
    "black_player",
    "clock_initial_ms",
    "clock_increment_ms",
    "white_token",
    "black_token",
    "invite",
    "bot_seed",
    "white_setup",
    "black_setup",
    "created_ms",
    "creator_ip",
    "setup_ms",
    "seated_ms",
    "white_name",
    "black_name",
    "rated",
    "unrated",
    "listed",
    "white_ip",
    "black_ip",
    "white_salt",
    "black_salt",
    "sealed",
]);

/// A write to a game's row and events.
#[derive(Debug, Clone)]
pub enum GameWrite {
    /// A new game, and the address of the client that created it (kept while the game is
    /// unfinished, for the limit of games per address).
    Create {
        /// The game's settings.
        spec: Spec,
        /// The creator's address.
        creator: Option<IpAddr>,
        /// Each seat's address, for a seat taken now.
        ips: [Option<IpAddr>; 2],
        /// Why a game asked rated is played unrated (an [`crate::wire::Unrated`] word), for
        /// the operator.
        unrated: Option<&'static str>,
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
        /// When both seats were taken, if this seat was the last one open (milliseconds
        /// since the Unix epoch): the setup time runs from then.
        seated_ms: Option<u64>,
        /// The player who took it, if one did.
        name: Option<String>,
        /// The address it was taken from.
        ip: Option<IpAddr>,
        /// Why the game, asked rated, is played unrated from now on.
        unrated: Option<&'static str>,
    },
    /// Game `game`'s setup time is now `setup_ms` from when both seats were taken (a
    /// tournament round's cutoff moved).
    SetupTime {
        /// The game.
        game: String,
        /// Its setup time, in milliseconds.
        setup_ms: u64,
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
        /// What the game's end settles, when these events end it.
        ending: Option<Settlement>,
    },
    /// The oldest [`PRUNE_BATCH`] finished games that ended before `ended_before_ms`
    /// (milliseconds since the Unix epoch) are deleted, rows and events.
    Prune {
        /// The cut.
        ended_before_ms: u64,
    },
    /// A game that could not be restored is left out from now on.
    Quarantine {
        /// The game.
        game: String,
        /// Why.
        reason: String,
    },
}

/// Applies `write`; its events' rows go to `gathered` if given (inserted by the caller),
/// else are inserted now. With a `fence` (several nodes), a new game is claimed by this
/// node, and a game's end is told to the others.
pub(super) fn apply(
    conn: &mut impl Sql,
    write: &GameWrite,
    committed: &mut Committed,
    gathered: Option<&mut Vec<[Value; 3]>>,
    fence: Option<&Fence>,
) -> Result<(), StoreError> {
    match write {
        GameWrite::Create {
            spec,
            creator,
            ips,
            unrated,
        } => create(conn, spec, (*creator, ips, *unrated), fence),
        GameWrite::Delete(game) => delete(conn, game, fence.is_some()),
        GameWrite::Join {
            game,
            side,
            token,
            seated_ms,
            name,
            ip,
            unrated,
        } => {
            let sql = format!(
                "UPDATE games SET {seat}_token = ?2, seated_ms = COALESCE(?3, seated_ms),
                 {seat}_name = ?4, {seat}_ip = COALESCE(?5, {seat}_ip),
                 rated = CASE WHEN CAST(?6 AS TEXT) IS NULL THEN rated ELSE 0 END,
                 unrated = COALESCE(?6, unrated) WHERE id = ?1",
                seat = side.word()
            );
            conn.execute(
                &sql,
                &[
                    game.into(),
                    token.into(),
                    (*seated_ms).into(),
                    name.clone().into(),
                    ip.map(|ip| ip.to_string()).into(),
                    (*unrated).into(),
                ],
            )
            .map(drop)
        }
        GameWrite::SetupTime { game, setup_ms } => conn
            .execute(
                "UPDATE games SET setup_ms = ?2 WHERE id = ?1",
                &[game.into(), (*setup_ms).into()],
            )
            .map(drop),
        GameWrite::Events {
            game,
            first_v,
            events,
            ending,
        } => {
            let rows = append(conn, game, *first_v, events)?;
            if let Some(ending) = ending {
                end(conn, (game, ending), committed, fence)?;
            }
            match gathered {
                Some(gathered) => gathered.extend(rows),
                None => insert_events(conn, rows)?,
            }
            Ok(())
        }
        GameWrite::Prune { ended_before_ms } => prune(conn, *ended_before_ms, fence.is_some()),
        GameWrite::Quarantine { game, reason } => quarantine(conn, game, reason),
    }
}

fn create(
    conn: &mut impl Sql,
    spec: &Spec,
    (creator, ips, unrated): (Option<IpAddr>, &[Option<IpAddr>; 2], Option<&'static str>),
    fence: Option<&Fence>,
) -> Result<(), StoreError> {
    let clock = spec.clock;
    let ip = |side: usize| ips[side].map(|ip| ip.to_string());
    conn.execute(
        "INSERT INTO games (id, setup_rows, move_limit, first, white_player,
         black_player, clock_initial_ms, clock_increment_ms, white_token, black_token,
         invite, bot_seed, created_ms, creator_ip, setup_ms, seated_ms, white_name,
         black_name, rated, listed, white_ip, black_ip, unrated, white_salt, black_salt,
         sealed)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
         ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26)",
        &[
            Value::from(&spec.id),
            i64::from(spec.rules.setup_rows()).into(),
            i64::from(spec.rules.move_limit().unwrap_or(0)).into(),
            spec.first.word().into(),
            spec.players[0].word().into(),
            spec.players[1].word().into(),
            clock.map(|c| c.initial_ms).into(),
            clock.map(|c| c.increment_ms).into(),
            spec.tokens[0].clone().into(),
            spec.tokens[1].clone().into(),
            spec.invite.clone().into(),
            // The seed's bits, as SQLite's and PostgreSQL's signed 64-bit integer.
            Value::Int(spec.bot_seed as i64),
            spec.created_ms.into(),
            creator.map(|ip| ip.to_string()).into(),
            spec.setup_ms.into(),
            spec.seated_ms.into(),
            spec.names[0].clone().into(),
            spec.names[1].clone().into(),
            spec.rated.into(),
            spec.listed.into(),
            ip(0).into(),
            ip(1).into(),
            unrated.into(),
            spec.salts.map(|s| s[0].to_string()).into(),
            spec.salts.map(|s| s[1].to_string()).into(),
            spec.sealed.into(),
        ],
    )?;
    if let Some(fence) = fence {
        lease::claim(conn, fence, &spec.id)?;
    }
    Ok(())
}

fn delete(conn: &mut impl Sql, game: &str, shared: bool) -> Result<(), StoreError> {
    conn.execute("DELETE FROM events WHERE game = ?1", &[game.into()])?;
    conn.execute("DELETE FROM chat_lines WHERE game = ?1", &[game.into()])?;
    conn.execute("DELETE FROM games WHERE id = ?1", &[game.into()])?;
    if shared {
        conn.execute("DELETE FROM owners WHERE game = ?1", &[game.into()])?;
    }
    Ok(())
}

/// Game `game`'s `events` from version `first_v` as rows to insert; a `ready`'s formation
/// goes to the game's row now.
fn append(
    conn: &mut impl Sql,
    game: &str,
    first_v: u64,
    events: &[Event],
) -> Result<Vec<[Value; 3]>, StoreError> {
    let mut rows = Vec::with_capacity(events.len());
    for (i, event) in events.iter().enumerate() {
        let body = serde_json::to_string(event).map_err(bad)?;
        rows.push([game.into(), (first_v + i as u64).into(), body.into()]);
        if let Event::Ready {
            side,
            formation: Some(setup),
        } = event
        {
            let sql = match side {
                Side::White => "UPDATE games SET white_setup = ?2 WHERE id = ?1",
                Side::Black => "UPDATE games SET black_setup = ?2 WHERE id = ?1",
            };
            conn.execute(sql, &[game.into(), setup.cell_values().to_vec().into()])?;
        }
    }
    Ok(rows)
}

/// Game `game` ended: its row keeps its summary and record, its players' rows are settled;
/// with a `fence`, the other nodes read those players' rows again, and hear the end.
fn end(
    conn: &mut impl Sql,
    (game, ended): (&str, &Settlement),
    committed: &mut Committed,
    fence: Option<&Fence>,
) -> Result<(), StoreError> {
    conn.execute(
        "UPDATE games SET over = 1, creator_ip = NULL, summary = ?2, record = ?3,
         ended_ms = ?4, rated = rated * ?5, unrated = COALESCE(?6, unrated)
         WHERE id = ?1",
        &[
            game.into(),
            (&ended.ending.summary).into(),
            ended.ending.record.clone().into(),
            ended.ended_ms.into(),
            ended.rated.into(),
            ended.unrated.into(),
        ],
    )?;
    super::players::settle(conn, (game, ended), committed)?;
    if let Some(fence) = fence {
        let names = ended.results.iter().map(|(name, _)| name);
        for name in names.chain(&ended.strikes) {
            lease::notify(conn, PLAYERS_CHANNEL, name)?;
        }
        if let Some(end) = ended.end {
            let told = serde_json::json!({"node": fence.node, "game": game, "end": end});
            lease::notify(conn, ENDED_CHANNEL, &told.to_string())?;
        }
    }
    Ok(())
}

/// Deletes the oldest [`PRUNE_BATCH`] finished games that ended before `ended_before_ms`: a
/// batch at most, the oldest first, through the index of ended games, so that a prune never
/// holds the writer for long, whatever the backlog.
fn prune(conn: &mut impl Sql, ended_before_ms: u64, shared: bool) -> Result<(), StoreError> {
    let old = format!(
        "SELECT id FROM games WHERE over = 1 AND ended_ms < ?1
         ORDER BY ended_ms LIMIT {PRUNE_BATCH}"
    );
    let cut = [Value::from(ended_before_ms)];
    if shared {
        conn.execute(&format!("DELETE FROM owners WHERE game IN ({old})"), &cut)?;
    }
    conn.execute(&format!("DELETE FROM events WHERE game IN ({old})"), &cut)?;
    conn.execute(
        &format!("DELETE FROM chat_lines WHERE game IN ({old})"),
        &cut,
    )?;
    conn.execute(&format!("DELETE FROM games WHERE id IN ({old})"), &cut)?;
    Ok(())
}

/// The sizes of the multi-row inserts a group's events are cut into: a few distinct
/// statements, each prepared once.
const EVENT_CHUNKS: [usize; 4] = [64, 16, 4, 1];

/// Inserts `rows` (game, version, body) with as few statements as [`EVENT_CHUNKS`] allow.
pub(super) fn insert_events(conn: &mut impl Sql, rows: Vec<[Value; 3]>) -> Result<(), StoreError> {
    let mut left = rows.len();
    let mut rows = rows.into_iter();
    for size in EVENT_CHUNKS {
        if left < size {
            continue;
        }
        let sql = events_insert(size);
        while left >= size {
            let values: Vec<Value> = rows.by_ref().take(size).flatten().collect();
            conn.execute(&sql, &values)?;
            left -= size;
        }
    }
    Ok(())
}

/// `INSERT INTO events … VALUES (?1, ?2, ?3), (?4, ?5, ?6), …` for `rows` rows.
fn events_insert(rows: usize) -> String {
    let mut sql = String::from("INSERT INTO events (game, v, body) VALUES ");
    for row in 0..rows {
        let first = row * 3 + 1;
        if row > 0 {
            sql.push_str(", ");
        }
        sql.push_str(&format!("(?{first}, ?{}, ?{})", first + 1, first + 2));
    }
    sql
}

fn bad(what: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(what.to_string())
}

/// A number of a column that holds one in range.
fn small<T: TryFrom<i64>>(row: &super::sql::Named<'_>, name: &str) -> Result<T, StoreError> {
    let n = row.int(name)?;
    T::try_from(n).map_err(|_| bad(format!("{name}: {n} is out of range")))
}

/// The two salts: both or none (a game from before commitments).
fn salts(row: &super::sql::Named<'_>) -> Result<Option<[Salt; 2]>, StoreError> {
    let salt = |name: &str| -> Result<Option<Salt>, StoreError> {
        row.opt_text(name)?
            .map(|hex| hex.parse::<Salt>().map_err(bad))
            .transpose()
    };
    match (salt("white_salt")?, salt("black_salt")?) {
        (Some(white), Some(black)) => Ok(Some([white, black])),
        (None, None) => Ok(None),
        _ => Err(bad("a game with one salt")),
    }
}

/// A game's row, its events not yet read.
fn read_game(row: &Row) -> Result<Saved, StoreError> {
    let row = GAME.of(row);
    let rules =
        Rules::from_numbers(small(&row, "setup_rows")?, small(&row, "move_limit")?).map_err(bad)?;
    let first = row.text("first")?.parse::<Side>().map_err(bad)?;
    let player = |name: &str| -> Result<Player, StoreError> {
        Player::from_word(&row.text(name)?).map_err(bad)
    };
    let clock = row
        .opt_int("clock_initial_ms")?
        .map(|initial| ClockSettings {
            initial_ms: initial as u64,
            increment_ms: row
                .opt_int("clock_increment_ms")
                .ok()
                .flatten()
                .unwrap_or(0) as u64,
        });
    let spec = Spec {
        id: row.text("id")?,
        rules,
        first,
        players: [player("white_player")?, player("black_player")?],
        clock,
        tokens: [row.opt_text("white_token")?, row.opt_text("black_token")?],
        invite: row.opt_text("invite")?,
        bot_seed: row.int("bot_seed")? as u64,
        salts: salts(&row)?,
        created_ms: row
            .opt_int("created_ms")?
            .map_or_else(crate::clock::unix_ms, |ms| ms as u64),
        setup_ms: row
            .opt_int("setup_ms")?
            .map_or(crate::wire::SETUP_MS, |ms| ms as u64),
        seated_ms: row.opt_int("seated_ms")?.map(|ms| ms as u64),
        names: [row.opt_text("white_name")?, row.opt_text("black_name")?],
        rated: row.flag("rated")?,
        unrated: row
            .opt_text("unrated")?
            .as_deref()
            .and_then(crate::wire::Unrated::of_word),
        listed: row.flag("listed")?,
        sealed: row.flag("sealed")?,
        // Not stored: the games service reads it from the players.
        bot_accounts: [false; 2],
    };
    let ip = |name: &str| -> Result<Option<IpAddr>, StoreError> {
        Ok(row.opt_text(name)?.and_then(|ip| ip.parse().ok()))
    };
    Ok(Saved {
        spec,
        setups: [row.opt_blob("white_setup")?, row.opt_blob("black_setup")?],
        events: Vec::new(),
        creator: ip("creator_ip")?,
        ips: [ip("white_ip")?, ip("black_ip")?],
        chat: crate::room::SavedChat::default(),
    })
}

fn events(conn: &mut impl Sql, game: &str) -> Result<Vec<Event>, StoreError> {
    conn.query(
        "SELECT body FROM events WHERE game = ?1 ORDER BY v",
        &[game.into()],
    )?
    .iter()
    .map(|row| serde_json::from_str(&row.only_text()?).map_err(bad))
    .collect()
}

/// A game as stored, finished or not (`None` for no such game, or a quarantined one).
pub(super) fn load(conn: &mut impl Sql, game: &str) -> Result<Option<Saved>, StoreError> {
    let found = conn.query_one(
        &format!(
            "SELECT {} FROM games WHERE id = ?1 AND quarantined IS NULL",
            GAME.list()
        ),
        &[game.into()],
    )?;
    let Some(row) = found else {
        return Ok(None);
    };
    let mut saved = read_game(&row)?;
    saved.events = events(conn, game)?;
    saved.chat = crate::room::SavedChat {
        lines: super::chat::lines(conn, game)?,
        modes: super::chat::modes(conn, game)?,
    };
    Ok(Some(saved))
}

/// A finished game as its row keeps it: its summary and record (kept when it ended), and its
/// seats (each seat's token digest and the invite's), read without loading the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// Its summary and record (no record for an aborted game); `None` for a game that ended
    /// before they were kept.
    pub ending: Option<Ending>,
    /// Its seats, for refusing a wrong token or invite.
    pub seats: FinishedSeats,
}

/// A finished game's seats as its row keeps them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedSeats {
    /// Each seat's token's SHA-256 (`None` for a bot's seat).
    pub tokens: [Option<String>; 2],
    /// The invite's SHA-256, for a game that had one.
    pub invite: Option<String>,
}

/// Finished game `game`; `None` for a game not over, or none (or a quarantined one).
pub(super) fn finished(conn: &mut impl Sql, game: &str) -> Result<Option<Finished>, StoreError> {
    const FINISHED: Columns =
        Columns(&["summary", "record", "white_token", "black_token", "invite"]);
    conn.query_one(
        &format!(
            "SELECT {} FROM games WHERE id = ?1 AND over = 1 AND quarantined IS NULL",
            FINISHED.list()
        ),
        &[game.into()],
    )?
    .map(|row| {
        let row = FINISHED.of(&row);
        let ending = match row.opt_text("summary")? {
            Some(summary) => Some(Ending {
                summary,
                record: row.opt_text("record")?,
            }),
            None => None,
        };
        Ok(Finished {
            ending,
            seats: FinishedSeats {
                tokens: [row.opt_text("white_token")?, row.opt_text("black_token")?],
                invite: row.opt_text("invite")?,
            },
        })
    })
    .transpose()
}

/// Rated games started since a moment, as the bounds of rated games a day count them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct RatedSince {
    /// The pair's.
    pub pair: u64,
    /// Each seat's address's, whoever played there.
    pub by_ip: [u64; 2],
    /// Those of the two seats' address between two of its own players (0 when the seats'
    /// addresses differ).
    pub one_address: u64,
}

/// Rated games started since `since_ms` between the players `names` (in either colour),
/// those each of `ips` took part in, and, for one address, those between two of its own
/// players; the game `not` left out (the one being decided).
pub(super) fn rated_since(
    conn: &mut impl Sql,
    (names, ips): (&[String; 2], &[Option<String>; 2]),
    since_ms: u64,
    not: &str,
) -> Result<RatedSince, StoreError> {
    let mut one = |sql: &str, args: &[super::sql::Value]| -> Result<u64, StoreError> {
        Ok(conn
            .query_one(sql, args)?
            .map(|row| row.only_int())
            .transpose()?
            .unwrap_or(0) as u64)
    };
    let mut counted = RatedSince {
        pair: one(
            "SELECT COUNT(*) FROM games WHERE rated = 1 AND created_ms >= ?3 AND id <> ?4
             AND ((white_name = ?1 AND black_name = ?2) OR (white_name = ?2 AND black_name = ?1))",
            &[
                (&names[0]).into(),
                (&names[1]).into(),
                since_ms.into(),
                not.into(),
            ],
        )?,
        ..RatedSince::default()
    };
    for (i, ip) in ips.iter().enumerate() {
        if let Some(ip) = ip {
            counted.by_ip[i] = one(
                "SELECT COUNT(*) FROM games WHERE rated = 1 AND created_ms >= ?2 AND id <> ?3
                 AND (white_ip = ?1 OR black_ip = ?1)",
                &[ip.into(), since_ms.into(), not.into()],
            )?;
        }
    }
    if let [Some(white), Some(black)] = ips
        && white == black
    {
        counted.one_address = one(
            "SELECT COUNT(*) FROM games WHERE rated = 1 AND created_ms >= ?2 AND id <> ?3
             AND white_ip = ?1 AND black_ip = ?1",
            &[white.into(), since_ms.into(), not.into()],
        )?;
    }
    Ok(counted)
}

/// The games asked rated but played unrated, newest first, at most `limit`: id, names, why,
/// when created, each seat's address while kept.
pub(super) fn unrated(conn: &mut impl Sql, limit: usize) -> Result<Vec<UnratedRow>, StoreError> {
    const UNRATED: Columns = Columns(&[
        "id",
        "white_name",
        "black_name",
        "unrated",
        "created_ms",
        "white_ip",
        "black_ip",
    ]);
    conn.query(
        &format!(
            "SELECT {} FROM games WHERE unrated IS NOT NULL ORDER BY created_ms DESC
             LIMIT {limit}",
            UNRATED.list()
        ),
        &[],
    )?
    .iter()
    .map(|row| {
        let row = UNRATED.of(row);
        Ok(UnratedRow {
            game: row.text("id")?,
            names: [row.opt_text("white_name")?, row.opt_text("black_name")?],
            why: row.text("unrated")?,
            created_ms: row.opt_int("created_ms")?.unwrap_or(0) as u64,
            ips: [row.opt_text("white_ip")?, row.opt_text("black_ip")?],
        })
    })
    .collect()
}

/// A game asked rated but played unrated, for the operator.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct UnratedRow {
    /// Its id.
    pub game: String,
    /// White's and Black's names.
    pub names: [Option<String>; 2],
    /// Why: an [`crate::wire::Unrated`] word.
    pub why: String,
    /// When it was created, in milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// White's and Black's addresses, while kept.
    pub ips: [Option<String>; 2],
}

/// One finished game of a player's list, as its row keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ListedRow {
    /// The game's id.
    pub game: String,
    /// Its summary's JSON.
    pub summary: String,
    /// When it ended, in milliseconds since the Unix epoch.
    pub ended_ms: u64,
}

/// Where a page of a player's games starts: before the game `before` (one of the player's
/// finished games), or from the newest.
fn list_start(
    conn: &mut impl Sql,
    name: &str,
    before: Option<&str>,
    unlisted: bool,
) -> Result<Option<(i64, String)>, StoreError> {
    let Some(before) = before else {
        return Ok(Some((i64::MAX, String::new())));
    };
    conn.query_one(
        "SELECT ended_ms FROM games WHERE id = ?1 AND over = 1 AND record IS NOT NULL
         AND summary IS NOT NULL AND (white_name = ?2 OR black_name = ?2)
         AND (listed = 1 OR ?3 = 1)",
        &[before.into(), name.into(), unlisted.into()],
    )?
    .map(|row| Ok((row.only_int()?, before.to_owned())))
    .transpose()
}

/// Player `name`'s finished games (those with a record: never an aborted one, never one in
/// play; unlisted ones only with `unlisted`, for the player itself), newest first, at most
/// `limit`, after `before` if given; `None` if `before` is not one of them. Each seat's index
/// of ended games answers it in `limit` steps.
pub(super) fn player_games(
    conn: &mut impl Sql,
    name: &str,
    before: Option<&str>,
    (limit, unlisted): (usize, bool),
) -> Result<Option<Vec<ListedRow>>, StoreError> {
    let Some((ended_ms, id)) = list_start(conn, name, before, unlisted)? else {
        return Ok(None);
    };
    const LISTED: Columns = Columns(&["id", "summary", "ended_ms"]);
    let dialect = conn.dialect();
    let seat = |column: &str| {
        format!(
            "SELECT {columns} FROM games{indexed}
             WHERE {column} = ?1 AND over = 1 AND record IS NOT NULL AND summary IS NOT NULL
             AND (ended_ms < ?2 OR (ended_ms = ?2 AND id < ?3)) AND (listed = 1 OR ?5 = 1)",
            columns = LISTED.list(),
            indexed = dialect.indexed_by(&format!("games_{column}")),
        )
    };
    let sql = format!(
        "SELECT * FROM ({white} ORDER BY ended_ms DESC, id DESC LIMIT ?4) AS w
         UNION ALL SELECT * FROM ({black} ORDER BY ended_ms DESC, id DESC LIMIT ?4) AS b
         ORDER BY 3 DESC, 1 DESC LIMIT ?4",
        white = seat("white_name"),
        black = seat("black_name"),
    );
    conn.query(
        &sql,
        &[
            name.into(),
            ended_ms.into(),
            id.into(),
            (limit as i64).into(),
            unlisted.into(),
        ],
    )?
    .iter()
    .map(|row| {
        let row = LISTED.of(row);
        Ok(ListedRow {
            game: row.text("id")?,
            summary: row.text("summary")?,
            ended_ms: row.count("ended_ms")?,
        })
    })
    .collect::<Result<Vec<_>, StoreError>>()
    .map(Some)
}

/// A game that could not be read back: its id and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    /// The game.
    pub game: String,
    /// What could not be read.
    pub reason: String,
}

/// Every unfinished game, and each one that could not be read (marked quarantined, so that
/// it is left out from then on; the others start).
pub(super) fn load_unfinished(
    conn: &mut impl Sql,
    owner: Option<&str>,
) -> Result<(Vec<Saved>, Vec<Unreadable>), StoreError> {
    let ids: Vec<String> = match owner {
        None => conn
            .query(
                "SELECT id FROM games WHERE over = 0 AND quarantined IS NULL",
                &[],
            )?
            .iter()
            .map(Row::only_text)
            .collect::<Result<_, _>>()?,
        // One node of several: its own games.
        Some(node) => super::lease::owned(conn, node)?,
    };
    let (mut games, mut unreadable) = (Vec::new(), Vec::new());
    for id in ids {
        match load(conn, &id) {
            Ok(Some(saved)) => games.push(saved),
            Ok(None) => {}
            Err(e) => unreadable.push(Unreadable {
                game: id,
                reason: e.to_string(),
            }),
        }
    }
    for game in &unreadable {
        quarantine(conn, &game.game, &game.reason)?;
    }
    Ok((games, unreadable))
}

/// Whether a finished game ended before `cut_ms` (milliseconds since the Unix epoch): one
/// look in the index of ended games.
pub(super) fn any_ended_before(conn: &mut impl Sql, cut_ms: u64) -> Result<bool, StoreError> {
    Ok(conn
        .query_one(
            "SELECT 1 FROM games WHERE over = 1 AND ended_ms < ?1 LIMIT 1",
            &[cut_ms.into()],
        )?
        .is_some())
}

/// Marks `game` quarantined, saying why.
pub(super) fn quarantine(conn: &mut impl Sql, game: &str, reason: &str) -> Result<(), StoreError> {
    conn.execute(
        "UPDATE games SET quarantined = ?2 WHERE id = ?1",
        &[game.into(), reason.into()],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_groups_events_go_in_at_most_four_kinds_of_insert_and_all_arrive_in_order() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE events (game TEXT, v INTEGER, body TEXT, PRIMARY KEY (game, v))",
        )
        .unwrap();
        for n in [0_u64, 1, 3, 5, 64, 85, 150] {
            let game = format!("g{n}");
            let rows = (1..=n)
                .map(|v| {
                    [
                        Value::from(&game),
                        v.into(),
                        format!("{{\"n\":{v}}}").into(),
                    ]
                })
                .collect();
            insert_events(&mut conn, rows).unwrap();
            let stored = Sql::query(
                &mut conn,
                "SELECT v, body FROM events WHERE game = ?1 ORDER BY v",
                &[game.as_str().into()],
            )
            .unwrap();
            assert_eq!(stored.len() as u64, n);
            for (i, row) in stored.iter().enumerate() {
                let v = i as i64 + 1;
                assert_eq!(
                    (row.int(0).unwrap(), row.text(1).unwrap()),
                    (v, format!("{{\"n\":{v}}}"))
                );
            }
        }
        // 64 + 16 + 4 + 1 = 85 rows in four statements, each of a size the list names.
        assert_eq!(EVENT_CHUNKS.iter().sum::<usize>(), 85);
        assert_eq!(
            events_insert(2),
            "INSERT INTO events (game, v, body) VALUES (?1, ?2, ?3), (?4, ?5, ?6)"
        );
    }
}
