//! `salpakan-server`: the arbiter of Game of the Generals for two people, or a person and a
//! bot, playing over a network. It holds the real [`salpakan::Game`]; each seat receives only
//! what its side may know, a spectator only what anyone may. The wire contract and the
//! security model are in the repository's `docs/SERVER.md`.
//!
//! The layers, each importing only those above it in this list:
//! - [`secret`]: tokens, invite codes and ids from an [`Entropy`], stored as digests;
//! - [`clock`]: the server's game clock;
//! - [`rating`]: what a rating says (provisional, the army rank it earns);
//! - [`wire`]: the contract's JSON typed both ways (every message, refusal code, close
//!   code and HTTP body), built from views and public facts only;
//! - `client` (feature `client`): a small client of the contract, reading the wire's types
//!   (the load generator's and the tests');
//! - [`room`]: one game as an event-sourced state machine (no I/O): commands decided into
//!   events, one `apply`;
//! - [`store`]: SQLite, one writer thread with group commits;
//! - [`config`]: the settings and limits;
//! - [`hub`]: the games in memory, the per-address quotas, the commit-then-send path, timers
//!   and bots;
//! - [`socket`], [`lobby_socket`], [`http`]: the game socket, the player and lobby sockets,
//!   and the routes;
//! - [`start`]: all of it on a listener.
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

pub mod budget;
#[cfg(feature = "client")]
pub mod client;
pub mod clock;
pub mod config;
pub mod http;
pub mod hub;
pub mod listen;
pub mod lobby_socket;
pub mod rating;
pub mod room;
pub mod secret;
pub mod socket;
pub mod store;
pub mod wire;

use std::net::SocketAddr;
use std::sync::Arc;

pub use config::{Config, ConfigError, Limits};
pub use secret::{Entropy, OsEntropy, SeededEntropy};
pub use store::{Durability, StoreError};

use hub::Hub;
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
}

/// A server accepting connections.
pub struct Running {
    addr: SocketAddr,
    hub: Arc<Hub>,
    store: Store,
    connections: Arc<listen::Connections>,
    serving: tokio::task::JoinHandle<()>,
}

/// Opens the database, restores every unfinished game, binds `config.addr` and serves.
///
/// # Errors
/// [`StartError`]: the database's or the listener's error.
pub async fn start(config: Config, entropy: Arc<dyn Entropy>) -> Result<Running, StartError> {
    let opened = Store::open(&config.db, config.durability)?;
    for game in &opened.unreadable {
        eprintln!(
            "salpakan-server: game {} could not be read and is quarantined: {}",
            game.game, game.reason
        );
    }
    let (store, unfinished) = (opened.store, opened.unfinished);
    let listen = |source| StartError::Listen {
        addr: config.addr,
        source,
    };
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(listen)?;
    let addr = listener.local_addr().map_err(listen)?;
    let (limits, key) = (config.limits, config.address_key);
    let hub = Hub::new(config, store.clone(), entropy, unfinished, opened.players);
    let connections = Arc::new(listen::Connections::default());
    let serving = tokio::spawn(listen::serve(
        listener,
        http::router(Arc::clone(&hub)),
        limits,
        key,
        Arc::clone(&connections),
        hub.stopping(),
    ));
    Ok(Running {
        addr,
        hub,
        store,
        connections,
        serving,
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
        self.hub.games_in_memory()
    }

    /// Connections open now (sockets included).
    #[must_use]
    pub fn connections(&self) -> usize {
        self.connections.open()
    }

    /// Rooms replayed from the database since the start.
    #[must_use]
    pub fn replays(&self) -> u64 {
        self.hub.replays()
    }

    /// Stops accepting, closes every socket (1012), and returns once every accepted write is
    /// committed.
    pub async fn stop(self) {
        self.hub.shut_down();
        let _ = self.serving.await;
        self.store.flush().await;
    }
}

/// The `salpakan-server` command: reads `args` (without the program's name) and the
/// environment, then serves until SIGTERM or SIGINT. Exits 0 after a clean stop (and for
/// `--help`), 2 for bad arguments, 1 if the server cannot start.
#[must_use]
pub fn run_command(args: Vec<String>) -> std::process::ExitCode {
    use std::process::ExitCode;
    let config = match Config::from_args(args, |name| std::env::var(name).ok()) {
        Ok(Some(config)) => config,
        Ok(None) => {
            print!("{}", config::USAGE);
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("salpakan-server: {e}");
            return ExitCode::from(2);
        }
    };
    let result = tokio::runtime::Runtime::new()
        .map_err(StartError::Runtime)
        .and_then(|runtime| runtime.block_on(serve_until_signal(config)));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("salpakan-server: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Serves with `config` until SIGTERM or SIGINT, printing `listening on http://ADDR` once it
/// accepts connections; then stops as [`Running::stop`] does. The `salpakan-server` binary.
///
/// # Errors
/// [`StartError`]: the database's or the listener's error.
pub async fn serve_until_signal(config: Config) -> Result<(), StartError> {
    use std::io::Write as _;
    let server = start(config, Arc::new(OsEntropy)).await?;
    println!("listening on http://{}", server.addr());
    let _ = std::io::stdout().flush();
    wait_for_signal().await;
    server.stop().await;
    Ok(())
}

async fn wait_for_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    match (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) {
        (Ok(mut term), Ok(mut int)) => {
            tokio::select! {
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
        }
        _ => {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}
