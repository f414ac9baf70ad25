//! Reconnecting: a seat that drops its socket after any event and says `hello` with the last
//! version it has gets exactly what it missed; a move sent again is not played twice.

use std::collections::BTreeMap;

use salpakan::{Game, Side};
use serde_json::{Value, json};

use crate::common::{Server, Table, database, random_prefix, start, start_on};

/// White's events by version, and its final `state`, over `game` played through `server`;
/// with `drops`, White's socket is dropped around every ply.
async fn white_sees(server: &Server, game: &Game, drops: bool) -> (BTreeMap<u64, String>, Value) {
    let mut table = Table::open(server, json!({"first": game.first_mover().word()})).await;
    table.set_up(game).await;
    let mut seen = BTreeMap::new();
    let keep = |seen: &mut BTreeMap<u64, String>, frame: &str| {
        let value: Value = serde_json::from_str(frame).unwrap();
        if let (Some(v), Some(t)) = (value["v"].as_u64(), value["t"].as_str())
            && t != "state"
        {
            let earlier = seen.insert(v, frame.to_owned());
            assert!(
                earlier.is_none_or(|e| e == frame),
                "event {v} differs when sent again"
            );
        }
    };
    let mut side = game.first_mover();
    for (ply, report) in game.history().iter().enumerate() {
        let message = json!({"t": "move", "move": report.mv.to_string(), "ply": ply});
        let before = table.v;
        if !drops {
            table.act(side, message, 1).await;
        } else {
            if side == Side::White {
                table.seats[0].send(&message).await;
            }
            // Drop White's socket (it may or may not have read the ply), then the ply.
            let mut fresh = server.seat(&table.id, Some(&table.tokens[0])).await;
            std::mem::swap(&mut fresh, &mut table.seats[0]);
            for frame in &fresh.transcript {
                keep(&mut seen, frame);
            }
            fresh.socket.close().await;
            if side == Side::Black {
                table.seats[1].send(&message).await;
            }
            table.v += 1;
            table.seats[1].until_v(table.v).await;
            let white = &mut table.seats[0];
            white.until("state").await;
            if side == Side::White {
                // Sent again after the drop: answered with its event, not played twice.
                white.send(&message).await;
                white.until_v(table.v).await;
            }
            white.send(&json!({"t": "hello", "v": before})).await;
            white.until_v(table.v).await;
        }
        side = side.other();
    }
    for frame in &table.seats[0].transcript {
        keep(&mut seen, frame);
    }
    let mut last = server.seat(&table.id, Some(&table.tokens[0])).await;
    let state = last.until("state").await;
    let (_, summary) = server
        .json("GET", &format!("/api/games/{}", table.id), &Value::Null)
        .await;
    assert_eq!(
        summary["ply"],
        game.history().len(),
        "no ply was played twice"
    );
    (seen, state)
}

#[tokio::test]
async fn after_drops_around_every_ply_a_seat_has_exactly_what_it_had_without() {
    let game = random_prefix(300, 40);
    let calm = start(9).await;
    let (calm_events, calm_state) = white_sees(&calm, &game, false).await;
    calm.stop().await;
    // A seat that drops around every ply reconnects more often than a person would: its
    // budget of reconnects is raised for the test.
    let stormy = start_on(database("stormy"), 9, |c| {
        c.limits.seat_connects_per_minute = 1_000;
    })
    .await;
    let (stormy_events, stormy_state) = white_sees(&stormy, &game, true).await;
    stormy.stop().await;
    assert_eq!(
        calm_events.len() as u64,
        *calm_events.keys().last().unwrap()
    );
    assert_eq!(stormy_events, calm_events);
    assert_eq!(stormy_state, calm_state);
}
