//! A crash loses nothing a client saw: the real binary is killed with SIGKILL in the middle
//! of a game, started again on the same database, and both seats finish the game.

use std::collections::BTreeMap;
use std::process::{Child, Command};

use salpakan::{Game, Side};
use serde_json::{Value, json};

use crate::common::{Server, Table, database, random_game, spawn_binary};

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
    table.act(Side::White, json!({"t": "resign"}), 1).await;
    for seat in &table.seats {
        note_plies(&mut seen, &seat.transcript);
    }
    let (status, record) = server
        .http("GET", &format!("/api/games/{}/record", table.id), "")
        .await;
    assert_eq!(status, 200);
    let finished = Game::from_record(&record).unwrap();
    assert_eq!(finished.history().len(), 40);
    for (ply, mv) in &seen {
        assert_eq!(
            &finished.history()[*ply as usize - 1].mv.to_string(),
            mv,
            "ply {ply}"
        );
    }
    // SIGTERM: the server stops and exits 0.
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    assert!(child.wait().unwrap().success());
}
