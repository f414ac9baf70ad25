//! Seats: tokens bind one game and one side; invites admit once; refusals are one reply
//! that says nothing of which check failed.

use salpakan::Side;
use serde_json::json;

use crate::common::{Table, database, random_game, start, start_on};

#[tokio::test]
async fn joining_takes_the_free_seat_once_and_wrong_invites_look_like_unknown_games() {
    let server = start(1).await;
    let (status, created) = server
        .json("POST", "/api/games", &json!({"side": "black"}))
        .await;
    assert_eq!(status, 201);
    assert_eq!(created["side"], "black");
    let id = created["game"].as_str().unwrap();
    let invite = created["invite"].as_str().unwrap();
    assert!(
        created["token"].as_str().unwrap().len() >= 32,
        "at least 128 bits"
    );
    let join = |code: &str| json!({"invite": code});
    let wrong = server
        .http(
            "POST",
            &format!("/api/games/{id}/join"),
            &join("00").to_string(),
        )
        .await;
    let unknown = server
        .http(
            "POST",
            "/api/games/0123456789abcdef/join",
            &join(invite).to_string(),
        )
        .await;
    let malformed_id = server
        .http("POST", "/api/games/x/join", &join(invite).to_string())
        .await;
    assert_eq!(wrong.0, 404);
    assert_eq!(
        wrong, unknown,
        "a wrong invite and an unknown game get the same reply"
    );
    assert_eq!(wrong, malformed_id);
    let (status, joined) = server
        .json("POST", &format!("/api/games/{id}/join"), &join(invite))
        .await;
    assert_eq!((status, joined["side"].clone()), (200, json!("white")));
    assert_ne!(joined["token"], created["token"]);
    let (status, again) = server
        .json("POST", &format!("/api/games/{id}/join"), &join(invite))
        .await;
    assert_eq!((status, again["error"].clone()), (409, json!("seat-taken")));
    let (status, _) = server
        .json("POST", &format!("/api/games/{id}/join"), &json!({}))
        .await;
    assert_eq!(status, 400);

    // A bot game has no invite to use.
    let (_, bot) = server
        .json("POST", "/api/games", &json!({"opponent": "random"}))
        .await;
    assert!(bot["invite"].is_null());
    let bot_id = bot["game"].as_str().unwrap();
    let (status, _) = server
        .json("POST", &format!("/api/games/{bot_id}/join"), &join(invite))
        .await;
    assert_eq!(status, 404);
    server.stop().await;
}

#[tokio::test]
async fn sockets_refuse_every_wrong_token_alike_and_a_seat_speaks_only_for_itself() {
    let db = database("seats");
    let server = start_on(db.clone(), 2, |_| {}).await;
    let game = random_game(8, 6);
    assert_eq!(game.first_mover(), Side::White);
    let mut table = Table::open(&server, json!({"first": "white"})).await;
    let (other_id, other_white, _) = server.pair(json!({})).await;
    let id = table.id.clone();
    let refusals: Vec<String> = [
        (id.as_str(), "f".repeat(64)),
        (id.as_str(), other_white.clone()),
        ("0123456789abcdef", table.tokens[0].clone()),
        ("nonsense", table.tokens[0].clone()),
        (other_id.as_str(), table.tokens[1].clone()),
    ]
    .into_iter()
    .map(|(game, token)| (game.to_owned(), token))
    .collect::<Vec<_>>()
    .into_iter()
    .map(|(game, token)| {
        let addr = server.addr;
        async move {
            salpakan_server::client::Socket::connect(addr, &game, Some(&token))
                .await
                .err()
                .expect("refused")
                .to_string()
        }
    })
    .collect::<futures_util::future::JoinAll<_>>()
    .await;
    assert!(refusals[0].starts_with("HTTP 401 "), "{}", refusals[0]);
    assert!(refusals.iter().all(|r| *r == refusals[0]), "{refusals:?}");

    table.set_up(&game).await;
    // Black cannot move for White, and a side field in the message changes nothing.
    let white_move = game.history()[0].mv.to_string();
    table.seats[1]
        .send(&json!({"t": "move", "move": white_move, "ply": 0, "side": "white"}))
        .await;
    assert_eq!(table.seats[1].until("error").await["code"], "not-your-turn");
    table.replay(&game, 0, 2).await;
    // A spectator may not act at all: one error, nothing else.
    let mut spectator = server.seat(&id, None).await;
    let state = spectator.until("state").await;
    assert!(state["side"].is_null());
    for message in [
        json!({"t": "resign"}),
        json!({"t": "draw"}),
        json!({"t": "move", "move": "a1-a2", "ply": 2}),
    ] {
        spectator.send(&message).await;
        assert_eq!(spectator.recv().await["code"], "bad-message");
    }
    // Black offers and resigns only for itself, whatever the message says.
    table
        .act(Side::Black, json!({"t": "draw", "side": "white"}), 1)
        .await;
    let [over, _] = table
        .act(Side::Black, json!({"t": "resign", "side": "white"}), 1)
        .await;
    assert_eq!(over["t"], "over");
    assert_eq!(
        over["status"],
        json!({"state": "won", "winner": "white", "reason": "resignation"})
    );
    // After the end the token still opens the seat's socket; acting is one game-over reply.
    let mut late = server.seat(&id, Some(&table.tokens[1])).await;
    assert_eq!(late.until("state").await["phase"], "over");
    late.send(&json!({"t": "move", "move": "a1-a2", "ply": 2}))
        .await;
    assert_eq!(late.recv().await["code"], "game-over");
    late.send(&json!({"t": "ping"})).await;
    assert_eq!(late.recv().await["t"], "pong", "one reply, then nothing");

    // No token ever reaches another recipient, and the database holds only digests.
    for (side, seat) in table.seats.iter().enumerate() {
        let theirs = &table.tokens[1 - side];
        assert!(seat.transcript.iter().all(|f| !f.contains(theirs.as_str())));
    }
    assert!(
        spectator
            .transcript
            .iter()
            .all(|f| table.tokens.iter().all(|t| !f.contains(t.as_str())))
    );
    server.stop().await;
    // The database holds each token's digest, never the token.
    let stored = crate::common::stored_text(&db);
    for token in &table.tokens {
        assert!(!stored.contains(token.as_str()), "a token is stored");
        assert!(
            stored.contains(&salpakan_server::secret::digest(token)),
            "no digest stored"
        );
    }
}
