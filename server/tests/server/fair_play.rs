//! Fair play: a game ended before each side has made two plies is neither rated nor counted;
//! aborts once both formations are in and early resignations are strikes, and three of them
//! in a day keep a player out of the lobby's pairings for a while.

use serde_json::{Value, json};

use crate::common::call;
use crate::common::post_as;
use crate::common::{as_player, database, from_address, player_sockets, register_all, start_on};
use crate::history::{End, play};

async fn profile(server: &crate::common::Server, name: &str) -> Value {
    let (status, profile) = call(server, None, "GET", &format!("/api/players/{name}")).await;
    assert_eq!(status, 200, "{profile}");
    profile
}

#[tokio::test]
async fn a_game_ended_early_moves_nothing_and_early_quitters_wait() {
    let db = database("early");
    let server = start_on(db.clone(), 70, |_| {}).await;
    let [ana, ben] = register_all(&server, ["ana", "ben"]).await;
    let sockets = player_sockets(&server, &[ana.clone(), ben.clone()]).await;
    // Ana resigns a rated game after her first ply: it ends, but rates and counts nothing.
    let early = play(&server, &ana, &ben, true, End::WhiteResignsEarly).await;
    for name in ["ana", "ben"] {
        let p = profile(&server, name).await;
        assert_eq!(
            (&p["rating"], &p["games"]),
            (&json!(1500), &json!(0)),
            "{p}"
        );
    }
    let (_, summary) = server.summary(&early).await;
    assert_eq!(
        (&summary["phase"], &summary["rated"]),
        (&json!("over"), &json!(false))
    );
    let (_, list) = call(&server, None, "GET", "/api/players/ana/games").await;
    assert_eq!(list["games"][0]["rated"], false, "{list}");
    // A game played past each side's second ply is rated as before.
    play(&server, &ana, &ben, true, End::BlackResigns).await;
    assert_eq!(profile(&server, "ana").await["games"], 1);
    assert!(profile(&server, "ana").await["rating"].as_i64().unwrap() > 1500);
    // The early resignation was a strike; two aborts once both formations are in make three:
    // the lobby pairs Ana with nobody for ten minutes. Ben is not struck.
    play(&server, &ana, &ben, true, End::Aborted).await;
    let pool = json!({"clock": null});
    let (status, _) = post_as(&server, &ana, "/api/pool", &pool).await;
    assert_eq!(status, 202, "two strikes ban nobody");
    let (status, _) = call(&server, Some(&ana), "DELETE", "/api/pool").await;
    assert_eq!(status, 204);
    play(&server, &ana, &ben, true, End::Aborted).await;
    for (method, path) in [("POST", "/api/pool"), ("POST", "/api/seeks")] {
        let (status, reply) = as_player(&server, Some(&ana), method, path, &pool).await;
        assert_eq!(
            (status, &reply["error"]),
            (429, &json!("play-banned")),
            "{path}"
        );
        let message = reply["message"].as_str().unwrap();
        assert!(message.contains("10 minutes"), "{message}");
    }
    let (status, reply) = post_as(&server, &ben, "/api/seeks", &pool).await;
    assert_eq!(status, 201, "{reply}");
    let sid = reply["seek"].as_str().unwrap();
    let accept = format!("/api/seeks/{sid}/accept");
    let (status, reply) = call(&server, Some(&ana), "POST", &accept).await;
    assert_eq!((status, &reply["error"]), (429, &json!("play-banned")));
    drop(sockets);
    server.stop().await;
    // The ban is kept across a restart.
    let server = start_on(db, 71, |_| {}).await;
    let _socket = player_sockets(&server, std::slice::from_ref(&ana)).await;
    let (status, reply) = post_as(&server, &ana, "/api/pool", &pool).await;
    assert_eq!((status, &reply["error"]), (429, &json!("play-banned")));
    server.stop().await;
}

/// A rated game made by the player of `white` and joined by that of `black` (each a key and
/// the last byte of its loopback address): its id, and whether it is played rated.
async fn rated_game(
    server: &crate::common::Server,
    white: (&str, u8),
    black: (&str, u8),
) -> (String, bool) {
    let body = json!({"rated": true, "side": "white"});
    let (status, made) = from_address(
        server,
        (white.1, Some(white.0)),
        "POST",
        "/api/games",
        &body,
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let id = made["game"].as_str().unwrap().to_owned();
    let join = format!("/api/games/{id}/join");
    let invite = json!({"invite": made["invite"]});
    let (status, joined) =
        from_address(server, (black.1, Some(black.0)), "POST", &join, &invite).await;
    assert_eq!(status, 200, "{joined}");
    let (_, summary) = server.summary(&id).await;
    (id, summary["rated"].as_bool().unwrap())
}

#[tokio::test]
async fn rated_games_are_bounded_by_address_pair_and_day_and_shown_to_the_operator() {
    let server = start_on(database("farming"), 72, |c| {
        c.limits.rated_one_address = false;
        c.limits.rated_per_pair_day = 2;
        c.limits.rated_per_ip_day = 3;
        c.metrics_addr = Some("127.0.0.1:0".parse().unwrap());
    })
    .await;
    let names = ["ana", "ben", "cyd", "dan", "eve", "fay", "gus"];
    let keys = register_all(&server, names).await;
    let [ana, ben, cyd, dan, eve, fay, gus] = keys.each_ref().map(String::as_str);
    // Two accounts of one address: played unrated.
    let (same, rated) = rated_game(&server, (ana, 2), (cyd, 2)).await;
    assert!(!rated, "one address's two accounts");
    // One pair: two rated games a day, the third unrated.
    let mut pair = Vec::new();
    for _ in 0..3 {
        pair.push(rated_game(&server, (ana, 2), (ben, 3)).await);
    }
    assert_eq!(
        pair.iter().map(|g| g.1).collect::<Vec<_>>(),
        [true, true, false]
    );
    // One address: three rated games a day (its two with Ben, one with Dan), then unrated.
    assert!(rated_game(&server, (ana, 2), (dan, 4)).await.1);
    let (address, rated) = rated_game(&server, (eve, 5), (ana, 2)).await;
    assert!(!rated, "127.0.0.2's fourth rated game of the day");
    // The pool pairs two accounts of one address unrated too.
    let sockets = player_sockets(&server, &[fay.to_owned(), gus.to_owned()]).await;
    let pool = json!({"rated": true});
    for key in [fay, gus] {
        let (status, _) = from_address(&server, (6, Some(key)), "POST", "/api/pool", &pool).await;
        assert_eq!(status, 202);
    }
    let mut sockets = sockets;
    let paired = sockets[0].until("paired").await;
    let (_, summary) = server.summary(paired["game"].as_str().unwrap()).await;
    assert_eq!(summary["rated"], false, "{summary}");
    // The operator sees each, newest first, with why.
    let operator = server.running.as_ref().unwrap().metrics_addr().unwrap();
    let (status, text) = salpakan_server::client::request(operator, "GET", "/admin/unrated", "")
        .await
        .unwrap();
    assert_eq!(status, 200, "{text}");
    let listed: Value = serde_json::from_str(&text).unwrap();
    let seen: Vec<(&str, &str)> = listed["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["game"].as_str().unwrap(), g["why"].as_str().unwrap()))
        .collect();
    let pool_game = paired["game"].as_str().unwrap();
    for (game, why) in [
        (same.as_str(), "same-address"),
        (pair[2].0.as_str(), "pair-day"),
        (address.as_str(), "address-day"),
        (pool_game, "same-address"),
    ] {
        assert!(seen.contains(&(game, why)), "{game} {why}: {seen:?}");
    }
    assert_eq!(seen.len(), 4, "{seen:?}");
    server.stop().await;
}

#[tokio::test]
async fn a_rematch_counts_against_its_players_games_an_hour() {
    let server = start_on(database("rematch-hourly"), 73, |c| {
        c.limits.games_per_hour = 2
    })
    .await;
    // A game made at 127.0.0.7 and joined from 127.0.0.8: one of 127.0.0.7's two an hour.
    let body = json!({"side": "white", "first": "white"});
    let (status, made) = from_address(&server, (7, None), "POST", "/api/games", &body).await;
    assert_eq!(status, 201, "{made}");
    let id = made["game"].as_str().unwrap().to_owned();
    let invite = json!({"invite": made["invite"]});
    let (status, joined) = from_address(
        &server,
        (8, None),
        "POST",
        &format!("/api/games/{id}/join"),
        &invite,
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    let mut tokens = [made["token"].clone(), joined["token"].clone()];
    let mut id = id;
    // Its rematch is 127.0.0.7's second; the rematch's rematch would be its third: refused.
    for round in 0..2 {
        let game = crate::common::random_game(2 * round + 2, 0);
        let mut seats = Vec::new();
        for token in &tokens {
            let mut seat = server.seat(&id, token.as_str()).await;
            seat.until("state").await;
            seats.push(seat);
        }
        for (seat, side) in seats.iter_mut().zip(salpakan::Side::ALL) {
            let cells = crate::common::cells(game.setup(side).unwrap());
            seat.send(&json!({"t": "setup", "cells": cells})).await;
        }
        seats[0].until("start").await;
        seats[0].send(&json!({"t": "resign"})).await;
        for seat in &mut seats {
            seat.until("over").await;
            seat.send(&json!({"t": "rematch"})).await;
        }
        if round == 1 {
            for seat in &mut seats {
                let refused = seat.until("error").await;
                assert_eq!(refused["code"], "too-many-games", "{refused}");
            }
            break;
        }
        let mut next = Vec::new();
        for seat in &mut seats {
            next.push(seat.until("rematch").await);
        }
        id = next[0]["game"].as_str().unwrap().to_owned();
        // Each seat's new token, by its new side.
        next.sort_by_key(|m| m["side"] != "white");
        tokens = [next[0]["token"].clone(), next[1]["token"].clone()];
    }
    server.stop().await;
}

#[tokio::test]
async fn an_unlisted_game_is_listed_to_its_own_players_only() {
    let server = start_on(database("unlisted"), 74, |_| {}).await;
    let [ana, ben, cyd] = register_all(&server, ["ana", "ben", "cyd"]).await;
    let mut ids = Vec::new();
    for listed in [true, false] {
        let body = json!({"listed": listed, "side": "white", "first": "white"});
        let (status, made) = post_as(&server, &ana, "/api/games", &body).await;
        assert_eq!(status, 201, "{made}");
        let id = made["game"].as_str().unwrap().to_owned();
        let join = format!("/api/games/{id}/join");
        let invite = json!({"invite": made["invite"]});
        let (status, joined) = post_as(&server, &ben, &join, &invite).await;
        assert_eq!(status, 200, "{joined}");
        let game = crate::common::random_game(4, 0);
        let mut seats = Vec::new();
        for (token, side) in [
            (&made["token"], salpakan::Side::White),
            (&joined["token"], salpakan::Side::Black),
        ] {
            let mut seat = server.seat(&id, token.as_str()).await;
            seat.until("state").await;
            let cells = crate::common::cells(game.setup(side).unwrap());
            seat.send(&json!({"t": "setup", "cells": cells})).await;
            seats.push(seat);
        }
        seats[0].until("start").await;
        seats[0].send(&json!({"t": "resign"})).await;
        seats[0].until("over").await;
        ids.push(id);
    }
    let list = async |of: &str, key: Option<&str>| {
        let path = format!("/api/players/{of}/games");
        let (status, list) = call(&server, key, "GET", &path).await;
        assert_eq!(status, 200, "{list}");
        list["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["game"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    let (listed, unlisted) = (ids[0].clone(), ids[1].clone());
    // Strangers (anonymous, or another player) see the listed game only; each of its two
    // players sees both in its own list.
    assert_eq!(list("ana", None).await, std::slice::from_ref(&listed));
    assert_eq!(list("ana", Some(&cyd)).await, std::slice::from_ref(&listed));
    assert_eq!(list("ana", Some(&ben)).await, std::slice::from_ref(&listed));
    assert_eq!(
        list("ana", Some(&ana)).await,
        [unlisted.clone(), listed.clone()]
    );
    assert_eq!(
        list("ben", Some(&ben)).await,
        [unlisted.clone(), listed.clone()]
    );
    // A stranger cannot page past it either; its link opens its record and replay.
    let path = format!("/api/players/ana/games?before={unlisted}");
    let (status, _) = call(&server, None, "GET", &path).await;
    assert_eq!(status, 400);
    for tail in ["record", "replay"] {
        let (status, _) = server
            .http("GET", &format!("/api/games/{unlisted}/{tail}"), "")
            .await;
        assert_eq!(status, 200, "{tail}");
    }
    server.stop().await;
}
