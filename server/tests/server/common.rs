//! The harness: a real server (HTTP, sockets, SQLite) on a loopback port with a fresh
//! database in cargo's temporary folder, and clients that keep every byte they receive.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use salpakan::{Game, Rules, Setup, Side};
use salpakan_server::client::{Frame, Socket, request, request_as};
use salpakan_server::{Config, Durability, Running, SeededEntropy};
use serde_json::{Value, json};

static NEXT: AtomicU32 = AtomicU32::new(0);

/// A fresh folder for one server's database.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "server-{name}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// Whether the suite runs against PostgreSQL: `SALPAKAN_TEST_POSTGRES` names the socket
/// directory of a throwaway cluster (`scripts/test-postgres` starts one, runs the suite, and
/// stops it).
pub fn postgres_host() -> Option<String> {
    std::env::var("SALPAKAN_TEST_POSTGRES")
        .ok()
        .filter(|h| !h.is_empty())
}

/// The URL of database `name` on the test cluster at `host`.
fn postgres_url(host: &str, name: &str) -> String {
    format!("postgresql:///{name}?host={host}&user=salpakan")
}

/// Runs `f` with a connection to `url`, on a thread of its own (the blocking client may
/// not run inside the test's runtime).
fn on_postgres<T: Send + 'static>(
    url: String,
    f: impl FnOnce(&mut postgres::Client) -> T + Send + 'static,
) -> T {
    std::thread::spawn(move || {
        let mut client =
            postgres::Client::connect(&url, postgres::NoTls).expect("the test cluster answers");
        f(&mut client)
    })
    .join()
    .expect("the database's thread")
}

/// The database a test's server uses (`--db`): an SQLite file in a fresh folder, or, when
/// the suite runs against PostgreSQL, a fresh database on the test cluster.
pub fn database(name: &str) -> PathBuf {
    let dir = scratch(name);
    match postgres_host() {
        None => dir.join("games.db"),
        Some(host) => {
            let db = format!(
                "t_{}_{}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed)
            );
            let create = format!("CREATE DATABASE {db}");
            on_postgres(postgres_url(&host, "postgres"), move |c| {
                c.batch_execute(&create).expect("a database")
            });
            PathBuf::from(postgres_url(&host, &db))
        }
    }
}

/// Runs `sql` (its values written in it) on the database at `db`, behind its server's back.
pub fn exec(db: &Path, sql: &str) {
    match db.to_str().filter(|d| d.starts_with("postgresql://")) {
        Some(url) => {
            let sql = sql.to_owned();
            on_postgres(url.to_owned(), move |c| {
                c.batch_execute(&sql).expect("the statement runs")
            });
        }
        None => rusqlite::Connection::open(db)
            .expect("the database opens")
            .execute_batch(sql)
            .expect("the statement runs"),
    }
}

/// The integer the query `sql` answers on the database at `db`.
pub fn query_int(db: &Path, sql: &str) -> i64 {
    match db.to_str().filter(|d| d.starts_with("postgresql://")) {
        Some(url) => {
            let sql = sql.to_owned();
            on_postgres(url.to_owned(), move |c| {
                let row = c.query_one(&sql, &[]).expect("the query runs");
                row.try_get::<_, i64>(0)
                    .or_else(|_| row.try_get::<_, i32>(0).map(i64::from))
                    .expect("an integer")
            })
        }
        None => rusqlite::Connection::open(db)
            .expect("the database opens")
            .query_row(sql, [], |r| r.get(0))
            .expect("the query runs"),
    }
}

/// The text the query `sql` answers on the database at `db` (`None` for NULL).
pub fn query_text(db: &Path, sql: &str) -> Option<String> {
    match db.to_str().filter(|d| d.starts_with("postgresql://")) {
        Some(url) => {
            let sql = sql.to_owned();
            on_postgres(url.to_owned(), move |c| {
                c.query_one(&sql, &[])
                    .expect("the query runs")
                    .get::<_, Option<String>>(0)
            })
        }
        None => rusqlite::Connection::open(db)
            .expect("the database opens")
            .query_row(sql, [], |r| r.get(0))
            .expect("the query runs"),
    }
}

/// Everything the database at `db` holds, as text: SQLite's files (the database and its
/// write-ahead log) read as bytes, or every row of PostgreSQL's tables written out.
pub fn stored_text(db: &Path) -> String {
    match db.to_str().filter(|d| d.starts_with("postgresql://")) {
        Some(url) => on_postgres(url.to_owned(), |c| {
            let mut text = String::new();
            for table in ["games", "events", "players"] {
                let sql = format!("SELECT COALESCE(string_agg(t::text, ' '), '') FROM {table} t");
                let row = c.query_one(&sql, &[]).expect("the query runs");
                text.push_str(&row.get::<_, String>(0));
            }
            text
        }),
        None => {
            let mut stored = Vec::new();
            for suffix in ["", "-wal"] {
                let path = format!("{}{suffix}", db.display());
                stored.extend(std::fs::read(&path).unwrap_or_default());
            }
            String::from_utf8_lossy(&stored).into_owned()
        }
    }
}

/// The columns of table `table` at `db`, in their order.
pub fn columns(db: &Path, table: &str) -> Vec<String> {
    match db.to_str().filter(|d| d.starts_with("postgresql://")) {
        Some(url) => {
            let sql = format!(
                "SELECT column_name::text FROM information_schema.columns
                 WHERE table_name = '{table}' ORDER BY ordinal_position"
            );
            on_postgres(url.to_owned(), move |c| {
                c.query(&sql, &[])
                    .expect("the query runs")
                    .iter()
                    .map(|r| r.get(0))
                    .collect()
            })
        }
        None => rusqlite::Connection::open(db)
            .expect("the database opens")
            .prepare(&format!("SELECT name FROM pragma_table_info('{table}')"))
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap(),
    }
}

/// A server in this process (or, without `running`, one this test started as a process).
pub struct Server {
    pub running: Option<Running>,
    pub addr: SocketAddr,
}

/// A server with seeded entropy (so that two runs give the same ids and tokens), on `db`.
pub async fn start_on(db: PathBuf, seed: u64, tweak: impl FnOnce(&mut Config)) -> Server {
    start_with(db, Arc::new(SeededEntropy::new(seed)), tweak).await
}

/// As [`start_on`], its random bytes drawn from `entropy`.
pub async fn start_with(
    db: PathBuf,
    entropy: Arc<dyn salpakan_server::secret::Entropy>,
    tweak: impl FnOnce(&mut Config),
) -> Server {
    let mut config = Config {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        db,
        durability: Durability::Normal,
        bot_budget: 50,
        // Bots answer at once unless a test asks for the floor (it has tests of its own).
        bot_floor: Duration::ZERO,
        ..Config::default()
    };
    // The tests play the official rules (no move limit) unless they ask for one; the
    // server's own default limit has tests of its own.
    config.limits.default_move_limit = 0;
    config.limits.max_move_limit = 0;
    // Presence told at once (the coalescing has its own test, with the default gap).
    config.limits.presence_gap = Duration::ZERO;
    // Every test client is 127.0.0.1 and plays many rated games: the bounds of rated games
    // (one address, a pair's and an address's a day) have tests of their own.
    config.limits.rated_one_address = true;
    config.limits.rated_per_pair_day = 10_000;
    config.limits.rated_per_ip_day = 10_000;
    // The lobby's count of games in play told soon (its pace has the load generator's runs).
    config.limits.lobby_playing_every = Duration::from_millis(20);
    // The live list made again soon (its pace of a second has the load generator's runs).
    config.limits.live_every = Duration::from_millis(20);
    tweak(&mut config);
    let running = salpakan_server::start(config, entropy)
        .await
        .expect("the server starts");
    let addr = running.addr();
    Server {
        running: Some(running),
        addr,
    }
}

/// The server binary as `command` starts it (its `--addr 127.0.0.1:0` and database among its
/// arguments): the child, and the server at the address its first line names.
pub fn spawn_binary(command: &mut std::process::Command) -> (std::process::Child, Server) {
    use std::io::{BufRead, BufReader};
    // The server's log says only what is wrong, unless the test asks for more.
    if command.get_envs().all(|(name, _)| name != "RUST_LOG") {
        command.env("RUST_LOG", "warn");
    }
    let mut child = command
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("its output"))
        .read_line(&mut line)
        .expect("its first line");
    let addr: SocketAddr = line
        .trim()
        .strip_prefix("listening on http://")
        .unwrap_or_else(|| panic!("not the listening line: {line:?}"))
        .parse()
        .expect("an address");
    (
        child,
        Server {
            running: None,
            addr,
        },
    )
}

pub async fn start(seed: u64) -> Server {
    start_on(database("t"), seed, |_| {}).await
}

/// As [`start`], with a budget for tests that send many messages, and the operator's listener
/// open to the test.
pub async fn start_busy(seed: u64) -> Server {
    start_on(database("t"), seed, |c| {
        c.limits.messages_per_window = 100_000;
        c.limits.chat_lines_per_socket = 100_000;
        c.limits.chat_lines_per_minute = 100_000;
        c.metrics_addr = Some("127.0.0.1:0".parse().unwrap());
    })
    .await
}

/// The operator names `name` a moderator (or no longer one), on the operator's listener
/// (`metrics_addr` set): the status and the reply.
pub async fn name_moderator(server: &Server, name: &str, on: bool) -> (u16, Value) {
    let operator = server.running.as_ref().unwrap().metrics_addr().unwrap();
    let body = json!({"name": name, "moderator": on}).to_string();
    let (status, reply) = salpakan_server::client::request_with(
        None,
        operator,
        ("POST", "/admin/moderators", &body),
        &[("X-Salpakan-Admin", "1")],
    )
    .await
    .unwrap();
    (status, serde_json::from_str(&reply).unwrap())
}

impl Server {
    /// Stops the server in this process, every write committed.
    pub async fn stop(self) {
        if let Some(running) = self.running {
            running.stop().await;
        }
    }

    pub async fn http(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        request(self.addr, method, path, body)
            .await
            .expect("an HTTP reply")
    }

    pub async fn json(&self, method: &str, path: &str, body: &Value) -> (u16, Value) {
        let (status, text) = self.http(method, path, &body.to_string()).await;
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    /// `GET /api/games/{id}`: its status and the summary.
    pub async fn summary(&self, id: &str) -> (u16, Value) {
        self.json("GET", &format!("/api/games/{id}"), &Value::Null)
            .await
    }

    /// Creates a game against a person and joins it: (game, creator's token, joiner's token).
    pub async fn pair(&self, body: Value) -> (String, String, String) {
        let (created, joined) = self.create_and_join(body).await;
        (
            created["game"].as_str().unwrap().to_owned(),
            created["token"].as_str().unwrap().to_owned(),
            joined["token"].as_str().unwrap().to_owned(),
        )
    }

    /// Creates a game against a person and joins it by its invite: both replies.
    pub async fn create_and_join(&self, body: Value) -> (Value, Value) {
        let (status, created) = self.json("POST", "/api/games", &body).await;
        assert_eq!(status, 201, "{created}");
        let game = created["game"].as_str().unwrap();
        let (status, joined) = self.join(game, &created["invite"]).await;
        assert_eq!(status, 200, "{joined}");
        (created, joined)
    }

    /// `POST /api/games/{id}/join` with `invite`: the status and the reply.
    pub async fn join(&self, id: &str, invite: &Value) -> (u16, Value) {
        let body = json!({ "invite": invite });
        self.json("POST", &format!("/api/games/{id}/join"), &body)
            .await
    }

    pub async fn seat(&self, game: &str, token: Option<&str>) -> Seat {
        let socket = Socket::connect(self.addr, game, token)
            .await
            .expect("the socket opens");
        Seat {
            socket,
            transcript: Vec::new(),
        }
    }
}

/// A socket that keeps every frame it receives, in order.
pub struct Seat {
    pub socket: Socket,
    pub transcript: Vec<String>,
}

impl Seat {
    pub async fn send(&mut self, message: &Value) {
        self.socket.send(&message.to_string()).await.expect("sent");
    }

    /// The next frame (a close is `{"close": CODE}`; a gone connection `{"gone": true}`).
    pub async fn recv(&mut self) -> Value {
        let Ok(frame) = tokio::time::timeout(Duration::from_secs(30), self.socket.next()).await
        else {
            let last = &self.transcript[self.transcript.len().saturating_sub(3)..];
            panic!("no frame within 30 s; the last frames before: {last:#?}");
        };
        let text = match frame {
            Some(Frame::Text(text)) => text,
            Some(Frame::Close(code)) => json!({"close": code}).to_string(),
            None => json!({"gone": true}).to_string(),
        };
        self.transcript.push(text.clone());
        serde_json::from_str(&text).expect("JSON")
    }

    /// Frames up to and including the first of type `t`.
    pub async fn until(&mut self, t: &str) -> Value {
        loop {
            let frame = self.recv().await;
            if frame["t"] == t {
                return frame;
            }
            assert!(
                frame.get("close").is_none() && frame.get("gone").is_none(),
                "closed: {frame}"
            );
        }
    }

    /// The close code, reading past every other frame.
    pub async fn until_close(&mut self) -> u64 {
        loop {
            let frame = self.recv().await;
            if let Some(code) = frame["close"].as_u64() {
                return code;
            }
            assert!(frame.get("gone").is_none(), "gone without a close frame");
        }
    }

    /// Frames up to and including the event with version `v`.
    pub async fn until_v(&mut self, v: u64) -> Value {
        loop {
            let frame = self.recv().await;
            if frame["v"] == v && frame["t"] != "state" {
                return frame;
            }
            assert!(
                frame.get("close").is_none() && frame.get("gone").is_none(),
                "closed: {frame}"
            );
        }
    }
}

/// A formation's 72 cell values.
pub fn cells(setup: &Setup) -> Value {
    json!(setup.cell_values().to_vec())
}

/// A game of random setups and `plies` random moves (fewer if it ends sooner).
pub fn random_game(seed: u64, plies: usize) -> Game {
    let rules = Rules::default();
    let first = if seed.is_multiple_of(2) {
        Side::White
    } else {
        Side::Black
    };
    let mut game = Game::new(
        Setup::random(Side::White, rules, seed * 2 + 1),
        Setup::random(Side::Black, rules, seed * 2 + 2),
        first,
        rules,
    )
    .expect("a game");
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() || !game.status().is_ongoing() {
            break;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        game.play(moves[(state % moves.len() as u64) as usize])
            .expect("legal");
    }
    game
}

/// As [`random_game`], stopping a ply before the end if the game would end.
pub fn random_prefix(seed: u64, plies: usize) -> Game {
    let game = random_game(seed, plies);
    if game.status().is_ongoing() {
        game
    } else {
        random_game(seed, game.history().len() - 1)
    }
}

/// Two seats of one game, indexed by side, with the last version both have seen.
pub struct Table {
    pub id: String,
    pub tokens: [String; 2],
    pub seats: [Seat; 2],
    pub v: u64,
}

impl Table {
    /// A game between two people on `server` (White creates it), with both sockets open.
    pub async fn open(server: &Server, body: Value) -> Table {
        let mut body = body;
        body["side"] = json!("white");
        let (id, white, black) = server.pair(body).await;
        let mut w = server.seat(&id, Some(&white)).await;
        w.until("state").await;
        let mut b = server.seat(&id, Some(&black)).await;
        b.until("state").await;
        w.until("presence").await;
        Table {
            id,
            tokens: [white, black],
            seats: [w, b],
            v: 0,
        }
    }

    /// Both seats submit `game`'s formations; returns the `start` events.
    pub async fn set_up(&mut self, game: &Game) -> [Value; 2] {
        for side in Side::ALL {
            let setup = cells(game.setup(side).unwrap());
            self.seats[side.index()]
                .send(&json!({"t": "setup", "cells": setup}))
                .await;
            self.v += 1;
            self.both(self.v).await;
        }
        self.v += 1;
        self.both(self.v).await
    }

    /// Both seats read up to version `v`; returns what each got at `v`.
    pub async fn both(&mut self, v: u64) -> [Value; 2] {
        let [w, b] = &mut self.seats;
        [w.until_v(v).await, b.until_v(v).await]
    }

    /// `side` sends `message`; both read the event(s) it makes, `events` of them.
    pub async fn act(&mut self, side: Side, message: Value, events: u64) -> [Value; 2] {
        self.seats[side.index()].send(&message).await;
        self.v += events;
        self.both(self.v).await
    }

    /// Plays `game`'s moves from ply `from` to ply `to`; returns the last events both read.
    pub async fn replay(&mut self, game: &Game, from: usize, to: usize) -> [Value; 2] {
        let history = game.history();
        let mut side = game.first_mover();
        if from % 2 == 1 {
            side = side.other();
        }
        let mut last = [Value::Null, Value::Null];
        for (ply, report) in history.iter().enumerate().take(to).skip(from) {
            let events = if report.status.is_ongoing() { 1 } else { 2 };
            let message = json!({"t": "move", "move": report.mv.to_string(), "ply": ply});
            last = self.act(side, message, events).await;
            side = side.other();
        }
        last
    }
}

/// A request as the player of `key` (or anonymously).
pub async fn as_player(
    server: &Server,
    key: Option<&str>,
    method: &str,
    path: &str,
    body: &Value,
) -> (u16, Value) {
    request_json(server, None, key, (method, path, body)).await
}

/// A request with no body, as the player whose key is `key` if given: its status and its
/// JSON (or its text as a string).
pub async fn call(server: &Server, key: Option<&str>, method: &str, path: &str) -> (u16, Value) {
    as_player(server, key, method, path, &Value::Null).await
}

/// `POST path` with `body`, as the player whose key is `key`: its status and its JSON.
pub async fn post_as(server: &Server, key: &str, path: &str, body: &Value) -> (u16, Value) {
    as_player(server, Some(key), "POST", path, body).await
}

/// Asserts that `reply` (a status and its JSON) is the refusal `status` with `code`.
#[track_caller]
pub fn assert_refused((status, reply): (u16, &Value), wanted: u16, code: &str) {
    assert_eq!(
        (status, reply["error"].as_str()),
        (wanted, Some(code)),
        "{reply}"
    );
}

/// A request from 127.0.0.`last` (another client to the per-address limits), as the player
/// whose key is `key` if given: its status and its JSON (or its text as a string).
pub async fn from_address(
    server: &Server,
    (last, key): (u8, Option<&str>),
    method: &str,
    path: &str,
    body: &Value,
) -> (u16, Value) {
    let from = Some(std::net::IpAddr::from([127, 0, 0, last]));
    request_json(server, from, key, (method, path, body)).await
}

/// A request from `from` (this machine's own address if none), as the player whose key is
/// `key` if given, its body `body` (none if null): its status and its JSON (or its text as a
/// string).
async fn request_json(
    server: &Server,
    from: Option<std::net::IpAddr>,
    key: Option<&str>,
    (method, path, body): (&str, &str, &Value),
) -> (u16, Value) {
    let body = if body.is_null() {
        String::new()
    } else {
        body.to_string()
    };
    let (status, text) = request_as(from, server.addr, method, path, &body, key)
        .await
        .expect("an HTTP reply");
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// Registers `name`; its key.
pub async fn register(server: &Server, name: &str) -> String {
    let (status, reply) =
        as_player(server, None, "POST", "/api/players", &json!({"name": name})).await;
    assert_eq!(status, 201, "{reply}");
    assert_eq!(reply["name"], name);
    reply["key"].as_str().unwrap().to_owned()
}

/// Registers each of `names`; their keys, in order.
pub async fn register_all<const N: usize>(server: &Server, names: [&str; N]) -> [String; N] {
    let mut keys = Vec::with_capacity(N);
    for name in names {
        keys.push(register(server, name).await);
    }
    keys.try_into().expect("a key for each name")
}

/// An open socket at `path`.
pub async fn socket(server: &Server, path: &str) -> Seat {
    let socket = Socket::open(None, server.addr, path)
        .await
        .expect("the socket opens");
    Seat {
        socket,
        transcript: Vec::new(),
    }
}

/// `key`'s player socket, welcomed.
pub async fn player_socket(server: &Server, key: &str) -> Seat {
    let mut seat = socket(server, "/api/players/socket").await;
    seat.send(&json!({"t": "auth", "key": key})).await;
    assert_eq!(seat.recv().await["t"], "welcome");
    seat
}

/// `side`'s time left in a message's `clock` (a state or a ply), in ms.
pub fn clock_ms(message: &Value, side: Side) -> u64 {
    let left = &message["clock"][format!("{}_ms", side.word())];
    left.as_u64()
        .unwrap_or_else(|| panic!("no {side} time in {message}"))
}

/// Each of `keys`' player sockets, welcomed, in order.
pub async fn player_sockets(server: &Server, keys: &[String]) -> Vec<Seat> {
    let mut sockets = Vec::with_capacity(keys.len());
    for key in keys {
        sockets.push(player_socket(server, key).await);
    }
    sockets
}

/// Waits until `done` says so, asking every 50 ms; fails the test naming `what` if it has not
/// within `within`.
pub async fn eventually(within: Duration, what: &str, mut done: impl AsyncFnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + within;
    while !done().await {
        assert!(tokio::time::Instant::now() < deadline, "{what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Whether a frame comes within `ms`.
pub async fn quiet_for(seat: &mut Seat, ms: u64) -> bool {
    tokio::time::timeout(Duration::from_millis(ms), seat.socket.next())
        .await
        .is_err()
}

/// A server process, killed with SIGKILL when dropped (also when a test fails).
pub struct Killed(pub std::process::Child);

/// The server binary serving `db` on a free port, killed (SIGKILL) when dropped.
pub fn killable(db: &std::path::Path) -> (Killed, Server) {
    let (child, server) = spawn_binary(
        std::process::Command::new(env!("CARGO_BIN_EXE_salpakan-server"))
            .args(["--addr", "127.0.0.1:0", "--rated-one-address", "--db"])
            .arg(db),
    );
    (Killed(child), server)
}

impl Killed {
    pub fn kill(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Killed {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The node a store opened by a test is (one node: the default's name).
pub fn node() -> salpakan_server::store::Node {
    salpakan_server::store::Node {
        name: "main".to_owned(),
        url: "http://127.0.0.1:9".to_owned(),
        lease: std::time::Duration::from_secs(10),
    }
}

/// The real binary in a child process, killed when dropped (a failing test leaves no server
/// behind): started with `args` (and `sh -c` first when `shell` is given), listening on a
/// free loopback port.
pub struct Binary {
    pub child: std::process::Child,
    pub server: crate::common::Server,
}

impl Binary {
    pub fn start(shell: Option<&str>, args: &[&str], db: &std::path::Path) -> Binary {
        use std::process::Command;
        let binary = env!("CARGO_BIN_EXE_salpakan-server");
        let mut command = match shell {
            Some(script) => {
                let mut command = Command::new("sh");
                command.args(["-c", script, binary]);
                command
            }
            None => Command::new(binary),
        };
        let (child, server) = crate::common::spawn_binary(
            command
                .args(["--addr", "127.0.0.1:0"])
                .args(args)
                .arg("--db")
                .arg(db),
        );
        Binary { child, server }
    }
}

impl Drop for Binary {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
