//! The games the server holds, and the one path every change takes: a room's lock, the
//! room's state machine, the commit, then the frames to each recipient. One writer per game
//! (the room's lock); games share nothing but the database's writer thread.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use salpakan::{Rules, Side};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::{Mutex as AsyncMutex, Notify, mpsc, watch};
use tokio::time::{Instant, sleep_until};

use crate::clock::ClockSettings;
use crate::config::Config;
use crate::room::{Answer, Event, Phase, Player, Recipient, Room, Saved, Spec};
use crate::secret::{self, Entropy, ID_BYTES, INVITE_BYTES, TOKEN_BYTES};
use crate::store::{Store, Write};

/// A frame on its way to one socket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Out {
    /// A text frame.
    Text(String),
    /// Close the socket with this code and reason.
    Close(u16, &'static str),
}

/// A refused HTTP request: its status and `{"error", "message"}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpError {
    /// The HTTP status.
    pub status: u16,
    /// The error code.
    pub code: &'static str,
    /// What was wrong.
    pub message: String,
}

impl HttpError {
    fn new(status: u16, code: &'static str, message: impl Into<String>) -> HttpError {
        HttpError {
            status,
            code,
            message: message.into(),
        }
    }

    /// The one reply to an unknown game or a wrong invite.
    fn not_found() -> HttpError {
        HttpError::new(404, "not-found", "no such game, or not this invite")
    }

    fn internal(message: String) -> HttpError {
        eprintln!("salpakan-server: {message}");
        HttpError::new(500, "internal", "the server could not do that")
    }

    /// The reply's JSON body.
    #[must_use]
    pub fn body(&self) -> Value {
        json!({"error": self.code, "message": self.message})
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
    creator: Option<IpAddr>,
    /// The database refused a write: the room is no longer the database's, and is dropped.
    broken: bool,
}

/// A game in memory, behind its one lock.
pub struct Live {
    id: String,
    state: AsyncMutex<LiveState>,
    /// Wakes the room's timer (a deadline may have moved).
    timer: Notify,
    /// Wakes the room's bot (it may be its move).
    bot: Notify,
}

#[derive(Default)]
struct PerIp {
    sockets: usize,
    games: usize,
}

/// Every game the server holds.
pub struct Hub {
    config: Config,
    store: Store,
    entropy: Arc<dyn Entropy>,
    rooms: Mutex<HashMap<String, Arc<Live>>>,
    clients: Mutex<HashMap<IpAddr, PerIp>>,
    next_subscriber: AtomicU64,
    shutdown: watch::Sender<bool>,
}

/// `POST /api/games`: every field optional.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct CreateRequest {
    side: Option<String>,
    opponent: Option<String>,
    rules: Option<RulesRequest>,
    first: Option<String>,
    clock: Option<ClockSettings>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RulesRequest {
    setup_rows: Option<i64>,
    move_limit: Option<i64>,
}

#[derive(Debug, Deserialize)]
struct JoinRequest {
    invite: String,
}

/// Holds one of a client address's open sockets until dropped.
pub struct SocketSlot {
    hub: Arc<Hub>,
    ip: IpAddr,
}

impl Drop for SocketSlot {
    fn drop(&mut self) {
        let mut clients = lock(&self.hub.clients);
        if let Some(count) = clients.get_mut(&self.ip) {
            count.sockets = count.sockets.saturating_sub(1);
            if count.sockets == 0 && count.games == 0 {
                clients.remove(&self.ip);
            }
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn side_choice(word: Option<&str>, what: &str, entropy: &dyn Entropy) -> Result<Side, String> {
    match word {
        None | Some("random") => Ok(if secret::random_u64(entropy) & 1 == 0 {
            Side::White
        } else {
            Side::Black
        }),
        Some("white") => Ok(Side::White),
        Some("black") => Ok(Side::Black),
        Some(other) => Err(format!(
            "{what} must be white, black or random, not {other:?}"
        )),
    }
}

fn parse_body<'a, T: Deserialize<'a>>(body: &'a str) -> Result<T, HttpError> {
    serde_json::from_str(body).map_err(|e| HttpError::new(400, "bad-message", e.to_string()))
}

fn plausible_id(id: &str) -> bool {
    id.len() == 2 * ID_BYTES && id.bytes().all(|b| b.is_ascii_hexdigit())
}

impl Hub {
    /// A hub over `store`, holding `unfinished` (restored; a game the database holds but the
    /// rules refuse is left out, and said on stderr), its timers and bots started.
    ///
    /// Call inside a tokio runtime.
    #[must_use]
    pub fn new(
        config: Config,
        store: Store,
        entropy: Arc<dyn Entropy>,
        unfinished: Vec<Saved>,
    ) -> Arc<Hub> {
        let hub = Arc::new(Hub {
            config,
            store,
            entropy,
            rooms: Mutex::new(HashMap::new()),
            clients: Mutex::new(HashMap::new()),
            next_subscriber: AtomicU64::new(1),
            shutdown: watch::channel(false).0,
        });
        for saved in unfinished {
            let id = saved.spec.id.clone();
            match hub.restore(saved) {
                Ok(room) => {
                    hub.admit(room, None);
                }
                Err(e) => eprintln!("salpakan-server: game {id} not restored: {e}"),
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

    fn restore(&self, saved: Saved) -> Result<Room, String> {
        let limits = &self.config.limits;
        Room::restore(
            saved,
            limits.abandon_grace,
            self.config.bot_budget,
            Instant::now(),
        )
    }

    /// Puts a room in memory (unless one is there already) and starts its tasks.
    fn admit(self: &Arc<Hub>, room: Room, creator: Option<IpAddr>) -> Arc<Live> {
        let id = room.spec().id.clone();
        let over = room.phase() == Phase::Over;
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
                state: AsyncMutex::new(LiveState {
                    room,
                    subscribers: Vec::new(),
                    creator,
                    broken: false,
                }),
                timer: Notify::new(),
                bot: Notify::new(),
            });
            rooms.insert(id, Arc::clone(&live));
            live
        };
        if !over {
            tokio::spawn(Arc::clone(self).run_timer(Arc::clone(&live)));
            if has_bot {
                tokio::spawn(Arc::clone(self).run_bot(Arc::clone(&live)));
            }
        }
        live
    }

    /// The game `id`, from memory or from the database.
    async fn live(self: &Arc<Hub>, id: &str) -> Result<Option<Arc<Live>>, HttpError> {
        if !plausible_id(id) {
            return Ok(None);
        }
        if let Some(live) = lock(&self.rooms).get(id) {
            return Ok(Some(Arc::clone(live)));
        }
        let Some(saved) = self.store.load(id).await.map_err(HttpError::internal)? else {
            return Ok(None);
        };
        let room = self.restore(saved).map_err(HttpError::internal)?;
        Ok(Some(self.admit(room, None)))
    }

    /// `POST /api/games` from `ip` with `body`: the reply's JSON.
    ///
    /// # Errors
    /// 400 for a body that is not the contract's, 429 past the games per client.
    pub async fn create(self: &Arc<Hub>, body: &str, ip: IpAddr) -> Result<Value, HttpError> {
        let body = if body.trim().is_empty() { "{}" } else { body };
        let request: CreateRequest = parse_body(body)?;
        let bad = |code, message: String| HttpError::new(400, code, message);
        let entropy = &*self.entropy;
        let side = side_choice(request.side.as_deref(), "side", entropy)
            .map_err(|e| bad("bad-message", e))?;
        let first = side_choice(request.first.as_deref(), "first", entropy)
            .map_err(|e| bad("bad-message", e))?;
        let opponent = Player::from_word(request.opponent.as_deref().unwrap_or("human"))
            .map_err(|e| bad("bad-message", e))?;
        let rules = match request.rules {
            None => Rules::default(),
            Some(r) => Rules::from_numbers(r.setup_rows.unwrap_or(3), r.move_limit.unwrap_or(0))
                .map_err(|e| bad("bad-rules", e.to_string()))?,
        };
        let clock = request
            .clock
            .map(ClockSettings::check)
            .transpose()
            .map_err(|e| bad("bad-clock", e))?;
        {
            let mut clients = lock(&self.clients);
            let count = clients.entry(ip).or_default();
            if count.games >= self.config.limits.games_per_ip {
                return Err(HttpError::new(
                    429,
                    "too-many-games",
                    format!(
                        "at most {} unfinished games per client",
                        self.config.limits.games_per_ip
                    ),
                ));
            }
            count.games += 1;
        }
        let id = secret::random_hex(entropy, ID_BYTES);
        let token = secret::random_hex(entropy, TOKEN_BYTES);
        let invite = (opponent == Player::Human).then(|| secret::random_hex(entropy, INVITE_BYTES));
        let mut players = [Player::Human; 2];
        players[side.other().index()] = opponent;
        let mut tokens = [None, None];
        tokens[side.index()] = Some(secret::digest(&token));
        let spec = Spec {
            id: id.clone(),
            rules,
            first,
            players,
            clock,
            tokens,
            invite: invite.as_deref().map(secret::digest),
            bot_seed: secret::random_u64(entropy),
        };
        let room = Room::new(
            spec.clone(),
            self.config.limits.abandon_grace,
            self.config.bot_budget,
            Instant::now(),
        );
        let mut writes = vec![Write::Create(spec)];
        writes.extend(events_write(&room, 0));
        if let Err(e) = self.store.write(writes).await {
            self.release_game(Some(ip));
            return Err(HttpError::internal(e));
        }
        self.admit(room, Some(ip));
        Ok(json!({"game": id, "side": side.word(), "token": token, "invite": invite}))
    }

    fn release_game(&self, ip: Option<IpAddr>) {
        let Some(ip) = ip else { return };
        let mut clients = lock(&self.clients);
        if let Some(count) = clients.get_mut(&ip) {
            count.games = count.games.saturating_sub(1);
            if count.sockets == 0 && count.games == 0 {
                clients.remove(&ip);
            }
        }
    }

    /// `POST /api/games/{id}/join` with `body`.
    ///
    /// # Errors
    /// 404 for an unknown game or a wrong invite (the same reply), 409 once the seat is
    /// taken, 400 for a body that is not `{"invite": CODE}`.
    pub async fn join(self: &Arc<Hub>, id: &str, body: &str) -> Result<Value, HttpError> {
        let request: JoinRequest = parse_body(body)?;
        let live = self.live(id).await?.ok_or_else(HttpError::not_found)?;
        let mut state = live.state.lock().await;
        let spec = state.room.spec();
        let Some(invite) = spec.invite.as_deref() else {
            return Err(HttpError::not_found());
        };
        if !secret::matches(&request.invite, invite) {
            return Err(HttpError::not_found());
        }
        let side = Side::ALL
            .into_iter()
            .find(|&s| spec.players[s.index()] == Player::Human && spec.tokens[s.index()].is_none())
            .ok_or_else(|| HttpError::new(409, "seat-taken", "the seat is taken"))?;
        let token = secret::random_hex(&*self.entropy, TOKEN_BYTES);
        let digest = secret::digest(&token);
        let write = Write::Join {
            game: live.id.clone(),
            side,
            token: digest.clone(),
        };
        self.store
            .write(vec![write])
            .await
            .map_err(HttpError::internal)?;
        state.room.take_seat(side, digest);
        Ok(json!({"game": live.id, "side": side.word(), "token": token}))
    }

    /// `GET /api/games/{id}`.
    ///
    /// # Errors
    /// 404 for an unknown game.
    pub async fn summary(self: &Arc<Hub>, id: &str) -> Result<Value, HttpError> {
        let live = self.live(id).await?.ok_or_else(HttpError::not_found)?;
        let state = live.state.lock().await;
        let summary = state.room.summary(Instant::now());
        self.evict_if_done(&live, &state);
        Ok(summary)
    }

    /// `GET /api/games/{id}/record`.
    ///
    /// # Errors
    /// 404 for an unknown game, 409 while it is not over.
    pub async fn record(self: &Arc<Hub>, id: &str) -> Result<String, HttpError> {
        let live = self.live(id).await?.ok_or_else(HttpError::not_found)?;
        let state = live.state.lock().await;
        let record = state.room.record();
        self.evict_if_done(&live, &state);
        record.ok_or_else(|| HttpError::new(409, "not-over", "the game is not over"))
    }

    /// A socket slot for `ip`.
    ///
    /// # Errors
    /// 429 past the connections per client.
    pub fn socket_slot(self: &Arc<Hub>, ip: IpAddr) -> Result<SocketSlot, HttpError> {
        let mut clients = lock(&self.clients);
        let count = clients.entry(ip).or_default();
        if count.sockets >= self.config.limits.connections_per_ip {
            return Err(HttpError::new(
                429,
                "too-many-connections",
                format!(
                    "at most {} sockets per client",
                    self.config.limits.connections_per_ip
                ),
            ));
        }
        count.sockets += 1;
        Ok(SocketSlot {
            hub: Arc::clone(self),
            ip,
        })
    }

    /// Who a socket to game `id` with `token` is for.
    ///
    /// # Errors
    /// 401, the same reply for an unknown game, a wrong token and another game's token.
    pub async fn authorize(
        self: &Arc<Hub>,
        id: &str,
        token: Option<&str>,
    ) -> Result<(Arc<Live>, Recipient), HttpError> {
        let refused = || HttpError::new(401, "unauthorized", "no such game or seat");
        let live = self
            .live(id)
            .await
            .map_err(|_| refused())?
            .ok_or_else(refused)?;
        let Some(token) = token else {
            return Ok((live, Recipient::Spectator));
        };
        let state = live.state.lock().await;
        let tokens = &state.room.spec().tokens;
        // Both seats are compared, each in constant time, whatever the first gives.
        let found = Side::ALL.map(|side| {
            tokens[side.index()]
                .as_deref()
                .is_some_and(|stored| secret::matches(token, stored))
        });
        drop(state);
        match found {
            [true, _] => Ok((live, Recipient::Seat(Side::White))),
            [_, true] => Ok((live, Recipient::Seat(Side::Black))),
            _ => Err(refused()),
        }
    }

    /// A socket for `to` opened: it gets the `state`, then every event.
    pub async fn attach(&self, live: &Arc<Live>, to: Recipient, tx: mpsc::Sender<Out>) -> u64 {
        let id = self.next_subscriber.fetch_add(1, Ordering::Relaxed);
        let mut state = live.state.lock().await;
        if let Recipient::Seat(side) = to
            && state.room.connect(side)
        {
            broadcast_presence(&mut state, side, true);
            live.timer.notify_one();
        }
        let _ = tx.try_send(Out::Text(state.room.state(to, Instant::now())));
        state.subscribers.push(Subscriber { id, to, tx });
        id
    }

    /// The socket `subscriber` closed.
    pub async fn detach(&self, live: &Arc<Live>, subscriber: u64, to: Recipient) {
        let mut state = live.state.lock().await;
        state.subscribers.retain(|s| s.id != subscriber);
        if let Recipient::Seat(side) = to
            && state.room.disconnect(side, Instant::now())
        {
            broadcast_presence(&mut state, side, false);
            live.timer.notify_one();
        }
        self.evict_if_done(live, &state);
    }

    fn evict_if_done(&self, live: &Arc<Live>, state: &LiveState) {
        if state.room.phase() == Phase::Over && state.subscribers.is_empty() {
            let mut rooms = lock(&self.rooms);
            if rooms.get(&live.id).is_some_and(|l| Arc::ptr_eq(l, live)) {
                rooms.remove(&live.id);
            }
        }
    }

    /// One frame's text from `subscriber`, a socket for `to`.
    pub async fn handle(&self, live: &Arc<Live>, subscriber: u64, to: Recipient, text: &str) {
        let mut state = live.state.lock().await;
        if state.broken {
            return;
        }
        let reply = |state: &LiveState, out: Out| {
            if let Some(s) = state.subscribers.iter().find(|s| s.id == subscriber) {
                let _ = s.tx.try_send(out);
            }
        };
        match state.room.handle(to, text, Instant::now()) {
            Answer::Refused(refusal) => reply(&state, Out::Text(refusal.frame())),
            Answer::Frames(frames) => {
                for frame in frames {
                    reply(&state, Out::Text(frame));
                }
            }
            Answer::Events(from) => self.settle(live, &mut state, from).await,
        }
    }

    /// Commits the room's events from index `from`, then sends them to every recipient.
    async fn settle(&self, live: &Arc<Live>, state: &mut LiveState, from: usize) {
        let writes = events_write(&state.room, from);
        if writes.is_empty() {
            return;
        }
        if let Err(e) = self.store.write(writes).await {
            eprintln!("salpakan-server: game {}: {e}; reloading it", live.id);
            state.broken = true;
            for s in &state.subscribers {
                let _ = s.tx.try_send(Out::Close(1011, "the game is reloading"));
            }
            state.subscribers.clear();
            let mut rooms = lock(&self.rooms);
            if rooms.get(&live.id).is_some_and(|l| Arc::ptr_eq(l, live)) {
                rooms.remove(&live.id);
            }
            live.timer.notify_one();
            live.bot.notify_one();
            return;
        }
        let room = &state.room;
        for v in from as u64 + 1..=room.version() {
            let mut rendered: [Option<String>; 3] = [None, None, None];
            state.subscribers.retain(|s| {
                let slot = match s.to {
                    Recipient::Seat(side) => side.index(),
                    Recipient::Spectator => 2,
                };
                let frame = rendered[slot].get_or_insert_with(|| room.render(v, s.to));
                // A socket that cannot keep up is dropped (its task closes it with 1008).
                s.tx.try_send(Out::Text(frame.clone())).is_ok()
            });
        }
        if room.phase() == Phase::Over {
            let creator = state.creator.take();
            self.release_game(creator);
            self.evict_if_done(live, state);
        }
        live.timer.notify_one();
        live.bot.notify_one();
    }

    fn stopped(&self) -> bool {
        *self.shutdown.borrow()
    }

    /// The room's timer: decides losses on time and by abandonment when they fall due.
    async fn run_timer(self: Arc<Hub>, live: Arc<Live>) {
        loop {
            let deadline = {
                let mut state = live.state.lock().await;
                if state.broken || state.room.phase() == Phase::Over {
                    return;
                }
                if let Some(from) = state.room.expire(Instant::now()) {
                    self.settle(&live, &mut state, from).await;
                    continue;
                }
                state.room.deadline()
            };
            if self.stopped() {
                return;
            }
            match deadline {
                Some(at) => {
                    tokio::select! {
                        () = sleep_until(at) => {}
                        () = live.timer.notified() => {}
                    }
                }
                None => live.timer.notified().await,
            }
        }
    }

    /// The room's bot: when it is its move, it thinks on a blocking thread (never on the
    /// async threads), with its own tracker only, then plays.
    async fn run_bot(self: Arc<Hub>, live: Arc<Live>) {
        loop {
            let turn = {
                let mut state = live.state.lock().await;
                if state.broken || state.room.phase() == Phase::Over {
                    return;
                }
                state.room.bot_turn()
            };
            if self.stopped() {
                return;
            }
            let Some(turn) = turn else {
                live.bot.notified().await;
                continue;
            };
            let (side, ply) = (turn.side, turn.ply);
            let Ok((tracker, mv)) = tokio::task::spawn_blocking(move || turn.think()).await else {
                return;
            };
            let mut state = live.state.lock().await;
            if let Some(from) = state.room.bot_done(side, ply, tracker, mv, Instant::now()) {
                self.settle(&live, &mut state, from).await;
            }
        }
    }
}

fn broadcast_presence(state: &mut LiveState, side: Side, connected: bool) {
    let frame = json!({"t": "presence", "side": side.word(), "connected": connected}).to_string();
    state
        .subscribers
        .retain(|s| s.tx.try_send(Out::Text(frame.clone())).is_ok());
}

/// The write that commits a room's events from index `from` (none if there are none).
fn events_write(room: &Room, from: usize) -> Vec<Write> {
    let events = &room.events()[from..];
    if events.is_empty() {
        return Vec::new();
    }
    let setups = events
        .iter()
        .filter_map(|e| match e {
            Event::Ready { side } => room.setup(*side).map(|s| (*side, s.cell_values().to_vec())),
            _ => None,
        })
        .collect();
    vec![Write::Events {
        game: room.spec().id.clone(),
        first_v: from as u64 + 1,
        events: events.to_vec(),
        setups,
        over: room.phase() == Phase::Over,
    }]
}
