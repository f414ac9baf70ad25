//! Message budgets: a `hello`'s replay paid from the socket's budget, a seat's budget and
//! sockets bounded across reconnects, an address's spectators sharing one budget, presence
//! told at most once a second.
use std::time::Duration;

use salpakan::{Rules, Side};
use serde_json::json;

use crate::common::{Seat, Server, Table, database, start_on};
use salpakan_server::Config;

/// A game of `pairs` × 2 plies with no challenge: White and Black each step one piece out
/// of their zone and back. Returns the table, both sides' formations set up.
async fn shuffled(server: &crate::common::Server, pairs: usize) -> Table {
    use salpakan::Setup;
    let rules = Rules::default();
    let setups = [
        Setup::random(Side::White, rules, 41),
        Setup::random(Side::Black, rules, 42),
    ];
    let game =
        salpakan::Game::new(setups[0].clone(), setups[1].clone(), Side::White, rules).unwrap();
    let mut table = Table::open(
        server,
        json!({"first": "white", "rules": {"move_limit": 0}}),
    )
    .await;
    table.set_up(&game).await;
    // A piece on its zone's front row steps out and back.
    let stepper = |side: Side| {
        let (front, out) = if side == Side::White { (3, 4) } else { (6, 5) };
        let square = setups[side.index()]
            .pieces()
            .map(|(square, _)| square.to_string())
            .find(|name| name.ends_with(&front.to_string()))
            .unwrap();
        let file = &square[..1];
        [
            format!("{file}{front}-{file}{out}"),
            format!("{file}{out}-{file}{front}"),
        ]
    };
    let moves = [stepper(Side::White), stepper(Side::Black)];
    for pair in 0..pairs {
        for side in Side::ALL {
            let ply = pair * 2 + side.index();
            let mv = &moves[side.index()][pair % 2];
            table
                .act(side, json!({"t": "move", "move": mv, "ply": ply}), 1)
                .await;
        }
    }
    table
}

/// A game of 1,203 events (two formations, the start, 1,200 quiet plies) played on a server
/// with a raised budget, then that server stopped: its id and database, for a server with the
/// default limits to serve.
pub async fn long_game(name: &str, seed: u64) -> (String, std::path::PathBuf) {
    let db = database(name);
    let busy = start_on(db.clone(), seed, |c| {
        c.limits.messages_per_window = 100_000;
        c.limits.max_move_limit = 0;
    })
    .await;
    let table = shuffled(&busy, 600).await;
    assert_eq!(table.v, 1203, "two formations, the start and 1,200 plies");
    busy.stop().await;
    (table.id, db)
}

/// The long game (`long_game`) served by a server of seed `seed` with the limits `tweak`
/// sets, and a spectator that has had its state.
async fn watching_a_long_game(
    name: &str,
    seed: u64,
    tweak: impl FnOnce(&mut Config),
) -> (Server, Seat) {
    let (id, db) = long_game(name, seed).await;
    let server = start_on(db, seed + 1, tweak).await;
    let mut spectator = server.seat(&id, None).await;
    spectator.until("state").await;
    (server, spectator)
}

#[tokio::test]
async fn a_hello_replays_every_event_however_many() {
    let (server, mut spectator) = watching_a_long_game("replay", 35, |_| {}).await;
    spectator.send(&json!({"t": "hello", "v": 0})).await;
    for v in 1..=1203u64 {
        let frame = spectator.recv().await;
        assert_eq!(frame["v"], v, "event {v} of the replay");
    }
    spectator.send(&json!({"t": "ping"})).await;
    assert_eq!(
        spectator.recv().await["t"],
        "pong",
        "nothing more, nothing missing"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_replay_is_paid_from_the_sockets_budget() {
    // The default budget is 200 messages in 10 s. Each replay of 1,203 events costs its
    // hello plus one message for every 25 events replayed (48), paid before the frames are
    // sent: the replay the budget cannot pay is not sent, the socket is closed.
    let (server, mut spectator) = watching_a_long_game("replay-budget", 37, |_| {}).await;
    let mut replays = 0;
    let closed = loop {
        spectator.send(&json!({"t": "hello", "v": 0})).await;
        let mut got = 0;
        let code = loop {
            let frame = spectator.recv().await;
            if let Some(code) = frame["close"].as_u64() {
                break Some(code);
            }
            if frame["t"] == "error" {
                assert_eq!(frame["code"], "rate-limited");
                continue;
            }
            got += 1;
            if got == 1203 {
                break None;
            }
        };
        if code.is_some() {
            assert_eq!(got, 0, "a replay the budget cannot pay sends nothing");
            break code;
        }
        replays += 1;
        assert!(replays < 30, "replays are not paid for");
    };
    assert_eq!(closed, Some(1008));
    let cost = 1 + 1203 / salpakan_server::socket::game::REPLAYED_PER_MESSAGE;
    assert_eq!(replays, 200 / cost);
    server.stop().await;
}

#[tokio::test]
async fn a_replay_longer_than_a_window_is_served_once_on_a_full_budget() {
    // 20 messages in 10 s: the replay of 1,203 events would cost 48, and costs the 19 left
    // after its hello.
    let (server, mut spectator) =
        watching_a_long_game("replay-window", 52, |c| c.limits.messages_per_window = 20).await;
    spectator.send(&json!({"t": "hello", "v": 0})).await;
    for _ in 0..1203 {
        let frame = spectator.recv().await;
        assert!(frame["v"].is_u64() && frame["t"] != "error", "{frame}");
    }
    spectator.send(&json!({"t": "hello", "v": 0})).await;
    let refused = spectator.recv().await;
    assert_eq!(refused["code"], "rate-limited", "{refused}");
    assert_eq!(spectator.until_close().await, 1008);
    server.stop().await;
}

#[tokio::test]
async fn a_seats_socket_is_never_refused_for_other_clients_sockets() {
    let server = crate::common::start(43).await;
    let (id, white, _) = server.pair(json!({"side": "white"})).await;
    // Another client at the seat's address takes every spectator slot of the address.
    let mut spectators = Vec::new();
    for _ in 0..32 {
        spectators.push(server.seat(&id, None).await);
    }
    let refused = salpakan_server::client::Socket::connect(server.addr, &id, None).await;
    assert!(refused.is_err(), "the address's spectator slots are full");
    // The seat still connects.
    let mut seat = server.seat(&id, Some(&white)).await;
    assert_eq!(seat.until("state").await["side"], "white");
    server.stop().await;
}

#[tokio::test]
async fn a_seat_reconnecting_gets_no_fresh_budget_and_a_bounded_number_of_sockets() {
    let server = start_on(database("reconnects"), 44, |c| {
        c.limits.messages_per_window = 20;
        c.limits.seat_connects_per_minute = 5;
    })
    .await;
    let (id, white, _) = server.pair(json!({"side": "white"})).await;
    let mut seat = server.seat(&id, Some(&white)).await;
    seat.until("state").await;
    for _ in 0..15 {
        seat.send(&json!({"t": "ping"})).await;
        seat.until("pong").await;
    }
    seat.socket.close().await;
    // A new socket of the same seat: the 15 messages still count.
    let mut again = server.seat(&id, Some(&white)).await;
    again.until("state").await;
    let mut closed = None;
    for _ in 0..10 {
        again.send(&json!({"t": "ping"})).await;
        let frame = again.recv().await;
        if frame["t"] == "error" {
            assert_eq!(frame["code"], "rate-limited");
            closed = Some(again.until_close().await);
            break;
        }
    }
    assert_eq!(
        closed,
        Some(1008),
        "the seat's budget is shared by its sockets"
    );
    // Five sockets a minute for the seat: the sixth is refused.
    for _ in 0..3 {
        let socket = server.seat(&id, Some(&white)).await;
        socket.socket.close().await;
    }
    let sixth = salpakan_server::client::Socket::connect(server.addr, &id, Some(&white)).await;
    let refused = sixth.err().expect("refused");
    assert_eq!(refused.body().unwrap().error.word(), "too-many-connections");
    server.stop().await;
}

#[tokio::test]
async fn a_flood_of_reconnects_tells_the_opponent_at_most_once_a_second() {
    let server = start_on(database("flapping"), 47, |c| {
        c.limits.seat_connects_per_minute = 1_000;
        c.limits.presence_gap = Duration::from_secs(1);
    })
    .await;
    let (id, white, black) = server.pair(json!({"side": "white"})).await;
    let mut watcher = server.seat(&id, Some(&white)).await;
    watcher.until("state").await;
    for _ in 0..20 {
        let flapper = server.seat(&id, Some(&black)).await;
        flapper.socket.close().await;
    }
    // Over two seconds the opponent hears a few changes, not forty, and the last is true.
    let mut told = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(2);
    while let Ok(frame) = tokio::time::timeout_at(deadline, watcher.recv()).await {
        if frame["t"] == "presence" {
            told.push(frame["connected"].as_bool().unwrap());
        }
    }
    assert!(told.len() <= 4, "{} presence frames: {told:?}", told.len());
    assert_eq!(
        told.last(),
        Some(&false),
        "the last one told is the seat's presence now"
    );
    server.stop().await;
}

#[tokio::test]
async fn an_addresss_spectators_share_one_budget_a_fresh_socket_does_not_refill_it() {
    let server = start_on(database("spectators-budget"), 51, |c| {
        c.limits.messages_per_window = 10;
    })
    .await;
    let (id, _, _) = server.pair(json!({"side": "white"})).await;
    let ping = json!({"t": "ping"});
    let mut first = server.seat(&id, None).await;
    first.until("state").await;
    for _ in 0..10 {
        first.send(&ping).await;
        first.until("pong").await;
    }
    // The same address's next spectator is over the budget at its first message.
    let mut second = server.seat(&id, None).await;
    second.until("state").await;
    second.send(&ping).await;
    let refused = second.recv().await;
    assert_eq!(refused["code"], "rate-limited", "{refused}");
    assert_eq!(second.until_close().await, 1008);
    // Another address's spectator has its own.
    let other = salpakan_server::client::Socket::connect_from(
        Some("127.0.0.2".parse().unwrap()),
        server.addr,
        &id,
        None,
    )
    .await
    .expect("another address's spectator");
    let mut other = crate::common::Seat {
        socket: other,
        transcript: Vec::new(),
    };
    other.until("state").await;
    other.send(&ping).await;
    other.until("pong").await;
    server.stop().await;
}
