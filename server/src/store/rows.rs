//! Reading games back: a game's row and events, a finished game's summary and record, and
//! every unfinished game at start (a game that cannot be read is quarantined, not fatal).

use salpakan::commitment::Salt;
use salpakan::{Rules, Side};

use super::sql::{Row, Sql, Value};
use super::{Ending, PlayerRow, StoreError};
use crate::clock::ClockSettings;
use crate::room::{Event, Player, Saved, Spec};

const SELECT_GAME: &str = "SELECT id, setup_rows, move_limit, first, white_player, black_player,
    clock_initial_ms, clock_increment_ms, white_token, black_token, invite, bot_seed,
    white_setup, black_setup, created_ms, creator_ip, setup_ms, seated_ms, white_name, black_name,
    rated, listed, white_ip, black_ip, white_salt, black_salt, sealed FROM games";

fn bad(what: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(what.to_string())
}

/// A number of a column that holds one in range.
fn small<T: TryFrom<i64>>(row: &Row, i: usize) -> Result<T, StoreError> {
    let n = row.int(i)?;
    T::try_from(n).map_err(|_| bad(format!("column {i}: {n} is out of range")))
}

/// The two salts from column `i` on: both or none (a game from before commitments).
fn salts(row: &Row, i: usize) -> Result<Option<[Salt; 2]>, StoreError> {
    let salt = |i: usize| -> Result<Option<Salt>, StoreError> {
        row.opt_text(i)?
            .map(|hex| hex.parse::<Salt>().map_err(bad))
            .transpose()
    };
    match (salt(i)?, salt(i + 1)?) {
        (Some(white), Some(black)) => Ok(Some([white, black])),
        (None, None) => Ok(None),
        _ => Err(bad("a game with one salt")),
    }
}

/// A game's row, its events not yet read.
fn read_game(row: &Row) -> Result<Saved, StoreError> {
    let rules = Rules::from_numbers(small(row, 1)?, small(row, 2)?).map_err(bad)?;
    let first = row.text(3)?.parse::<Side>().map_err(bad)?;
    let player =
        |i: usize| -> Result<Player, StoreError> { Player::from_word(&row.text(i)?).map_err(bad) };
    let clock = row.opt_int(6)?.map(|initial| ClockSettings {
        initial_ms: initial as u64,
        increment_ms: row.opt_int(7).ok().flatten().unwrap_or(0) as u64,
    });
    let spec = Spec {
        id: row.text(0)?,
        rules,
        first,
        players: [player(4)?, player(5)?],
        clock,
        tokens: [row.opt_text(8)?, row.opt_text(9)?],
        invite: row.opt_text(10)?,
        bot_seed: row.int(11)? as u64,
        salts: salts(row, 24)?,
        created_ms: row
            .opt_int(14)?
            .map_or_else(crate::clock::unix_ms, |ms| ms as u64),
        setup_ms: row
            .opt_int(16)?
            .map_or(crate::wire::SETUP_MS, |ms| ms as u64),
        seated_ms: row.opt_int(17)?.map(|ms| ms as u64),
        names: [row.opt_text(18)?, row.opt_text(19)?],
        rated: row.int(20)? != 0,
        listed: row.int(21)? != 0,
        sealed: row.int(26)? != 0,
        // Not stored: the games service reads it from the players.
        bot_accounts: [false; 2],
    };
    let ip = |i: usize| -> Result<Option<std::net::IpAddr>, StoreError> {
        Ok(row.opt_text(i)?.and_then(|ip| ip.parse().ok()))
    };
    Ok(Saved {
        spec,
        setups: [row.opt_blob(12)?, row.opt_blob(13)?],
        events: Vec::new(),
        creator: ip(15)?,
        ips: [ip(22)?, ip(23)?],
        chat: crate::room::SavedChat::default(),
    })
}

fn events(conn: &mut impl Sql, game: &str) -> Result<Vec<Event>, StoreError> {
    conn.query(
        "SELECT body FROM events WHERE game = ?1 ORDER BY v",
        &[game.into()],
    )?
    .iter()
    .map(|row| serde_json::from_str(&row.text(0)?).map_err(bad))
    .collect()
}

/// A game as stored, finished or not (`None` for no such game, or a quarantined one).
pub(super) fn load(conn: &mut impl Sql, game: &str) -> Result<Option<Saved>, StoreError> {
    let found = conn.query_one(
        &format!("{SELECT_GAME} WHERE id = ?1 AND quarantined IS NULL"),
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
    conn.query_one(
        "SELECT summary, record, white_token, black_token, invite FROM games
         WHERE id = ?1 AND over = 1 AND quarantined IS NULL",
        &[game.into()],
    )?
    .map(|row| {
        let ending = match row.opt_text(0)? {
            Some(summary) => Some(Ending {
                summary,
                record: row.opt_text(1)?,
            }),
            None => None,
        };
        Ok(Finished {
            ending,
            seats: FinishedSeats {
                tokens: [row.opt_text(2)?, row.opt_text(3)?],
                invite: row.opt_text(4)?,
            },
        })
    })
    .transpose()
}

/// Rated games started since `since_ms` between the players `names` (in either colour), and
/// those each of `ips` took part in; the game `not` left out (the one being decided).
pub(super) fn rated_since(
    conn: &mut impl Sql,
    (names, ips): (&[String; 2], &[Option<String>; 2]),
    since_ms: u64,
    not: &str,
) -> Result<(u64, [u64; 2]), StoreError> {
    let mut one = |sql: &str, args: &[super::sql::Value]| -> Result<u64, StoreError> {
        Ok(conn
            .query_one(sql, args)?
            .map(|row| row.int(0))
            .transpose()?
            .unwrap_or(0) as u64)
    };
    let pair = one(
        "SELECT COUNT(*) FROM games WHERE rated = 1 AND created_ms >= ?3 AND id <> ?4
         AND ((white_name = ?1 AND black_name = ?2) OR (white_name = ?2 AND black_name = ?1))",
        &[
            (&names[0]).into(),
            (&names[1]).into(),
            since_ms.into(),
            not.into(),
        ],
    )?;
    let mut by_ip = [0; 2];
    for (i, ip) in ips.iter().enumerate() {
        if let Some(ip) = ip {
            by_ip[i] = one(
                "SELECT COUNT(*) FROM games WHERE rated = 1 AND created_ms >= ?2 AND id <> ?3
                 AND (white_ip = ?1 OR black_ip = ?1)",
                &[ip.into(), since_ms.into(), not.into()],
            )?;
        }
    }
    Ok((pair, by_ip))
}

/// The games asked rated but played unrated, newest first, at most `limit`: id, names, why,
/// when created, each seat's address while kept.
pub(super) fn unrated(conn: &mut impl Sql, limit: usize) -> Result<Vec<UnratedRow>, StoreError> {
    conn.query(
        &format!(
            "SELECT id, white_name, black_name, unrated, created_ms, white_ip, black_ip
             FROM games WHERE unrated IS NOT NULL ORDER BY created_ms DESC LIMIT {limit}"
        ),
        &[],
    )?
    .iter()
    .map(|row| {
        Ok(UnratedRow {
            game: row.text(0)?,
            names: [row.opt_text(1)?, row.opt_text(2)?],
            why: row.text(3)?,
            created_ms: row.opt_int(4)?.unwrap_or(0) as u64,
            ips: [row.opt_text(5)?, row.opt_text(6)?],
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
    /// Why: `same-address`, `pair-day`, `address-day` or `early`.
    pub why: String,
    /// When it was created, in milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// White's and Black's addresses, while kept.
    pub ips: [Option<String>; 2],
}

/// A rated game's change of one player's rating, as `rating_history` keeps it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RatingChange {
    /// The game.
    pub game: String,
    /// The player.
    pub name: String,
    /// Its rating before the game (unrounded).
    pub before: f64,
    /// Its rating after it.
    pub after: f64,
    /// When the game ended, in milliseconds since the Unix epoch.
    pub ended_ms: u64,
}

fn rating_change(row: &Row) -> Result<RatingChange, StoreError> {
    Ok(RatingChange {
        game: row.text(0)?,
        name: row.text(1)?,
        before: row.real(2)?,
        after: row.real(3)?,
        ended_ms: row.int(4)? as u64,
    })
}

/// The rating changes of player `name` (its `limit` newest, newest first), or, with
/// `games`, every change those games made (a page of a list).
pub(super) fn rating_changes(
    conn: &mut impl Sql,
    of: RatingsOf,
) -> Result<Vec<RatingChange>, StoreError> {
    const COLUMNS: &str =
        "SELECT game, name, rating_before, rating_after, ended_ms FROM rating_history";
    let rows = match of {
        RatingsOf::Player { name, limit } => conn.query(
            &format!("{COLUMNS} WHERE name = ?1 ORDER BY ended_ms DESC, game DESC LIMIT {limit}"),
            &[name.into()],
        )?,
        RatingsOf::Games(games) if games.is_empty() => Vec::new(),
        RatingsOf::Games(games) => {
            let marks: Vec<String> = (1..=games.len()).map(|i| format!("?{i}")).collect();
            let values: Vec<Value> = games.iter().map(Value::from).collect();
            conn.query(
                &format!("{COLUMNS} WHERE game IN ({})", marks.join(", ")),
                &values,
            )?
        }
    };
    rows.iter().map(rating_change).collect()
}

/// Whose rating changes to read: one player's newest, or those of some games.
#[derive(Debug, Clone)]
pub enum RatingsOf {
    /// Player `name`'s `limit` newest.
    Player {
        /// The player.
        name: String,
        /// How many.
        limit: usize,
    },
    /// Every change these games made.
    Games(Vec<String>),
}

/// One finished game of a player's list, as its row keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedRow {
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
    .map(|row| Ok((row.int(0)?, before.to_owned())))
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
    let dialect = conn.dialect();
    let seat = |column: &str| {
        format!(
            "SELECT id, summary, ended_ms FROM games{indexed}
             WHERE {column} = ?1 AND over = 1 AND record IS NOT NULL AND summary IS NOT NULL
             AND (ended_ms < ?2 OR (ended_ms = ?2 AND id < ?3)) AND (listed = 1 OR ?5 = 1)",
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
        Ok(ListedRow {
            game: row.text(0)?,
            summary: row.text(1)?,
            ended_ms: row.int(2)? as u64,
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
            .map(|row| row.text(0))
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

/// The columns [`player_row`] reads, in its order.
pub(super) const PLAYER_COLUMNS: &str = "name, key, bot, rating, rd, volatility, games, won, lost,
    drawn, strikes, strike_ms, bans, banned_until_ms, description, share_games, share_names";

/// A player from a row of [`PLAYER_COLUMNS`].
pub(super) fn player_row(row: &Row) -> Result<PlayerRow, StoreError> {
    Ok(PlayerRow {
        name: row.text(0)?,
        key: row.opt_text(1)?,
        bot: row.int(2)? != 0,
        rating: row.real(3)?,
        rd: row.real(4)?,
        volatility: row.real(5)?,
        games: row.int(6)? as u64,
        won: row.int(7)? as u64,
        lost: row.int(8)? as u64,
        drawn: row.int(9)? as u64,
        playban: crate::rating::playban::Record {
            strikes: row.int(10)? as u64,
            strike_ms: row.opt_int(11)?.map(|ms| ms as u64),
            bans: row.int(12)? as u64,
            banned_until_ms: row.opt_int(13)?.map(|ms| ms as u64),
        },
        description: row.opt_text(14)?,
        sharing: super::Sharing {
            games: row.int(15)? != 0,
            names: row.int(16)? != 0,
        },
    })
}

/// Every player, as its row holds it.
pub(super) fn players(conn: &mut impl Sql) -> Result<Vec<PlayerRow>, StoreError> {
    conn.query(&format!("SELECT {PLAYER_COLUMNS} FROM players"), &[])?
        .iter()
        .map(player_row)
        .collect()
}

/// The player `name` as its row holds it now.
pub(super) fn player(conn: &mut impl Sql, name: &str) -> Result<Option<PlayerRow>, StoreError> {
    conn.query_one(
        &format!("SELECT {} FROM players WHERE name = ?1", PLAYER_COLUMNS),
        &[name.into()],
    )?
    .map(|row| player_row(&row))
    .transpose()
}
