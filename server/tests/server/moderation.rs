//! The moderators' desk: moderators named by the operator, the queue of reported lines, each
//! action's effect (a warning told, a timeout and a mute refusing lines with their codes, a
//! closed account, a refund that moves exactly what the closed account's games moved), the
//! log, and one appeal an action.

use serde_json::{Value, json};

use crate::common::{
    Seat, Server, as_player, assert_refused, call, database, name_moderator, player_socket,
    post_as, register_all, start_on,
};
use crate::history::{End, play};

/// A server whose operator's listener is open to the test.
async fn server(name: &str, seed: u64) -> Server {
    start_on(database(name), seed, |c| {
        c.metrics_addr = Some("127.0.0.1:0".parse().unwrap());
    })
    .await
}

/// A game between two strangers (keys) paired by a seek, both seats open.
async fn strangers(server: &Server, keys: [&str; 2]) -> [Seat; 2] {
    let mut owner = player_socket(server, keys[0]).await;
    let (_, seek) = post_as(server, keys[0], "/api/seeks", &json!({})).await;
    let accept = format!("/api/seeks/{}/accept", seek["seek"].as_str().unwrap());
    let (status, taken) = call(server, Some(keys[1]), "POST", &accept).await;
    assert_eq!(status, 200, "{taken}");
    let game = taken["game"].as_str().unwrap().to_owned();
    let paired = owner.until("paired").await;
    let mut first = server.seat(&game, paired["token"].as_str()).await;
    let mut second = server.seat(&game, taken["token"].as_str()).await;
    first.until("state").await;
    second.until("state").await;
    [first, second]
}

/// The code of the next refusal `seat` hears.
async fn refusal(seat: &mut Seat) -> String {
    seat.until("error").await["code"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// `seat` says `phrase`, and the next chat line it hears (its own).
async fn said(seat: &mut Seat, phrase: &str) -> Value {
    seat.send(&json!({"t": "say", "phrase": phrase})).await;
    seat.until("chat").await
}

async fn act(server: &Server, moderator: &str, body: Value) -> (u16, Value) {
    post_as(server, moderator, "/api/mod/actions", &body).await
}

#[tokio::test]
async fn moderators_are_named_by_the_operator_and_work_the_queue() {
    let server = server("moderation-queue", 501).await;
    let [rude, kind, bantay, other] =
        register_all(&server, ["rude", "kind", "bantay", "other"]).await;
    // Nobody is a moderator until the operator says so; a token is never one.
    let reply = call(&server, Some(&bantay), "GET", "/api/mod/reports").await;
    assert_refused((reply.0, &reply.1), 403, "not-moderator");
    assert_eq!(name_moderator(&server, "nobody", true).await.0, 404);
    assert_eq!(name_moderator(&server, "bantay", true).await.0, 200);
    let (_, minted) = post_as(
        &server,
        &bantay,
        "/api/tokens",
        &json!({"scopes": ["read"]}),
    )
    .await;
    let token = minted["token"].as_str().unwrap();
    let reply = call(&server, Some(token), "GET", "/api/mod/reports").await;
    assert_refused((reply.0, &reply.1), 403, "out-of-scope");

    // Kind reports rude's line; the queue shows it once, with its game.
    let [mut r, mut k] = strangers(&server, [&rude, &kind]).await;
    let line = said(&mut r, "hello").await;
    k.until("chat").await;
    let (room, n) = (line["room"].clone(), line["n"].clone());
    k.send(&json!({"t": "report", "room": room, "n": n})).await;
    k.until("reported").await;
    let (status, queue) = call(&server, Some(&bantay), "GET", "/api/mod/reports").await;
    assert_eq!(status, 200, "{queue}");
    let reports = queue["reports"].as_array().unwrap();
    assert_eq!(reports.len(), 1, "{queue}");
    assert_eq!(reports[0]["line"]["name"], "rude");
    let game = reports[0]["game"].as_str().unwrap().to_owned();
    // A bad action changes nothing.
    for (body, says) in [
        (
            json!({"player": "rude", "action": "timeout", "reason": "x"}),
            "hours",
        ),
        (
            json!({"player": "rude", "action": "timeout", "hours": 721, "reason": "x"}),
            "hours",
        ),
        (
            json!({"player": "rude", "action": "warn", "reason": " "}),
            "reason",
        ),
        (
            json!({"player": "rude", "action": "warn", "hours": 1, "reason": "x"}),
            "hours",
        ),
        (
            json!({"player": "rude", "action": "ban", "reason": "x"}),
            "ban",
        ),
        (
            json!({"player": "rude", "action": "refund", "days": 7, "reason": "x"}),
            "closed",
        ),
        (
            json!({"player": "bantay", "action": "warn", "reason": "x"}),
            "others",
        ),
        (
            json!({"player": "rude", "action": "dismiss", "reason": "x"}),
            "line",
        ),
    ] {
        let (status, reply) = act(&server, &bantay, body.clone()).await;
        assert!(status == 400 || status == 409, "{body}: {reply}");
        assert!(
            reply["message"].as_str().unwrap().contains(says),
            "{body}: {reply}"
        );
    }
    let reply = act(
        &server,
        &other,
        json!({"player": "rude", "action": "warn", "reason": "x"}),
    );
    let reply = reply.await;
    assert_refused((reply.0, &reply.1), 403, "not-moderator");
    let (_, log) = call(&server, Some(&bantay), "GET", "/api/mod/log").await;
    assert_eq!(log["actions"], json!([]));

    // A timeout answering the line: the queue empties, rude's lines are refused with their
    // code, and rude is told what and why (never who).
    let mut rude_socket = player_socket(&server, &rude).await;
    let body = json!({"player": "rude", "action": "timeout", "hours": 2,
        "reason": "insults in chat", "line": {"game": game, "room": room, "n": n}});
    let (status, entry) = act(&server, &bantay, body).await;
    assert_eq!(status, 201, "{entry}");
    assert_eq!(entry["moderator"], "bantay");
    let (_, queue) = call(&server, Some(&bantay), "GET", "/api/mod/reports").await;
    assert_eq!(queue["reports"], json!([]), "answered");
    r.send(&json!({"t": "say", "phrase": "hello"})).await;
    assert_eq!(refusal(&mut r).await, "chat-timeout");
    let told = rude_socket.until("moderated").await;
    assert_eq!(
        (&told["action"], &told["reason"]),
        (&json!("timeout"), &json!("insults in chat"))
    );
    assert!(told.get("moderator").is_none(), "{told}");
    // The other seat still talks.
    said(&mut k, "your-move").await;
    // A mute, then lifted: refused with its own code, then heard again.
    let mute = json!({"player": "rude", "action": "mute", "reason": "again"});
    assert_eq!(act(&server, &bantay, mute).await.0, 201);
    r.send(&json!({"t": "say", "phrase": "hello"})).await;
    assert_eq!(refusal(&mut r).await, "chat-muted");
    let unmute = json!({"player": "rude", "action": "unmute", "reason": "served"});
    assert_eq!(act(&server, &bantay, unmute).await.0, 201);
    assert_eq!(said(&mut r, "hello").await["name"], "rude");

    // Rude reads what was done and why, and appeals one action once.
    let (status, mine) = call(&server, Some(&rude), "GET", "/api/moderation").await;
    assert_eq!(status, 200);
    let actions: Vec<&str> = mine["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions, ["unmute", "mute", "timeout"]);
    assert!(!mine.to_string().contains("bantay"), "{mine}");
    let id = mine["actions"][2]["id"].as_str().unwrap();
    let path = format!("/api/moderation/{id}/appeal");
    let body = json!({"text": "it was a joke between friends"});
    let (status, appealed) = post_as(&server, &rude, &path, &body).await;
    assert_eq!(status, 200, "{appealed}");
    let reply = post_as(&server, &rude, &path, &body).await;
    assert_refused((reply.0, &reply.1), 409, "appealed");
    let reply = post_as(&server, &kind, &path, &body).await;
    assert_refused((reply.0, &reply.1), 404, "not-found");
    // The log: newest first, who did what, the appeal beside its action; by player; paged.
    let (_, log) = call(&server, Some(&bantay), "GET", "/api/mod/log?player=RUDE").await;
    let entries = log["actions"].as_array().unwrap();
    assert_eq!(entries.len(), 3);
    assert_eq!(entries[2]["appeal"], "it was a joke between friends");
    let newest = entries[0]["id"].as_str().unwrap();
    let (_, older) = call(
        &server,
        Some(&bantay),
        "GET",
        &format!("/api/mod/log?before={newest}&limit=1"),
    )
    .await;
    assert_eq!(older["actions"][0]["action"], "mute");
    // An action answers only its player's line; a line nobody reported is none to answer.
    let not_rudes = json!({"player": "kind", "action": "warn", "reason": "x",
        "line": {"game": game, "room": room, "n": n}});
    let (status, reply) = act(&server, &bantay, not_rudes).await;
    assert_eq!(status, 400, "{reply}");
    assert!(
        reply["message"]
            .as_str()
            .unwrap()
            .contains("not the player's")
    );
    let unreported = json!({"player": "rude", "action": "warn", "reason": "x",
        "line": {"game": game, "room": room, "n": 99}});
    let reply = act(&server, &bantay, unreported).await;
    assert_refused((reply.0, &reply.1), 404, "not-found");
    // An anonymous seat's line reported: it has no account, so it is dismissed only.
    let mut table = crate::common::Table::open(&server, json!({})).await;
    let [w, b] = &mut table.seats;
    let line = said(w, "hello").await;
    b.until("chat").await;
    b.send(&json!({"t": "report", "room": line["room"], "n": line["n"]}))
        .await;
    b.until("reported").await;
    let anonymous = json!({"game": table.id, "room": line["room"], "n": line["n"]});
    let warn = json!({"player": "", "action": "warn", "reason": "x", "line": anonymous});
    let (status, reply) = act(&server, &bantay, warn).await;
    assert_eq!(status, 400, "{reply}");
    let dismiss = json!({"player": "", "action": "dismiss", "reason": "a greeting",
        "line": anonymous});
    let (status, entry) = act(&server, &bantay, dismiss).await;
    assert_eq!(status, 201, "{entry}");
    assert_eq!(entry["player"], "the white seat");
    let (_, queue) = call(&server, Some(&bantay), "GET", "/api/mod/reports").await;
    assert_eq!(queue["reports"], json!([]), "answered");
    // No longer a moderator: the desk is closed to bantay.
    assert_eq!(name_moderator(&server, "bantay", false).await.0, 200);
    let reply = call(&server, Some(&bantay), "GET", "/api/mod/log").await;
    assert_refused((reply.0, &reply.1), 403, "not-moderator");
    server.stop().await;
}

#[tokio::test]
async fn a_closed_account_is_shut_out_and_its_opponents_refunded_exactly() {
    let server = server("moderation-refund", 502).await;
    let names = ["cheat", "bika", "lina", "dino", "ema", "bantay"];
    let keys = register_all(&server, names).await;
    let [cheat, bika, lina, dino, ema, bantay] = keys.each_ref().map(String::as_str);
    assert_eq!(name_moderator(&server, "bantay", true).await.0, 200);
    let _sockets: Vec<Seat> = {
        let mut v = Vec::new();
        for key in [cheat, bika, lina, dino, ema] {
            v.push(player_socket(&server, key).await);
        }
        v
    };
    let rating = async |name: &str| {
        let (_, p) = call(&server, None, "GET", &format!("/api/players/{name}")).await;
        (p["rating"].as_i64().unwrap(), p["rd"].as_i64().unwrap())
    };
    // Cheat beats Bika and Lina in rated games; Dino and Ema play each other.
    play(&server, cheat, bika, true, End::BlackResigns).await;
    play(&server, lina, cheat, true, End::WhiteResigns).await;
    play(&server, dino, ema, true, End::BlackResigns).await;
    let before = [
        rating("cheat").await,
        rating("bika").await,
        rating("lina").await,
        rating("dino").await,
        rating("ema").await,
    ];
    assert!(before[1].0 < 1500 && before[2].0 < 1500, "{before:?}");

    // A refund of an open account is refused; closed, the key opens only its moderation.
    let refund = json!({"player": "cheat", "action": "refund", "days": 7, "reason": "engine"});
    let reply = act(&server, bantay, refund.clone()).await;
    assert_refused((reply.0, &reply.1), 400, "wrong-phase");
    let close = json!({"player": "cheat", "action": "close", "reason": "engine use"});
    assert_eq!(act(&server, bantay, close).await.0, 201);
    for (method, path) in [
        ("POST", "/api/games"),
        ("GET", "/api/sharing"),
        ("POST", "/api/pool"),
    ] {
        let (status, reply) = as_player(&server, Some(cheat), method, path, &json!({})).await;
        assert_refused((status, &reply), 403, "account-closed");
    }
    let mut socket = crate::common::socket(&server, "/api/players/socket").await;
    socket.send(&json!({"t": "auth", "key": cheat})).await;
    assert_eq!(socket.until_close().await, 4401);
    let (status, mine) = call(&server, Some(cheat), "GET", "/api/moderation").await;
    assert_eq!(
        (status, &mine["actions"][0]["action"]),
        (200, &json!("close"))
    );

    // The refund moves exactly what Cheat's games moved Bika's and Lina's ratings by, and
    // nothing else; a second refund finds nothing left.
    let (status, entry) = act(&server, bantay, refund.clone()).await;
    assert_eq!(status, 201, "{entry}");
    let detail: Value = serde_json::from_str(entry["detail"].as_str().unwrap()).unwrap();
    assert_eq!(detail.as_array().unwrap().len(), 2, "{detail}");
    let after = [
        rating("cheat").await,
        rating("bika").await,
        rating("lina").await,
        rating("dino").await,
        rating("ema").await,
    ];
    assert_eq!(after[0], before[0], "the closed account's own rating stays");
    for (i, name) in [(1, "bika"), (2, "lina")] {
        let moved = detail
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["player"] == name)
            .unwrap()["delta"]
            .as_f64()
            .unwrap();
        assert!(moved < 0.0, "{name} lost to cheat");
        assert!(
            (after[i].0 - before[i].0) as f64 - (-moved) <= 1.0,
            "{name} moved back by what it lost"
        );
        assert_eq!(after[i].1, before[i].1, "{name}'s deviation stays");
        // Back where it started, as the only game it played was against cheat.
        assert_eq!(after[i].0, 1500, "{name}");
    }
    assert_eq!(
        &after[3..],
        &before[3..],
        "a game without cheat moves nothing"
    );
    let (_, again) = act(&server, bantay, refund).await;
    assert_eq!(again["detail"], "[]", "each game once");
    assert_eq!(rating("bika").await, after[1]);
    // Reopened, the key works again.
    let reopen = json!({"player": "cheat", "action": "reopen", "reason": "appeal upheld"});
    assert_eq!(act(&server, bantay, reopen).await.0, 201);
    let (status, _) = call(&server, Some(cheat), "GET", "/api/sharing").await;
    assert_eq!(status, 200);
    server.stop().await;
}
