//! The lobby: open seeks, the quick-pairing pools, and the public lobby frame. All of it
//! lives in memory only, and only while its owner has a player socket open
//! ([`super::player_sockets`]): a seek or a pool entry is refused without one, and goes when
//! the owner's last one closes (so none outlives its player, nor a restart).
//!
//! Pairing is decided under the lobby's one lock (of two players accepting one seek at once,
//! exactly one finds it there); the game is then made outside the lock.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use salpakan::Bot;
use thiserror::Error;
use tokio::sync::{Notify, oneshot, watch};
use tokio::time::Instant;

use super::games::{GameError, Games, Seating, Settings, lock, random_side};
use super::outbox::{Shared, Versioned};
use super::player_sockets::{Gone, PlayerSockets};
use super::players::{PlayerError, Players};
use super::quotas::{QuotaError, Quotas};
use super::ratings::Ratings;
use super::stopping::Stopping;
use crate::budget::Rate;
use crate::config::Config;
use crate::rating;
use crate::room::Player;
use crate::secret::{self, Entropy, ID_BYTES, TOKEN_BYTES};
use crate::wire::{
    JoinReply, LobbyMessage, LobbyWords, PoolReply, PoolRequest, RulesWords, SeekReply,
    SeekRequest, SeekWords, SettingsRequest, SideWord,
};

/// Why the lobby refused a request.
#[derive(Debug, Error)]
pub(crate) enum LobbyError {
    /// A seek or pool entry with no player socket open.
    #[error("open a player socket first: seeks and pool entries live only while one is open")]
    NoSocket,
    /// Past the open seeks of a player.
    #[error("at most {0} open seeks")]
    TooManySeeks(usize),
    /// A player accepting its own seek.
    #[error("that is your own seek")]
    OwnSeek,
    /// No such seek open, or another player's (the same reply).
    #[error("no such seek")]
    NoSeek,
    /// Past the open lobby sockets, or a player's sockets.
    #[error("at most {0} sockets")]
    TooManySockets(usize),
    /// A bot account joining a pool, or accepting a seek, of people only.
    #[error("{0} is for people only: a bot joins only pools and seeks that allow bots")]
    HumansOnly(&'static str),
    /// Past one of the address's limits.
    #[error(transparent)]
    Quota(#[from] QuotaError),
    /// The player's refusal (a ban).
    #[error(transparent)]
    Player(#[from] PlayerError),
    /// The game of a pairing could not be made, or its settings are out of range.
    #[error(transparent)]
    Game(#[from] GameError),
}

/// What each open lobby socket adds to the lobby's gap between frames: 10 ms more for
/// every 500 watching (60 ms at 500 with the default gap of 50 ms, 150 ms at 5,000).
pub(crate) const LOBBY_GAP_PER_SOCKET: Duration = Duration::from_micros(20);

/// An open seek.
struct Seek {
    sid: String,
    owner: String,
    ip: IpAddr,
    settings: Settings,
    /// Whether a bot account may accept it.
    bots: bool,
    /// A player is accepting it: its game is being made (a second accepter finds no seek;
    /// if the game is refused, the seek stays open).
    taking: bool,
}

/// A player waiting in a pool: all a wait costs, gone when the wait ends.
struct Waiting {
    player: String,
    pool: String,
    settings: Settings,
    rating: f64,
    /// Where the player joined from (the game a server bot's pairing makes is its).
    ip: IpAddr,
    /// When a server bot takes the other seat, if nobody came by then.
    bot_at: Option<Instant>,
}

#[derive(Default)]
struct LobbyState {
    /// Oldest first.
    seeks: Vec<Seek>,
    pool: Vec<Waiting>,
    /// Open lobby sockets by address: each one's id and what closes it, oldest first.
    watchers: HashMap<IpAddr, Vec<(u64, oneshot::Sender<()>)>>,
    /// Open lobby sockets in all.
    watching: usize,
    /// Each player's pool joins (by its name folded to lower case), kept until full again.
    joins: HashMap<String, Rate>,
}

/// The lobby service.
pub(crate) struct Lobby {
    config: Arc<Config>,
    entropy: Arc<dyn Entropy>,
    games: Arc<Games>,
    ratings: Arc<Ratings>,
    players: Arc<Players>,
    sockets: Arc<PlayerSockets>,
    quotas: Arc<Quotas>,
    stopping: Stopping,
    state: Mutex<LobbyState>,
    /// The latest lobby frame; a lobby socket sends the newest it has not sent.
    frame: watch::Sender<Shared>,
    /// The latest version, whole and as a delta (`?deltas=1`).
    versions: watch::Sender<Arc<Versioned>>,
    /// Wakes the task that renders the frame (the lobby or the games in play changed).
    changed: Notify,
    /// Wakes the task that seats server bots (a wait began).
    waits: Notify,
    next_socket: AtomicU64,
}

/// What the lobby is made of: the services below it it uses.
pub(crate) struct Parts {
    /// The settings.
    pub config: Arc<Config>,
    /// Where seek ids, game ids and tokens come from.
    pub entropy: Arc<dyn Entropy>,
    /// The games (a pairing makes one).
    pub games: Arc<Games>,
    /// The ratings (of the seeks shown, and for the pool's pairing).
    pub ratings: Arc<Ratings>,
    /// The players (their bans).
    pub players: Arc<Players>,
    /// Who is online (a seek lives while its player is), and how to tell them.
    pub sockets: Arc<PlayerSockets>,
    /// The per-address limits (seeks).
    pub quotas: Arc<Quotas>,
    /// The stop signal.
    pub stopping: Stopping,
}

impl Lobby {
    /// An empty lobby of `parts`, its frame rendered by a task until the server stops.
    ///
    /// Call inside a tokio runtime.
    #[must_use]
    pub(crate) fn start(parts: Parts) -> Arc<Lobby> {
        let lobby = Arc::new(Lobby {
            config: parts.config,
            entropy: parts.entropy,
            games: parts.games,
            ratings: parts.ratings,
            players: parts.players,
            sockets: parts.sockets,
            quotas: parts.quotas,
            stopping: parts.stopping,
            state: Mutex::new(LobbyState::default()),
            frame: watch::channel(Shared::from_static("")).0,
            versions: watch::channel(Arc::new(Versioned {
                v: 0,
                full: Shared::from_static(""),
                delta: Shared::from_static(""),
            }))
            .0,
            changed: Notify::new(),
            waits: Notify::new(),
            next_socket: AtomicU64::new(1),
        });
        let weak = Arc::downgrade(&lobby);
        lobby.sockets.on_offline(Box::new(move |gone| {
            if let Some(lobby) = weak.upgrade() {
                lobby.offline(gone);
            }
        }));
        tokio::spawn(Arc::clone(&lobby).run_frames());
        tokio::spawn(Arc::clone(&lobby).run_pool_bots());
        lobby
    }
}

/// Version `v` of the lobby, showing `seeks` (newest first) and `playing`, after `before`.
fn versioned(v: u64, before: &[SeekWords], seeks: Vec<SeekWords>, playing: usize) -> Versioned {
    let order: Vec<String> = seeks.iter().map(|s| s.seek.clone()).collect();
    let added: Vec<SeekWords> = seeks
        .iter()
        .filter(|s| !before.iter().any(|b| b == *s))
        .cloned()
        .collect();
    let gone: Vec<String> = before
        .iter()
        .filter(|b| !order.contains(&b.seek))
        .map(|b| b.seek.clone())
        .collect();
    let delta = LobbyMessage::LobbyDelta {
        v,
        added,
        gone,
        order,
        playing,
    };
    let full = LobbyMessage::Lobby {
        v: Some(v),
        seeks,
        playing,
    };
    Versioned {
        v,
        full: full.to_json().into(),
        delta: delta.to_json().into(),
    }
}

fn fold(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// Of players waiting (each its pool and rating, longest waiting first), the one in `pool`
/// whose rating is closest to `rating`; of equals, the one waiting longest.
#[must_use]
pub(crate) fn closest(waiting: &[(&str, f64)], pool: &str, rating: f64) -> Option<usize> {
    waiting
        .iter()
        .enumerate()
        .filter(|(_, (p, _))| *p == pool)
        .min_by(|(i, (_, a)), (j, (_, b))| {
            (a - rating)
                .abs()
                .total_cmp(&(b - rating).abs())
                .then(i.cmp(j))
        })
        .map(|(i, _)| i)
}

/// Who is paired: the player a seek or a pool entry belonged to, and the one who took it,
/// each with its address.
struct Pairing {
    waiting: (String, IpAddr),
    arriving: (String, IpAddr),
    settings: Settings,
}

impl Lobby {
    /// Wakes the lobby frame's renderer.
    fn lobby_changed(&self) {
        self.changed.notify_one();
    }

    /// Renders the lobby frame whenever a seek came or went (at once, then the changes within
    /// a `lobby_gap` and [`LOBBY_GAP_PER_SOCKET`] for each open lobby socket together) and, for the count of games in play, at most once a
    /// `lobby_playing_every` (then only if the frame differs from the last). Until the server
    /// stops.
    async fn run_frames(self: Arc<Lobby>) {
        let mut stop = self.stopping.listen();
        let mut last = String::new();
        let mut changed = true;
        let mut shown: Vec<SeekWords> = Vec::new();
        let mut v = 0;
        loop {
            let LobbyWords { seeks, playing } = self.lobby(None);
            let frame = LobbyMessage::Lobby {
                v: None,
                seeks: seeks.clone(),
                playing,
            }
            .to_json();
            if changed || frame != last {
                last = frame.clone();
                self.frame.send_replace(Shared::from(frame));
                v += 1;
                self.versions
                    .send_replace(Arc::new(versioned(v, &shown, seeks.clone(), playing)));
                shown = seeks;
            }
            // The more watch, the longer the changes are gathered: the frames a second the
            // lobby sends stay bounded however many sockets watch it.
            let watching = lock(&self.state).watching as u32;
            tokio::time::sleep(self.config.limits.lobby_gap + LOBBY_GAP_PER_SOCKET * watching)
                .await;
            let every = self.config.limits.lobby_playing_every;
            let next = stop.or(tokio::time::timeout(every, self.changed.notified()));
            let Some(woken) = next.await else {
                return;
            };
            changed = woken.is_ok();
        }
    }

    /// `GET /api/lobby` (and the lobby frame, with `after` none): the open seeks, newest
    /// first, at most `lobby_shown` of them and `lobby_shown_per_ip` of each address's, so
    /// that a new seek shows whatever others hold; with `after` (a seek's id), the page of
    /// the seeks older than it. And the games in play.
    #[must_use]
    pub(crate) fn lobby(&self, after: Option<&str>) -> LobbyWords {
        let limits = &self.config.limits;
        let shown: Vec<(String, String, Settings, bool)> = {
            let state = lock(&self.state);
            let skip = match after {
                None => 0,
                // An unknown seek (taken, withdrawn) pages nothing.
                Some(sid) => state
                    .seeks
                    .iter()
                    .rev()
                    .position(|s| s.sid == sid)
                    .map_or(usize::MAX, |at| at + 1),
            };
            let older = state.seeks.iter().rev().skip(skip);
            let mut per_address: HashMap<IpAddr, usize> = HashMap::new();
            older
                .filter(|s| {
                    let shown = per_address.entry(s.ip).or_default();
                    *shown += 1;
                    *shown <= limits.lobby_shown_per_ip
                })
                .take(limits.lobby_shown)
                .map(|s| (s.sid.clone(), s.owner.clone(), s.settings, s.bots))
                .collect()
        };
        let seeks = shown
            .into_iter()
            .map(|(seek, name, settings, bots)| {
                let held = self.ratings.of(&name);
                SeekWords {
                    seek,
                    bot: self.players.is_bot(&name),
                    name,
                    rating: rating::rounded(held.rating),
                    provisional: held.provisional(),
                    clock: settings.clock,
                    rules: RulesWords::from(settings.rules),
                    rated: settings.rated,
                    setup_ms: settings.setup_ms,
                    bots,
                }
            })
            .collect();
        LobbyWords {
            seeks,
            playing: self.games.tables().playing(),
        }
    }

    /// The latest version of the lobby, whole and as a delta, and what tells of the next.
    #[must_use]
    pub(crate) fn versions(&self) -> watch::Receiver<Arc<Versioned>> {
        self.versions.subscribe()
    }

    /// The latest lobby frame, and what tells of the next.
    #[must_use]
    pub(crate) fn frames(&self) -> watch::Receiver<Shared> {
        self.frame.subscribe()
    }

    /// A lobby socket opened from `ip`: at most `lobby_sockets_per_ip` an address, counted
    /// until the [`Watching`] is dropped. When all `lobby_sockets` are open, the address that
    /// holds the most gives its oldest up (it is closed), as long as it holds more than `ip`:
    /// no set of addresses short of as many as the lobby has sockets can keep another out.
    ///
    /// # Errors
    /// [`LobbyError::TooManySockets`] past the address's share, or when every address holds
    /// as few as `ip`.
    pub(crate) fn watch(self: &Arc<Lobby>, ip: IpAddr) -> Result<Watching, LobbyError> {
        let limits = &self.config.limits;
        let id = self.next_socket.fetch_add(1, Ordering::Relaxed);
        let mut state = lock(&self.state);
        let mine = state.watchers.get(&ip).map_or(0, Vec::len);
        if mine >= limits.lobby_sockets_per_ip {
            return Err(LobbyError::TooManySockets(limits.lobby_sockets_per_ip));
        }
        if state.watching >= limits.lobby_sockets {
            let most = state
                .watchers
                .iter()
                .max_by_key(|(_, held)| held.len())
                .filter(|(_, held)| held.len() > mine)
                .map(|(&address, _)| address)
                .ok_or(LobbyError::TooManySockets(limits.lobby_sockets))?;
            let held = state.watchers.entry(most).or_default();
            let (_, evict) = held.remove(0);
            if held.is_empty() {
                state.watchers.remove(&most);
            }
            state.watching -= 1;
            let _ = evict.send(());
        }
        let (evict, evicted) = oneshot::channel();
        state.watchers.entry(ip).or_default().push((id, evict));
        state.watching += 1;
        Ok(Watching {
            lobby: Arc::clone(self),
            ip,
            id,
            evicted: Some(evicted),
        })
    }

    /// A player went offline: its seeks and its pool entry go (everyone's, for
    /// [`Gone::Everyone`]).
    fn offline(&self, gone: Gone<'_>) {
        let withdrawn: Vec<IpAddr> = {
            let mut state = lock(&self.state);
            let of = |owner: &str| match gone {
                Gone::Player(player) => fold(owner) == fold(player),
                #[cfg(any(test, feature = "nodes"))]
                Gone::Everyone => true,
            };
            state.pool.retain(|w| !of(&w.player));
            let (gone, kept) = std::mem::take(&mut state.seeks)
                .into_iter()
                .partition(|s| of(&s.owner));
            state.seeks = kept;
            gone.into_iter().map(|s: Seek| s.ip).collect()
        };
        for ip in withdrawn {
            self.quotas.release_seek(ip);
        }
        self.lobby_changed();
    }

    /// `POST /api/seeks` by `player` from `ip`.
    ///
    /// # Errors
    /// [`LobbyError::Game`] for settings out of range, [`LobbyError::NoSocket`] without an open
    /// player socket, [`LobbyError::TooManySeeks`] past the player's or the address's seeks.
    pub(crate) fn create_seek(
        &self,
        player: &str,
        request: SeekRequest,
        ip: IpAddr,
    ) -> Result<SeekReply, LobbyError> {
        self.players.not_banned(player)?;
        let settings = Settings::check(request.settings(), &self.config.limits)?;
        let sid = secret::random_hex(&*self.entropy, ID_BYTES);
        let folded = fold(player);
        let bots = request.bots.unwrap_or(false) || self.players.is_bot(player);
        {
            let mut state = lock(&self.state);
            if !self.sockets.online(player) {
                return Err(LobbyError::NoSocket);
            }
            let most = self.config.limits.seeks_per_player;
            if state
                .seeks
                .iter()
                .filter(|s| fold(&s.owner) == folded)
                .count()
                >= most
            {
                return Err(LobbyError::TooManySeeks(most));
            }
            self.quotas.take_seek(ip)?;
            state.seeks.push(Seek {
                sid: sid.clone(),
                owner: player.to_owned(),
                ip,
                settings,
                bots,
                taking: false,
            });
        }
        self.lobby_changed();
        Ok(SeekReply { seek: sid })
    }

    /// `DELETE /api/seeks/{sid}` by `player`.
    ///
    /// # Errors
    /// [`LobbyError::NoSeek`] for an unknown seek or another player's (the same reply).
    pub(crate) fn withdraw_seek(&self, player: &str, sid: &str) -> Result<(), LobbyError> {
        let ip = {
            let mut state = lock(&self.state);
            let at = state
                .seeks
                .iter()
                .position(|s| s.sid == sid && fold(&s.owner) == fold(player))
                .ok_or(LobbyError::NoSeek)?;
            state.seeks.remove(at).ip
        };
        self.quotas.release_seek(ip);
        self.lobby_changed();
        Ok(())
    }

    /// `POST /api/seeks/{sid}/accept` by `player` from `ip`: the accepter's seat; the seek's
    /// owner is told its own. The seek leaves the lobby only once its game exists: a game
    /// refused (the accepter's limit of games, a draining server) leaves it open.
    ///
    /// # Errors
    /// [`LobbyError::NoSeek`] for a seek no longer open (of two accepting at once, one gets
    /// this), [`LobbyError::OwnSeek`], or the game's creation's errors.
    pub(crate) async fn accept_seek(
        self: &Arc<Lobby>,
        player: &str,
        sid: &str,
        ip: IpAddr,
    ) -> Result<JoinReply, LobbyError> {
        self.players.not_banned(player)?;
        let bot = self.players.is_bot(player);
        let pairing = {
            let mut state = lock(&self.state);
            let seek = state
                .seeks
                .iter_mut()
                .find(|s| s.sid == sid && !s.taking)
                .ok_or(LobbyError::NoSeek)?;
            if fold(&seek.owner) == fold(player) {
                return Err(LobbyError::OwnSeek);
            }
            if bot && !seek.bots {
                return Err(LobbyError::HumansOnly("this seek"));
            }
            seek.taking = true;
            Pairing {
                waiting: (seek.owner.clone(), seek.ip),
                arriving: (player.to_owned(), ip),
                settings: seek.settings,
            }
        };
        let paired = self.pair(pairing).await;
        let taken = {
            let mut state = lock(&self.state);
            let at = state.seeks.iter().position(|s| s.sid == sid);
            match (at, &paired) {
                (Some(at), Ok(_)) => Some(state.seeks.remove(at).ip),
                (Some(at), Err(_)) => {
                    state.seeks[at].taking = false;
                    None
                }
                // Withdrawn meanwhile (its owner, or its owner's last socket closing).
                (None, _) => None,
            }
        };
        if let Some(owner_ip) = taken {
            self.quotas.release_seek(owner_ip);
            self.lobby_changed();
        }
        paired
    }

    /// Makes the game of `waiting` (who asked, and its address) and `arriving` (who agreed,
    /// and its address) with `settings`, sides at random, as an accepted challenge does:
    /// the waiting player is told its seat on its player sockets; the arriving player's is
    /// returned.
    ///
    /// # Errors
    /// The game's creation's.
    pub(crate) async fn pair_players(
        self: &Arc<Lobby>,
        waiting: (String, IpAddr),
        arriving: (String, IpAddr),
        settings: Settings,
    ) -> Result<JoinReply, LobbyError> {
        self.pair(Pairing {
            waiting,
            arriving,
            settings,
        })
        .await
    }

    /// Makes the game of `pairing` (sides at random), created by the arriving player's
    /// address: the waiting player is told its seat on its player sockets; the arriving
    /// player's is returned.
    async fn pair(self: &Arc<Lobby>, pairing: Pairing) -> Result<JoinReply, LobbyError> {
        let ((waiting, waiting_ip), (arriving, ip)) = (pairing.waiting, pairing.arriving);
        let entropy = &*self.entropy;
        let waiting_side = random_side(entropy);
        let first = random_side(entropy);
        let id = secret::random_hex(entropy, ID_BYTES);
        let tokens = [(); 2].map(|()| secret::random_hex(entropy, TOKEN_BYTES));
        let mut seating = Seating::new(id, first);
        seating.tokens = [0, 1].map(|i| Some(secret::digest(&tokens[i])));
        seating.names[waiting_side.index()] = Some(waiting.clone());
        seating.names[waiting_side.other().index()] = Some(arriving);
        seating.ips[waiting_side.index()] = Some(waiting_ip);
        seating.ips[waiting_side.other().index()] = Some(ip);
        let game = self
            .games
            .open_game(&pairing.settings, seating, Some(ip), Vec::new())
            .await?;
        self.sockets.tell(
            &waiting,
            &LobbyMessage::Paired {
                game: game.clone(),
                side: SideWord(waiting_side),
                token: tokens[waiting_side.index()].clone(),
            },
        );
        let arriving = waiting_side.other();
        Ok(JoinReply {
            game,
            side: SideWord(arriving),
            token: tokens[arriving.index()].clone(),
        })
    }

    /// `POST /api/pool` by `player` from `ip`: waits in the pool of its clock and rated flag
    /// (leaving any other), or is paired at once with the waiting player of the closest
    /// rating; both then hear `paired` on their player sockets. Joins are counted per player
    /// and per address; a wait costs its entry only, and nothing once it ends.
    ///
    /// # Errors
    /// [`LobbyError::Game`] for a clock out of range, [`LobbyError::NoSocket`] without an open
    /// player socket, [`LobbyError::Quota`] past the player's or the address's joins a
    /// minute, or the game's creation's errors.
    pub(crate) async fn join_pool(
        self: &Arc<Lobby>,
        player: &str,
        request: PoolRequest,
        ip: IpAddr,
    ) -> Result<PoolReply, LobbyError> {
        self.players.not_banned(player)?;
        let settings = Settings::check(
            SettingsRequest {
                clock: request.clock,
                rated: request.rated,
                listed: request.listed,
                ..SettingsRequest::default()
            },
            &self.config.limits,
        )?;
        let bots = request.bots.unwrap_or(false);
        if !bots && self.players.is_bot(player) {
            return Err(LobbyError::HumansOnly("this pool"));
        }
        let mut pool = crate::wire::pool_name(settings.clock, settings.rated);
        if bots {
            pool.push_str(" bots");
        }
        let rating = self.ratings.of(player).rating;
        let folded = fold(player);
        let now = Instant::now();
        let partner = {
            let mut state = lock(&self.state);
            if !self.sockets.online(player) {
                return Err(LobbyError::NoSocket);
            }
            self.take_join(&mut state, &folded, ip, now)?;
            state.pool.retain(|w| fold(&w.player) != folded);
            let waiting: Vec<(&str, f64)> = state
                .pool
                .iter()
                .map(|w| (w.pool.as_str(), w.rating))
                .collect();
            match closest(&waiting, &pool, rating) {
                Some(i) => Some(state.pool.remove(i)),
                None => {
                    let bot_at = self.config.limits.pool_bot_after.map(|after| now + after);
                    state.pool.push(Waiting {
                        player: player.to_owned(),
                        pool: pool.clone(),
                        settings,
                        rating,
                        ip,
                        bot_at,
                    });
                    None
                }
            }
        };
        let bot_after_ms = self
            .config
            .limits
            .pool_bot_after
            .map(|after| u64::try_from(after.as_millis()).unwrap_or(u64::MAX));
        let Some(partner) = partner else {
            self.waits.notify_one();
            return Ok(PoolReply { pool, bot_after_ms });
        };
        // Unlisted if either asked for it.
        let mut agreed = partner.settings;
        agreed.listed &= settings.listed;
        let pairing = Pairing {
            waiting: (partner.player.clone(), partner.ip),
            arriving: (player.to_owned(), ip),
            settings: agreed,
        };
        let seat = match self.pair(pairing).await {
            Ok(seat) => seat,
            Err(e) => {
                // The partner waits on, first in line.
                lock(&self.state).pool.insert(0, partner);
                self.waits.notify_one();
                return Err(e);
            }
        };
        self.sockets.tell(
            player,
            &LobbyMessage::Paired {
                game: seat.game,
                side: seat.side,
                token: seat.token,
            },
        );
        Ok(PoolReply { pool, bot_after_ms })
    }

    /// One pool join of the player `folded` at `ip`, at `now`: within the player's joins a
    /// minute and the address's. Players whose joins are full again are forgotten.
    fn take_join(
        &self,
        state: &mut LobbyState,
        folded: &str,
        ip: IpAddr,
        now: Instant,
    ) -> Result<(), LobbyError> {
        let most = self.config.limits.pool_joins_per_minute;
        state.joins.retain(|_, rate| !rate.is_full(now));
        let rate = state
            .joins
            .entry(folded.to_owned())
            .or_insert_with(|| Rate::per(most, Duration::from_secs(60), now));
        if !rate.take(now) {
            return Err(QuotaError::RateLimited(most, "pool joins a minute").into());
        }
        self.quotas.take_pool_join(ip)?;
        Ok(())
    }

    /// Seats a server bot opposite each player who waited in a pool past `pool_bot_after`
    /// (the bot whose rating is closest), until the server stops: one task for every wait,
    /// asleep until the next one is due.
    async fn run_pool_bots(self: Arc<Lobby>) {
        let mut stop = self.stopping.listen();
        loop {
            let next = lock(&self.state).pool.iter().filter_map(|w| w.bot_at).min();
            let sleep = async {
                match next {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            let woken = stop.or(async {
                tokio::select! {
                    () = sleep => false,
                    () = self.waits.notified() => true,
                }
            });
            match woken.await {
                None => return,
                Some(true) => continue,
                Some(false) => {}
            }
            let now = Instant::now();
            let due: Vec<Waiting> = {
                let mut state = lock(&self.state);
                let (due, waiting) = std::mem::take(&mut state.pool)
                    .into_iter()
                    .partition(|w| w.bot_at.is_some_and(|at| at <= now));
                state.pool = waiting;
                due
            };
            for waiting in due {
                self.pair_with_bot(waiting).await;
            }
        }
    }

    /// Pairs `waiting`, no longer in the pool, with the server's bot whose rating is closest
    /// to its own, on its player sockets.
    async fn pair_with_bot(self: &Arc<Lobby>, waiting: Waiting) {
        let bots: Vec<(Bot, f64)> = Bot::ALL
            .into_iter()
            .map(|kind| {
                let name = Player::Bot(kind).bot_name().unwrap_or_default();
                (kind, self.ratings.of(&name).rating)
            })
            .collect();
        let Some(&(kind, _)) = bots.iter().min_by(|a, b| {
            (a.1 - waiting.rating)
                .abs()
                .total_cmp(&(b.1 - waiting.rating).abs())
        }) else {
            return;
        };
        let entropy = &*self.entropy;
        let side = random_side(entropy);
        let first = random_side(entropy);
        let id = secret::random_hex(entropy, ID_BYTES);
        let token = secret::random_hex(entropy, TOKEN_BYTES);
        let mut seating = Seating::new(id, first);
        seating.players[side.other().index()] = Player::Bot(kind);
        seating.tokens[side.index()] = Some(secret::digest(&token));
        seating.names[side.index()] = Some(waiting.player.clone());
        seating.ips[side.index()] = Some(waiting.ip);
        match self
            .games
            .open_game(&waiting.settings, seating, Some(waiting.ip), Vec::new())
            .await
        {
            Ok(game) => self.sockets.tell(
                &waiting.player,
                &LobbyMessage::Paired {
                    game,
                    side: SideWord(side),
                    token,
                },
            ),
            Err(e) => tracing::error!(error = %e, "a pool's bot game not made"),
        }
    }

    /// `DELETE /api/pool` by `player` (nothing to leave is no error).
    pub(crate) fn leave_pool(&self, player: &str) {
        let folded = fold(player);
        lock(&self.state).pool.retain(|w| fold(&w.player) != folded);
    }
}

impl Lobby {
    /// This node no longer holds the lobby (its lease lapsed): every seek and pool entry
    /// goes, and every player socket is told to connect again (1012), to the lobby's owner
    /// now.
    #[cfg(feature = "nodes")]
    pub(crate) fn given_up(&self) {
        self.sockets.close_all(
            crate::wire::CloseCode::Restart,
            "the lobby moves to another server; connect again",
        );
    }
}

/// A lobby socket's place among the open lobby sockets, given back when dropped (or taken
/// by a newcomer when the lobby is full and this socket's address holds the most).
pub(crate) struct Watching {
    lobby: Arc<Lobby>,
    ip: IpAddr,
    id: u64,
    evicted: Option<oneshot::Receiver<()>>,
}

impl Watching {
    /// What fires when this socket gives its place up to a newcomer: it is to close.
    pub(crate) fn evicted(&mut self) -> Option<oneshot::Receiver<()>> {
        self.evicted.take()
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let mut state = lock(&self.lobby.state);
        let Some(held) = state.watchers.get_mut(&self.ip) else {
            return;
        };
        let before = held.len();
        held.retain(|(id, _)| *id != self.id);
        let gone = before - held.len();
        if held.is_empty() {
            state.watchers.remove(&self.ip);
        }
        state.watching -= gone;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_pairs_the_closest_rating_within_the_pool() {
        let waiting = [
            ("5+3", 1900.0),
            ("10+0", 1500.0),
            ("5+3", 1450.0),
            ("5+3", 1550.0),
            ("5+3 rated", 1500.0),
        ];
        // 1450 and 1550 are as close to 1500: the one waiting longer.
        assert_eq!(closest(&waiting, "5+3", 1500.0), Some(2));
        assert_eq!(closest(&waiting, "5+3", 1540.0), Some(3));
        assert_eq!(closest(&waiting, "5+3", 2400.0), Some(0));
        assert_eq!(closest(&waiting, "10+0", 900.0), Some(1));
        assert_eq!(closest(&waiting, "3+2", 1500.0), None);
    }
}
