//! The games the server holds, and the one path every change takes: a room's lock, the
//! room's decision, the commit, then the messages to each recipient. One writer per game
//! (the room's lock); games share nothing but the database's writer thread.

mod admin;
mod games;
mod lobby;
mod nodes;
mod pauses;
mod players;
mod quota;
mod rematch;
mod replays;
mod tasks;

pub use games::Settings;
pub use lobby::{closest, pool_name};
pub use nodes::Place;
pub use quota::{Quotas, SocketSlot};

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use salpakan::Side;
use thiserror::Error;
use tokio::sync::{Mutex as AsyncMutex, Notify, mpsc, watch};
use tokio::time::Instant;

use crate::budget::Budget;
use crate::config::Config;
use crate::room::{Answer, Event, Phase, Player, Recipient, RestoreError, Room, Saved};
use crate::secret::{Entropy, ID_BYTES};
use crate::store::{Ended, Ending, GameResult, PlayerRow, Store, StoreError, Write};
use crate::wire::{CloseCode, Code, Refusal, ServerMessage, SideWord};

/// A frame on its way to one socket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Out {
    /// A text frame.
    Text(Arc<str>),
    /// Frames to write in order, as one item (a replay: however long, it takes one place in
    /// the socket's queue).
    Frames(Vec<Arc<str>>),
    /// Close the socket with this code and reason.
    Close(CloseCode, &'static str),
}

/// Why the hub refused a request: the HTTP layer gives each its status.
#[derive(Debug, Error)]
pub enum HubError {
    /// A body that is not the contract's, or values out of range (400).
    #[error("{0}")]
    Invalid(Refusal),
    /// No such game, or not this invite: one reply for both (404).
    #[error("no such game, or not this invite")]
    NotFound,
    /// No such game or seat, for a socket: one reply for every wrong token (401).
    #[error("no such game or seat")]
    Unauthorized,
    /// The seat an invite opens is taken (409).
    #[error("the seat is taken")]
    SeatTaken,
    /// The record of a game that is not over (409).
    #[error("the game is not over")]
    NotOver,
    /// Past the unfinished games per client address (429).
    #[error("at most {0} unfinished games per client")]
    TooManyGames(usize),
    /// Past the open sockets per client address, or per seat (429).
    #[error("at most {0} sockets per client")]
    TooManyConnections(usize),
    /// Past a seat's sockets opened in a minute (429).
    #[error("at most {0} new sockets a minute for a seat")]
    TooManyReconnects(usize),
    /// Past the games a client address may create in an hour (429).
    #[error("at most {0} new games an hour per client")]
    TooManyCreated(usize),
    /// A name the contract does not allow (400).
    #[error("a name is 3 to 20 characters from A-Z a-z 0-9 _ -")]
    BadName,
    /// A name taken in any case, or a bot's (409).
    #[error("that name is taken")]
    NameTaken,
    /// A missing or wrong player key (401), the same reply for every kind of wrong key.
    #[error("a player's key is needed, and this is not one")]
    BadKey,
    /// A seek or pool entry with no player socket open (409).
    #[error("open a player socket first: seeks and pool entries live only while one is open")]
    NoSocket,
    /// Past the open seeks of a player, or of an address (429).
    #[error("at most {0} open seeks")]
    TooManySeeks(usize),
    /// A player accepting its own seek (409).
    #[error("that is your own seek")]
    OwnSeek,
    /// A player taking the second seat of a game whose first it holds (409).
    #[error("you hold the other seat of this game: the second seat is for another player")]
    OwnGame,
    /// Past the players an address may register in an hour (429).
    #[error("at most {0} new players an hour per client")]
    TooManyPlayers(usize),
    /// The server is draining: it makes no new game (503).
    #[error("the server is draining: it makes no new games; try again shortly")]
    Draining,
    /// The game moved to another node after the request reached this one (503).
    #[error("the game moved to another server; try again")]
    Elsewhere(String),
    /// The database failed (500; the cause is logged, never sent).
    #[error("the server could not do that")]
    Store(#[from] StoreError),
    /// A kept record the engine does not replay (500; logged).
    #[error("the server could not do that")]
    Unreplayable(String),
}

impl HubError {
    /// The refusal a client receives: the contract's code and a message that names nothing
    /// the client does not know.
    #[must_use]
    pub fn refusal(&self) -> Refusal {
        let code = match self {
            HubError::Invalid(refusal) => return refusal.clone(),
            HubError::NotFound => Code::NotFound,
            HubError::Unauthorized => Code::Unauthorized,
            HubError::SeatTaken => Code::SeatTaken,
            HubError::NotOver => Code::NotOver,
            HubError::TooManyGames(_) => Code::TooManyGames,
            HubError::TooManyConnections(_) | HubError::TooManyReconnects(_) => {
                Code::TooManyConnections
            }
            HubError::TooManyCreated(_) => Code::TooManyGames,
            HubError::BadName => Code::BadName,
            HubError::NameTaken => Code::NameTaken,
            HubError::BadKey => Code::BadKey,
            HubError::NoSocket => Code::NoSocket,
            HubError::TooManySeeks(_) => Code::TooManySeeks,
            HubError::OwnSeek => Code::OwnSeek,
            HubError::OwnGame => Code::OwnGame,
            HubError::TooManyPlayers(_) => Code::TooManyPlayers,
            HubError::Draining | HubError::Elsewhere(_) => Code::Draining,
            HubError::Store(_) | HubError::Unreplayable(_) => Code::Internal,
        };
        Refusal::new(code, self.to_string())
    }

    fn invalid(code: Code, message: impl Into<String>) -> HubError {
        HubError::Invalid(Refusal::new(code, message))
    }
}

struct Subscriber {
    id: u64,
    to: Recipient,
    tx: mpsc::Sender<Out>,
}

struct LiveState {
    room: Room,
    subscribers: Vec<Subscriber>,
    /// Each seat's message budget, shared by its sockets (a reconnect does not refill it).
    budgets: [Arc<Mutex<Budget>>; 2],
    /// Each seat's sockets opened in the last minute.
    connects: [Budget; 2],
    /// Each seat's presence as everyone was last told it, and when.
    shown: [(bool, Option<Instant>); 2],
    /// When a change of presence told too soon after the last is to be told.
    presence_due: Option<Instant>,
    creator: Option<IpAddr>,
    /// The database refused a write: the room is no longer the database's, and is dropped.
    broken: bool,
    /// The game expired before it started and was deleted: it answers as an unknown game.
    gone: bool,
    /// Whether the game is counted among the games in play.
    counted: bool,
}

/// A game in memory, behind its one lock.
pub struct Live {
    id: String,
    /// What the operator's list and the metrics read without the room's lock.
    shown: admin::Shown,
    state: AsyncMutex<LiveState>,
    /// Wakes the room's timer (a deadline may have moved).
    timer: Notify,
    /// Wakes the room's bot (it may be its move).
    bot: Notify,
}

impl Live {
    /// The game's id.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.id
    }
}

/// Every game the server holds.
pub struct Hub {
    config: Config,
    store: Store,
    entropy: Arc<dyn Entropy>,
    rooms: Mutex<HashMap<String, Arc<Live>>>,
    quotas: Arc<Quotas>,
    next_subscriber: AtomicU64,
    /// Rooms replayed from the database since the start.
    replays: AtomicU64,
    /// The pauses of the server itself, charged to nobody.
    pauses: pauses::Pauses,
    shutdown: watch::Sender<bool>,
    players: Mutex<players::Players>,
    lobby: lobby::Lobby,
    /// Finished games' replays: the last ones asked, and the gate of their computation.
    finished_replays: replays::Replays,
    /// Games in memory in their playing phase.
    playing: AtomicUsize,
    /// Whether it is ready, or draining.
    readiness: admin::Readiness,
    /// The key of the nodes' forwarded requests (one node of several).
    cluster_key: Option<String>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Hub {
    /// A hub over `store`, holding `unfinished` (restored; a game the database holds but the
    /// rules refuse is left out, and said on stderr) and `players`, its timers and bots
    /// started.
    ///
    /// Call inside a tokio runtime.
    #[must_use]
    pub fn new(
        config: Config,
        store: Store,
        entropy: Arc<dyn Entropy>,
        unfinished: Vec<Saved>,
        players: Vec<PlayerRow>,
        cluster: Option<crate::store::Cluster>,
    ) -> Arc<Hub> {
        let (cluster_key, notices) = match cluster {
            Some(c) => (Some(c.key), Some(c.notices)),
            None => (None, None),
        };
        let hub = Arc::new(Hub {
            config,
            store,
            entropy,
            rooms: Mutex::new(HashMap::new()),
            quotas: Arc::new(Quotas::default()),
            next_subscriber: AtomicU64::new(1),
            replays: AtomicU64::new(0),
            pauses: pauses::Pauses::new(Instant::now()),
            shutdown: watch::channel(false).0,
            players: Mutex::new(players::Players::new(players)),
            lobby: lobby::Lobby::default(),
            finished_replays: replays::Replays::default(),
            playing: AtomicUsize::new(0),
            readiness: admin::Readiness::default(),
            cluster_key,
        });
        if let Some(notices) = notices {
            tokio::spawn(Arc::clone(&hub).run_lease());
            tokio::spawn(Arc::clone(&hub).run_sweeper(notices));
        }
        tokio::spawn(Arc::clone(&hub).run_pruner());
        tokio::spawn(Arc::clone(&hub).run_lobby());
        tokio::spawn(Arc::clone(&hub).watch_pauses());
        for saved in unfinished {
            let id = saved.spec.id.clone();
            let creator = saved.creator;
            match hub.restore(saved) {
                Ok(room) => {
                    // The creator's count of unfinished games survives the restart.
                    if let Some(ip) = creator {
                        hub.quotas.restore_game(ip);
                    }
                    hub.admit(room, creator);
                }
                Err(e) => {
                    let store = hub.store.clone();
                    let write = quarantine(&id, &e);
                    tokio::spawn(async move { store.write(vec![write]).await });
                }
            }
        }
        hub
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Games in memory.
    #[must_use]
    pub fn games_in_memory(&self) -> usize {
        lock(&self.rooms).len()
    }

    /// Every address's quotas.
    #[must_use]
    pub fn quotas(&self) -> &Arc<Quotas> {
        &self.quotas
    }

    /// Games in their playing phase.
    #[must_use]
    pub fn playing(&self) -> usize {
        self.playing.load(Ordering::Relaxed)
    }

    /// Counts the room among the games in play, or no longer, as its phase says now; notes
    /// its phase and plies for the operator.
    fn recount(&self, live: &Live, state: &mut LiveState) {
        live.shown.note(&state.room, state.broken);
        let playing = state.room.phase() == Phase::Playing && !state.broken;
        if playing != state.counted {
            state.counted = playing;
            // The lobby's frame shows the new count within a second.
            if playing {
                self.playing.fetch_add(1, Ordering::Relaxed);
            } else {
                self.playing.fetch_sub(1, Ordering::Relaxed);
            }
        }
    }

    /// Asks every socket to close (1012) and every room task to end: the server is stopping.
    pub fn shut_down(&self) {
        self.shutdown.send_replace(true);
        for live in lock(&self.rooms).values() {
            live.timer.notify_one();
            live.bot.notify_one();
        }
    }

    /// A receiver that changes when the server stops.
    #[must_use]
    pub fn stopping(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    /// The time now for `room`: a pause of the server noticed meanwhile is taken out of its
    /// clock and its absences first.
    fn now(&self, room: &mut Room) -> Instant {
        self.at(room, Instant::now())
    }

    /// `at` for `room`, the pauses noticed by now taken out first (as [`Hub::now`]).
    fn at(&self, room: &mut Room, at: Instant) -> Instant {
        room.absorb_pauses(self.pauses.notice(Instant::now()), at);
        at
    }

    /// Every pause of the server noticed so far, at `now` (a socket's idleness leaves them
    /// out).
    #[must_use]
    pub fn paused(&self, now: Instant) -> std::time::Duration {
        self.pauses.notice(now)
    }

    /// Rooms replayed from the database since the start (each unfinished game at start, and
    /// each game loaded for a request since).
    #[must_use]
    pub fn replays(&self) -> u64 {
        self.replays.load(Ordering::Relaxed)
    }

    fn restore(&self, saved: Saved) -> Result<Room, RestoreError> {
        self.replays.fetch_add(1, Ordering::Relaxed);
        let limits = &self.config.limits;
        Room::restore(
            saved,
            limits.abandon_grace,
            self.config.bot_budget,
            Instant::now(),
        )
    }

    /// Puts a room in memory (unless one is there already) and starts its tasks.
    fn admit(self: &Arc<Hub>, mut room: Room, creator: Option<IpAddr>) -> Arc<Live> {
        room.expire_setup(
            self.config.limits.setup_expiry,
            crate::clock::unix_ms(),
            Instant::now(),
        );
        let id = room.spec().id.clone();
        let over = room.phase().finished();
        let shown = Side::ALL.map(|side| (room.present(side), None));
        let has_bot = room
            .spec()
            .players
            .iter()
            .any(|p| matches!(p, Player::Bot(_)));
        let live = {
            let mut rooms = lock(&self.rooms);
            if let Some(existing) = rooms.get(&id) {
                return Arc::clone(existing);
            }
            let live = Arc::new(Live {
                id: id.clone(),
                shown: admin::Shown::of(room.spec()),
                state: AsyncMutex::new(LiveState {
                    room,
                    subscribers: Vec::new(),
                    budgets: [(); 2]
                        .map(|()| Arc::new(Mutex::new(Budget::new(&self.config.limits)))),
                    shown,
                    presence_due: None,
                    connects: [(); 2].map(|()| {
                        Budget::per(
                            self.config.limits.seat_connects_per_minute,
                            std::time::Duration::from_secs(60),
                        )
                    }),
                    creator,
                    broken: false,
                    gone: false,
                    counted: false,
                }),
                timer: Notify::new(),
                bot: Notify::new(),
            });
            rooms.insert(id, Arc::clone(&live));
            live
        };
        if let Ok(mut state) = live.state.try_lock() {
            self.recount(&live, &mut state);
        }
        if !over {
            tokio::spawn(Arc::clone(self).run_timer(Arc::clone(&live)));
            if has_bot {
                tokio::spawn(Arc::clone(self).run_bot(Arc::clone(&live)));
            }
        }
        live
    }

    /// The game `id`, from memory or from the database.
    async fn live(self: &Arc<Hub>, id: &str) -> Result<Option<Arc<Live>>, HubError> {
        if !plausible_id(id) {
            return Ok(None);
        }
        if let Some(live) = lock(&self.rooms).get(id) {
            return Ok(Some(Arc::clone(live)));
        }
        if let Place::At(url) = self.place(id).await? {
            return Err(HubError::Elsewhere(url));
        }
        self.load_here(id).await
    }

    /// The game `id` loaded from the database into memory (this node owns it).
    async fn load_here(self: &Arc<Hub>, id: &str) -> Result<Option<Arc<Live>>, HubError> {
        if let Some(live) = lock(&self.rooms).get(id) {
            return Ok(Some(Arc::clone(live)));
        }
        let Some(saved) = self.store.load(id).await? else {
            return Ok(None);
        };
        // An unfinished game reloaded (after a refused write) still holds its creator's
        // slot: it is given back when the game ends.
        let creator = saved.creator;
        match self.restore(saved) {
            Ok(room) => Ok(Some(self.admit(room, creator))),
            // A stored game the rules refuse is quarantined (if the start's own quarantine
            // of it is not committed yet, this one is) and answers as no game.
            Err(e) => {
                self.store.write(vec![quarantine(id, &e)]).await?;
                Ok(None)
            }
        }
    }

    fn release_game(&self, ip: Option<IpAddr>) {
        if let Some(ip) = ip {
            self.quotas.release_game(ip);
        }
    }

    /// Takes `live` out of memory, if it is still the room held under its id.
    fn forget(&self, live: &Arc<Live>) {
        let mut rooms = lock(&self.rooms);
        if rooms.get(&live.id).is_some_and(|l| Arc::ptr_eq(l, live)) {
            rooms.remove(&live.id);
        }
    }

    /// A socket for `to` opened: it gets the `state`, then every event. Returns its
    /// subscriber id and its message budget: a seat's is shared by the seat's sockets, a
    /// spectator's is `spectating` (its address's, shared by the address's spectators) or,
    /// without one, its own.
    pub async fn attach(
        &self,
        live: &Arc<Live>,
        to: Recipient,
        tx: mpsc::Sender<Out>,
        spectating: Option<Arc<Mutex<Budget>>>,
    ) -> (u64, Arc<Mutex<Budget>>) {
        let id = self.next_subscriber.fetch_add(1, Ordering::Relaxed);
        let mut state = live.state.lock().await;
        let budget = match to {
            Recipient::Seat(side) => Arc::clone(&state.budgets[side.index()]),
            Recipient::Spectator => {
                spectating.unwrap_or_else(|| Arc::new(Mutex::new(Budget::new(&self.config.limits))))
            }
        };
        if state.gone {
            let _ = tx.try_send(Out::Close(CloseCode::Expired, GONE_REASON));
            return (id, budget);
        }
        if let Recipient::Seat(side) = to
            && state.room.connect(side)
        {
            self.show_presence(live, &mut state, Instant::now());
            live.timer.notify_one();
        }
        let now = self.now(&mut state.room);
        let state_frame = state.room.state(to, now).to_json();
        let _ = tx.try_send(Out::Text(state_frame.into()));
        state.subscribers.push(Subscriber { id, to, tx });
        (id, budget)
    }

    /// The socket `subscriber` closed.
    pub async fn detach(&self, live: &Arc<Live>, subscriber: u64, to: Recipient) {
        let mut state = live.state.lock().await;
        state.subscribers.retain(|s| s.id != subscriber);
        if let Recipient::Seat(side) = to
            && state.room.disconnect(side, Instant::now())
        {
            self.show_presence(live, &mut state, Instant::now());
            live.timer.notify_one();
        }
        self.evict_if_done(live, &state);
    }

    fn evict_if_done(&self, live: &Arc<Live>, state: &LiveState) {
        if state.room.phase().finished() && state.subscribers.is_empty() {
            self.forget(live);
        }
    }

    /// One frame's text from `subscriber`, a socket for `to`, read at `received`: the time
    /// the room decides it at (waiting for the room's lock is charged to nobody's clock).
    /// A `hello`'s replay is paid before it is sent: `pay` is given the number of event
    /// frames it would send, and `false` from it (the socket's budget cannot pay) sends
    /// nothing and returns `false`.
    pub async fn handle(
        self: &Arc<Hub>,
        live: &Arc<Live>,
        subscriber: u64,
        to: Recipient,
        text: &str,
        received: Instant,
        pay: impl FnOnce(usize) -> bool + Send,
    ) -> bool {
        let mut state = live.state.lock().await;
        if state.broken {
            return true;
        }
        let reply = |state: &LiveState, out: Out| {
            if let Some(s) = state.subscribers.iter().find(|s| s.id == subscriber) {
                let _ = s.tx.try_send(out);
            }
        };
        let now = self.at(&mut state.room, received);
        match state.room.handle(to, text, now) {
            Answer::Refused(refusal) => {
                crate::telemetry::refused(refusal.code.word());
                reply(&state, Out::Text(refusal.message().to_json().into()))
            }
            Answer::Messages(messages) => {
                for message in &messages {
                    reply(&state, Out::Text(message.to_json().into()));
                }
            }
            Answer::Replay(frames) => {
                if !pay(frames.len()) {
                    return false;
                }
                reply(&state, Out::Frames(frames));
            }
            Answer::Events(from) => {
                self.settle(live, &mut state, from).await;
                if state.room.rematch_due(now) {
                    self.make_rematch(live, &mut state, now).await;
                }
            }
            Answer::Rematch(side) => {
                if let Some(message) = self.reissue(&state, side).await {
                    reply(&state, Out::Text(message.to_json().into()));
                }
            }
        }
        true
    }

    /// Commits the room's events from index `from`, then sends them to every recipient.
    async fn settle(&self, live: &Arc<Live>, state: &mut LiveState, from: usize) {
        let events = &state.room.events()[from..];
        if events.is_empty() {
            return;
        }
        // A game's end is kept (and its players' results counted) once: with the events that
        // end it, not with a rematch offer after it.
        let ends = events
            .iter()
            .any(|e| matches!(e, Event::Over { .. } | Event::Aborted { .. }));
        let write_ending = if ends { ending(&state.room) } else { None };
        let write = Write::Events {
            game: live.id.clone(),
            first_v: from as u64 + 1,
            events: events.to_vec(),
            ending: write_ending.clone(),
        };
        let committed = match self.store.write(vec![write]).await {
            Ok(committed) => committed,
            Err(e) => {
                tracing::error!(game = %live.id, error = %e, "commit failed: the game reloads");
                state.broken = true;
                self.recount(live, state);
                for s in &state.subscribers {
                    let _ =
                        s.tx.try_send(Out::Close(CloseCode::Reloading, "the game is reloading"));
                }
                state.subscribers.clear();
                self.forget(live);
                live.timer.notify_one();
                live.bot.notify_one();
                return;
            }
        };
        if state.presence_due.take().is_some() {
            self.tell_presence(live, state, Instant::now(), true);
        }
        state.room.sent(from, Instant::now());
        lock(&self.players).update(committed.players);
        self.recount(live, state);
        admin::tell(&live.id, &state.room.events()[from..], state.room.ply());
        let room = &state.room;
        for v in from as u64 + 1..=room.version() {
            // A socket that cannot keep up is dropped (its task closes it with 1008).
            state
                .subscribers
                .retain(|s| s.tx.try_send(Out::Text(room.frame(v, s.to))).is_ok());
        }
        if room.phase().finished() {
            let creator = state.creator.take();
            self.release_game(creator);
            self.evict_if_done(live, state);
        }
        live.timer.notify_one();
        live.bot.notify_one();
    }
}

const GONE_REASON: &str = "the game expired before it started";

impl Hub {
    /// Deletes a game that expired in its setup phase: from the database first, then from
    /// memory; its sockets close with [`CloseCode::Expired`], and its creator's count goes
    /// down. If the database refuses, the room stays as it is and the timer tries again later.
    async fn discard(&self, live: &Arc<Live>, state: &mut LiveState) -> bool {
        if let Err(e) = self.store.write(vec![Write::Delete(live.id.clone())]).await {
            tracing::error!(game = %live.id, error = %e, "expired game not deleted yet");
            return false;
        }
        state.gone = true;
        for s in &state.subscribers {
            let _ = s.tx.try_send(Out::Close(CloseCode::Expired, GONE_REASON));
        }
        state.subscribers.clear();
        let creator = state.creator.take();
        self.release_game(creator);
        self.forget(live);
        live.bot.notify_one();
        true
    }
}

/// The write that leaves out stored game `id`, which the rules refuse (`why`), from now on;
/// said in the log.
fn quarantine(id: &str, why: &RestoreError) -> Write {
    tracing::warn!(game = %id, error = %why, "game not restored: quarantined");
    Write::Quarantine {
        game: id.to_owned(),
        reason: why.to_string(),
    }
}

/// What a room keeps in its row once it is over: its summary and record, and when it ended.
fn ending(room: &Room) -> Option<Ended> {
    let record = match room.phase() {
        Phase::Aborted => None,
        _ => Some(room.record()?),
    };
    let results = match (room.phase(), room.status().winner()) {
        (Phase::Aborted, _) => Vec::new(),
        (_, winner) => Side::ALL
            .into_iter()
            .filter_map(|side| {
                let name = room.spec().names[side.index()].clone()?;
                let result = match winner {
                    None => GameResult::Drawn,
                    Some(w) if w == side => GameResult::Won,
                    Some(_) => GameResult::Lost,
                };
                Some((name, result))
            })
            .collect(),
    };
    let summary = serde_json::to_string(&room.summary(Instant::now())).ok()?;
    Some(Ended {
        ending: Ending { summary, record },
        ended_ms: crate::clock::unix_ms(),
        rated: room.spec().rated,
        results,
    })
}

fn plausible_id(id: &str) -> bool {
    id.len() == 2 * ID_BYTES && id.bytes().all(|b| b.is_ascii_hexdigit())
}

impl Hub {
    /// Tells everyone each seat's presence that changed since they were last told, at most
    /// once a `presence_gap` (a second) a seat: a change sooner than that waits for the room's timer (which
    /// tells the presence as it is then), so a seat that drops and comes back tells its
    /// opponent little, and a flood of reconnects at most once a second.
    fn show_presence(&self, live: &Live, state: &mut LiveState, now: Instant) {
        self.tell_presence(live, state, now, false);
    }

    /// As [`Hub::show_presence`]; `at_once` tells every change now (before events that end
    /// the game, so that they come after what led to them).
    fn tell_presence(&self, live: &Live, state: &mut LiveState, now: Instant, at_once: bool) {
        let gap = self.config.limits.presence_gap;
        for side in Side::ALL {
            let present = state.room.present(side);
            let (shown, at) = state.shown[side.index()];
            if present == shown {
                continue;
            }
            // Once the game is over no timer runs: every change is told at once (a seat's
            // reconnects a minute still bound them).
            let wait = !at_once && !state.room.phase().finished();
            match at {
                Some(at) if wait && now < at + gap => {
                    let due = at + gap;
                    state.presence_due = Some(state.presence_due.map_or(due, |d| d.min(due)));
                    live.timer.notify_one();
                }
                _ => {
                    broadcast_presence(state, side, present);
                    state.shown[side.index()] = (present, Some(now));
                }
            }
        }
    }
}

fn broadcast_presence(state: &mut LiveState, side: Side, connected: bool) {
    let frame: Arc<str> = ServerMessage::Presence {
        side: SideWord(side),
        connected,
    }
    .to_json()
    .into();
    state
        .subscribers
        .retain(|s| s.tx.try_send(Out::Text(frame.clone())).is_ok());
}
