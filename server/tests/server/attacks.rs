//! The arbiter under attack: what a hostile client could do to other games (freeze them,
//! exhaust the server, win by it), each through the real stack, each failing before its fix.

use std::time::Duration;

use rusqlite::Connection;
use salpakan::{Rules, Side};
use salpakan_server::room::{Player, Spec};
use salpakan_server::store::{Durability, Store, Write};
use serde_json::{Value, json};

use crate::common::{Table, columns, database, exec, node, query_int, random_game, start_on};

/// The real binary in a child process, killed when dropped (a failing test leaves no server
/// behind): started with `args` (and `sh -c` first when `shell` is given), listening on a
/// free loopback port.
struct Binary {
    child: std::process::Child,
    server: crate::common::Server,
}

impl Binary {
    fn start(shell: Option<&str>, args: &[&str], db: &std::path::Path) -> Binary {
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

/// Holds the database's write lock from a connection of its own until dropped: the server's
/// writer waits meanwhile, as behind a slow disk (SQLite: the database's lock; PostgreSQL:
/// the games table's, which lets reads through).
enum WriteLock {
    Sqlite(Connection),
    Postgres(
        Option<std::sync::mpsc::Sender<()>>,
        Option<std::thread::JoinHandle<()>>,
    ),
}

impl WriteLock {
    fn take(db: &std::path::Path) -> WriteLock {
        match db.to_str().filter(|d| d.starts_with("postgresql://")) {
            None => {
                let conn = Connection::open(db).expect("the database");
                conn.execute_batch("BEGIN IMMEDIATE")
                    .expect("the write lock");
                WriteLock::Sqlite(conn)
            }
            Some(url) => {
                let url = url.to_owned();
                let (taken, locked) = std::sync::mpsc::channel();
                let (release, released) = std::sync::mpsc::channel::<()>();
                let holder = std::thread::spawn(move || {
                    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
                    client
                        .batch_execute(
                            "BEGIN; LOCK TABLE games, events, players IN EXCLUSIVE MODE;",
                        )
                        .expect("the write lock");
                    taken.send(()).unwrap();
                    let _ = released.recv();
                    let _ = client.batch_execute("ROLLBACK");
                });
                locked.recv().expect("the lock taken");
                WriteLock::Postgres(Some(release), Some(holder))
            }
        }
    }
}

impl Drop for WriteLock {
    fn drop(&mut self) {
        match self {
            WriteLock::Sqlite(conn) => {
                let _ = conn.execute_batch("ROLLBACK");
            }
            WriteLock::Postgres(release, holder) => {
                drop(release.take());
                if let Some(holder) = holder.take() {
                    let _ = holder.join();
                }
            }
        }
    }
}

/// The store at `db`, opened off the test's runtime (PostgreSQL's client blocks on its own).
fn open_store(db: &std::path::Path) -> salpakan_server::store::Opened {
    let db = db.to_path_buf();
    std::thread::spawn(move || Store::open(&db, Durability::Normal, &node()).unwrap())
        .join()
        .unwrap()
}

fn spec(id: &str) -> Spec {
    Spec::plain(id, [Player::Human; 2], 1)
}

#[tokio::test]
async fn a_read_never_waits_for_the_writer() {
    let db = database("reads");
    let store = open_store(&db).store;
    let created = Write::Create {
        spec: spec("00000000000000aa"),
        creator: None,
    };
    store.write(vec![created]).await.unwrap();
    // The writer is stuck behind the lock with a write of its own...
    let lock = WriteLock::take(&db);
    let writing = tokio::spawn({
        let store = store.clone();
        async move {
            let write = Write::Create {
                spec: spec("00000000000000bb"),
                creator: None,
            };
            store.write(vec![write]).await
        }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!writing.is_finished(), "the write waits for the lock");
    // ...and a read is answered all the same.
    let read = tokio::time::timeout(Duration::from_secs(2), store.load("00000000000000aa"))
        .await
        .expect("a read while the writer waits")
        .unwrap();
    assert_eq!(
        read.map(|saved| saved.spec.id),
        Some("00000000000000aa".to_owned())
    );
    drop(lock);
    writing
        .await
        .unwrap()
        .expect("the write, once the lock is gone");
}

#[tokio::test]
async fn a_finished_game_is_read_from_its_row_never_replayed() {
    let db = database("finished");
    let server = start_on(db, 31, |_| {}).await;
    let game = random_game(11, 400);
    assert!(!game.status().is_ongoing());
    let mut table = Table::open(&server, json!({"first": game.first_mover().word()})).await;
    table.set_up(&game).await;
    table.replay(&game, 0, game.history().len()).await;
    let path = format!("/api/games/{}", table.id);
    let (_, summary) = server.json("GET", &path, &Value::Null).await;
    let (_, record) = server.http("GET", &format!("{path}/record"), "").await;
    for seat in table.seats {
        seat.socket.close().await;
    }
    let running = server.running.as_ref().unwrap();
    for _ in 0..100 {
        if running.games_in_memory() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        running.games_in_memory(),
        0,
        "a finished game leaves memory"
    );
    let replays = running.replays();
    for _ in 0..20 {
        assert_eq!(
            server.json("GET", &path, &Value::Null).await,
            (200, summary.clone())
        );
        assert_eq!(
            server.http("GET", &format!("{path}/record"), "").await,
            (200, record.clone())
        );
    }
    assert_eq!(
        running.replays(),
        replays,
        "reading a finished game replays nothing"
    );
    assert_eq!(running.games_in_memory(), 0);
    server.stop().await;
}

#[tokio::test]
async fn a_commits_delay_is_charged_to_nobody() {
    let db = database("delay");
    let server = start_on(db.clone(), 32, |_| {}).await;
    let game = random_game(14, 4);
    let clock = json!({"initial_ms": 60_000, "increment_ms": 0});
    let first = game.first_mover();
    let mut table = Table::open(&server, json!({"first": first.word(), "clock": clock})).await;
    table.set_up(&game).await;
    table.replay(&game, 0, 1).await;
    // The second move's commit takes over a second.
    let lock = WriteLock::take(&db);
    let mv = json!({"t": "move", "move": game.history()[1].mv.to_string(), "ply": 1});
    table.seats[first.other().index()].send(&mv).await;
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    drop(lock);
    let [ply, _] = table.both(table.v + 1).await;
    table.v += 1;
    assert_eq!(ply["clock"]["running"], first.word());
    // The first mover's time runs from when the move reached it, not from the decision.
    let seat = &mut table.seats[first.index()];
    seat.send(&json!({"t": "hello", "v": 99})).await;
    let state = seat.until("state").await;
    let left = state["clock"][format!("{}_ms", first.word())]
        .as_u64()
        .unwrap();
    assert!(
        left > 59_500,
        "{left} ms left: the commit's delay was charged"
    );
    server.stop().await;
}

#[tokio::test]
async fn an_unreadable_game_is_quarantined_and_the_rest_start() {
    let db = database("quarantine");
    let server = start_on(db.clone(), 33, |_| {}).await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        let (status, created) = server.json("POST", "/api/games", &json!({})).await;
        assert_eq!(status, 201);
        ids.push(created["game"].as_str().unwrap().to_owned());
    }
    server.stop().await;
    // An unknown player kind, and a formation no rule allows (a byte: '\\x00' is
    // PostgreSQL's way to write it, X'00' SQLite's).
    let byte = if db.to_str().is_some_and(|d| d.starts_with("postgresql://")) {
        "'\\x00'"
    } else {
        "X'00'"
    };
    exec(
        &db,
        &format!(
            "UPDATE games SET white_player = 'grandmaster' WHERE id = '{}';
             UPDATE games SET white_setup = {byte} WHERE id = '{}';
             INSERT INTO events (game, v, body) VALUES ('{}', 1, '{{\"t\":\"ready\",\"side\":\"White\"}}');",
            ids[0], ids[1], ids[1]
        ),
    );
    let server = start_on(db.clone(), 34, |_| {}).await;
    for (id, status) in [(&ids[0], 404), (&ids[1], 404), (&ids[2], 200)] {
        let (got, _) = server
            .json("GET", &format!("/api/games/{id}"), &Value::Null)
            .await;
        assert_eq!(got, status, "game {id}");
    }
    server.stop().await;
    let quarantined = |id: &str, saying: &str| {
        query_int(
            &db,
            &format!(
                "SELECT COUNT(*) FROM games WHERE id = '{id}' AND quarantined LIKE '%{saying}%'"
            ),
        ) == 1
    };
    assert!(quarantined(&ids[0], "grandmaster"));
    assert!(
        quarantined(&ids[1], ""),
        "a game the rules refuse is quarantined too"
    );
    assert!(!quarantined(&ids[2], ""));
}

/// A game of `pairs` × 2 plies with no challenge: White and Black each step one piece out
/// of their zone and back. Returns the table, both sides' formations set up.
async fn shuffled(server: &crate::common::Server, pairs: usize) -> Table {
    use salpakan::Setup;
    let rules = Rules::default();
    let setups = [
        Setup::random(Side::White, rules, 41),
        Setup::random(Side::Black, rules, 42),
    ];
    let game =
        salpakan::Game::new(setups[0].clone(), setups[1].clone(), Side::White, rules).unwrap();
    let mut table = Table::open(
        server,
        json!({"first": "white", "rules": {"move_limit": 0}}),
    )
    .await;
    table.set_up(&game).await;
    // A piece on its zone's front row steps out and back.
    let stepper = |side: Side| {
        let (front, out) = if side == Side::White { (3, 4) } else { (6, 5) };
        let square = setups[side.index()]
            .pieces()
            .map(|(square, _)| square.to_string())
            .find(|name| name.ends_with(&front.to_string()))
            .unwrap();
        let file = &square[..1];
        [
            format!("{file}{front}-{file}{out}"),
            format!("{file}{out}-{file}{front}"),
        ]
    };
    let moves = [stepper(Side::White), stepper(Side::Black)];
    for pair in 0..pairs {
        for side in Side::ALL {
            let ply = pair * 2 + side.index();
            let mv = &moves[side.index()][pair % 2];
            table
                .act(side, json!({"t": "move", "move": mv, "ply": ply}), 1)
                .await;
        }
    }
    table
}

/// A game of 1,203 events (two formations, the start, 1,200 quiet plies) played on a server
/// with a raised budget, then that server stopped: its id and database, for a server with the
/// default limits to serve.
async fn long_game(name: &str, seed: u64) -> (String, std::path::PathBuf) {
    let db = database(name);
    let busy = start_on(db.clone(), seed, |c| {
        c.limits.messages_per_window = 100_000;
        c.limits.max_move_limit = 0;
    })
    .await;
    let table = shuffled(&busy, 600).await;
    assert_eq!(table.v, 1203, "two formations, the start and 1,200 plies");
    busy.stop().await;
    (table.id, db)
}

#[tokio::test]
async fn a_hello_replays_every_event_however_many() {
    let (id, db) = long_game("replay", 35).await;
    let server = start_on(db, 36, |_| {}).await;
    let mut spectator = server.seat(&id, None).await;
    spectator.until("state").await;
    spectator.send(&json!({"t": "hello", "v": 0})).await;
    for v in 1..=1203u64 {
        let frame = spectator.recv().await;
        assert_eq!(frame["v"], v, "event {v} of the replay");
    }
    spectator.send(&json!({"t": "ping"})).await;
    assert_eq!(
        spectator.recv().await["t"],
        "pong",
        "nothing more, nothing missing"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_replay_is_paid_from_the_sockets_budget() {
    let (id, db) = long_game("replay-budget", 37).await;
    let server = start_on(db, 38, |_| {}).await;
    // The default budget is 200 messages in 10 s. Each replay of 1,203 events costs its
    // hello plus one message for every 25 events replayed (48), paid before the frames are
    // sent: the replay the budget cannot pay is not sent, the socket is closed.
    let mut spectator = server.seat(&id, None).await;
    spectator.until("state").await;
    let mut replays = 0;
    let closed = loop {
        spectator.send(&json!({"t": "hello", "v": 0})).await;
        let mut got = 0;
        let code = loop {
            let frame = spectator.recv().await;
            if let Some(code) = frame["close"].as_u64() {
                break Some(code);
            }
            if frame["t"] == "error" {
                assert_eq!(frame["code"], "rate-limited");
                continue;
            }
            got += 1;
            if got == 1203 {
                break None;
            }
        };
        if code.is_some() {
            assert_eq!(got, 0, "a replay the budget cannot pay sends nothing");
            break code;
        }
        replays += 1;
        assert!(replays < 30, "replays are not paid for");
    };
    assert_eq!(closed, Some(1008));
    let cost = 1 + 1203 / salpakan_server::socket::game::REPLAYED_PER_MESSAGE;
    assert_eq!(replays, 200 / cost);
    server.stop().await;
}

#[tokio::test]
async fn a_replay_longer_than_a_window_is_served_once_on_a_full_budget() {
    let (id, db) = long_game("replay-window", 52).await;
    // 20 messages in 10 s: the replay of 1,203 events would cost 48, and costs the 19 left
    // after its hello.
    let server = start_on(db, 53, |c| c.limits.messages_per_window = 20).await;
    let mut spectator = server.seat(&id, None).await;
    spectator.until("state").await;
    spectator.send(&json!({"t": "hello", "v": 0})).await;
    for _ in 0..1203 {
        let frame = spectator.recv().await;
        assert!(frame["v"].is_u64() && frame["t"] != "error", "{frame}");
    }
    spectator.send(&json!({"t": "hello", "v": 0})).await;
    let refused = spectator.recv().await;
    assert_eq!(refused["code"], "rate-limited", "{refused}");
    assert_eq!(spectator.until_close().await, 1008);
    server.stop().await;
}

#[tokio::test]
async fn a_game_reloaded_after_a_refused_write_still_frees_its_creators_slot() {
    let db = database("refused");
    let server = start_on(db.clone(), 39, |c| c.limits.games_per_ip = 1).await;
    let game = random_game(16, 6);
    let mut table = Table::open(&server, json!({"first": game.first_mover().word()})).await;
    table.set_up(&game).await;
    // The next event's row is taken behind the server's back: its write is refused, and
    // the room is dropped (its sockets closed with 1011) to be reloaded from the database.
    let next_v = table.v + 1;
    exec(
        &db,
        &format!(
            "INSERT INTO events (game, v, body) VALUES ('{}', {next_v}, '{{}}')",
            table.id
        ),
    );
    let first = game.first_mover();
    let mv = json!({"t": "move", "move": game.history()[0].mv.to_string(), "ply": 0});
    table.seats[first.index()].send(&mv).await;
    assert_eq!(table.seats[first.index()].until_close().await, 1011);
    exec(
        &db,
        &format!(
            "DELETE FROM events WHERE game = '{}' AND v = {next_v}",
            table.id
        ),
    );
    // Reloaded, the game ends by a resignation; its creator may create again.
    let mut seat = server
        .seat(&table.id, Some(&table.tokens[first.index()]))
        .await;
    seat.until("state").await;
    seat.send(&json!({"t": "resign"})).await;
    seat.until("over").await;
    let (status, body) = server.json("POST", "/api/games", &json!({})).await;
    assert_eq!(status, 201, "the slot was freed: {body}");
    server.stop().await;
}

#[tokio::test]
async fn every_refusal_has_the_contracts_shape() {
    let server = crate::common::start(40).await;
    let (_, created) = server.json("POST", "/api/games", &json!({})).await;
    let id = created["game"].as_str().unwrap().to_owned();
    let big = "x".repeat(5_000);
    for (method, path, body, status) in [
        ("DELETE", format!("/api/games/{id}"), String::new(), 405),
        ("PUT", "/api/health".to_owned(), String::new(), 405),
        ("GET", "/api/games".to_owned(), String::new(), 405),
        ("POST", "/api/games".to_owned(), big, 413),
        ("GET", format!("/api/games/{id}/socket"), String::new(), 400),
        ("PATCH", "/api/nowhere".to_owned(), String::new(), 404),
    ] {
        let (got, text) = server.http(method, &path, &body).await;
        assert_eq!(got, status, "{method} {path}: {text}");
        let reply: Value =
            serde_json::from_str(&text).unwrap_or_else(|_| panic!("{method} {path}: {text}"));
        assert!(
            reply["error"].is_string() && reply["message"].is_string(),
            "{reply}"
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn every_game_is_bounded_by_a_move_limit_shown_before_it_starts() {
    // A server as shipped: its default move limit, and a longest one a creator may ask for.
    let server = start_on(database("bounded"), 41, |c| {
        c.limits.default_move_limit = 200;
        c.limits.max_move_limit = 1_000;
    })
    .await;
    let (status, created) = server.json("POST", "/api/games", &json!({})).await;
    assert_eq!(status, 201);
    let path = format!("/api/games/{}", created["game"].as_str().unwrap());
    let (_, summary) = server.json("GET", &path, &Value::Null).await;
    assert_eq!(
        summary["rules"],
        json!({"setup_rows": 3, "move_limit": 200, "max_plies": 42 * 201})
    );
    let mut seat = server
        .seat(created["game"].as_str().unwrap(), created["token"].as_str())
        .await;
    assert_eq!(seat.until("state").await["rules"]["max_plies"], 42 * 201);
    for (limit, status) in [(0, 400), (1_001, 400), (1_000, 201), (1, 201)] {
        let body = json!({"rules": {"move_limit": limit}});
        let (got, reply) = server.json("POST", "/api/games", &body).await;
        assert_eq!(got, status, "move_limit {limit}: {reply}");
        if status == 400 {
            assert_eq!(reply["error"], "bad-rules");
        }
    }
    server.stop().await;
}

/// Opens `n` TCP connections to `server` from `from` (another loopback address than the
/// tests' clients), sending nothing.
async fn idle_connections(
    server: std::net::SocketAddr,
    from: [u8; 4],
    n: usize,
) -> Vec<tokio::net::TcpStream> {
    let mut streams = Vec::new();
    for _ in 0..n {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(std::net::SocketAddr::from((from, 0))).unwrap();
        if let Ok(stream) = socket.connect(server).await {
            streams.push(stream);
        }
    }
    streams
}

/// How many of `streams` the server has closed within `wait` (all watched at once).
async fn closed_by_the_server(streams: &mut [tokio::net::TcpStream], wait: Duration) -> usize {
    use tokio::io::AsyncReadExt;
    let reads = streams.iter_mut().map(|stream| async move {
        let mut byte = [0u8; 1];
        matches!(
            tokio::time::timeout(wait, stream.read(&mut byte)).await,
            Ok(Ok(0) | Err(_))
        )
    });
    futures_util::future::join_all(reads)
        .await
        .into_iter()
        .filter(|&closed| closed)
        .count()
}

#[tokio::test]
async fn idle_connections_are_capped_per_address_and_closed_after_the_header_timeout() {
    let server = start_on(database("idle"), 42, |c| {
        c.limits.header_timeout = Duration::from_millis(800);
        c.limits.pending_per_ip = 8;
    })
    .await;
    let mut idle = idle_connections(server.addr, [127, 0, 0, 2], 100).await;
    // All but 8 are closed at once...
    let at_once = closed_by_the_server(&mut idle, Duration::from_millis(200)).await;
    assert_eq!(
        at_once, 92,
        "the address's connections waiting for a request are capped"
    );
    // ...meanwhile another address plays...
    let (status, created) = server.json("POST", "/api/games", &json!({})).await;
    assert_eq!(status, 201);
    let mut seat = server
        .seat(created["game"].as_str().unwrap(), created["token"].as_str())
        .await;
    seat.until("state").await;
    // ...and the 8 that sent nothing are closed after the header timeout.
    let later = closed_by_the_server(&mut idle, Duration::from_secs(3)).await;
    assert_eq!(later, 100);
    server.stop().await;
}

#[tokio::test]
async fn with_few_descriptors_one_address_cannot_take_the_last_of_them() {
    let db = database("descriptors");
    // The real binary, with 256 descriptors.
    let mut binary = Binary::start(Some("ulimit -n 256 && exec \"$0\" \"$@\""), &[], &db);
    let (addr, server) = (binary.server.addr, &binary.server);
    let mut idle = idle_connections(addr, [127, 0, 0, 3], 600).await;
    let at_once = closed_by_the_server(&mut idle, Duration::from_millis(100)).await;
    assert!(at_once >= 600 - 16, "{at_once} of 600 closed at once");
    // The server still serves everyone else: games, sockets, the database.
    for _ in 0..3 {
        let (status, created) = server.json("POST", "/api/games", &json!({})).await;
        assert_eq!(status, 201, "{created}");
        let mut seat = server
            .seat(created["game"].as_str().unwrap(), created["token"].as_str())
            .await;
        seat.until("state").await;
    }
    assert!(
        binary.child.try_wait().unwrap().is_none(),
        "the server is still running"
    );
}

#[tokio::test]
async fn a_seats_socket_is_never_refused_for_other_clients_sockets() {
    let server = crate::common::start(43).await;
    let (id, white, _) = server.pair(json!({"side": "white"})).await;
    // Another client at the seat's address takes every spectator slot of the address.
    let mut spectators = Vec::new();
    for _ in 0..32 {
        spectators.push(server.seat(&id, None).await);
    }
    let refused = salpakan_server::client::Socket::connect(server.addr, &id, None).await;
    assert!(refused.is_err(), "the address's spectator slots are full");
    // The seat still connects.
    let mut seat = server.seat(&id, Some(&white)).await;
    assert_eq!(seat.until("state").await["side"], "white");
    server.stop().await;
}

#[tokio::test]
async fn a_seat_reconnecting_gets_no_fresh_budget_and_a_bounded_number_of_sockets() {
    let server = start_on(database("reconnects"), 44, |c| {
        c.limits.messages_per_window = 20;
        c.limits.seat_connects_per_minute = 5;
    })
    .await;
    let (id, white, _) = server.pair(json!({"side": "white"})).await;
    let mut seat = server.seat(&id, Some(&white)).await;
    seat.until("state").await;
    for _ in 0..15 {
        seat.send(&json!({"t": "ping"})).await;
        seat.until("pong").await;
    }
    seat.socket.close().await;
    // A new socket of the same seat: the 15 messages still count.
    let mut again = server.seat(&id, Some(&white)).await;
    again.until("state").await;
    let mut closed = None;
    for _ in 0..10 {
        again.send(&json!({"t": "ping"})).await;
        let frame = again.recv().await;
        if frame["t"] == "error" {
            assert_eq!(frame["code"], "rate-limited");
            closed = Some(again.until_close().await);
            break;
        }
    }
    assert_eq!(
        closed,
        Some(1008),
        "the seat's budget is shared by its sockets"
    );
    // Five sockets a minute for the seat: the sixth is refused.
    for _ in 0..3 {
        let socket = server.seat(&id, Some(&white)).await;
        socket.socket.close().await;
    }
    let sixth = salpakan_server::client::Socket::connect(server.addr, &id, Some(&white)).await;
    let refused = sixth.err().expect("refused");
    assert_eq!(refused.body().unwrap().error.word(), "too-many-connections");
    server.stop().await;
}

#[tokio::test]
async fn finished_games_past_their_retention_are_deleted() {
    let db = database("retention");
    let server = start_on(db.clone(), 45, |_| {}).await;
    let mut ids = Vec::new();
    for seed in [17, 18] {
        let game = random_game(seed, 4);
        let mut table = Table::open(&server, json!({"first": game.first_mover().word()})).await;
        table.set_up(&game).await;
        table
            .act(game.first_mover(), json!({"t": "resign"}), 1)
            .await;
        ids.push(table.id);
    }
    let (_, unfinished) = server.json("POST", "/api/games", &json!({})).await;
    server.stop().await;
    // One ended 40 days ago, one yesterday; the unfinished game is as old as the first.
    let day = 24 * 60 * 60 * 1000i64;
    let now = i64::try_from(salpakan_server::clock::unix_ms()).unwrap();
    exec(
        &db,
        &format!(
            "UPDATE games SET ended_ms = {} WHERE id = '{}';
             UPDATE games SET ended_ms = {} WHERE id = '{}';
             UPDATE games SET created_ms = {} WHERE id = '{}';",
            now - 40 * day,
            ids[0],
            now - day,
            ids[1],
            now - 40 * day,
            unfinished["game"].as_str().unwrap(),
        ),
    );
    let server = start_on(db.clone(), 46, |c| {
        c.limits.retention = Some(Duration::from_secs(30 * 24 * 60 * 60));
        c.limits.setup_expiry = Duration::from_secs(365 * 24 * 60 * 60);
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let status = |id: String| {
        let server = &server;
        async move {
            server
                .http("GET", &format!("/api/games/{id}/record"), "")
                .await
                .0
        }
    };
    assert_eq!(status(ids[0].clone()).await, 404, "past its retention");
    assert_eq!(status(ids[1].clone()).await, 200);
    assert_eq!(
        status(unfinished["game"].as_str().unwrap().to_owned()).await,
        409,
        "unfinished games stay"
    );
    server.stop().await;
    let events = query_int(
        &db,
        &format!("SELECT COUNT(*) FROM events WHERE game = '{}'", ids[0]),
    );
    assert_eq!(events, 0);
}

#[tokio::test]
async fn a_pause_of_the_server_is_charged_to_nobody() {
    let db = database("paused");
    let binary = Binary::start(None, &["--max-move-limit", "0"], &db);
    let server = &binary.server;
    let game = random_game(19, 4);
    let first = game.first_mover();
    let clock = json!({"initial_ms": 2_000, "increment_ms": 0});
    let mut table = Table::open(server, json!({"first": first.word(), "clock": clock})).await;
    table.set_up(&game).await;
    // The server is stopped for 3 s while the first mover's 2 s run.
    let pid = binary.child.id().to_string();
    let signal = |name: &str| {
        std::process::Command::new("kill")
            .args([name, &pid])
            .status()
            .expect("kill");
    };
    signal("-STOP");
    tokio::time::sleep(Duration::from_secs(3)).await;
    signal("-CONT");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let seat = &mut table.seats[first.index()];
    seat.send(&json!({"t": "hello", "v": 99})).await;
    let state = seat.until("state").await;
    assert_eq!(
        state["status"]["state"], "ongoing",
        "no loss on time for the server's pause"
    );
    let left = state["clock"][format!("{}_ms", first.word())]
        .as_u64()
        .unwrap();
    assert!(
        left > 1_000,
        "{left} ms left of 2,000 after a 3 s pause of the server"
    );
}

#[tokio::test]
async fn a_flood_of_reconnects_tells_the_opponent_at_most_once_a_second() {
    let server = start_on(database("flapping"), 47, |c| {
        c.limits.seat_connects_per_minute = 1_000;
        c.limits.presence_gap = Duration::from_secs(1);
    })
    .await;
    let (id, white, black) = server.pair(json!({"side": "white"})).await;
    let mut watcher = server.seat(&id, Some(&white)).await;
    watcher.until("state").await;
    for _ in 0..20 {
        let flapper = server.seat(&id, Some(&black)).await;
        flapper.socket.close().await;
    }
    // Over two seconds the opponent hears a few changes, not forty, and the last is true.
    let mut told = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(2);
    while let Ok(frame) = tokio::time::timeout_at(deadline, watcher.recv()).await {
        if frame["t"] == "presence" {
            told.push(frame["connected"].as_bool().unwrap());
        }
    }
    assert!(told.len() <= 4, "{} presence frames: {told:?}", told.len());
    assert_eq!(
        told.last(),
        Some(&false),
        "the last one told is the seat's presence now"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_backlog_of_old_games_is_pruned_a_batch_at_a_time_oldest_first() {
    use salpakan_server::store::PRUNE_BATCH;
    let db = database("prune-backlog");
    let server = start_on(db.clone(), 49, |_| {}).await;
    let game = random_game(19, 4);
    let mut table = Table::open(&server, json!({"first": game.first_mover().word()})).await;
    table.set_up(&game).await;
    table
        .act(game.first_mover(), json!({"t": "resign"}), 1)
        .await;
    let kept = table.id.clone();
    server.stop().await;
    // 2 × PRUNE_BATCH + 10 copies of the finished game, ended 100 … 40 days ago in steps,
    // and the game itself ended now.
    let backlog = 2 * PRUNE_BATCH + 10;
    let day = 24 * 60 * 60 * 1000i64;
    let now = i64::try_from(salpakan_server::clock::unix_ms()).unwrap();
    let columns: Vec<String> = columns(&db, "games")
        .into_iter()
        .filter(|c| c != "id" && c != "ended_ms")
        .collect();
    let columns = columns.join(", ");
    let mut copies = String::new();
    for i in 0..backlog {
        let i = i64::try_from(i).unwrap();
        copies.push_str(&format!(
            "INSERT INTO games (id, ended_ms, {columns}) SELECT 'old{i:04}', {}, {columns} \
             FROM games WHERE id = '{kept}';",
            now - 100 * day + i * 1000
        ));
    }
    exec(&db, &copies);
    let count = |db: &std::path::Path| -> i64 { query_int(db, "SELECT COUNT(*) FROM games") };
    // One prune deletes one batch, the oldest.
    let opened = open_store(&db);
    let cut = u64::try_from(now - 30 * day).unwrap();
    assert!(opened.store.any_ended_before(cut).await.unwrap());
    opened
        .store
        .write(vec![Write::Prune {
            ended_before_ms: cut,
        }])
        .await
        .unwrap();
    assert_eq!(
        count(&db),
        i64::try_from(backlog - PRUNE_BATCH + 1).unwrap()
    );
    // The oldest left is the first of the second batch.
    let oldest_left = query_int(
        &db,
        "SELECT COUNT(*) FROM games WHERE id LIKE 'old%' AND id < (SELECT MIN(id) FROM games WHERE id LIKE 'old%')",
    );
    assert_eq!(oldest_left, 0);
    let first_left = format!("old{PRUNE_BATCH:04}");
    assert_eq!(
        query_int(
            &db,
            &format!("SELECT COUNT(*) FROM games WHERE id = '{first_left}'")
        ),
        1
    );
    assert_eq!(
        query_int(
            &db,
            &format!("SELECT COUNT(*) FROM games WHERE id LIKE 'old%' AND id < '{first_left}'")
        ),
        0
    );
    drop(opened);
    // The server's pruner takes batch after batch until none is left.
    let server = start_on(db.clone(), 50, |c| {
        c.limits.retention = Some(Duration::from_secs(30 * 24 * 60 * 60));
    })
    .await;
    let mut waited = 0;
    while count(&db) > 1 {
        waited += 1;
        assert!(waited < 100, "the backlog is not pruned");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (status, _) = server
        .http("GET", &format!("/api/games/{kept}/record"), "")
        .await;
    assert_eq!(status, 200, "a game within its retention stays");
    server.stop().await;
}

#[tokio::test]
async fn an_addresss_spectators_share_one_budget_a_fresh_socket_does_not_refill_it() {
    let server = start_on(database("spectators-budget"), 51, |c| {
        c.limits.messages_per_window = 10;
    })
    .await;
    let (id, _, _) = server.pair(json!({"side": "white"})).await;
    let ping = json!({"t": "ping"});
    let mut first = server.seat(&id, None).await;
    first.until("state").await;
    for _ in 0..10 {
        first.send(&ping).await;
        first.until("pong").await;
    }
    // The same address's next spectator is over the budget at its first message.
    let mut second = server.seat(&id, None).await;
    second.until("state").await;
    second.send(&ping).await;
    let refused = second.recv().await;
    assert_eq!(refused["code"], "rate-limited", "{refused}");
    assert_eq!(second.until_close().await, 1008);
    // Another address's spectator has its own.
    let other = salpakan_server::client::Socket::connect_from(
        Some("127.0.0.2".parse().unwrap()),
        server.addr,
        &id,
        None,
    )
    .await
    .expect("another address's spectator");
    let mut other = crate::common::Seat {
        socket: other,
        transcript: Vec::new(),
    };
    other.until("state").await;
    other.send(&ping).await;
    other.until("pong").await;
    server.stop().await;
}

/// Waits up to two seconds for the server to hold no game in memory.
async fn until_no_game_in_memory(server: &crate::common::Server, after: &str) {
    let running = server.running.as_ref().unwrap();
    for _ in 0..100 {
        if running.games_in_memory() == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!(
        "after {after}, {} games stay in memory",
        running.games_in_memory()
    );
}

#[tokio::test]
async fn a_finished_game_loaded_by_a_failing_request_leaves_memory() {
    let server = start_on(database("let-go"), 56, |c| {
        c.limits.connections_per_ip = 0;
    })
    .await;
    let game = random_game(11, 400);
    assert!(!game.status().is_ongoing());
    let mut table = Table::open(&server, json!({"first": game.first_mover().word()})).await;
    table.set_up(&game).await;
    table.replay(&game, 0, game.history().len()).await;
    let id = table.id.clone();
    for seat in table.seats {
        seat.socket.close().await;
    }
    until_no_game_in_memory(&server, "the seats left").await;
    // A socket route asked for without an upgrade: the game is loaded to authorize it.
    let (status, _) = server
        .http(
            "GET",
            &format!("/api/games/{id}/socket?token={}", table.tokens[0]),
            "",
        )
        .await;
    assert_eq!(status, 400);
    until_no_game_in_memory(&server, "a socket request without an upgrade").await;
    // A spectator refused for its address's sockets (none allowed here): 429.
    let refused = salpakan_server::client::Socket::connect(server.addr, &id, None).await;
    assert_eq!(
        refused.err().and_then(|e| e.body()).map(|b| b.error.word()),
        Some("too-many-connections")
    );
    until_no_game_in_memory(&server, "a refused spectator").await;
    // A join with a wrong invite.
    let (status, _) = server
        .json(
            "POST",
            &format!("/api/games/{id}/join"),
            &json!({"invite": "00"}),
        )
        .await;
    assert_eq!(status, 404);
    until_no_game_in_memory(&server, "a refused join").await;
    server.stop().await;
}

#[tokio::test]
async fn a_socket_that_never_reads_is_closed_and_its_slot_freed() {
    let (id, db) = long_game("never-reads", 57).await;
    let server = start_on(db, 58, |c| {
        c.limits.messages_per_window = 100_000;
        c.limits.connections_per_ip = 1;
        c.limits.write_timeout = Duration::from_millis(300);
    })
    .await;
    let connect = || salpakan_server::client::Socket::connect(server.addr, &id, None);
    let mut deaf = connect().await.expect("the first spectator");
    // Its address's only slot is taken.
    assert!(connect().await.is_err());
    // It asks for the whole history (about 300 KB) again and again, and reads none of it:
    // once the buffers between are full, the server's write waits, past its bound.
    for _ in 0..40 {
        if deaf.send(r#"{"t":"hello","v":0}"#).await.is_err() {
            break;
        }
    }
    let mut tries = 0;
    let _next = loop {
        match connect().await {
            Ok(socket) => break socket,
            Err(e) => {
                let code = e.body().map(|b| b.error.word());
                assert_eq!(code, Some("too-many-connections"), "{e}");
                tries += 1;
                assert!(tries < 100, "the socket that reads nothing keeps its slot");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };
    drop(deaf);
    server.stop().await;
}

#[tokio::test]
async fn a_browsers_kept_alive_connections_do_not_count_as_waiting() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = start_on(database("kept-alive"), 59, |c| {
        c.limits.header_timeout = Duration::from_secs(5);
        c.limits.pending_per_ip = 2;
    })
    .await;
    // Six connections from one address, each asks for something and stays open (as a
    // browser's tabs keep theirs): more than the 2 that may wait for a first request.
    let mut kept = idle_connections(server.addr, [127, 0, 0, 3], 1).await;
    for _ in 0..5 {
        kept.extend(idle_connections(server.addr, [127, 0, 0, 3], 1).await);
        let stream = kept.last_mut().unwrap();
        stream
            .write_all(b"GET /api/health HTTP/1.1\r\nHost: salpakan\r\n\r\n")
            .await
            .unwrap();
        let mut reply = [0u8; 12];
        stream.read_exact(&mut reply).await.unwrap();
        assert_eq!(&reply, b"HTTP/1.1 200", "a kept-alive connection is served");
    }
    let first = &mut kept[0];
    first
        .write_all(b"GET /api/health HTTP/1.1\r\nHost: salpakan\r\n\r\n")
        .await
        .unwrap();
    let mut reply = [0u8; 12];
    first.read_exact(&mut reply).await.unwrap();
    assert_eq!(&reply, b"HTTP/1.1 200");
    // Still, only 2 that send nothing are held.
    let mut silent = idle_connections(server.addr, [127, 0, 0, 3], 4).await;
    let closed = closed_by_the_server(&mut silent, Duration::from_millis(300)).await;
    assert_eq!(closed, 2, "two connections may wait for a first request");
    server.stop().await;
}
