//! Connections: idle ones capped per address and closed, the last descriptors kept for
//! others, a socket that never reads closed, a browser's kept-alive connections.
use std::time::Duration;

use serde_json::json;

use crate::budgets::long_game;
use crate::common::Binary;
use crate::common::{database, start_on};

/// Opens `n` TCP connections to `server` from `from` (another loopback address than the
/// tests' clients), sending nothing.
async fn idle_connections(
    server: std::net::SocketAddr,
    from: [u8; 4],
    n: usize,
) -> Vec<tokio::net::TcpStream> {
    let mut streams = Vec::new();
    for _ in 0..n {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(std::net::SocketAddr::from((from, 0))).unwrap();
        if let Ok(stream) = socket.connect(server).await {
            streams.push(stream);
        }
    }
    streams
}

/// How many of `streams` the server has closed within `wait` (all watched at once).
async fn closed_by_the_server(streams: &mut [tokio::net::TcpStream], wait: Duration) -> usize {
    use tokio::io::AsyncReadExt;
    let reads = streams.iter_mut().map(|stream| async move {
        let mut byte = [0u8; 1];
        matches!(
            tokio::time::timeout(wait, stream.read(&mut byte)).await,
            Ok(Ok(0) | Err(_))
        )
    });
    futures_util::future::join_all(reads)
        .await
        .into_iter()
        .filter(|&closed| closed)
        .count()
}

#[tokio::test]
async fn idle_connections_are_capped_per_address_and_closed_after_the_header_timeout() {
    let server = start_on(database("idle"), 42, |c| {
        c.limits.header_timeout = Duration::from_millis(800);
        c.limits.pending_per_ip = 8;
    })
    .await;
    let mut idle = idle_connections(server.addr, [127, 0, 0, 2], 100).await;
    // All but 8 are closed at once...
    let at_once = closed_by_the_server(&mut idle, Duration::from_millis(200)).await;
    assert_eq!(
        at_once, 92,
        "the address's connections waiting for a request are capped"
    );
    // ...meanwhile another address plays...
    let (status, created) = server.json("POST", "/api/games", &json!({})).await;
    assert_eq!(status, 201);
    let mut seat = server
        .seat(created["game"].as_str().unwrap(), created["token"].as_str())
        .await;
    seat.until("state").await;
    // ...and the 8 that sent nothing are closed after the header timeout.
    let later = closed_by_the_server(&mut idle, Duration::from_secs(3)).await;
    assert_eq!(later, 100);
    server.stop().await;
}

#[tokio::test]
async fn with_few_descriptors_one_address_cannot_take_the_last_of_them() {
    let db = database("descriptors");
    // The real binary, with 256 descriptors.
    let mut binary = Binary::start(Some("ulimit -n 256 && exec \"$0\" \"$@\""), &[], &db);
    let (addr, server) = (binary.server.addr, &binary.server);
    let mut idle = idle_connections(addr, [127, 0, 0, 3], 600).await;
    let at_once = closed_by_the_server(&mut idle, Duration::from_millis(100)).await;
    assert!(at_once >= 600 - 16, "{at_once} of 600 closed at once");
    // The server still serves everyone else: games, sockets, the database.
    for _ in 0..3 {
        let (status, created) = server.json("POST", "/api/games", &json!({})).await;
        assert_eq!(status, 201, "{created}");
        let mut seat = server
            .seat(created["game"].as_str().unwrap(), created["token"].as_str())
            .await;
        seat.until("state").await;
    }
    assert!(
        binary.child.try_wait().unwrap().is_none(),
        "the server is still running"
    );
}

#[tokio::test]
async fn a_socket_that_never_reads_is_closed_and_its_slot_freed() {
    let (id, db) = long_game("never-reads", 57).await;
    let server = start_on(db, 58, |c| {
        c.limits.messages_per_window = 100_000;
        c.limits.connections_per_ip = 1;
        c.limits.write_timeout = Duration::from_millis(300);
    })
    .await;
    let connect = || salpakan_server::client::Socket::connect(server.addr, &id, None);
    let mut deaf = connect().await.expect("the first spectator");
    // Its address's only slot is taken.
    assert!(connect().await.is_err());
    // It asks for the whole history (about 300 KB) again and again, and reads none of it:
    // once the buffers between are full, the server's write waits, past its bound.
    for _ in 0..40 {
        if deaf.send(r#"{"t":"hello","v":0}"#).await.is_err() {
            break;
        }
    }
    // The connection is dropped within the write timeout and a little: nothing more is
    // written to a client that reads nothing, not even the close.
    let stalled = std::time::Instant::now();
    let mut tries = 0;
    let _next = loop {
        match connect().await {
            Ok(socket) => break socket,
            Err(e) => {
                let code = e.body().map(|b| b.error.word());
                assert_eq!(code, Some("too-many-connections"), "{e}");
                tries += 1;
                assert!(tries < 100, "the socket that reads nothing keeps its slot");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };
    assert!(
        stalled.elapsed() < Duration::from_millis(1500),
        "the slot freed {:?} after the hellos",
        stalled.elapsed()
    );
    drop(deaf);
    server.stop().await;
}

/// A socket whose client never reads lets its connection go as soon as a write to it
/// stalls: nothing more is written to it, not even the close (which it would not read), so
/// it holds no connection for the write timeout again and again.
#[tokio::test]
async fn a_socket_that_never_reads_lets_its_connection_go_when_its_write_stalls() {
    let (id, db) = long_game("never-reads-let-go", 61).await;
    let server = start_on(db, 62, |c| {
        c.limits.messages_per_window = 100_000;
        c.limits.write_timeout = Duration::from_millis(300);
        c.limits.max_connections = 1;
    })
    .await;
    let mut deaf = salpakan_server::client::Socket::connect(server.addr, &id, None)
        .await
        .expect("the one connection");
    for _ in 0..40 {
        if deaf.send(r#"{"t":"hello","v":0}"#).await.is_err() {
            break;
        }
    }
    let sent = std::time::Instant::now();
    // The server holds one connection: another is served once the deaf one is let go.
    loop {
        let health = salpakan_server::client::request(server.addr, "GET", "/api/health", "");
        if matches!(health.await, Ok((200, _))) {
            break;
        }
        assert!(
            sent.elapsed() < Duration::from_millis(1500),
            "the deaf connection is held past its stalled write"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    drop(deaf);
    server.stop().await;
}

/// A socket's upgrade of `path` at `server` over a connection of its own: the reply's status,
/// and whether the server closed the connection after it (within a second).
pub async fn upgrade_attempt(server: std::net::SocketAddr, path: &str) -> (u16, bool) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(server).await.unwrap();
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {server}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut reply = Vec::new();
    let mut chunk = [0u8; 4096];
    let closed = loop {
        match tokio::time::timeout(Duration::from_secs(1), stream.read(&mut chunk)).await {
            Ok(Ok(0) | Err(_)) => break true,
            Ok(Ok(n)) => reply.extend_from_slice(&chunk[..n]),
            Err(_) => break false,
        }
    };
    let text = String::from_utf8_lossy(&reply);
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, closed)
}

/// A refused upgrade does not keep its connection: a client retrying refused upgrades holds
/// nothing for each.
#[tokio::test]
async fn a_refused_upgrade_closes_its_connection() {
    let (id, db) = long_game("refused-upgrades", 59).await;
    let server = start_on(db, 60, |c| c.limits.connections_per_ip = 1).await;
    let _held = salpakan_server::client::Socket::connect(server.addr, &id, None)
        .await
        .expect("the address's one socket");
    for path in [
        format!("/api/games/{id}/socket"),
        "/api/lobby/socket".to_owned(),
        "/api/games/nothing/socket".to_owned(),
        format!("/api/games/{id}/socket?token=wrong"),
    ] {
        let (status, closed) = upgrade_attempt(server.addr, &path).await;
        assert!(status >= 400, "{path}: {status}");
        assert!(
            closed,
            "{path}: the refused upgrade's connection stays open"
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn a_browsers_kept_alive_connections_do_not_count_as_waiting() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = start_on(database("kept-alive"), 59, |c| {
        c.limits.header_timeout = Duration::from_secs(5);
        c.limits.pending_per_ip = 2;
    })
    .await;
    // Six connections from one address, each asks for something and stays open (as a
    // browser's tabs keep theirs): more than the 2 that may wait for a first request.
    let mut kept = idle_connections(server.addr, [127, 0, 0, 3], 1).await;
    for _ in 0..5 {
        kept.extend(idle_connections(server.addr, [127, 0, 0, 3], 1).await);
        let stream = kept.last_mut().unwrap();
        stream
            .write_all(b"GET /api/health HTTP/1.1\r\nHost: salpakan\r\n\r\n")
            .await
            .unwrap();
        let mut reply = [0u8; 12];
        stream.read_exact(&mut reply).await.unwrap();
        assert_eq!(&reply, b"HTTP/1.1 200", "a kept-alive connection is served");
    }
    let first = &mut kept[0];
    first
        .write_all(b"GET /api/health HTTP/1.1\r\nHost: salpakan\r\n\r\n")
        .await
        .unwrap();
    let mut reply = [0u8; 12];
    first.read_exact(&mut reply).await.unwrap();
    assert_eq!(&reply, b"HTTP/1.1 200");
    // Still, only 2 that send nothing are held.
    let mut silent = idle_connections(server.addr, [127, 0, 0, 3], 4).await;
    let closed = closed_by_the_server(&mut silent, Duration::from_millis(300)).await;
    assert_eq!(closed, 2, "two connections may wait for a first request");
    server.stop().await;
}

#[tokio::test]
async fn on_an_ipv6_listener_each_ipv4_client_is_counted_as_itself() {
    let server = start_on(database("v4-mapped"), 60, |c| {
        c.addr = "[::ffff:127.0.0.1]:0".parse().unwrap();
        c.limits.header_timeout = Duration::from_secs(5);
        c.limits.pending_per_ip = 2;
        c.limits.games_per_ip = 1;
        c.trusted_proxies = vec!["127.0.0.9/32".parse().unwrap()];
    })
    .await;
    assert!(server.addr.is_ipv6(), "{}", server.addr);
    let v4 = std::net::SocketAddr::from(([127, 0, 0, 1], server.addr.port()));
    // One client's idle connections take its own slots, not the other IPv4 clients'.
    let mut first = idle_connections(v4, [127, 0, 0, 2], 5).await;
    let mut second = idle_connections(v4, [127, 0, 0, 3], 2).await;
    let wait = Duration::from_millis(300);
    assert_eq!(closed_by_the_server(&mut first, wait).await, 3);
    assert_eq!(closed_by_the_server(&mut second, wait).await, 0);
    // The proxy at 127.0.0.9 (arriving as ::ffff:127.0.0.9) is believed: its two clients
    // each create their game, and a third game of the first client is refused.
    let through_proxy = |client: &'static str| async move {
        let from = Some("127.0.0.9".parse().unwrap());
        let head = format!(
            "POST /api/games HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: {client}\r\n\
             Content-Length: 2\r\nConnection: close\r\n\r\n{{}}"
        );
        raw(from, v4, &head).await
    };
    assert!(through_proxy("10.1.2.3").await.starts_with("HTTP/1.1 201"));
    assert!(through_proxy("10.1.2.4").await.starts_with("HTTP/1.1 201"));
    assert!(through_proxy("10.1.2.3").await.starts_with("HTTP/1.1 429"));
    server.stop().await;
}

/// Sends `head` (a whole request) from `from` to `addr` and reads the reply to its end.
async fn raw(from: Option<std::net::IpAddr>, addr: std::net::SocketAddr, head: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    if let Some(from) = from {
        socket.bind(std::net::SocketAddr::new(from, 0)).unwrap();
    }
    let mut stream = socket.connect(addr).await.unwrap();
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).await.unwrap();
    reply
}

#[tokio::test]
async fn requests_are_bounded_per_address_and_per_connection() {
    let server = start_on(database("requests"), 61, |c| {
        c.limits.requests_per_minute = 20;
        c.limits.requests_per_connection = 3;
    })
    .await;
    let get = async |from: [u8; 4]| {
        let from = Some(std::net::IpAddr::from(from));
        salpakan_server::client::request_as(from, server.addr, "GET", "/api/health", "", None)
            .await
            .unwrap()
    };
    for _ in 0..20 {
        assert_eq!(get([127, 0, 0, 2]).await.0, 200);
    }
    let (status, reply) = get([127, 0, 0, 2]).await;
    assert_eq!(status, 429, "{reply}");
    assert!(reply.contains("rate-limited"), "{reply}");
    assert_eq!(
        get([127, 0, 0, 3]).await.0,
        200,
        "another address is not limited"
    );
    // Three requests on one kept-alive connection: the third reply closes it.
    let one = "GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n";
    let head = one.repeat(4);
    let replies = raw(Some("127.0.0.4".parse().unwrap()), server.addr, &head).await;
    assert_eq!(replies.matches("HTTP/1.1 200").count(), 3, "{replies}");
    assert_eq!(replies.matches("connection: close").count(), 1, "{replies}");
    server.stop().await;
}
