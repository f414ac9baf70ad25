//! Players as the database keeps them: their rows (registered, what they share, their
//! results, ratings and strikes), read back whole, and each rated game's change of rating
//! (`rating_history`). A game's end is settled here, inside the transaction that ends it:
//! each result counted, the ratings moved by [`crate::rating::settle`] from the rows locked,
//! the strikes it earns.

use super::lease::{self, Fence, PLAYERS_CHANNEL};
use super::sql::{Columns, Row, Sql, Value};
use super::values::{Committed, GameResult, PlayerRow, Settlement, Sharing, StoreError, TokenRow};
use crate::rating::glicko::Glicko;
use crate::wire::Scope;

/// A write to the players' rows.
#[derive(Debug, Clone)]
pub enum PlayerWrite {
    /// A new player (or one of the server's bots, with no key).
    Register {
        /// The name as registered.
        name: String,
        /// The SHA-256 of its key.
        key: Option<String>,
        /// Whether it is a bot (a server bot, or a bot account).
        bot: bool,
        /// A bot account's description.
        description: Option<String>,
        /// When, in milliseconds since the Unix epoch.
        created_ms: u64,
    },
    /// What a player agreed to share.
    Sharing {
        /// The player's name.
        name: String,
        /// What it shares.
        sharing: Sharing,
    },
    /// A token the player minted.
    Mint {
        /// The player's name.
        name: String,
        /// The token (its secret's digest only).
        token: TokenRow,
    },
    /// A code that links another device to the player, until `expires_ms` (its other
    /// codes are forgotten).
    Link {
        /// The player's name.
        name: String,
        /// The code's SHA-256.
        digest: String,
        /// When it lapses, in milliseconds since the Unix epoch.
        expires_ms: u64,
    },
    /// A link code redeemed at `now_ms`: the code is used up, and the new device's token
    /// (with [`Scope::Device`]) minted for its player, in one transaction (refused as
    /// [`StoreError::Refused`] for a code that is not there or has lapsed).
    Redeem {
        /// The code's SHA-256.
        digest: String,
        /// The device's token.
        token: TokenRow,
        /// When.
        now_ms: u64,
    },
    /// A token the player revoked.
    Revoke {
        /// The player's name.
        name: String,
        /// The token's id.
        id: String,
    },
}

/// Applies `write`; with a `fence` (several nodes) the others are told of a new player.
pub(super) fn apply(
    conn: &mut impl Sql,
    write: &PlayerWrite,
    committed: &mut Committed,
    fence: Option<&Fence>,
) -> Result<(), StoreError> {
    match write {
        PlayerWrite::Register {
            name,
            key,
            bot,
            description,
            created_ms,
        } => {
            let skeleton = crate::wire::skeleton(name);
            let taken = conn.query_one(
                "SELECT 1 FROM players WHERE skeleton = ?1",
                &[(&skeleton).into()],
            )?;
            if taken.is_some() {
                return Err(StoreError::LookAlike);
            }
            conn.execute(
                "INSERT INTO players (name, folded, key, bot, created_ms, skeleton, description)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                &[
                    name.into(),
                    name.to_ascii_lowercase().into(),
                    key.clone().into(),
                    (*bot).into(),
                    (*created_ms).into(),
                    skeleton.into(),
                    description.clone().into(),
                ],
            )?;
            if fence.is_some() {
                lease::notify(conn, PLAYERS_CHANNEL, name)?;
            }
        }
        PlayerWrite::Mint { name, token } => {
            // The cap is the database's: two mints at once (here, or at two nodes) are
            // counted in order, whatever memory held when each was asked.
            let held = conn
                .query_one(
                    "SELECT COUNT(*) FROM tokens WHERE player = ?1",
                    &[name.into()],
                )?
                .map(|row| row.only_int())
                .transpose()?
                .unwrap_or(0);
            if held >= crate::wire::MAX_TOKENS as i64 {
                return Err(StoreError::Refused("tokens"));
            }
            conn.execute(
                "INSERT INTO tokens (id, player, digest, scopes, label, created_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                &[
                    (&token.id).into(),
                    name.into(),
                    (&token.digest).into(),
                    scopes_text(&token.scopes).into(),
                    token.label.clone().into(),
                    token.created_ms.into(),
                ],
            )?;
            if fence.is_some() {
                lease::notify(conn, PLAYERS_CHANNEL, name)?;
            }
        }
        PlayerWrite::Link {
            name,
            digest,
            expires_ms,
        } => {
            // One code at a time: a new one replaces the player's others.
            conn.execute("DELETE FROM links WHERE player = ?1", &[name.into()])?;
            conn.execute(
                "INSERT INTO links (digest, player, expires_ms) VALUES (?1, ?2, ?3)",
                &[digest.into(), name.into(), (*expires_ms).into()],
            )?;
        }
        PlayerWrite::Redeem {
            digest,
            token,
            now_ms,
        } => {
            let Some(row) = conn.query_one(
                "SELECT player FROM links WHERE digest = ?1 AND expires_ms > ?2",
                &[digest.into(), (*now_ms).into()],
            )?
            else {
                return Err(StoreError::Refused("link code"));
            };
            let name = row.only_text()?;
            conn.execute("DELETE FROM links WHERE digest = ?1", &[digest.into()])?;
            let mint = PlayerWrite::Mint {
                name: name.clone(),
                token: token.clone(),
            };
            apply(conn, &mint, committed, fence)?;
            if let Some(row) = player(conn, &name)? {
                committed.players.push(row);
            }
        }
        PlayerWrite::Revoke { name, id } => {
            conn.execute(
                "DELETE FROM tokens WHERE id = ?1 AND player = ?2",
                &[id.into(), name.into()],
            )?;
            if fence.is_some() {
                lease::notify(conn, PLAYERS_CHANNEL, name)?;
            }
        }
        PlayerWrite::Sharing { name, sharing } => {
            conn.execute(
                "UPDATE players SET share_games = ?2, share_names = ?3 WHERE folded = ?1",
                &[
                    name.to_ascii_lowercase().into(),
                    sharing.games.into(),
                    sharing.names.into(),
                ],
            )?;
        }
    }
    Ok(())
}

/// The columns [`player_row`] reads.
const PLAYER: Columns = Columns(&[
    "name",
    "key",
    "bot",
    "rating",
    "rd",
    "volatility",
    "games",
    "won",
    "lost",
    "drawn",
    "strikes",
    "strike_ms",
    "bans",
    "banned_until_ms",
    "description",
    "share_games",
    "share_names",
    "moderator",
    "chat_until_ms",
    "muted",
    "closed",
]);

/// A player from a row of [`PLAYER`]'s columns.
fn player_row(row: &Row) -> Result<PlayerRow, StoreError> {
    let row = PLAYER.of(row);
    Ok(PlayerRow {
        name: row.text("name")?,
        key: row.opt_text("key")?,
        bot: row.flag("bot")?,
        rating: row.real("rating")?,
        rd: row.real("rd")?,
        volatility: row.real("volatility")?,
        games: row.count("games")?,
        won: row.count("won")?,
        lost: row.count("lost")?,
        drawn: row.count("drawn")?,
        playban: crate::rating::playban::Record {
            strikes: row.count("strikes")?,
            strike_ms: row.opt_int("strike_ms")?.map(|ms| ms as u64),
            bans: row.count("bans")?,
            banned_until_ms: row.opt_int("banned_until_ms")?.map(|ms| ms as u64),
        },
        description: row.opt_text("description")?,
        sharing: Sharing {
            games: row.flag("share_games")?,
            names: row.flag("share_names")?,
        },
        tokens: Vec::new(),
        moderator: row.flag("moderator")?,
        standing: super::values::Standing {
            chat_until_ms: row.opt_int("chat_until_ms")?.map(|ms| ms as u64),
            muted: row.flag("muted")?,
            closed: row.flag("closed")?,
        },
    })
}

/// Every player, as its row holds it, with its tokens.
pub(super) fn players(conn: &mut impl Sql) -> Result<Vec<PlayerRow>, StoreError> {
    let mut rows: Vec<PlayerRow> = conn
        .query(&format!("SELECT {} FROM players", PLAYER.list()), &[])?
        .iter()
        .map(player_row)
        .collect::<Result<_, _>>()?;
    let mut tokens: std::collections::HashMap<String, Vec<TokenRow>> = Default::default();
    for (player, token) in token_rows(conn, None)? {
        tokens.entry(player).or_default().push(token);
    }
    for row in &mut rows {
        row.tokens = tokens.remove(&row.name).unwrap_or_default();
    }
    Ok(rows)
}

/// The player `name` as its row holds it now, with its tokens.
pub(super) fn player(conn: &mut impl Sql, name: &str) -> Result<Option<PlayerRow>, StoreError> {
    let Some(mut row) = conn
        .query_one(
            &format!("SELECT {} FROM players WHERE name = ?1", PLAYER.list()),
            &[name.into()],
        )?
        .map(|row| player_row(&row))
        .transpose()?
    else {
        return Ok(None);
    };
    row.tokens = token_rows(conn, Some(name))?
        .into_iter()
        .map(|(_, token)| token)
        .collect();
    Ok(Some(row))
}

/// The columns [`token_rows`] reads.
const TOKEN: Columns = Columns(&["id", "player", "digest", "scopes", "label", "created_ms"]);

/// Every token (of player `name` only, with one), oldest first, with its player's name.
fn token_rows(
    conn: &mut impl Sql,
    name: Option<&str>,
) -> Result<Vec<(String, TokenRow)>, StoreError> {
    let select = format!("SELECT {} FROM tokens", TOKEN.list());
    let rows = match name {
        Some(name) => conn.query(
            &format!("{select} WHERE player = ?1 ORDER BY created_ms, id"),
            &[name.into()],
        )?,
        None => conn.query(&format!("{select} ORDER BY created_ms, id"), &[])?,
    };
    rows.iter()
        .map(|row| {
            let row = TOKEN.of(row);
            let token = TokenRow {
                id: row.text("id")?,
                digest: row.text("digest")?,
                scopes: scopes_of(&row.text("scopes")?)?,
                label: row.opt_text("label")?,
                created_ms: row.count("created_ms")?,
            };
            Ok((row.text("player")?, token))
        })
        .collect()
}

/// A token's scopes as its row keeps them: their words, separated by spaces.
fn scopes_text(scopes: &[Scope]) -> String {
    let words: Vec<&str> = scopes.iter().map(|scope| scope.word()).collect();
    words.join(" ")
}

/// The scopes of a token's row.
fn scopes_of(text: &str) -> Result<Vec<Scope>, StoreError> {
    text.split_whitespace()
        .map(|word| {
            Scope::ALL
                .into_iter()
                .find(|scope| scope.word() == word)
                .ok_or_else(|| StoreError::Corrupt(format!("a token's scope {word:?}")))
        })
        .collect()
}

/// Player `name`'s row, locked until the transaction ends (on PostgreSQL, where another
/// server may end another game of the same player at once), its key left out (memory keeps
/// the key it has).
fn locked(conn: &mut impl Sql, name: &str) -> Result<PlayerRow, StoreError> {
    let read = format!(
        "SELECT {} FROM players WHERE name = ?1{}",
        PLAYER.list(),
        conn.dialect().for_update()
    );
    let row = conn
        .query_one(&read, &[name.into()])?
        .ok_or_else(|| StoreError::Corrupt(format!("no player {name}")))?;
    Ok(PlayerRow {
        key: None,
        ..player_row(&row)?
    })
}

/// Settles game `game`'s end in its players' rows: each result counted and, for a rated
/// game, both ratings moved from the rows' values before it (each change kept in
/// `rating_history`); each strike it earns. Notes the rows as they end up.
pub(super) fn settle(
    conn: &mut impl Sql,
    (game, ended): (&str, &Settlement),
    committed: &mut Committed,
) -> Result<(), StoreError> {
    for (name, result) in &ended.results {
        let one = |r| Value::from(*result == r);
        conn.execute(
            "UPDATE players SET games = games + 1, won = won + ?2, lost = lost + ?3,
             drawn = drawn + ?4 WHERE name = ?1",
            &[
                name.into(),
                one(GameResult::Won),
                one(GameResult::Lost),
                one(GameResult::Drawn),
            ],
        )?;
    }
    let mut rows = Vec::with_capacity(ended.results.len());
    for (name, _) in &ended.results {
        rows.push(locked(conn, name)?);
    }
    if let ([(_, result), _], [first, second]) = (ended.results.as_slice(), rows.as_mut_slice())
        && ended.rated
    {
        let (a, b) = crate::rating::settle(glicko(first), glicko(second), *result);
        for (row, after) in [(first, a), (second, b)] {
            rate(conn, (game, ended.ended_ms), row, after)?;
        }
    }
    committed.players.extend(rows);
    for name in &ended.strikes {
        committed.players.push(strike(conn, name, ended.ended_ms)?);
    }
    Ok(())
}

/// Moves `row`'s rating to `after` for game `game` (ended at `ended_ms`), kept in
/// `rating_history` from its value before.
fn rate(
    conn: &mut impl Sql,
    (game, ended_ms): (&str, u64),
    row: &mut PlayerRow,
    after: Glicko,
) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO rating_history (game, name, rating_before, rating_after, ended_ms)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        &[
            game.into(),
            (&row.name).into(),
            row.rating.into(),
            after.rating.into(),
            ended_ms.into(),
        ],
    )?;
    conn.execute(
        "UPDATE players SET rating = ?2, rd = ?3, volatility = ?4 WHERE name = ?1",
        &[
            (&row.name).into(),
            after.rating.into(),
            after.rd.into(),
            after.volatility.into(),
        ],
    )?;
    (row.rating, row.rd, row.volatility) = (after.rating, after.rd, after.volatility);
    Ok(())
}

/// One more strike for player `name` at `now_ms` (a ban if it is one too many): its row after.
fn strike(conn: &mut impl Sql, name: &str, now_ms: u64) -> Result<PlayerRow, StoreError> {
    let mut row = locked(conn, name)?;
    row.playban = row.playban.struck(now_ms);
    let p = row.playban;
    conn.execute(
        "UPDATE players SET strikes = ?2, strike_ms = ?3, bans = ?4, banned_until_ms = ?5
         WHERE name = ?1",
        &[
            name.into(),
            p.strikes.into(),
            p.strike_ms.into(),
            p.bans.into(),
            p.banned_until_ms.into(),
        ],
    )?;
    Ok(row)
}

/// A player's rating, deviation and volatility as its row holds them.
fn glicko(row: &PlayerRow) -> Glicko {
    Glicko {
        rating: row.rating,
        rd: row.rd,
        volatility: row.volatility,
    }
}

/// A rated game's change of one player's rating, as `rating_history` keeps it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub(crate) struct RatingChange {
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

/// Whose rating changes to read: one player's newest, or those of some games.
#[derive(Debug, Clone)]
pub(crate) enum RatingsOf {
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

/// The columns [`rating_change`] reads.
const CHANGE: Columns = Columns(&["game", "name", "rating_before", "rating_after", "ended_ms"]);

fn rating_change(row: &Row) -> Result<RatingChange, StoreError> {
    let row = CHANGE.of(row);
    Ok(RatingChange {
        game: row.text("game")?,
        name: row.text("name")?,
        before: row.real("rating_before")?,
        after: row.real("rating_after")?,
        ended_ms: row.count("ended_ms")?,
    })
}

/// The rating changes of player `name` (its `limit` newest, newest first), or, with
/// `games`, every change those games made (a page of a list).
pub(super) fn rating_changes(
    conn: &mut impl Sql,
    of: RatingsOf,
) -> Result<Vec<RatingChange>, StoreError> {
    let select = format!("SELECT {} FROM rating_history", CHANGE.list());
    let rows = match of {
        RatingsOf::Player { name, limit } => conn.query(
            &format!("{select} WHERE name = ?1 ORDER BY ended_ms DESC, game DESC LIMIT {limit}"),
            &[name.into()],
        )?,
        RatingsOf::Games(games) if games.is_empty() => Vec::new(),
        RatingsOf::Games(games) => {
            let marks: Vec<String> = (1..=games.len()).map(|i| format!("?{i}")).collect();
            let values: Vec<Value> = games.iter().map(Value::from).collect();
            conn.query(
                &format!("{select} WHERE game IN ({})", marks.join(", ")),
                &values,
            )?
        }
    };
    rows.iter().map(rating_change).collect()
}
