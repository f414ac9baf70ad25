//! Bot accounts: `POST /api/players` with `"bot": true` makes one, for good; it is marked a
//! bot in its profile, its seeks and `GET /api/bots` (online while its player socket is
//! open, beside the server's own bots); a person has no description; bots stay out of
//! tournaments.

use serde_json::{Value, json};

use crate::common::post_as;
use crate::common::{as_player, player_socket, start};
use crate::common::{assert_refused, call};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_account_is_marked_everywhere_and_online_while_its_socket_is_open() {
    let server = start(81).await;
    let body =
        json!({"name": "heneral_bot", "bot": true, "description": "alpha-beta, 2 plies; by Ana"});
    let (status, made) = as_player(&server, None, "POST", "/api/players", &body).await;
    assert_eq!(status, 201, "{made}");
    let key = made["key"].as_str().unwrap().to_owned();
    let (_, profile) = call(&server, None, "GET", "/api/players/heneral_bot").await;
    assert_eq!(profile["bot"], true);
    assert_eq!(profile["description"], "alpha-beta, 2 plies; by Ana");
    // A person is not a bot, and has no description to give.
    let (status, person) = as_player(
        &server,
        None,
        "POST",
        "/api/players",
        &json!({"name": "Tala"}),
    )
    .await;
    assert_eq!(status, 201);
    let (_, profile) = call(&server, None, "GET", "/api/players/Tala").await;
    assert_eq!(profile["bot"], false);
    assert!(profile.get("description").is_none(), "{profile}");
    let refused = json!({"name": "Lakan", "description": "a person"});
    let (status, reply) = as_player(&server, None, "POST", "/api/players", &refused).await;
    assert_refused((status, &reply), 400, "bad-message");
    let long = json!({"name": "Wordy", "bot": true, "description": "x".repeat(201)});
    let (status, _) = as_player(&server, None, "POST", "/api/players", &long).await;
    assert_eq!(status, 400);
    let (status, _) = call(&server, None, "GET", "/api/players/Wordy").await;
    assert_eq!(status, 404, "a refused registration leaves nothing");

    // Listed with the server's bots, offline until its player socket opens.
    let bots = |list: &Value| -> Vec<(String, bool, bool)> {
        list["bots"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                (
                    b["name"].as_str().unwrap().to_owned(),
                    b["online"].as_bool().unwrap(),
                    b["server"].as_bool().unwrap(),
                )
            })
            .collect()
    };
    let (status, list) = call(&server, None, "GET", "/api/bots").await;
    assert_eq!(status, 200, "{list}");
    let listed = bots(&list);
    assert!(
        listed.contains(&("heneral_bot".into(), false, false)),
        "{listed:?}"
    );
    assert!(
        listed.contains(&("bot-level-8".into(), true, true)),
        "{listed:?}"
    );
    assert!(!listed.iter().any(|b| b.0 == "Tala"), "people are not bots");
    let mut socket = player_socket(&server, &key).await;
    let (_, list) = call(&server, None, "GET", "/api/bots").await;
    assert!(bots(&list).contains(&("heneral_bot".into(), true, false)));

    // Its seek says it is a bot.
    let (status, _) = post_as(&server, &key, "/api/seeks", &json!({})).await;
    assert_eq!(status, 201);
    let (_, lobby) = call(&server, None, "GET", "/api/lobby").await;
    let seek = lobby["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "heneral_bot")
        .cloned();
    assert_eq!(seek.expect("its seek")["bot"], true);

    // Bots stay out of tournaments, which are for people.
    let person_key = person["key"].as_str().unwrap();
    let (_, t) = post_as(
        &server,
        person_key,
        "/api/tournaments",
        &json!({"name": "People", "kind": "swiss"}),
    )
    .await;
    let path = format!("/api/tournaments/{}/register", t["id"].as_str().unwrap());
    let (status, reply) = call(&server, Some(&key), "POST", &path).await;
    assert_refused((status, &reply), 403, "not-eligible");
    socket.send(&json!({"t": "ping"})).await;
    server.stop().await;
}
