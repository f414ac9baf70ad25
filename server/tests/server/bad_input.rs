//! Bad input: each is answered as the contract says, and changes nothing in any game.

use salpakan_server::client::Socket;
use serde_json::{Value, json};

use crate::common::{Seat, Server, Table, random_game, start};

async fn states(server: &Server, table: &Table) -> Vec<Value> {
    let mut out = Vec::new();
    for token in &table.tokens {
        let mut seat = server.seat(&table.id, Some(token)).await;
        let mut state = seat.until("state").await;
        state["presence"] = Value::Null;
        out.push(state);
        seat.socket.close().await;
    }
    out
}

#[tokio::test]
async fn malformed_wrong_phase_out_of_turn_oversized_and_flooding_clients_change_nothing() {
    let server = start(30).await;
    let game = random_game(8, 10);
    let mut table = Table::open(&server, json!({"first": "white"})).await;
    let mut bystander = Table::open(&server, json!({"first": "white"})).await;
    table.set_up(&game).await;
    bystander.set_up(&game).await;
    table.replay(&game, 0, 4).await;
    bystander.replay(&game, 0, 2).await;
    let before = (
        states(&server, &table).await,
        states(&server, &bystander).await,
    );

    let white = &mut table.seats[0];
    for (text, code) in [
        ("", "bad-message"),
        ("{", "bad-message"),
        ("[1]", "bad-message"),
        (r#"{"t": 5}"#, "bad-message"),
        (r#"{"t": "castle"}"#, "bad-message"),
        (
            r#"{"t": "move", "move": ["e3", "e4"], "ply": 4}"#,
            "bad-message",
        ),
        (
            r#"{"t": "move", "move": "e3-e4", "ply": "4"}"#,
            "bad-message",
        ),
        (r#"{"t": "move", "move": "e3-e4"}"#, "bad-message"),
        (r#"{"t": "hello"}"#, "bad-message"),
        (r#"{"t": "setup", "cells": [1, 2]}"#, "bad-message"),
        (r#"{"t": "setup", "cells": []}"#, "bad-message"),
        (r#"{"t": "move", "move": "e3-e4", "ply": 3}"#, "stale-ply"),
        (r#"{"t": "move", "move": "e3-e4", "ply": 99}"#, "stale-ply"),
        (
            r#"{"t": "move", "move": "a1-a8", "ply": 4}"#,
            "illegal-move",
        ),
        (
            r#"{"t": "move", "move": "i9-i10", "ply": 4}"#,
            "bad-message",
        ),
    ] {
        white.socket.send(text).await.unwrap();
        let reply = white.recv().await;
        assert_eq!(
            (reply["t"].clone(), reply["code"].clone()),
            (json!("error"), json!(code)),
            "{text}"
        );
        assert!(reply["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let mv = game.history()[4].mv.to_string();
    let black = &mut table.seats[1];
    black
        .send(&json!({"t": "move", "move": mv, "ply": 4}))
        .await;
    assert_eq!(black.recv().await["code"], "not-your-turn");
    let white = &mut table.seats[0];
    let setup = (0..72).map(|_| 255).collect::<Vec<_>>();
    white.send(&json!({"t": "setup", "cells": setup})).await;
    assert_eq!(white.recv().await["code"], "wrong-phase");
    white
        .socket
        .send_binary(b"{\"t\":\"ping\"}".to_vec())
        .await
        .unwrap();
    assert_eq!(white.recv().await["code"], "bad-message");
    // A frame over 4,096 bytes closes the socket with 1009; a flood with 1008.
    let big = format!(r#"{{"t": "ping", "pad": "{}"}}"#, "x".repeat(4096));
    white.socket.send(&big).await.unwrap();
    assert_eq!(white.until_close().await, 1009);
    let mut flooder = server.seat(&table.id, Some(&table.tokens[1])).await;
    flooder.until("state").await;
    for _ in 0..201 {
        if flooder.socket.send(r#"{"t":"ping"}"#).await.is_err() {
            break;
        }
    }
    assert_eq!(flooder.until_close().await, 1008);
    let last = flooder.transcript.iter().rev().nth(1).unwrap();
    assert!(last.contains(r#""code":"rate-limited""#), "{last}");
    // A spectator's flood too.
    let mut watcher = server.seat(&bystander.id, None).await;
    for _ in 0..201 {
        if watcher.socket.send(r#"{"t":"hello","v":0}"#).await.is_err() {
            break;
        }
    }
    assert_eq!(watcher.until_close().await, 1008);

    let after = (
        states(&server, &table).await,
        states(&server, &bystander).await,
    );
    assert_eq!(after, before, "no game changed");
    // And both games go on.
    let mut white = server.seat(&table.id, Some(&table.tokens[0])).await;
    white
        .send(&json!({"t": "move", "move": game.history()[4].mv.to_string(), "ply": 4}))
        .await;
    assert_eq!(white.until("ply").await["ply"], 5);
    bystander.replay(&game, 2, 3).await;
    server.stop().await;
}

#[tokio::test]
async fn connections_and_games_per_client_are_bounded() {
    let server = crate::common::start_on(crate::common::database("limits"), 31, |c| {
        c.limits.connections_per_ip = 3;
        c.limits.games_per_ip = 2;
    })
    .await;
    let (_, a) = server.json("POST", "/api/games", &json!({})).await;
    let (status, _) = server.json("POST", "/api/games", &json!({})).await;
    assert_eq!(status, 201);
    let (status, refused) = server.json("POST", "/api/games", &json!({})).await;
    assert_eq!(
        (status, refused["error"].clone()),
        (429, json!("too-many-games"))
    );
    let id = a["game"].as_str().unwrap();
    let mut open: Vec<Seat> = Vec::new();
    for _ in 0..3 {
        open.push(server.seat(id, None).await);
    }
    let refused = Socket::connect(server.addr, id, None).await.err().unwrap();
    assert!(refused.to_string().starts_with("HTTP 429"), "{refused}");
    assert_eq!(refused.body().unwrap().error.word(), "too-many-connections");
    let last = open.pop().unwrap();
    last.socket.close().await;
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert!(
        Socket::connect(server.addr, id, None).await.is_ok(),
        "a closed socket frees its slot"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_socket_that_answers_no_ping_is_closed_as_idle() {
    let server = crate::common::start_on(crate::common::database("idle"), 32, |c| {
        c.limits.ping_interval = std::time::Duration::from_millis(100);
        c.limits.idle_timeout = std::time::Duration::from_millis(400);
    })
    .await;
    let (_, created) = server.json("POST", "/api/games", &json!({})).await;
    let id = created["game"].as_str().unwrap();
    let mut lively = server.seat(id, None).await;
    let mut silent = server.seat(id, None).await;
    // The silent client reads nothing (so it answers no ping); the lively one reads, and
    // its client answers each ping.
    let lively_closed = tokio::time::timeout(std::time::Duration::from_millis(900), async {
        loop {
            match lively.socket.next().await {
                Some(salpakan_server::client::Frame::Text(_)) => {}
                other => return other,
            }
        }
    })
    .await;
    assert!(
        lively_closed.is_err(),
        "a socket that answers pings stays open"
    );
    assert_eq!(silent.until_close().await, 1001);
    lively.send(&json!({"t": "ping"})).await;
    assert_eq!(lively.until("pong").await["t"], "pong");
    server.stop().await;
}

#[tokio::test]
async fn a_clients_unfinished_games_still_count_after_a_restart() {
    let db = crate::common::database("limits-restart");
    let limited = |c: &mut salpakan_server::Config| c.limits.games_per_ip = 2;
    let server = crate::common::start_on(db.clone(), 32, limited).await;
    let (_, waiting) = server.json("POST", "/api/games", &json!({})).await;
    let mut table = Table::open(&server, json!({})).await;
    table.set_up(&random_game(4, 0)).await;
    server.stop().await;

    let from_loopback = |id: &str| -> i64 {
        crate::common::query_int(
            &db,
            &format!("SELECT COUNT(*) FROM games WHERE id = '{id}' AND creator_ip = '127.0.0.1'"),
        )
    };
    let waiting = waiting["game"].as_str().unwrap();
    assert_eq!(from_loopback(waiting), 1);

    let server = crate::common::start_on(db.clone(), 33, limited).await;
    let (status, refused) = server.json("POST", "/api/games", &json!({})).await;
    assert_eq!(
        (status, refused["error"].clone()),
        (429, json!("too-many-games")),
        "the two restored games still count"
    );
    let mut seat = server.seat(&table.id, Some(&table.tokens[0])).await;
    seat.until("state").await;
    seat.send(&json!({"t": "resign"})).await;
    seat.until("over").await;
    assert_eq!(
        crate::common::query_int(
            &db,
            &format!(
                "SELECT COUNT(*) FROM games WHERE id = '{}' AND creator_ip IS NULL",
                table.id
            ),
        ),
        1,
        "a finished game keeps no address"
    );
    let (status, _) = server.json("POST", "/api/games", &json!({})).await;
    assert_eq!(status, 201, "the finished game's slot is free");
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
async fn every_body_and_every_frame_must_be_a_json_object() {
    let server = start(34).await;
    // An array that names a player registers nobody.
    let (status, reply) = server.http("POST", "/api/players", r#"["abcdef"]"#).await;
    assert_eq!(status, 400, "{reply}");
    assert!(reply.contains("bad-message"), "{reply}");
    assert_eq!(server.http("GET", "/api/players/abcdef", "").await.0, 404);
    for body in ["[]", "\"x\"", "5", "null", "true"] {
        let (status, reply) = server.http("POST", "/api/games", body).await;
        assert_eq!(status, 400, "{body}: {reply}");
    }
    // A game socket and a player socket read no message from an array.
    let (id, white, _) = server.pair(json!({"side": "white"})).await;
    let mut seat = server.seat(&id, Some(&white)).await;
    seat.until("state").await;
    for text in [r#"["ping"]"#, r#"["hello", 0]"#] {
        seat.socket.send(text).await.unwrap();
        assert_eq!(seat.recv().await["code"], "bad-message", "{text}");
    }
    let key = crate::common::register(&server, "arrays").await;
    let mut player = crate::common::socket(&server, "/api/players/socket").await;
    player
        .socket
        .send(&json!(["auth", key]).to_string())
        .await
        .unwrap();
    assert_eq!(player.until_close().await, 4401);
    server.stop().await;
}
