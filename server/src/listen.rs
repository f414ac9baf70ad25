//! The listener: every connection counted when accepted, per client address and in all, and
//! served by hyper with a header timeout, so that a connection that sends nothing (on
//! arrival, or between requests) is closed. An address at its cap of connections that have
//! not yet sent a request, one over its connection rate, or any connection past the server's
//! total (the open-file limit less a reserve), is closed at once: no client can take the
//! descriptors every other game needs. A connection that has sent a request (a browser's
//! kept-alive connections) no longer counts as waiting: the header timeout closes it when
//! idle, so an address holds at most its connections a minute times that timeout.

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

use tokio::time::Instant;
use tower::ServiceExt;

use crate::budget::Budget;
use crate::config::{AddressKey, Limits};
use crate::services::stopping::{Stop, Stopping};

/// The connections held: those of each address that have not yet sent a request, those in
/// HTTP (not sockets), and every open one.
#[derive(Default)]
pub(crate) struct Connections {
    pending: Mutex<HashMap<IpAddr, (usize, Budget)>>,
    http: Arc<AtomicUsize>,
    open: Arc<AtomicUsize>,
    /// The other nodes' addresses: their forwarded requests and sockets carry many clients,
    /// so the per-address limits do not apply to them (the server's total still does).
    peers: Mutex<Vec<IpAddr>>,
}

impl Connections {
    /// The other nodes' addresses from now on.
    #[cfg(feature = "nodes")]
    pub(crate) fn set_peers(&self, peers: Vec<IpAddr>) {
        *self.peers.lock().unwrap_or_else(PoisonError::into_inner) = peers;
    }

    fn is_peer(&self, ip: IpAddr) -> bool {
        self.peers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(&ip)
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<IpAddr, (usize, Budget)>> {
        self.pending.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Open connections now (sockets included).
    #[must_use]
    pub(crate) fn open(&self) -> usize {
        self.open.load(Ordering::Relaxed)
    }

    /// Connections in HTTP now (not sockets, not closed).
    #[must_use]
    pub(crate) fn in_http(&self) -> usize {
        self.http.load(Ordering::Relaxed)
    }

    /// Counts a new connection from `key` at `now`, or says why it is refused.
    fn admit(
        self: &Arc<Self>,
        ip: IpAddr,
        key: IpAddr,
        limits: &Limits,
        total: usize,
        now: Instant,
    ) -> Result<(Pending, Held, Held), &'static str> {
        if self.open() >= total {
            return Err("the server's connections are all taken");
        }
        let key = if self.is_peer(ip) {
            None
        } else {
            let mut pending = self.lock();
            let (count, rate) = pending.entry(key).or_insert_with(|| {
                (
                    0,
                    Budget::per(limits.connects_per_minute, Duration::from_secs(60)),
                )
            });
            if *count >= limits.pending_per_ip {
                return Err("too many connections from this address");
            }
            if !rate.take(now, 1) {
                return Err("too many new connections from this address");
            }
            *count += 1;
            Some(key)
        };
        let pending = Pending {
            connections: Arc::clone(self),
            key,
        };
        Ok((pending, Held::count(&self.http), Held::count(&self.open)))
    }
}

/// One of a gauge's count, held until dropped: a connection in HTTP (until it is a socket, or
/// closed), or an open one (until its stream is dropped).
struct Held(Arc<AtomicUsize>);

impl Held {
    fn count(gauge: &Arc<AtomicUsize>) -> Held {
        gauge.fetch_add(1, Ordering::Relaxed);
        Held(Arc::clone(gauge))
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A connection that has not yet sent a request, counted against its address until dropped
/// (at its first request, or when it closes).
struct Pending {
    connections: Arc<Connections>,
    /// The address counted (none for another node's connection).
    key: Option<IpAddr>,
}

impl Drop for Pending {
    fn drop(&mut self) {
        let Some(key) = self.key else { return };
        let mut pending = self.connections.lock();
        if let Some((count, rate)) = pending.get_mut(&key) {
            *count = count.saturating_sub(1);
            if *count == 0 && rate.is_empty(Instant::now()) {
                pending.remove(&key);
            }
        }
    }
}

/// A TCP stream that counts as open until dropped (a socket's too, after the upgrade).
struct Counted {
    stream: TcpStream,
    _open: Held,
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// The open-file soft limit of this process, if it can be read.
#[must_use]
pub(crate) fn open_file_limit() -> Option<usize> {
    let (soft, _) = rlimit::Resource::NOFILE.get().ok()?;
    usize::try_from(soft).ok()
}

/// Raises this process's open-file soft limit to its hard limit (a systemd service starts
/// at 1,024, about 500 games' sockets); returns the soft limit before and after, or the
/// system's error (the limit is then as it was).
///
/// # Errors
/// The system's refusal.
pub fn raise_open_file_limit() -> std::io::Result<(u64, u64)> {
    let (before, _) = rlimit::Resource::NOFILE.get()?;
    let after = rlimit::increase_nofile_limit(u64::MAX)?;
    Ok((before, after))
}

/// The most connections the server holds at once: its open-file limit less `reserve` (the
/// database, the page's files, the listener), or `limits.max_connections` if lower.
#[must_use]
pub(crate) fn total_connections(limits: &Limits) -> usize {
    let files = open_file_limit().unwrap_or(1024);
    files
        .saturating_sub(limits.reserved_files)
        .min(limits.max_connections)
        .max(1)
}

/// Accepts and serves connections on `listener` with `router` until the server stops;
/// then waits (at most `limits.write_timeout`) for the requests being served to finish (the
/// sockets close on their own, with 1012).
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    key: AddressKey,
    connections: Arc<Connections>,
    stopping: Stopping,
) {
    let total = total_connections(&limits);
    let mut stop = stopping.listen();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let (stream, peer) = match accepted {
                    // An IPv4 client of an IPv6 listener arrives as `::ffff:a.b.c.d`: it is
                    // the IPv4 client, for every limit and for the proxies believed.
                    Ok((stream, peer)) => (stream, SocketAddr::new(peer.ip().to_canonical(), peer.port())),
                    Err(_) => {
                        // Out of descriptors (or a connection reset while queued): the next
                        // accept may succeed once something is closed.
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        continue;
                    }
                };
                let Ok((pending, in_http, open)) =
                    connections.admit(peer.ip(), key.of(peer.ip()), &limits, total, Instant::now())
                else {
                    drop(stream);
                    continue;
                };
                let _ = stream.set_nodelay(true);
                let stream = Counted { stream, _open: open };
                tokio::spawn(connection(
                    stream,
                    peer,
                    router.clone(),
                    (pending, in_http),
                    (limits.header_timeout, limits.requests_per_connection),
                    stopping.listen(),
                ));
            }
            () = stop.recv() => break,
        }
    }
    let deadline = Instant::now() + limits.write_timeout;
    while connections.in_http() > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Serves one connection: HTTP/1.1 with a header timeout (a connection that sends no
/// complete request head within it, on arrival or between requests, is closed), at most
/// `most_requests` requests (the last reply closes it), upgrades to game sockets, and a
/// graceful end when the server stops.
async fn connection(
    stream: Counted,
    peer: SocketAddr,
    router: Router,
    (pending, in_http): (Pending, Held),
    (header_timeout, most_requests): (Duration, usize),
    mut stop: Stop,
) {
    // Another node's connection carries many clients' requests: it is not closed after a
    // client's share.
    let most = pending.key.is_some().then_some(most_requests);
    // The address's slot of connections waiting for a request is given back at the first.
    let waiting = Mutex::new(Some(pending));
    let served = AtomicUsize::new(0);
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        drop(
            waiting
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take(),
        );
        request.extensions_mut().insert(ConnectInfo(peer));
        // The connection's last request: its reply closes it.
        let last = most.is_some_and(|most| served.fetch_add(1, Ordering::Relaxed) + 1 >= most);
        let reply = router.clone().oneshot(request.map(axum::body::Body::new));
        async move {
            let mut reply = reply.await?;
            if last {
                reply.headers_mut().insert(
                    axum::http::header::CONNECTION,
                    axum::http::HeaderValue::from_static("close"),
                );
            }
            Ok::<_, std::convert::Infallible>(reply)
        }
    });
    let conn = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .keep_alive(true)
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades();
    tokio::pin!(conn);
    tokio::select! {
        _ = conn.as_mut() => {}
        () = stop.recv() => {
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        }
    }
    drop(in_http);
}
