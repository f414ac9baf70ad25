//! The main property: everything a seat receives is a function of its own formation and the
//! public events, and everything a spectator receives of the public events only. A twin of
//! a game, drawn with `Game::sample(side, seed)` (the same own formation and public history,
//! other enemy ranks), is played through the real server stack; the seat's transcript (every
//! frame, error, version and HTTP reply, replies to refused requests included) and the
//! spectator's must be byte-identical.

use salpakan::{Game, Move, Side};
use serde_json::{Value, json};

use crate::common::call;
use crate::common::post_as;
use crate::common::{Seat, Server, cells, random_prefix, start_busy};

/// The transcripts of the two seats and a spectator over one run.
struct Run {
    seats: [Vec<String>; 2],
    spectator: Vec<String>,
}

async fn http_into(server: &Server, log: &mut Vec<String>, method: &str, path: &str, body: &str) {
    let (status, text) = server.http(method, path, body).await;
    log.push(format!("HTTP {status} {text}"));
}

/// Game `id`'s entry in `GET /api/live` once it shows `ply` plies.
async fn live_entry(server: &Server, id: &str, ply: u64) -> Value {
    for _ in 0..500 {
        let (_, reply) = server.json("GET", "/api/live", &Value::Null).await;
        if let Some(entry) = reply["games"]
            .as_array()
            .and_then(|games| games.iter().find(|e| e["game"] == id && e["ply"] == ply))
        {
            return entry.clone();
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("game {id} at ply {ply} never reached the live list");
}

/// Plays `game`'s formations and moves through a fresh server (seeded with `seed`),
/// with refused requests from `watched` on the way.
async fn run(game: &Game, watched: Side, seed: u64) -> Run {
    let server = start_busy(seed).await;
    let run = run_on(&server, game, watched, seed).await;
    server.stop().await;
    run
}

/// As [`run`], on a server that may hold other games.
async fn run_on(server: &Server, game: &Game, watched: Side, seed: u64) -> Run {
    let creator = if seed.is_multiple_of(2) {
        watched
    } else {
        watched.other()
    };
    let rules = game.rules();
    let mut http: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    let body = json!({
        "side": creator.word(),
        "first": game.first_mover().word(),
        "rules": {"setup_rows": rules.setup_rows(), "move_limit": rules.move_limit().unwrap_or(0)},
    });
    let (status, created) = server.json("POST", "/api/games", &body).await;
    http[creator.index()].push(format!("HTTP {status} {created}"));
    let id = created["game"].as_str().unwrap().to_owned();
    let join = json!({"invite": created["invite"]});
    let (status, joined) = server
        .json("POST", &format!("/api/games/{id}/join"), &join)
        .await;
    http[creator.other().index()].push(format!("HTTP {status} {joined}"));
    let mut tokens = [String::new(), String::new()];
    tokens[creator.index()] = created["token"].as_str().unwrap().to_owned();
    tokens[creator.other().index()] = joined["token"].as_str().unwrap().to_owned();

    let mut seats: Vec<Seat> = Vec::new();
    for side in [watched, watched.other()] {
        let mut seat = server.seat(&id, Some(&tokens[side.index()])).await;
        seat.until("state").await;
        seats.push(seat);
    }
    seats[0].until("presence").await;
    let mut spectator = server.seat(&id, None).await;
    spectator.until("state").await;
    // The spectator talks as a player (the same name and key in both twins: the same seed).
    let (status, kibitzer) = server
        .json(
            "POST",
            "/api/players",
            &json!({"name": format!("kibitzer-{seed}")}),
        )
        .await;
    assert_eq!(status, 201);
    spectator
        .send(&json!({"t": "auth", "key": kibitzer["key"]}))
        .await;
    spectator.until("chat-settings").await;
    // The kibitzer's tokens: minted, listed and used the same in both twins (their times
    // aside).
    let key = kibitzer["key"].as_str().unwrap();
    let scopes = json!({"scopes": ["read", "bot:play"], "label": "twin"});
    let (status, mut minted) = crate::common::post_as(server, key, "/api/tokens", &scopes).await;
    let token = minted["token"].as_str().unwrap().to_owned();
    let (_, mut listed) = crate::common::call(server, Some(key), "GET", "/api/tokens").await;
    minted["created_ms"] = Value::Null;
    listed["tokens"][0]["created_ms"] = Value::Null;
    let path = format!("/api/players/kibitzer-{seed}/games");
    let (read, games) = crate::common::call(server, Some(&token), "GET", &path).await;
    http[watched.index()].push(format!(
        "HTTP tokens {status} {minted} {listed} {read} {games}"
    ));
    // The kibitzer is a moderator too: its desk's queue (public lines and ids only) is logged
    // at each checkpoint below, their times aside.
    crate::common::name_moderator(server, &format!("kibitzer-{seed}"), true).await;
    let moderator = key.to_owned();
    let [w, o] = &mut seats[..] else {
        unreachable!()
    };

    // Refused before play: a move, a resignation, a bad frame, the enemy's formation.
    for message in [
        json!({"t": "move", "move": "a3-a4", "ply": 0}),
        json!({"t": "resign"}),
        json!({"t": "draw"}),
        json!({"t": "setup", "cells": cells(game.setup(watched.other()).unwrap())}),
        json!({"t": "setup", "cells": [0, 1, 2]}),
        json!({"t": "fly"}),
    ] {
        w.send(&message).await;
        assert_eq!(w.until("error").await["t"], "error");
    }
    w.socket.send("not json").await.unwrap();
    w.until("error").await;
    http_into(
        server,
        &mut http[watched.index()],
        "GET",
        &format!("/api/games/{id}"),
        "",
    )
    .await;

    // The formations, in an order that depends on the seed.
    let order = if seed.is_multiple_of(3) {
        [watched, watched.other()]
    } else {
        [watched.other(), watched]
    };
    let mut v = 0;
    for side in order {
        let setup = cells(game.setup(side).unwrap());
        let seat = if side == watched { &mut *w } else { &mut *o };
        seat.send(&json!({"t": "setup", "cells": setup})).await;
        v += 1;
        for s in [&mut *w, &mut *o, &mut spectator] {
            s.until_v(v).await;
        }
    }
    v += 1; // start
    for s in [&mut *w, &mut *o, &mut spectator] {
        s.until_v(v).await;
    }
    w.send(&json!({"t": "setup", "cells": cells(game.setup(watched).unwrap())}))
        .await;
    w.until("error").await;

    let mut board = Game::new(
        game.setup(Side::White).unwrap().clone(),
        game.setup(Side::Black).unwrap().clone(),
        game.first_mover(),
        rules,
    )
    .unwrap();
    for (i, report) in game.history().iter().enumerate() {
        let ply = i as u64;
        let mover = board.side_to_move();
        let text = report.mv.to_string();
        if mover == watched {
            let legal = board.legal_moves();
            let illegal = (0..Move::NUM_ACTIONS as u16)
                .filter_map(Move::from_action)
                .find(|m| !legal.contains(m))
                .unwrap();
            for message in [
                json!({"t": "move", "move": illegal.to_string(), "ply": ply}),
                json!({"t": "move", "move": text, "ply": ply + 3}),
                json!({"t": "move", "move": "z9-z10", "ply": ply}),
            ] {
                w.send(&message).await;
                w.until("error").await;
            }
        } else {
            w.send(&json!({"t": "move", "move": text, "ply": ply}))
                .await;
            w.until("error").await;
        }
        if i % 7 == 3 {
            // Both rooms talk: a phrase and a free line from each seat (heard by both), a
            // comment from the spectator (heard by it alone), and a report.
            for (from, said) in [
                (0, json!({"t": "say", "phrase": "nice-challenge"})),
                (
                    1,
                    json!({"t": "say", "text": format!("ply {ply}: your move")}),
                ),
                (1, json!({"t": "say", "phrase": "big-piece"})),
                (0, json!({"t": "say", "text": "is that a Spy?"})),
            ] {
                if from == 0 { &mut *w } else { &mut *o }.send(&said).await;
                w.until("chat").await;
                o.until("chat").await;
            }
            spectator
                .send(&json!({"t": "say", "text": format!("after {ply}, who wins?")}))
                .await;
            spectator.until("chat").await;
            // The first time only: a report of the opponent's first line (a seat reports no
            // line of its own, and ten an hour).
            if i == 3 {
                w.send(&json!({"t": "report", "room": "players", "n": 2}))
                    .await;
                w.until("reported").await;
            }
        }
        if i == 12 {
            w.send(&json!({"t": "mute", "who": watched.other().word()}))
                .await;
            w.until("chat-settings").await;
            o.send(&json!({"t": "say", "phrase": "oops"})).await;
            o.until("chat").await;
            w.send(&json!({"t": "unmute", "who": watched.other().word()}))
                .await;
            w.until("chat-settings").await;
        }
        if i % 9 == 4 {
            w.send(&json!({"t": "draw"})).await;
            v += 1;
            for s in [&mut *w, &mut *o, &mut spectator] {
                s.until_v(v).await;
            }
        }
        let seat = if mover == watched { &mut *w } else { &mut *o };
        seat.send(&json!({"t": "move", "move": text, "ply": ply}))
            .await;
        v += 1;
        for s in [&mut *w, &mut *o, &mut spectator] {
            s.until_v(v).await;
        }
        if mover == watched {
            // The same move again: its event again, nothing played.
            w.send(&json!({"t": "move", "move": text, "ply": ply}))
                .await;
            w.until_v(v).await;
        }
        board.play(report.mv).unwrap();
        if i % 10 == 0 {
            // The live list's entry of this game once it shows this ply.
            let entry = live_entry(server, &id, ply + 1).await;
            http[watched.index()].push(format!("HTTP live {entry}"));
            let log = &mut http[watched.index()];
            http_into(server, log, "GET", &format!("/api/games/{id}"), "").await;
            http_into(server, log, "GET", &format!("/api/games/{id}/record"), "").await;
            let (status, mut queue) =
                crate::common::call(server, Some(&moderator), "GET", "/api/mod/reports").await;
            for group in queue["reports"].as_array_mut().into_iter().flatten() {
                group["first_ms"] = Value::Null;
                group["last_ms"] = Value::Null;
            }
            log.push(format!("HTTP desk {status} {queue}"));
        }
    }
    // Missed events after a reconnect, a fresh state, pings; the spectator's refusals.
    w.send(&json!({"t": "hello", "v": 2})).await;
    w.until_v(v).await;
    w.send(&json!({"t": "hello", "v": v + 10})).await;
    w.until("state").await;
    w.send(&json!({"t": "ping"})).await;
    w.until("pong").await;
    for message in [json!({"t": "resign"}), json!({"t": "hello", "v": 0})] {
        spectator.send(&message).await;
    }
    spectator.until("error").await;
    spectator.until_v(v).await;
    // A close code is part of the transcript too.
    w.socket
        .send(&format!(r#"{{"t":"ping","pad":"{}"}}"#, "x".repeat(5000)))
        .await
        .unwrap();
    assert_eq!(w.until_close().await, 1009);
    spectator.until("presence").await;

    let mut out = Run {
        seats: [Vec::new(), Vec::new()],
        spectator: std::mem::take(&mut spectator.transcript),
    };
    out.seats[watched.index()] = std::mem::take(&mut w.transcript);
    out.seats[watched.other().index()] = std::mem::take(&mut o.transcript);
    for side in Side::ALL {
        let mut log = std::mem::take(&mut http[side.index()]);
        log.append(&mut out.seats[side.index()]);
        out.seats[side.index()] = log;
    }
    out
}

/// The game and a twin `side` cannot tell from it, with other enemy ranks.
fn twin(game: &Game, side: Side, seed: u64) -> Game {
    (seed..seed + 50)
        .map(|s| game.sample(side, s).expect("a real game has samples"))
        .find(|t| t.setup(side.other()) != game.setup(side.other()))
        .expect("a twin with other enemy ranks")
}

/// `frame` with each formation commitment's digest replaced by `#`. A commitment is the one
/// part of a frame that is computed from a hidden formation: the SHA-256 of it and a secret
/// 128-bit salt, which tells nothing of the formation to whoever lacks the salt (and the
/// twins' salts differ anyway). Everything else must be byte-identical.
pub fn sealed(frame: &str) -> String {
    const KEY: &str = "\"commitments\":{";
    let mut out = String::with_capacity(frame.len());
    let mut rest = frame;
    while let Some(at) = rest.find(KEY) {
        let (head, tail) = rest.split_at(at + KEY.len());
        out.push_str(head);
        let end = tail.find('}').expect("a commitments object closes");
        let digest = |part: &str| part.len() == 64 && part.chars().all(|c| c.is_ascii_hexdigit());
        let parts: Vec<&str> = tail[..end]
            .split('"')
            .map(|part| if digest(part) { "#" } else { part })
            .collect();
        out.push_str(&parts.join("\""));
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// The first frame at which `a` and `b` differ, once [`sealed`].
fn first_difference(a: &[String], b: &[String]) -> Option<(usize, String, String)> {
    let (a, b): (Vec<String>, Vec<String>) = (
        a.iter().map(|f| sealed(f)).collect(),
        b.iter().map(|f| sealed(f)).collect(),
    );
    let n = a.len().max(b.len());
    (0..n).find_map(|i| {
        let (x, y) = (a.get(i), b.get(i));
        (x != y).then(|| {
            (
                i,
                x.cloned().unwrap_or_default(),
                y.cloned().unwrap_or_default(),
            )
        })
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_and_a_spectator_cannot_tell_a_game_from_its_twin() {
    for case in 0..8u64 {
        let plies = [0, 3, 12, 25, 40, 60, 90, 130][case as usize];
        let game = random_prefix(case + 100, plies);
        assert!(game.status().is_ongoing());
        let watched = if case % 2 == 0 {
            Side::White
        } else {
            Side::Black
        };
        let twin = twin(&game, watched, case);
        let seed = case * 31 + 7;
        let real = run(&game, watched, seed).await;
        let other = run(&twin, watched, seed).await;
        let w = watched.index();
        if let Some((i, a, b)) = first_difference(&real.seats[w], &other.seats[w]) {
            panic!("case {case}: {watched}'s frame {i} differs:\n{a}\n{b}");
        }
        if let Some((i, a, b)) = first_difference(&real.spectator, &other.spectator) {
            panic!("case {case}: the spectator's frame {i} differs:\n{a}\n{b}");
        }
        let commitments = |run: &Run| {
            run.spectator
                .iter()
                .find(|f| f.contains(r#""t":"start""#))
                .map(|f| f.contains(r#""commitments":{"white":""#))
        };
        assert_eq!(
            commitments(&real),
            Some(true),
            "case {case}: the start commits"
        );
        // The harness sees what differs: the other seat, whose ranks did change, can tell.
        let o = watched.other().index();
        assert!(
            first_difference(&real.seats[o], &other.seats[o]).is_some(),
            "case {case}: the twin changed nothing its owner sees"
        );
        assert!(real.seats[w].len() > 10 && real.spectator.len() > 3);
        let spectator_text: Value = serde_json::from_str(&real.spectator[0]).unwrap();
        assert_eq!(spectator_text["t"], "state");
    }
}

/// Only the socket frames (HTTP replies name the game, whose id depends on what else the
/// server made).
fn frames(transcript: &[String]) -> Vec<String> {
    transcript
        .iter()
        .filter(|f| !f.starts_with("HTTP "))
        .cloned()
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_games_at_once_give_what_each_gives_alone() {
    let a = random_prefix(200, 40);
    let b = random_prefix(201, 70);
    assert!(a.status().is_ongoing() && b.status().is_ongoing());
    let alone_a = {
        let server = start_busy(1).await;
        let run = run_on(&server, &a, Side::White, 0).await;
        server.stop().await;
        run
    };
    let alone_b = {
        let server = start_busy(2).await;
        let run = run_on(&server, &b, Side::Black, 1).await;
        server.stop().await;
        run
    };
    let server = start_busy(3).await;
    let (together_a, together_b) = tokio::join!(
        run_on(&server, &a, Side::White, 0),
        run_on(&server, &b, Side::Black, 1)
    );
    server.stop().await;
    for (alone, together) in [(alone_a, together_a), (alone_b, together_b)] {
        for side in Side::ALL {
            let (x, y) = (
                frames(&alone.seats[side.index()]),
                frames(&together.seats[side.index()]),
            );
            assert!(x.len() > 10);
            if let Some((i, p, q)) = first_difference(&x, &y) {
                panic!("{side}'s frame {i} differs:\n{p}\n{q}");
            }
        }
        assert_eq!(
            first_difference(&alone.spectator, &together.spectator),
            None
        );
    }
}

/// What the watched player, a third player and the public see over a run through the lobby:
/// a game paired by the pool and aborted after both formations are in, and a game from an
/// accepted seek played to a resignation and its rematch.
#[derive(Debug, PartialEq, Eq)]
struct LobbyRun {
    /// The watched player's player socket, its seats' sockets (the `over` frame, which
    /// reveals both formations, left out) and its HTTP replies.
    watched: Vec<String>,
    /// A player who plays neither game: its player socket.
    bystander: Vec<String>,
    /// The lobby (its socket's frame at each step, and `GET /api/lobby`), and the profiles.
    public: Vec<String>,
}

/// The side the watched player gets in each of the two games for `seed` (the server's
/// entropy is seeded: the same in every run).
async fn lobby_run(games: [&Game; 2], seed: u64) -> (LobbyRun, [Side; 2]) {
    use crate::common::{player_sockets, register_all, socket};
    let server = start_busy(seed).await;
    let mut public = Vec::new();
    let mut lobby = socket(&server, "/api/lobby/socket").await;
    let look = async |lobby: &mut Seat, public: &mut Vec<String>| {
        let (_, listing) = call(&server, None, "GET", "/api/lobby").await;
        let want = json!({"t": "lobby", "seeks": listing["seeks"], "playing": listing["playing"]});
        while lobby.recv().await != want {}
        public.push(format!("{listing}"));
        // Every player's finished games (when each ended is the clock's, not the game's:
        // left out) and the leaderboard.
        for name in ["watched", "opponent", "bystander"] {
            let path = format!("/api/players/{name}/games");
            let (status, mut list) = call(&server, None, "GET", &path).await;
            for game in list["games"].as_array_mut().into_iter().flatten() {
                game["ended_ms"] = Value::Null;
            }
            public.push(format!("{status} {list}"));
        }
        let (status, board) = call(&server, None, "GET", "/api/leaderboard").await;
        public.push(format!("{status} {board}"));
    };
    let keys = register_all(&server, ["watched", "opponent", "bystander"]).await;
    let mut sockets = player_sockets(&server, &keys).await;
    let mut http = Vec::new();
    let mut sides = [Side::White; 2];
    // The pool pairs the two; both formations in, the watched player aborts.
    let pool = json!({"clock": {"initial_ms": 300000, "increment_ms": 3000}, "rated": true});
    for key in &keys[..2] {
        let (status, reply) = post_as(&server, key, "/api/pool", &pool).await;
        http.push(format!("{status} {reply}"));
    }
    let mine = sockets[0].until("paired").await;
    let theirs = sockets[1].until("paired").await;
    let (side, game, mut seat, mut other) = sit(&server, &mine, &theirs).await;
    sides[0] = side;
    look(&mut lobby, &mut public).await;
    for (s, side) in [(&mut seat, sides[0]), (&mut other, sides[0].other())] {
        let setup = cells(games[0].setup(side).unwrap());
        s.send(&json!({"t": "setup", "cells": setup})).await;
        s.until("ready").await;
    }
    seat.until("start").await;
    look(&mut lobby, &mut public).await;
    seat.send(&json!({"t": "abort"})).await;
    seat.until("aborted").await;
    let path = format!("/api/games/{game}/record");
    let (status, reply) = call(&server, None, "GET", &path).await;
    assert_eq!(status, 404, "an aborted game's record");
    http.push(format!("{status} {reply}"));
    let mut watched: Vec<String> = std::mem::take(&mut seat.transcript);
    // A seek accepted; play, a resignation by the other side, both ask for a rematch.
    let (_, seek) = post_as(&server, &keys[0], "/api/seeks", &json!({"rated": true})).await;
    look(&mut lobby, &mut public).await;
    let accept = format!("/api/seeks/{}/accept", seek["seek"].as_str().unwrap());
    let (_, theirs) = call(&server, Some(&keys[1]), "POST", &accept).await;
    let mine = sockets[0].until("paired").await;
    let (side, _, mut seat, mut other) = sit(&server, &mine, &theirs).await;
    sides[1] = side;
    let (w, b) = if sides[1] == Side::White {
        (&mut seat, &mut other)
    } else {
        (&mut other, &mut seat)
    };
    for (s, side) in [(&mut *w, Side::White), (&mut *b, Side::Black)] {
        s.send(&json!({"t": "setup", "cells": cells(games[1].setup(side).unwrap())}))
            .await;
        s.until("ready").await;
    }
    w.until("start").await;
    b.until("start").await;
    let history = games[1].history().to_vec();
    let mut mover = games[1].first_mover();
    for (ply, report) in history.iter().enumerate() {
        let s = if mover == Side::White {
            &mut *w
        } else {
            &mut *b
        };
        s.send(&json!({"t": "move", "move": report.mv.to_string(), "ply": ply}))
            .await;
        w.until("ply").await;
        b.until("ply").await;
        mover = mover.other();
    }
    look(&mut lobby, &mut public).await;
    other.send(&json!({"t": "resign"})).await;
    seat.until("over").await;
    look(&mut lobby, &mut public).await;
    seat.send(&json!({"t": "rematch"})).await;
    other.until("rematch-offer").await;
    other.send(&json!({"t": "rematch"})).await;
    seat.until("rematch").await;
    watched.extend(
        seat.transcript
            .drain(..)
            .filter(|f| !f.starts_with(r#"{"t":"over""#)),
    );
    watched.append(&mut sockets[0].transcript);
    watched.extend(http);
    for name in ["watched", "opponent", "bystander"] {
        let path = format!("/api/players/{name}");
        let (status, mut profile) = call(&server, None, "GET", &path).await;
        // When each rated game ended is the clock's, not the game's: left out.
        for rated in profile["history"].as_array_mut().into_iter().flatten() {
            rated["ended_ms"] = Value::Null;
        }
        if name == "opponent" {
            assert_ne!(
                profile["rating"], 1500,
                "the resigned rated game moved the rating"
            );
        }
        public.push(format!("{status} {profile}"));
    }
    let bystander = std::mem::take(&mut sockets[2].transcript);
    server.stop().await;
    (
        LobbyRun {
            watched,
            bystander,
            public,
        },
        sides,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_profiles_and_a_players_sockets_cannot_tell_games_from_their_twins() {
    let games = [random_prefix(301, 0), random_prefix(302, 24)];
    let (real, sides) = lobby_run([&games[0], &games[1]], 5).await;
    let twins = [twin(&games[0], sides[0], 1), twin(&games[1], sides[1], 2)];
    let (other, twin_sides) = lobby_run([&twins[0], &twins[1]], 5).await;
    assert_eq!(sides, twin_sides, "the same seeded pairing");
    if let Some((i, a, b)) = first_difference(&real.watched, &other.watched) {
        panic!("the watched player's frame {i} differs:\n{a}\n{b}");
    }
    assert_eq!(first_difference(&real.bystander, &other.bystander), None);
    assert_eq!(first_difference(&real.public, &other.public), None);
    assert!(real.watched.iter().any(|f| f.contains(r#""t":"aborted""#)));
    assert!(real.watched.iter().any(|f| f.contains(r#""t":"rematch""#)));
    // The finished game is counted, the aborted one is not.
    assert!(
        real.public
            .iter()
            .any(|f| f.starts_with(r#"200 {"name":"watched""#)
                && f.contains(r#""games":1,"won":1,"lost":0,"drawn":0"#)),
        "{:?}",
        real.public
    );
}

/// The two seats of a pairing, each past its first state: `mine` is the paired frame that
/// names the game, this side and its token, `theirs` the other seat's.
async fn sit(server: &Server, mine: &Value, theirs: &Value) -> (Side, String, Seat, Seat) {
    let side = if mine["side"] == "white" {
        Side::White
    } else {
        Side::Black
    };
    let game = mine["game"].as_str().unwrap().to_owned();
    let mut seat = server.seat(&game, mine["token"].as_str()).await;
    let mut other = server.seat(&game, theirs["token"].as_str()).await;
    seat.until("state").await;
    other.until("state").await;
    (side, game, seat, other)
}

/// A seat's frames against a server bot, to the end, for a server seeded with `seed` (the
/// seed deals the bot's formation): the transcript, and the record.
async fn against_a_bot(seed: u64) -> (Vec<String>, String) {
    let server = start_busy(seed).await;
    let body = json!({"side": "white", "first": "white", "opponent": "random"});
    let (status, created) = server.json("POST", "/api/games", &body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["game"].as_str().unwrap();
    let mut seat = server.seat(id, created["token"].as_str()).await;
    seat.until("state").await;
    let mine = crate::common::random_game(5, 0);
    seat.send(&json!({"t": "setup", "cells": cells(mine.setup(Side::White).unwrap())}))
        .await;
    seat.until("start").await;
    // The bot's greeting, decided by the start alone.
    assert_eq!(seat.until("chat").await["phrase"], "hello");
    seat.send(&json!({"t": "say", "phrase": "good-luck"})).await;
    seat.until("chat").await;
    seat.send(&json!({"t": "resign"})).await;
    let over = seat.until("over").await;
    assert_eq!(seat.until("chat").await["phrase"], "gg");
    server.stop().await;
    let record = over["record"].as_str().unwrap().to_owned();
    (seat.transcript, record)
}

/// A server bot's lines are decided by public events alone: against bots of other
/// formations (the bots' squares differ too, so whole transcripts cannot be twins here), a
/// seat hears the same chat frames, the bot's greeting and good game included, byte for byte.
#[tokio::test]
async fn a_bots_lines_tell_nothing_of_its_formation() {
    let lines = |transcript: &[String]| -> Vec<String> {
        transcript
            .iter()
            .filter(|f| f.starts_with(r#"{"t":"chat""#))
            .cloned()
            .collect()
    };
    let (first, first_record) = against_a_bot(401).await;
    let (second, second_record) = against_a_bot(402).await;
    assert_ne!(first_record, second_record, "the bots' formations differ");
    assert_eq!(lines(&first).len(), 3, "hello, good luck, good game");
    assert_eq!(lines(&first), lines(&second));
}

/// `text` with every wall-clock time (`created_ms`, `started_ms`, `finished_ms`,
/// `paired_ms`, `cutoff_ms`, `at_ms`, and the setup time left, `setup_left_ms`) replaced by
/// `#`: when something happened depends on the run, not on a formation. Everything else
/// must be byte-identical.
fn untimed(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("_ms\":") {
        let (head, tail) = rest.split_at(at + 5);
        out.push_str(head);
        let key_end = head.len() - 5;
        let key_start = head[..key_end].rfind('"').map_or(0, |q| q + 1);
        let key = &head[key_start..key_end];
        let digits = tail.chars().take_while(char::is_ascii_digit).count();
        let wall = [
            "created",
            "started",
            "finished",
            "paired",
            "cutoff",
            "at",
            "setup_left",
        ];
        if wall.contains(&key) && digits > 0 {
            out.push('#');
            rest = &tail[digits..];
        } else {
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

/// What a watched tournament player and the public see over a four-player round robin:
/// the watched player's player socket and seats (its `over` frames, which open both
/// formations to it once its game ends, left out), and the public's replies (the
/// tournament, the list, a refused record and a refused watch of each game).
struct TournamentRun {
    watched: Vec<String>,
    public: Vec<String>,
}

/// A game dealt for a tournament board (White moves first there), `plies` long, or its
/// twin for `side` when `twin` is given.
fn board_game(seed: u64, plies: usize, twin_for: Option<Side>) -> Game {
    let seed = seed * 2; // an even seed: White first
    let game = random_prefix(seed, plies);
    match twin_for {
        Some(side) => twin(&game, side, seed + 1),
        None => game,
    }
}

async fn tournament_run(twins: bool) -> TournamentRun {
    use crate::common::{Table, player_sockets, register};
    let server = crate::common::start_on(crate::common::database("twins"), 17, |c| {
        c.limits.connects_per_minute = 100_000;
        c.limits.requests_per_minute = 100_000;
    })
    .await;
    let mut keys = Vec::new();
    for name in ["watched", "amihan", "bagwis", "dalisay"] {
        keys.push(register(&server, name).await);
    }
    let mut sockets = player_sockets(&server, &keys).await;
    let body = json!({"name": "Twins", "kind": "round-robin", "round_ms": 120_000});
    let made = crate::tournaments::made_with(&server, &keys, &body).await;
    let tid = made["id"].as_str().unwrap().to_owned();
    crate::tournaments::started(&server, &keys[0], &tid).await;
    let mut public = Vec::new();
    let mut watched_seats = Vec::new();
    for round in 1..=3_u64 {
        // Each player hears its seat of this round.
        let mut seats = Vec::new();
        for socket in &mut sockets {
            seats.push(crate::tournaments::told(socket, round).await);
        }
        let mut games: Vec<String> = seats
            .iter()
            .map(|f| f["game"].as_str().unwrap().to_owned())
            .collect();
        games.sort();
        games.dedup();
        for (n, game) in games.iter().enumerate() {
            let at = |side: &str| {
                seats
                    .iter()
                    .position(|f| f["game"] == game.as_str() && f["side"] == side)
                    .unwrap()
            };
            let (white, black) = (at("white"), at("black"));
            let token = |i: usize| seats[i]["token"].as_str().unwrap().to_owned();
            // The watched player's opponent's ranks differ between the runs.
            let watched_side = match (white, black) {
                (0, _) => Some(Side::White),
                (_, 0) => Some(Side::Black),
                _ => None,
            };
            let seed = round * 10 + n as u64;
            let plies = [6, 14, 22][(round - 1) as usize];
            let dealt = board_game(seed, plies, watched_side.filter(|_| twins));
            let mut w = server.seat(game, Some(&token(white))).await;
            w.until("state").await;
            let mut b = server.seat(game, Some(&token(black))).await;
            b.until("state").await;
            w.until("presence").await;
            let mut table = Table {
                id: game.clone(),
                tokens: [token(white), token(black)],
                seats: [w, b],
                v: 0,
            };
            table.set_up(&dealt).await;
            table.replay(&dealt, 0, dealt.history().len()).await;
            // Asked while the game is sealed: the tournament finishes with its last game's
            // end (it is told at once), and its records are then anyone's.
            for path in ["record", "replay", "chat"] {
                let (status, reply) = server
                    .http("GET", &format!("/api/games/{game}/{path}"), "")
                    .await;
                public.push(format!("{status} {reply}"));
            }
            let to_move = dealt.side_to_move();
            table.act(to_move, json!({"t": "resign"}), 1).await;
            let [w, b] = table.seats;
            if let Some(side) = watched_side {
                let seat = if side == Side::White { w } else { b };
                watched_seats.extend(
                    seat.transcript
                        .into_iter()
                        .filter(|f| !f.contains("\"t\":\"over\"")),
                );
            }
            // Once the tournament has counted the game (it is told), the public's view.
            crate::common::eventually(
                std::time::Duration::from_secs(10),
                "the game is counted",
                async || {
                    let t = crate::tournaments::tournament(&server, &tid).await;
                    crate::tournaments::boards(&t, (round - 1) as usize)
                        .iter()
                        .any(|b| b["game"] == game.as_str() && !b["result"].is_null())
                },
            )
            .await;
            let (status, reply) = server
                .http("GET", &format!("/api/tournaments/{tid}"), "")
                .await;
            public.push(format!("{status} {reply}"));
        }
        crate::common::eventually(
            std::time::Duration::from_secs(10),
            "the round is decided",
            async || {
                let t = crate::tournaments::tournament(&server, &tid).await;
                crate::tournaments::boards(&t, (round - 1) as usize)
                    .iter()
                    .all(|b| !b["result"].is_null())
            },
        )
        .await;
    }
    crate::common::eventually(
        std::time::Duration::from_secs(10),
        "it finishes",
        async || {
            let (_, t) = server
                .http("GET", &format!("/api/tournaments/{tid}"), "")
                .await;
            t.contains("\"status\":\"finished\"")
        },
    )
    .await;
    for path in [
        format!("/api/tournaments/{tid}"),
        "/api/tournaments".to_owned(),
    ] {
        let (status, reply) = server.http("GET", &path, "").await;
        public.push(format!("{status} {reply}"));
    }
    let mut watched = std::mem::take(&mut sockets[0].transcript);
    watched.extend(watched_seats);
    server.stop().await;
    TournamentRun {
        watched: watched.iter().map(|f| untimed(f)).collect(),
        public: public.iter().map(|f| untimed(f)).collect(),
    }
}

/// A tournament whose watched player's opponents have other ranks in every game: the
/// player's sockets and the public's replies (standings, pairings, log, the list, and the
/// refusals of every sealed record, replay and chat) are byte-identical, once wall-clock
/// times and commitment digests are set aside.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_tells_nobody_its_games_hidden_ranks() {
    let real = tournament_run(false).await;
    let other = tournament_run(true).await;
    if let Some((i, a, b)) = first_difference(&real.watched, &other.watched) {
        panic!("the watched player's frame {i} differs:\n{a}\n{b}");
    }
    if let Some((i, a, b)) = first_difference(&real.public, &other.public) {
        panic!("the public's reply {i} differs:\n{a}\n{b}");
    }
    assert!(
        real.public
            .iter()
            .any(|r| r.starts_with("403 ") && r.contains("\"sealed\""))
    );
    assert!(real.public.last().unwrap().contains("\"finished\""));
    assert!(
        real.watched
            .iter()
            .filter(|f| f.contains("\"t\":\"start\""))
            .count()
            == 3
    );
}
