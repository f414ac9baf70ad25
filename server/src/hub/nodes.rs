//! One node of several sharing a PostgreSQL database: where a game is played, the lease
//! kept, the games of a node that lapsed taken over, and the players' rows the others
//! changed read again.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc::UnboundedReceiver;

use super::{Hub, HubError, Live, Out, lock};
use crate::store::{LOBBY, Notice, Owner, StoreError};
use crate::wire::CloseCode;

/// How often a node looks for lapsed nodes whose games no one has taken.
const SWEEP: Duration = Duration::from_secs(1);

/// Where a request for a game (or the lobby) is served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// Here: the game is in memory, or loaded now.
    Here,
    /// At another node, reached at this URL.
    At(String),
}

/// The reason a socket is closed when its game moves to another node.
const MOVED: &str = "the game moves to another server; connect again";

impl Hub {
    /// This node's name.
    fn node(&self) -> &str {
        &self.config.node
    }

    /// The key the other nodes' forwarded requests carry (`None` on SQLite).
    #[must_use]
    pub fn node_key(&self) -> Option<&str> {
        self.cluster_key.as_deref()
    }

    /// Where `key` (a game's id, or [`LOBBY`]) is served: here if this node owns it (taking
    /// it over first from an owner whose lease lapsed), else at its owner's URL.
    ///
    /// # Errors
    /// The database's error; [`HubError::Elsewhere`] never.
    pub async fn place(self: &Arc<Hub>, key: &str) -> Result<Place, HubError> {
        if !self.store.shared()
            || (key != LOBBY && (!super::plausible_id(key) || lock(&self.rooms).contains_key(key)))
        {
            return Ok(Place::Here);
        }
        let owner = self.store.owner(key).await?;
        match owner {
            None => Ok(Place::Here),
            Some(owner) if owner.node == self.node() => Ok(Place::Here),
            Some(Owner {
                url, alive: true, ..
            }) => Ok(Place::At(url)),
            Some(dead) => {
                self.take_over_from(&dead.node).await;
                // A finished game of the lapsed node is not among its unfinished ones.
                self.store.take_over(&dead.node, Some(key)).await?;
                match self.store.owner(key).await? {
                    Some(owner) if owner.node == self.node() => Ok(Place::Here),
                    Some(Owner {
                        url, alive: true, ..
                    }) => Ok(Place::At(url)),
                    _ => Err(HubError::Store(StoreError::Failed(
                        "the game's owner lapsed and it could not be taken over".into(),
                    ))),
                }
            }
        }
    }

    /// Takes over the unfinished games (and the lobby) of `dead`, if its lease lapsed and no
    /// other node took them first, and puts them in memory: their clocks and bots run here.
    pub(super) async fn take_over_from(self: &Arc<Hub>, dead: &str) {
        let moved = match self.store.take_over(dead, None).await {
            Ok(moved) => moved,
            Err(e) => {
                tracing::warn!(node = %dead, error = %e, "games of a lapsed node not taken over");
                return;
            }
        };
        if moved.is_empty() {
            return;
        }
        let started = std::time::Instant::now();
        let mut restored = 0_usize;
        for id in moved.iter().filter(|id| *id != LOBBY) {
            match self.load_here(id).await {
                Ok(Some(_)) => restored += 1,
                Ok(None) => {}
                Err(e) => tracing::warn!(game = %id, error = %e, "game taken over not loaded"),
            }
        }
        crate::telemetry::taken_over(restored);
        tracing::info!(
            from = %dead,
            games = restored,
            lobby = moved.iter().any(|id| id == LOBBY),
            ms = started.elapsed().as_millis() as u64,
            "took over the games of a node whose lease lapsed"
        );
    }

    /// The addresses of the other nodes alive now (their URLs' hosts, looked up).
    pub async fn peer_addresses(&self) -> Vec<std::net::IpAddr> {
        let Ok(urls) = self.store.other_nodes(self.node()).await else {
            return Vec::new();
        };
        let mut ips = Vec::new();
        for url in urls {
            let rest = url.split_once("://").map_or(url.as_str(), |(_, rest)| rest);
            let authority = rest.split('/').next().unwrap_or(rest);
            let host = if authority.rsplit_once(':').is_some_and(|(_, port)| {
                !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit())
            }) {
                authority.to_owned()
            } else {
                format!("{authority}:80")
            };
            if let Ok(found) = tokio::net::lookup_host(host).await {
                ips.extend(found.map(|addr| addr.ip()));
            }
        }
        ips.sort_unstable();
        ips.dedup();
        ips
    }

    /// Keeps this node's lease, a third of its length apart, until the server stops. A lease
    /// found lapsed gives up every game in memory (their sockets close with 1012: their
    /// seats connect again, to whichever node owns them now) and registers again.
    pub(super) async fn run_lease(self: Arc<Hub>) {
        let every = self.config.lease / 3;
        let mut stopping = self.stopping();
        loop {
            tokio::select! {
                () = tokio::time::sleep(every) => {}
                _ = stopping.changed() => return,
            }
            match self.store.renew().await {
                Ok(true) => {}
                Ok(false) => {
                    tracing::warn!("this node's lease lapsed: its games are given up");
                    self.give_up_all();
                    match self.store.register().await {
                        // What no other node took is this node's again: its clocks and bots
                        // run here.
                        Ok(()) => self.load_owned().await,
                        Err(e) => tracing::warn!(error = %e, "this node could not register again"),
                    }
                }
                Err(StoreError::Stopped) => return,
                Err(e) => tracing::warn!(error = %e, "this node's lease not renewed"),
            }
        }
    }

    /// Loads every unfinished game this node owns that is not in memory.
    async fn load_owned(self: &Arc<Hub>) {
        match self.store.owned(self.node()).await {
            Ok(ids) => {
                for id in ids {
                    if let Err(e) = self.load_here(&id).await {
                        tracing::warn!(game = %id, error = %e, "own game not loaded");
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "own games not read"),
        }
    }

    /// Drops every game in memory: its sockets are told to connect again (1012).
    fn give_up_all(&self) {
        let rooms: Vec<Arc<Live>> = lock(&self.rooms).drain().map(|(_, live)| live).collect();
        for live in rooms {
            // A room busy now finds its commit refused, and closes its sockets then.
            if let Ok(mut state) = live.state.try_lock() {
                state.broken = true;
                self.recount(&live, &mut state);
                for s in &state.subscribers {
                    let _ = s.tx.try_send(Out::Close(CloseCode::Restart, MOVED));
                }
                state.subscribers.clear();
            }
            live.timer.notify_one();
            live.bot.notify_one();
        }
        self.lobby_given_up();
    }

    /// Takes over from lapsed nodes every [`SWEEP`], or at once when a node says it stopped;
    /// reads again a player's row another node changed.
    pub(super) async fn run_sweeper(self: Arc<Hub>, mut notices: UnboundedReceiver<Notice>) {
        let mut stopping = self.stopping();
        let mut arrivals_forgotten = std::time::Instant::now();
        loop {
            // The arrivals counted against the hourly limits are kept an hour and a minute.
            if arrivals_forgotten.elapsed() >= Duration::from_secs(60) {
                arrivals_forgotten = std::time::Instant::now();
                let before_ms = crate::clock::unix_ms().saturating_sub(3_660_000);
                let forget = crate::store::Write::ForgetArrivals { before_ms };
                if let Err(e) = self.store.write(vec![forget]).await {
                    tracing::debug!(error = %e, "old arrivals not forgotten");
                }
            }
            let notice = tokio::select! {
                () = tokio::time::sleep(SWEEP) => None,
                notice = notices.recv() => notice,
                _ = stopping.changed() => return,
            };
            match notice {
                Some(Notice::Player(name)) => {
                    if let Ok(Some(row)) = self.store.player(&name).await {
                        lock(&self.players).upsert(row);
                    }
                    continue;
                }
                Some(Notice::Resync) => {
                    // Merged, not replaced: a player registered here meanwhile stays.
                    if let Ok(rows) = self.store.players().await {
                        let mut players = lock(&self.players);
                        for row in rows {
                            players.upsert(row);
                        }
                    }
                    continue;
                }
                Some(Notice::NodeStopped(_)) | None => {}
            }
            match self.store.lapsed().await {
                Ok(lapsed) => {
                    for dead in lapsed.iter().filter(|dead| *dead != self.node()) {
                        self.take_over_from(dead).await;
                    }
                }
                Err(e) => tracing::debug!(error = %e, "lapsed nodes not read"),
            }
        }
    }
}
