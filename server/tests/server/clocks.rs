//! Clocks and presence: only the server reads the time. A loss on time and a loss by
//! abandonment are the server's decisions; nothing a client sends charges anyone's time.
//! (The room's own tests step the clock through exact instants; these run it for real,
//! with short clocks, and assert what cannot depend on the machine's speed.) A game that
//! never started is deleted at its expiry.

use std::time::Duration;

use salpakan::Side;
use serde_json::{Value, json};

use crate::common::{Table, clock_ms, database, query_int, random_game, scratch, start, start_on};

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
    let mover_ms = clock_ms(&ply, first);
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
async fn a_seat_away_past_the_grace_on_its_turn_loses_while_its_opponent_waits() {
    let server = start_on(database("away"), 21, |c| {
        c.limits.abandon_grace = Duration::from_millis(300);
    })
    .await;
    let game = random_game(8, 4);
    assert_eq!(game.first_mover(), Side::White);
    let mut table = Table::open(&server, json!({"first": "white"})).await;
    table.set_up(&game).await;
    let [mut white, black] = table.seats;
    black.socket.close().await;
    let presence = white.until("presence").await;
    assert_eq!(
        presence,
        json!({"t": "presence", "side": "black", "connected": false})
    );
    // Black is away on White's turn: that counts for nothing, however long.
    let early = tokio::time::timeout(Duration::from_millis(900), white.until("over")).await;
    assert!(early.is_err(), "Black lost while it was not to move");
    // Once it is Black's turn, its absence counts: it loses a grace later.
    let mv = game.history()[0].mv.to_string();
    white
        .send(&json!({"t": "move", "move": mv, "ply": 0}))
        .await;
    let moved = std::time::Instant::now();
    let over = white.until("over").await;
    assert!(
        moved.elapsed() >= Duration::from_millis(300),
        "{:?}",
        moved.elapsed()
    );
    assert_eq!(
        over["status"],
        json!({"state": "won", "winner": "white", "reason": "abandoned"})
    );
    server.stop().await;
}

#[tokio::test]
async fn a_game_both_seats_left_is_drawn_and_frees_its_creators_slot() {
    let server = start_on(database("both-away"), 26, |c| {
        c.limits.abandon_grace = Duration::from_millis(100);
        c.limits.games_per_ip = 1;
    })
    .await;
    let game = random_game(9, 4);
    let mut table = Table::open(&server, json!({"first": "white"})).await;
    table.set_up(&game).await;
    let mut spectator = server.seat(&table.id, None).await;
    spectator.until("state").await;
    let [white, black] = table.seats;
    white.socket.close().await;
    black.socket.close().await;
    // Nobody loses; ten graces (1 s) after the second left, the game is drawn.
    let over = spectator.until("over").await;
    assert_eq!(
        over["status"],
        json!({"state": "drawn", "winner": null, "reason": "abandoned"})
    );
    let record = salpakan::Game::from_record(over["record"].as_str().unwrap()).unwrap();
    assert_eq!(record.status().token(), "draw:abandoned");
    // The creator may make another game.
    let (status, _) = server.json("POST", "/api/games", &json!({})).await;
    assert_eq!(status, 201);
    server.stop().await;
}

/// The rows the database holds for game `id`: (games, events).
fn stored_rows(db: &std::path::Path, id: &str) -> (i64, i64) {
    (
        query_int(db, &format!("SELECT count(*) FROM games WHERE id = '{id}'")),
        query_int(
            db,
            &format!("SELECT count(*) FROM events WHERE game = '{id}'"),
        ),
    )
}

#[tokio::test]
async fn a_game_not_started_in_time_is_deleted_and_a_started_one_is_not() {
    let db = database("expiry");
    let server = start_on(db.clone(), 22, |c| {
        c.limits.setup_expiry = Duration::from_millis(1500);
        c.limits.games_per_ip = 2;
    })
    .await;
    // Game A: created (its creator sets up) but never joined.
    let (_, created) = server
        .json("POST", "/api/games", &json!({"side": "white"}))
        .await;
    let id = created["game"].as_str().unwrap().to_owned();
    let token = created["token"].as_str().unwrap().to_owned();
    let mut creator = server.seat(&id, Some(&token)).await;
    creator.until("state").await;
    let setup = crate::common::cells(random_game(3, 0).setup(salpakan::Side::White).unwrap());
    creator.send(&json!({"t": "setup", "cells": setup})).await;
    creator.until("ready").await;
    let mut spectator = server.seat(&id, None).await;
    spectator.until("state").await;
    // Game B: both seats set up, so it starts before A's expiry.
    let mut table = Table::open(&server, json!({})).await;
    table.set_up(&random_game(4, 0)).await;
    let (status, refused) = server.json("POST", "/api/games", &json!({})).await;
    assert_eq!(
        (status, refused["error"].clone()),
        (429, json!("too-many-games"))
    );
    assert_eq!(stored_rows(&db, &id), (1, 1));

    assert_eq!(creator.until_close().await, 4410);
    assert_eq!(spectator.until_close().await, 4410);
    let unknown = server.http("GET", "/api/games/0123456789abcdef", "").await;
    assert_eq!(unknown.0, 404);
    assert_eq!(
        server.http("GET", &format!("/api/games/{id}"), "").await,
        unknown
    );
    let join = json!({"invite": created["invite"]}).to_string();
    let joined = server
        .http("POST", &format!("/api/games/{id}/join"), &join)
        .await;
    let join_unknown = server
        .http("POST", "/api/games/0123456789abcdef/join", &join)
        .await;
    assert_eq!(joined, join_unknown);
    assert_eq!(joined.0, 404);
    let socket = salpakan_server::client::Socket::connect(server.addr, &id, Some(&token)).await;
    assert!(format!("{:?}", socket.err()).contains("401"));
    assert_eq!(
        stored_rows(&db, &id),
        (0, 0),
        "the row and the events are deleted"
    );

    // B is still being played; A's place under the creator's limit is free again.
    let (status, summary) = server
        .json("GET", &format!("/api/games/{}", table.id), &json!({}))
        .await;
    assert_eq!((status, summary["phase"].clone()), (200, json!("playing")));
    let (status, _) = server.json("POST", "/api/games", &json!({})).await;
    assert_eq!(status, 201);
    server.stop().await;
}

#[tokio::test]
async fn a_game_past_its_expiry_when_the_server_restarts_is_deleted_at_once() {
    let db = database("expiry-restart");
    let server = start_on(db.clone(), 23, |_| {}).await;
    let (_, created) = server.json("POST", "/api/games", &json!({})).await;
    let id = created["game"].as_str().unwrap().to_owned();
    server.stop().await;
    assert_eq!(stored_rows(&db, &id), (1, 0));

    let server = start_on(db.clone(), 24, |c| c.limits.setup_expiry = Duration::ZERO).await;
    for _ in 0..100 {
        if stored_rows(&db, &id) == (0, 0) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(stored_rows(&db, &id), (0, 0));
    assert_eq!(
        server.http("GET", &format!("/api/games/{id}"), "").await.0,
        404
    );
    server.stop().await;
}

#[tokio::test]
async fn a_database_from_before_expiry_gets_creation_times_on_opening() {
    // The games table as 0.2's server made it: no created_ms (SQLite: the one store that
    // had databases before versions).
    let db = scratch("expiry-migrate").join("games.db");
    let id = "00112233aabbccdd";
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch(
            "CREATE TABLE games (id TEXT PRIMARY KEY, setup_rows INTEGER NOT NULL,
             move_limit INTEGER NOT NULL, first TEXT NOT NULL, white_player TEXT NOT NULL,
             black_player TEXT NOT NULL, clock_initial_ms INTEGER, clock_increment_ms INTEGER,
             white_token TEXT, black_token TEXT, invite TEXT, bot_seed INTEGER NOT NULL,
             white_setup BLOB, black_setup BLOB, over INTEGER NOT NULL DEFAULT 0);",
        )
        .unwrap();
        conn.execute(
            "INSERT INTO games (id, setup_rows, move_limit, first, white_player, black_player,
             bot_seed) VALUES (?1, 3, 0, 'white', 'human', 'human', 1)",
            [id],
        )
        .unwrap();
        // A finished game of then: as old, for the pruner, as its creation.
        conn.execute(
            "INSERT INTO games (id, setup_rows, move_limit, first, white_player, black_player,
             bot_seed, over) VALUES ('ffeeddccbbaa9988', 3, 0, 'white', 'human', 'human', 1, 1)",
            [],
        )
        .unwrap();
    }
    let before = salpakan_server::clock::unix_ms();
    let server = start_on(db.clone(), 25, |_| {}).await;
    let after = salpakan_server::clock::unix_ms();
    let (status, summary) = server
        .json("GET", &format!("/api/games/{id}"), &json!({}))
        .await;
    assert_eq!((status, summary["phase"].clone()), (200, json!("setup")));
    let created: i64 = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row("SELECT created_ms FROM games WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .unwrap();
    assert!(
        (before as i64..=after as i64).contains(&created),
        "{before} {created} {after}"
    );
    let (ended, unfinished_ended): (Option<i64>, Option<i64>) = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row(
            "SELECT (SELECT ended_ms FROM games WHERE id = 'ffeeddccbbaa9988'),
                    (SELECT ended_ms FROM games WHERE id = ?1)",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(
        ended,
        Some(created),
        "a finished game ended at its creation"
    );
    assert_eq!(unfinished_ended, None);
    server.stop().await;
}
