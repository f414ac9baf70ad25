//! Clocks and presence: only the server reads the time. A loss on time and a loss by
//! abandonment are the server's decisions; nothing a client sends charges anyone's time.
//! (The room's own tests step the clock through exact instants; these run it for real,
//! with short clocks, and assert what cannot depend on the machine's speed.)

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{Table, random_game, scratch, start, start_on};

#[tokio::test]
async fn the_server_flags_the_side_whose_time_runs_out_and_no_client_charges_time() {
    let server = start(20).await;
    let game = random_game(8, 4);
    let first = game.first_mover();
    let clock = json!({"initial_ms": 1500, "increment_ms": 200});
    let mut table = Table::open(&server, json!({"first": first.word(), "clock": clock})).await;
    let [start_event, _] = table.set_up(&game).await;
    assert_eq!(
        start_event["clock"],
        json!({"white_ms": 1500, "black_ms": 1500, "running": first.word()})
    );
    // The mover claims times of its own: they are not read.
    let message = json!({
        "t": "move", "move": game.history()[0].mv.to_string(), "ply": 0,
        "clock": {"white_ms": 0, "black_ms": 0}, "white_ms": 1, "black_ms": 1,
    });
    let [ply, _] = table.act(first, message, 1).await;
    let clock = &ply["clock"];
    let mover_ms = clock[format!("{}_ms", first.word())].as_u64().unwrap();
    assert!(mover_ms > 200 && mover_ms <= 1700, "{clock}");
    assert_eq!(
        clock[format!("{}_ms", first.other().word())],
        1500,
        "the other side's time did not run"
    );
    assert_eq!(clock["running"], first.other().word());
    // The other side does not move: the server decides.
    let over = table.seats[0].until("over").await;
    assert_eq!(
        over["status"],
        json!({"state": "won", "winner": first.word(), "reason": "time"})
    );
    assert!(
        over["record"]
            .as_str()
            .unwrap()
            .contains(&format!("{}:time", first.word()))
    );
    let (_, summary) = server
        .json("GET", &format!("/api/games/{}", table.id), &Value::Null)
        .await;
    assert_eq!(summary["clock"][format!("{}_ms", first.other().word())], 0);
    assert_eq!(summary["clock"]["running"], Value::Null);
    let late = json!({"t": "move", "move": game.history()[1].mv.to_string(), "ply": 1});
    let loser = &mut table.seats[first.other().index()];
    loser.send(&late).await;
    assert_eq!(loser.until("error").await["code"], "game-over");
    server.stop().await;
}

#[tokio::test]
async fn a_seat_away_past_the_grace_loses_while_its_opponent_waits() {
    let server = start_on(scratch("away").join("games.db"), 21, |c| {
        c.limits.abandon_grace = Duration::from_millis(300);
    })
    .await;
    let game = random_game(8, 4);
    let mut table = Table::open(&server, json!({"first": "white"})).await;
    table.set_up(&game).await;
    let [mut white, black] = table.seats;
    black.socket.close().await;
    let presence = white.until("presence").await;
    assert_eq!(
        presence,
        json!({"t": "presence", "side": "black", "connected": false})
    );
    let over = white.until("over").await;
    assert_eq!(
        over["status"],
        json!({"state": "won", "winner": "white", "reason": "abandoned"})
    );
    server.stop().await;
}
