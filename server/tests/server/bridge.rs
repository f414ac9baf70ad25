//! The bridge: an engine of the engine protocol plays on the server as a bot account. It
//! answers a challenge, plays its game through a kill -9 of the server and its restart, and
//! plays on; and the lines its engine hears are byte-identical for a game and its twin (the
//! same public history, other enemy ranks).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use salpakan::{Game, Rules, Setup, Side};
use salpakan_engine::engine::Engine;
use salpakan_engine::host::{Limits, Seat};
use salpakan_engine::protocol::{EngineLine, HostLine};
use salpakan_server::bridge::{Accept, Launch, Options, run};
use serde_json::json;
use tokio::sync::watch;

use crate::common::call;
use crate::common::post_as;
use crate::common::{
    Killed, Server, as_player, cells, database, eventually, register, spawn_binary, start,
};

/// The server binary on `db` at `port` (a restart keeps its address), the bots' floor short,
/// and room for the test's polling from the one address all its clients share.
fn binary_on(db: &std::path::Path, port: u16) -> (Killed, Server) {
    let (child, server) = spawn_binary(
        std::process::Command::new(env!("CARGO_BIN_EXE_salpakan-server"))
            .args(["--addr", &format!("127.0.0.1:{port}")])
            .args(["--rated-one-address", "--bot-floor-ms", "60"])
            .args(["--connects-per-minute", "10000", "--db"])
            .arg(db),
    );
    (Killed(child), server)
}

async fn bot_account(server: &Server, name: &str) -> String {
    let body = json!({"name": name, "bot": true, "description": "a bridge test's engine"});
    let (status, made) = as_player(server, None, "POST", "/api/players", &body).await;
    assert_eq!(status, 201, "{made}");
    made["key"].as_str().unwrap().to_owned()
}

fn bridge(
    server: &Server,
    key: &str,
    engine: Launch,
) -> (watch::Sender<bool>, tokio::task::JoinHandle<()>) {
    let options = Options {
        addr: server.addr,
        key: key.to_owned(),
        engine,
        games: 1,
        accept: Accept::default(),
        pool: None,
        limits: Limits::default(),
    };
    let (stop, stopped) = watch::channel(false);
    let task = tokio::spawn(async move {
        run(options, stopped)
            .await
            .expect("the bridge runs until stopped");
    });
    (stop, task)
}

async fn online(server: &Server, name: &str) -> bool {
    let (_, list) = call(server, None, "GET", "/api/bots").await;
    list["bots"].as_array().is_some_and(|bots| {
        bots.iter()
            .any(|b| b["name"] == name && b["online"] == true)
    })
}

/// The game in play between `a` and `b`, from the live list.
async fn live_game(server: &Server, a: &str, b: &str, not: Option<&str>) -> Option<String> {
    let (_, live) = call(server, None, "GET", "/api/live").await;
    live["games"].as_array()?.iter().find_map(|g| {
        let names = [g["names"]["white"].as_str()?, g["names"]["black"].as_str()?];
        let id = g["game"].as_str()?;
        (names.contains(&a) && names.contains(&b) && Some(id) != not).then(|| id.to_owned())
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_plays_as_a_bot_through_a_server_restart() {
    let db = database("bridge-restart");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let (mut process, server) = binary_on(&db, port);
    let alpha = bot_account(&server, "alpha_bot").await;
    let beta = bot_account(&server, "beta_bot").await;
    // Alpha's bridge runs on a token that may only play (`bot:play`), not on the key; the
    // token outlives the restart below.
    let scopes = json!({"scopes": ["bot:play"], "label": "bridge"});
    let (status, minted) = post_as(&server, &alpha, "/api/tokens", &scopes).await;
    assert_eq!(status, 201, "{minted}");
    let alpha = minted["token"].as_str().unwrap().to_owned();
    let (stop_a, task_a) = bridge(&server, &alpha, Launch::agent("greedy", 11).unwrap());
    let (stop_b, task_b) = bridge(&server, &beta, Launch::agent("random", 12).unwrap());
    eventually(Duration::from_secs(10), "both bridges online", async || {
        online(&server, "alpha_bot").await && online(&server, "beta_bot").await
    })
    .await;

    // Beta's owner challenges alpha: alpha's bridge accepts, beta's is paired, both play.
    let challenge = json!({"to": "alpha_bot", "rated": true});
    let (status, made) = post_as(&server, &beta, "/api/challenges", &challenge).await;
    assert_eq!(status, 201, "{made}");
    let mut game = None;
    eventually(Duration::from_secs(10), "the game in play", async || {
        game = live_game(&server, "alpha_bot", "beta_bot", None).await;
        game.is_some()
    })
    .await;
    let game = game.unwrap();
    let summary = format!("/api/games/{game}");
    eventually(Duration::from_secs(20), "ten plies played", async || {
        let (_, s) = call(&server, None, "GET", &summary).await;
        s["ply"].as_u64().is_some_and(|p| p >= 10) || s["phase"] == "over"
    })
    .await;

    // kill -9, and the same server again on the same address.
    process.kill();
    let (restarted, server) = binary_on(&db, port);
    process = restarted;
    let (_, at_restart) = call(&server, None, "GET", &summary).await;
    assert_eq!(
        at_restart["bots"],
        json!({"white": true, "black": true}),
        "{at_restart}"
    );
    eventually(
        Duration::from_secs(90),
        "the game played to its end",
        async || {
            let (_, s) = call(&server, None, "GET", &summary).await;
            s["phase"] == "over"
        },
    )
    .await;
    let (_, over) = call(&server, None, "GET", &summary).await;
    let plies = over["ply"].as_u64().unwrap();
    assert!(
        plies > at_restart["ply"].as_u64().unwrap(),
        "played on after the restart: {at_restart} then {over}"
    );
    assert_ne!(over["status"]["reason"], "abandoned", "{over}");
    assert_ne!(over["status"]["reason"], "time", "{over}");
    let (status, record) = server
        .http("GET", &format!("/api/games/{game}/record"), "")
        .await;
    assert_eq!(status, 200);
    assert!(salpakan::Game::from_record(&record).is_ok(), "{record}");
    for name in ["alpha_bot", "beta_bot"] {
        let (_, profile) = call(&server, None, "GET", &format!("/api/players/{name}")).await;
        assert_eq!(
            (profile["games"].as_u64(), &profile["bot"]),
            (Some(1), &json!(true)),
            "{profile}"
        );
        assert!(profile["rd"].as_i64().unwrap() < 350, "rated: {profile}");
    }

    // Both player sockets came back: a second challenge is answered and played.
    eventually(
        Duration::from_secs(15),
        "both bridges online again",
        async || online(&server, "alpha_bot").await && online(&server, "beta_bot").await,
    )
    .await;
    let (status, made) = post_as(&server, &beta, "/api/challenges", &challenge).await;
    assert_eq!(status, 201, "{made}");
    eventually(Duration::from_secs(10), "a second game", async || {
        live_game(&server, "alpha_bot", "beta_bot", Some(&game))
            .await
            .is_some()
    })
    .await;
    let _ = stop_a.send(true);
    let _ = stop_b.send(true);
    let _ = tokio::join!(task_a, task_b);
    drop(process);
}

/// A game of `plies` plies at most from fixed formations, `first` to move, and, with
/// `twin`, a twin `side` cannot tell from it (other enemy ranks, the same public history).
fn script(side: Side, first: Side, twin: bool) -> Game {
    let rules = Rules::default();
    let mut game = Game::new(
        Setup::random(Side::White, rules, 501),
        Setup::random(Side::Black, rules, 502),
        first,
        rules,
    )
    .unwrap();
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    for _ in 0..80 {
        let moves = game.legal_moves();
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mv = moves[(state % moves.len() as u64) as usize];
        let mut next = game.clone();
        next.play(mv).unwrap();
        if !next.status().is_ongoing() {
            break;
        }
        game = next;
    }
    if !twin {
        return game;
    }
    (1..100)
        .map(|s| game.sample(side, s).unwrap())
        .find(|t| t.setup(side.other()) != game.setup(side.other()))
        .expect("a twin")
}

/// An engine that plays its side of [`script`], keeping every line it hears.
struct Scripted {
    twin: bool,
    heard: Arc<Mutex<Vec<String>>>,
    own: Option<Setup>,
    moves: Vec<salpakan::Move>,
}

impl Engine for Scripted {
    fn answer(&mut self, line: &HostLine) -> Vec<EngineLine> {
        self.heard.lock().unwrap().push(line.to_string());
        match line {
            HostLine::Hello { .. } => vec![EngineLine::SepOk],
            HostLine::NewGame { side, first, .. } => {
                let game = script(*side, *first, self.twin);
                let mut replay = Game::new(
                    game.setup(Side::White).unwrap().clone(),
                    game.setup(Side::Black).unwrap().clone(),
                    *first,
                    game.rules(),
                )
                .unwrap();
                self.moves.clear();
                for report in game.history() {
                    if replay.side_to_move() == *side {
                        self.moves.push(report.mv);
                    }
                    replay.play(report.mv).unwrap();
                }
                self.moves.reverse();
                self.own = game.setup(*side).cloned();
                vec![EngineLine::Ready]
            }
            HostLine::Formation => self
                .own
                .clone()
                .map(EngineLine::Formation)
                .into_iter()
                .collect(),
            HostLine::Go { .. } => match self.moves.pop() {
                Some(mv) => vec![EngineLine::Move(mv)],
                None => vec![EngineLine::Resign],
            },
            _ => Vec::new(),
        }
    }
}

/// One run: the bot account's engine plays its side of the script (or of its twin) against
/// Maria, who plays the other side's moves and resigns when they run out. Returns every
/// line the engine heard.
async fn scripted_run(twin: bool) -> Vec<String> {
    let server = start(87).await;
    let key = bot_account(&server, "script_bot").await;
    let maria = register(&server, "Maria").await;
    let heard = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&heard);
    let launch = Launch::InProcess(Arc::new(move |_| {
        Ok(Seat::in_process(Scripted {
            twin,
            heard: Arc::clone(&kept),
            own: None,
            moves: Vec::new(),
        }))
    }));
    let (stop, task) = bridge(&server, &key, launch);
    eventually(Duration::from_secs(10), "the bridge online", async || {
        online(&server, "script_bot").await
    })
    .await;
    let mut maria_socket = crate::common::player_socket(&server, &maria).await;
    let (status, _) = post_as(
        &server,
        &maria,
        "/api/challenges",
        &json!({"to": "script_bot"}),
    )
    .await;
    assert_eq!(status, 201);
    let paired = maria_socket.until("paired").await;
    let id = paired["game"].as_str().unwrap();
    let (_, summary) = server.summary(id).await;
    let mine: Side = paired["side"].as_str().unwrap().parse().unwrap();
    let first: Side = summary["first"].as_str().unwrap().parse().unwrap();
    let game = script(mine.other(), first, twin);
    let mut seat = server.seat(id, paired["token"].as_str()).await;
    seat.send(&json!({"t": "setup", "cells": cells(game.setup(mine).unwrap())}))
        .await;
    seat.until("start").await;
    let mut replay = at_start(&game, first);
    for (ply, report) in game.history().iter().enumerate() {
        if replay.side_to_move() == mine {
            seat.send(&json!({"t": "move", "move": report.mv.to_string(), "ply": ply}))
                .await;
        }
        let frame = seat.until("ply").await;
        assert_eq!(frame["move"], report.mv.to_string(), "the script is played");
        replay.play(report.mv).unwrap();
    }
    if replay.side_to_move() == mine {
        seat.send(&json!({"t": "resign"})).await;
    }
    let over = seat.until("over").await;
    assert_eq!(over["status"]["reason"], "resignation", "{over}");
    eventually(
        Duration::from_secs(10),
        "the engine told of the end",
        async || heard.lock().unwrap().iter().any(|l| l.starts_with("over")),
    )
    .await;
    let _ = stop.send(true);
    let _ = task.await;
    server.stop().await;
    heard.lock().unwrap().clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bots_engine_hears_the_same_lines_in_a_game_and_its_twin() {
    let real = scripted_run(false).await;
    let twin = scripted_run(true).await;
    assert!(real.iter().any(|l| l.starts_with("start ")), "{real:?}");
    assert!(
        real.iter().filter(|l| l.starts_with("ply ")).count() >= 30,
        "{real:?}"
    );
    // Some challenge was announced: the twins' ranks were tested where they met.
    assert!(
        real.iter().any(|l| l.starts_with("ply ")
            && (l.contains(" win ") || l.contains(" lose ") || l.contains(" tie "))),
        "{real:?}"
    );
    assert_eq!(real, twin, "the engine heard something of the hidden ranks");
}

/// `frame` with what a wall clock or a secret salt puts in it masked: a commitment's digests
/// (as the seats' twin test does), a challenge's lapse time, the setup time left.
fn masked(frame: &str) -> String {
    let mut out = crate::noninterference::sealed(frame);
    for key in ["\"expires_ms\":", "\"setup_left_ms\":"] {
        if let Some(at) = out.find(key) {
            let start = at + key.len();
            let end = out[start..]
                .find(|c: char| !c.is_ascii_digit())
                .map_or(out.len(), |n| start + n);
            out.replace_range(start..end, "#");
        }
    }
    out
}

/// One run of a bot account's game, the test playing the bot (its player socket and its
/// seat, every frame kept) and Maria, each side's moves from [`script`] (or its twin's).
/// Returns the frames the bot account received, in order, up to the game's end.
async fn bot_frames(twin: bool) -> Vec<String> {
    let server = start(88).await;
    let bot_key = bot_account(&server, "plain_bot").await;
    let maria = register(&server, "Maria").await;
    let mut bot_socket = crate::common::player_socket(&server, &bot_key).await;
    let mut maria_socket = crate::common::player_socket(&server, &maria).await;
    let body = json!({"to": "plain_bot"});
    let (status, _) = post_as(&server, &maria, "/api/challenges", &body).await;
    assert_eq!(status, 201);
    let offer = bot_socket.until("challenge").await;
    let accept = format!(
        "/api/challenges/{}/accept",
        offer["challenge"].as_str().unwrap()
    );
    let (status, seat) = call(&server, Some(&bot_key), "POST", &accept).await;
    assert_eq!(status, 200, "{seat}");
    bot_socket.until("challenge-gone").await;
    let paired = maria_socket.until("paired").await;
    let id = seat["game"].as_str().unwrap();
    let bot_side: Side = seat["side"].as_str().unwrap().parse().unwrap();
    let (_, summary) = server.summary(id).await;
    let first: Side = summary["first"].as_str().unwrap().parse().unwrap();
    let game = script(bot_side, first, twin);
    let mut bot = server.seat(id, seat["token"].as_str()).await;
    bot.until("state").await;
    let mut her = server.seat(id, paired["token"].as_str()).await;
    her.until("state").await;
    bot.until("presence").await;
    let mut seats = [bot, her];
    let sides = [bot_side, bot_side.other()];
    for (seat, side) in seats.iter_mut().zip(sides) {
        seat.send(&json!({"t": "setup", "cells": cells(game.setup(side).unwrap())}))
            .await;
        seat.until("ready").await;
    }
    for seat in &mut seats {
        seat.until("start").await;
    }
    let mut replay = at_start(&game, first);
    for (ply, report) in game.history().iter().enumerate() {
        let mover = usize::from(replay.side_to_move() != bot_side);
        seats[mover]
            .send(&json!({"t": "move", "move": report.mv.to_string(), "ply": ply}))
            .await;
        for seat in &mut seats {
            seat.until("ply").await;
        }
        replay.play(report.mv).unwrap();
    }
    let mover = usize::from(replay.side_to_move() != bot_side);
    seats[mover].send(&json!({"t": "resign"})).await;
    for seat in &mut seats {
        seat.until("over").await;
    }
    server.stop().await;
    let [bot, _] = seats;
    // Up to the end: `over` opens both formations, by design.
    bot_socket
        .transcript
        .iter()
        .chain(
            bot.transcript
                .iter()
                .take_while(|f| !f.contains("\"t\":\"over\"")),
        )
        .map(|f| masked(f))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_account_receives_the_same_frames_in_a_game_and_its_twin() {
    let real = bot_frames(false).await;
    let twin = bot_frames(true).await;
    assert!(
        real.iter().any(|f| f.contains("\"t\":\"challenge\"")),
        "{real:?}"
    );
    assert!(
        real.iter().filter(|f| f.contains("\"t\":\"ply\"")).count() >= 30,
        "{real:?}"
    );
    assert!(
        real.iter()
            .any(|f| f.contains("\"outcome\":\"win\"") || f.contains("\"outcome\":\"lose\"")),
        "the ranks met in a challenge"
    );
    assert_eq!(
        real, twin,
        "a bot account's frames told something of the hidden ranks"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bridge_refuses_a_persons_account_and_a_wrong_key() {
    let server = start(89).await;
    let person = register(&server, "Tala").await;
    for (key, says) in [
        (person.as_str(), "a person's account"),
        ("not-a-key", "not a player's key"),
    ] {
        let options = Options {
            addr: server.addr,
            key: key.to_owned(),
            engine: Launch::agent("random", 1).unwrap(),
            games: 1,
            accept: Accept::default(),
            pool: None,
            limits: Limits::default(),
        };
        let (_stop, stopped) = watch::channel(false);
        let refused = tokio::time::timeout(Duration::from_secs(10), run(options, stopped))
            .await
            .expect("refused at once, never retried");
        let why = refused.expect_err("the bridge does not run").to_string();
        assert!(why.contains(says), "{why}");
    }
    server.stop().await;
}

/// `game` as it stood before its first move (`first` moved first).
fn at_start(game: &Game, first: Side) -> Game {
    Game::new(
        game.setup(Side::White).unwrap().clone(),
        game.setup(Side::Black).unwrap().clone(),
        first,
        game.rules(),
    )
    .unwrap()
}
