//! Tournaments through the real stack: sixteen players in a four-round Swiss with a default
//! (a player who never sets up) and byes (after a withdrawal), the standings against a
//! computation of their own, the games sealed until the end and every one verifying after
//! it; the director's tools and their log; refusals.

use std::collections::HashMap;
use std::time::Duration;

use salpakan::{Game, Side};
use salpakan_server::client::{ClientError, Socket};
use serde_json::{Value, json};

use crate::common::call;
use crate::common::post_as;
use crate::common::{
    Seat, Server, cells, database, eventually, player_sockets, random_game, register, start_on,
};

/// The tournament `tid` as `GET /api/tournaments/{tid}` gives it.
pub async fn tournament(server: &Server, tid: &str) -> Value {
    let (status, t) = call(server, None, "GET", &format!("/api/tournaments/{tid}")).await;
    assert_eq!(status, 200, "{t}");
    t
}

/// Round `round`'s boards (from 0) of tournament `t`.
pub fn boards(t: &Value, round: usize) -> &[Value] {
    t["rounds"][round]["boards"].as_array().unwrap()
}

/// The `tournament-game` frame of round `round` on a player's socket.
pub async fn told(socket: &mut Seat, round: u64) -> Value {
    loop {
        let frame = socket.recv().await;
        if frame["t"] == "tournament-game" && frame["round"] == round {
            return frame;
        }
    }
}

/// What each player scored, and the tie-breaks, computed here from the published rounds:
/// (score, played points, Buchholz, Sonneborn-Berger), by name.
fn computed(t: &Value) -> HashMap<String, (u64, u64, u64, u64)> {
    let names: Vec<String> = t["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap().to_owned())
        .collect();
    let mut score = vec![0_u64; names.len()];
    // (opponent, points) of each played game.
    let mut played: Vec<Vec<(usize, u64)>> = vec![Vec::new(); names.len()];
    for round in t["rounds"].as_array().unwrap() {
        if let Some(bye) = round["bye"].as_u64() {
            score[bye as usize] += 2;
        }
        for b in round["boards"].as_array().unwrap() {
            let (w, bl) = (
                b["white"].as_u64().unwrap() as usize,
                b["black"].as_u64().unwrap() as usize,
            );
            let result = &b["result"];
            match result["result"].as_str().unwrap() {
                "white-won" => {
                    score[w] += 2;
                    played[w].push((bl, 2));
                    played[bl].push((w, 0));
                }
                "black-won" => {
                    score[bl] += 2;
                    played[bl].push((w, 2));
                    played[w].push((bl, 0));
                }
                "draw" => {
                    score[w] += 1;
                    score[bl] += 1;
                    played[w].push((bl, 1));
                    played[bl].push((w, 1));
                }
                "default" => match result["present"].as_str() {
                    Some("white") => score[w] += 2,
                    Some("black") => score[bl] += 2,
                    _ => {}
                },
                other => panic!("unexpected result {other}"),
            }
        }
    }
    (0..names.len())
        .map(|e| {
            let points = played[e].iter().map(|(_, p)| p).sum();
            let buchholz = played[e].iter().map(|(o, _)| score[*o]).sum();
            let sb = played[e].iter().map(|(o, p)| p * score[*o]).sum::<u64>();
            (names[e].clone(), (score[e], points, buchholz, sb))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixteen_players_play_a_four_round_swiss_sealed_until_it_ends() {
    let db = database("tournament-swiss");
    let server = start_on(db.clone(), 71, |c| {
        c.limits.min_setup = Duration::from_secs(1);
        // One test client plays every seat from one address.
        c.limits.connects_per_minute = 100_000;
        c.limits.connections_per_ip = 1_000;
        c.limits.requests_per_minute = 100_000;
    })
    .await;
    let names: Vec<String> = (1..=16).map(|i| format!("p{i:02}")).collect();
    let mut keys = Vec::new();
    for name in &names {
        keys.push(register(&server, name).await);
    }
    let mut sockets = player_sockets(&server, &keys).await;

    // Made by p01, who directs it; refused settings change nothing.
    let (status, refused) = create(
        &server,
        &keys[0],
        json!({"name": "Sixteen", "kind": "swiss", "rounds": 0}),
    )
    .await;
    assert_eq!(
        (status, refused["error"].as_str()),
        (400, Some("bad-message")),
        "{refused}"
    );
    let body = json!({"name": "Sixteen", "kind": "swiss", "rounds": 4, "round_ms": 6000});
    let made = made_with(&server, &keys, &body).await;
    let tid = made["id"].as_str().unwrap().to_owned();
    assert_eq!(made["status"], "upcoming");
    let path = |what: &str| format!("/api/tournaments/{tid}/{what}");
    let (status, again) = post(&server, &keys[3], &path("register")).await;
    assert_eq!(
        (status, again["error"].as_str()),
        (403, Some("not-eligible"))
    );
    let (status, not_director) = post(&server, &keys[1], &path("start")).await;
    assert_eq!(
        (status, not_director["error"].as_str()),
        (403, Some("not-director"))
    );
    let (_, listed) = call(&server, None, "GET", "/api/tournaments").await;
    assert_eq!(listed["tournaments"][0]["id"], tid.as_str());
    assert_eq!(listed["tournaments"][0]["entrants"], 16);
    started(&server, &keys[0], &tid).await;
    // p16 withdraws at once: its first game is a default to its opponent (it never sets up),
    // and from the second round fifteen players leave a bye.
    assert_eq!(post(&server, &keys[15], &path("withdraw")).await.0, 200);

    let mut games = Vec::new();
    let mut sealed_checked = false;
    for round in 1..=4_u64 {
        let mut boards: HashMap<String, [Option<(String, usize)>; 2]> = HashMap::new();
        for (e, socket) in sockets.iter_mut().enumerate() {
            if e == 15 && round > 1 {
                continue;
            }
            let t = tournament(&server, &tid).await;
            let r = &t["rounds"][(round - 1) as usize];
            if r["bye"].as_u64() == Some(e as u64) {
                continue;
            }
            let frame = told(socket, round).await;
            let side = usize::from(frame["side"] == "black");
            let game = frame["game"].as_str().unwrap().to_owned();
            boards.entry(game).or_default()[side] =
                Some((frame["token"].as_str().unwrap().to_owned(), e));
        }
        for (n, (game, seats)) in boards.iter().enumerate() {
            let [Some((white, w)), Some((black, b))] = seats else {
                panic!("both players told of {game}: {seats:?}");
            };
            let dealt = random_game(700 + round * 20 + n as u64, 0);
            let mut sockets = [
                server.seat(game, Some(white)).await,
                server.seat(game, Some(black)).await,
            ];
            let players = [*w, *b];
            for side in Side::ALL {
                if players[side.index()] == 15 {
                    continue; // p16 never sets up
                }
                let setup = cells(dealt.setup(side).unwrap());
                sockets[side.index()]
                    .send(&json!({"t": "setup", "cells": setup}))
                    .await;
            }
            if players.contains(&15) {
                continue;
            }
            sockets[0].until("start").await;
            // The lower number wins: the other resigns.
            let loser = if w < b { Side::Black } else { Side::White };
            sockets[loser.index()].send(&json!({"t": "resign"})).await;
            let over = sockets[0].until("over").await;
            assert!(over["record"].is_string());
            if !sealed_checked {
                // Sealed: nobody but its players sees its record, replay or chat, or
                // watches it, until the tournament ends.
                for path in ["record", "replay", "chat"] {
                    let (status, reply) = server
                        .http("GET", &format!("/api/games/{game}/{path}"), "")
                        .await;
                    assert_eq!(status, 403, "{path}: {reply}");
                    assert!(reply.contains("\"sealed\""), "{reply}");
                    let (status, reply) = server
                        .http(
                            "GET",
                            &format!("/api/games/{game}/{path}?token={white}"),
                            "",
                        )
                        .await;
                    assert_eq!(status, 200, "{path} for its player: {reply}");
                }
                let (status, _) = call(
                    &server,
                    Some(&keys[*b]),
                    "GET",
                    &format!("/api/games/{game}/record"),
                )
                .await;
                assert_eq!(status, 200, "its player by key");
                let (status, _) = call(
                    &server,
                    Some(&keys[14 - usize::from(*w == 14 || *b == 14)]),
                    "GET",
                    &format!("/api/games/{game}/record"),
                )
                .await;
                assert_eq!(status, 403, "another player");
                let watch =
                    Socket::open(None, server.addr, &format!("/api/games/{game}/socket")).await;
                match watch {
                    Err(ClientError::Refused { status, body }) => {
                        assert_eq!(status, 403, "no watcher: {body}");
                        assert!(body.contains("\"sealed\""), "{body}");
                    }
                    _ => panic!("a watcher of a sealed game is refused"),
                }
                let (_, profile) = server
                    .http("GET", &format!("/api/players/{}", names[*w]), "")
                    .await;
                assert!(!profile.contains(game.as_str()), "unlisted: {profile}");
                sealed_checked = true;
            }
            games.push(game.clone());
        }
        eventually(
            Duration::from_secs(20),
            "the round is decided",
            async || {
                let t = tournament(&server, &tid).await;
                let r = &t["rounds"][(round - 1) as usize];
                r["boards"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|b| !b["result"].is_null())
            },
        )
        .await;
    }
    eventually(
        Duration::from_secs(10),
        "the tournament finishes",
        async || tournament(&server, &tid).await["status"] == "finished",
    )
    .await;
    let t = tournament(&server, &tid).await;

    // The default: p16's first game, to its opponent, counted in no tie-break.
    let first = &t["rounds"][0]["boards"];
    let defaulted: Vec<&Value> = first
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["result"]["result"] == "default")
        .collect();
    assert_eq!(defaulted.len(), 1);
    // Byes: rounds 2 to 4 each have one, never the same player twice, never p16.
    let byes: Vec<u64> = (1..4)
        .map(|r| t["rounds"][r]["bye"].as_u64().expect("a bye"))
        .collect();
    assert!(t["rounds"][0]["bye"].is_null());
    assert!(!byes.contains(&15));
    let mut distinct = byes.clone();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "{byes:?}");
    // No pairing twice.
    let mut met = std::collections::HashSet::new();
    for r in t["rounds"].as_array().unwrap() {
        for b in r["boards"].as_array().unwrap() {
            let (w, bl) = (b["white"].as_u64().unwrap(), b["black"].as_u64().unwrap());
            assert!(met.insert((w.min(bl), w.max(bl))), "met twice: {w} {bl}");
        }
    }

    // The standings match a computation of their own.
    let expected = computed(&t);
    let standings = t["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 16);
    for s in standings {
        let name = s["name"].as_str().unwrap();
        let (score, points, buchholz, sb) = expected[name];
        assert_eq!(s["score"], score, "{name}");
        assert_eq!(s["played_points"], points, "{name}");
        assert_eq!(s["buchholz"], buchholz, "{name}");
        assert_eq!(s["sonneborn_berger"], sb, "{name}");
    }
    for pair in standings.windows(2) {
        assert!(pair[0]["score"].as_u64() >= pair[1]["score"].as_u64());
        assert!(pair[0]["place"].as_u64() <= pair[1]["place"].as_u64());
    }
    // Hand-worked: p01 meets only lower numbers and wins all four; p16 scores nothing.
    assert_eq!(standings[0]["name"], "p01");
    assert_eq!(standings[0]["score"], 8);
    assert_eq!(standings[0]["place"], 1);
    assert_eq!(expected["p16"].0, 0);
    let log: Vec<&str> = t["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["action"].as_str().unwrap())
        .collect();
    for action in [
        "created",
        "registered",
        "started",
        "withdrew",
        "paired",
        "default",
        "result",
        "finished",
    ] {
        assert!(log.contains(&action), "{action} in {log:?}");
    }

    // Once it ended, every game's record is public, and verifies.
    assert_eq!(games.len(), 7 + 7 * 3);
    for game in &games {
        let (status, record) = server
            .http("GET", &format!("/api/games/{game}/record"), "")
            .await;
        assert_eq!(status, 200, "{record}");
        let opened = Game::from_record(&record).expect("the record replays");
        assert_eq!(opened.verify_commitments(), Ok(()), "{game}");
    }
    server.stop().await;
}

/// `POST path` as the player of `key`, with no body: its status and reply.
pub async fn post(server: &Server, key: &str, path: &str) -> (u16, Value) {
    call(server, Some(key), "POST", path).await
}

/// Tournament `body` made by the player of `keys[0]` (its director) on `server`, every
/// player of `keys` registered: its reply.
/// `POST /api/tournaments` of `body` by the player of `key`: the status and the reply.
pub async fn create(server: &Server, key: &str, body: Value) -> (u16, Value) {
    post_as(server, key, "/api/tournaments", &body).await
}

pub async fn made_with(server: &Server, keys: &[String], body: &Value) -> Value {
    let (status, made) = create(server, &keys[0], body.clone()).await;
    assert_eq!(status, 201, "{made}");
    let tid = made["id"].as_str().unwrap();
    for key in keys {
        let (status, reply) = post(server, key, &format!("/api/tournaments/{tid}/register")).await;
        assert_eq!(status, 200, "{reply}");
    }
    made
}

/// Tournament `tid` started by its director, the player of `key`.
pub async fn started(server: &Server, key: &str, tid: &str) {
    let (status, reply) = post(server, key, &format!("/api/tournaments/{tid}/start")).await;
    assert_eq!(status, 200, "{reply}");
}

/// Both seats of `game` set up the formations of `dealt`; returns their sockets after the
/// start.
pub async fn set_up(server: &Server, game: &str, tokens: [&str; 2], dealt: &Game) -> [Seat; 2] {
    let mut seats = [
        server.seat(game, Some(tokens[0])).await,
        server.seat(game, Some(tokens[1])).await,
    ];
    for side in Side::ALL {
        let setup = cells(dealt.setup(side).unwrap());
        seats[side.index()]
            .send(&json!({"t": "setup", "cells": setup}))
            .await;
    }
    seats[0].until("start").await;
    seats[1].until("start").await;
    seats
}

/// Each player's seat in round `round`, read from the player sockets: (game, side, token)
/// by player index.
async fn seats_of(sockets: &mut [Seat], round: u64) -> Vec<(String, Side, String)> {
    let mut seats = Vec::new();
    for socket in sockets.iter_mut() {
        let frame = told(socket, round).await;
        let side = if frame["side"] == "white" {
            Side::White
        } else {
            Side::Black
        };
        seats.push((
            frame["game"].as_str().unwrap().to_owned(),
            side,
            frame["token"].as_str().unwrap().to_owned(),
        ));
    }
    seats
}

/// The two tokens (White's, Black's) of `game` among `seats`, and its players' indexes.
fn table(seats: &[(String, Side, String)], game: &str) -> ([String; 2], [usize; 2]) {
    let mut tokens = [String::new(), String::new()];
    let mut players = [0, 0];
    for (i, (g, side, token)) in seats.iter().enumerate() {
        if g == game {
            tokens[side.index()].clone_from(token);
            players[side.index()] = i;
        }
    }
    (tokens, players)
}

/// A kill -9 of the server mid-round loses nothing: the tournament, its results and log as
/// they were, the game in play restored with its seats' tokens, and the round goes on to the
/// end after the restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kill_mid_round_loses_nothing_and_the_round_goes_on() {
    let db = database("tournament-kill");
    let (mut process, server) = crate::common::killable(&db);
    let names = ["kay1", "kay2", "kay3", "kay4"];
    let mut keys = Vec::new();
    for name in names {
        keys.push(register(&server, name).await);
    }
    let made = made_with(
        &server,
        &keys,
        &json!({"name": "Restart cup", "kind": "round-robin", "round_ms": 120_000}),
    )
    .await;
    let tid = made["id"].as_str().unwrap().to_owned();
    let mut sockets = player_sockets(&server, &keys).await;
    started(&server, &keys[0], &tid).await;
    let seats = seats_of(&mut sockets, 1).await;
    let games: Vec<String> = {
        let mut g: Vec<String> = seats.iter().map(|s| s.0.clone()).collect();
        g.sort();
        g.dedup();
        g
    };
    assert_eq!(games.len(), 2);
    // The first game ends; the second starts and its White resigns only after the restart.
    let (tokens, _) = table(&seats, &games[0]);
    let mut first = set_up(
        &server,
        &games[0],
        [&tokens[0], &tokens[1]],
        &random_game(81, 0),
    )
    .await;
    first[1].send(&json!({"t": "resign"})).await;
    first[0].until("over").await;
    let (tokens, players) = table(&seats, &games[1]);
    let second = set_up(
        &server,
        &games[1],
        [&tokens[0], &tokens[1]],
        &random_game(82, 0),
    )
    .await;
    eventually(
        Duration::from_secs(10),
        "the first game counts",
        async || {
            let t = tournament(&server, &tid).await;
            boards(&t, 0)
                .iter()
                .any(|b| b["result"]["result"] == "white-won")
        },
    )
    .await;
    let before = tournament(&server, &tid).await;
    drop((first, second, sockets));
    process.kill();

    let (_process, server) = crate::common::killable(&db);
    let after = tournament(&server, &tid).await;
    assert_eq!(after["log"], before["log"], "the log as it was");
    assert_eq!(
        after["rounds"], before["rounds"],
        "the pairings and results as they were"
    );
    // The game in play is back, its seats' tokens still open them; it ends, and the round
    // goes on.
    let mut back = [
        server.seat(&games[1], Some(&tokens[0])).await,
        server.seat(&games[1], Some(&tokens[1])).await,
    ];
    // Both seats hear the game as it is before White resigns: a seat that connected after
    // the end learns it from its `state` alone, and would wait for an `over` in vain.
    back[0].until("state").await;
    back[1].until("state").await;
    back[0].send(&json!({"t": "resign"})).await;
    back[1].until("over").await;
    eventually(
        Duration::from_secs(10),
        "round 1 decided, round 2 paired",
        async || {
            let t = tournament(&server, &tid).await;
            boards(&t, 0).iter().all(|b| !b["result"].is_null())
                && boards(&t, 1).iter().all(|b| b["game"].is_string())
        },
    )
    .await;
    // Away when round 2 was paired, each player takes its seat with its key; the token the
    // seat had before no longer opens it.
    let t = tournament(&server, &tid).await;
    for board in t["rounds"][1]["boards"].as_array().unwrap() {
        let game = board["game"].as_str().unwrap();
        let mut tokens = Vec::new();
        for side in ["white", "black"] {
            let player = board[side].as_u64().unwrap() as usize;
            let (status, seat) =
                post(&server, &keys[player], &format!("/api/games/{game}/seat")).await;
            assert_eq!(status, 200, "{seat}");
            assert_eq!(seat["side"], side);
            tokens.push(seat["token"].as_str().unwrap().to_owned());
        }
        // Again: the token before no longer opens the seat; a player of another board has
        // no seat here.
        let white = board["white"].as_u64().unwrap() as usize;
        let (_, again) = post(&server, &keys[white], &format!("/api/games/{game}/seat")).await;
        let old = Socket::open(
            None,
            server.addr,
            &format!("/api/games/{game}/socket?token={}", tokens[0]),
        )
        .await;
        assert!(
            matches!(old, Err(ClientError::Refused { status: 401, .. })),
            "the old token"
        );
        tokens[0] = again["token"].as_str().unwrap().to_owned();
        let black = board["black"].as_u64().unwrap() as usize;
        let other = (0..4).find(|p| *p != white && *p != black).unwrap();
        let (status, _) = post(&server, &keys[other], &format!("/api/games/{game}/seat")).await;
        assert_eq!(status, 404, "not this player's game");
        let mut seats = set_up(&server, game, [&tokens[0], &tokens[1]], &random_game(83, 0)).await;
        seats[0].send(&json!({"t": "resign"})).await;
        seats[1].until("over").await;
    }
    let t = tournament(&server, &tid).await;
    let second_board = boards(&t, 0)
        .iter()
        .find(|b| b["game"] == games[1].as_str())
        .unwrap()
        .clone();
    assert_eq!(second_board["result"]["result"], "black-won");
    assert_eq!(second_board["white"], players[0]);
    // Each board paired has its one game, made once (round 3 is paired as soon as round 2
    // ends: the tournament is told of each end).
    eventually(
        Duration::from_secs(10),
        "each paired board's game made",
        async || {
            let t = tournament(&server, &tid).await;
            let boards: Vec<&Value> = t["rounds"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|r| r["boards"].as_array().unwrap())
                .collect();
            let made = crate::common::query_int(&db, "SELECT count(*) FROM tournament_games");
            boards.iter().all(|b| b["game"].is_string()) && made == boards.len() as i64 && made >= 4
        },
    )
    .await;
}

/// A tournament whose director lets its games be watched: a spectator watches the public
/// board to the end, but its `over` carries no record, and the record, replay and chat stay
/// sealed to it until the tournament ends; a tournament game has no rematch.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watched_tournament_game_shows_the_board_and_opens_nothing() {
    let db = database("tournament-watch");
    let server = start_on(db, 72, |_| {}).await;
    let keys = [
        register(&server, "lakambini").await,
        register(&server, "lakandula").await,
    ];
    let body = json!({"name": "Watched", "kind": "swiss", "rounds": 1, "round_ms": 60_000, "watching": true});
    let made = made_with(&server, &keys, &body).await;
    assert_eq!(made["settings"]["watching"], true);
    let tid = made["id"].as_str().unwrap().to_owned();
    let mut sockets = player_sockets(&server, &keys).await;
    started(&server, &keys[0], &tid).await;
    let seats = seats_of(&mut sockets, 1).await;
    let game = seats[0].0.clone();
    let (tokens, _) = table(&seats, &game);
    let mut watcher = server.seat(&game, None).await;
    watcher.until("state").await;
    let dealt = random_game(84, 0);
    let mut players = set_up(&server, &game, [&tokens[0], &tokens[1]], &dealt).await;
    let start = watcher.until("start").await;
    assert!(start["commitments"]["white"].is_string(), "{start}");
    players[0].send(&json!({"t": "resign"})).await;
    let seen = players[1].until("over").await;
    assert!(seen["record"].is_string(), "its players see the record");
    let watched = watcher.until("over").await;
    assert!(watched["record"].is_null(), "not the spectator: {watched}");
    // A spectator connecting after the end is told as little.
    let mut late = server.seat(&game, None).await;
    let state = late.until("state").await;
    assert!(!state.to_string().contains("\"record\":\""), "{state}");
    // No rematch in a tournament.
    players[1].send(&json!({"t": "rematch"})).await;
    let refused = players[1].until("error").await;
    assert_eq!(refused["code"], "wrong-phase", "{refused}");
    server.stop().await;
}

/// The director's tools over HTTP, each a line of the public log: a cutoff moved (and the
/// setup time of the games not started with it), a default awarded, a void, a pause that
/// holds the next round and a resume that pairs it; another player's attempts refused, and a
/// director's own board left to another director.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_director_s_tools_act_and_are_logged() {
    let server = start_on(database("tournament-director"), 73, |_| {}).await;
    let mut keys = Vec::new();
    for name in ["datu", "dayang", "diwata", "dumalo", "lakan"] {
        keys.push(register(&server, name).await);
    }
    // Lakan directs and does not play.
    let lakan = keys.pop().unwrap();
    let body = json!({"name": "Directed", "kind": "swiss", "rounds": 2, "round_ms": 60_000,
        "directors": ["dayang", "lakan"]});
    let made = made_with(&server, &keys, &body).await;
    let tid = made["id"].as_str().unwrap().to_owned();
    assert_eq!(made["directors"], json!(["datu", "dayang", "lakan"]));
    let path = |what: &str| format!("/api/tournaments/{tid}/{what}");
    started(&server, &keys[1], &tid).await;
    let t = tournament(&server, &tid).await;
    let cutoff = t["rounds"][0]["cutoff_ms"].as_u64().unwrap();
    let game = t["rounds"][0]["boards"][0]["game"]
        .as_str()
        .unwrap()
        .to_owned();

    // Another player may not; a director moves the cutoff ten minutes.
    let (status, refused) =
        post_as(&server, &keys[2], &path("extend"), &json!({"minutes": 10})).await;
    assert_eq!(
        (status, refused["error"].as_str()),
        (403, Some("not-director"))
    );
    let (status, moved) =
        post_as(&server, &keys[0], &path("extend"), &json!({"minutes": 10})).await;
    assert_eq!(status, 200, "{moved}");
    assert_eq!(moved["rounds"][0]["cutoff_ms"], cutoff + 600_000);
    let (_, summary) = server.summary(&game).await;
    assert!(
        summary["setup_ms"].as_u64().unwrap() > 600_000,
        "the game's setup time follows: {summary}"
    );
    let (status, _) = post_as(&server, &keys[0], &path("extend"), &json!({"minutes": 0})).await;
    assert_eq!(status, 400);

    // A default to White on board 1, a void on board 2; paused first, round 2 waits.
    assert_eq!(post(&server, &keys[0], &path("pause")).await.0, 200);
    let (status, _) = post(&server, &keys[0], &path("pause")).await;
    assert_eq!(status, 400, "paused already");
    let decide = |board: usize, result: &str, present: Option<&str>| {
        let mut body = json!({"round": 1, "board": board, "result": result});
        if let Some(side) = present {
            body["present"] = json!(side);
        }
        body
    };
    let (status, _) = post_as(&server, &keys[0], &path("decide"), &decide(3, "void", None)).await;
    assert_eq!(status, 404, "no board 3");
    let (status, _) = post_as(
        &server,
        &keys[0],
        &path("decide"),
        &decide(1, "white-won", None),
    )
    .await;
    assert_eq!(status, 400, "a director awards defaults and voids only");
    // Each board's players; a director who plays board 1 may not decide it, Lakan may.
    let t = tournament(&server, &tid).await;
    let plays = |board: usize, name: &str| {
        ["white", "black"].iter().any(|side| {
            let entrant = t["rounds"][0]["boards"][board][side].as_u64().unwrap() as usize;
            t["entrants"][entrant]["name"] == name
        })
    };
    let own = if plays(0, "datu") { &keys[0] } else { &keys[1] };
    assert!(
        plays(0, "datu") || plays(0, "dayang"),
        "a director plays board 1 of 2"
    );
    let (status, refused) = post_as(
        &server,
        own,
        &path("decide"),
        &decide(1, "default", Some("white")),
    )
    .await;
    assert_eq!(
        (status, refused["error"].as_str()),
        (403, Some("not-director")),
        "{refused}"
    );
    let (status, t) = post_as(
        &server,
        &lakan,
        &path("decide"),
        &decide(1, "default", Some("white")),
    )
    .await;
    assert_eq!(status, 200, "{t}");
    assert_eq!(
        t["rounds"][0]["boards"][0]["result"],
        json!({"result": "default", "present": "white"})
    );
    let (voider, name) = if plays(1, "dayang") {
        (&lakan, "lakan")
    } else {
        (&keys[1], "dayang")
    };
    let (_, t) = post_as(&server, voider, &path("decide"), &decide(2, "void", None)).await;
    assert_eq!(
        t["rounds"][0]["boards"][1]["result"],
        json!({"result": "void"})
    );
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(
        tournament(&server, &tid).await["rounds"]
            .as_array()
            .unwrap()
            .len(),
        1,
        "paused: no round 2"
    );
    assert_eq!(post(&server, &keys[0], &path("resume")).await.0, 200);
    let t = tournament(&server, &tid).await;
    assert_eq!(
        t["rounds"].as_array().unwrap().len(),
        2,
        "resumed: round 2 paired"
    );
    // The default counts 2 for White's player, in no tie-break; the void counts nothing.
    let white = t["rounds"][0]["boards"][0]["white"].as_u64().unwrap() as usize;
    let line = t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["entrant"] == white)
        .unwrap()
        .clone();
    assert_eq!(
        (
            line["score"].as_u64(),
            line["played_points"].as_u64(),
            line["played"].as_u64()
        ),
        (Some(2), Some(0), Some(0))
    );
    let actions: Vec<&str> = t["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["action"].as_str().unwrap())
        .collect();
    for action in ["extended", "paused", "default", "void", "resumed"] {
        assert!(actions.contains(&action), "{action} in {actions:?}");
    }
    let by: Vec<&str> = t["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["action"] == "void")
        .map(|l| l["by"].as_str().unwrap())
        .collect();
    assert_eq!(by, [name], "the log names who did it");
    server.stop().await;
}

/// One address holds at most six tournaments not finished, however many accounts it has;
/// another address is not held to its count.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holds_few_tournaments_not_finished() {
    let db = database("tournament-addresses");
    let server = start_on(db.clone(), 91, |_| {}).await;
    let mut keys = Vec::new();
    for n in 0..4 {
        keys.push(register(&server, &format!("tagapag_{n}")).await);
    }
    let body = |n: usize| json!({"name": format!("Cup {n}"), "kind": "swiss"});
    let from = |last: u8, key: &str, n: usize| {
        let (server, key, body) = (&server, key.to_owned(), body(n));
        async move {
            crate::common::from_address(
                server,
                (last, Some(&key)),
                "POST",
                "/api/tournaments",
                &body,
            )
            .await
        }
    };
    for n in 0..6 {
        let (status, made) = from(2, &keys[n / 3], n).await;
        assert_eq!(status, 201, "{made}");
    }
    let (status, refused) = from(2, &keys[2], 6).await;
    assert_eq!(
        (status, refused["error"].as_str()),
        (429, Some("too-many-games")),
        "{refused}"
    );
    assert!(
        refused["message"].as_str().unwrap().contains("one address"),
        "{refused}"
    );
    let (status, made) = from(3, &keys[3], 7).await;
    assert_eq!(status, 201, "another address: {made}");
    assert!(
        !made.to_string().contains("127.0.0."),
        "no address in a reply: {made}"
    );
    server.stop().await;
    // The count is kept with the tournaments: a restart does not reset it.
    let server = start_on(db, 92, |_| {}).await;
    let (status, refused) = crate::common::from_address(
        &server,
        (2, Some(&keys[2])),
        "POST",
        "/api/tournaments",
        &json!({"name": "Cup 8", "kind": "swiss"}),
    )
    .await;
    assert_eq!(status, 429, "after a restart: {refused}");
    server.stop().await;
}

/// A tournament's seats are made from the addresses their players registered from: two
/// accounts of one address play unrated (as any game between them would), players of two
/// addresses rated; the replies never hold an address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_game_between_two_players_of_one_address_is_unrated() {
    let server = start_on(database("tournament-one-address"), 93, |c| {
        c.limits.rated_one_address = false;
    })
    .await;
    let mut rated = Vec::new();
    for (names, addresses) in [
        (["kambal_a", "kambal_b"], [7u8, 7]),
        (["layo_a", "layo_b"], [8, 9]),
    ] {
        let keys = [
            register(&server, names[0]).await,
            register(&server, names[1]).await,
        ];
        let body = json!({"name": format!("Cup of {}", names[0]), "kind": "swiss", "rounds": 1,
            "rated": true});
        let (status, made) = create(&server, &keys[0], body).await;
        assert_eq!(status, 201, "{made}");
        let tid = made["id"].as_str().unwrap().to_owned();
        for (key, last) in keys.iter().zip(addresses) {
            let path = format!("/api/tournaments/{tid}/register");
            let (status, reply) = crate::common::from_address(
                &server,
                (last, Some(key)),
                "POST",
                &path,
                &Value::Null,
            )
            .await;
            assert_eq!(status, 200, "{reply}");
            let text = reply.to_string();
            assert!(!text.contains("127.0.0."), "no address in a reply: {text}");
        }
        started(&server, &keys[0], &tid).await;
        let t = tournament(&server, &tid).await;
        assert!(!t.to_string().contains("127.0.0."), "{t}");
        let game = t["rounds"][0]["boards"][0]["game"]
            .as_str()
            .unwrap()
            .to_owned();
        let (_, summary) = server.summary(&game).await;
        rated.push(summary["rated"].clone());
    }
    assert_eq!(
        rated,
        [json!(false), json!(true)],
        "one address unrated, two rated"
    );
    server.stop().await;
}

/// A change writes what changed: the tournament's row holds no log, each line of the log is a
/// row of its own written when it is said, so entrants coming and going never rewrite the
/// log; a restart reads the same log back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_writes_its_own_log_lines_not_the_whole_log() {
    let db = database("tournament-log-rows");
    let server = start_on(db.clone(), 97, |c| c.limits.players_per_hour = 1000).await;
    let director = register(&server, "tagapamahala").await;
    let body = json!({"name": "Rows", "kind": "swiss", "rounds": 3});
    let (status, made) = create(&server, &director, body).await;
    assert_eq!(status, 201, "{made}");
    let tid = made["id"].as_str().unwrap().to_owned();
    let body_of = || {
        crate::common::query_text(
            &db,
            &format!("SELECT body FROM tournaments WHERE id = '{tid}'"),
        )
    };
    let rows = || {
        crate::common::query_int(
            &db,
            &format!("SELECT COUNT(*) FROM tournament_log WHERE tournament = '{tid}'"),
        )
    };
    assert_eq!(rows(), 1, "the created line");
    let path = |what: &str| format!("/api/tournaments/{tid}/{what}");
    for i in 0..24 {
        let key = register(&server, &format!("kalahok_{i}")).await;
        assert_eq!(post(&server, &key, &path("register")).await.0, 200);
        if i < 8 {
            assert_eq!(post(&server, &key, &path("withdraw")).await.0, 200);
            assert_eq!(post(&server, &key, &path("register")).await.0, 200);
        }
    }
    let before = tournament(&server, &tid).await;
    let log = before["log"].as_array().unwrap().clone();
    assert_eq!(log.len(), 1 + 24 + 16);
    assert_eq!(rows(), log.len() as i64, "each line a row");
    let numbers: Vec<u64> = log.iter().map(|l| l["n"].as_u64().unwrap()).collect();
    assert_eq!(numbers, (1..=log.len() as u64).collect::<Vec<_>>());
    let stored = body_of().unwrap();
    assert!(
        !stored.contains("\"log\"") && !stored.contains("registered"),
        "{stored}"
    );
    let line = serde_json::to_string(&log[log.len() - 1]).unwrap().len();
    eprintln!(
        "the tournament's row: {} bytes with 24 entrants; a log line: {line} bytes; the log: \
         {} bytes in {} rows",
        stored.len(),
        serde_json::to_string(&log).unwrap().len(),
        log.len()
    );
    server.stop().await;
    let server = start_on(db.clone(), 98, |_| {}).await;
    let after = tournament(&server, &tid).await;
    assert_eq!(after["log"], before["log"], "the log read back");
    assert_eq!(after["entrants"], before["entrants"]);
    server.stop().await;
}
