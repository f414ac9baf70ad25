//! A node's side of the lease, as the hub uses it: renewed, ended, taken over, and who owns
//! a game ([`super::lease`] holds the statements; the writer runs the lease's jobs, the readers
//! the reads); and what the nodes share besides (each node's games in play for the live
//! list, the arrivals counted against the hourly limits), written only on a shared database.

use std::net::IpAddr;

use super::lease::{Fence, Owner};
use super::readers::ReadJob;
use super::sql::Sql;
use super::values::{PlayerRow, StoreError};
use super::{LeaseJob, Store, WriteJob};

/// A write of what the nodes share (PostgreSQL; on SQLite one server keeps it in memory,
/// and these write nothing).
#[derive(Debug, Clone)]
pub enum NodeWrite {
    /// This node's games in play for the live list, replacing its last (each the game's id
    /// and its entry's JSON).
    LiveGames {
        /// This node.
        node: String,
        /// The entries.
        entries: Vec<(String, String)>,
    },
    /// A creation counted against an address's hourly limit at every node.
    Arrival {
        /// What arrived: `game` or `player`.
        kind: &'static str,
        /// The address (as the per-address limits group it).
        ip: IpAddr,
        /// When, in milliseconds since the Unix epoch.
        at_ms: u64,
    },
    /// The arrivals before `before_ms` are forgotten.
    ForgetArrivals {
        /// The cut, in milliseconds since the Unix epoch.
        before_ms: u64,
    },
}

/// Applies `write` if the database is shared (a `fence`).
pub(super) fn apply(
    conn: &mut impl Sql,
    write: &NodeWrite,
    fence: Option<&Fence>,
) -> Result<(), StoreError> {
    if fence.is_none() {
        return Ok(());
    }
    match write {
        NodeWrite::LiveGames { node, entries } => super::live::publish(conn, node, entries),
        NodeWrite::Arrival { kind, ip, at_ms } => conn
            .execute(
                "INSERT INTO arrivals (kind, ip, at_ms) VALUES (?1, ?2, ?3)",
                &[(*kind).into(), ip.to_string().into(), (*at_ms).into()],
            )
            .map(drop),
        NodeWrite::ForgetArrivals { before_ms } => conn
            .execute(
                "DELETE FROM arrivals WHERE at_ms < ?1",
                &[(*before_ms).into()],
            )
            .map(drop),
    }
}

impl Store {
    /// Sends a lease's job to the writer; its answer.
    async fn lease<T>(
        &self,
        job: impl FnOnce(tokio::sync::oneshot::Sender<Result<T, StoreError>>) -> LeaseJob,
    ) -> Result<T, StoreError> {
        let (done, wait) = tokio::sync::oneshot::channel();
        self.writes
            .send(WriteJob::Lease(job(done)))
            .map_err(|_| StoreError::Stopped)?;
        wait.await.map_err(|_| StoreError::Stopped)?
    }

    /// Whether this store is one node of several (PostgreSQL): games have owners.
    #[must_use]
    pub fn shared(&self) -> bool {
        self.shared
    }

    /// Extends this node's lease: `Ok(false)` if it lapsed (the node owns nothing now).
    ///
    /// # Errors
    /// The database's error.
    pub async fn renew(&self) -> Result<bool, StoreError> {
        self.lease(LeaseJob::Renew).await
    }

    /// Registers this node again after its lease lapsed: a new epoch, owning what is still
    /// its own.
    ///
    /// # Errors
    /// The database's error.
    pub async fn register(&self) -> Result<(), StoreError> {
        let key = crate::secret::random_hex(&crate::secret::OsEntropy, 32);
        self.lease(|done| LeaseJob::Register(key, done))
            .await
            .map(|_| ())
    }

    /// Ends this node's lease after every write before it (a node that stops hands its games
    /// over), and tells the others.
    ///
    /// # Errors
    /// The database's error.
    pub async fn expire(&self) -> Result<(), StoreError> {
        self.lease(LeaseJob::Expire).await
    }

    /// Takes over from `dead`, if its lease lapsed: its unfinished games and the lobby, or
    /// only `game`. The games now this node's.
    ///
    /// # Errors
    /// The database's error ([`StoreError::Fenced`] if this node's own lease lapsed).
    pub async fn take_over(
        &self,
        dead: &str,
        game: Option<&str>,
    ) -> Result<Vec<String>, StoreError> {
        let (dead, game) = (dead.to_owned(), game.map(str::to_owned));
        self.lease(|done| LeaseJob::TakeOver { dead, game, done })
            .await
    }

    /// Who owns `game` (`None` on SQLite, or for a game with no owner's row).
    ///
    /// # Errors
    /// The database's error.
    pub async fn owner(&self, game: &str) -> Result<Option<Owner>, StoreError> {
        if !self.shared {
            return Ok(None);
        }
        self.read(|done| ReadJob::Owner(game.to_owned(), done))
            .await
    }

    /// The nodes whose leases lapsed with unfinished games or the lobby on them.
    ///
    /// # Errors
    /// The database's error.
    pub async fn lapsed(&self) -> Result<Vec<String>, StoreError> {
        if !self.shared {
            return Ok(Vec::new());
        }
        self.read(ReadJob::Lapsed).await
    }

    /// The URLs of the other nodes alive now (none on SQLite).
    ///
    /// # Errors
    /// The database's error.
    #[cfg(feature = "nodes")]
    pub(crate) async fn other_nodes(&self, me: &str) -> Result<Vec<String>, StoreError> {
        if !self.shared {
            return Ok(Vec::new());
        }
        self.read(|done| ReadJob::Others(me.to_owned(), true, done))
            .await
    }

    /// The URLs of the other nodes whose leases lapsed (none on SQLite), with games or not.
    ///
    /// # Errors
    /// The database's error.
    #[cfg(feature = "nodes")]
    pub(crate) async fn lapsed_nodes(&self, me: &str) -> Result<Vec<String>, StoreError> {
        if !self.shared {
            return Ok(Vec::new());
        }
        self.read(|done| ReadJob::Others(me.to_owned(), false, done))
            .await
    }

    /// The unfinished games created from `ip` at every node (`None` on SQLite: one server
    /// counts its own in memory).
    ///
    /// # Errors
    /// The database's error.
    pub(crate) async fn unfinished_by(
        &self,
        ip: std::net::IpAddr,
    ) -> Result<Option<u64>, StoreError> {
        if !self.shared {
            return Ok(None);
        }
        self.read(|done| ReadJob::UnfinishedBy(ip.to_string(), done))
            .await
            .map(Some)
    }

    /// The arrivals of `kind` (`game`, `player`) from `ip` in the last hour, at every node
    /// (`None` on SQLite: one server counts its own in memory).
    ///
    /// # Errors
    /// The database's error.
    pub(crate) async fn arrivals_last_hour(
        &self,
        kind: &'static str,
        ip: std::net::IpAddr,
    ) -> Result<Option<u64>, StoreError> {
        if !self.shared {
            return Ok(None);
        }
        let since_ms = crate::clock::unix_ms().saturating_sub(3_600_000);
        self.read(|done| ReadJob::Arrivals {
            kind,
            ip: ip.to_string(),
            since_ms,
            done,
        })
        .await
        .map(Some)
    }

    /// The unfinished games `node` owns.
    ///
    /// # Errors
    /// The database's error.
    pub async fn owned(&self, node: &str) -> Result<Vec<String>, StoreError> {
        self.read(|done| ReadJob::Owned(node.to_owned(), done))
            .await
    }

    /// The player `name` as its row holds it now.
    ///
    /// # Errors
    /// The database's error.
    pub async fn player(&self, name: &str) -> Result<Option<PlayerRow>, StoreError> {
        self.read(|done| ReadJob::Player(name.to_owned(), done))
            .await
    }

    /// Every player as the rows hold them now.
    ///
    /// # Errors
    /// The database's error.
    pub async fn players(&self) -> Result<Vec<PlayerRow>, StoreError> {
        self.read(ReadJob::Players).await
    }
}
