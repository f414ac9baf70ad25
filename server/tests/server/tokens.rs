//! A player's scoped tokens: minted, listed and revoked by its key; each opens what its
//! scopes name and nothing else; a leaked bridge token cannot act as the person.

use serde_json::{Value, json};

use crate::common::{
    as_player, assert_refused, call, database, player_socket, post_as, register, register_all,
    start, start_on,
};
use crate::tournaments::create;

/// Mints a token of `scopes` with `key`: its secret and its id.
async fn mint(server: &crate::common::Server, key: &str, scopes: &[&str]) -> (String, String) {
    let (status, minted) = post_as(server, key, "/api/tokens", &json!({"scopes": scopes})).await;
    assert_eq!(status, 201, "{minted}");
    (
        minted["token"].as_str().unwrap().to_owned(),
        minted["id"].as_str().unwrap().to_owned(),
    )
}

#[tokio::test]
async fn a_token_is_minted_listed_and_revoked_by_the_key_alone() {
    let server = start(401).await;
    let [ana, ben] = register_all(&server, ["ana", "ben"]).await;
    let body = json!({"scopes": ["read", "bot:play"], "label": "my laptop"});
    let (status, minted) = post_as(&server, &ana, "/api/tokens", &body).await;
    assert_eq!(status, 201, "{minted}");
    // The scopes in the contract's order, whatever order they were asked in.
    assert_eq!(minted["scopes"], json!(["bot:play", "read"]));
    assert_eq!(minted["label"], "my laptop");
    let token = minted["token"].as_str().unwrap();
    assert_eq!(token.len(), 64, "256 bits, in hexadecimal");
    assert_ne!(token, ana);
    let id = minted["id"].as_str().unwrap();

    // The list shows the entry, never the secret.
    let (status, list) = call(&server, Some(&ana), "GET", "/api/tokens").await;
    assert_eq!(status, 200);
    assert_eq!(list["tokens"].as_array().unwrap().len(), 1);
    assert_eq!(list["tokens"][0]["id"], id);
    assert!(!list.to_string().contains(token), "{list}");
    assert!(list["tokens"][0].get("token").is_none());

    // The token opens what it may, as ana.
    let (status, sharing) = call(&server, Some(token), "GET", "/api/sharing").await;
    assert_eq!((status, sharing["games"].clone()), (200, json!(false)));
    // It cannot mint, list or revoke tokens.
    for (method, path) in [
        ("POST", "/api/tokens"),
        ("GET", "/api/tokens"),
        ("DELETE", &*format!("/api/tokens/{id}")),
    ] {
        let body = json!({"scopes": ["read"]});
        let reply = as_player(&server, Some(token), method, path, &body).await;
        assert_refused((reply.0, &reply.1), 403, "out-of-scope");
    }
    // Another player cannot revoke it: the same reply as for no such token.
    let reply = call(&server, Some(&ben), "DELETE", &format!("/api/tokens/{id}")).await;
    assert_refused((reply.0, &reply.1), 404, "not-found");
    let reply = call(&server, Some(&ana), "DELETE", "/api/tokens/nothing").await;
    assert_refused((reply.0, &reply.1), 404, "not-found");

    // Revoked, it opens nothing, at once.
    let (status, _) = call(&server, Some(&ana), "DELETE", &format!("/api/tokens/{id}")).await;
    assert_eq!(status, 204);
    let reply = call(&server, Some(token), "GET", "/api/sharing").await;
    assert_refused((reply.0, &reply.1), 401, "bad-key");
    let (_, list) = call(&server, Some(&ana), "GET", "/api/tokens").await;
    assert_eq!(list, json!({"tokens": []}));
    // The key still opens everything.
    let (status, _) = call(&server, Some(&ana), "GET", "/api/sharing").await;
    assert_eq!(status, 200);
    server.stop().await;
}

#[tokio::test]
async fn a_bad_token_request_is_refused_by_name_and_changes_nothing() {
    let server = start(402).await;
    let ana = register(&server, "ana").await;
    for (body, says) in [
        (json!({"scopes": []}), "at least one scope"),
        (json!({"scopes": ["admin"]}), "admin"),
        (json!({"scopes": "read"}), "a sequence"),
        (json!({}), "scopes"),
        (json!({"scopes": ["read", "read"]}), "each scope once"),
        (json!({"scopes": ["read"], "label": "x".repeat(41)}), "40"),
        (json!({"scopes": ["read"], "label": "a\u{7}b"}), "control"),
        (json!({"scopes": ["read"], "owner": "ben"}), "owner"),
    ] {
        let (status, reply) = post_as(&server, &ana, "/api/tokens", &body).await;
        assert_refused((status, &reply), 400, "bad-message");
        let message = reply["message"].as_str().unwrap();
        assert!(message.contains(says), "{body}: {message}");
    }
    let body = json!({"scopes": ["read"]});
    let reply = as_player(&server, None, "POST", "/api/tokens", &body).await;
    assert_refused((reply.0, &reply.1), 401, "bad-key");
    let (_, list) = call(&server, Some(&ana), "GET", "/api/tokens").await;
    assert_eq!(list, json!({"tokens": []}));
    // Twenty at most.
    for _ in 0..20 {
        mint(&server, &ana, &["read"]).await;
    }
    let (status, reply) = post_as(&server, &ana, "/api/tokens", &json!({"scopes": ["read"]})).await;
    assert_refused((status, &reply), 429, "too-many-tokens");
    let (_, list) = call(&server, Some(&ana), "GET", "/api/tokens").await;
    assert_eq!(list["tokens"].as_array().unwrap().len(), 20);
    server.stop().await;
}

/// What a `bot:play` token (a bridge's, leaked) opens: the player socket, the pool and the
/// challenges made to the bot; and what it cannot: renaming nothing, speaking as a person,
/// entering or directing a tournament, minting tokens, changing what is shared, challenging.
#[tokio::test]
async fn a_leaked_bridge_token_cannot_act_as_the_person() {
    let server = start(403).await;
    let key = register(&server, "owner").await;
    let (token, _) = mint(&server, &key, &["bot:play"]).await;

    // What it may do.
    let mut socket = player_socket(&server, &token).await;
    let (status, challenges) = call(&server, Some(&token), "GET", "/api/challenges").await;
    assert_eq!(status, 200, "{challenges}");
    let (status, pooled) = post_as(&server, &token, "/api/pool", &json!({"clock": null})).await;
    assert_eq!(status, 202, "{pooled}");
    let (status, _) = call(&server, Some(&token), "DELETE", "/api/pool").await;
    assert_eq!(status, 204);
    let (status, made) = post_as(&server, &token, "/api/games", &json!({})).await;
    assert_eq!(status, 201, "{made}");
    socket.send(&json!({"t": "ping"})).await;

    // What it may not.
    let tournament = json!({"name": "Leaked Open", "kind": "swiss", "rounds": 1});
    let sharing = json!({"games": true, "names": true});
    for (method, path, body) in [
        ("PUT", "/api/sharing", sharing),
        ("GET", "/api/sharing", Value::Null),
        ("POST", "/api/tokens", json!({"scopes": ["bot:play"]})),
        ("POST", "/api/tournaments", tournament.clone()),
        ("POST", "/api/challenges", json!({"to": "owner"})),
        ("GET", "/api/players/owner/games", Value::Null),
    ] {
        let (status, reply) = as_player(&server, Some(&token), method, path, &body).await;
        if path == "/api/players/owner/games" {
            // Its unlisted games are read with `read` (or `bot:play`): served.
            assert_eq!(status, 200, "{reply}");
            continue;
        }
        assert_refused((status, &reply), 403, "out-of-scope");
    }
    // The tournament made by the key: the token cannot enter it, nor direct it.
    let (status, made) = create(&server, &key, tournament).await;
    assert_eq!(status, 201, "{made}");
    let tid = made["id"].as_str().unwrap();
    for what in ["register", "withdraw", "start", "decide"] {
        let path = format!("/api/tournaments/{tid}/{what}");
        let (status, reply) = post_as(&server, &token, &path, &json!({})).await;
        assert_refused((status, &reply), 403, "out-of-scope");
    }
    let (_, after) = call(&server, None, "GET", &format!("/api/tournaments/{tid}")).await;
    assert_eq!(after["entrants"], json!([]), "{after}");
    let (_, shared) = call(&server, Some(&key), "GET", "/api/sharing").await;
    assert_eq!(shared, json!({"games": false, "names": false}));

    // In a game's chat, a spectator names itself with the key only.
    let game = made_game(&server).await;
    let mut watcher = server.seat(&game, None).await;
    watcher.until("state").await;
    watcher.send(&json!({"t": "auth", "key": token})).await;
    let refused = watcher.until("error").await;
    assert_eq!(refused["code"], "out-of-scope", "{refused}");
    watcher.send(&json!({"t": "auth", "key": key})).await;
    assert_eq!(watcher.until("chat-settings").await["name"], "owner");
    server.stop().await;
}

/// A game between a person and nobody yet: its id.
async fn made_game(server: &crate::common::Server) -> String {
    let (status, made) = as_player(server, None, "POST", "/api/games", &json!({})).await;
    assert_eq!(status, 201, "{made}");
    made["game"].as_str().unwrap().to_owned()
}

/// A `read` token reads; it cannot play, challenge or open the player socket. A
/// `challenge` token challenges and answers, and cannot play in the pool.
#[tokio::test]
async fn each_scope_opens_its_own_routes() {
    let server = start(404).await;
    let [ana, ben] = register_all(&server, ["ana", "ben"]).await;
    let (read, _) = mint(&server, &ana, &["read"]).await;
    let (challenge, _) = mint(&server, &ana, &["challenge"]).await;
    let _ben_online = player_socket(&server, &ben).await;
    let _ana_online = player_socket(&server, &ana).await;

    let (status, _) = call(&server, Some(&read), "GET", "/api/sharing").await;
    assert_eq!(status, 200);
    let (status, _) = call(&server, Some(&read), "GET", "/api/challenges").await;
    assert_eq!(status, 200);
    for (method, path, body) in [
        ("POST", "/api/pool", json!({"clock": null})),
        ("POST", "/api/games", json!({})),
        ("POST", "/api/challenges", json!({"to": "ben"})),
        ("POST", "/api/seeks", json!({"clock": null})),
    ] {
        let (status, reply) = as_player(&server, Some(&read), method, path, &body).await;
        assert_refused((status, &reply), 403, "out-of-scope");
        let words = reply["message"].as_str().unwrap();
        assert!(words.contains("scopes"), "{words}");
    }
    // A read token's player socket is closed as a wrong key's: it would carry seat tokens.
    let mut socket = crate::common::socket(&server, "/api/players/socket").await;
    socket.send(&json!({"t": "auth", "key": read})).await;
    assert_eq!(socket.until_close().await, 4401);

    let (status, made) = post_as(
        &server,
        &challenge,
        "/api/challenges",
        &json!({"to": "ben"}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let cid = made["challenge"].as_str().unwrap();
    let (status, _) = call(
        &server,
        Some(&challenge),
        "DELETE",
        &format!("/api/challenges/{cid}"),
    )
    .await;
    assert_eq!(status, 204);
    let (status, reply) = post_as(&server, &challenge, "/api/pool", &json!({"clock": null})).await;
    assert_refused((status, &reply), 403, "out-of-scope");
    server.stop().await;
}

/// Tokens are kept with the player: a restart keeps them, and a revoked one stays revoked.
#[tokio::test]
async fn tokens_outlive_a_restart() {
    let db = database("tokens-restart");
    let server = start_on(db.clone(), 405, |_| {}).await;
    let key = register(&server, "ana").await;
    let (kept, _) = mint(&server, &key, &["read"]).await;
    let (revoked, id) = mint(&server, &key, &["read"]).await;
    let (status, _) = call(&server, Some(&key), "DELETE", &format!("/api/tokens/{id}")).await;
    assert_eq!(status, 204);
    server.stop().await;
    let server = start_on(db, 406, |_| {}).await;
    let (status, _) = call(&server, Some(&kept), "GET", "/api/sharing").await;
    assert_eq!(status, 200);
    let reply = call(&server, Some(&revoked), "GET", "/api/sharing").await;
    assert_refused((reply.0, &reply.1), 401, "bad-key");
    let (_, list) = call(&server, Some(&key), "GET", "/api/tokens").await;
    assert_eq!(list["tokens"].as_array().unwrap().len(), 1);
    server.stop().await;
}

/// Another device linked by a one-time code: it may do what the key may, the code works once
/// and lapses, and its tries are bounded per address.
#[tokio::test]
async fn another_device_is_linked_by_a_one_time_code() {
    let db = database("tokens-link");
    let server = start_on(db.clone(), 407, |_| {}).await;
    let key = register(&server, "ana").await;
    let (bridge, _) = mint(&server, &key, &["bot:play"]).await;
    // Only the key (or a linked device) makes a code.
    let reply = post_as(&server, &bridge, "/api/link", &Value::Null).await;
    assert_refused((reply.0, &reply.1), 403, "out-of-scope");
    let (status, made) = post_as(&server, &key, "/api/link", &Value::Null).await;
    assert_eq!(status, 201, "{made}");
    let code = made["code"].as_str().unwrap().to_owned();
    assert_eq!(code.len(), 16, "{code}");
    // The new device types it in lower case, without dashes.
    let typed = code.to_lowercase().replace('-', "");
    let body = json!({"code": typed, "label": "phone"});
    let (status, linked) = as_player(&server, None, "POST", "/api/link/redeem", &body).await;
    assert_eq!(status, 201, "{linked}");
    assert_eq!(linked["name"], "ana");
    let device = linked["key"].as_str().unwrap().to_owned();
    // The device may do what only the key may.
    let sharing = json!({"games": true, "names": false});
    let (status, _) = as_player(&server, Some(&device), "PUT", "/api/sharing", &sharing).await;
    assert_eq!(status, 200);
    let (status, _) = post_as(
        &server,
        &device,
        "/api/tokens",
        &json!({"scopes": ["read"]}),
    )
    .await;
    assert_eq!(status, 201);
    // Used once: the same code again is refused, as is a wrong one (one reply).
    for code in [typed.as_str(), "0000-0000-0000-0"] {
        let body = json!({"code": code});
        let reply = as_player(&server, None, "POST", "/api/link/redeem", &body).await;
        assert_refused((reply.0, &reply.1), 404, "not-found");
    }
    // The key lists the device among its tokens, and revokes it.
    let (_, list) = call(&server, Some(&key), "GET", "/api/tokens").await;
    let entry = list["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == linked["id"])
        .cloned()
        .unwrap();
    assert_eq!(
        (&entry["scopes"], &entry["label"]),
        (&json!(["device"]), &json!("phone"))
    );
    let path = format!("/api/tokens/{}", linked["id"].as_str().unwrap());
    assert_eq!(call(&server, Some(&key), "DELETE", &path).await.0, 204);
    let reply = call(&server, Some(&device), "GET", "/api/sharing").await;
    assert_refused((reply.0, &reply.1), 401, "bad-key");
    // A device token is never minted; a lapsed code is not redeemed.
    let body = json!({"scopes": ["device"]});
    let reply = post_as(&server, &key, "/api/tokens", &body).await;
    assert_refused((reply.0, &reply.1), 400, "bad-message");
    let (_, made) = post_as(&server, &key, "/api/link", &Value::Null).await;
    crate::common::exec(&db, "UPDATE links SET expires_ms = 1");
    let body = json!({"code": made["code"]});
    let reply = as_player(&server, None, "POST", "/api/link/redeem", &body).await;
    assert_refused((reply.0, &reply.1), 404, "not-found");
    // Ten tries a minute from one address.
    let mut refused = 0;
    for _ in 0..12 {
        let body = json!({"code": "zzzz-zzzz-zzzz-z"});
        let (status, _) =
            crate::common::from_address(&server, (9, None), "POST", "/api/link/redeem", &body)
                .await;
        if status == 429 {
            refused += 1;
        }
    }
    assert_eq!(refused, 2);
    server.stop().await;
}

/// Mints at once, as many as a player may still hold and more: the player holds twenty at
/// the end, in memory and in the database, whatever their order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mints_at_once_never_pass_the_twenty() {
    let db = database("tokens-at-once");
    let server = start_on(db.clone(), 408, |_| {}).await;
    let key = register(&server, "ana").await;
    for _ in 0..15 {
        mint(&server, &key, &["read"]).await;
    }
    let body = json!({"scopes": ["read"]});
    let minted = futures_util::future::join_all(
        (0..12).map(|_| post_as(&server, &key, "/api/tokens", &body)),
    )
    .await;
    let made = minted.iter().filter(|(status, _)| *status == 201).count();
    let refused = minted.iter().filter(|(status, _)| *status == 429).count();
    assert_eq!((made, refused), (5, 7), "{minted:?}");
    let (_, list) = call(&server, Some(&key), "GET", "/api/tokens").await;
    assert_eq!(list["tokens"].as_array().unwrap().len(), 20);
    let stored = crate::common::query_int(&db, "SELECT COUNT(*) FROM tokens");
    assert_eq!(stored, 20, "the database holds what memory holds");
    server.stop().await;
}
