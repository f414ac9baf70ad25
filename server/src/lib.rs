//! `salpakan-server`: the arbiter of Game of the Generals for two people, or a person and a
//! bot, playing over a network. It holds the real [`salpakan::Game`]; each seat receives only
//! what its side may know, a spectator only what anyone may. The wire contract and the
//! security model are in the repository's `docs/SERVER.md`.
//!
//! The layers, each importing only those above it in this list (`scripts/check-layers`
//! holds the sections of `mod` lines below to it; the repository's `docs/SERVER.md`,
//! "Inside", names every file):
//! - values: [`secret`] (tokens, invite codes and ids from an [`Entropy`], stored as
//!   digests), [`clock`] (the game clock), [`rating`] (what a rating says, a rated game's
//!   settlement, and Glicko-2), `telemetry` (the metrics and the log), [`tournament`] (Swiss,
//!   round-robin, series and arena pairings, scoring with defaults, standings and
//!   tie-breaks);
//! - [`wire`]: the contract's JSON typed both ways (every message, refusal code, close
//!   code and HTTP body, the chat's channels and phrases), built from views and public facts
//!   only; `client` (feature `client`): a small client of the contract, reading the wire's
//!   types (the load generator's and the tests'); `bridge` (feature `bridge`): an engine of
//!   the Salpakan engine protocol playing as a bot account (the `salpakan-bridge` binary);
//! - [`room`]: one game as an event-sourced state machine (no I/O): typed commands decided
//!   into events, one `apply`; [`chat`]: the chat's rules (no I/O): one game's channels,
//!   modes, mutes and rates, a clean line, the operator's list of words; `config`: the
//!   settings and limits, every flag declared once; `budget`: a message budget of the
//!   limits; [`store`]: SQLite (or, with the feature `nodes`, PostgreSQL shared by several
//!   nodes: leases, their fence, the owner of each game, the channels they share), one
//!   writer thread with group commits dispatching each write to its concern;
//! - [`export`]: the dataset of the finished games their players agreed to share, with each
//!   ply's beliefs and odds (`salpakan-server export`);
//! - `services`: each concern a service owning its state behind a small API with an error
//!   type of its own (games, chat, players, who is online, the lobby, challenges, ratings,
//!   the live list, replays, tournaments, games' ends, the operator's reads, quotas,
//!   readiness, and nodes); `refusals`: every service's error as the contract's code and
//!   HTTP status, in one place;
//! - [`socket`]: the one socket loop, a game socket's frame read once into a typed request,
//!   and a handler for each kind of socket;
//! - `http`: the routes, each resource declaring its own, and the forwarding to the node
//!   that owns a request (feature `nodes`); [`listen`], `operator`: the listener and its
//!   per-address limits, the operator's listener (`/metrics` and the admin routes);
//! - [`start`]: all of it on a listener; [`command`]: the `salpakan-server` command.
//!
//! The feature `nodes` (on by default) runs one server as a node of several sharing a
//! PostgreSQL database; without it (`--no-default-features`) the server is a single node
//! on SQLite, and neither PostgreSQL's client nor the node-to-node client is compiled.
//!
//! ```no_run
//! # async fn run() -> Result<(), salpakan_server::StartError> {
//! let config = salpakan_server::Config::default();
//! let server = salpakan_server::start(config, std::sync::Arc::new(salpakan_server::OsEntropy)).await?;
//! println!("listening on http://{}", server.addr());
//! server.stop().await;
//! # Ok(())
//! # }
//! ```
#![deny(missing_docs)]

// Values.
pub mod clock;
pub mod rating;
pub mod secret;
pub(crate) mod telemetry;
pub mod tournament;
// The contract, and its client.
#[cfg(feature = "bridge")]
pub mod bridge;
#[cfg(feature = "client")]
pub mod client;
pub mod wire;
// A game, the settings and the budgets they set, the database.
pub(crate) mod budget;
pub mod chat;
pub(crate) mod config;
pub mod room;
pub mod store;
// The dataset export, read from the store.
pub mod export;
// The services, and how their refusals are said.
pub(crate) mod refusals;
pub(crate) mod services;
// The sockets: one loop, a handler for each kind.
pub mod socket;
// The routes, and the listeners that serve them.
pub(crate) mod http;
pub mod listen;
pub(crate) mod operator;
// The command.
pub mod command;

use std::net::SocketAddr;
use std::sync::Arc;

pub use config::{AddressKey, Cidr, Config, ConfigError, Limits};
pub use telemetry::LogFormat;

pub use secret::{Entropy, OsEntropy, SeededEntropy};
pub use store::{Durability, StoreError};

use services::Services;
use store::Store;
use thiserror::Error;

/// Why the server could not start.
#[derive(Debug, Error)]
pub enum StartError {
    /// The database could not be opened or read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The address could not be listened on.
    #[error("{addr}: {source}")]
    Listen {
        /// The address.
        addr: SocketAddr,
        /// The system's error.
        source: std::io::Error,
    },
    /// The async runtime could not be started.
    #[error("the runtime: {0}")]
    Runtime(std::io::Error),
    /// The chat's list of words (`--chat-blocklist`) could not be read.
    #[error("--chat-blocklist {path}: {source}")]
    Blocklist {
        /// The file.
        path: std::path::PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The operator's address (`--metrics-addr`) could not be listened on.
    #[error("--metrics-addr {addr}: {source}")]
    Metrics {
        /// The address.
        addr: SocketAddr,
        /// The system's error.
        source: std::io::Error,
    },
}

/// A server accepting connections.
pub struct Running {
    addr: SocketAddr,
    services: Arc<Services>,
    store: Store,
    connections: Arc<listen::Connections>,
    serving: tokio::task::JoinHandle<()>,
    operator: Option<(SocketAddr, tokio::task::JoinHandle<()>)>,
}

/// Opens the database, restores every unfinished game, binds `config.addr` and serves.
///
/// # Errors
/// [`StartError`]: the database's or the listener's error.
pub async fn start(config: Config, entropy: Arc<dyn Entropy>) -> Result<Running, StartError> {
    tracing::info!(
        version = telemetry::VERSION,
        commit = telemetry::COMMIT,
        "starting"
    );
    let blocklist = match &config.chat_blocklist {
        None => chat::Blocklist::default(),
        Some(path) => chat::Blocklist::with(&std::fs::read_to_string(path).map_err(|source| {
            StartError::Blocklist {
                path: path.clone(),
                source,
            }
        })?),
    };
    let listen = |source| StartError::Listen {
        addr: config.addr,
        source,
    };
    // Bound first: the other nodes are told where this one is.
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(listen)?;
    let addr = listener.local_addr().map_err(listen)?;
    let node = store::Node {
        name: config.node.clone(),
        url: config.public_url_for(addr),
        lease: config.lease,
    };
    // Off the async threads: a restore reads every unfinished game, and PostgreSQL's client
    // blocks on a runtime of its own.
    let opened = {
        let (db, durability, wait) = (config.db.clone(), config.durability, config.lock_wait);
        tokio::task::spawn_blocking(move || Store::open_waiting(&db, durability, &node, wait))
            .await
            .map_err(|e| StartError::Runtime(std::io::Error::other(e)))??
    };
    for game in &opened.unreadable {
        tracing::warn!(game = %game.game, reason = %game.reason, "game quarantined: it could not be read");
    }
    let store = opened.store.clone();
    let (restored, players) = (opened.unfinished.len(), opened.players.len());
    let operator_listener = match config.metrics_addr {
        Some(at) => {
            let metrics = |source| StartError::Metrics { addr: at, source };
            let listener = tokio::net::TcpListener::bind(at).await.map_err(metrics)?;
            Some(listener)
        }
        None => None,
    };
    let (limits, key) = (config.limits, config.address_key);
    let services = Services::start(config, entropy, opened, blocklist);
    let connections = Arc::new(listen::Connections::default());
    #[cfg(feature = "nodes")]
    if let Some(cluster) = services.cluster.clone() {
        // The other nodes' forwarded connections are not held to one client's limits.
        let connections = Arc::clone(&connections);
        let mut stop = services.stopping.listen();
        tokio::spawn(async move {
            loop {
                connections.set_peers(cluster.peer_addresses().await);
                if !stop.sleep(std::time::Duration::from_secs(2)).await {
                    return;
                }
            }
        });
    }
    let serving = tokio::spawn(listen::serve(
        listener,
        http::router(Arc::clone(&services)),
        limits,
        key,
        Arc::clone(&connections),
        services.stopping.clone(),
    ));
    let operator = match operator_listener {
        Some(listener) => {
            let at = listener
                .local_addr()
                .map_err(|source| StartError::Metrics { addr, source })?;
            let router = operator::router(Arc::clone(&services), telemetry::install());
            telemetry::zero_closes(wire::CloseCode::ALL.map(wire::CloseCode::number));
            // The same listener as the players', with bounds of its own: a header timeout,
            // a few connections.
            let task = tokio::spawn(listen::serve(
                listener,
                router,
                operator::limits(&limits),
                key,
                Arc::new(listen::Connections::default()),
                services.stopping.clone(),
            ));
            Some((at, task))
        }
        None => None,
    };
    services.readiness.set_ready();
    tracing::info!(
        %addr,
        metrics = %operator.as_ref().map_or("off".to_owned(), |(at, _)| at.to_string()),
        games_restored = restored,
        players,
        max_connections = listen::total_connections(&limits),
        "listening"
    );
    Ok(Running {
        addr,
        services,
        store,
        connections,
        serving,
        operator,
    })
}

impl Running {
    /// The address it listens on.
    #[must_use]
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Games in memory.
    #[must_use]
    pub fn games_in_memory(&self) -> usize {
        self.services.games.tables().count()
    }

    /// Connections open now (sockets included).
    #[must_use]
    pub fn connections(&self) -> usize {
        self.connections.open()
    }

    /// Where `/metrics` and the admin routes are served, if anywhere.
    #[must_use]
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.operator.as_ref().map(|(addr, _)| *addr)
    }

    /// Rooms replayed from the database since the start.
    #[must_use]
    pub fn replays(&self) -> u64 {
        self.services.games.tables().restored()
    }

    /// Replays of finished games computed since the start (`GET /api/games/{id}/replay`: each
    /// game's once, however many ask at once).
    #[must_use]
    pub fn replays_computed(&self) -> u64 {
        self.services.replays.computed()
    }

    /// Stops accepting, closes every socket (1012), and returns once every accepted write is
    /// committed.
    pub async fn stop(self) {
        tracing::info!(games = self.services.games.tables().count(), "stopping");
        self.services.stop();
        let _ = self.serving.await;
        if let Some((_, task)) = self.operator {
            let _ = task.await;
        }
        // One node of several hands its games over: its lease ends after its last write,
        // and the others take them at once.
        if self.store.shared()
            && let Err(e) = self.store.expire().await
        {
            tracing::warn!(error = %e, "the lease could not be ended: the others take over when it lapses");
        }
        self.store.close().await;
        tracing::info!("stopped: every accepted write is committed");
    }
}
