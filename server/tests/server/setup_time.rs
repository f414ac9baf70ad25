//! Setup time and abort on the real stack: a side that has no formation in within the
//! game's `setup_ms` aborts it; a seat may abort until the first ply; an aborted game reveals
//! no formation to anyone, ever. (The room's own tests step through exact instants: aborted
//! at the setup time and not a millisecond before; these use short setup times for real.)

use std::time::Duration;

use salpakan::Side;
use serde_json::{Value, json};

use crate::common::{Table, cells, database, random_game, start, start_on};

/// What an aborted game shows of itself: its summary says so, its record is 404, and no
/// frame anyone received carries a formation or a record.
async fn assert_aborted(server: &crate::common::Server, table: &Table, frames: &[String]) {
    let (status, summary) = server
        .json("GET", &format!("/api/games/{}", table.id), &Value::Null)
        .await;
    assert_eq!(status, 200);
    assert_eq!(summary["phase"], "aborted");
    let (status, reply) = server
        .json(
            "GET",
            &format!("/api/games/{}/record", table.id),
            &Value::Null,
        )
        .await;
    assert_eq!(status, 404, "{reply}");
    for frame in frames {
        assert!(!frame.contains("\"record\""), "{frame}");
        assert!(!frame.contains("\"over\""), "{frame}");
    }
}

#[tokio::test]
async fn setup_ms_is_checked_and_shown() {
    let server = start(91).await;
    for bad in [json!(9_999), json!(3_600_001), json!(-1), json!("3m")] {
        let (status, reply) = server
            .json("POST", "/api/games", &json!({"setup_ms": bad}))
            .await;
        assert_eq!(status, 400, "{bad}: {reply}");
        assert_eq!(reply["error"], "bad-message", "{reply}");
    }
    let (status, created) = server
        .json("POST", "/api/games", &json!({"setup_ms": 60_000}))
        .await;
    assert_eq!(status, 201);
    let id = created["game"].as_str().unwrap();
    let (_, summary) = server.summary(id).await;
    assert_eq!(summary["setup_ms"], 60_000);
    // One seat taken: the setup time does not run yet.
    let mut seat = server.seat(id, created["token"].as_str()).await;
    let state = seat.until("state").await;
    assert_eq!(state["setup_ms"], 60_000);
    assert_eq!(state["setup_left_ms"], Value::Null);
    // The default, once both seats are taken.
    let table = Table::open(&server, json!({})).await;
    assert!(table.seats[1].transcript[0].contains("\"setup_left_ms\":180000"));
    server.stop().await;
}

#[tokio::test]
async fn a_side_that_misses_its_setup_time_aborts_the_game_and_nothing_is_revealed() {
    let db = database("setup-time");
    let server = start_on(db.clone(), 92, |c| c.limits.min_setup = Duration::ZERO).await;
    let game = random_game(3, 0);
    let mut table = Table::open(&server, json!({"setup_ms": 600})).await;
    let mut spectator = server.seat(&table.id, None).await;
    spectator.until("state").await;
    let white = cells(game.setup(Side::White).unwrap());
    table
        .act(Side::White, json!({"t": "setup", "cells": white}), 1)
        .await;
    let [w, b] = table.both(2).await;
    let aborted = json!({"t": "aborted", "v": 2, "reason": "setup-time", "side": "black"});
    assert_eq!(w, aborted);
    assert_eq!(b, aborted);
    assert_eq!(spectator.until_v(2).await, aborted);
    // Black's formation, too late.
    let black = cells(game.setup(Side::Black).unwrap());
    table.seats[1]
        .send(&json!({"t": "setup", "cells": black}))
        .await;
    let refused = table.seats[1].until("error").await;
    assert_eq!(refused["code"], "game-over");
    let mut frames: Vec<String> = table
        .seats
        .iter()
        .flat_map(|s| s.transcript.clone())
        .collect();
    frames.extend(spectator.transcript.clone());
    assert_aborted(&server, &table, &frames).await;
    // After a restart too: it is not restored as unfinished, and still shows nothing.
    drop(table.seats);
    let table = Table {
        seats: [
            server.seat(&table.id, None).await,
            server.seat(&table.id, None).await,
        ],
        ..table
    };
    server.stop().await;
    let server = start_on(db, 92, |_| {}).await;
    assert_aborted(&server, &table, &[]).await;
    let mut late = server.seat(&table.id, Some(&table.tokens[0])).await;
    let state = late.until("state").await;
    assert_eq!(state["phase"], "aborted");
    assert_eq!(state["setup_left_ms"], Value::Null);
    server.stop().await;
}

#[tokio::test]
async fn a_seat_may_abort_until_the_first_ply_and_its_slot_is_freed() {
    let server = start_on(database("abort"), 93, |c| c.limits.games_per_ip = 1).await;
    let game = random_game(4, 2);
    // Against a bot: the creator aborts during the setup; its one game slot is free again.
    let (status, created) = server
        .json("POST", "/api/games", &json!({"opponent": "random"}))
        .await;
    assert_eq!(status, 201);
    let id = created["game"].as_str().unwrap().to_owned();
    let mut seat = server.seat(&id, created["token"].as_str()).await;
    let state = seat.until("state").await;
    assert!(
        state["setup_left_ms"].as_u64().unwrap() > 170_000,
        "{state}"
    );
    seat.send(&json!({"t": "abort"})).await;
    let aborted = seat.until("aborted").await;
    assert_eq!(aborted["reason"], "abort");
    assert_eq!(aborted["side"], created["side"]);
    let (status, reply) = server
        .json("GET", &format!("/api/games/{id}/record"), &Value::Null)
        .await;
    assert_eq!(status, 404, "{reply}");
    drop(seat);
    // Two people, both formations in: either may abort until the first ply, not after.
    let first = game.first_mover();
    let mut table = Table::open(&server, json!({"first": first.word()})).await;
    table.set_up(&game).await;
    table.replay(&game, 0, 1).await;
    table.seats[first.index()]
        .send(&json!({"t": "abort"}))
        .await;
    let refused = table.seats[first.index()].until("error").await;
    assert_eq!(refused["code"], "wrong-phase", "{refused}");
    server.stop().await;
}
