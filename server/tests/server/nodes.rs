//! Three nodes on one PostgreSQL database (`scripts/test-postgres` runs these alone, after
//! the suite): games made and played through every node (each game joined, and its Black
//! seat played, through another node than its owner: forwarded), then a node killed, paused
//! past its lease, drained, or the database restarted under them. Every game in play goes on
//! elsewhere; the load generator checks that every ply any client saw is in the game's final
//! record, and the database that every game's versions run 1, 2, 3 … without a gap.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::Duration;

use salpakan_server::store::{Durability, Store, StoreError, Write};

use crate::common::{database, query_int, spawn_binary};
use crate::crash::postgres_ctl;
use salpakan_server::store::GameWrite;

const SERVER: &str = env!("CARGO_BIN_EXE_salpakan-server");
const LOADGEN: &str = env!("CARGO_BIN_EXE_salpakan-loadgen");

/// A node of the test: its process and address.
struct Node {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts node `name` on `db` with the flags `limits` besides its database, name and
/// address.
fn spawn_node(db: &Path, name: &str, limits: &[&str]) -> Node {
    let mut command = Command::new(SERVER);
    command
        .args(["--db", db.to_str().unwrap(), "--node", name])
        .args(["--addr", "127.0.0.1:0"])
        .args(limits);
    let (child, server) = spawn_binary(&mut command);
    Node {
        child,
        addr: server.addr,
    }
}

/// Starts node `name` on `db` with a lease of `lease` seconds and limits above what the
/// load generator's games from one machine need.
fn node(db: &Path, name: &str, lease: u64) -> Node {
    spawn_node(
        db,
        name,
        &[
            "--lease-secs",
            &lease.to_string(),
            "--games-per-ip",
            "100000",
            "--games-per-hour",
            "1000000",
            "--connections-per-ip",
            "100000",
            "--pending-per-ip",
            "100000",
            "--connects-per-minute",
            "1000000",
        ],
    )
}

/// The nodes a, b and c on `db`.
fn three(db: &Path, lease: u64) -> Vec<Node> {
    ["a", "b", "c"]
        .iter()
        .map(|name| node(db, name, lease))
        .collect()
}

/// What the load generator said at the end.
#[derive(Debug)]
struct Said {
    finished: u64,
    errors: u64,
    lost: u64,
    reconnects: u64,
    stall_ms: u64,
    line: String,
}

/// The number before `word` in `line` (`… 3 errors …`).
fn before(line: &str, word: &str) -> u64 {
    let words: Vec<&str> = line.split([' ', ',']).filter(|w| !w.is_empty()).collect();
    let at = words
        .iter()
        .position(|w| *w == word)
        .unwrap_or_else(|| panic!("no {word} in {line}"));
    words[at - 1]
        .trim_end_matches("ms")
        .parse::<f64>()
        .unwrap_or_else(|_| panic!("no number before {word} in {line}")) as u64
}

/// Starts the load generator: `games` games for `seconds` over `nodes`, spread.
fn load(nodes: &[Node], games: usize, seconds: u64) -> Child {
    let urls: Vec<String> = nodes.iter().map(|n| format!("http://{}", n.addr)).collect();
    Command::new(LOADGEN)
        .args([
            "--url",
            &urls.join(","),
            "--games",
            &games.to_string(),
            "--seconds",
            &seconds.to_string(),
            "--think-ms",
            "40",
            "--spread",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the load generator starts")
}

/// The load generator's end.
/// The load's summary, which had no error and lost nothing, and whose seats of the node's
/// games moved (reconnected to another node).
fn moved(load: Child) -> Said {
    let said = said(load);
    assert_eq!((said.errors, said.lost), (0, 0), "{}", said.line);
    assert!(
        said.reconnects > 0,
        "the seats of the node's games moved: {}",
        said.line
    );
    said
}

fn said(load: Child) -> Said {
    let out = load.wait_with_output().expect("the load generator ends");
    let text =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    let finished_line = text
        .lines()
        .find(|l| l.contains("games finished"))
        .unwrap_or_else(|| panic!("no summary in:\n{text}"));
    let line = text
        .lines()
        .rev()
        .find(|l| l.contains(" lost"))
        .unwrap_or_else(|| panic!("no summary in:\n{text}"))
        .to_owned();
    // What each error was, for the assertions' messages.
    let errors: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("loadgen: ") && !is_summary(l))
        .collect();
    Said {
        finished: before(finished_line, "games"),
        errors: before(&line, "errors"),
        lost: before(&line, "lost"),
        reconnects: before(&line, "reconnects"),
        stall_ms: before_stall(&line),
        line: [line.as_str()]
            .into_iter()
            .chain(errors)
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// Whether `line` is one of the load generator's summaries (`loadgen: N games finished …`,
/// `loadgen: N games, …`) rather than an error (`loadgen: 1 games still playing …` is one).
fn is_summary(line: &str) -> bool {
    let rest = line.trim_start_matches("loadgen: ");
    let after = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    after.len() < rest.len()
        && (after.starts_with(" games,") || after.starts_with(" games finished"))
}

/// The longest stall in milliseconds (`longest stall N ms`).
fn before_stall(line: &str) -> u64 {
    line.rsplit("longest stall ")
        .next()
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no stall in {line}"))
}

/// Games whose stored versions are not 1 … n without a gap.
fn gaps(db: &Path) -> i64 {
    query_int(
        db,
        "SELECT count(*) FROM (SELECT game FROM events GROUP BY game
         HAVING count(*) <> max(v) OR min(v) <> 1) AS gapped",
    )
}

/// Unfinished games still owned by `node`.
fn owned_by(db: &Path, node: &str) -> i64 {
    query_int(
        db,
        &format!(
            "SELECT count(*) FROM owners o JOIN games g ON g.id = o.game
             WHERE g.over = 0 AND o.node = '{node}'"
        ),
    )
}

fn signal(node: &Node, signal: &str) {
    let status = Command::new("kill")
        .args([signal, &node.child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill {signal}");
}

/// Whether the suite runs against PostgreSQL (these tests need it).
fn on_postgres() -> bool {
    crate::common::postgres_host().is_some()
}

/// Three nodes on a new database `name` (PostgreSQL: the suite's), leases of `lease` s, with
/// 30 games played on them for `seconds` s by the load generator, which has played for
/// `warmed` s when this returns.
fn three_in_play(name: &str, lease: u64, seconds: u64, warmed: u64) -> (PathBuf, Vec<Node>, Child) {
    assert!(on_postgres(), "needs SALPAKAN_TEST_POSTGRES");
    let db = database(name);
    let nodes = three(&db, lease);
    let running = load(&nodes, 30, seconds);
    std::thread::sleep(Duration::from_secs(warmed));
    (db, nodes, running)
}

/// Node c killed (SIGKILL) mid-game: its games are taken over and finish on a and b.
#[test]
#[ignore = "several nodes on PostgreSQL: scripts/test-postgres runs it alone"]
fn nodes_a_killed_node_s_games_finish_on_the_others() {
    let (db, mut nodes, running) = three_in_play("nodes-kill", 2, 14, 5);
    let c = nodes.pop().unwrap();
    let held = owned_by(&db, "c");
    assert!(held > 0, "node c owns games when it is killed");
    signal(&c, "-KILL");
    let said = moved(running);
    assert!(said.finished > 30, "{}", said.line);
    // Taken within the lease and a few seconds.
    assert!(said.stall_ms < 2_000 + 3_000, "{}", said.line);
    assert_eq!(owned_by(&db, "c"), 0, "no unfinished game is left with c");
    assert_eq!(gaps(&db), 0);
    drop(c);
}

/// Node c paused (SIGSTOP) past its lease, then resumed: its games moved meanwhile, and it
/// never writes to them again (the fence); its seats are moved too.
#[test]
#[ignore = "several nodes on PostgreSQL: scripts/test-postgres runs it alone"]
fn nodes_a_paused_node_is_fenced_and_its_clients_move() {
    let (db, nodes, running) = three_in_play("nodes-pause", 2, 16, 4);
    signal(&nodes[2], "-STOP");
    std::thread::sleep(Duration::from_secs(5));
    assert_eq!(owned_by(&db, "c"), 0, "c's games were taken while it slept");
    let events = query_int(&db, "SELECT count(*) FROM events");
    signal(&nodes[2], "-CONT");
    let said = moved(running);
    // No game waits past c's lease and its clients' silence: the seats connected to c itself
    // hear nothing from a paused server, and connect again elsewhere after 5 s of silence;
    // those a and b forwarded to c are closed when its lease lapses (the next test).
    assert!(said.stall_ms < 2_000 + 5_000 + 1_000, "{}", said.line);
    assert!(
        query_int(&db, "SELECT count(*) FROM events") > events,
        "the games went on"
    );
    assert_eq!(gaps(&db), 0);
    // The fence: c's lease is of a new epoch, and c owns no game it held before it slept
    // (every game it owns now it made after).
    assert!(query_int(&db, "SELECT epoch FROM nodes WHERE name = 'c'") >= 2);
}

/// Node c drained (SIGTERM): it hands its games over before it stops, at once (well within
/// its lease, here long), and exits cleanly.
#[test]
#[ignore = "several nodes on PostgreSQL: scripts/test-postgres runs it alone"]
fn nodes_a_drained_node_hands_its_games_over() {
    let (db, mut nodes, running) = three_in_play("nodes-drain", 30, 12, 4);
    let mut c = nodes.pop().unwrap();
    signal(&c, "-TERM");
    let exited = c.child.wait().expect("c exits");
    assert!(exited.success(), "c exits cleanly: {exited:?}");
    let said = moved(running);
    assert!(
        said.stall_ms < 5_000,
        "handed over, not left to lapse: {}",
        said.line
    );
    assert_eq!(owned_by(&db, "c"), 0);
    assert_eq!(gaps(&db), 0);
}

/// The database restarted under three nodes in play: the service resumes and nothing any
/// client saw is lost (requests during the outage may fail, and are said).
#[test]
#[ignore = "restarts the test cluster: scripts/test-postgres runs it alone"]
fn nodes_the_database_restarted_under_load_loses_nothing() {
    assert!(std::env::var("SALPAKAN_TEST_POSTGRES_CTL").is_ok());
    let (db, nodes, running) = three_in_play("nodes-db-restart", 10, 16, 5);
    let before = query_int(&db, "SELECT count(*) FROM events");
    let restarted = postgres_ctl("-m fast restart").unwrap();
    assert!(restarted.success(), "the cluster restarts");
    let said = said(running);
    assert_eq!(said.lost, 0, "{}", said.line);
    assert!(
        query_int(&db, "SELECT count(*) FROM events") > before + 100,
        "play resumed: {}",
        said.line
    );
    assert_eq!(gaps(&db), 0);
    drop(nodes);
}

/// The fence itself: a store whose lease was taken commits nothing, whatever it holds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "several nodes on PostgreSQL: scripts/test-postgres runs it alone"]
async fn nodes_a_store_that_lost_its_lease_commits_nothing() {
    assert!(on_postgres(), "needs SALPAKAN_TEST_POSTGRES");
    let db = database("nodes-fence");
    let open = |name: &str, secs: u64| {
        let (db, node) = (
            db.clone(),
            salpakan_server::store::Node {
                name: name.to_owned(),
                url: "http://127.0.0.1:9".to_owned(),
                lease: Duration::from_secs(secs),
            },
        );
        std::thread::spawn(move || Store::open(&db, Durability::Normal, &node).unwrap())
            .join()
            .unwrap()
    };
    let x = open("x", 2).store;
    let spec = salpakan_server::room::Spec::plain(
        "00112233445566778899aabbccddeeff",
        [salpakan_server::room::Player::Human; 2],
        1,
    );
    x.write(vec![Write::Game(GameWrite::Create {
        spec,
        creator: None,
        ips: [None, None],
        unrated: None,
    })])
    .await
    .expect("x makes a game");
    let y = open("y", 60).store;
    // x stops renewing (as if paused); once its lease lapsed, y takes its games.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    let taken = y.take_over("x", None).await.expect("y takes over");
    assert_eq!(taken.len(), 2, "the game and the lobby: {taken:?}");
    let stored = query_int(&db, "SELECT count(*) FROM games");
    let refused = x.write(vec![Write::Game(GameWrite::Delete(
        "00112233445566778899aabbccddeeff".into(),
    ))]);
    assert!(matches!(refused.await, Err(StoreError::Fenced)));
    assert!(
        !x.renew().await.expect("a renewal's answer"),
        "x's lease is gone"
    );
    assert_eq!(query_int(&db, "SELECT count(*) FROM games"), stored);
    // Registered again, x writes again (owning nothing of before). (Its lease runs out
    // again in 2 s: nothing renews it here.)
    x.register().await.expect("x registers again");
    x.write(Vec::new()).await.expect("x commits again");
    assert_eq!(owned_by(&db, "x"), 0);
}

/// A request's status, sent with `headers` as given.
async fn status_with(addr: SocketAddr, method: &str, path: &str, headers: &str) -> u16 {
    status_of(addr, method, path, headers, "{}").await
}

/// A request's status, sent with `headers` as given and `body`.
async fn status_of(addr: SocketAddr, method: &str, path: &str, headers: &str, body: &str) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).await.unwrap();
    let reply = String::from_utf8_lossy(&reply);
    reply.split(' ').nth(1).unwrap().parse().unwrap()
}

/// A client naming another address in the nodes' headers, without the nodes' key (kept in
/// the database, never sent), is counted by its own: on both stores.
#[tokio::test]
async fn a_forged_forward_is_counted_by_the_client_s_own_address() {
    let server = crate::common::start_on(database("nodes-forged"), 5, |c| {
        c.limits.games_per_ip = 2;
    })
    .await;
    for n in 0..3 {
        let forged = format!(
            "x-salpakan-node-key: {}\r\nx-salpakan-client: 10.0.0.{n}\r\n",
            "0".repeat(64)
        );
        let status = status_with(server.addr, "POST", "/api/games", &forged).await;
        assert_eq!(status, if n < 2 { 201 } else { 429 }, "game {n}");
    }
    server.stop().await;
}

/// One client's unfinished games are counted at every node: past the limit at one node, it
/// is refused at another.
#[tokio::test]
#[ignore = "several nodes on PostgreSQL: scripts/test-postgres runs it alone"]
async fn nodes_one_address_s_unfinished_games_count_at_every_node() {
    assert!(on_postgres(), "needs SALPAKAN_TEST_POSTGRES");
    let db = database("nodes-quota");
    let (a, b) = (limited(&db, "a", "2", "100"), limited(&db, "b", "2", "100"));
    for (node, expected) in [(&a, 201), (&b, 201), (&a, 429), (&b, 429)] {
        let status = status_with(node.addr, "POST", "/api/games", "").await;
        assert_eq!(status, expected, "at {}", node.addr);
    }
}

/// Node `name` on `db` with the limits of unfinished games per address and of games and
/// players an hour given.
fn limited(db: &Path, name: &str, games: &str, per_hour: &str) -> Node {
    spawn_node(
        db,
        name,
        &[
            "--games-per-ip",
            games,
            "--games-per-hour",
            per_hour,
            "--players-per-hour",
            per_hour,
        ],
    )
}

/// One client's games and players an hour are counted at every node.
#[tokio::test]
#[ignore = "several nodes on PostgreSQL: scripts/test-postgres runs it alone"]
async fn nodes_one_address_s_creations_an_hour_count_at_every_node() {
    assert!(on_postgres(), "needs SALPAKAN_TEST_POSTGRES");
    let db = database("nodes-hourly");
    let (a, b) = (limited(&db, "a", "100", "3"), limited(&db, "b", "100", "3"));
    for (node, expected) in [(&a, 201), (&b, 201), (&a, 201), (&b, 429), (&a, 429)] {
        let status = status_with(node.addr, "POST", "/api/games", "").await;
        assert_eq!(status, expected, "a game at {}", node.addr);
    }
    for (i, (node, expected)) in [(&a, 201), (&b, 201), (&b, 201), (&a, 429)]
        .iter()
        .enumerate()
    {
        let body = format!(r#"{{"name":"hourly{i}"}}"#);
        let status = status_of(node.addr, "POST", "/api/players", "", &body).await;
        assert_eq!(status, *expected, "player {i} at {}", node.addr);
    }
}

/// A socket a node forwards counts against its client's sockets at that node: a client that
/// holds its share there cannot open more by asking for another node's games.
#[tokio::test]
#[ignore = "several nodes on PostgreSQL: scripts/test-postgres runs it alone"]
async fn nodes_a_forwarded_socket_counts_at_the_node_it_reached() {
    use salpakan_server::client::Socket;
    assert!(on_postgres(), "needs SALPAKAN_TEST_POSTGRES");
    let db = database("nodes-forwarded-slots");
    let limits = ["--connections-per-ip", "2"];
    let (a, b) = (spawn_node(&db, "a", &limits), spawn_node(&db, "b", &limits));
    let game_at = async |node: &Node| {
        let (status, text) =
            salpakan_server::client::request(node.addr, "POST", "/api/games", "{}")
                .await
                .unwrap();
        assert_eq!(status, 201, "{text}");
        serde_json::from_str::<serde_json::Value>(&text).unwrap()["game"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let (at_a, at_b) = (game_at(&a).await, game_at(&b).await);
    // The client's two spectator sockets at b, for b's own game.
    let _held = [
        Socket::connect(b.addr, &at_b, None)
            .await
            .expect("the first at b"),
        Socket::connect(b.addr, &at_b, None)
            .await
            .expect("the second at b"),
    ];
    // A third at b, for a's game (forwarded to a, where the client holds none): refused at b.
    let refused = Socket::connect(b.addr, &at_a, None)
        .await
        .err()
        .expect("b counts the forwarded socket");
    assert_eq!(
        refused.body().map(|body| body.error.word()),
        Some("too-many-connections")
    );
    // At a itself the client holds none: served.
    let _at_a = Socket::connect(a.addr, &at_a, None).await.expect("a's own");
}

/// A socket a node forwards to a paused owner is closed (1012) once the owner's lease lapses,
/// so that its client connects again, to the new owner, without waiting for the paused node.
#[tokio::test]
#[ignore = "several nodes on PostgreSQL: scripts/test-postgres runs it alone"]
async fn nodes_a_paused_owner_s_forwarded_sockets_close_when_its_lease_lapses() {
    use salpakan_server::client::{Frame, Socket};
    assert!(on_postgres(), "needs SALPAKAN_TEST_POSTGRES");
    let db = database("nodes-paused-owner");
    let lease = ["--lease-secs", "2"];
    let (a, c) = (spawn_node(&db, "a", &lease), spawn_node(&db, "c", &lease));
    let (status, text) = salpakan_server::client::request(c.addr, "POST", "/api/games", "{}")
        .await
        .unwrap();
    assert_eq!(status, 201, "{text}");
    let id = serde_json::from_str::<serde_json::Value>(&text).unwrap()["game"]
        .as_str()
        .unwrap()
        .to_owned();
    // A spectator of c's game, reached at a: a pipes it to c.
    let mut watcher = Socket::connect(a.addr, &id, None)
        .await
        .expect("a forwards it");
    assert!(
        matches!(watcher.next().await, Some(Frame::Text(_))),
        "the state"
    );
    signal(&c, "-STOP");
    let paused = std::time::Instant::now();
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match watcher.next().await {
                Some(Frame::Close(code)) => return Some(code),
                None => return None,
                Some(_) => {}
            }
        }
    })
    .await;
    let took = paused.elapsed();
    signal(&c, "-CONT");
    assert_eq!(closed, Ok(Some(1012)), "closed with 1012 after {took:?}");
    assert!(
        took < Duration::from_secs(2 + 3),
        "closed {took:?} after the pause"
    );
}

/// The next text frame of type `t` on `socket` (within 20 s), reading past the others.
async fn frame_of(socket: &mut salpakan_server::client::Socket, t: &str) -> serde_json::Value {
    use salpakan_server::client::Frame;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        match tokio::time::timeout(left, socket.next()).await {
            Ok(Some(Frame::Text(text))) => {
                let frame: serde_json::Value = serde_json::from_str(&text).unwrap();
                if frame["t"] == t {
                    return frame;
                }
            }
            other => panic!("no {t} frame: {other:?}"),
        }
    }
}

/// Polls `GET /api/live` at `addr` until game `id` is listed there (within 20 s).
async fn listed_at(addr: SocketAddr, id: &str) -> serde_json::Value {
    for _ in 0..200 {
        if let Ok((200, text)) =
            salpakan_server::client::request(addr, "GET", "/api/live", "").await
        {
            let reply: serde_json::Value = serde_json::from_str(&text).unwrap();
            if let Some(entry) = reply["games"]
                .as_array()
                .and_then(|g| g.iter().find(|e| e["game"] == id))
            {
                return entry.clone();
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("game {id} never listed at {addr}");
}

/// A game owned by c, its seats reached at a and b and its spectators at c and a: its chat
/// reaches every socket whichever node it reached, the live list of a and b shows it, and
/// after c is killed (SIGKILL) the lines already heard are there for the sockets that
/// reconnect, the game goes on elsewhere, and it is listed again; the same once its next
/// owner is paused (SIGSTOP) past its lease.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "several nodes on PostgreSQL: scripts/test-postgres runs it alone"]
async fn nodes_chat_and_the_live_list_span_the_nodes_and_outlive_a_killed_owner() {
    use salpakan::Side;
    use salpakan_server::client::{Socket, request};
    use serde_json::{Value, json};
    assert!(on_postgres(), "needs SALPAKAN_TEST_POSTGRES");
    let db = database("nodes-chat");
    let mut nodes = three(&db, 2);
    let (a, b, c) = (nodes[0].addr, nodes[1].addr, nodes[2].addr);
    let create = json!({"side": "white", "first": "white"}).to_string();
    let (status, text) = request(c, "POST", "/api/games", &create).await.unwrap();
    assert_eq!(status, 201, "{text}");
    let created: Value = serde_json::from_str(&text).unwrap();
    let id = created["game"].as_str().unwrap().to_owned();
    let join = json!({"invite": created["invite"]}).to_string();
    let (status, text) = request(a, "POST", &format!("/api/games/{id}/join"), &join)
        .await
        .unwrap();
    assert_eq!(status, 200, "{text}");
    let joined: Value = serde_json::from_str(&text).unwrap();
    let tokens = [
        created["token"].as_str().unwrap().to_owned(),
        joined["token"].as_str().unwrap().to_owned(),
    ];
    let (status, text) = request(b, "POST", "/api/players", r#"{"name":"kibitz"}"#)
        .await
        .unwrap();
    assert_eq!(status, 201, "{text}");
    let key = serde_json::from_str::<Value>(&text).unwrap()["key"].clone();
    // White at a, Black at b (both forwarded to c), spectators at c and at a.
    let mut white = Socket::connect(a, &id, Some(&tokens[0])).await.unwrap();
    let mut black = Socket::connect(b, &id, Some(&tokens[1])).await.unwrap();
    let mut near = Socket::connect(c, &id, None).await.unwrap();
    let mut far = Socket::connect(a, &id, None).await.unwrap();
    for s in [&mut white, &mut black, &mut near, &mut far] {
        frame_of(s, "state").await;
    }
    let game = crate::common::random_game(90, 0);
    for (seat, side) in [(&mut white, Side::White), (&mut black, Side::Black)] {
        let cells = crate::common::cells(game.setup(side).unwrap());
        seat.send(&json!({"t": "setup", "cells": cells}).to_string())
            .await
            .unwrap();
    }
    frame_of(&mut white, "start").await;
    frame_of(&mut black, "start").await;
    // The players' room across a, b and c; the spectators' room across c and a.
    white
        .send(&json!({"t": "say", "phrase": "good-luck"}).to_string())
        .await
        .unwrap();
    assert_eq!(frame_of(&mut black, "chat").await["phrase"], "good-luck");
    near.send(&json!({"t": "auth", "key": key}).to_string())
        .await
        .unwrap();
    frame_of(&mut near, "chat-settings").await;
    near.send(&json!({"t": "say", "text": "a close one"}).to_string())
        .await
        .unwrap();
    assert_eq!(frame_of(&mut far, "chat").await["text"], "a close one");
    // The live list of every node shows c's game.
    for at in [a, b, c] {
        assert_eq!(listed_at(at, &id).await["ply"], 0);
    }
    // c is killed: its game is taken over, and what was said is kept.
    let killed = nodes.pop().unwrap();
    signal(&killed, "-KILL");
    drop(killed);
    tokio::time::sleep(Duration::from_secs(4)).await;
    let mut white = Socket::connect(a, &id, Some(&tokens[0])).await.unwrap();
    frame_of(&mut white, "state").await;
    let kept = frame_of(&mut white, "chat").await;
    assert_eq!(
        (kept["n"].clone(), kept["phrase"].clone()),
        (json!(1), json!("good-luck"))
    );
    let mut far = Socket::connect(b, &id, None).await.unwrap();
    frame_of(&mut far, "state").await;
    assert_eq!(frame_of(&mut far, "chat").await["text"], "a close one");
    let history = game.legal_moves();
    let mv = history.first().unwrap().to_string();
    white
        .send(&json!({"t": "move", "move": mv, "ply": 0}).to_string())
        .await
        .unwrap();
    frame_of(&mut white, "ply").await;
    for at in [a, b] {
        let entry = listed_at(at, &id).await;
        assert!(entry["ply"].as_u64().unwrap() <= 1, "{entry}");
    }
    let now_listed = async {
        for _ in 0..100 {
            if listed_at(a, &id).await["ply"] == 1 {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        false
    };
    assert!(
        now_listed.await,
        "the new owner lists the game as it goes on"
    );
    // Its new owner paused (SIGSTOP) past its lease: the other node takes the game, and
    // the lines and the listing are there again.
    let owner = query_int(
        &db,
        &format!("SELECT CASE WHEN node = 'a' THEN 0 ELSE 1 END FROM owners WHERE game = '{id}'"),
    ) as usize;
    let other = [a, b][1 - owner];
    signal(&nodes[owner], "-STOP");
    tokio::time::sleep(Duration::from_secs(4)).await;
    let mut black = Socket::connect(other, &id, Some(&tokens[1])).await.unwrap();
    frame_of(&mut black, "state").await;
    assert_eq!(frame_of(&mut black, "chat").await["phrase"], "good-luck");
    black
        .send(&json!({"t": "say", "phrase": "your-move"}).to_string())
        .await
        .unwrap();
    assert_eq!(frame_of(&mut black, "chat").await["n"], 2);
    assert_eq!(listed_at(other, &id).await["ply"], 1);
    signal(&nodes[owner], "-CONT");
}

/// A tournament on three nodes: every route, asked of any node, is served by the node that
/// owns the lobby (one owner); when that node is killed, the tournament moves with the lobby
/// to another node, its game in play finishes there, and its next round is paired once, by
/// the new owner alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "several nodes on PostgreSQL: scripts/test-postgres runs it alone"]
async fn nodes_a_tournament_keeps_one_owner_and_moves_with_it() {
    use crate::common::{Server, as_player, call, eventually, random_game, register};
    use serde_json::{Value, json};
    if !on_postgres() {
        return;
    }
    let db = database("nodes-tournament");
    let mut nodes = three(&db, 2);
    let at = |i: usize| Server {
        running: None,
        addr: nodes[i].addr,
    };
    let [a, b, c] = [at(0), at(1), at(2)];
    let mut keys = Vec::new();
    for (i, name) in ["nadia", "nilo", "nora", "noel"].iter().enumerate() {
        keys.push(register([&a, &b, &c][i % 3], name).await);
    }
    // Made through b, joined through c and a, started through c: one tournament.
    let (status, made) = crate::tournaments::create(
        &b,
        &keys[0],
        json!({"name": "Three nodes", "kind": "round-robin", "round_ms": 120_000}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let tid = made["id"].as_str().unwrap().to_owned();
    for (i, key) in keys.iter().enumerate() {
        let via = [&c, &a][i % 2];
        let path = format!("/api/tournaments/{tid}/register");
        assert_eq!(
            as_player(via, Some(key), "POST", &path, &Value::Null)
                .await
                .0,
            200
        );
    }
    let path = format!("/api/tournaments/{tid}/start");
    assert_eq!(
        as_player(&c, Some(&keys[0]), "POST", &path, &Value::Null)
            .await
            .0,
        200
    );
    let get = async |via: &Server| {
        let (status, t) = as_player(
            via,
            None,
            "GET",
            &format!("/api/tournaments/{tid}"),
            &Value::Null,
        )
        .await;
        assert_eq!(status, 200, "{t}");
        t
    };
    let seen = [get(&a).await, get(&b).await, get(&c).await];
    assert_eq!(seen[0], seen[1], "one tournament, whichever node is asked");
    assert_eq!(seen[1], seen[2]);
    let owner = crate::common::query_text(&db, "SELECT node FROM owners WHERE game = '~lobby'")
        .expect("the lobby's owner");
    // Each player takes its seat (through b), and both games start; the first ends.
    let boards = seen[0]["rounds"][0]["boards"].as_array().unwrap().clone();
    let mut tables = Vec::new();
    for (n, board) in boards.iter().enumerate() {
        let game = board["game"].as_str().unwrap().to_owned();
        let mut tokens = Vec::new();
        for side in ["white", "black"] {
            let player = board[side].as_u64().unwrap() as usize;
            let seat_path = format!("/api/games/{game}/seat");
            let (status, seat) = call(&b, Some(&keys[player]), "POST", &seat_path).await;
            assert_eq!(status, 200, "{seat}");
            tokens.push(seat["token"].as_str().unwrap().to_owned());
        }
        let dealt = random_game(90 + n as u64 * 2, 0);
        let seats = crate::tournaments::set_up(&b, &game, [&tokens[0], &tokens[1]], &dealt).await;
        tables.push((game, tokens, seats));
    }
    tables[0].2[1].send(&json!({"t": "resign"})).await;
    tables[0].2[0].until("over").await;
    let owner_index = ["a", "b", "c"].iter().position(|n| *n == owner).unwrap();
    let survivor = at((owner_index + 1) % 3);
    eventually(
        Duration::from_secs(10),
        "the first game counts",
        async || get(&survivor).await["rounds"][0]["boards"][0]["result"]["result"] == "white-won",
    )
    .await;

    // The owner is killed: the tournament moves with the lobby.
    let (game, tokens, seats) = tables.pop().unwrap();
    drop((seats, tables));
    let killed = nodes.remove(owner_index);
    signal(&killed, "-KILL");
    drop(killed);
    eventually(
        Duration::from_secs(20),
        "another node serves the tournament",
        async || {
            let (status, _) = as_player(
                &survivor,
                None,
                "GET",
                &format!("/api/tournaments/{tid}"),
                &Value::Null,
            )
            .await;
            status == 200
        },
    )
    .await;
    let moved_to = crate::common::query_text(&db, "SELECT node FROM owners WHERE game = '~lobby'")
        .expect("the lobby's owner");
    assert_ne!(moved_to, owner, "the lobby and its tournaments moved");
    // The game in play finishes on its new owner, and round 2 is paired once.
    let mut back = [
        survivor.seat(&game, Some(&tokens[0])).await,
        survivor.seat(&game, Some(&tokens[1])).await,
    ];
    // Both attached before the resignation (else Black's state already shows the end).
    back[0].until("state").await;
    back[1].until("state").await;
    back[0].send(&json!({"t": "resign"})).await;
    back[1].until("over").await;
    eventually(Duration::from_secs(20), "round 2 paired", async || {
        let t = get(&survivor).await;
        t["rounds"][1]["boards"]
            .as_array()
            .is_some_and(|b| b.iter().all(|b| b["game"].is_string()))
    })
    .await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let t = get(&survivor).await;
    let paired = t["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["action"] == "paired")
        .count();
    assert_eq!(paired, 2, "each round paired once: {}", t["log"]);
    assert_eq!(t["rounds"][0]["boards"][1]["result"]["result"], "black-won");
    let games = query_int(&db, "SELECT count(*) FROM tournament_games");
    let made = crate::common::query_text(
        &db,
        "SELECT string_agg(white_name || '-' || black_name || '@' || created_ms, ' ') FROM games",
    );
    assert_eq!(
        games, 4,
        "two games a round, none made twice: {made:?} {}",
        t["rounds"]
    );
}

/// A token minted at one node opens the player's routes at another, and once revoked at the
/// first it opens nothing at the other (told through the database's notice).
#[tokio::test]
#[ignore = "several nodes on PostgreSQL: scripts/test-postgres runs it alone"]
async fn nodes_a_token_minted_or_revoked_at_one_node_counts_at_every_node() {
    use salpakan_server::client::request_as;
    assert!(on_postgres(), "needs SALPAKAN_TEST_POSTGRES");
    let db = database("nodes-tokens");
    let (a, b) = (spawn_node(&db, "a", &[]), spawn_node(&db, "b", &[]));
    let call = async |node: &Node, method: &str, path: &str, body: &str, key: &str| {
        let (status, text) = request_as(None, node.addr, method, path, body, Some(key))
            .await
            .unwrap();
        let json = serde_json::from_str(&text).unwrap_or(serde_json::Value::Null);
        (status, json)
    };
    let (status, text) = salpakan_server::client::request(
        a.addr,
        "POST",
        "/api/players",
        r#"{"name": "traveller"}"#,
    )
    .await
    .unwrap();
    assert_eq!(status, 201, "{text}");
    let made: serde_json::Value = serde_json::from_str(&text).unwrap();
    let key = made["key"].as_str().unwrap();
    let (status, minted) = call(&a, "POST", "/api/tokens", r#"{"scopes": ["read"]}"#, key).await;
    assert_eq!(status, 201, "{minted}");
    let token = minted["token"].as_str().unwrap();
    let id = minted["id"].as_str().unwrap();
    let mut opened = false;
    for _ in 0..100 {
        if call(&b, "GET", "/api/sharing", "", token).await.0 == 200 {
            opened = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(opened, "b learns the token");
    let revoke = format!("/api/tokens/{id}");
    assert_eq!(call(&a, "DELETE", &revoke, "", key).await.0, 204);
    let mut closed = false;
    for _ in 0..100 {
        if call(&b, "GET", "/api/sharing", "", token).await.0 == 401 {
            closed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(closed, "b forgets the revoked token");
}

/// A client that opens a socket through a node that forwards it, and never reads, is let go
/// there as soon as the node's write to it stalls: it holds no connection at that node for
/// long after (the finding: 20 s past the owner's close).
#[tokio::test]
#[ignore = "several nodes on PostgreSQL: scripts/test-postgres runs it alone"]
async fn nodes_a_forwarded_socket_that_never_reads_is_let_go_at_the_forwarding_node() {
    use salpakan_server::client::Socket;
    assert!(on_postgres(), "needs SALPAKAN_TEST_POSTGRES");
    let (id, db) = crate::budgets::long_game("nodes-deaf", 63).await;
    let a = spawn_node(&db, "a", &["--messages-per-window", "100000"]);
    // b serves one connection at a time: the deaf client's, until b lets it go.
    let b = spawn_node(
        &db,
        "b",
        &["--messages-per-window", "100000", "--max-connections", "1"],
    );
    // a takes the game (asked there first); b forwards its sockets to a.
    let summary = format!("/api/games/{id}");
    let mut tries = 0;
    while status_with(a.addr, "GET", &summary, "").await != 200 {
        tries += 1;
        assert!(tries < 100, "a takes the game");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let mut deaf = Socket::connect(b.addr, &id, None)
        .await
        .expect("the deaf client's socket through b");
    // It asks for the whole history (about 300 KB) again and again and reads none of it.
    for _ in 0..40 {
        if deaf.send(r#"{"t":"hello","v":0}"#).await.is_err() {
            break;
        }
    }
    let sent = std::time::Instant::now();
    // b's write stalls within its write timeout (10 s); then b lets the connection go at
    // once, and serves another.
    loop {
        let health = salpakan_server::client::request(b.addr, "GET", "/api/health", "");
        if matches!(health.await, Ok((200, _))) {
            break;
        }
        assert!(
            sent.elapsed() < Duration::from_secs(14),
            "b holds the deaf client's connection past its stalled write"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    drop(deaf);
}
