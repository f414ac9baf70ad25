//! The dataset export: only finished games both players agreed to share, never an aborted,
//! unlisted or sealed one (searched for in the file); a name only where its player agreed;
//! each ply with both sides' beliefs and a challenge's odds; the licence on every line.

use salpakan::{Game, Side};
use serde_json::{Value, json};

use crate::common::call;
use crate::common::post_as;
use crate::common::{
    Server, Table, as_player, database, exec, random_prefix, register_all, start_on,
};

/// A finished game between the players of `keys` (`None`: anonymous), White creating it:
/// `game`'s formations, its first `plies` plies, then the side to move resigns. Returns its
/// id.
async fn played(
    server: &Server,
    keys: [Option<&str>; 2],
    game: &Game,
    plies: usize,
    listed: bool,
) -> String {
    let rules = game.rules();
    let body = json!({
        "side": "white",
        "first": game.first_mover().word(),
        "rules": {"setup_rows": rules.setup_rows(), "move_limit": rules.move_limit().unwrap_or(0)},
        "listed": listed,
    });
    let (status, made) = as_player(server, keys[0], "POST", "/api/games", &body).await;
    assert_eq!(status, 201, "{made}");
    let id = made["game"].as_str().unwrap().to_owned();
    let (status, joined) = as_player(
        server,
        keys[1],
        "POST",
        &format!("/api/games/{id}/join"),
        &json!({"invite": made["invite"]}),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    let tokens = [
        made["token"].as_str().unwrap().to_owned(),
        joined["token"].as_str().unwrap().to_owned(),
    ];
    let mut w = server.seat(&id, Some(&tokens[0])).await;
    w.until("state").await;
    let mut b = server.seat(&id, Some(&tokens[1])).await;
    b.until("state").await;
    let mut table = Table {
        id: id.clone(),
        tokens,
        seats: [w, b],
        v: 0,
    };
    table.set_up(game).await;
    table.replay(game, 0, plies).await;
    let mut to_move = game.first_mover();
    if plies % 2 == 1 {
        to_move = to_move.other();
    }
    let [over, _] = table.act(to_move, json!({"t": "resign"}), 1).await;
    assert_eq!(over["t"], "over", "{over}");
    id
}

/// A game the player of `key` plays as White against the server's greedy bot, resigned
/// before its first move.
async fn against_bot(server: &Server, key: &str) -> String {
    let (status, made) = post_as(
        server,
        key,
        "/api/games",
        &json!({"opponent": "greedy", "side": "white", "first": "white"}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let id = made["game"].as_str().unwrap().to_owned();
    let mut seat = server.seat(&id, made["token"].as_str()).await;
    let own = salpakan::Setup::random(Side::White, salpakan::Rules::default(), 5);
    seat.send(&json!({"t": "setup", "cells": crate::common::cells(&own)}))
        .await;
    seat.until("start").await;
    seat.send(&json!({"t": "resign"})).await;
    seat.until("over").await;
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_export_holds_only_games_both_players_agreed_to_share() {
    let db = database("export");
    let server = start_on(db.clone(), 91, |c| c.limits.rated_one_address = true).await;
    let [maria, juan, pedro] = register_all(&server, ["Maria", "Juan", "Pedro"]).await;

    // What each shares: Maria her games and name, Juan his games only, Pedro nothing.
    let share = |key: &str, body: Value| {
        let key = key.to_owned();
        let server = &server;
        async move { as_player(server, Some(&key), "PUT", "/api/sharing", &body).await }
    };
    assert_eq!(
        share(&maria, json!({"games": true, "names": true})).await,
        (200, json!({"games": true, "names": true}))
    );
    assert_eq!(
        share(&juan, json!({"games": true})).await,
        (200, json!({"games": true, "names": false}))
    );
    let (status, _) = share(&pedro, json!({"games": "yes"})).await;
    assert_eq!(status, 400);
    let (status, _) = share(&pedro, json!({"everything": true})).await;
    assert_eq!(status, 400);
    let (_, pedro_shares) = call(&server, Some(&pedro), "GET", "/api/sharing").await;
    assert_eq!(
        pedro_shares,
        json!({"games": false, "names": false}),
        "a refused change changes nothing"
    );
    let (status, _) = call(&server, None, "GET", "/api/sharing").await;
    assert_eq!(status, 401);

    let game = random_prefix(3, 12);
    let shared = played(&server, [Some(&maria), Some(&juan)], &game, 10, true).await;
    let not_agreed = played(&server, [Some(&maria), Some(&pedro)], &game, 10, true).await;
    let anonymous = played(&server, [Some(&maria), None], &game, 10, true).await;
    let unlisted = played(&server, [Some(&maria), Some(&juan)], &game, 10, false).await;
    let sealed = played(&server, [Some(&juan), Some(&maria)], &game, 10, true).await;
    let with_bot = against_bot(&server, &maria).await;
    // An aborted game: made, joined, called off in its setup.
    let (_, made) = post_as(&server, &maria, "/api/games", &json!({"side": "white"})).await;
    let aborted = made["game"].as_str().unwrap().to_owned();
    let (_, joined) = post_as(
        &server,
        &juan,
        &format!("/api/games/{aborted}/join"),
        &json!({"invite": made["invite"]}),
    )
    .await;
    let mut seat = server.seat(&aborted, joined["token"].as_str()).await;
    seat.send(&json!({"t": "abort"})).await;
    seat.until("aborted").await;
    server.stop().await;
    // The sealed one: a tournament's game (as the tournament's store keeps it).
    exec(
        &db,
        &format!("UPDATE games SET sealed = 1 WHERE id = '{sealed}'"),
    );
    exec(
        &db,
        &format!("INSERT INTO tournament_games (game, tournament) VALUES ('{sealed}', 't1')"),
    );

    let out = crate::common::scratch("export").join("games.jsonl");
    let _ = std::fs::remove_file(&out);
    // (PostgreSQL's client blocks: off the runtime's threads.)
    let found = {
        let (db, out) = (db.clone(), out.clone());
        tokio::task::spawn_blocking(move || salpakan_server::export::export(&db, &out))
            .await
            .unwrap()
            .expect("the export")
    };
    let text = std::fs::read_to_string(&out).unwrap();
    for left_out in [&not_agreed, &anonymous, &unlisted, &sealed, &aborted] {
        assert!(
            !text.contains(left_out.as_str()),
            "{left_out} is in the export"
        );
    }
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let ids: Vec<&str> = lines.iter().map(|l| l["game"].as_str().unwrap()).collect();
    let mut wanted = vec![shared.as_str(), with_bot.as_str()];
    wanted.sort_unstable();
    assert_eq!(ids, wanted);
    // Maria and Pedro's, and the anonymous seat's, at least (unlisted and sealed games are
    // not even read).
    assert_eq!(found.shared, 2, "{found:?}");
    assert!(found.left_out >= 2, "{found:?}");
    assert!(!text.contains("Pedro"));

    let line = lines.iter().find(|l| l["game"] == shared.as_str()).unwrap();
    assert_eq!(line["licence"], "CC0-1.0");
    assert_eq!(
        line["names"],
        json!({"white": "Maria", "black": null}),
        "Juan kept his name out"
    );
    assert!(!line.to_string().contains("Juan"));
    assert_eq!(line["status"]["reason"], "resignation");
    assert_eq!(
        salpakan::Game::from_record(line["record"].as_str().unwrap())
            .unwrap()
            .history()
            .len(),
        10
    );
    let plies = line["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 10);
    for (i, ply) in plies.iter().enumerate() {
        assert_eq!(ply["move"], game.history()[i].mv.to_string());
        for side in ["white", "black"] {
            let beliefs = ply["beliefs"][side].as_object().expect("beliefs");
            assert_eq!(
                beliefs.len(),
                21,
                "every enemy piece of a game without captures yet, or fewer"
            );
            for (square, ranks) in beliefs {
                let sum: f64 = ranks
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p.as_f64().unwrap())
                    .sum();
                assert!((sum - 1.0).abs() < 1e-4, "{side} at {square}: {sum}");
            }
        }
        let challenge = game.history()[i].outcome.is_some();
        assert_eq!(ply["odds"].is_object(), challenge, "{ply}");
        if challenge {
            let odds = &ply["odds"];
            let total = odds["win"].as_f64().unwrap()
                + odds["tie"].as_f64().unwrap()
                + odds["lose"].as_f64().unwrap();
            assert!((total - 1.0).abs() < 1e-4);
        }
    }
    let bot_line = lines
        .iter()
        .find(|l| l["game"] == with_bot.as_str())
        .unwrap();
    assert_eq!(
        bot_line["names"],
        json!({"white": "Maria", "black": "bot-greedy"})
    );
    assert_eq!(bot_line["bots"], json!({"white": false, "black": true}));

    // The operator's command: the same file, and a line saying what it did.
    let again = crate::common::scratch("export").join("again.jsonl");
    let _ = std::fs::remove_file(&again);
    let output = export_command(&db, &again);
    assert!(output.status.success(), "{output:?}");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        said.contains(&format!(
            "2 games shared, {} finished games left out",
            found.left_out
        )),
        "{said}"
    );
    assert_eq!(std::fs::read_to_string(&again).unwrap(), text);
    let refused = export_command(&db, &again);
    assert!(!refused.status.success(), "an export never overwrites");
    assert_eq!(std::fs::read_to_string(&again).unwrap(), text);
}

/// `salpakan-server export --db DB --out OUT`, run to its end.
fn export_command(db: &std::path::Path, out: &std::path::Path) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_salpakan-server"))
        .args(["export", "--db"])
        .arg(db)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}
