//! The live list: the games in play anyone may watch, best first, updated live by deltas;
//! unlisted games never in it; the operator's featured game.

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::call;
use crate::common::post_as;
use crate::common::{Seat, Table, database, random_game, socket, start_on};

/// The next live frame, whole or delta.
async fn next_live(seat: &mut Seat) -> Value {
    loop {
        let frame = seat.recv().await;
        if frame["t"] == "live" || frame["t"] == "live-delta" {
            return frame;
        }
        assert!(frame.get("close").is_none(), "closed: {frame}");
    }
}

/// Reads live frames until `done` holds for the list they make, applying each delta to
/// `list` (game id → entry) as a page does.
async fn follow(
    seat: &mut Seat,
    list: &mut Vec<Value>,
    v: &mut u64,
    mut done: impl FnMut(&[Value]) -> bool,
) -> bool {
    let mut moved_seen = false;
    loop {
        let frame = next_live(seat).await;
        let at = frame["v"].as_u64().unwrap();
        if frame["t"] == "live" {
            *list = frame["games"].as_array().unwrap().clone();
        } else {
            assert_eq!(at, *v + 1, "a delta follows the version before it");
            for gone in frame["gone"].as_array().unwrap() {
                list.retain(|e| e["game"] != *gone);
            }
            for changed in frame["changed"].as_array().unwrap() {
                list.retain(|e| e["game"] != changed["game"]);
                list.push(changed.clone());
            }
            for moved in frame["moved"].as_array().unwrap() {
                let entry = list
                    .iter_mut()
                    .find(|e| e["game"] == moved["game"])
                    .expect("a game that moved was listed");
                for field in ["ply", "clock", "last"] {
                    entry[field] = moved[field].clone();
                }
                assert!(
                    moved.get("names").is_none(),
                    "a move carries only what moves"
                );
                moved_seen = true;
            }
        }
        *v = at;
        if done(list) {
            return moved_seen;
        }
    }
}

fn has(list: &[Value], id: &str) -> bool {
    list.iter().any(|e| e["game"] == id)
}

#[tokio::test]
async fn the_live_list_shows_listed_games_in_play_and_follows_them_by_deltas() {
    let server = start_on(database("live"), 81, |c| {
        c.metrics_addr = Some("127.0.0.1:0".parse().unwrap());
    })
    .await;
    let mut watcher = socket(&server, "/api/live/socket").await;
    let first = next_live(&mut watcher).await;
    assert_eq!(first["t"], "live");
    assert_eq!(first["games"], json!([]));
    let mut list = Vec::new();
    let mut v = first["v"].as_u64().unwrap();

    let game = random_game(81, 60);
    let first = game.first_mover().word();
    let mut listed = Table::open(&server, json!({"first": first})).await;
    let mut hidden = Table::open(&server, json!({"first": first, "listed": false})).await;
    // In its setup a game is not in play: not listed yet.
    let (_, reply) = server.json("GET", "/api/live", &Value::Null).await;
    assert_eq!(reply["games"], json!([]));
    listed.set_up(&game).await;
    hidden.set_up(&game).await;
    follow(&mut watcher, &mut list, &mut v, |l| has(l, &listed.id)).await;
    let entry = list
        .iter()
        .find(|e| e["game"] == listed.id.as_str())
        .unwrap()
        .clone();
    assert_eq!(entry["ply"], 0);
    assert_eq!(entry["last"], Value::Null);
    assert_eq!(entry["names"], json!({"white": null, "black": null}));
    // Plies, and the last challenge's announcement, reach the list.
    let history = game.history();
    let challenge = history
        .iter()
        .position(|r| r.outcome.is_some())
        .expect("a challenge within 60 plies");
    listed.replay(&game, 0, challenge + 1).await;
    hidden.replay(&game, 0, challenge + 1).await;
    let ply = challenge as u64 + 1;
    let moved = follow(&mut watcher, &mut list, &mut v, |l| {
        l.iter()
            .any(|e| e["game"] == listed.id.as_str() && e["ply"] == ply)
    })
    .await;
    assert!(moved, "plies went out as moves, not whole entries");
    let entry = list
        .iter()
        .find(|e| e["game"] == listed.id.as_str())
        .unwrap();
    assert_eq!(entry["last"]["ply"], ply);
    let said = salpakan_server::wire::OutcomeWord(history[challenge].outcome.unwrap());
    assert_eq!(entry["last"]["outcome"], json!(said));
    let (_, reply) = server.json("GET", "/api/live", &Value::Null).await;
    assert_eq!(
        reply["featured"],
        listed.id.as_str(),
        "the best (only) game is featured"
    );
    assert_eq!(reply["games"].as_array().unwrap().len(), 1);
    // The operator features a game; an unlisted one is never featured.
    let operator = server.running.as_ref().unwrap().metrics_addr().unwrap();
    let feature = |id: &str| json!({"game": id}).to_string();
    let admin = |body: String| async move {
        let (status, reply) = salpakan_server::client::request_with(
            None,
            operator,
            ("POST", "/admin/featured", &body),
            &[("X-Salpakan-Admin", "1")],
        )
        .await
        .unwrap();
        (status, serde_json::from_str::<Value>(&reply).unwrap())
    };
    // The reply says when the game will not be shown, and why.
    let (status, reply) = admin(feature(&hidden.id)).await;
    assert_eq!(status, 200);
    assert_eq!(
        reply,
        json!({"featured": hidden.id, "shown": false, "why": "unlisted"})
    );
    let (_, reply) = admin(feature("0123456789abcdef")).await;
    assert_eq!(
        (&reply["shown"], &reply["why"]),
        (&json!(false), &json!("not-here"))
    );
    let (_, reply) = admin(feature(&listed.id)).await;
    assert_eq!(
        reply,
        json!({"featured": listed.id, "shown": true, "why": null})
    );
    assert_eq!(admin(feature(&hidden.id)).await.0, 200);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (_, reply) = server.json("GET", "/api/live", &Value::Null).await;
    assert_eq!(reply["featured"], listed.id.as_str());
    // It ends: it leaves the list.
    let mover = listed.seats.iter_mut().next().unwrap();
    mover.send(&json!({"t": "resign"})).await;
    follow(&mut watcher, &mut list, &mut v, |l| !has(l, &listed.id)).await;
    // The unlisted game was never in any frame, nor in the replies.
    for frame in &watcher.transcript {
        assert!(!frame.contains(&hidden.id), "{frame}");
    }
    server.stop().await;
}

#[tokio::test]
async fn a_lobby_socket_with_deltas_builds_the_same_lobby_as_whole_frames() {
    use crate::common::register_all;
    let server = start_on(database("lobby-deltas"), 83, |_| {}).await;
    let keys = register_all(&server, ["agila", "banoy", "kalaw"]).await;
    let mut whole = socket(&server, "/api/lobby/socket").await;
    let mut deltas = socket(&server, "/api/lobby/socket?deltas=1").await;
    let first = deltas.until("lobby").await;
    assert_eq!(first["seeks"], json!([]));
    let mut v = first["v"].as_u64().unwrap();
    let mut list: Vec<Value> = Vec::new();
    let _sockets = crate::common::player_sockets(&server, &keys).await;
    let mut sids = Vec::new();
    for key in &keys {
        let (status, seek) = post_as(&server, key, "/api/seeks", &json!({})).await;
        assert_eq!(status, 201);
        sids.push(seek["seek"].as_str().unwrap().to_owned());
    }
    let path = format!("/api/seeks/{}", sids[1]);
    assert_eq!(call(&server, Some(&keys[1]), "DELETE", &path).await.0, 204);
    // The whole frames, until they show the two seeks left.
    let expected = loop {
        let frame = whole.until("lobby").await;
        assert!(
            frame.get("v").is_none(),
            "a plain lobby socket's frames are as they were"
        );
        if frame["seeks"].as_array().unwrap().len() == 2 && !frame.to_string().contains(&sids[1]) {
            break frame["seeks"].clone();
        }
    };
    // The deltas, applied, until they make the same list.
    loop {
        let frame = deltas.recv().await;
        match frame["t"].as_str() {
            Some("lobby") => {
                list = frame["seeks"].as_array().unwrap().clone();
            }
            Some("lobby-delta") => {
                assert_eq!(frame["v"], v + 1);
                let mut by_id: std::collections::HashMap<String, Value> = list
                    .iter()
                    .map(|s| (s["seek"].as_str().unwrap().to_owned(), s.clone()))
                    .collect();
                for added in frame["added"].as_array().unwrap() {
                    by_id.insert(added["seek"].as_str().unwrap().to_owned(), added.clone());
                }
                list = frame["order"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|sid| by_id[sid.as_str().unwrap()].clone())
                    .collect();
                assert!(frame.to_string().len() < 2000);
            }
            _ => continue,
        }
        v = frame["v"].as_u64().unwrap();
        if Value::Array(list.clone()) == expected {
            break;
        }
    }
    server.stop().await;
}
