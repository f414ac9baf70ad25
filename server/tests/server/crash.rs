//! A crash loses nothing a client saw: the real binary is killed with SIGKILL in the middle
//! of a game, started again on the same database, and both seats finish the game.

use std::collections::BTreeMap;
use std::process::{Child, Command};
use std::time::Duration;

use salpakan::{Game, Side};
use serde_json::{Value, json};

use crate::common::{Server, Table, database, eventually, random_game, spawn_binary};

fn spawn(db: &std::path::Path) -> (Child, Server) {
    spawn_binary(
        Command::new(env!("CARGO_BIN_EXE_salpakan-server"))
            .args(["--addr", "127.0.0.1:0", "--db"])
            .arg(db),
    )
}

fn note_plies(seen: &mut BTreeMap<u64, String>, transcript: &[String]) {
    for frame in transcript {
        let value: Value = serde_json::from_str(frame).unwrap();
        if value["t"] == "ply" {
            seen.insert(
                value["ply"].as_u64().unwrap(),
                value["move"].as_str().unwrap().to_owned(),
            );
        }
    }
}

/// White resigns; the game's record then holds `plies` plies, among them every ply any
/// client saw (`seen`, with what the seats read since).
async fn resign_and_check_record(
    server: &Server,
    table: &mut Table,
    mut seen: BTreeMap<u64, String>,
    plies: usize,
) {
    table.act(Side::White, json!({"t": "resign"}), 1).await;
    for seat in &table.seats {
        note_plies(&mut seen, &seat.transcript);
    }
    let (status, record) = server
        .http("GET", &format!("/api/games/{}/record", table.id), "")
        .await;
    assert_eq!(status, 200);
    let finished = Game::from_record(&record).unwrap();
    assert_eq!(finished.history().len(), plies);
    for (ply, mv) in &seen {
        assert_eq!(
            &finished.history()[*ply as usize - 1].mv.to_string(),
            mv,
            "ply {ply}"
        );
    }
}

#[tokio::test]
async fn killed_mid_game_the_server_restores_it_and_the_seats_finish() {
    let db = database("crash");
    let game = random_game(400, 60);
    let (mut child, server) = spawn(&db);
    let mut table = Table::open(&server, json!({"first": game.first_mover().word()})).await;
    table.set_up(&game).await;
    table.replay(&game, 0, 20).await;
    // One more move sent, and the server killed while it may be committing it.
    let side = if game.first_mover() == Side::White {
        0
    } else {
        1
    };
    let mv = game.history()[20].mv.to_string();
    table.seats[side]
        .send(&json!({"t": "move", "move": mv, "ply": 20}))
        .await;
    child.kill().unwrap();
    child.wait().unwrap();
    let mut seen = BTreeMap::new();
    for seat in &mut table.seats {
        while seat.recv().await.get("gone").is_none() {}
        note_plies(&mut seen, &seat.transcript);
    }
    assert!(seen.len() >= 20);

    let (mut child, server) = spawn(&db);
    let last_v = table.v;
    let tokens = table.tokens.clone();
    let mut table = Table {
        id: table.id.clone(),
        tokens: tokens.clone(),
        seats: [
            server.seat(&table.id, Some(&tokens[0])).await,
            server.seat(&table.id, Some(&tokens[1])).await,
        ],
        v: last_v,
    };
    for seat in &mut table.seats {
        let state = seat.until("state").await;
        let v = state["v"].as_u64().unwrap();
        assert!(v >= last_v, "nothing a client saw is lost");
        if v > last_v {
            seat.send(&json!({"t": "hello", "v": last_v})).await;
            seat.until_v(v).await;
        }
        table.v = v;
    }
    let (_, summary) = server
        .json("GET", &format!("/api/games/{}", table.id), &Value::Null)
        .await;
    let ply = summary["ply"].as_u64().unwrap();
    assert!(
        ply == 20 || ply == 21,
        "the restored game is at ply 20 or 21, not {ply}"
    );
    table.replay(&game, ply as usize, 40).await;
    resign_and_check_record(&server, &mut table, seen, 40).await;
    // SIGTERM: the server stops and exits 0.
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    assert!(child.wait().unwrap().success());
}

/// `pg_ctl` of the test cluster with `action` (`SALPAKAN_TEST_POSTGRES_CTL`, the command
/// without its action: `scripts/test-postgres` sets it and runs the tests that use it alone,
/// after the suite); `None` when the suite has no cluster to control.
pub fn postgres_ctl(action: &str) -> Option<std::process::ExitStatus> {
    let ctl = std::env::var("SALPAKAN_TEST_POSTGRES_CTL").ok()?;
    let command = format!("{ctl} -w {action} > /dev/null");
    Some(Command::new("sh").args(["-c", &command]).status().unwrap())
}

/// A server (killed when dropped) on a new database `name` of the cluster the suite controls
/// (`SALPAKAN_TEST_POSTGRES_CTL`); `None` when there is none to control.
fn on_a_controlled_cluster(name: &str) -> Option<(crate::common::Killed, Server)> {
    std::env::var("SALPAKAN_TEST_POSTGRES_CTL").ok()?;
    let (child, server) = spawn(&database(name));
    Some((crate::common::Killed(child), server))
}

/// PostgreSQL restarted mid-game (`scripts/test-postgres` runs this test alone): the
/// writes in flight fail, the game reloads (its sockets close with 1011), the seats
/// reconnect with their tokens, and the game ends with every ply any client saw.
#[tokio::test]
#[ignore = "restarts the test cluster: scripts/test-postgres runs it alone"]
async fn postgres_down_a_restart_mid_game_loses_nothing_a_client_saw() {
    let Some((_child, server)) = on_a_controlled_cluster("pg-restart") else {
        return;
    };
    let game = random_game(401, 60);
    let mut table = Table::open(&server, json!({"first": game.first_mover().word()})).await;
    table.set_up(&game).await;
    table.replay(&game, 0, 20).await;
    let restarted = postgres_ctl("-m fast restart").unwrap();
    assert!(restarted.success(), "the cluster restarts");
    let mut seen = BTreeMap::new();
    // The next moves, until one is committed: each refused write reloads the game.
    let mut ply = 20;
    let mut attempts = 0;
    while ply < 40 {
        attempts += 1;
        assert!(attempts < 40, "the service never resumed");
        let side = if (ply % 2 == 0) == (game.first_mover() == Side::White) {
            0
        } else {
            1
        };
        let mv = game.history()[ply].mv.to_string();
        table.seats[side]
            .send(&json!({"t": "move", "move": mv, "ply": ply}))
            .await;
        let frame = table.seats[side].recv().await;
        if frame["t"] == "ply" {
            ply += 1;
            table.v = frame["v"].as_u64().unwrap();
            // The other seat reads it too.
            table.seats[1 - side].until_v(table.v).await;
            continue;
        }
        // Closed (1011, the game reloading): both seats come back and read where it is.
        for seat in &table.seats {
            note_plies(&mut seen, &seat.transcript);
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        let tokens = table.tokens.clone();
        table.seats = [
            server.seat(&table.id, Some(&tokens[0])).await,
            server.seat(&table.id, Some(&tokens[1])).await,
        ];
        let state = table.seats[0].until("state").await;
        table.seats[1].until("state").await;
        ply = usize::try_from(state["ply"].as_u64().unwrap()).unwrap();
        table.v = state["v"].as_u64().unwrap();
        assert!(ply >= 20, "nothing a client saw is lost");
    }
    resign_and_check_record(&server, &mut table, seen, 40).await;
}

/// While PostgreSQL is down, `/api/ready` answers 503 (within its probe's 2 s and the second
/// its answer is kept), `/api/health` still 200; once it is back, 200 again and games are made.
#[tokio::test]
#[ignore = "stops the test cluster: scripts/test-postgres runs it alone"]
async fn postgres_down_readiness_follows_the_database() {
    let Some((_child, server)) = on_a_controlled_cluster("pg-ready") else {
        return;
    };
    let ready = || async { server.http("GET", "/api/ready", "").await.0 };
    assert_eq!(ready().await, 200);
    assert!(postgres_ctl("-m fast stop").unwrap().success());
    let (down, up) = (
        "still ready with the database down",
        "not ready with the database back",
    );
    eventually(Duration::from_secs(5), down, async || ready().await == 503).await;
    assert_eq!(server.http("GET", "/api/health", "").await.0, 200);
    assert!(postgres_ctl("start").unwrap().success());
    eventually(Duration::from_secs(10), up, async || ready().await == 200).await;
    let (status, _) = server.json("POST", "/api/games", &json!({})).await;
    assert_eq!(status, 201);
}
