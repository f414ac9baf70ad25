//! A small client of the contract, written from `docs/SERVER.md` alone: plain HTTP/1.1
//! requests and a game socket. The load generator and the tests play through it; a Rust bot
//! can too.
//!
//! ```no_run
//! # async fn run(addr: std::net::SocketAddr) -> Result<(), String> {
//! use salpakan_server::client::{Frame, Socket, request};
//!
//! let (status, body) = request(addr, "POST", "/api/games", r#"{"opponent":"random"}"#).await?;
//! assert_eq!(status, 201);
//! let reply: serde_json::Value = serde_json::from_str(&body).map_err(|e| e.to_string())?;
//! let (game, token) = (reply["game"].as_str().unwrap(), reply["token"].as_str().unwrap());
//! let mut seat = Socket::connect(addr, game, Some(token)).await?;
//! if let Some(Frame::Text(state)) = seat.next().await {
//!     assert!(state.starts_with(r#"{"t":"state""#) || state.contains(r#""t":"state""#));
//! }
//! # Ok(())
//! # }
//! ```

use std::net::SocketAddr;
use std::str::FromStr;

use salpakan::{Bitboard, Move, Outcome, Report, Rules, Setup, Side, Square, Status, Tracker};
use serde_json::Value;

use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::{self, Message};

/// One HTTP request over a fresh connection: the reply's status and body.
///
/// # Errors
/// The connection's error, or a reply that is not HTTP.
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
) -> Result<(u16, String), String> {
    let mut stream = TcpStream::connect(addr)
        .await
        .map_err(|e| format!("{addr}: {e}"))?;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream
        .write_all(format!("{head}{body}").as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let mut reply = Vec::new();
    stream
        .read_to_end(&mut reply)
        .await
        .map_err(|e| e.to_string())?;
    let reply = String::from_utf8(reply).map_err(|e| e.to_string())?;
    let (head, body) = reply
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("not an HTTP reply: {reply:?}"))?;
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("no status in {head:?}"))?;
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_owned()
    };
    Ok((status, body))
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].trim_start_matches("\r\n");
    }
    out
}

/// What a socket receives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// A text frame (one JSON message).
    Text(String),
    /// The server closed the socket with this code.
    Close(u16),
}

/// A game socket.
pub struct Socket {
    ws: WebSocketStream<TcpStream>,
}

impl Socket {
    /// Opens game `game`'s socket, as the seat of `token` or (without one) as a spectator.
    ///
    /// # Errors
    /// For a refused upgrade, `"HTTP STATUS BODY"`; otherwise the connection's error.
    pub async fn connect(
        addr: SocketAddr,
        game: &str,
        token: Option<&str>,
    ) -> Result<Socket, String> {
        let query = token.map_or_else(String::new, |t| format!("?token={t}"));
        let url = format!("ws://{addr}/api/games/{game}/socket{query}");
        let stream = TcpStream::connect(addr)
            .await
            .map_err(|e| format!("{addr}: {e}"))?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        match tokio_tungstenite::client_async(url, stream).await {
            Ok((ws, _)) => Ok(Socket { ws }),
            Err(tungstenite::Error::Http(reply)) => {
                let body = reply
                    .body()
                    .as_deref()
                    .map(|b| String::from_utf8_lossy(b).into_owned())
                    .unwrap_or_default();
                Err(format!("HTTP {} {body}", reply.status().as_u16()))
            }
            Err(e) => Err(e.to_string()),
        }
    }

    /// Sends one text frame.
    ///
    /// # Errors
    /// The connection's error.
    pub async fn send(&mut self, text: &str) -> Result<(), String> {
        self.ws
            .send(Message::Text(text.into()))
            .await
            .map_err(|e| e.to_string())
    }

    /// Sends one binary frame.
    ///
    /// # Errors
    /// The connection's error.
    pub async fn send_binary(&mut self, bytes: Vec<u8>) -> Result<(), String> {
        self.ws
            .send(Message::Binary(bytes.into()))
            .await
            .map_err(|e| e.to_string())
    }

    /// The next text frame or the close, answering pings on the way; `None` once the
    /// connection is gone.
    pub async fn next(&mut self) -> Option<Frame> {
        loop {
            match self.ws.next().await? {
                Ok(Message::Text(text)) => return Some(Frame::Text(text.as_str().to_owned())),
                Ok(Message::Close(frame)) => {
                    return Some(Frame::Close(frame.map_or(1005, |f| u16::from(f.code))));
                }
                Ok(_) => {}
                Err(_) => return None,
            }
        }
    }

    /// Closes the socket.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// A `STATUS` read back: `{"state", "winner", "reason"}`.
///
/// # Errors
/// What is not a status.
pub fn status_of(value: &Value) -> Result<Status, String> {
    let state = value["state"]
        .as_str()
        .ok_or_else(|| format!("not a status: {value}"))?;
    Status::from_words(state, value["winner"].as_str(), value["reason"].as_str())
        .map_err(|e| e.to_string())
}

/// The [`Report`] a `ply` event announces.
///
/// # Errors
/// What is not a `ply` event.
pub fn report_of(frame: &Value) -> Result<Report, String> {
    let mv = frame["move"]
        .as_str()
        .and_then(|m| Move::from_str(m).ok())
        .ok_or_else(|| format!("no move in {frame}"))?;
    let outcome = match &frame["outcome"] {
        Value::Null => None,
        Value::String(name) => Some(Outcome::from_word(name).map_err(|e| e.to_string())?),
        other => return Err(format!("not an outcome: {other}")),
    };
    Ok(Report {
        mv,
        outcome,
        status: status_of(&frame["status"])?,
    })
}

/// A seat's knowledge, kept from its own formation and the events it receives: the
/// [`Tracker`] an agent chooses from.
#[derive(Debug, Clone)]
pub struct Follower {
    own: Setup,
    rules: Rules,
    tracker: Option<Tracker>,
}

impl Follower {
    /// The follower of the seat whose formation is `own`, under `rules`.
    #[must_use]
    pub fn new(own: Setup, rules: Rules) -> Follower {
        Follower {
            own,
            rules,
            tracker: None,
        }
    }

    /// Follows one frame: `start` makes the tracker (the enemy's squares from its view),
    /// `ply` is observed; other frames change nothing.
    ///
    /// # Errors
    /// A frame that does not fit the game followed so far.
    pub fn follow(&mut self, frame: &Value) -> Result<(), String> {
        match frame["t"].as_str() {
            Some("start") => {
                let first = frame["first"]
                    .as_str()
                    .and_then(|f| Side::from_str(f).ok())
                    .ok_or("no first side")?;
                let enemy = self.own.side().other();
                let cells = frame["view"]["cells"].as_array().ok_or("no cells")?;
                let mut squares = Bitboard::EMPTY;
                for (square, cell) in Square::ALL.into_iter().zip(cells) {
                    if cell["side"].as_str() == Some(enemy.word()) {
                        squares = squares.with(square);
                    }
                }
                let tracker = Tracker::new(&self.own, squares, first, self.rules)
                    .map_err(|e| e.to_string())?;
                self.tracker = Some(tracker);
            }
            Some("ply") => {
                let report = report_of(frame)?;
                let tracker = self.tracker.as_mut().ok_or("a ply before the start")?;
                tracker.observe(&report).map_err(|e| e.to_string())?;
            }
            _ => {}
        }
        Ok(())
    }

    /// The knowledge so far (`None` before the start).
    #[must_use]
    pub fn tracker(&self) -> Option<&Tracker> {
        self.tracker.as_ref()
    }
}
