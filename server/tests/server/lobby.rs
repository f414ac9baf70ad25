//! Players, the lobby and pairing on the real stack: names and keys (digests only in the
//! database, one 401 for every wrong key), profiles, seeks (exactly one of two simultaneous
//! accepts wins, no ghost seeks), the pools (only within a clock), `paired` to its player
//! alone, and a restart.

use salpakan::Side;
use salpakan_server::client::request_as;
use serde_json::{Value, json};

use crate::common::call;
use crate::common::post_as;
use crate::common::{
    as_player, database, from_address, player_socket, player_sockets, quiet_for, random_game,
    register, register_all, socket, start, start_on,
};

#[tokio::test]
async fn names_keys_and_profiles() {
    let db = database("players");
    let server = start_on(db.clone(), 41, |_| {}).await;
    let key = register(&server, "Maria_S").await;
    assert_eq!(key.len(), 64, "256 bits");
    for (name, status, code) in [
        ("maria_s", 409, "name-taken"),
        ("MARIA_S", 409, "name-taken"),
        ("bot-greedy", 409, "name-taken"),
        ("BOT-Anyone", 409, "name-taken"),
        // Look-alikes of a player's name, and names that read as a bot's.
        ("Mar1a_S", 409, "name-taken"),
        ("maria-s", 409, "name-taken"),
        ("MAR1A-5", 201, ""),
        ("bot_random", 409, "name-taken"),
        ("b0t-greedy", 409, "name-taken"),
        ("B0T_x", 409, "name-taken"),
        ("ab", 400, "bad-name"),
        ("a b c", 400, "bad-name"),
        ("x".repeat(21).as_str(), 400, "bad-name"),
    ] {
        let (got, reply) = as_player(
            &server,
            None,
            "POST",
            "/api/players",
            &json!({"name": name}),
        )
        .await;
        assert_eq!(
            (got, reply["error"].as_str().unwrap_or_default()),
            (status, code),
            "{name}: {reply}"
        );
    }
    let (status, profile) = call(&server, None, "GET", "/api/players/MARIA_s").await;
    assert_eq!(status, 200);
    assert_eq!(
        profile,
        json!({"name": "Maria_S", "bot": false, "rating": 1500, "rd": 350, "provisional": true,
               "title": "Recruit", "games": 0, "won": 0, "lost": 0, "drawn": 0, "history": []})
    );
    for bot in [
        "bot-random",
        "bot-greedy",
        "bot-ismcts",
        "bot-level-1",
        "bot-level-8",
    ] {
        let (status, profile) = call(&server, None, "GET", &format!("/api/players/{bot}")).await;
        assert_eq!((status, &profile["bot"]), (200, &json!(true)), "{profile}");
    }
    let (status, _) = call(&server, None, "GET", "/api/players/nobody").await;
    assert_eq!(status, 404);
    // Every kind of wrong key gets the same reply, byte for byte.
    let other = register(&server, "Jose").await;
    let mut replies = Vec::new();
    for header in [
        None,
        Some("wrong"),
        Some(&other[..63]),
        Some(""),
        Some("Basic x"),
    ] {
        let head = header.map(|h| h.to_owned());
        let reply = request_as(
            None,
            server.addr,
            "POST",
            "/api/seeks",
            "{}",
            head.as_deref(),
        )
        .await
        .unwrap();
        replies.push(reply);
    }
    let malformed = salpakan_server::client::request(server.addr, "POST", "/api/pool", "{}")
        .await
        .unwrap();
    replies.push(malformed);
    for reply in &replies {
        assert_eq!(reply.0, 401);
        assert_eq!(
            reply.1,
            r#"{"error":"bad-key","message":"a player's key is needed, and this is not one"}"#
        );
    }
    // A player socket with a wrong key, or none in time, is closed with 4401.
    let mut wrong = socket(&server, "/api/players/socket").await;
    wrong
        .send(&json!({"t": "auth", "key": "0".repeat(64)}))
        .await;
    assert_eq!(wrong.until_close().await, 4401);
    let mut welcome = socket(&server, "/api/players/socket").await;
    welcome.send(&json!({"t": "auth", "key": key})).await;
    assert_eq!(
        welcome.recv().await,
        json!({"t": "welcome", "name": "Maria_S"})
    );
    welcome.send(&json!({"t": "ping"})).await;
    assert_eq!(welcome.recv().await, json!({"t": "pong"}));
    server.stop().await;
    // The database holds the keys' digests only.
    let text = crate::common::stored_text(&db);
    assert!(
        !text.contains(&key) && !text.contains(&other),
        "a key is stored"
    );
    for k in [&key, &other] {
        assert!(
            text.contains(&salpakan_server::secret::digest(k)),
            "no digest stored"
        );
    }
    // And the players are there after a restart.
    let server = start_on(db, 41, |_| {}).await;
    let (status, _) = call(&server, None, "GET", "/api/players/maria_s").await;
    assert_eq!(status, 200);
    let _welcomed = player_socket(&server, &key).await;
    server.stop().await;
}

#[tokio::test]
async fn two_accepts_at_once_make_one_game_and_paired_reaches_only_its_player() {
    let server = start(42).await;
    let [owner, a, b] = register_all(&server, ["owner", "alice", "bruno"]).await;
    // No socket, no seek.
    let seek_body = json!({"clock": {"initial_ms": 300000, "increment_ms": 3000}, "rated": true});
    let (status, reply) = post_as(&server, &owner, "/api/seeks", &seek_body).await;
    assert_eq!((status, &reply["error"]), (409, &json!("no-socket")));
    let mut lobby = socket(&server, "/api/lobby/socket").await;
    assert_eq!(
        lobby.recv().await,
        json!({"t": "lobby", "seeks": [], "playing": 0})
    );
    let mut owner_socket = player_socket(&server, &owner).await;
    let mut alice_socket = player_socket(&server, &a).await;
    let mut bruno_socket = player_socket(&server, &b).await;
    let (status, reply) = post_as(&server, &owner, "/api/seeks", &seek_body).await;
    assert_eq!(status, 201, "{reply}");
    let sid = reply["seek"].as_str().unwrap().to_owned();
    let listed = json!({"seek": sid, "name": "owner", "bot": false, "rating": 1500, "provisional": true,
        "clock": {"initial_ms": 300000, "increment_ms": 3000},
        "rules": {"setup_rows": 3, "move_limit": 0, "max_plies": null}, "rated": true,
        "setup_ms": 180000, "bots": false});
    let (_, listing) = call(&server, None, "GET", "/api/lobby").await;
    assert_eq!(listing, json!({"seeks": [listed], "playing": 0}));
    let frame = lobby.until("lobby").await;
    assert_eq!(frame["seeks"], json!([listed]));
    // Its owner cannot accept it; two others at once: exactly one game.
    let path = format!("/api/seeks/{sid}/accept");
    let (status, reply) = call(&server, Some(&owner), "POST", &path).await;
    assert_eq!((status, &reply["error"]), (409, &json!("own-seek")));
    let (first, second) = tokio::join!(
        call(&server, Some(&a), "POST", &path),
        call(&server, Some(&b), "POST", &path),
    );
    let mut statuses = [first.0, second.0];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 404], "{first:?} {second:?}");
    let (winner, winner_socket, loser_socket) = if first.0 == 200 {
        (first.1, &mut alice_socket, &mut bruno_socket)
    } else {
        (second.1, &mut bruno_socket, &mut alice_socket)
    };
    let paired = owner_socket.until("paired").await;
    assert_eq!(paired["game"], winner["game"]);
    assert_ne!(paired["side"], winner["side"]);
    assert_ne!(paired["token"], winner["token"]);
    // Nobody else hears of it: not the accepter's socket, not the other player's.
    assert!(quiet_for(winner_socket, 300).await);
    assert!(quiet_for(loser_socket, 10).await);
    let game = winner["game"].as_str().unwrap();
    for (token, side) in [
        (&paired["token"], &paired["side"]),
        (&winner["token"], &winner["side"]),
    ] {
        let mut seat = server.seat(game, token.as_str()).await;
        let state = seat.until("state").await;
        assert_eq!(&state["side"], side);
        assert_eq!(state["rated"], true);
        assert_eq!(state["phase"], "setup");
        assert!(
            state["setup_left_ms"].as_u64().is_some(),
            "both seats are taken"
        );
        let names = &state["names"];
        assert!(
            names["white"].is_string() && names["black"].is_string(),
            "{names}"
        );
    }
    let frame = lobby.until("lobby").await;
    assert_eq!(
        frame["seeks"],
        json!([]),
        "an accepted seek leaves the lobby"
    );
    // At most three seeks a player.
    for _ in 0..3 {
        let (status, _) = post_as(&server, &owner, "/api/seeks", &json!({})).await;
        assert_eq!(status, 201);
    }
    let (status, reply) = post_as(&server, &owner, "/api/seeks", &json!({})).await;
    assert_eq!((status, &reply["error"]), (429, &json!("too-many-seeks")));
    // Withdrawn by its owner only.
    let (_, listing) = call(&server, None, "GET", "/api/lobby").await;
    let sid = listing["seeks"][0]["seek"].as_str().unwrap().to_owned();
    let withdraw = async |key: &str| {
        let path = format!("/api/seeks/{sid}");
        call(&server, Some(key), "DELETE", &path).await.0
    };
    assert_eq!(withdraw(&a).await, 404);
    assert_eq!(withdraw(&owner).await, 204);
    // The owner's last player socket closes: its seeks go with it.
    drop(owner_socket);
    let mut gone = false;
    for _ in 0..50 {
        let frame = lobby.until("lobby").await;
        if frame["seeks"] == json!([]) {
            gone = true;
            break;
        }
    }
    assert!(gone, "no ghost seeks");
    let (_, listing) = call(&server, None, "GET", "/api/lobby").await;
    assert_eq!(listing["seeks"], json!([]));
    server.stop().await;
}

#[tokio::test]
async fn the_pool_pairs_only_within_a_clock() {
    let server = start(43).await;
    let keys = register_all(&server, ["ana", "ben", "cruz"]).await;
    let mut sockets = player_sockets(&server, &keys).await;
    let blitz = json!({"clock": {"initial_ms": 300000, "increment_ms": 3000}});
    let rapid = json!({"clock": {"initial_ms": 600000, "increment_ms": 0}});
    let (status, reply) = post_as(&server, &keys[0], "/api/pool", &blitz).await;
    assert_eq!(
        (status, reply),
        (202, json!({"pool": "5+3", "bot_after_ms": 30000}))
    );
    let (status, reply) = post_as(&server, &keys[1], "/api/pool", &rapid).await;
    assert_eq!(
        (status, reply),
        (202, json!({"pool": "10+0", "bot_after_ms": 30000}))
    );
    assert!(
        quiet_for(&mut sockets[0], 200).await,
        "nobody to pair with yet"
    );
    let (status, _) = post_as(&server, &keys[2], "/api/pool", &blitz).await;
    assert_eq!(status, 202);
    let ana = sockets[0].until("paired").await;
    let cruz = sockets[2].until("paired").await;
    assert_eq!(ana["game"], cruz["game"]);
    assert_ne!(ana["side"], cruz["side"]);
    assert!(
        quiet_for(&mut sockets[1], 200).await,
        "ben waits in another pool"
    );
    let game = ana["game"].as_str().unwrap();
    let (_, summary) = server.summary(game).await;
    assert_eq!(
        summary["clock"],
        json!({"white_ms": 300000, "black_ms": 300000, "running": null})
    );
    // Ben leaves his pool; nothing pairs him.
    let (status, _) = call(&server, Some(&keys[1]), "DELETE", "/api/pool").await;
    assert_eq!(status, 204);
    server.stop().await;
}

#[tokio::test]
async fn named_games_are_counted_and_rated_ones_need_keys() {
    let server = start(44).await;
    let [w, b] = register_all(&server, ["white_one", "black_one"]).await;
    // Anonymous rated: refused; a rated game against a bot is fine.
    let (status, reply) =
        as_player(&server, None, "POST", "/api/games", &json!({"rated": true})).await;
    assert_eq!((status, &reply["error"]), (401, &json!("bad-key")));
    let (status, vs_bot) = post_as(
        &server,
        &w,
        "/api/games",
        &json!({"rated": true, "opponent": "random"}),
    )
    .await;
    assert_eq!(status, 201);
    let (_, summary) = server
        .json(
            "GET",
            &format!("/api/games/{}", vs_bot["game"].as_str().unwrap()),
            &Value::Null,
        )
        .await;
    let bot_side = if vs_bot["side"] == "white" {
        "black"
    } else {
        "white"
    };
    assert_eq!(summary["names"][bot_side], "bot-random");
    assert_eq!(
        summary["names"][vs_bot["side"].as_str().unwrap()],
        "white_one"
    );
    // A rated game between two: the joiner needs a key, and not the creator's own.
    let game_body = json!({"rated": true, "side": "white", "first": "white"});
    let (status, created) = post_as(&server, &w, "/api/games", &game_body).await;
    assert_eq!(status, 201);
    let id = created["game"].as_str().unwrap();
    let join = format!("/api/games/{id}/join");
    let invite = json!({"invite": created["invite"]});
    let (status, reply) = as_player(&server, None, "POST", &join, &invite).await;
    assert_eq!((status, &reply["error"]), (401, &json!("bad-key")));
    let (status, reply) = post_as(&server, &w, &join, &invite).await;
    assert_eq!((status, &reply["error"]), (409, &json!("own-game")));
    let (status, joined) = post_as(&server, &b, &join, &invite).await;
    assert_eq!(status, 200, "{joined}");
    // Each side's two plies, then a resignation: both players' counts.
    let game = random_game(10, 4);
    let mut white = server.seat(id, created["token"].as_str()).await;
    let mut black = server.seat(id, joined["token"].as_str()).await;
    for (seat, side) in [(&mut white, Side::White), (&mut black, Side::Black)] {
        seat.until("state").await;
        let cells = crate::common::cells(game.setup(side).unwrap());
        seat.send(&json!({"t": "setup", "cells": cells})).await;
    }
    white.until("start").await;
    for (ply, report) in game.history().iter().enumerate() {
        let mover = if ply % 2 == 0 { &mut white } else { &mut black };
        let mv = report.mv.to_string();
        mover
            .send(&json!({"t": "move", "move": mv, "ply": ply}))
            .await;
        white.until("ply").await;
    }
    black.send(&json!({"t": "resign"})).await;
    let over = white.until("over").await;
    assert_eq!(over["status"]["winner"], "white");
    let (_, won) = call(&server, None, "GET", "/api/players/white_one").await;
    let (_, lost) = call(&server, None, "GET", "/api/players/black_one").await;
    assert_eq!(
        (won["games"].as_u64(), won["won"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(
        (lost["games"].as_u64(), lost["lost"].as_u64()),
        (Some(1), Some(1))
    );
    server.stop().await;
}

#[tokio::test]
async fn killed_the_server_keeps_players_and_games_and_withdraws_seeks() {
    let db = database("lobby-crash");
    let spawn = || crate::common::killable(&db);
    let (mut child, server) = spawn();
    let [a, b] = register_all(&server, ["rosa", "tomas"]).await;
    let _sockets = [
        player_socket(&server, &a).await,
        player_socket(&server, &b).await,
    ];
    let (_, seek) = post_as(&server, &a, "/api/seeks", &json!({})).await;
    let (_, open) = post_as(&server, &a, "/api/seeks", &json!({})).await;
    let accept = format!("/api/seeks/{}/accept", seek["seek"].as_str().unwrap());
    let (status, seat) = call(&server, Some(&b), "POST", &accept).await;
    assert_eq!(status, 200);
    let (_, listing) = call(&server, None, "GET", "/api/lobby").await;
    assert_eq!(
        listing["seeks"].as_array().unwrap().len(),
        1,
        "one seek still open"
    );
    child.kill();
    let (_child, server) = spawn();
    let (_, listing) = call(&server, None, "GET", "/api/lobby").await;
    assert_eq!(
        listing["seeks"],
        json!([]),
        "a seek does not outlive its socket"
    );
    let accept = format!("/api/seeks/{}/accept", open["seek"].as_str().unwrap());
    let (status, _) = call(&server, Some(&b), "POST", &accept).await;
    assert_eq!(status, 404);
    // The game in its setup, with its names and its seat, and both players with their keys.
    let mut back = server
        .seat(seat["game"].as_str().unwrap(), seat["token"].as_str())
        .await;
    let state = back.until("state").await;
    assert_eq!(state["phase"], "setup");
    assert_eq!(state["names"][seat["side"].as_str().unwrap()], "tomas");
    assert!(state["setup_left_ms"].as_u64().is_some());
    let _welcomed = [
        player_socket(&server, &a).await,
        player_socket(&server, &b).await,
    ];
    let (status, _) = post_as(&server, &a, "/api/seeks", &json!({})).await;
    assert_eq!(status, 201, "a new seek, from a new socket");
}

/// A player's profile.
async fn profile(server: &crate::common::Server, name: String) -> Value {
    let path = format!("/api/players/{name}");
    let (status, profile) = call(server, None, "GET", &path).await;
    assert_eq!(status, 200, "{profile}");
    profile
}

/// The bots start from their measured strengths (level 5 where a new player starts), in the
/// ladder's order; after a restart a bot that played keeps what it earned, and one that has
/// not is seeded again.
#[tokio::test]
async fn bots_start_from_their_measured_strengths() {
    let db = database("bot-seeds");
    let server = start_on(db.clone(), 47, |_| {}).await;
    let mut ratings = Vec::new();
    for level in 1..=8 {
        let shown = profile(&server, format!("bot-level-{level}")).await;
        assert_eq!(
            (&shown["rd"], &shown["provisional"]),
            (&json!(150), &json!(true)),
            "{shown}"
        );
        ratings.push(shown["rating"].as_i64().unwrap());
    }
    assert!(ratings.windows(2).all(|w| w[0] < w[1]), "{ratings:?}");
    assert_eq!(ratings[4], 1500);
    let random = profile(&server, "bot-random".into()).await["rating"]
        .as_i64()
        .unwrap();
    assert!(random < ratings[0]);
    server.stop().await;
    crate::common::exec(
        &db,
        "UPDATE players SET rating = 1234, games = 3 WHERE name = 'bot-level-2';
         UPDATE players SET rating = 1500, rd = 350 WHERE name = 'bot-level-3'",
    );
    let server = start_on(db, 48, |_| {}).await;
    let kept = profile(&server, "bot-level-2".into()).await;
    assert_eq!(kept["rating"], 1234, "{kept}");
    let seeded = profile(&server, "bot-level-3".into()).await;
    assert_eq!(
        (seeded["rating"].as_i64(), &seeded["rd"]),
        (Some(ratings[2]), &json!(150))
    );
    server.stop().await;
}

#[tokio::test]
async fn a_player_alone_in_a_pool_plays_a_server_bot() {
    let server = start_on(database("pool-bot"), 46, |c| {
        c.limits.pool_bot_after = Some(std::time::Duration::from_millis(300));
    })
    .await;
    let key = register(&server, "solo").await;
    let mut mine = player_socket(&server, &key).await;
    let (status, _) = post_as(&server, &key, "/api/pool", &json!({})).await;
    assert_eq!(status, 202);
    let paired = mine.until("paired").await;
    let game = paired["game"].as_str().unwrap();
    let (_, summary) = server.summary(game).await;
    let side = paired["side"].as_str().unwrap();
    let bot = if side == "white" { "black" } else { "white" };
    assert_eq!(summary["players"][bot], "bot");
    // The bot whose seeded rating is closest to a new player's 1500: level 5.
    assert_eq!(summary["names"][bot], "bot-level-5");
    assert_eq!(summary["names"][side], "solo");
    // Leaving the pool in time keeps the bot away.
    let (status, _) = post_as(&server, &key, "/api/pool", &json!({})).await;
    assert_eq!(status, 202);
    let (status, _) = call(&server, Some(&key), "DELETE", "/api/pool").await;
    assert_eq!(status, 204);
    assert!(quiet_for(&mut mine, 600).await, "no pairing after leaving");
    server.stop().await;
}

#[tokio::test]
async fn an_accept_refused_leaves_the_seek_open() {
    let server = start_on(database("accept-refused"), 49, |c| {
        c.limits.games_per_ip = 1
    })
    .await;
    let [owner, full] = register_all(&server, ["owner", "full"]).await;
    let _sockets = player_sockets(&server, &[owner.clone(), full.clone()]).await;
    let (status, reply) = post_as(&server, &owner, "/api/seeks", &json!({})).await;
    assert_eq!(status, 201, "{reply}");
    let sid = reply["seek"].as_str().unwrap().to_owned();
    // The accepter's address already holds its one unfinished game.
    let (status, _) = server.json("POST", "/api/games", &json!({})).await;
    assert_eq!(status, 201);
    let path = format!("/api/seeks/{sid}/accept");
    for _ in 0..3 {
        let (status, reply) = call(&server, Some(&full), "POST", &path).await;
        assert_eq!((status, &reply["error"]), (429, &json!("too-many-games")));
    }
    let (_, listing) = call(&server, None, "GET", "/api/lobby").await;
    let open: Vec<&Value> = listing["seeks"].as_array().unwrap().iter().collect();
    assert_eq!(open.len(), 1, "{listing}");
    assert_eq!(open[0]["seek"], sid.as_str());
    server.stop().await;
}

#[tokio::test]
async fn a_pool_wait_costs_nothing_once_it_ends_and_joins_are_counted() {
    let server = start_on(database("pool-churn"), 50, |c| {
        c.limits.pool_joins_per_minute = 10_000;
        c.limits.pool_joins_per_ip_minute = 10_000;
        c.limits.requests_per_minute = 100_000;
        c.limits.connects_per_minute = 100_000;
    })
    .await;
    let [ana] = register_all(&server, ["ana"]).await;
    let _socket = player_socket(&server, &ana).await;
    let alive = || {
        tokio::runtime::Handle::current()
            .metrics()
            .num_alive_tasks()
    };
    let body = json!({"clock": {"initial_ms": 300000, "increment_ms": 3000}});
    let settle = async || {
        let before = alive();
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        before
    };
    let before = settle().await;
    for _ in 0..200 {
        let (status, _) = post_as(&server, &ana, "/api/pool", &body).await;
        assert_eq!(status, 202);
        let (status, _) = call(&server, Some(&ana), "DELETE", "/api/pool").await;
        assert_eq!(status, 204);
    }
    // Each request's connection task ends with it; no wait leaves a task behind.
    let mut after = settle().await;
    for _ in 0..40 {
        if after <= before + 4 {
            break;
        }
        after = settle().await;
    }
    assert!(
        after <= before + 4,
        "{before} tasks before 200 joins, {after} after"
    );
    server.stop().await;

    // A player's joins, and its address's, are bounded a minute.
    let server = start_on(database("pool-joins"), 51, |c| {
        c.limits.pool_joins_per_minute = 3;
        c.limits.pool_joins_per_ip_minute = 5;
    })
    .await;
    let keys = register_all(&server, ["ana", "ben", "cruz"]).await;
    let _sockets = player_sockets(&server, &keys).await;
    let join = async |key: &str, from: [u8; 4]| {
        let body = json!({});
        let (status, reply) =
            from_address(&server, (from[3], Some(key)), "POST", "/api/pool", &body).await;
        (status, reply["error"].as_str().unwrap_or("").to_owned())
    };
    let ok = (202, String::new());
    let limited = (429, "rate-limited".to_owned());
    for _ in 0..3 {
        assert_eq!(join(&keys[0], [127, 0, 0, 1]).await, ok);
    }
    assert_eq!(
        join(&keys[0], [127, 0, 0, 1]).await,
        limited,
        "the player's 4th"
    );
    assert_eq!(join(&keys[1], [127, 0, 0, 1]).await, ok);
    assert_eq!(join(&keys[1], [127, 0, 0, 1]).await, ok);
    assert_eq!(
        join(&keys[1], [127, 0, 0, 1]).await,
        limited,
        "the address's 6th"
    );
    assert_eq!(join(&keys[2], [127, 0, 0, 2]).await, ok, "another address");
    server.stop().await;
}

#[tokio::test]
async fn no_set_of_addresses_can_lock_the_lobby_or_hide_a_new_seek() {
    let server = start_on(database("lobby-fair"), 52, |c| {
        c.limits.lobby_sockets = 4;
        c.limits.lobby_sockets_per_ip = 2;
        c.limits.lobby_shown = 6;
    })
    .await;
    let open = async |last: u8| {
        let from = Some(std::net::IpAddr::from([127, 0, 0, last]));
        salpakan_server::client::Socket::open(from, server.addr, "/api/lobby/socket").await
    };
    // Two addresses fill the lobby's four sockets, two each; a third of one is refused.
    let mut held = Vec::new();
    for last in [2, 2, 3, 3] {
        let mut socket = open(last).await.expect("a lobby socket");
        assert!(matches!(
            socket.next().await,
            Some(salpakan_server::client::Frame::Text(_))
        ));
        held.push(socket);
    }
    let refused = open(2).await.err().expect("the address's share is two");
    assert_eq!(
        refused.body().map(|b| b.error.word()),
        Some("too-many-connections")
    );
    // A newcomer gets in: an address holding the most gives its oldest socket up (1008).
    let mut newcomer = open(4).await.expect("the newcomer's lobby socket");
    assert!(matches!(
        newcomer.next().await,
        Some(salpakan_server::client::Frame::Text(_))
    ));
    let mut closed = 0;
    for socket in &mut held {
        let next = tokio::time::timeout(std::time::Duration::from_millis(300), socket.next()).await;
        if let Ok(Some(salpakan_server::client::Frame::Close(code))) = next {
            assert_eq!(code, 1008);
            closed += 1;
        }
    }
    assert_eq!(closed, 1, "exactly one socket gave its place up");

    // Nine seeks of one address's three players; then a tenth from another address.
    let names = ["ana", "ben", "cyd", "dan"];
    let keys = register_all(&server, names).await;
    let _sockets = player_sockets(&server, &keys).await;
    let seek = async |key: &str, last: u8| {
        let from = Some(std::net::IpAddr::from([127, 0, 0, last]));
        let (status, text) = request_as(from, server.addr, "POST", "/api/seeks", "{}", Some(key))
            .await
            .unwrap();
        assert_eq!(status, 201, "{text}");
        serde_json::from_str::<Value>(&text).unwrap()["seek"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let mut made = Vec::new();
    for key in &keys[..3] {
        for _ in 0..3 {
            made.push(seek(key, 5).await);
        }
    }
    let newest = seek(&keys[3], 6).await;
    made.push(newest.clone());
    // The first page: the new seek first, then two of the busy address's, newest first.
    let page = async |after: Option<&str>| {
        let path = after.map_or("/api/lobby".to_owned(), |sid| {
            format!("/api/lobby?after={sid}")
        });
        let (_, listing) = call(&server, None, "GET", &path).await;
        listing["seeks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["seek"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    let first = page(None).await;
    assert_eq!(first, [newest.clone(), made[8].clone(), made[7].clone()]);
    // Every seek is reached by paging after the last one shown.
    let mut seen = first;
    loop {
        let next = page(seen.last().map(String::as_str)).await;
        if next.is_empty() {
            break;
        }
        assert!(next.len() <= 2, "{next:?}");
        seen.extend(next);
    }
    made.reverse();
    assert_eq!(seen, made, "newest first, every one");
    server.stop().await;
}
