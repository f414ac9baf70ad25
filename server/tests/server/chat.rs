//! A game's chat: two rooms kept apart, phrases and free lines, who may say what, mute,
//! report, the limits, the lines kept across a restart, and the chat after the end.

use std::time::Duration;

use salpakan::Side;
use serde_json::{Value, json};

use crate::common::call;
use crate::common::post_as;
use crate::common::{
    Seat, Server, Table, database, player_socket, quiet_for, random_game, register_all, start,
    start_on,
};

/// The next `chat` frame, reading past everything else (a refusal fails the test).
async fn line(seat: &mut Seat) -> Value {
    loop {
        let frame = seat.recv().await;
        match frame["t"].as_str() {
            Some("chat") => return frame,
            Some("error") => panic!("refused: {frame}"),
            _ => assert!(frame.get("close").is_none(), "closed: {frame}"),
        }
    }
}

/// The next `error` frame's code.
async fn refusal(seat: &mut Seat) -> String {
    seat.until("error").await["code"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn say(phrase: &str) -> Value {
    json!({"t": "say", "phrase": phrase})
}

fn text(text: &str) -> Value {
    json!({"t": "say", "text": text})
}

/// A game between `a` and `b` (keys) paired by a seek, both seats open: two strangers.
async fn strangers(server: &Server, keys: &[String; 2]) -> (String, [Seat; 2], Vec<Seat>) {
    let sockets = vec![
        player_socket(server, &keys[0]).await,
        player_socket(server, &keys[1]).await,
    ];
    let (_, seek) = post_as(server, &keys[0], "/api/seeks", &json!({})).await;
    let accept = format!("/api/seeks/{}/accept", seek["seek"].as_str().unwrap());
    let (status, taken) = call(server, Some(&keys[1]), "POST", &accept).await;
    assert_eq!(status, 200, "{taken}");
    let game = taken["game"].as_str().unwrap().to_owned();
    let mut owner = sockets;
    let paired = owner[0].until("paired").await;
    let mut first = server.seat(&game, paired["token"].as_str()).await;
    let mut second = server.seat(&game, taken["token"].as_str()).await;
    first.until("state").await;
    second.until("state").await;
    (game, [first, second], owner)
}

#[tokio::test]
async fn strangers_talk_in_phrases_free_lines_need_both_and_spectators_stay_apart() {
    let server = start(71).await;
    let keys = register_all(&server, ["amihan", "bagwis", "dalisay"]).await;
    let (game, [mut a, mut b], _players) =
        strangers(&server, &[keys[0].clone(), keys[1].clone()]).await;
    // Strangers: presets by default.
    a.send(&say("hello")).await;
    let heard = line(&mut b).await;
    assert_eq!(
        heard,
        json!({"t": "chat", "room": "players", "n": 1, "side": heard["side"], "name": "amihan",
               "bot": false, "phrase": "hello", "text": "Hello!"})
    );
    assert_eq!(line(&mut a).await, heard, "the speaker hears its own line");
    a.send(&text("want to trade Generals?")).await;
    assert_eq!(refusal(&mut a).await, "chat-not-allowed");
    // One allows free lines: still not enough; both do: free lines pass.
    a.send(&json!({"t": "chat-mode", "mode": "free"})).await;
    let told = b.until("chat-settings").await;
    assert_eq!(told["seats"][heard["side"].as_str().unwrap()], "free");
    a.send(&text("ready?")).await;
    assert_eq!(refusal(&mut a).await, "chat-not-allowed");
    b.send(&json!({"t": "chat-mode", "mode": "free"})).await;
    a.until("chat-settings").await;
    a.send(&text("  ready?\n\u{202e}")).await;
    let free = line(&mut b).await;
    assert_eq!(line(&mut a).await, free);
    assert_eq!(
        (free["n"].clone(), free["text"].clone()),
        (json!(2), json!("ready?"))
    );
    // A spectator listens only to the spectators' room; anonymous, it may not speak.
    let mut watcher = server.seat(&game, None).await;
    let state = watcher.until("state").await;
    assert_eq!(state["chat"]["name"], Value::Null);
    assert_eq!(state["chat"]["seats"], Value::Null);
    watcher.send(&say("hello")).await;
    assert_eq!(refusal(&mut watcher).await, "chat-not-allowed");
    watcher.send(&json!({"t": "auth", "key": "nope"})).await;
    assert_eq!(refusal(&mut watcher).await, "bad-key");
    watcher.send(&json!({"t": "auth", "key": keys[2]})).await;
    assert_eq!(watcher.until("chat-settings").await["name"], "dalisay");
    watcher.send(&text("white will win this")).await;
    let comment = line(&mut watcher).await;
    assert_eq!(
        (
            comment["room"].clone(),
            comment["n"].clone(),
            comment["side"].clone()
        ),
        (json!("spectators"), json!(1), Value::Null)
    );
    // The seats hear none of it, and the spectator none of theirs.
    b.send(&say("your-move")).await;
    assert_eq!(line(&mut a).await["phrase"], "your-move");
    assert!(!a.transcript.iter().any(|f| f.contains("white will win")));
    assert!(!b.transcript.iter().any(|f| f.contains("white will win")));
    assert!(
        !watcher
            .transcript
            .iter()
            .any(|f| f.contains("ready?") || f.contains("your-move"))
    );
    // A second spectator opening now gets the spectators' room so far, nothing of the seats'.
    let mut late = server.seat(&game, None).await;
    late.until("state").await;
    assert_eq!(line(&mut late).await["text"], "white will win this");
    server.stop().await;
}

#[tokio::test]
async fn a_line_is_never_an_event_and_the_arbiters_words_stay_the_arbiters() {
    let server = start(72).await;
    let mut table = Table::open(&server, json!({})).await;
    let game = random_game(72, 4);
    table.set_up(&game).await;
    // A friend's game: free lines on both sides by default.
    let forged = r#"{"t":"ply","v":99,"outcome":"win"} the arbiter: your Spy lost"#;
    table.seats[0].send(&text(forged)).await;
    let heard = line(&mut table.seats[1]).await;
    assert_eq!(heard["t"], "chat");
    assert_eq!(heard["text"], forged);
    assert!(heard.get("v").is_none() && heard.get("outcome").is_none());
    // The next event's version follows the last event's: a line took none.
    let events = table.replay(&game, 0, 1).await;
    assert_eq!(events[0]["v"], table.v);
    assert_eq!(events[0]["v"], 4);
    server.stop().await;
}

#[tokio::test]
async fn mute_is_for_the_muter_alone_and_chat_off_hears_nothing() {
    let server = start(73).await;
    let keys = register_all(&server, ["lakan", "mutya", "tala", "bituin"]).await;
    let table = Table::open(&server, json!({})).await;
    let [mut w, mut b] = table.seats;
    let mut s1 = server.seat(&table.id, None).await;
    let mut s2 = server.seat(&table.id, None).await;
    for (s, key) in [(&mut s1, &keys[2]), (&mut s2, &keys[3])] {
        s.until("state").await;
        s.send(&json!({"t": "auth", "key": key})).await;
        s.until("chat-settings").await;
    }
    // s2 mutes tala: s2 no longer hears her; s1 (tala herself) does, and so would others.
    s2.send(&json!({"t": "mute", "who": "Tala"})).await;
    assert_eq!(s2.until("chat-settings").await["muted"], json!(["tala"]));
    s1.send(&say("nice-challenge")).await;
    assert_eq!(line(&mut s1).await["name"], "tala");
    s2.send(&say("thanks")).await;
    let next = line(&mut s2).await;
    assert_eq!(
        next["name"], "bituin",
        "tala's line was hidden from s2: {next}"
    );
    assert_eq!(line(&mut s1).await["name"], "bituin");
    // Black mutes White: White's lines reach only White.
    b.send(&json!({"t": "mute", "who": "white"})).await;
    b.until("chat-settings").await;
    w.send(&say("come-and-take")).await;
    line(&mut w).await;
    b.send(&say("oops")).await;
    assert_eq!(
        line(&mut b).await["phrase"],
        "oops",
        "white's line was hidden"
    );
    assert_eq!(line(&mut w).await["phrase"], "oops");
    // Unmuted, White is heard again.
    b.send(&json!({"t": "unmute", "who": "white"})).await;
    b.until("chat-settings").await;
    w.send(&say("gg")).await;
    assert_eq!(line(&mut b).await["phrase"], "gg");
    // Chat off: Black hears nothing and may say nothing.
    b.send(&json!({"t": "chat-mode", "mode": "off"})).await;
    b.until("chat-settings").await;
    b.send(&say("hello")).await;
    assert_eq!(refusal(&mut b).await, "chat-not-allowed");
    w.send(&say("your-move")).await;
    line(&mut w).await;
    assert!(
        quiet_for(&mut b, 300).await,
        "a seat whose chat is off hears no line"
    );
    server.stop().await;
}

#[tokio::test]
async fn lines_are_held_to_their_length_words_and_rates_and_reports_reach_the_operator() {
    let blocklist = crate::common::scratch("chat").join("blocklist.txt");
    std::fs::write(&blocklist, "# the club's own\nnoob\n").unwrap();
    let server = start_on(database("chat-limits"), 74, |c| {
        c.metrics_addr = Some("127.0.0.1:0".parse().unwrap());
        c.chat_blocklist = Some(blocklist.clone());
    })
    .await;
    let table = Table::open(&server, json!({})).await;
    let [mut w, mut b] = table.seats;
    w.send(&text(&"a".repeat(201))).await;
    assert_eq!(refusal(&mut w).await, "chat-too-long");
    w.send(&text(&"é".repeat(200))).await;
    assert_eq!(
        line(&mut w).await["n"],
        1,
        "200 characters pass, whatever their bytes"
    );
    w.send(&text("you n00b")).await;
    assert_eq!(refusal(&mut w).await, "chat-blocked", "the operator's word");
    w.send(&text("you fucking cheat")).await;
    assert_eq!(refusal(&mut w).await, "chat-blocked", "a built-in word");
    w.send(&text("   ")).await;
    assert_eq!(refusal(&mut w).await, "bad-message");
    // Five lines in 10 s a socket: the sixth is refused, and says so.
    for _ in 0..4 {
        w.send(&say("thinking")).await;
        line(&mut w).await;
    }
    w.send(&say("thinking")).await;
    assert_eq!(refusal(&mut w).await, "chat-rate-limited");
    // Nobody reports its own lines.
    w.send(&json!({"t": "report", "room": "players", "n": 1}))
        .await;
    assert_eq!(refusal(&mut w).await, "bad-message");
    // Black reports White's first line; the operator lists it with its game and its text.
    b.send(&json!({"t": "report", "room": "players", "n": 1}))
        .await;
    assert_eq!(
        b.until("reported").await,
        json!({"t": "reported", "room": "players", "n": 1})
    );
    b.send(&json!({"t": "report", "room": "players", "n": 99}))
        .await;
    assert_eq!(refusal(&mut b).await, "not-found");
    b.send(&json!({"t": "report", "room": "spectators", "n": 1}))
        .await;
    assert_eq!(
        refusal(&mut b).await,
        "not-found",
        "a seat reports only what it hears"
    );
    let operator = server.running.as_ref().unwrap().metrics_addr().unwrap();
    let (status, body) = salpakan_server::client::request(operator, "GET", "/admin/reports", "")
        .await
        .unwrap();
    assert_eq!(status, 200);
    let reports: Value = serde_json::from_str(&body).unwrap();
    let report = &reports["reports"][0];
    assert_eq!(report["game"], table.id.as_str());
    assert_eq!(report["reports"], 1);
    assert_eq!(report["line"]["side"], "white", "who is reported");
    assert_eq!(report["line"]["text"], "é".repeat(200));
    assert!(report["first_ms"].as_u64().unwrap() > 0);
    assert_eq!(report["first_ms"], report["last_ms"]);
    assert_eq!(reports["next"], Value::Null);
    server.stop().await;
}

#[tokio::test]
async fn a_player_is_held_to_its_lines_a_minute_over_all_its_sockets() {
    let server = start_on(database("chat-player-rate"), 75, |c| {
        c.limits.chat_lines_per_minute = 3;
    })
    .await;
    let keys = register_all(&server, ["hiraya", "ligaya", "sinag"]).await;
    let table = Table::open(&server, json!({})).await;
    let mut sockets = Vec::new();
    for _ in 0..2 {
        let mut s = server.seat(&table.id, None).await;
        s.until("state").await;
        s.send(&json!({"t": "auth", "key": keys[0]})).await;
        s.until("chat-settings").await;
        sockets.push(s);
    }
    for i in 0..3 {
        sockets[i % 2].send(&say("hello")).await;
        line(&mut sockets[i % 2]).await;
    }
    sockets[1].send(&say("hello")).await;
    assert_eq!(refusal(&mut sockets[1]).await, "chat-rate-limited");
    server.stop().await;
}

#[tokio::test]
async fn lines_are_kept_before_anyone_hears_them_and_the_record_is_the_players_alone() {
    let db = database("chat-kept");
    let spawn = || crate::common::killable(&db);
    let (mut child, server) = spawn();
    let keys = register_all(&server, ["dakila", "marikit"]).await;
    let mut table = Table::open(&server, json!({})).await;
    let game = random_game(76, 2);
    table.set_up(&game).await;
    table.seats[0].send(&say("good-luck")).await;
    line(&mut table.seats[1]).await;
    let mut watcher = server.seat(&table.id, None).await;
    watcher.until("state").await;
    watcher.send(&json!({"t": "auth", "key": keys[0]})).await;
    watcher.until("chat-settings").await;
    watcher.send(&say("well-played")).await;
    line(&mut watcher).await;
    // While the game goes on, its chat is nobody's to read by HTTP.
    let path = format!("/api/games/{}/chat?token={}", table.id, table.tokens[0]);
    assert_eq!(server.json("GET", &path, &Value::Null).await.0, 404);
    // Killed and started again: the lines heard are there for a socket that opens.
    child.kill();
    let (_child, server) = spawn();
    let mut back = server.seat(&table.id, Some(&table.tokens[1])).await;
    back.until("state").await;
    let kept = line(&mut back).await;
    assert_eq!(
        (kept["n"].clone(), kept["phrase"].clone()),
        (json!(1), json!("good-luck"))
    );
    let mut white = server.seat(&table.id, Some(&table.tokens[0])).await;
    white.until("state").await;
    white.send(&json!({"t": "resign"})).await;
    back.until("over").await;
    // After the end: the spectators' room for anyone, the players' for its players alone.
    let (status, anyone) = server
        .json(
            "GET",
            &format!("/api/games/{}/chat", table.id),
            &Value::Null,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(anyone["players"], Value::Null);
    assert_eq!(anyone["spectators"][0]["text"], "Well played.");
    let wrong = format!("/api/games/{}/chat?token={}", table.id, "0".repeat(64));
    assert_eq!(
        server.json("GET", &wrong, &Value::Null).await.1["players"],
        Value::Null
    );
    let (_, player) = server.json("GET", &path, &Value::Null).await;
    assert_eq!(player["players"][0]["phrase"], "good-luck");
    assert_eq!(player["players"].as_array().unwrap().len(), 1);
    server.stop().await;
}

#[tokio::test]
async fn a_server_bot_greets_at_the_start_and_says_gg_at_the_end() {
    let server = start(77).await;
    let (status, created) = server
        .json(
            "POST",
            "/api/games",
            &json!({"side": "white", "opponent": "random", "first": "white"}),
        )
        .await;
    assert_eq!(status, 201);
    let id = created["game"].as_str().unwrap();
    let mut seat = server.seat(id, created["token"].as_str()).await;
    let state = seat.until("state").await;
    assert_eq!(
        state["chat"]["seats"],
        json!({"white": "presets", "black": "presets"})
    );
    let dealt = random_game(77, 0);
    let setup = crate::common::cells(dealt.setup(Side::White).unwrap());
    seat.send(&json!({"t": "setup", "cells": setup})).await;
    seat.until("start").await;
    let hello = line(&mut seat).await;
    assert_eq!(
        (
            hello["side"].clone(),
            hello["bot"].clone(),
            hello["phrase"].clone(),
            hello["name"].clone()
        ),
        (
            json!("black"),
            json!(true),
            json!("hello"),
            json!("bot-random")
        )
    );
    seat.send(&json!({"t": "resign"})).await;
    seat.until("over").await;
    assert_eq!(line(&mut seat).await["phrase"], "gg");
    server.stop().await;
}

#[tokio::test]
async fn chat_frames_and_requests_are_refused_by_name() {
    let server = start(78).await;
    let table = Table::open(&server, json!({})).await;
    let [mut w, _b] = table.seats;
    for (bad, code) in [
        (json!({"t": "say"}), "bad-message"),
        (
            json!({"t": "say", "phrase": "gg", "text": "gg"}),
            "bad-message",
        ),
        (
            json!({"t": "say", "phrase": "your-spy-lost"}),
            "bad-message",
        ),
        (json!({"t": "chat-mode", "mode": "loud"}), "bad-message"),
        (json!({"t": "mute", "who": ""}), "bad-message"),
        (json!({"t": "auth", "key": "x"}), "bad-message"),
        (
            json!({"t": "report", "room": "spectators", "n": 1}),
            "not-found",
        ),
    ] {
        w.send(&bad).await;
        assert_eq!(refusal(&mut w).await, code, "{bad}");
    }
    tokio::time::sleep(Duration::from_millis(10)).await;
    server.stop().await;
}

#[tokio::test]
async fn a_room_keeps_its_lines_up_to_its_bound_each_seat_its_share() {
    let server = crate::common::start_busy(79).await;
    let table = Table::open(&server, json!({})).await;
    let [mut w, mut b] = table.seats;
    let most = salpakan_server::chat::MAX_LINES;
    let share = salpakan_server::chat::SEAT_SHARE;
    assert_eq!(share * 2, most);
    for _ in 0..share {
        w.send(&say("thinking")).await;
    }
    for n in 1..=share {
        assert_eq!(line(&mut b).await["n"], n as u64);
    }
    // White's share is said: White is refused, Black still has all of its own.
    w.send(&say("thinking")).await;
    assert_eq!(refusal(&mut w).await, "chat-full");
    for _ in 0..share {
        b.send(&say("well-played")).await;
    }
    for n in share + 1..=most {
        let said = line(&mut w).await;
        assert_eq!(
            (said["n"].as_u64(), said["side"].as_str()),
            (Some(n as u64), Some("black"))
        );
    }
    for seat in [&mut w, &mut b] {
        seat.send(&say("thinking")).await;
        assert_eq!(refusal(seat).await, "chat-full");
    }
    // A socket that opens now gets the room's lines, all of them, once each.
    let mut again = server.seat(&table.id, Some(&table.tokens[1])).await;
    again.until("state").await;
    for n in 1..=most {
        assert_eq!(line(&mut again).await["n"], n as u64);
    }
    server.stop().await;
}

#[tokio::test]
async fn a_seat_mutes_at_most_its_bound_and_the_next_is_refused_by_its_own_code() {
    let server = crate::common::start_busy(83).await;
    let table = Table::open(&server, json!({})).await;
    let [mut w, _b] = table.seats;
    let most = 50;
    for n in 0..most {
        w.send(&json!({"t": "mute", "who": format!("player_{n}")}))
            .await;
        let muted = w.until("chat-settings").await;
        assert_eq!(muted["muted"].as_array().map(Vec::len), Some(n + 1));
    }
    w.send(&json!({"t": "mute", "who": "one_more"})).await;
    assert_eq!(refusal(&mut w).await, "too-many-muted");
    // The room is not full: the seat still talks.
    w.send(&say("thinking")).await;
    assert_eq!(line(&mut w).await["n"], 1);
    server.stop().await;
}

/// The operator pages through every reported line, each once with how many reported it and
/// oldest first, or one player's; a reporter makes at most ten reports an hour.
#[tokio::test]
async fn the_operator_pages_through_reported_lines_and_a_reporter_is_bounded() {
    let server = start_on(database("chat-reports"), 84, |c| {
        c.metrics_addr = Some("127.0.0.1:0".parse().unwrap());
        c.limits.chat_lines_per_socket = 1_000;
        c.limits.chat_lines_per_minute = 1_000;
        c.limits.messages_per_window = 100_000;
    })
    .await;
    let keys = register_all(&server, ["sabi", "dinig", "masid"]).await;
    let table = Table::open(&server, json!({})).await;
    let [mut w, mut b] = table.seats;
    let mut spectators = Vec::new();
    for key in &keys {
        let mut s = server.seat(&table.id, None).await;
        s.until("state").await;
        s.send(&json!({"t": "auth", "key": key})).await;
        s.until("chat-settings").await;
        spectators.push(s);
    }
    // Sabi says a line among the spectators; the other two report it: one entry, two reports.
    spectators[0].send(&say("hello")).await;
    line(&mut spectators[0]).await;
    for s in &mut spectators[1..] {
        s.send(&json!({"t": "report", "room": "spectators", "n": 1}))
            .await;
        s.until("reported").await;
    }
    spectators[0]
        .send(&json!({"t": "report", "room": "spectators", "n": 1}))
        .await;
    assert_eq!(
        refusal(&mut spectators[0]).await,
        "bad-message",
        "its own line"
    );
    // White says twelve lines; Black reports them: ten an hour, the rest refused.
    for _ in 0..12 {
        w.send(&say("thinking")).await;
        line(&mut w).await;
    }
    for n in 1..=12u64 {
        b.send(&json!({"t": "report", "room": "players", "n": n}))
            .await;
        if n <= 10 {
            b.until("reported").await;
        } else {
            assert_eq!(refusal(&mut b).await, "chat-rate-limited", "report {n}");
        }
    }
    let operator = server.running.as_ref().unwrap().metrics_addr().unwrap();
    let page = |query: String| async move {
        let (status, body) = salpakan_server::client::request(
            operator,
            "GET",
            &format!("/admin/reports{query}"),
            "",
        )
        .await
        .unwrap();
        (
            status,
            serde_json::from_str::<Value>(&body).unwrap_or(Value::String(body)),
        )
    };
    // Every page of four, in order: eleven lines, each once.
    let mut seen = Vec::new();
    let mut after = String::new();
    loop {
        let (status, reply) = page(format!("?limit=4{after}")).await;
        assert_eq!(status, 200, "{reply}");
        let entries = reply["reports"].as_array().unwrap();
        assert!(entries.len() <= 4);
        seen.extend(entries.iter().cloned());
        match reply["next"].as_str() {
            Some(next) => after = format!("&after={next}"),
            None => break,
        }
    }
    assert_eq!(seen.len(), 11, "{seen:?}");
    let firsts: Vec<u64> = seen
        .iter()
        .map(|e| e["first_ms"].as_u64().unwrap())
        .collect();
    assert!(
        firsts.windows(2).all(|w| w[0] <= w[1]),
        "oldest first: {firsts:?}"
    );
    assert_eq!(seen[0]["line"]["name"], "sabi");
    assert_eq!(seen[0]["reports"], 2);
    assert!(
        seen[1..]
            .iter()
            .all(|e| e["reports"] == 1 && e["line"]["side"] == "white")
    );
    let mut numbers: Vec<u64> = seen[1..]
        .iter()
        .map(|e| e["line"]["n"].as_u64().unwrap())
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=10).collect::<Vec<u64>>());
    // One player's lines only.
    let (_, sabi) = page("?player=SABI".into()).await;
    assert_eq!(sabi["reports"].as_array().unwrap().len(), 1, "{sabi}");
    // A query that is not one is refused by name.
    for bad in ["?limit=0", "?limit=201", "?after=nonsense", "?sort=new"] {
        let (status, reply) = page(bad.into()).await;
        assert_eq!(
            (status, reply["error"].as_str()),
            (400, Some("bad-message")),
            "{bad}: {reply}"
        );
    }
    server.stop().await;
}
