//! The server's own pauses (SIGSTOP, a suspended machine) are charged to nobody: no clock
//! runs and no kind of socket counts them as its client's idleness.

use std::time::Duration;

use salpakan_server::client::Frame;
use serde_json::json;

use crate::common::{
    Binary, Seat, Table, clock_ms, database, player_socket, random_game, register, socket,
};

/// Stops the server's process for `secs` seconds (SIGSTOP), then lets it go on.
async fn pause(binary: &Binary, secs: f64) {
    let pid = binary.child.id().to_string();
    let signal = |name: &str| {
        std::process::Command::new("kill")
            .args([name, &pid])
            .status()
            .expect("kill");
    };
    signal("-STOP");
    tokio::time::sleep(Duration::from_secs_f64(secs)).await;
    signal("-CONT");
}

/// The server stopped (SIGSTOP) for 2.4 s, longer than the idle timeout and than the first
/// mover's clock: no loss on time, and no socket of any kind (the seats', a spectator's, the
/// lobby's, a player's) is closed as idle once the server goes on. (The lobby's and the
/// players' sockets once counted the pause as their clients' idleness, and closed with 1001.)
#[tokio::test]
async fn a_pause_of_the_server_is_charged_to_nobody() {
    let db = database("paused");
    let args = [
        "--max-move-limit",
        "0",
        "--ping-interval-secs",
        "1",
        "--idle-timeout-secs",
        "2",
    ];
    let binary = Binary::start(None, &args, &db);
    let server = &binary.server;
    let game = random_game(19, 4);
    let first = game.first_mover();
    let clock = json!({"initial_ms": 2_000, "increment_ms": 0});
    let mut table = Table::open(server, json!({"first": first.word(), "clock": clock})).await;
    table.set_up(&game).await;
    let key = register(server, "Pausa").await;
    let id = table.id.clone();
    let mut others: Vec<(&str, Seat)> = vec![
        (
            "spectator",
            socket(server, &format!("/api/games/{id}/socket")).await,
        ),
        ("lobby", socket(server, "/api/lobby/socket").await),
        ("player", player_socket(server, &key).await),
    ];
    others[0].1.until("state").await;
    others[1].1.until("lobby").await;
    // Past the idle timeout (2 s) and the first mover's whole clock (2 s).
    pause(&binary, 2.4).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let seat = &mut table.seats[first.index()];
    seat.send(&json!({"t": "hello", "v": 99})).await;
    let state = seat.until("state").await;
    assert_eq!(
        state["status"]["state"], "ongoing",
        "no loss on time for the server's pause"
    );
    let left = clock_ms(&state, first);
    assert!(
        left > 1_000,
        "{left} ms left of 2,000 after a 2.4 s pause of the server"
    );
    // For longer than a ping interval (1 s: each socket's idleness is looked at as it
    // pings), each socket reads what comes, answering pings. A socket whose idleness counted
    // the pause (2.4 s past its last word, of a 2 s timeout) is closed at its first look.
    let [white, black] = table.seats;
    let mut sockets = vec![("seat", white), ("seat", black)];
    sockets.append(&mut others);
    let until = tokio::time::Instant::now() + Duration::from_millis(1_600);
    while tokio::time::Instant::now() < until {
        for (kind, seat) in &mut sockets {
            let read = tokio::time::timeout(Duration::from_millis(50), seat.socket.next()).await;
            match read {
                Ok(Some(Frame::Text(_))) | Err(_) => {}
                Ok(other) => panic!("the {kind} socket ended after the pause: {other:?}"),
            }
        }
    }
    // Each is still open, and answers.
    for (kind, seat) in &mut sockets {
        seat.send(&json!({"t": "ping"})).await;
        assert_eq!(seat.until("pong").await["t"], "pong", "{kind}");
    }
}
