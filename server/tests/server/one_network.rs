//! One network is not one person: two players at one client address (a family's router, a
//! school, a café, a carrier's shared address) play rated once both ratings are settled,
//! within bounds of their own; a game asked rated and played unrated says why, to both
//! seats, before the first move and at the end. And how far one address's accounts can
//! climb under those bounds, simulated with the server's own rating code.

use salpakan::Side;
use salpakan_server::Limits;
use salpakan_server::rating::glicko::Glicko;
use salpakan_server::rating::{GameResult, settle, title};
use serde_json::{Value, json};

use crate::common::{
    Seat, Server, database, exec, from_address, random_prefix, register_all, start_on,
};

/// A game asked rated by `white` at 127.0.0.`at.0`, joined by `black` at 127.0.0.`at.1`:
/// its id, and both seats' sockets once each has its `state`.
async fn seated(
    server: &Server,
    (white, black): (&str, &str),
    at: (u8, u8),
) -> (String, [Seat; 2], [Value; 2]) {
    let body = json!({"rated": true, "side": "white", "first": "white"});
    let (status, made) =
        from_address(server, (at.0, Some(white)), "POST", "/api/games", &body).await;
    assert_eq!(status, 201, "{made}");
    let id = made["game"].as_str().unwrap().to_owned();
    let invite = json!({"invite": made["invite"]});
    let join = format!("/api/games/{id}/join");
    let (status, joined) = from_address(server, (at.1, Some(black)), "POST", &join, &invite).await;
    assert_eq!(status, 200, "{joined}");
    let mut w = server.seat(&id, made["token"].as_str()).await;
    let mut b = server.seat(&id, joined["token"].as_str()).await;
    let states = [w.until("state").await, b.until("state").await];
    (id, [w, b], states)
}

/// Plays `plies` plies of a random game on `seats`, then White resigns: both `over` frames.
async fn played(seats: &mut [Seat; 2], plies: usize, seed: u64) -> [Value; 2] {
    let game = random_prefix(2 * seed, plies);
    for (seat, side) in seats.iter_mut().zip(Side::ALL) {
        let cells = crate::common::cells(game.setup(side).unwrap());
        seat.send(&json!({"t": "setup", "cells": cells})).await;
    }
    seats[0].until("start").await;
    for (ply, report) in game.history()[..plies].iter().enumerate() {
        let mv = json!({"t": "move", "move": report.mv.to_string(), "ply": ply});
        seats[ply % 2].send(&mv).await;
        seats[0].until("ply").await;
        seats[1].until("ply").await;
    }
    seats[0].send(&json!({"t": "resign"})).await;
    [seats[0].until("over").await, seats[1].until("over").await]
}

#[tokio::test]
async fn settled_players_of_one_address_play_rated_within_their_bounds_and_hear_why_not() {
    let db = database("one-network");
    let tweak = |c: &mut salpakan_server::Config| {
        c.limits.rated_one_address = false;
        c.limits.rated_one_address_pair_day = 2;
        c.limits.rated_one_address_day = 3;
    };
    let server = start_on(db.clone(), 95, tweak).await;
    let names = ["ate", "kuya", "bunso", "bago"];
    let [ate, kuya, bunso, bago] = register_all(&server, names).await;
    server.stop().await;
    // Three of them have played elsewhere: settled ratings (not provisional).
    exec(
        &db,
        "UPDATE players SET rd = 90 WHERE name IN ('ate', 'kuya', 'bunso')",
    );
    let server = start_on(db.clone(), 96, tweak).await;

    // A new account and a settled one at one address: unrated, and both seats are told why
    // before the first move; the summary says it too.
    let (id, mut seats, states) = seated(&server, (&bago, &ate), (3, 3)).await;
    for state in &states {
        assert_eq!(
            (&state["rated"], &state["unrated"]),
            (&json!(false), &json!("same-address"))
        );
    }
    let (_, summary) = server.summary(&id).await;
    assert_eq!(summary["unrated"], "same-address", "{summary}");
    // ... and at the end.
    for over in played(&mut seats, 4, 3).await {
        assert_eq!(over["unrated"], "same-address", "{over}");
    }

    // Two settled players at one address: rated, and nothing to tell.
    let mut rated = Vec::new();
    for (white, black) in [
        (&ate, &kuya),
        (&kuya, &ate),
        (&ate, &kuya),
        (&ate, &bunso),
        (&kuya, &bunso),
    ] {
        let (id, mut seats, states) = seated(&server, (white, black), (3, 3)).await;
        let overs = played(&mut seats, 4, rated.len() as u64 + 10).await;
        // What each seat was told at the start, it is told at the end.
        for (state, over) in states.iter().zip(&overs) {
            assert_eq!(state["unrated"], over["unrated"], "{state} {over}");
        }
        rated.push((id, states[0]["rated"].clone(), states[0]["unrated"].clone()));
    }
    let seen: Vec<(Value, Value)> = rated
        .iter()
        .map(|(_, r, u)| (r.clone(), u.clone()))
        .collect();
    assert_eq!(
        seen,
        [
            (json!(true), Value::Null),
            (json!(true), Value::Null),
            // The pair's third today.
            (json!(false), json!("same-address-day")),
            // The address's third among its own players today.
            (json!(true), Value::Null),
            (json!(false), json!("same-address-day")),
        ],
    );
    // The rated ones moved the ratings; a game rated at its start but ended before each
    // side's second ply says "early" at its end.
    let (_, ate_profile) = crate::common::call(&server, None, "GET", "/api/players/ate").await;
    assert_ne!(ate_profile["rating"], 1500, "{ate_profile}");
    let (_, mut seats, states) = seated(&server, (&bunso, &kuya), (4, 5)).await;
    assert_eq!(states[0]["rated"], true);
    assert!(states[0].get("unrated").is_none(), "{}", states[0]);
    for over in played(&mut seats, 1, 21).await {
        assert_eq!(over["unrated"], "early", "{over}");
    }
    server.stop().await;
}

/// How far one address's accounts climb in a day and in a week under the default bounds,
/// played by the farmer's best plan: one account wins every game the bounds let it rate
/// against the others, each opponent a new account settled elsewhere (1500, RD 110: the best
/// an account settled by even results can be), at most the pair's games each. Beside it,
/// how far one account climbs in a day with accounts at a second address under today's
/// bounds of any pair: the one-address rule adds less than a second address already gives.
#[test]
fn one_address_s_accounts_climb_less_than_a_second_address_lets_them() {
    let limits = Limits::default();
    let settled = Glicko {
        rating: 1500.0,
        rd: 110.0,
        volatility: salpakan_server::rating::INITIAL_VOLATILITY,
    };
    let farm = |start: Glicko, fodder: Glicko, (per_day, per_pair): (usize, usize), days| {
        let (mut main, mut opponents) = (start, 0);
        for _ in 0..days {
            for game in 0..per_day {
                if game % per_pair == 0 {
                    opponents += 1;
                }
                // A new opponent each `per_pair` games: the best fodder there is.
                let opponent = fodder;
                main = settle(main, opponent, GameResult::Won).0;
            }
        }
        (main, opponents)
    };
    let bounds = (
        limits.rated_one_address_day,
        limits.rated_one_address_pair_day,
    );
    let (day, _) = farm(settled, settled, bounds, 1);
    let (week, needed) = farm(settled, settled, bounds, 7);
    // A second address: a new account beats new accounts, 100 rated games a day for the
    // address, 10 a pair.
    let today = (limits.rated_per_ip_day, limits.rated_per_pair_day);
    let (second, _) = farm(Glicko::NEW, Glicko::NEW, today, 1);
    // What settling one account costs: rated games at even results against settled players
    // of other addresses until its rating is not provisional.
    let mut settling = (Glicko::NEW, 0);
    while salpakan_server::rating::provisional(settling.0.rd) {
        settling = (
            settle(settling.0, settled, GameResult::Drawn).0,
            settling.1 + 1,
        );
    }
    eprintln!(
        "one address: a day {:.0} (RD {:.0}, {}), a week {:.0} (RD {:.0}, {}), {needed} settled \
         accounts spent, each settled by {} rated games elsewhere; a second address, a day: \
         {:.0} (RD {:.0}, {})",
        day.rating,
        day.rd,
        title(day.rating, day.rd),
        week.rating,
        week.rd,
        title(week.rating, week.rd),
        settling.1,
        second.rating,
        second.rd,
        title(second.rating, second.rd),
    );
    assert!(day.rating < 1700.0, "a day: {}", day.rating);
    assert!(week.rating < 1950.0, "a week: {}", week.rating);
    assert!(
        week.rating < second.rating,
        "{} against {}",
        week.rating,
        second.rating
    );
}
