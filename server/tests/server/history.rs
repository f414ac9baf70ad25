//! After the game: each player's finished games (newest first, paged, never a game in play or
//! an aborted one), ratings moved by Glicko-2 in the transaction that ends a rated game (and
//! not lost or doubled by a SIGKILL at any moment around it), and the leaderboard.

use salpakan::Side;
use salpakan_server::rating::glicko::Glicko;
use serde_json::{Value, json};

use crate::common::call;
use crate::common::post_as;
use crate::common::{Server, database, random_game, register, register_all, start};

/// How a test game ends.
#[derive(Clone, Copy)]
pub enum End {
    /// Black resigns after each side's second ply.
    BlackResigns,
    /// White resigns after each side's second ply.
    WhiteResigns,
    /// A draw agreed after each side's second ply.
    Draw,
    /// Not ended: left after each side's second ply.
    InPlay,
    /// Aborted (by White) before the first ply.
    Aborted,
    /// White resigns after the first ply: before its second, too early to count.
    WhiteResignsEarly,
}

/// Plies played before a test game ends: each side's two (a game ended sooner is neither
/// rated nor counted).
const PLAYED: usize = 4;

/// A game between the players of `white` and `black` (keys) ended as `end`; its id.
pub async fn play(server: &Server, white: &str, black: &str, rated: bool, end: End) -> String {
    let body = json!({"rated": rated, "side": "white", "first": "white"});
    let (status, created) = post_as(server, white, "/api/games", &body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["game"].as_str().unwrap().to_owned();
    let join = format!("/api/games/{id}/join");
    let invite = json!({"invite": created["invite"]});
    let (status, joined) = post_as(server, black, &join, &invite).await;
    assert_eq!(status, 200, "{joined}");
    SEATS
        .lock()
        .unwrap()
        .insert(id.clone(), joined["token"].as_str().unwrap().to_owned());
    let game = random_game(2 * u64::from(id.as_bytes()[0]), PLAYED);
    let mut w = server.seat(&id, created["token"].as_str()).await;
    let mut b = server.seat(&id, joined["token"].as_str()).await;
    for (seat, side) in [(&mut w, Side::White), (&mut b, Side::Black)] {
        seat.until("state").await;
        let cells = crate::common::cells(game.setup(side).unwrap());
        seat.send(&json!({"t": "setup", "cells": cells})).await;
    }
    w.until("start").await;
    if let End::Aborted = end {
        w.send(&json!({"t": "abort"})).await;
        w.until("aborted").await;
        return id;
    }
    let plies = if let End::WhiteResignsEarly = end {
        1
    } else {
        PLAYED
    };
    for (ply, report) in game.history()[..plies].iter().enumerate() {
        let mover = if ply % 2 == 0 { &mut w } else { &mut b };
        mover
            .send(&json!({"t": "move", "move": report.mv.to_string(), "ply": ply}))
            .await;
        w.until("ply").await;
        b.until("ply").await;
    }
    match end {
        End::BlackResigns => b.send(&json!({"t": "resign"})).await,
        End::WhiteResigns | End::WhiteResignsEarly => w.send(&json!({"t": "resign"})).await,
        End::Draw => {
            w.send(&json!({"t": "draw"})).await;
            b.until("draw-offer").await;
            b.send(&json!({"t": "draw"})).await;
        }
        End::InPlay | End::Aborted => return id,
    }
    w.until("over").await;
    id
}

async fn get(server: &Server, path: &str) -> (u16, Value) {
    call(server, None, "GET", path).await
}

/// A player's stored values as its profile shows them (rounded).
fn shown(g: Glicko) -> (i64, i64) {
    (g.rating.round() as i64, g.rd.round() as i64)
}

async fn profile_of(server: &Server, name: &str) -> (i64, i64) {
    let (status, p) = get(server, &format!("/api/players/{name}")).await;
    assert_eq!(status, 200, "{p}");
    (p["rating"].as_i64().unwrap(), p["rd"].as_i64().unwrap())
}

fn ids(list: &Value) -> Vec<String> {
    list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn ratings_move_by_glicko_2_and_each_player_lists_its_finished_games() {
    let server = start(61).await;
    let [ana, ben, cy] = register_all(&server, ["ana", "ben", "cyd"]).await;
    // Ana beats Ben (rated): both from 1500 / 350 / 0.06.
    let first = play(&server, &ana, &ben, true, End::BlackResigns).await;
    let (a1, b1) = Glicko::game(Glicko::NEW, Glicko::NEW, 1.0);
    assert_eq!(profile_of(&server, "ana").await, shown(a1));
    assert_eq!(profile_of(&server, "BEN").await, shown(b1));
    assert_eq!(shown(a1), (1662, 290), "a new player's first win");
    // Each player's rating history, and the game's entry in the lists: before and after.
    let (_, list) = get(&server, "/api/players/ana/games").await;
    assert_eq!(
        list["games"][0]["ratings"],
        json!({"white": {"before": 1500, "after": 1662}, "black": {"before": 1500, "after": shown(b1).0}})
    );
    let (_, profile) = get(&server, "/api/players/ben").await;
    assert_eq!(profile["history"][0]["game"], first.as_str());
    assert_eq!(
        (
            &profile["history"][0]["before"],
            &profile["history"][0]["after"]
        ),
        (&json!(1500), &json!(shown(b1).0))
    );
    // Ben and Ana draw (Ben White): each from its values after the first game.
    let second = play(&server, &ben, &ana, true, End::Draw).await;
    let (b2, a2) = Glicko::game(b1, a1, 0.5);
    assert_eq!(profile_of(&server, "ana").await, shown(a2));
    assert_eq!(profile_of(&server, "ben").await, shown(b2));
    assert!(b2.rating > b1.rating && a2.rating < a1.rating);
    assert!(a2.rd <= a1.rd && b2.rd <= b1.rd);
    // Unrated, aborted and unfinished games move nothing and are not listed.
    let unrated = play(&server, &ana, &cy, false, End::WhiteResigns).await;
    let _aborted = play(&server, &ana, &cy, true, End::Aborted).await;
    let in_play = play(&server, &cy, &ana, true, End::InPlay).await;
    assert_eq!(profile_of(&server, "ana").await, shown(a2));
    assert_eq!(profile_of(&server, "cyd").await, (1500, 350));
    let (_, p) = get(&server, "/api/players/cyd").await;
    assert_eq!((p["games"].as_u64(), p["won"].as_u64()), (Some(1), Some(1)));

    // Newest first, with what the contract names.
    let (status, list) = get(&server, "/api/players/Ana/games").await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(ids(&list), [unrated.clone(), second.clone(), first.clone()]);
    let newest = &list["games"][0];
    assert_eq!(newest["names"], json!({"white": "ana", "black": "cyd"}));
    assert_eq!(
        newest["status"],
        json!({"state": "won", "winner": "black", "reason": "resignation"})
    );
    assert_eq!(
        (newest["rated"].as_bool(), newest["plies"].as_u64()),
        (Some(false), Some(PLAYED as u64))
    );
    assert_eq!(
        newest["ratings"],
        Value::Null,
        "an unrated game changed no rating"
    );
    let (_, profile) = get(&server, "/api/players/ana").await;
    let history: Vec<&str> = profile["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["game"].as_str().unwrap())
        .collect();
    assert_eq!(
        history,
        [second.as_str(), first.as_str()],
        "the rated games, newest first"
    );
    assert!(newest["ended_ms"].as_u64().unwrap() >= list["games"][1]["ended_ms"].as_u64().unwrap());
    assert_eq!(list["games"][1]["status"]["reason"], "agreement");
    // Paged: one at a time, each page after the last one's game.
    let mut paged = Vec::new();
    let mut path = "/api/players/ana/games?limit=1".to_owned();
    loop {
        let (status, page) = get(&server, &path).await;
        assert_eq!(status, 200, "{page}");
        let got = ids(&page);
        assert!(got.len() <= 1);
        let Some(last) = got.last() else { break };
        paged.push(last.clone());
        path = format!("/api/players/ana/games?limit=1&before={last}");
    }
    assert_eq!(paged, ids(&list));
    let (_, cys) = get(&server, "/api/players/cyd/games").await;
    assert_eq!(ids(&cys), std::slice::from_ref(&unrated));
    // Bad queries: each refused with its reason; the game in play is refused as a game
    // that does not exist is.
    for (query, status, code) in [
        ("limit=0", 400, "bad-message"),
        ("limit=101", 400, "bad-message"),
        ("limit=ten", 400, "bad-message"),
        ("before=0123", 400, "bad-message"),
    ] {
        let (got, reply) = get(&server, &format!("/api/players/ana/games?{query}")).await;
        assert_eq!(
            (got, reply["error"].as_str()),
            (status, Some(code)),
            "{query}: {reply}"
        );
    }
    let (_, a) = get(&server, &format!("/api/players/ana/games?before={in_play}")).await;
    let (_, b) = get(
        &server,
        "/api/players/ana/games?before=ffffffffffffffffffffffffffffffff",
    )
    .await;
    assert_eq!(a, b);
    let (status, _) = get(&server, "/api/players/nobody/games").await;
    assert_eq!(status, 404);
    let (_, limit100) = get(&server, "/api/players/ana/games?limit=100").await;
    assert_eq!(ids(&limit100), ids(&list));
    // The record of a game in play: 409, as before.
    let (status, _) = get(&server, &format!("/api/games/{in_play}/record")).await;
    assert_eq!(status, 409);
    server.stop().await;
}

#[tokio::test]
async fn the_leaderboard_lists_settled_ratings_highest_first() {
    let server = start(62).await;
    let [ana, ben] = register_all(&server, ["ana", "ben"]).await;
    let (_, empty) = get(&server, "/api/leaderboard").await;
    assert_eq!(empty, json!({"players": []}), "nobody settled yet");
    // Ana wins two of three, again and again, until both are settled.
    let (mut a, mut b) = (Glicko::NEW, Glicko::NEW);
    let mut games = 0;
    while a.rd > 110.0 || b.rd > 110.0 {
        let ana_scores = games % 3 != 2;
        let end = if ana_scores {
            End::BlackResigns
        } else {
            End::WhiteResigns
        };
        play(&server, &ana, &ben, true, end).await;
        (a, b) = Glicko::game(a, b, if ana_scores { 1.0 } else { 0.0 });
        games += 1;
        let (_, board) = get(&server, "/api/leaderboard").await;
        let listed: Vec<&str> = board["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        let settled: Vec<&str> = [("ana", a), ("ben", b)]
            .into_iter()
            .filter(|(_, g)| g.rd <= 110.0)
            .map(|(n, _)| n)
            .collect();
        assert_eq!(listed, settled, "after {games} games");
    }
    let (_, board) = get(&server, "/api/leaderboard").await;
    assert_eq!(
        board["players"][0],
        json!({"name": "ana", "bot": false, "rating": a.rating.round() as i64,
               "rd": a.rd.round() as i64, "games": games, "title": title_of(a)})
    );
    assert!(a.rating > b.rating);
    assert_eq!(profile_of(&server, "ben").await, shown(b));
    server.stop().await;
}

fn title_of(g: Glicko) -> &'static str {
    salpakan_server::rating::title(g.rating, g.rd)
}

#[tokio::test]
async fn a_sigkill_around_a_rated_games_end_neither_loses_nor_doubles_the_ratings() {
    let db = database("rating-crash");
    let spawn = || crate::common::killable(&db);
    let (mut child, mut server) = spawn();
    let keys = register_all(&server, ["kim", "lee"]).await;
    // Kim's expected values, game by game: a game counts once or not at all.
    let (mut kim, mut lee) = (Glicko::NEW, Glicko::NEW);
    let mut counted = 0;
    for round in 0..10u64 {
        let id = play(&server, &keys[0], &keys[1], true, End::InPlay).await;
        // Black resigns, and the server is killed after a delay that sweeps the window
        // between the resignation's arrival and its commit (and the memory's update).
        let mut black = reseat(&server, &id).await;
        black.send(&json!({"t": "resign"})).await;
        if round > 0 {
            // A blocking sleep: the runtime's timer rounds to milliseconds.
            std::thread::sleep(std::time::Duration::from_micros(round * round * 40));
        }
        drop(child);
        (child, server) = spawn();
        let (_, summary) = get(&server, &format!("/api/games/{id}")).await;
        let over = summary["phase"] == "over";
        eprintln!(
            "round {round}: the resignation {}",
            if over {
                "was committed"
            } else {
                "was lost with the process"
            }
        );
        if over {
            (kim, lee) = Glicko::game(kim, lee, 1.0);
            counted += 1;
        }
        assert_eq!(
            profile_of(&server, "kim").await,
            shown(kim),
            "round {round}"
        );
        assert_eq!(
            profile_of(&server, "lee").await,
            shown(lee),
            "round {round}"
        );
        let (_, p) = get(&server, "/api/players/kim").await;
        assert_eq!(p["games"].as_u64(), Some(counted), "round {round}");
        if !over {
            // Still in play after the restart: ended now, and counted once.
            let mut black = reseat(&server, &id).await;
            black.send(&json!({"t": "resign"})).await;
            black.until("over").await;
            (kim, lee) = Glicko::game(kim, lee, 1.0);
            counted += 1;
            assert_eq!(profile_of(&server, "kim").await, shown(kim));
        }
    }
    // The stored values are exact, not just their rounding: one more restart, then the list.
    drop(child);
    let (_child, server) = spawn();
    assert_eq!(profile_of(&server, "lee").await, shown(lee));
    let (_, list) = get(&server, "/api/players/kim/games?limit=100").await;
    assert_eq!(list["games"].as_array().unwrap().len() as u64, counted);
}

/// Black's seat of game `id` again (its token from the seat table kept by [`play`]).
async fn reseat(server: &Server, id: &str) -> crate::common::Seat {
    let token = SEATS
        .lock()
        .unwrap()
        .get(id)
        .cloned()
        .expect("a seat played");
    let mut seat = server.seat(id, Some(&token)).await;
    seat.until("state").await;
    seat
}

/// Black's token of each game [`play`] made.
static SEATS: std::sync::Mutex<std::collections::BTreeMap<String, String>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

/// A whole random game with challenges, played through the server to its end: its id, and
/// the game.
async fn finished_game(server: &Server) -> (String, salpakan::Game) {
    // A whole random game with challenges, played through the server.
    let game = (0..)
        .map(|seed| crate::common::random_game(seed, 400))
        .find(|g| {
            !g.status().is_ongoing()
                && g.history().iter().filter(|r| r.outcome.is_some()).count() >= 5
        })
        .unwrap();
    let mut table = crate::common::Table::open(
        server,
        json!({"first": game.first_mover().word(), "move_limit": 0}),
    )
    .await;
    table.set_up(&game).await;
    table.replay(&game, 0, game.history().len()).await;
    let id = table.id.clone();
    (id, game)
}

#[tokio::test]
async fn many_asking_at_once_for_one_replay_compute_it_once() {
    let server = start(64).await;
    let (id, _) = finished_game(&server).await;
    let path = format!("/api/games/{id}/replay");
    let asks = (0..16).map(|_| server.http("GET", &path, ""));
    let replies = futures_util::future::join_all(asks).await;
    assert!(replies.iter().all(|r| r.0 == 200 && *r == replies[0]));
    let running = server.running.as_ref().unwrap();
    assert_eq!(
        running.replays_computed(),
        1,
        "one computation for 16 requests"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_finished_games_replay_is_the_engines_and_a_game_in_play_has_none() {
    let server = start(63).await;
    let (id, game) = finished_game(&server).await;
    let (status, text) = server
        .http("GET", &format!("/api/games/{id}/record"), "")
        .await;
    assert_eq!(status, 200);
    let (status, reply) = get(&server, &format!("/api/games/{id}/replay")).await;
    assert_eq!(status, 200, "{reply}");
    let want = salpakan::Replay::from_record(&text).unwrap();
    assert_eq!(reply["game"], id.as_str());
    assert_eq!(reply["plies"].as_u64(), Some(game.history().len() as u64));
    let challenges = reply["challenges"].as_array().unwrap();
    let plies: Vec<usize> = (1..=want.plies())
        .filter(|&p| want.odds(p).is_some())
        .collect();
    assert_eq!(challenges.len(), plies.len());
    for (c, ply) in challenges.iter().zip(plies) {
        let o = want.odds(ply).unwrap();
        assert_eq!(c["ply"].as_u64(), Some(ply as u64));
        assert_eq!(c["attacker"], o.attacker.word());
        assert_eq!(c["rank"].as_u64(), Some(o.rank as u64));
        assert_eq!(c["outcome"], o.outcome.name());
        for (key, value) in [("win", o.win), ("tie", o.tie), ("lose", o.lose)] {
            assert!((c[key].as_f64().unwrap() - value).abs() < 1e-12, "{c}");
        }
    }
    for side in Side::ALL {
        let luck = want.luck(side);
        let got = &reply["luck"][side.word()];
        assert_eq!(got["challenges"].as_u64(), Some(u64::from(luck.challenges)));
        assert!((got["luck"].as_f64().unwrap() - luck.luck()).abs() < 1e-12);
    }
    // Asked again: the same bytes (kept).
    let path = format!("/api/games/{id}/replay");
    let first = server.http("GET", &path, "").await;
    assert_eq!(first, server.http("GET", &path, "").await);
    // A game in play: refused as its record is; an aborted one and none at all: 404.
    let [ana, ben] = register_all(&server, ["ana", "ben"]).await;
    let in_play = play(&server, &ana, &ben, true, End::InPlay).await;
    let aborted = play(&server, &ana, &ben, true, End::Aborted).await;
    for (game, status) in [
        (in_play.as_str(), 409),
        (aborted.as_str(), 404),
        ("ffffffffffffffffffffffffffffffff", 404),
        ("nonsense", 404),
    ] {
        let record = server
            .http("GET", &format!("/api/games/{game}/record"), "")
            .await;
        let replay = server
            .http("GET", &format!("/api/games/{game}/replay"), "")
            .await;
        assert_eq!(replay.0, status, "{game}");
        if status == 409 {
            assert_eq!(
                record, replay,
                "the replay of a game in play is refused as its record is"
            );
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn a_server_bot_is_a_rated_player() {
    let server = start(64).await;
    let key = register(&server, "solo").await;
    let body = json!({"rated": true, "opponent": "greedy", "side": "white", "first": "white"});
    let (status, created) = post_as(&server, &key, "/api/games", &body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["game"].as_str().unwrap();
    let mut seat = server.seat(id, created["token"].as_str()).await;
    seat.until("state").await;
    let setup = random_game(2, 0).setup(Side::White).unwrap().clone();
    seat.send(&json!({"t": "setup", "cells": crate::common::cells(&setup)}))
        .await;
    seat.until("start").await;
    // Each side's two plies (sooner, the game would count for nothing): a piece of the third
    // row steps out and back, the bot answering each.
    let file = (b'a'..=b'i')
        .map(char::from)
        .find(|f| setup.rank_at(format!("{f}3").parse().unwrap()).is_some())
        .unwrap();
    for (ply, mv) in [
        (0, format!("{file}3-{file}4")),
        (2, format!("{file}4-{file}3")),
    ] {
        seat.send(&json!({"t": "move", "move": mv, "ply": ply}))
            .await;
        assert_eq!(seat.until("ply").await["ply"], ply + 1);
        assert_eq!(seat.until("ply").await["ply"], ply + 2, "the bot's answer");
    }
    seat.send(&json!({"t": "resign"})).await;
    seat.until("over").await;
    // The bot started from its measured strength, the person from a new player's values.
    let greedy = Glicko {
        rating: salpakan_server::rating::bots::seeded(salpakan::Bot::Agent(
            salpakan::AgentKind::Greedy,
        )),
        rd: salpakan_server::rating::bots::SEEDED_RD,
        volatility: salpakan_server::rating::INITIAL_VOLATILITY,
    };
    let (bot, solo) = Glicko::game(greedy, Glicko::NEW, 1.0);
    assert_eq!(profile_of(&server, "bot-greedy").await, shown(bot));
    assert_eq!(profile_of(&server, "solo").await, shown(solo));
    let (_, list) = get(&server, "/api/players/bot-greedy/games").await;
    assert_eq!(ids(&list), [id.to_owned()]);
    server.stop().await;
}
