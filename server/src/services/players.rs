//! Players: a name and a secret key (kept only as its SHA-256), a profile with counts, and
//! the list of their finished games. The players are held in memory (the database's
//! `players` table, read at start) so that a request's key is checked without touching the
//! disk; a new player is written before its key is sent.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use thiserror::Error;

use super::quotas::{QuotaError, Quotas};
use crate::rating;
use crate::secret::{self, Entropy, TOKEN_BYTES};
use crate::store::{ListedRow, PlayerRow, RatingsOf, Store, StoreError, TokenRow, Write};
use crate::store::{NodeWrite, PlayerWrite};
use crate::wire::{
    BOT_PREFIX, Bots, Change, Changes, GAMES_LISTED, GameList, HISTORY_SHOWN, LinkCode, Linked,
    Listed, MAX_GAMES_LISTED, MAX_LABEL, MAX_TOKENS, Names, Profile, Rated, RedeemRequest,
    RegisterReply, RegisterRequest, Scope, StatusWords, TokenEntry, TokenList, TokenReply,
    TokenRequest, skeleton, valid_name,
};

/// Why a request about players was refused.
#[derive(Debug, Error)]
pub(crate) enum PlayerError {
    /// A name the contract does not allow.
    #[error("a name is 3 to 20 characters from A-Z a-z 0-9 _ -")]
    BadName,
    /// A name taken, or one that reads as another's or as a bot's.
    #[error("that name is taken, or reads as one that is")]
    NameTaken,
    /// A missing or wrong player key, the same reply for every kind of wrong key.
    #[error("a player's key is needed, and this is not one")]
    BadKey,
    /// No such player.
    #[error("no such player")]
    NotFound,
    /// A list's `limit` that is not 1 to 100.
    #[error("limit must be a whole number from 1 to {MAX_GAMES_LISTED}")]
    BadLimit,
    /// A list's `before` that is not one of the player's finished games.
    #[error("before must be one of {0}'s finished games")]
    BadBefore(String),
    /// A token whose scopes do not cover the request (it needs one of these; none: only the
    /// player's key may make it).
    #[error("{}", out_of_scope(.0))]
    OutOfScope(&'static [Scope]),
    /// An account a moderator closed.
    #[error("a moderator closed this account: see GET /api/moderation, and appeal there")]
    Closed,
    /// A token's request the service refuses: no scope, one twice, a label too long.
    #[error("{0}")]
    BadToken(&'static str),
    /// The player holds as many tokens as it may.
    #[error("at most {MAX_TOKENS} tokens: revoke one first")]
    TooManyTokens,
    /// A description refused (a person's, or one too long).
    #[error("{0}")]
    BadDescription(&'static str),
    /// The player aborted or resigned early too often: banned for this many more minutes.
    #[error("you aborted or resigned early too often: the lobby pairs you again in {0} minutes")]
    Banned(u64),
    /// Past the address's players an hour.
    #[error(transparent)]
    Quota(#[from] QuotaError),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

fn out_of_scope(opens: &[Scope]) -> String {
    if opens.is_empty() {
        return "only the player's key may do that, not a token".to_owned();
    }
    let words: Vec<&str> = opens.iter().map(|scope| scope.word()).collect();
    format!(
        "this needs a token with one of the scopes {}",
        words.join(", ")
    )
}

/// Who a request is made as: a player, by its key (which may do everything) or by one of
/// its tokens (which may do what its scopes name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Principal {
    /// The player's name.
    pub name: String,
    /// The token's scopes; `None` for the key.
    pub scopes: Option<Vec<Scope>>,
}

impl Principal {
    /// The player, if it may do what any one of `opens` opens (none: what only the key
    /// may).
    ///
    /// # Errors
    /// [`PlayerError::OutOfScope`] for a token with none of them.
    pub(crate) fn may(self, opens: &'static [Scope]) -> Result<String, PlayerError> {
        match &self.scopes {
            None => Ok(self.name),
            Some(held) if opens.iter().any(|scope| held.contains(scope)) => Ok(self.name),
            Some(_) => Err(PlayerError::OutOfScope(opens)),
        }
    }
}

/// A player's chat refused by its standing at `now_ms`, if it is: muted, or timed out.
#[must_use]
pub(crate) fn chat_refusal(
    standing: &crate::store::Standing,
    now_ms: u64,
) -> Option<crate::wire::Refusal> {
    if standing.muted {
        return Some(crate::wire::Refusal::new(
            crate::wire::Code::ChatMuted,
            "a moderator muted your chat: see GET /api/moderation",
        ));
    }
    match standing.chat_until_ms {
        Some(until_ms) if until_ms > now_ms => Some(crate::wire::Refusal::new(
            crate::wire::Code::ChatTimeout,
            format!(
                "a moderator timed your chat out for {} more minutes",
                (until_ms - now_ms).div_ceil(60_000)
            ),
        )),
        _ => None,
    }
}

/// How long a link code lives: 10 minutes.
pub(crate) const LINK_LIFE_MS: u64 = 10 * 60 * 1000;

/// The letters of a link code (Crockford's base 32: no I, L, O or U).
const CODE_LETTERS: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// A link code of 65 of `bytes`' bits: 13 letters, in groups of four for reading aloud.
fn link_code(bytes: &[u8; 9]) -> String {
    let bits = bytes
        .iter()
        .fold(0u128, |all, &b| (all << 8) | u128::from(b));
    let mut code = String::with_capacity(16);
    for i in 0..13 {
        if i > 0 && i % 4 == 0 {
            code.push('-');
        }
        let letter = (bits >> (5 * (12 - i))) & 31;
        code.push(char::from(CODE_LETTERS[letter as usize]));
    }
    code
}

/// A link code as typed, read as its letters: dashes and spaces left out, lower case as
/// upper, and the letters Crockford's base 32 reads as digits (`O` as `0`, `I` and `L` as `1`).
fn plain_code(typed: &str) -> String {
    typed
        .chars()
        .filter(|c| !matches!(c, '-' | ' '))
        .map(|c| match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        })
        .collect()
}

/// A token's entry as the list shows it.
fn token_entry(row: &TokenRow) -> TokenEntry {
    TokenEntry {
        id: row.id.clone(),
        scopes: row.scopes.clone(),
        label: row.label.clone(),
        created_ms: row.created_ms,
    }
}

/// The most bots `GET /api/bots` lists.
pub(crate) const MAX_BOTS_LISTED: usize = 200;

/// Every player, by name folded to lower case, and by the digest of its key; and every
/// name's skeleton (the look-alikes it refuses).
#[derive(Default)]
struct Rows {
    by_name: HashMap<String, PlayerRow>,
    /// Each key's and token's digest: its player's folded name, and the token's id.
    by_key: HashMap<String, (String, Option<String>)>,
    skeletons: std::collections::HashSet<String>,
    /// When this node last changed each player's row itself (a token, a moderator's action):
    /// a row read from the database before then is stale, and is not taken.
    changed: HashMap<String, std::time::Instant>,
}

fn fold(name: &str) -> String {
    name.to_ascii_lowercase()
}

impl Rows {
    fn insert(&mut self, row: PlayerRow) {
        let folded = fold(&row.name);
        self.skeletons.insert(skeleton(&row.name));
        if let Some(key) = &row.key {
            self.by_key.insert(key.clone(), (folded.clone(), None));
        }
        for token in &row.tokens {
            let id = Some(token.id.clone());
            self.by_key
                .insert(token.digest.clone(), (folded.clone(), id));
        }
        self.by_name.insert(folded, row);
    }

    fn remove(&mut self, name: &str) -> Option<PlayerRow> {
        self.skeletons.remove(&skeleton(name));
        let row = self.by_name.remove(&fold(name))?;
        for digest in row.key.iter().chain(row.tokens.iter().map(|t| &t.digest)) {
            self.by_key.remove(digest);
        }
        Some(row)
    }

    /// Replaces `name`'s row by `change` of it, as this node changed it just now.
    fn change(&mut self, name: &str, change: impl FnOnce(&mut PlayerRow)) {
        if let Some(mut row) = self.remove(name) {
            change(&mut row);
            self.changed
                .insert(fold(&row.name), std::time::Instant::now());
            self.insert(row);
        }
    }

    fn get(&self, name: &str) -> Option<&PlayerRow> {
        self.by_name.get(&fold(name))
    }

    /// Whether `name` reads as a bot's or as a player's already registered.
    fn taken(&self, name: &str) -> bool {
        let folded = skeleton(name);
        folded.starts_with(BOT_PREFIX) || self.skeletons.contains(&folded)
    }

    /// Who holds `key` (a player's key, or one of its tokens): found by the key's digest,
    /// then compared in constant time.
    fn by_key(&self, key: &str) -> Option<Principal> {
        let digest = secret::digest(key);
        let (folded, token) = self.by_key.get(&digest)?;
        let row = self.by_name.get(folded)?;
        let (stored, scopes) = match token {
            None => (row.key.as_deref()?, None),
            Some(id) => {
                let token = row.tokens.iter().find(|token| &token.id == id)?;
                // A linked device may do what the key may.
                let scopes = (!token.scopes.contains(&Scope::Device)).then(|| token.scopes.clone());
                (token.digest.as_str(), scopes)
            }
        };
        secret::matches(key, stored).then(|| Principal {
            name: row.name.clone(),
            scopes,
        })
    }
}

/// The players service.
pub(crate) struct Players {
    store: Store,
    entropy: Arc<dyn Entropy>,
    quotas: Arc<Quotas>,
    rows: Mutex<Rows>,
}

impl Players {
    /// The players of `rows` (as the database holds them at start).
    #[must_use]
    pub(crate) fn new(
        store: Store,
        entropy: Arc<dyn Entropy>,
        quotas: Arc<Quotas>,
        rows: Vec<PlayerRow>,
    ) -> Players {
        let mut held = Rows::default();
        for row in rows {
            held.insert(row);
        }
        Players {
            store,
            entropy,
            quotas,
            rows: Mutex::new(held),
        }
    }

    fn rows(&self) -> MutexGuard<'_, Rows> {
        self.rows.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `POST /api/players` from `ip`.
    ///
    /// # Errors
    /// [`PlayerError::BadName`], [`PlayerError::NameTaken`] (in any case, or a bot's
    /// prefix), [`PlayerError::Quota`] past the address's players an hour, or the database's.
    pub(crate) async fn register(
        &self,
        request: RegisterRequest,
        ip: IpAddr,
    ) -> Result<RegisterReply, PlayerError> {
        let name = request.name;
        if !valid_name(&name) {
            return Err(PlayerError::BadName);
        }
        let bot = request.bot.unwrap_or(false);
        let description = match request.description {
            Some(_) if !bot => {
                return Err(PlayerError::BadDescription(
                    "only a bot account has a description",
                ));
            }
            Some(text)
                if text.chars().count() > crate::wire::MAX_DESCRIPTION
                    || text.chars().any(char::is_control) =>
            {
                return Err(PlayerError::BadDescription(
                    "a description is at most 200 characters, none a control",
                ));
            }
            other => other,
        };
        if self.rows().taken(&name) {
            return Err(PlayerError::NameTaken);
        }
        self.quotas.take_player(ip).await?;
        let key = secret::random_hex(&*self.entropy, TOKEN_BYTES);
        let digest = secret::digest(&key);
        {
            let mut rows = self.rows();
            if rows.taken(&name) {
                return Err(PlayerError::NameTaken);
            }
            let mut row = PlayerRow::new(name.clone(), Some(digest.clone()), bot);
            row.description.clone_from(&description);
            rows.insert(row);
        }
        let created_ms = crate::clock::unix_ms();
        let write = Write::Player(PlayerWrite::Register {
            name: name.clone(),
            key: Some(digest),
            bot,
            description,
            created_ms,
        });
        let arrival = Write::Node(NodeWrite::Arrival {
            kind: "player",
            ip,
            at_ms: created_ms,
        });
        if let Err(e) = self.store.write(vec![write, arrival]).await {
            self.rows().remove(&name);
            // Another node registered the name first.
            if e.is_conflict() {
                return Err(PlayerError::NameTaken);
            }
            return Err(e.into());
        }
        Ok(RegisterReply { name, key })
    }

    /// The player whose key a request's `Authorization` header carries: `None` without the
    /// header.
    ///
    /// # Errors
    /// [`PlayerError::BadKey`] for a header that is not `Bearer KEY` with a player's key:
    /// one reply for every kind of wrong key.
    pub(crate) fn of_header(
        &self,
        authorization: Option<&str>,
    ) -> Result<Option<Principal>, PlayerError> {
        let Some(header) = authorization else {
            return Ok(None);
        };
        let key = header.strip_prefix("Bearer ").ok_or(PlayerError::BadKey)?;
        self.by_key(key.trim()).map(Some)
    }

    /// Who holds `key`: a player by its key, or by one of its tokens.
    ///
    /// # Errors
    /// [`PlayerError::BadKey`] for anything but a player's key or token.
    pub(crate) fn by_key(&self, key: &str) -> Result<Principal, PlayerError> {
        self.rows().by_key(key).ok_or(PlayerError::BadKey)
    }

    /// `POST /api/tokens` by `player`: a new token with the scopes asked (written before the
    /// reply, which alone carries the token).
    ///
    /// # Errors
    /// [`PlayerError::BadToken`] for no scope, a scope twice or a label too long;
    /// [`PlayerError::TooManyTokens`] past [`MAX_TOKENS`]; the database's error (nothing
    /// changed).
    pub(crate) async fn mint(
        &self,
        player: &str,
        request: TokenRequest,
    ) -> Result<TokenReply, PlayerError> {
        let mut scopes = request.scopes;
        scopes.sort_unstable();
        let asked = scopes.len();
        scopes.dedup();
        if scopes.is_empty() {
            return Err(PlayerError::BadToken("a token needs at least one scope"));
        }
        if scopes.len() != asked {
            return Err(PlayerError::BadToken("each scope once"));
        }
        if scopes.contains(&Scope::Device) {
            return Err(PlayerError::BadToken(
                "a device's token is made by linking it (POST /api/link), not minted",
            ));
        }
        let label = request.label.map(|label| label.trim().to_owned());
        if label.as_ref().is_some_and(|label| {
            label.chars().count() > MAX_LABEL || label.chars().any(char::is_control)
        }) {
            return Err(PlayerError::BadToken(
                "a label is at most 40 characters, none a control",
            ));
        }
        let token = secret::random_hex(&*self.entropy, TOKEN_BYTES);
        let row = TokenRow {
            id: secret::random_hex(&*self.entropy, secret::ID_BYTES),
            digest: secret::digest(&token),
            scopes,
            label: label.filter(|label| !label.is_empty()),
            created_ms: crate::clock::unix_ms(),
        };
        let name = self
            .with_row(player, |held| {
                (held.tokens.len() < MAX_TOKENS).then(|| held.name.clone())
            })
            .ok_or(PlayerError::NotFound)?
            .ok_or(PlayerError::TooManyTokens)?;
        let write = PlayerWrite::Mint {
            name: name.clone(),
            token: row.clone(),
        };
        match self.store.write(vec![Write::Player(write)]).await {
            Ok(_) => {}
            // Another mint was written meanwhile: the database holds the count.
            Err(StoreError::Refused(_)) => return Err(PlayerError::TooManyTokens),
            Err(e) => return Err(e.into()),
        }
        let entry = token_entry(&row);
        self.rows().change(&name, |held| {
            held.tokens.retain(|token| token.id != row.id);
            held.tokens.push(row);
        });
        Ok(TokenReply { token, entry })
    }

    /// `POST /api/link` by `player`: a one-time code another device redeems (within
    /// [`LINK_LIFE_MS`]) for a token that may do what the key may; it replaces the player's
    /// code before it.
    ///
    /// # Errors
    /// [`PlayerError::NotFound`] for an unknown name; the database's error.
    pub(crate) async fn link(&self, player: &str) -> Result<LinkCode, PlayerError> {
        let name = self
            .with_row(player, |row| row.name.clone())
            .ok_or(PlayerError::NotFound)?;
        let mut bytes = [0u8; 9];
        self.entropy.fill(&mut bytes);
        let code = link_code(&bytes);
        let expires_ms = crate::clock::unix_ms() + LINK_LIFE_MS;
        let write = PlayerWrite::Link {
            name,
            digest: secret::digest(&plain_code(&code)),
            expires_ms,
        };
        self.store.write(vec![Write::Player(write)]).await?;
        Ok(LinkCode { code, expires_ms })
    }

    /// `POST /api/link/redeem` from `ip`: the code used up, and this device's token.
    ///
    /// # Errors
    /// [`PlayerError::Quota`] past the address's tries a minute; [`PlayerError::BadToken`]
    /// for a label refused; [`PlayerError::NotFound`] for a code that is not one, was used
    /// or lapsed (one reply); the database's error.
    pub(crate) async fn redeem(
        &self,
        request: RedeemRequest,
        ip: IpAddr,
    ) -> Result<Linked, PlayerError> {
        self.quotas.take_link(ip)?;
        let label = request.label.map(|label| label.trim().to_owned());
        if label.as_ref().is_some_and(|label| {
            label.chars().count() > MAX_LABEL || label.chars().any(char::is_control)
        }) {
            return Err(PlayerError::BadToken(
                "a label is at most 40 characters, none a control",
            ));
        }
        let key = secret::random_hex(&*self.entropy, TOKEN_BYTES);
        let now_ms = crate::clock::unix_ms();
        let token = TokenRow {
            id: secret::random_hex(&*self.entropy, secret::ID_BYTES),
            digest: secret::digest(&key),
            scopes: vec![Scope::Device],
            label: label.filter(|label| !label.is_empty()),
            created_ms: now_ms,
        };
        let id = token.id.clone();
        let write = PlayerWrite::Redeem {
            digest: secret::digest(&plain_code(&request.code)),
            token,
            now_ms,
        };
        let committed = match self.store.write(vec![Write::Player(write)]).await {
            Ok(committed) => committed,
            Err(StoreError::Refused(_)) => return Err(PlayerError::NotFound),
            Err(e) => return Err(e.into()),
        };
        let name = committed
            .players
            .first()
            .map(|row| row.name.clone())
            .ok_or(PlayerError::NotFound)?;
        self.refresh(committed.players);
        Ok(Linked { name, key, id })
    }

    /// `GET /api/tokens` by `player`: its tokens, oldest first, without their secrets.
    ///
    /// # Errors
    /// [`PlayerError::NotFound`] for an unknown name.
    pub(crate) fn tokens(&self, player: &str) -> Result<TokenList, PlayerError> {
        self.with_row(player, |row| TokenList {
            tokens: row.tokens.iter().map(token_entry).collect(),
        })
        .ok_or(PlayerError::NotFound)
    }

    /// `DELETE /api/tokens/{id}` by `player`: the token no longer opens anything, here at
    /// once, at another node when it is told (the write's notice).
    ///
    /// # Errors
    /// [`PlayerError::NotFound`] for a token that is not the player's (or no longer is);
    /// the database's error (nothing changed).
    pub(crate) async fn revoke(&self, player: &str, id: &str) -> Result<(), PlayerError> {
        let name = self
            .with_row(player, |row| {
                row.tokens
                    .iter()
                    .any(|token| token.id == id)
                    .then(|| row.name.clone())
            })
            .flatten()
            .ok_or(PlayerError::NotFound)?;
        let write = PlayerWrite::Revoke {
            name: name.clone(),
            id: id.to_owned(),
        };
        self.store.write(vec![Write::Player(write)]).await?;
        self.rows()
            .change(&name, |held| held.tokens.retain(|token| token.id != id));
        Ok(())
    }

    /// `GET /api/players/{name}`.
    ///
    /// # Errors
    /// [`PlayerError::NotFound`] for an unknown name.
    pub(crate) async fn profile(&self, name: &str) -> Result<Profile, PlayerError> {
        let mut profile = {
            let rows = self.rows();
            let row = rows.get(name).ok_or(PlayerError::NotFound)?;
            Profile {
                name: row.name.clone(),
                bot: row.bot,
                description: row.description.clone(),
                rating: rating::rounded(row.rating),
                rd: rating::rounded(row.rd),
                provisional: rating::provisional(row.rd),
                title: rating::title(row.rating, row.rd).to_owned(),
                games: row.games,
                won: row.won,
                lost: row.lost,
                drawn: row.drawn,
                history: Vec::new(),
            }
        };
        let of = RatingsOf::Player {
            name: profile.name.clone(),
            limit: HISTORY_SHOWN,
        };
        profile.history = self
            .store
            .rating_changes(of)
            .await?
            .into_iter()
            .map(|change| Rated {
                game: change.game,
                before: rating::rounded(change.before),
                after: rating::rounded(change.after),
                ended_ms: change.ended_ms,
            })
            .collect();
        Ok(profile)
    }

    /// What `player` agreed to share of its finished games (`GET /api/sharing`).
    ///
    /// # Errors
    /// [`PlayerError::NotFound`] for an unknown name.
    pub(crate) fn sharing(&self, player: &str) -> Result<crate::store::Sharing, PlayerError> {
        self.with_row(player, |row| row.sharing)
            .ok_or(PlayerError::NotFound)
    }

    /// `PUT /api/sharing` by `player`: what it shares from now on, written before the reply
    /// (the export reads the database).
    ///
    /// # Errors
    /// [`PlayerError::NotFound`] for an unknown name, or the database's error (nothing
    /// changed).
    pub(crate) async fn set_sharing(
        &self,
        player: &str,
        sharing: crate::store::Sharing,
    ) -> Result<crate::store::Sharing, PlayerError> {
        let name = self
            .with_row(player, |row| row.name.clone())
            .ok_or(PlayerError::NotFound)?;
        self.store
            .write(vec![crate::store::Write::Player(PlayerWrite::Sharing {
                name: name.clone(),
                sharing,
            })])
            .await?;
        if let Some(row) = self.rows().by_name.get_mut(&fold(&name)) {
            row.sharing = sharing;
        }
        Ok(sharing)
    }

    /// `GET /api/bots`: every bot (the server's, and the bot accounts), the highest rated
    /// first, each online as `online` says.
    #[must_use]
    pub(crate) fn bots(&self, online: impl Fn(&str) -> bool) -> crate::wire::BotList {
        let rows = self.rows();
        let mut bots: Vec<crate::wire::BotEntry> = rows
            .by_name
            .values()
            .filter(|row| row.bot)
            .map(|row| {
                let server = row.key.is_none();
                crate::wire::BotEntry {
                    name: row.name.clone(),
                    rating: rating::rounded(row.rating),
                    rd: rating::rounded(row.rd),
                    games: row.games,
                    online: server || online(&row.name),
                    server,
                    description: if server {
                        row.name
                            .strip_prefix(crate::wire::BOT_PREFIX)
                            .map(|agent| format!("the server's {agent}"))
                    } else {
                        row.description.clone()
                    },
                }
            })
            .collect();
        bots.sort_by(|a, b| b.rating.cmp(&a.rating).then_with(|| a.name.cmp(&b.name)));
        bots.truncate(MAX_BOTS_LISTED);
        crate::wire::BotList { bots }
    }

    /// `f` of the row of the player named `name` (in any case), if there is one.
    pub(crate) fn with_row<T>(&self, name: &str, f: impl FnOnce(&PlayerRow) -> T) -> Option<T> {
        self.rows().get(name).map(f)
    }

    /// `f` of every player's row.
    pub(crate) fn with_rows<T>(
        &self,
        f: impl FnOnce(&mut dyn Iterator<Item = &PlayerRow>) -> T,
    ) -> T {
        let rows = self.rows();
        f(&mut rows.by_name.values())
    }

    /// Takes `row` as the database holds it now (another node changed it): a new player, or
    /// newer counts and ratings.
    /// Its tokens are always the row's (the database's, newer than any held), unless it was
    /// read before this node last changed the row itself (`read_from`: when its read began):
    /// then it is stale, and the notice of that change brings a fresher one.
    #[cfg(feature = "nodes")]
    pub(crate) fn upsert(&self, row: PlayerRow, read_from: std::time::Instant) {
        let mut rows = self.rows();
        if rows
            .changed
            .get(&fold(&row.name))
            .is_some_and(|changed| *changed > read_from)
        {
            return;
        }
        let row = match rows.remove(&row.name) {
            Some(held) if row.games < held.games => PlayerRow {
                tokens: row.tokens,
                ..held
            },
            _ => row,
        };
        rows.insert(row);
    }

    /// Takes `rows` as a moderator's action left them in the database (a standing, a
    /// moderator's flag, a refunded rating), keys and tokens included.
    pub(crate) fn refresh(&self, rows: Vec<PlayerRow>) {
        let mut held = self.rows();
        for row in rows {
            let name = row.name.clone();
            held.change(&name, |old| *old = row);
        }
    }

    /// Refuses a closed account's key: only its moderation and its appeals stay open to it.
    ///
    /// # Errors
    /// [`PlayerError::Closed`] for an account a moderator closed.
    pub(crate) fn open_account(&self, name: &str) -> Result<(), PlayerError> {
        match self.with_row(name, |row| row.standing.closed) {
            Some(true) => Err(PlayerError::Closed),
            _ => Ok(()),
        }
    }

    /// Why `name`'s chat lines are refused at `now_ms`, if they are (a moderator's mute or
    /// timeout).
    #[must_use]
    pub(crate) fn chat_refusal(&self, name: &str, now_ms: u64) -> Option<crate::wire::Refusal> {
        let standing = self.with_row(name, |row| row.standing)?;
        chat_refusal(&standing, now_ms)
    }

    /// Takes the rows a committed game's end left (counts and ratings, strikes and bans),
    /// each only if it is newer than the one held (more games, or as many and a later
    /// strike): two games' ends committed in one order and handed over in the other leave the
    /// later.
    pub(crate) fn update(&self, changed: Vec<PlayerRow>) {
        let mut rows = self.rows();
        for row in changed {
            if let Some(held) = rows.by_name.get_mut(&fold(&row.name))
                && newer(&row, held)
            {
                *held = PlayerRow {
                    key: held.key.take(),
                    tokens: std::mem::take(&mut held.tokens),
                    ..row
                };
            }
        }
    }

    /// Milliseconds left of `name`'s ban at `now_ms` (`None`: not banned, or no such player).
    #[must_use]
    pub(crate) fn ban_left(&self, name: &str, now_ms: u64) -> Option<u64> {
        self.rows().get(name)?.playban.ban_left(now_ms)
    }

    /// Refuses a banned player (it aborted or resigned early too often): nobody pairs it
    /// until its ban ends.
    ///
    /// # Errors
    /// [`PlayerError::Banned`] while its ban lasts.
    pub(crate) fn not_banned(&self, name: &str) -> Result<(), PlayerError> {
        match self.ban_left(name, crate::clock::unix_ms()) {
            Some(left_ms) => Err(PlayerError::Banned(left_ms.div_ceil(60_000))),
            None => Ok(()),
        }
    }

    /// Whether each of `names` is a bot account (a game seat's bot flag, never stored with
    /// the game: an account's flag never changes); a server bot's seat is not an account.
    #[must_use]
    pub(crate) fn bot_accounts(&self, names: &[Option<String>; 2]) -> [bool; 2] {
        names.each_ref().map(|name| {
            name.as_deref()
                .is_some_and(|name| !name.starts_with(crate::wire::BOT_PREFIX) && self.is_bot(name))
        })
    }

    /// Whether `name` is a bot account (or one of the server's bots).
    #[must_use]
    pub(crate) fn is_bot(&self, name: &str) -> bool {
        self.with_row(name, |row| row.bot).unwrap_or(false)
    }

    /// `GET /api/players/{name}/games` asked by `asker` (a player, or anonymous): a page of
    /// the player's finished games, newest first, its unlisted games only to itself; `limit`
    /// (default [`GAMES_LISTED`], at most [`MAX_GAMES_LISTED`]) and `before` (a game of the
    /// list: the page starts after it) as the query gives them.
    ///
    /// # Errors
    /// [`PlayerError::NotFound`] for no such player; [`PlayerError::BadLimit`] for a
    /// `limit` that is not 1 to 100, [`PlayerError::BadBefore`] for a `before` that is not
    /// one of the player's finished games (the same reply whether that game is in play,
    /// someone else's or none).
    pub(crate) async fn games(
        &self,
        name: &str,
        (limit, before): (Option<&str>, Option<&str>),
        asker: Option<&str>,
    ) -> Result<GameList, PlayerError> {
        let name = self
            .with_row(name, |row| row.name.clone())
            .ok_or(PlayerError::NotFound)?;
        let limit = match limit {
            None => GAMES_LISTED,
            Some(text) => text
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=MAX_GAMES_LISTED).contains(n))
                .ok_or(PlayerError::BadLimit)?,
        };
        let own = asker.is_some_and(|asker| fold(asker) == fold(&name));
        let rows = self
            .store
            .player_games(&name, before, (limit, own))
            .await?
            .ok_or_else(|| PlayerError::BadBefore(name.clone()))?;
        let mut games: Vec<Listed> = rows.into_iter().filter_map(listed).collect();
        let rated: Vec<String> = games
            .iter()
            .filter(|g| g.rated)
            .map(|g| g.game.clone())
            .collect();
        let changes = self.store.rating_changes(RatingsOf::Games(rated)).await?;
        for game in &mut games {
            for change in changes.iter().filter(|c| c.game == game.game) {
                let shown = Change {
                    before: rating::rounded(change.before),
                    after: rating::rounded(change.after),
                };
                let seats = game.ratings.get_or_insert_with(Changes::default);
                if game.names.white.as_deref() == Some(change.name.as_str()) {
                    seats.white = Some(shown);
                } else if game.names.black.as_deref() == Some(change.name.as_str()) {
                    seats.black = Some(shown);
                }
            }
        }
        Ok(GameList { games })
    }
}

/// Whether `row` is newer than `held`, the same player's row held now.
fn newer(row: &PlayerRow, held: &PlayerRow) -> bool {
    row.games > held.games
        || (row.games == held.games && row.playban.strike_ms > held.playban.strike_ms)
}

/// A listed game from its row: the names, status, rating flag and plies its summary keeps.
fn listed(row: ListedRow) -> Option<Listed> {
    #[derive(serde::Deserialize)]
    struct Kept {
        names: Names,
        players: crate::wire::Players,
        status: StatusWords,
        rated: bool,
        ply: u64,
        /// Absent in the summaries of games that ended before it was kept.
        #[serde(default)]
        bots: Option<Bots>,
        /// Absent for a game rated or asked casual, and before it was kept.
        #[serde(default)]
        unrated: Option<crate::wire::Unrated>,
    }
    let kept: Kept = serde_json::from_str(&row.summary).ok()?;
    Some(Listed {
        game: row.game,
        names: kept.names,
        // Each seat's bot flag (a bot account's too), or, in a summary from before it was
        // kept, who plays each seat (`"bot"` or `"human"`).
        bots: kept.bots.unwrap_or(Bots {
            white: kept.players.white == "bot",
            black: kept.players.black == "bot",
        }),
        status: kept.status,
        rated: kept.rated,
        unrated: kept.unrated,
        ratings: None,
        plies: kept.ply,
        ended_ms: row.ended_ms,
    })
}

#[cfg(test)]
mod standing_tests {
    use super::*;
    use crate::store::Standing;
    use crate::wire::Code;

    /// A timeout refuses lines until its end and not a millisecond after; a mute until it is
    /// lifted.
    #[test]
    fn a_timeout_ends_when_its_time_passes_and_a_mute_when_lifted() {
        let timed = Standing {
            chat_until_ms: Some(10_000),
            ..Standing::default()
        };
        let refused = chat_refusal(&timed, 9_999).expect("timed out");
        assert_eq!(refused.code, Code::ChatTimeout);
        assert!(chat_refusal(&timed, 10_000).is_none(), "the time passed");
        let muted = Standing {
            muted: true,
            ..Standing::default()
        };
        assert_eq!(
            chat_refusal(&muted, u64::MAX).map(|r| r.code),
            Some(Code::ChatMuted)
        );
        assert!(chat_refusal(&Standing::default(), 0).is_none());
    }
}

#[cfg(test)]
mod link_tests {
    use super::*;

    /// A code is 13 letters of Crockford's base 32 in groups of four; typed back in lower
    /// case, without dashes, with look-alike letters, it reads the same.
    #[test]
    fn a_link_code_reads_the_same_however_it_is_typed() {
        let code = link_code(&[0xff; 9]);
        assert_eq!(code, "ZZZZ-ZZZZ-ZZZZ-Z");
        let code = link_code(&[0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x0f]);
        assert_eq!(code.len(), 16);
        assert!(
            code.chars()
                .all(|c| c == '-' || CODE_LETTERS.contains(&(c as u8)))
        );
        let plain = plain_code(&code);
        assert_eq!(plain.len(), 13);
        assert_eq!(plain_code(&code.to_lowercase().replace('-', " ")), plain);
        assert_eq!(plain_code("o1il-"), "0111");
        // 65 bits: two codes from bytes differing in the last bit used differ.
        let a = link_code(&[0, 0, 0, 0, 0, 0, 0, 0, 0b1000_0000]);
        let b = link_code(&[0; 9]);
        assert_ne!(a, b);
    }
}
