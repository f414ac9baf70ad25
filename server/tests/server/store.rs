//! The database under a hostile or unlucky load: reads that never wait for the writer, a
//! finished game read from its row, a slow commit charged to nobody, unreadable games
//! quarantined, refused writes, retention and pruning.
use std::time::Duration;

use rusqlite::Connection;
use salpakan_server::room::{Player, Spec};
use salpakan_server::store::{Durability, Store, Write};
use serde_json::{Value, json};

use crate::common::{
    Table, clock_ms, columns, database, eventually, exec, node, query_int, random_game, start_on,
};
use salpakan_server::store::GameWrite;

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
    let created = Write::Game(GameWrite::Create {
        spec: spec("00000000000000aa"),
        creator: None,
        ips: [None, None],
        unrated: None,
    });
    store.write(vec![created]).await.unwrap();
    // The writer is stuck behind the lock with a write of its own...
    let lock = WriteLock::take(&db);
    let writing = tokio::spawn({
        let store = store.clone();
        async move {
            let write = Write::Game(GameWrite::Create {
                spec: spec("00000000000000bb"),
                creator: None,
                ips: [None, None],
                unrated: None,
            });
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
    until_no_game_in_memory(&server, "its sockets closed").await;
    let running = server.running.as_ref().unwrap();
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
    let left = clock_ms(&state, first);
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
        let (got, _) = server.summary(id).await;
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
        .write(vec![Write::Game(GameWrite::Prune {
            ended_before_ms: cut,
        })])
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
    let pruned = async || count(&db) <= 1;
    eventually(Duration::from_secs(5), "the backlog is not pruned", pruned).await;
    let (status, _) = server
        .http("GET", &format!("/api/games/{kept}/record"), "")
        .await;
    assert_eq!(status, 200, "a game within its retention stays");
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
    let (status, _) = server.join(&id, &json!("00")).await;
    assert_eq!(status, 404);
    until_no_game_in_memory(&server, "a refused join").await;
    server.stop().await;
}

#[tokio::test]
async fn a_refused_request_never_loads_a_finished_game() {
    let server = start_on(database("refused-finished"), 35, |_| {}).await;
    let game = random_game(11, 400);
    let body = json!({"side": "white", "first": game.first_mover().word()});
    let (created, joined) = server.create_and_join(body).await;
    let id = created["game"].as_str().unwrap().to_owned();
    let tokens = [&created["token"], &joined["token"]].map(|t| t.as_str().unwrap().to_owned());
    let mut white = server.seat(&id, Some(&tokens[0])).await;
    white.until("state").await;
    let mut black = server.seat(&id, Some(&tokens[1])).await;
    black.until("state").await;
    white.until("presence").await;
    let mut table = Table {
        id: id.clone(),
        tokens: tokens.clone(),
        seats: [white, black],
        v: 0,
    };
    table.set_up(&game).await;
    table.replay(&game, 0, game.history().len()).await;
    for seat in table.seats {
        seat.socket.close().await;
    }
    until_no_game_in_memory(&server, "its sockets closed").await;
    let running = server.running.as_ref().unwrap();
    let replays = running.replays();
    // A socket's route asked without an upgrade, a wrong token, a wrong invite, the right
    // invite of a game whose seats are taken: each refused, none loads the game.
    let plain = format!("/api/games/{id}/socket?token={}", tokens[0]);
    assert_eq!(server.http("GET", &plain, "").await.0, 400);
    let wrong = "ab".repeat(32);
    for _ in 0..5 {
        let refused = salpakan_server::client::Socket::connect(server.addr, &id, Some(&wrong))
            .await
            .err()
            .expect("a wrong token is refused");
        assert_eq!(refused.body().map(|b| b.error.word()), Some("unauthorized"));
        let (status, reply) = server.join(&id, &json!("00".repeat(16))).await;
        assert_eq!((status, &reply["error"]), (404, &json!("not-found")));
        let (status, reply) = server.join(&id, &created["invite"]).await;
        assert_eq!((status, &reply["error"]), (409, &json!("seat-taken")));
    }
    assert_eq!(
        running.replays(),
        replays,
        "a refused request replays nothing"
    );
    assert_eq!(running.games_in_memory(), 0);
    // A socket the server serves loads it, as before.
    let mut seat = server.seat(&id, Some(&tokens[1])).await;
    assert_eq!(seat.until("state").await["phase"], "over");
    assert_eq!(running.replays(), replays + 1);
    server.stop().await;
}
