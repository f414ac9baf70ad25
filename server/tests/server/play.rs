//! Whole games through the server: the end, the record, draws, bots.

use salpakan::{Game, Rules, Setup, Side};
use serde_json::{Value, json};

use crate::common::{Seat, Server, Table, cells, database, random_game, start, start_on};

#[tokio::test]
async fn a_game_to_its_end_reveals_both_formations_in_the_record() {
    let server = start(3).await;
    let game = random_game(11, 400);
    assert!(
        !game.status().is_ongoing(),
        "a random game ends in 400 plies"
    );
    let mut table = Table::open(&server, json!({"first": game.first_mover().word()})).await;
    let id = table.id.clone();
    let (status, _) = server
        .http("GET", &format!("/api/games/{id}/record"), "")
        .await;
    assert_eq!(status, 409);
    let [white_start, black_start] = table.set_up(&game).await;
    assert_eq!(
        white_start["view"]["text"],
        game_start(&game).view(Side::White).to_text().to_string()
    );
    assert_eq!(
        black_start["view"]["text"],
        game_start(&game).view(Side::Black).to_text().to_string()
    );
    let mut spectator = server.seat(&id, None).await;
    let state = spectator.until("state").await;
    assert_eq!(state["phase"], "playing");
    // A spectator's view says whose move it is (its text hides every rank).
    assert_eq!(state["view"]["side_to_move"], game.first_mover().word());
    let n = game.history().len();
    table.replay(&game, 0, 3).await;
    let mut late = server.seat(&id, None).await;
    let state = late.until("state").await;
    assert_eq!(
        state["view"]["side_to_move"],
        game.first_mover().other().word()
    );
    assert_eq!(state["v"], 6, "two ready, the start and three plies");
    late.socket.close().await;
    let [over, _] = table.replay(&game, 3, n).await;
    // The spectator watched every ply, and the end, with no rank before it.
    let watched = spectator.until("over").await;
    assert_eq!(watched, over);
    let plies = spectator
        .transcript
        .iter()
        .filter(|f| f.contains(r#""t":"ply""#))
        .count();
    assert_eq!(plies, n);
    let codes = salpakan::Rank::ALL.map(|r| format!(r#""rank":"{}""#, r.code()));
    let before_end = &spectator.transcript[..spectator.transcript.len() - 1];
    assert!(
        before_end
            .iter()
            .all(|f| codes.iter().all(|c| !f.contains(c.as_str())))
    );
    assert_eq!(over["t"], "over");
    let record = over["record"].as_str().unwrap();
    let replayed = Game::from_record(record).unwrap();
    assert_eq!(replayed.history(), game.history());
    assert_eq!(replayed.setup(Side::Black), game.setup(Side::Black));
    let (status, text) = server
        .http("GET", &format!("/api/games/{id}/record"), "")
        .await;
    assert_eq!((status, text.as_str()), (200, record));
    let (status, summary) = server.summary(&id).await;
    assert_eq!(status, 200);
    assert_eq!(summary["phase"], "over");
    assert_eq!(summary["ply"], n);
    assert_eq!(
        summary["players"],
        json!({"white": "human", "black": "human"})
    );
    server.stop().await;
}

fn game_start(game: &Game) -> Game {
    Game::new(
        game.setup(Side::White).unwrap().clone(),
        game.setup(Side::Black).unwrap().clone(),
        game.first_mover(),
        game.rules(),
    )
    .unwrap()
}

#[tokio::test]
async fn a_draw_is_offered_and_accepted() {
    let server = start(4).await;
    let game = random_game(12, 4);
    let mut table = Table::open(&server, json!({"first": game.first_mover().word()})).await;
    table.set_up(&game).await;
    let first = game.first_mover();
    let [offer, _] = table.act(first, json!({"t": "draw"}), 1).await;
    assert_eq!(
        offer,
        json!({"t": "draw-offer", "v": table.v, "side": first.word()})
    );
    let [over, _] = table.act(first.other(), json!({"t": "draw"}), 1).await;
    assert_eq!(
        over["status"],
        json!({"state": "drawn", "winner": null, "reason": "agreement"})
    );
    server.stop().await;
}

/// Creates a game against the bot `body` names and seats its creator: the game, the seat and
/// its first state, in which the bot's formation is already in (version 1).
async fn against_a_bot(server: &Server, body: &Value) -> (String, Seat, Value) {
    let (status, created) = server.json("POST", "/api/games", body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["game"].as_str().unwrap();
    let mut seat = server.seat(id, created["token"].as_str()).await;
    let state = seat.until("state").await;
    assert_eq!(state["v"], 1, "{body}: the bot's formation is in");
    (id.to_owned(), seat, state)
}

#[tokio::test]
async fn bot_seats_play_with_their_own_knowledge_to_the_end() {
    let server = start(5).await;
    for opponent in ["random", "greedy", "ismcts", "level-1", "level-7"] {
        let body = json!({"side": "white", "opponent": opponent, "first": "black"});
        let (id, mut seat, state) = against_a_bot(&server, &body).await;
        assert_eq!(state["presence"]["black"], true);
        assert_eq!(
            state["bots"],
            json!({"white": false, "black": true}),
            "{opponent}: the state says which seat a bot holds"
        );
        let own = Setup::random(Side::White, Rules::default(), 99);
        seat.send(&json!({"t": "setup", "cells": cells(&own)}))
            .await;
        let mut follower = salpakan_server::client::Follower::new(own, Rules::default());
        let mut plies = 0;
        loop {
            let frame = seat.recv().await;
            let message = serde_json::from_value(frame.clone()).expect("a message of the contract");
            follower.follow(&message).unwrap();
            match frame["t"].as_str() {
                Some("over") => break,
                Some("start" | "ply") => {}
                _ => continue,
            }
            let tracker = follower.tracker().unwrap();
            if tracker.status().is_ongoing() && tracker.side_to_move() == Side::White {
                if plies >= 30 {
                    seat.send(&json!({"t": "resign"})).await;
                    continue;
                }
                let mv = tracker.legal_moves()[plies % tracker.legal_moves().len()];
                let ply = tracker.history().len();
                seat.send(&json!({"t": "move", "move": mv.to_string(), "ply": ply}))
                    .await;
                plies += 1;
            }
        }
        let (_, summary) = server.summary(&id).await;
        assert_eq!(
            summary["players"],
            json!({"white": "human", "black": "bot"}),
            "{opponent}"
        );
        assert_eq!(summary["phase"], "over");
        assert!(summary["ply"].as_u64().unwrap() >= 1);
    }
    server.stop().await;
}

/// Every level of the ladder can be chosen and deploys (the rest of a game is the same for
/// all: the two played through above); a level past 8 is refused.
#[tokio::test]
async fn every_level_is_an_opponent() {
    let server = start(15).await;
    for level in 1..=8 {
        let body = json!({"side": "white", "opponent": format!("level-{level}")});
        against_a_bot(&server, &body).await;
    }
    for bad in ["level-0", "level-9", "level-", "level-1x"] {
        let body = json!({"opponent": bad});
        let (status, refused) = server.json("POST", "/api/games", &body).await;
        assert_eq!(status, 400, "{bad}");
        assert!(
            refused["message"]
                .as_str()
                .unwrap()
                .contains("level-1 to level-8"),
            "{refused}"
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn creating_validates_every_field() {
    let server = start(6).await;
    for (body, code) in [
        (json!({"side": "green"}), "bad-message"),
        (json!({"opponent": "oracle"}), "bad-message"),
        (json!({"first": 1}), "bad-message"),
        (json!({"rules": {"setup_rows": 5}}), "bad-rules"),
        (json!({"rules": {"move_limit": -1}}), "bad-rules"),
        (
            json!({"clock": {"initial_ms": 0, "increment_ms": 0}}),
            "bad-clock",
        ),
        (json!({"clock": {"initial_ms": 1000}}), "bad-message"),
        (json!([1, 2]), "bad-message"),
    ] {
        let (status, reply) = server.json("POST", "/api/games", &body).await;
        assert_eq!(
            (status, reply["error"].clone()),
            (400, json!(code)),
            "{body}"
        );
        assert!(reply["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let (status, reply) = server.http("POST", "/api/games", "{not json").await;
    assert_eq!(status, 400, "{reply}");
    let (status, reply) = server.http("POST", "/api/games", "").await;
    assert_eq!(status, 201, "an empty body takes every default: {reply}");
    let (status, health) = server.json("GET", "/api/health", &Value::Null).await;
    assert_eq!((status, health["ok"].clone()), (200, json!(true)));
    let (status, _) = server.http("GET", "/api/games/0123456789abcdef", "").await;
    assert_eq!(status, 404);
    let (status, body) = server.http("GET", "/", "").await;
    assert_eq!(status, 200);
    assert!(body.contains("--static"));
    for path in ["/api", "/api/nope", "/api/games/0123456789abcdef/nope"] {
        let (status, body) = server.json("GET", path, &Value::Null).await;
        assert_eq!(
            (status, body["error"].clone()),
            (404, json!("not-found")),
            "{path}"
        );
    }
    let (status, _) = server.http("DELETE", "/api/games", "").await;
    assert_eq!(status, 405);
    let big = format!(r#"{{"side": "white", "pad": "{}"}}"#, "x".repeat(5000));
    let (status, body) = server.http("POST", "/api/games", &big).await;
    let body: Value = serde_json::from_str(&body).expect("a JSON error");
    assert_eq!((status, body["error"].clone()), (413, json!("too-large")));
    let rules = json!({"rules": {"setup_rows": 4, "move_limit": 50}, "clock": {"initial_ms": 60000, "increment_ms": 1000}});
    let (status, created) = server.json("POST", "/api/games", &rules).await;
    assert_eq!(status, 201);
    let id = created["game"].as_str().unwrap();
    let (_, summary) = server.summary(id).await;
    assert_eq!(
        summary["clock"],
        json!({"white_ms": 60000, "black_ms": 60000, "running": null})
    );
    assert_eq!(summary["phase"], "setup");
    server.stop().await;
}

#[tokio::test]
async fn every_game_is_bounded_by_a_move_limit_shown_before_it_starts() {
    // A server as shipped: its default move limit, and a longest one a creator may ask for.
    let server = start_on(database("bounded"), 41, |c| {
        c.limits.default_move_limit = 200;
        c.limits.max_move_limit = 1_000;
    })
    .await;
    let (status, created) = server.json("POST", "/api/games", &json!({})).await;
    assert_eq!(status, 201);
    let path = format!("/api/games/{}", created["game"].as_str().unwrap());
    let (_, summary) = server.json("GET", &path, &Value::Null).await;
    assert_eq!(
        summary["rules"],
        json!({"setup_rows": 3, "move_limit": 200, "max_plies": 42 * 201})
    );
    let mut seat = server
        .seat(created["game"].as_str().unwrap(), created["token"].as_str())
        .await;
    assert_eq!(seat.until("state").await["rules"]["max_plies"], 42 * 201);
    for (limit, status) in [(0, 400), (1_001, 400), (1_000, 201), (1, 201)] {
        let body = json!({"rules": {"move_limit": limit}});
        let (got, reply) = server.json("POST", "/api/games", &body).await;
        assert_eq!(got, status, "move_limit {limit}: {reply}");
        if status == 400 {
            assert_eq!(reply["error"], "bad-rules");
        }
    }
    server.stop().await;
}
