//! The wire, byte for byte: a scripted game through every message and refusal of the
//! contract, whose whole transcript (each HTTP reply and every frame each socket received)
//! must equal `server/tests/data/golden-transcript.txt`, recorded from the server before its
//! wire was typed. With seeded entropy the ids, tokens and invites are the same on every run.
//! A change to the wire fails this test; one meant to be made is recorded again with
//! `SALPAKAN_BLESS=1 cargo test -p salpakan-server --test server golden`, and the diff read.

use std::path::PathBuf;

use salpakan::Side;
use serde_json::{Value, json};

use crate::common::{Seat, Server, cells, random_game, start};

const GOLDEN: &str = "tests/data/golden-transcript.txt";

/// Every reply and frame, in the order they came.
struct Transcript {
    lines: Vec<String>,
}

impl Transcript {
    async fn http(&mut self, server: &Server, method: &str, path: &str, body: &str) -> String {
        let (status, text) = server.http(method, path, body).await;
        self.lines
            .push(format!("{method} {path} {body} -> {status} {text}"));
        text
    }

    /// `who` reads `n` frames.
    async fn read(&mut self, who: &str, seat: &mut Seat, n: usize) {
        for _ in 0..n {
            let frame = seat.recv().await;
            self.lines.push(format!("{who} <- {frame}"));
        }
    }
}

/// Each of the three sockets reads `n` frames.
async fn everyone(t: &mut Transcript, w: &mut Seat, b: &mut Seat, s: &mut Seat, n: usize) {
    for (who, seat) in [("W", w), ("B", b), ("S", s)] {
        t.read(who, seat, n).await;
    }
}

async fn send(who: &str, seat: &mut Seat, message: &Value, transcript: &mut Transcript) {
    transcript.lines.push(format!("{who} -> {message}"));
    seat.send(message).await;
}

#[tokio::test]
async fn the_wire_is_byte_for_byte_the_recorded_one() {
    let server = start(77).await;
    let mut t = Transcript { lines: Vec::new() };
    let game = random_game(12, 10);
    assert_eq!(game.first_mover(), Side::White);

    // HTTP: refusals, a creation, a summary, the record before the end, the join.
    for body in [
        "not json",
        r#"{"side":"red"}"#,
        r#"{"opponent":"grandmaster"}"#,
        r#"{"rules":{"setup_rows":5}}"#,
        r#"{"clock":{"initial_ms":0,"increment_ms":0}}"#,
    ] {
        t.http(&server, "POST", "/api/games", body).await;
    }
    let created = t
        .http(
            &server,
            "POST",
            "/api/games",
            r#"{"side":"white","first":"white"}"#,
        )
        .await;
    let created: Value = serde_json::from_str(&created).unwrap();
    let id = created["game"].as_str().unwrap().to_owned();
    let white_token = created["token"].as_str().unwrap().to_owned();
    let invite = created["invite"].as_str().unwrap().to_owned();
    t.http(&server, "GET", &format!("/api/games/{id}"), "")
        .await;
    t.http(&server, "GET", &format!("/api/games/{id}/record"), "")
        .await;
    t.http(&server, "GET", "/api/games/0123456789abcdef", "")
        .await;
    t.http(&server, "GET", "/api/nowhere", "").await;
    let join = format!("/api/games/{id}/join");
    t.http(&server, "POST", &join, r#"{"invite":"wrong"}"#)
        .await;
    t.http(&server, "POST", &join, "{}").await;
    let joined = t
        .http(
            &server,
            "POST",
            &join,
            &json!({"invite": invite}).to_string(),
        )
        .await;
    t.http(
        &server,
        "POST",
        &join,
        &json!({"invite": invite}).to_string(),
    )
    .await;
    let joined: Value = serde_json::from_str(&joined).unwrap();
    let black_token = joined["token"].as_str().unwrap().to_owned();

    // The sockets: two seats and a spectator.
    let mut w = server.seat(&id, Some(&white_token)).await;
    t.read("W", &mut w, 1).await;
    let mut b = server.seat(&id, Some(&black_token)).await;
    t.read("B", &mut b, 1).await;
    t.read("W", &mut w, 1).await; // Black is here
    let mut s = server.seat(&id, None).await;
    t.read("S", &mut s, 1).await;

    // The setup phase: refusals, then both formations.
    let white = cells(game.setup(Side::White).unwrap());
    let black = cells(game.setup(Side::Black).unwrap());
    let mut bad = white.clone();
    bad[0] = json!(15);
    for message in [
        json!({"t": "fly"}),
        json!({"t": "setup", "cells": [1, 2, 3]}),
        json!({"t": "setup", "cells": bad}),
        json!({"t": "move", "move": "e3-e4", "ply": 0}),
        json!({"t": "setup", "cells": black}),
    ] {
        send("W", &mut w, &message, &mut t).await;
        t.read("W", &mut w, 1).await;
    }
    send("W", &mut w, &json!({"t": "setup", "cells": white}), &mut t).await;
    everyone(&mut t, &mut w, &mut b, &mut s, 1).await;
    send("W", &mut w, &json!({"t": "setup", "cells": white}), &mut t).await;
    t.read("W", &mut w, 1).await;
    send("B", &mut b, &json!({"t": "setup", "cells": black}), &mut t).await;
    everyone(&mut t, &mut w, &mut b, &mut s, 2).await;
    send("S", &mut s, &json!({"t": "resign"}), &mut t).await;
    t.read("S", &mut s, 1).await;

    // Play, with every refusal of a move on the way.
    for (ply, report) in game.history().iter().enumerate() {
        let mover = if ply % 2 == 0 { "W" } else { "B" };
        let message = json!({"t": "move", "move": report.mv.to_string(), "ply": ply});
        if ply == 2 {
            // Out of turn, then White's illegal, stale and impossible moves.
            send("B", &mut b, &message, &mut t).await;
            t.read("B", &mut b, 1).await;
            for (mv, at) in [("a1-a1", ply), ("e3-e4", ply + 5), ("a3-a5", ply)] {
                let refused = json!({"t": "move", "move": mv, "ply": at});
                send("W", &mut w, &refused, &mut t).await;
                t.read("W", &mut w, 1).await;
            }
        }
        let seat = if mover == "W" { &mut w } else { &mut b };
        send(mover, seat, &message, &mut t).await;
        everyone(&mut t, &mut w, &mut b, &mut s, 1).await;
        if ply == 3 {
            // Black's last move sent again: the same event, to Black alone.
            send("B", &mut b, &message, &mut t).await;
            t.read("B", &mut b, 1).await;
        }
    }

    // A draw offered and accepted; then the questions a socket may still ask.
    send("W", &mut w, &json!({"t": "draw"}), &mut t).await;
    everyone(&mut t, &mut w, &mut b, &mut s, 1).await;
    send("W", &mut w, &json!({"t": "draw"}), &mut t).await;
    t.read("W", &mut w, 1).await;
    send("B", &mut b, &json!({"t": "draw"}), &mut t).await;
    everyone(&mut t, &mut w, &mut b, &mut s, 1).await;
    send(
        "W",
        &mut w,
        &json!({"t": "move", "move": "e3-e4", "ply": 10}),
        &mut t,
    )
    .await;
    t.read("W", &mut w, 1).await;
    send("W", &mut w, &json!({"t": "ping"}), &mut t).await;
    t.read("W", &mut w, 1).await;
    send("B", &mut b, &json!({"t": "hello", "v": 99}), &mut t).await;
    t.read("B", &mut b, 1).await;
    let events = 2 + 1 + game.history().len() + 2;
    send("S", &mut s, &json!({"t": "hello", "v": 0}), &mut t).await;
    t.read("S", &mut s, events).await;
    s.socket.close().await;
    b.socket.close().await;
    t.read("W", &mut w, 1).await; // Black left
    w.socket.close().await;
    t.http(&server, "GET", &format!("/api/games/{id}"), "")
        .await;
    t.http(&server, "GET", &format!("/api/games/{id}/record"), "")
        .await;
    server.stop().await;

    let transcript = t.lines.join("\n") + "\n";
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(GOLDEN);
    if std::env::var_os("SALPAKAN_BLESS").is_some() {
        std::fs::write(&path, &transcript).expect("write the golden transcript");
        return;
    }
    let golden = std::fs::read_to_string(&path).expect("the golden transcript");
    for (i, (now, before)) in transcript.lines().zip(golden.lines()).enumerate() {
        assert_eq!(now, before, "the wire changed at line {}", i + 1);
    }
    assert_eq!(
        transcript.lines().count(),
        golden.lines().count(),
        "the transcript's length"
    );
}
