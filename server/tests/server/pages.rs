//! The page's files (`--static`): served compressed where the build left a compressed copy
//! and the client takes it, and never counted against an address's API requests.

use std::net::SocketAddr;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::common::{database, scratch, start_on};

/// A GET of `path` with `headers`: the status, the reply's headers (names in lower case) and
/// its body.
async fn get(addr: SocketAddr, path: &str, headers: &str) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).await.unwrap();
    let split = reply
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let head = String::from_utf8_lossy(&reply[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    (status, headers, reply[split + 4..].to_vec())
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

#[tokio::test]
async fn the_page_s_files_go_compressed_when_the_client_takes_it() {
    let dir = scratch("pages");
    std::fs::write(dir.join("index.html"), "<!doctype html><title>page</title>").unwrap();
    std::fs::write(dir.join("app.js"), "export const page = 1;\n".repeat(50)).unwrap();
    std::fs::write(dir.join("app.js.gz"), b"the gzip copy").unwrap();
    std::fs::write(dir.join("app.js.br"), b"the brotli copy").unwrap();
    let server = start_on(database("pages"), 1, |c| c.static_dir = Some(dir.clone())).await;

    let (status, headers, body) = get(server.addr, "/app.js", "Accept-Encoding: gzip\r\n").await;
    assert_eq!(
        (status, header(&headers, "content-encoding")),
        (200, Some("gzip"))
    );
    assert_eq!(body, b"the gzip copy");
    assert!(
        header(&headers, "content-type")
            .unwrap()
            .contains("javascript")
    );

    let (_, headers, body) = get(server.addr, "/app.js", "Accept-Encoding: br, gzip\r\n").await;
    assert_eq!(header(&headers, "content-encoding"), Some("br"));
    assert_eq!(body, b"the brotli copy");

    // A client that takes no compression gets the file itself.
    let (status, headers, body) = get(server.addr, "/app.js", "").await;
    assert_eq!((status, header(&headers, "content-encoding")), (200, None));
    assert_eq!(body, "export const page = 1;\n".repeat(50).as_bytes());

    // A file without a compressed copy is served as it is, whatever the client takes.
    let (status, headers, body) = get(server.addr, "/", "Accept-Encoding: gzip, br\r\n").await;
    assert_eq!((status, header(&headers, "content-encoding")), (200, None));
    assert_eq!(body, b"<!doctype html><title>page</title>");
    server.stop().await;
}

#[tokio::test]
async fn the_page_s_files_are_not_counted_with_the_api_s_requests() {
    let dir = scratch("pages-counted");
    std::fs::write(dir.join("index.html"), "<!doctype html>").unwrap();
    let server = start_on(database("pages-counted"), 2, |c| {
        c.static_dir = Some(dir.clone());
        c.limits.requests_per_minute = 5;
    })
    .await;
    for _ in 0..20 {
        assert_eq!(get(server.addr, "/", "").await.0, 200, "a page's file");
    }
    let mut statuses = Vec::new();
    for _ in 0..6 {
        statuses.push(get(server.addr, "/api/health", "").await.0);
    }
    assert_eq!(
        statuses,
        [200, 200, 200, 200, 200, 429],
        "the API's own 5 a minute"
    );
    server.stop().await;
}
