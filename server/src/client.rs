//! A small client of the contract, written from `docs/SERVER.md` alone: plain HTTP/1.1
//! requests and a game socket whose messages are read into the wire's types
//! ([`ServerMessage`]). The load generator and the tests play through it; a Rust bot can
//! too. (Feature `client`.)
//!
//! ```no_run
//! # async fn run(addr: std::net::SocketAddr) -> Result<(), salpakan_server::client::ClientError> {
//! use salpakan_server::client::{Received, Socket, post};
//! use salpakan_server::wire::{CreateReply, ServerMessage};
//!
//! let created: CreateReply = post(addr, "/api/games", r#"{"opponent":"random"}"#).await?;
//! let mut seat = Socket::connect(addr, &created.game, Some(&created.token)).await?;
//! if let Received::Message(ServerMessage::State { phase, .. }) = seat.receive().await? {
//!     println!("the game is in its {} phase", phase.word());
//! }
//! # Ok(())
//! # }
//! ```

use std::net::{IpAddr, SocketAddr};

use salpakan::{Rules, Setup, Tracker};
use serde::de::DeserializeOwned;
use thiserror::Error;

use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::{self, Message};

use crate::wire::{ErrorBody, ServerMessage};

/// What went wrong on the client's side of the contract.
#[derive(Debug, Error)]
pub enum ClientError {
    /// The connection failed, or closed too early.
    #[error("{0}")]
    Connection(String),
    /// A reply that is not HTTP.
    #[error("not an HTTP reply: {0:?}")]
    NotHttp(String),
    /// The server refused a request: its status and the contract's error body.
    #[error("HTTP {status} {body}")]
    Refused {
        /// The HTTP status.
        status: u16,
        /// The reply's body.
        body: String,
    },
    /// A frame or body that is not the contract's JSON.
    #[error("not the contract's JSON ({error}): {text}")]
    Json {
        /// What serde said.
        error: String,
        /// The text.
        text: String,
    },
    /// A message that does not fit the game followed so far.
    #[error("{0}")]
    Game(String),
}

impl ClientError {
    /// The contract's error body of a refused request, if it is one.
    #[must_use]
    pub fn body(&self) -> Option<ErrorBody> {
        match self {
            ClientError::Refused { body, .. } => serde_json::from_str(body).ok(),
            _ => None,
        }
    }
}

fn connection(e: impl std::fmt::Display) -> ClientError {
    ClientError::Connection(e.to_string())
}

fn read_json<T: DeserializeOwned>(text: &str) -> Result<T, ClientError> {
    serde_json::from_str(text).map_err(|e| ClientError::Json {
        error: e.to_string(),
        text: text.to_owned(),
    })
}

/// One HTTP request over a fresh connection: the reply's status and body, whatever the
/// status.
///
/// # Errors
/// [`ClientError::Connection`], or [`ClientError::NotHttp`] for a reply that is not HTTP.
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
) -> Result<(u16, String), ClientError> {
    request_from(None, addr, method, path, body).await
}

/// A connection to `addr`, from the local address `from` if one is given (a loopback address
/// other than 127.0.0.1 is another client to the server's per-address limits).
async fn connect_from(from: Option<IpAddr>, addr: SocketAddr) -> Result<TcpStream, ClientError> {
    let failed = |e: std::io::Error| ClientError::Connection(format!("{addr}: {e}"));
    let Some(from) = from else {
        return TcpStream::connect(addr).await.map_err(failed);
    };
    let socket = match from {
        IpAddr::V4(_) => TcpSocket::new_v4(),
        IpAddr::V6(_) => TcpSocket::new_v6(),
    }
    .map_err(failed)?;
    socket.bind(SocketAddr::new(from, 0)).map_err(failed)?;
    socket.connect(addr).await.map_err(failed)
}

/// As [`request`], from the local address `from` if one is given.
///
/// # Errors
/// As [`request`].
pub async fn request_from(
    from: Option<IpAddr>,
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
) -> Result<(u16, String), ClientError> {
    request_as(from, addr, method, path, body, None).await
}

/// As [`request_from`], made as the player whose key is `key` (`Authorization: Bearer KEY`)
/// if one is given.
///
/// # Errors
/// As [`request`].
pub async fn request_as(
    from: Option<IpAddr>,
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
    key: Option<&str>,
) -> Result<(u16, String), ClientError> {
    let authorization = key.map(|key| format!("Bearer {key}"));
    let headers: Vec<(&str, &str)> = authorization
        .iter()
        .map(|value| ("Authorization", value.as_str()))
        .collect();
    request_with(from, addr, (method, path, body), &headers).await
}

/// As [`request_from`], with `headers` besides `Host` (`addr`), `Content-Type` and
/// `Content-Length` (an operator's `X-Salpakan-Admin`, another `Host`).
///
/// # Errors
/// As [`request`].
pub async fn request_with(
    from: Option<IpAddr>,
    addr: SocketAddr,
    (method, path, body): (&str, &str, &str),
    headers: &[(&str, &str)],
) -> Result<(u16, String), ClientError> {
    let mut stream = connect_from(from, addr).await?;
    let host = headers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("host"))
        .map_or_else(|| addr.to_string(), |(_, value)| (*value).to_owned());
    let extra: String = headers
        .iter()
        .filter(|(name, _)| !name.eq_ignore_ascii_case("host"))
        .map(|(name, value)| format!("{name}: {value}\r\n"))
        .collect();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\
         {extra}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream
        .write_all(format!("{head}{body}").as_bytes())
        .await
        .map_err(connection)?;
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).await.map_err(connection)?;
    let reply = String::from_utf8(reply).map_err(|e| ClientError::NotHttp(e.to_string()))?;
    let (head, body) = reply
        .split_once("\r\n\r\n")
        .ok_or_else(|| ClientError::NotHttp(reply.clone()))?;
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| ClientError::NotHttp(head.to_owned()))?;
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

/// `POST path` with `body`, its 2xx reply read into `T`.
///
/// # Errors
/// [`ClientError::Refused`] for another status (with the contract's error body),
/// [`ClientError::Json`] for a reply that is not a `T`, or the request's error.
pub async fn post<T: DeserializeOwned>(
    addr: SocketAddr,
    path: &str,
    body: &str,
) -> Result<T, ClientError> {
    post_from(None, addr, path, body).await
}

/// [`post`] from the local address `from` (as [`request_from`]).
///
/// # Errors
/// As [`post`].
pub async fn post_from<T: DeserializeOwned>(
    from: Option<IpAddr>,
    addr: SocketAddr,
    path: &str,
    body: &str,
) -> Result<T, ClientError> {
    let (status, text) = request_from(from, addr, "POST", path, body).await?;
    if !(200..300).contains(&status) {
        return Err(ClientError::Refused { status, body: text });
    }
    read_json(&text)
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

/// What a socket receives, as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// A text frame (one JSON message).
    Text(String),
    /// The server closed the socket with this code.
    Close(u16),
}

/// What a socket receives, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Received {
    /// A message of the contract.
    Message(ServerMessage),
    /// The server closed the socket with this code.
    Closed(u16),
}

/// A game socket.
pub struct Socket {
    ws: WebSocketStream<TcpStream>,
}

impl Socket {
    /// Opens game `game`'s socket, as the seat of `token` or (without one) as a spectator.
    ///
    /// # Errors
    /// [`ClientError::Refused`] for a refused upgrade; otherwise the connection's error.
    pub async fn connect(
        addr: SocketAddr,
        game: &str,
        token: Option<&str>,
    ) -> Result<Socket, ClientError> {
        Socket::connect_from(None, addr, game, token).await
    }

    /// As [`Socket::connect`], from the local address `from` if one is given.
    ///
    /// # Errors
    /// As [`Socket::connect`].
    pub async fn connect_from(
        from: Option<IpAddr>,
        addr: SocketAddr,
        game: &str,
        token: Option<&str>,
    ) -> Result<Socket, ClientError> {
        let query = token.map_or_else(String::new, |t| format!("?token={t}"));
        Socket::open(from, addr, &format!("/api/games/{game}/socket{query}")).await
    }

    /// Opens the socket at `path` (`/api/players/socket`, `/api/lobby/socket`, a game's),
    /// from the local address `from` if one is given.
    ///
    /// # Errors
    /// As [`Socket::connect`].
    pub async fn open(
        from: Option<IpAddr>,
        addr: SocketAddr,
        path: &str,
    ) -> Result<Socket, ClientError> {
        let url = format!("ws://{addr}{path}");
        let stream = connect_from(from, addr).await?;
        stream.set_nodelay(true).map_err(connection)?;
        match tokio_tungstenite::client_async(url, stream).await {
            Ok((ws, _)) => Ok(Socket { ws }),
            Err(tungstenite::Error::Http(reply)) => {
                let body = reply
                    .body()
                    .as_deref()
                    .map(|b| String::from_utf8_lossy(b).into_owned())
                    .unwrap_or_default();
                Err(ClientError::Refused {
                    status: reply.status().as_u16(),
                    body,
                })
            }
            Err(e) => Err(connection(e)),
        }
    }

    /// Sends one text frame.
    ///
    /// # Errors
    /// The connection's error.
    pub async fn send(&mut self, text: &str) -> Result<(), ClientError> {
        self.ws
            .send(Message::Text(text.into()))
            .await
            .map_err(connection)
    }

    /// Sends one binary frame.
    ///
    /// # Errors
    /// The connection's error.
    pub async fn send_binary(&mut self, bytes: Vec<u8>) -> Result<(), ClientError> {
        self.ws
            .send(Message::Binary(bytes.into()))
            .await
            .map_err(connection)
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

    /// The next message, read into the wire's type, or the close.
    ///
    /// # Errors
    /// [`ClientError::Connection`] once the connection is gone, [`ClientError::Json`] for a
    /// frame that is not a message of the contract.
    pub async fn receive(&mut self) -> Result<Received, ClientError> {
        match self.next().await {
            Some(Frame::Text(text)) => read_json(&text).map(Received::Message),
            Some(Frame::Close(code)) => Ok(Received::Closed(code)),
            None => Err(ClientError::Connection("the connection is gone".into())),
        }
    }

    /// Closes the socket.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// A seat's knowledge, kept from its own formation and the messages it receives: the
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

    /// Follows one message: `start` makes the tracker (the enemy's squares from its view),
    /// `ply` is observed; other messages change nothing.
    ///
    /// # Errors
    /// [`ClientError::Game`] for a message that does not fit the game followed so far.
    pub fn follow(&mut self, message: &ServerMessage) -> Result<(), ClientError> {
        match message {
            ServerMessage::Start { first, view, .. } => {
                let enemy = self.own.side().other();
                let view = view
                    .as_ref()
                    .ok_or_else(|| ClientError::Game("a start without a view".into()))?;
                let tracker = Tracker::new(&self.own, view.squares_of(enemy), first.0, self.rules)
                    .map_err(|e| ClientError::Game(e.to_string()))?;
                self.tracker = Some(tracker);
            }
            ServerMessage::Ply { .. } => {
                let report = message.report().unwrap_or_else(|| unreachable!("a ply"));
                let tracker = self
                    .tracker
                    .as_mut()
                    .ok_or_else(|| ClientError::Game("a ply before the start".into()))?;
                tracker
                    .observe(&report)
                    .map_err(|e| ClientError::Game(e.to_string()))?;
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
