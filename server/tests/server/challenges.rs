//! Challenges of a named player, and bots kept to what allows them: a bot account hears a
//! challenge on its player socket and accepts or declines it; the game made marks the bot
//! account's seat a bot in its summary and its state; its moves keep the bots' think-time
//! floor; a bot joins only pools and seeks that allow bots.

use std::time::Duration;

use salpakan::{Game, Setup, Side};
use serde_json::{Value, json};

use crate::common::post_as;
use crate::common::{
    as_player, cells, database, player_socket, quiet_for, register, start, start_on,
};
use crate::common::{assert_refused, call, from_address};

async fn bot(server: &crate::common::Server, name: &str) -> String {
    let (status, made) = as_player(
        server,
        None,
        "POST",
        "/api/players",
        &json!({"name": name, "bot": true, "description": "a test's bot"}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    made["key"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_hears_challenges_and_accepts_or_declines_them() {
    let server = start(83).await;
    let bot_key = bot(&server, "duel_bot").await;
    let maria = register(&server, "Maria").await;
    let juan = register(&server, "Juan").await;
    let challenge = json!({"to": "duel_bot", "clock": {"initial_ms": 300_000, "increment_ms": 3_000}, "rated": true});

    // Nobody hears a challenge without a player socket: the challenger needs one to hear of
    // its game, the challenged one to hear the challenge.
    let (status, reply) = post_as(&server, &maria, "/api/challenges", &challenge).await;
    assert_refused((status, &reply), 409, "no-socket");
    let mut maria_socket = player_socket(&server, &maria).await;
    let (status, reply) = post_as(&server, &maria, "/api/challenges", &challenge).await;
    assert_refused((status, &reply), 409, "offline");
    let mut bot_socket = player_socket(&server, &bot_key).await;

    // Refusals that change nothing.
    for (body, code, status_wanted) in [
        (json!({"to": "Maria"}), "own-game", 409),
        (json!({"to": "bot-level-3"}), "bad-message", 400),
        (json!({"to": "Nobody"}), "not-found", 404),
        (
            json!({"to": "duel_bot", "clock": {"initial_ms": 0, "increment_ms": 0}}),
            "bad-clock",
            400,
        ),
        (json!({"to": 7}), "bad-message", 400),
    ] {
        let (status, reply) = post_as(&server, &maria, "/api/challenges", &body).await;
        assert_eq!(
            (status, reply["error"].as_str()),
            (status_wanted, Some(code)),
            "{body}: {reply}"
        );
    }
    let (_, list) = call(&server, Some(&bot_key), "GET", "/api/challenges").await;
    assert_eq!(list, json!({"incoming": [], "outgoing": []}));

    // Made: both hear it, the bot lists it.
    let (status, made) = post_as(&server, &maria, "/api/challenges", &challenge).await;
    assert_eq!(status, 201, "{made}");
    let cid = made["challenge"].as_str().unwrap().to_owned();
    let heard = bot_socket.until("challenge").await;
    assert_eq!(heard["challenge"], cid.as_str());
    assert_eq!(
        (
            &heard["from"],
            &heard["from_bot"],
            &heard["to"],
            &heard["to_bot"],
            &heard["rated"]
        ),
        (
            &json!("Maria"),
            &json!(false),
            &json!("duel_bot"),
            &json!(true),
            &json!(true)
        )
    );
    assert_eq!(
        heard["clock"],
        json!({"initial_ms": 300_000, "increment_ms": 3_000})
    );
    assert_eq!(maria_socket.until("challenge").await, heard);
    let mut listed = heard.clone();
    listed.as_object_mut().unwrap().remove("t");
    let (_, list) = call(&server, Some(&bot_key), "GET", "/api/challenges").await;
    assert_eq!(list["incoming"], json!([listed]));
    let (_, list) = call(&server, Some(&maria), "GET", "/api/challenges").await;
    assert_eq!(list["outgoing"], json!([listed]));

    // Only the challenged player answers it; a decline says why.
    let accept = format!("/api/challenges/{cid}/accept");
    let decline = format!("/api/challenges/{cid}/decline");
    let (status, _) = call(&server, Some(&juan), "POST", &accept).await;
    assert_eq!(status, 404);
    let (status, _) = call(&server, Some(&maria), "POST", &accept).await;
    assert_eq!(
        status, 404,
        "the challenger cannot accept its own challenge"
    );
    let (status, _) = post_as(&server, &bot_key, &decline, &json!({"reason": "later"})).await;
    assert_eq!(status, 204);
    let gone =
        json!({"t": "challenge-gone", "challenge": cid, "reason": "declined", "decline": "later"});
    assert_eq!(maria_socket.until("challenge-gone").await, gone);
    assert_eq!(bot_socket.until("challenge-gone").await, gone);
    let (status, _) = call(&server, Some(&bot_key), "POST", &decline).await;
    assert_eq!(status, 404, "a challenge ends once");
    let (status, _) = call(&server, Some(&bot_key), "POST", &accept).await;
    assert_eq!(status, 404);
    let (status, reply) = post_as(&server, &bot_key, &decline, &json!({"reason": "bored"})).await;
    assert_eq!(status, 400, "{reply}");

    // Accepted: the bot's seat in the reply, Maria's on her socket, the game rated and timed,
    // the bot marked a bot in the summary.
    let (_, made) = post_as(&server, &maria, "/api/challenges", &challenge).await;
    let cid = made["challenge"].as_str().unwrap().to_owned();
    let (status, seat) = call(
        &server,
        Some(&bot_key),
        "POST",
        &format!("/api/challenges/{cid}/accept"),
    )
    .await;
    assert_eq!(status, 200, "{seat}");
    let paired = maria_socket.until("paired").await;
    assert_eq!(paired["game"], seat["game"]);
    assert_ne!(paired["side"], seat["side"]);
    let game = seat["game"].as_str().unwrap();
    let (_, summary) = server.summary(game).await;
    let bot_side = seat["side"].as_str().unwrap();
    let maria_side = paired["side"].as_str().unwrap();
    assert_eq!(summary["names"][bot_side], "duel_bot");
    assert_eq!(summary["names"][maria_side], "Maria");
    assert_eq!(summary["bots"][bot_side], true, "{summary}");
    assert_eq!(summary["bots"][maria_side], false, "{summary}");
    assert_eq!(summary["rated"], true);
    assert_eq!(summary["clock"]["white_ms"], 300_000);
    let mut seat_socket = server.seat(game, seat["token"].as_str()).await;
    let state = seat_socket.until("state").await;
    assert_eq!(state["bots"][bot_side], true, "{state}");

    // A withdrawn challenge, and the challenger's bound of open ones.
    let mut cids = Vec::new();
    for _ in 0..5 {
        let (status, made) = post_as(&server, &maria, "/api/challenges", &challenge).await;
        assert_eq!(status, 201, "{made}");
        cids.push(made["challenge"].as_str().unwrap().to_owned());
    }
    let (status, reply) = post_as(&server, &maria, "/api/challenges", &challenge).await;
    assert_refused((status, &reply), 429, "too-many-challenges");
    let (status, _) = as_player(
        &server,
        Some(&bot_key),
        "DELETE",
        &format!("/api/challenges/{}", cids[0]),
        &Value::Null,
    )
    .await;
    assert_eq!(status, 404, "only the challenger withdraws");
    let (status, _) = as_player(
        &server,
        Some(&maria),
        "DELETE",
        &format!("/api/challenges/{}", cids[0]),
        &Value::Null,
    )
    .await;
    assert_eq!(status, 204);
    loop {
        let gone = bot_socket.until("challenge-gone").await;
        if gone["challenge"] == cids[0].as_str() {
            assert_eq!(gone["reason"], "withdrawn");
            break;
        }
    }

    // The bot goes offline: every challenge to it ends, and Maria hears so.
    drop(bot_socket);
    let mut offline = Vec::new();
    while offline.len() < 4 {
        let gone = maria_socket.until("challenge-gone").await;
        if gone["reason"] == "offline" {
            offline.push(gone["challenge"].as_str().unwrap().to_owned());
        }
    }
    offline.sort();
    let mut left = cids[1..].to_vec();
    left.sort();
    assert_eq!(offline, left);
    let (_, list) = call(&server, Some(&maria), "GET", "/api/challenges").await;
    assert_eq!(list, json!({"incoming": [], "outgoing": []}));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_join_only_pools_and_seeks_that_allow_bots() {
    let server = start(84).await;
    let bot_key = bot(&server, "pool_bot").await;
    let maria = register(&server, "Maria").await;
    let _bot_socket = player_socket(&server, &bot_key).await;
    let mut maria_socket = player_socket(&server, &maria).await;

    // People's pool and seeks: refused to the bot, nothing changed.
    let (status, reply) = post_as(&server, &bot_key, "/api/pool", &json!({})).await;
    assert_refused((status, &reply), 403, "humans-only");
    let (_, people) = post_as(&server, &maria, "/api/seeks", &json!({})).await;
    let sid = people["seek"].as_str().unwrap();
    let (status, reply) = call(
        &server,
        Some(&bot_key),
        "POST",
        &format!("/api/seeks/{sid}/accept"),
    )
    .await;
    assert_refused((status, &reply), 403, "humans-only");
    let (_, lobby) = call(&server, None, "GET", "/api/lobby").await;
    let shown = &lobby["seeks"][0];
    assert_eq!(
        (&shown["seek"], &shown["bots"]),
        (&json!(sid), &json!(false))
    );

    // A seek that allows bots: the bot takes it.
    let (_, open) = post_as(&server, &maria, "/api/seeks", &json!({"bots": true})).await;
    let sid = open["seek"].as_str().unwrap();
    let (status, seat) = call(
        &server,
        Some(&bot_key),
        "POST",
        &format!("/api/seeks/{sid}/accept"),
    )
    .await;
    assert_eq!(status, 200, "{seat}");
    assert_eq!(maria_socket.until("paired").await["game"], seat["game"]);

    // The bots' pool: a pool of its own, which people may join too.
    let (status, pool) = post_as(&server, &bot_key, "/api/pool", &json!({"bots": true})).await;
    assert_eq!(
        (status, pool["pool"].as_str()),
        (202, Some("untimed bots")),
        "{pool}"
    );
    let (status, pool) = post_as(&server, &maria, "/api/pool", &json!({})).await;
    assert_eq!((status, pool["pool"].as_str()), (202, Some("untimed")));
    assert!(
        quiet_for(&mut maria_socket, 300).await,
        "people's pool pairs no bot"
    );
    let (_, pool) = post_as(&server, &maria, "/api/pool", &json!({"bots": true})).await;
    assert_eq!(pool["pool"], "untimed bots");
    let paired = maria_socket.until("paired").await;
    let (_, summary) = server.summary(paired["game"].as_str().unwrap()).await;
    let other = paired["side"]
        .as_str()
        .unwrap()
        .parse::<Side>()
        .unwrap()
        .other();
    assert_eq!(summary["names"][other.word()], "pool_bot");
    assert_eq!(summary["bots"][other.word()], true);
    server.stop().await;
}

/// A bot account's move is applied no sooner than the floor after its turn began, however
/// soon it sends it; a person's is applied at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_accounts_moves_keep_the_think_time_floor() {
    let floor = Duration::from_millis(600);
    let server = start_on(database("floor"), 85, |c| c.bot_floor = floor).await;
    let bot_key = bot(&server, "quick_bot").await;
    let maria = register(&server, "Maria").await;
    let _bot_socket = player_socket(&server, &bot_key).await;
    let mut maria_socket = player_socket(&server, &maria).await;
    let (_, made) = post_as(&server, &maria, "/api/seeks", &json!({"bots": true})).await;
    let (_, bot_seat) = as_player(
        &server,
        Some(&bot_key),
        "POST",
        &format!("/api/seeks/{}/accept", made["seek"].as_str().unwrap()),
        &Value::Null,
    )
    .await;
    let maria_seat = maria_socket.until("paired").await;
    let game_id = bot_seat["game"].as_str().unwrap();
    let bot_side = bot_seat["side"].as_str().unwrap().parse::<Side>().unwrap();
    let mut seats = [
        server.seat(game_id, bot_seat["token"].as_str()).await,
        server.seat(game_id, maria_seat["token"].as_str()).await,
    ];
    let _ = seats[0].until("state").await;
    let setups = Side::ALL
        .map(|side| Setup::random(side, salpakan::Rules::default(), 85 + side.index() as u64));
    let sides = [bot_side, bot_side.other()];
    for (seat, side) in seats.iter_mut().zip(sides) {
        seat.send(&json!({"t": "setup", "cells": cells(&setups[side.index()])}))
            .await;
    }
    let start = seats[0].until("start").await;
    let _ = seats[1].until("start").await;
    let first = start["first"].as_str().unwrap().parse::<Side>().unwrap();
    let mut game = Game::new(
        setups[Side::White.index()].clone(),
        setups[Side::Black.index()].clone(),
        first,
        salpakan::Rules::default(),
    )
    .unwrap();
    let mut bot_waits = Vec::new();
    for ply in 0..6_u64 {
        let to_move = game.side_to_move();
        let seat = usize::from(to_move != bot_side);
        let mv = game.legal_moves()[0];
        let sent = std::time::Instant::now();
        seats[seat]
            .send(&json!({"t": "move", "move": mv.to_string(), "ply": ply}))
            .await;
        let frame = seats[seat].until("ply").await;
        let waited = sent.elapsed();
        assert_eq!(frame["ply"], ply + 1);
        game.play(mv).unwrap();
        let _ = seats[1 - seat].until("ply").await;
        if to_move == bot_side {
            bot_waits.push(waited);
        } else {
            assert!(
                waited < floor,
                "a person's move waits for no floor: {waited:?}"
            );
        }
    }
    assert_eq!(bot_waits.len(), 3);
    for waited in bot_waits {
        // The floor runs from the turn's start, a little before the move was sent.
        assert!(waited >= floor - Duration::from_millis(100), "{waited:?}");
    }
    server.stop().await;
}

/// One address cannot make a player unchallengeable: its challengers hold at most five of
/// the player's open challenges, and when the player's fifty are taken, the address holding
/// the most gives way (its oldest challenge ends, `displaced`) to a challenge of another.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holds_few_of_a_players_challenges_and_gives_way_when_full() {
    let server = start(89).await;
    let target = register(&server, "Sikat").await;
    let _target_socket = player_socket(&server, &target).await;
    let challenge = json!({"to": "Sikat"});
    let mut challengers = Vec::new();
    for n in 0..12 {
        let key = register(&server, &format!("hamon_{n}")).await;
        let socket = player_socket(&server, &key).await;
        challengers.push((key, socket));
    }
    let challenge_from = |last: u8, key: String| {
        let server = &server;
        let challenge = &challenge;
        async move {
            from_address(
                server,
                (last, Some(&key)),
                "POST",
                "/api/challenges",
                challenge,
            )
            .await
        }
    };
    // Address .2: five from its first account; its second account is refused.
    let mut first = None;
    for _ in 0..5 {
        let (status, made) = challenge_from(2, challengers[0].0.clone()).await;
        assert_eq!(status, 201, "{made}");
        first.get_or_insert(made["challenge"].as_str().unwrap().to_owned());
    }
    let (status, reply) = challenge_from(2, challengers[1].0.clone()).await;
    assert_refused((status, &reply), 429, "too-many-challenges");
    assert!(
        reply["message"].as_str().unwrap().contains("your address"),
        "{reply}"
    );
    // Nine more addresses, five each: fifty, the player's bound.
    for n in 1..10u8 {
        for _ in 0..5 {
            let (status, made) = challenge_from(2 + n, challengers[n as usize + 1].0.clone()).await;
            assert_eq!(status, 201, "address {n}: {made}");
        }
    }
    // An eleventh address still gets through; address .2's oldest gives way.
    let (status, made) = challenge_from(12, challengers[11].0.clone()).await;
    assert_eq!(status, 201, "{made}");
    let gone = challengers[0].1.until("challenge-gone").await;
    assert_eq!(
        gone,
        json!({"t": "challenge-gone", "challenge": first.unwrap(), "reason": "displaced"})
    );
    server.stop().await;
}
