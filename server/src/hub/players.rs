//! Players: a name and a secret key (kept only as its SHA-256), a profile with counts. The
//! players are held in memory (the database's `players` table, read at start) so that a
//! request's key is checked without touching the disk; a new player is written before its
//! key is sent.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;

use super::{Hub, HubError, lock};
use crate::rating::{self, INITIAL_RATING, INITIAL_RD, INITIAL_VOLATILITY};
use crate::secret::{self, TOKEN_BYTES};
use crate::store::{ListedRow, PlayerRow, Write};
use crate::wire::{
    BOT_PREFIX, Code, GAMES_LISTED, GameList, LEADERBOARD_SIZE, Leaderboard, Listed,
    MAX_GAMES_LISTED, Names, Profile, Ranked, Refusal, RegisterReply, RegisterRequest, StatusWords,
    valid_name,
};

/// Every player, by name folded to lower case, and by the digest of its key.
#[derive(Default)]
pub(super) struct Players {
    by_name: HashMap<String, PlayerRow>,
    by_key: HashMap<String, String>,
}

fn fold(name: &str) -> String {
    name.to_ascii_lowercase()
}

impl Players {
    pub(super) fn new(rows: Vec<PlayerRow>) -> Players {
        let mut players = Players::default();
        for row in rows {
            players.insert(row);
        }
        players
    }

    fn insert(&mut self, row: PlayerRow) {
        let folded = fold(&row.name);
        if let Some(key) = &row.key {
            self.by_key.insert(key.clone(), folded.clone());
        }
        self.by_name.insert(folded, row);
    }

    fn remove(&mut self, name: &str) {
        if let Some(row) = self.by_name.remove(&fold(name))
            && let Some(key) = row.key
        {
            self.by_key.remove(&key);
        }
    }

    /// The player named `name`, in any case.
    pub(super) fn get(&self, name: &str) -> Option<&PlayerRow> {
        self.by_name.get(&fold(name))
    }

    /// The name of the player whose key is `key`: found by the key's digest, then compared
    /// in constant time.
    fn by_key(&self, key: &str) -> Option<String> {
        let digest = secret::digest(key);
        let row = self.by_name.get(self.by_key.get(&digest)?)?;
        let stored = row.key.as_deref()?;
        secret::matches(key, stored).then(|| row.name.clone())
    }

    /// Takes `row` as the database holds it now (another node changed it): a new player, or
    /// newer counts and ratings.
    pub(super) fn upsert(&mut self, row: PlayerRow) {
        match self.by_name.get_mut(&fold(&row.name)) {
            Some(held) if row.games >= held.games => *held = row,
            Some(_) => {}
            None => self.insert(row),
        }
    }

    /// Takes the rows a committed game's end left (counts and ratings), each only if it is
    /// newer than the one held (more games): two games' ends committed in one order and
    /// handed over in the other leave the later.
    pub(super) fn update(&mut self, rows: Vec<PlayerRow>) {
        for row in rows {
            if let Some(held) = self.by_name.get_mut(&fold(&row.name))
                && row.games > held.games
            {
                *held = PlayerRow {
                    key: held.key.take(),
                    ..row
                };
            }
        }
    }
}

/// A player's rating as a whole number, as the contract shows it.
pub(super) fn rounded(value: f64) -> i64 {
    value.round() as i64
}

impl Hub {
    /// `POST /api/players` from `ip`.
    ///
    /// # Errors
    /// [`HubError::BadName`], [`HubError::NameTaken`] (in any case, or a bot's prefix),
    /// [`HubError::TooManyPlayers`] past the address's players an hour, or the database's.
    pub async fn register(
        self: &Arc<Hub>,
        request: RegisterRequest,
        ip: IpAddr,
    ) -> Result<RegisterReply, HubError> {
        let name = request.name;
        if !valid_name(&name) {
            return Err(HubError::BadName);
        }
        if fold(&name).starts_with(BOT_PREFIX) {
            return Err(HubError::NameTaken);
        }
        // One node of several: the address's registrations at every node count.
        let limit = self.config.limits.players_per_hour;
        if self
            .store
            .arrivals_last_hour("player", ip)
            .await?
            .is_some_and(|made| made >= limit as u64)
        {
            return Err(HubError::TooManyPlayers(limit));
        }
        let key = secret::random_hex(&*self.entropy, TOKEN_BYTES);
        let digest = secret::digest(&key);
        {
            let mut players = lock(&self.players);
            if players.get(&name).is_some() {
                return Err(HubError::NameTaken);
            }
            self.quotas
                .take_player(ip, self.config.limits.players_per_hour)?;
            players.insert(PlayerRow {
                name: name.clone(),
                key: Some(digest.clone()),
                bot: false,
                rating: INITIAL_RATING,
                rd: INITIAL_RD,
                volatility: INITIAL_VOLATILITY,
                games: 0,
                won: 0,
                lost: 0,
                drawn: 0,
            });
        }
        let created_ms = crate::clock::unix_ms();
        let write = Write::Player {
            name: name.clone(),
            key: Some(digest),
            bot: false,
            created_ms,
        };
        let arrival = Write::Arrival {
            kind: "player",
            ip,
            at_ms: created_ms,
        };
        if let Err(e) = self.store.write(vec![write, arrival]).await {
            lock(&self.players).remove(&name);
            // Another node registered the name first.
            if e.is_conflict() {
                return Err(HubError::NameTaken);
            }
            return Err(e.into());
        }
        Ok(RegisterReply { name, key })
    }

    /// The player a request's `Authorization` header names: `None` without the header.
    ///
    /// # Errors
    /// [`HubError::BadKey`] for a header that is not `Bearer KEY` with a player's key: one
    /// reply for every kind of wrong key.
    pub fn player_of(&self, authorization: Option<&str>) -> Result<Option<String>, HubError> {
        let Some(header) = authorization else {
            return Ok(None);
        };
        let key = header.strip_prefix("Bearer ").ok_or(HubError::BadKey)?;
        self.player_by_key(key.trim()).map(Some)
    }

    /// The name of the player whose key is `key`.
    ///
    /// # Errors
    /// [`HubError::BadKey`] for anything but a player's key.
    pub fn player_by_key(&self, key: &str) -> Result<String, HubError> {
        lock(&self.players).by_key(key).ok_or(HubError::BadKey)
    }

    /// `GET /api/players/{name}`.
    ///
    /// # Errors
    /// [`HubError::NotFound`] for an unknown name.
    pub fn profile(&self, name: &str) -> Result<Profile, HubError> {
        let players = lock(&self.players);
        let row = players.get(name).ok_or(HubError::NotFound)?;
        Ok(Profile {
            name: row.name.clone(),
            bot: row.bot,
            rating: rounded(row.rating),
            rd: rounded(row.rd),
            provisional: rating::provisional(row.rd),
            title: rating::title(row.rating, row.rd).to_owned(),
            games: row.games,
            won: row.won,
            lost: row.lost,
            drawn: row.drawn,
        })
    }

    /// A player's rating and deviation, for the lobby and the pool (a new player's if
    /// unknown).
    pub(super) fn rating_of(&self, name: &str) -> (f64, f64) {
        lock(&self.players)
            .get(name)
            .map_or((INITIAL_RATING, INITIAL_RD), |row| (row.rating, row.rd))
    }
}

impl Hub {
    /// `GET /api/players/{name}/games`: a page of the player's finished games, newest first;
    /// `limit` (default [`GAMES_LISTED`], at most [`MAX_GAMES_LISTED`]) and `before` (a game
    /// of the list: the page starts after it) as the query gives them.
    ///
    /// # Errors
    /// [`HubError::NotFound`] for no such player; [`HubError::Invalid`] for a `limit` that
    /// is not 1 to 100 or a `before` that is not one of the player's finished games (the same
    /// reply whether that game is in play, someone else's or none).
    pub async fn player_games(
        &self,
        name: &str,
        limit: Option<&str>,
        before: Option<&str>,
    ) -> Result<GameList, HubError> {
        let name = lock(&self.players)
            .get(name)
            .map(|row| row.name.clone())
            .ok_or(HubError::NotFound)?;
        let limit = match limit {
            None => GAMES_LISTED,
            Some(text) => text
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=MAX_GAMES_LISTED).contains(n))
                .ok_or_else(|| {
                    HubError::Invalid(Refusal::new(
                        Code::BadMessage,
                        format!("limit must be a whole number from 1 to {MAX_GAMES_LISTED}"),
                    ))
                })?,
        };
        let rows = self
            .store
            .player_games(&name, before, limit)
            .await?
            .ok_or_else(|| {
                HubError::Invalid(Refusal::new(
                    Code::BadMessage,
                    format!("before must be one of {name}'s finished games"),
                ))
            })?;
        let games = rows.into_iter().filter_map(listed).collect();
        Ok(GameList { games })
    }

    /// `GET /api/leaderboard`: the players whose ratings are not provisional, highest first
    /// (of equal ratings the lower deviation, then the name), at most [`LEADERBOARD_SIZE`].
    #[must_use]
    pub fn leaderboard(&self) -> Leaderboard {
        let players = lock(&self.players);
        let mut rated: Vec<&PlayerRow> = players
            .by_name
            .values()
            .filter(|row| !rating::provisional(row.rd))
            .collect();
        let order = |a: &&PlayerRow, b: &&PlayerRow| {
            b.rating
                .total_cmp(&a.rating)
                .then(a.rd.total_cmp(&b.rd))
                .then_with(|| a.name.cmp(&b.name))
        };
        if rated.len() > LEADERBOARD_SIZE {
            rated.select_nth_unstable_by(LEADERBOARD_SIZE - 1, order);
            rated.truncate(LEADERBOARD_SIZE);
        }
        rated.sort_unstable_by(order);
        Leaderboard {
            players: rated
                .into_iter()
                .map(|row| Ranked {
                    name: row.name.clone(),
                    bot: row.bot,
                    rating: rounded(row.rating),
                    rd: rounded(row.rd),
                    games: row.games,
                    title: rating::title(row.rating, row.rd).to_owned(),
                })
                .collect(),
        }
    }
}

/// A listed game from its row: the names, status, rating flag and plies its summary keeps.
fn listed(row: ListedRow) -> Option<Listed> {
    #[derive(serde::Deserialize)]
    struct Kept {
        names: Names,
        status: StatusWords,
        rated: bool,
        ply: u64,
    }
    let kept: Kept = serde_json::from_str(&row.summary).ok()?;
    Some(Listed {
        game: row.game,
        names: kept.names,
        status: kept.status,
        rated: kept.rated,
        plies: kept.ply,
        ended_ms: row.ended_ms,
    })
}
