//! The rematch on the real stack: both seats ask; a new game with the same settings, each
//! person on the other colour, the same colour first; each seat hears only its own new token;
//! a bot accepts at once; a seat that asks again gets a fresh token for its seat until that
//! seat is used, and never after.

use salpakan::Side;
use serde_json::json;

use crate::common::{Table, random_game, start};

#[tokio::test]
async fn both_seats_ask_and_each_gets_only_its_own_seat_in_the_other_colour() {
    let server = start(61).await;
    let game = random_game(21, 2);
    let clock = json!({"initial_ms": 120000, "increment_ms": 1000});
    let body = json!({"first": "black", "clock": clock, "setup_ms": 60000});
    let mut table = Table::open(&server, body).await;
    let mut spectator = server.seat(&table.id, None).await;
    spectator.until("state").await;
    table.set_up(&game).await;
    table.act(Side::White, json!({"t": "resign"}), 1).await;
    let [w, b] = table.act(Side::White, json!({"t": "rematch"}), 1).await;
    assert_eq!(w, b);
    assert_eq!(w["t"], "rematch-offer");
    assert_eq!(w["side"], "white");
    table.seats[1].send(&json!({"t": "rematch"})).await;
    let mut seats = Vec::new();
    for (i, side) in [(0, Side::White), (1, Side::Black)] {
        let seat = &mut table.seats[i];
        let made = seat.until("rematch-made").await;
        let mine = seat.recv().await;
        assert_eq!(mine["t"], "rematch", "{mine}");
        assert_eq!(mine["game"], made["game"]);
        assert_eq!(
            mine["side"],
            side.other().word(),
            "each takes the other colour"
        );
        seats.push(mine);
    }
    assert_ne!(seats[0]["token"], seats[1]["token"]);
    // A spectator hears the rematch was made, and no token.
    let made = spectator.until("rematch-made").await;
    assert!(spectator.transcript.iter().all(|f| !f.contains("token")));
    let id = made["game"].as_str().unwrap();
    let (_, summary) = server.summary(id).await;
    assert_eq!(summary["first"], "black", "the same colour moves first");
    assert_eq!(summary["setup_ms"], 60000);
    assert_eq!(summary["clock"]["white_ms"], 120000);
    // Asked again before its seat was used (the page lost the answer): a fresh token for the
    // same seat; the one before no longer opens it.
    table.seats[0].send(&json!({"t": "rematch"})).await;
    let again = table.seats[0].until("rematch").await;
    assert_eq!(again["side"], seats[0]["side"]);
    assert_ne!(again["token"], seats[0]["token"]);
    let stale =
        salpakan_server::client::Socket::connect(server.addr, id, seats[0]["token"].as_str()).await;
    assert!(stale.is_err(), "the replaced token opens nothing");
    seats[0] = again;
    for mine in &seats {
        let mut seat = server.seat(id, mine["token"].as_str()).await;
        let state = seat.until("state").await;
        assert_eq!(state["side"], mine["side"]);
        assert!(
            state["setup_left_ms"].is_u64(),
            "both seats taken: the setup time runs"
        );
    }
    // Once used, the finished game's token cannot take the seat over: the rematch's own token
    // still opens it.
    for seat in &mut table.seats {
        seat.send(&json!({"t": "rematch"})).await;
        let refused = seat.until("error").await;
        assert_eq!(refused["code"], "seat-taken", "{refused}");
    }
    for mine in &seats {
        let mut seat = server.seat(id, mine["token"].as_str()).await;
        assert_eq!(seat.until("state").await["side"], mine["side"]);
    }
    server.stop().await;
}

#[tokio::test]
async fn a_bot_accepts_at_once() {
    let server = start(62).await;
    let (status, created) = server
        .json(
            "POST",
            "/api/games",
            &json!({"opponent": "random", "side": "white"}),
        )
        .await;
    assert_eq!(status, 201);
    let id = created["game"].as_str().unwrap();
    let mut seat = server.seat(id, created["token"].as_str()).await;
    seat.until("state").await;
    let game = random_game(5, 0);
    let cells = crate::common::cells(game.setup(Side::White).unwrap());
    seat.send(&json!({"t": "setup", "cells": cells})).await;
    seat.until("start").await;
    seat.send(&json!({"t": "resign"})).await;
    seat.until("over").await;
    seat.send(&json!({"t": "rematch"})).await;
    let mine = seat.until("rematch").await;
    assert_eq!(mine["side"], "black");
    let next = mine["game"].as_str().unwrap();
    let (_, summary) = server.summary(next).await;
    assert_eq!(
        summary["players"],
        json!({"white": "bot", "black": "human"})
    );
    assert_eq!(summary["names"]["white"], "bot-random");
    server.stop().await;
}
