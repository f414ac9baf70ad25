//! One node of several sharing a PostgreSQL database (feature `nodes`): this node's lease
//! kept, the games of nodes that lapsed taken over, the players' rows the others changed read
//! again, and the other nodes' addresses. Where each game is played is the games service's
//! ([`super::games::Place`]).

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc::UnboundedReceiver;
use tokio::sync::watch;

use super::ends::{Ended, Ends};
use super::games::Games;
use super::lobby::Lobby;
use super::players::Players;
use super::stopping::Stopping;
use crate::config::Config;
use crate::store::NodeWrite;
use crate::store::{Notice, Store, StoreError};

/// How often a node looks for lapsed nodes whose games no one has taken.
const SWEEP: Duration = Duration::from_secs(1);

/// What a node is made of: the services below it it uses, and the key the other nodes'
/// forwarded requests carry.
pub(crate) struct Parts {
    /// The settings.
    pub config: Arc<Config>,
    /// The shared database.
    pub store: Store,
    /// The games (taken over, given up).
    pub games: Arc<Games>,
    /// The lobby (given up with the lease).
    pub lobby: Arc<Lobby>,
    /// The players (a row another node changed is read again).
    pub players: Arc<Players>,
    /// Where the ends other nodes tell are published here.
    pub ends: Arc<Ends>,
    /// The stop signal.
    pub stopping: Stopping,
    /// The key the other nodes' forwarded requests carry.
    pub key: String,
}

/// This node among the others.
pub(crate) struct Cluster {
    config: Arc<Config>,
    store: Store,
    games: Arc<Games>,
    lobby: Arc<Lobby>,
    players: Arc<Players>,
    ends: Arc<Ends>,
    stopping: Stopping,
    /// The key the other nodes' forwarded requests carry.
    key: String,
    /// For each other node this one forwards sockets to (by URL), what tells them its lease
    /// lapsed: they close (1012), and their clients connect again, to the new owner.
    lapses: std::sync::Mutex<std::collections::HashMap<String, watch::Sender<bool>>>,
}

impl Cluster {
    /// This node of a shared database: its lease kept and its sweeper run (hearing
    /// `notices`) until the server stops.
    ///
    /// Call inside a tokio runtime.
    #[must_use]
    pub(crate) fn start(parts: Parts, notices: UnboundedReceiver<Notice>) -> Arc<Cluster> {
        let cluster = Arc::new(Cluster {
            config: parts.config,
            store: parts.store,
            games: parts.games,
            lobby: parts.lobby,
            players: parts.players,
            ends: parts.ends,
            stopping: parts.stopping,
            key: parts.key,
            lapses: std::sync::Mutex::default(),
        });
        tokio::spawn(Arc::clone(&cluster).run_lease());
        tokio::spawn(Arc::clone(&cluster).run_sweeper(notices));
        cluster
    }

    /// This node's name.
    fn node(&self) -> &str {
        &self.config.node
    }

    /// Publishes here a game's end another node told (`{"node", "game", "end"}`); this
    /// node's own ends were published when it committed them.
    fn told_ended(&self, told: &str) {
        #[derive(serde::Deserialize)]
        struct Told {
            node: String,
            #[serde(flatten)]
            ended: Ended,
        }
        match serde_json::from_str::<Told>(told) {
            Ok(told) if told.node != self.node() => self.ends.publish(told.ended),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "a game's end not understood"),
        }
    }

    /// The key the other nodes' forwarded requests carry.
    #[must_use]
    pub(crate) fn key(&self) -> &str {
        &self.key
    }

    /// What tells a socket forwarded to the node at `url` that the node's lease lapsed (a
    /// paused node stalls nobody: its forwarded sockets close at once).
    pub(crate) fn lapse_of(&self, url: &str) -> watch::Receiver<bool> {
        let mut lapses = self
            .lapses
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        lapses
            .entry(url.to_owned())
            .or_insert_with(|| watch::channel(false).0)
            .subscribe()
    }

    /// Tells every socket forwarded to one of the nodes at `urls` that its lease lapsed.
    fn lapsed(&self, urls: &[String]) {
        let mut lapses = self
            .lapses
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        lapses.retain(|_, tx| tx.receiver_count() > 0);
        for url in urls {
            if let Some(tx) = lapses.remove(url) {
                tracing::warn!(node = %url, "a node's lease lapsed: its forwarded sockets close");
                let _ = tx.send(true);
            }
        }
    }

    /// The addresses of the other nodes alive now (their URLs' hosts, looked up).
    pub(crate) async fn peer_addresses(&self) -> Vec<std::net::IpAddr> {
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
    async fn run_lease(self: Arc<Cluster>) {
        let every = self.config.lease / 3;
        let mut stop = self.stopping.listen();
        while stop.sleep(every).await {
            match self.store.renew().await {
                Ok(true) => {}
                Ok(false) => {
                    tracing::warn!("this node's lease lapsed: its games are given up");
                    self.games.give_up_all();
                    self.lobby.given_up();
                    match self.store.register().await {
                        // What no other node took is this node's again: its clocks and bots
                        // run here.
                        Ok(()) => self.games.load_owned().await,
                        Err(e) => tracing::warn!(error = %e, "this node could not register again"),
                    }
                }
                Err(StoreError::Stopped) => return,
                Err(e) => tracing::warn!(error = %e, "this node's lease not renewed"),
            }
        }
    }

    /// Takes over from lapsed nodes every [`SWEEP`], or at once when a node says it stopped;
    /// reads again a player's row another node changed.
    async fn run_sweeper(self: Arc<Cluster>, mut notices: UnboundedReceiver<Notice>) {
        let mut stop = self.stopping.listen();
        let mut arrivals_forgotten = std::time::Instant::now();
        loop {
            // The arrivals counted against the hourly limits are kept an hour and a minute.
            if arrivals_forgotten.elapsed() >= Duration::from_secs(60) {
                arrivals_forgotten = std::time::Instant::now();
                let before_ms = crate::clock::unix_ms().saturating_sub(3_660_000);
                let forget = crate::store::Write::Node(NodeWrite::ForgetArrivals { before_ms });
                if let Err(e) = self.store.write(vec![forget]).await {
                    tracing::debug!(error = %e, "old arrivals not forgotten");
                }
            }
            let next = stop.or(tokio::time::timeout(SWEEP, notices.recv()));
            let Some(notice) = next.await else {
                return;
            };
            let notice = notice.ok().flatten();
            match notice {
                Some(Notice::Player(name)) => {
                    let read_from = std::time::Instant::now();
                    if let Ok(Some(row)) = self.store.player(&name).await {
                        self.players.upsert(row, read_from);
                    }
                    continue;
                }
                Some(Notice::Ended(told)) => {
                    self.told_ended(&told);
                    continue;
                }
                Some(Notice::Resync) => {
                    // What was said while the channel was down is lost: the ends' subscribers
                    // look at the database.
                    self.ends.missed();
                    // Merged, not replaced: a player registered here meanwhile stays.
                    let read_from = std::time::Instant::now();
                    if let Ok(rows) = self.store.players().await {
                        for row in rows {
                            self.players.upsert(row, read_from);
                        }
                    }
                    continue;
                }
                Some(Notice::NodeStopped(_)) | None => {}
            }
            if let Ok(urls) = self.store.lapsed_nodes(self.node()).await {
                self.lapsed(&urls);
            }
            match self.store.lapsed().await {
                Ok(lapsed) => {
                    for dead in lapsed.iter().filter(|dead| *dead != self.node()) {
                        self.games.take_over_from(dead).await;
                    }
                }
                Err(e) => tracing::debug!(error = %e, "lapsed nodes not read"),
            }
        }
    }
}
