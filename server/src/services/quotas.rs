//! What each client address may hold at once, open spectators' sockets and unfinished games
//! it created, how many games it may create in an hour and players it may register, its open
//! seeks, and the message budget its spectators' sockets share. A slot is taken before the
//! work it stands for and given back when that ends (a socket's slot when it is dropped, a
//! game's when the game ends or is deleted).
//!
//! One call counts a limit wherever it is counted: in memory (this node's own, taken at once
//! under one lock) and, for one node of several, also in the database, so that the
//! address's games and players at every node count.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use thiserror::Error;
use tokio::time::{Duration, Instant};

use crate::budget::{Budget, Rate};
use crate::config::Limits;
use crate::store::{Store, StoreError};

/// Why an address may not take more.
#[derive(Debug, Error)]
pub(crate) enum QuotaError {
    /// Past the unfinished games per client address.
    #[error("at most {0} unfinished games per client")]
    TooManyGames(usize),
    /// Past the games a client address may create in an hour.
    #[error("at most {0} new games an hour per client")]
    TooManyCreated(usize),
    /// Past the open spectators' sockets per client address.
    #[error("at most {0} sockets per client")]
    TooManyConnections(usize),
    /// Past the open seeks of an address.
    #[error("at most {0} open seeks")]
    TooManySeeks(usize),
    /// Past the players an address may register in an hour.
    #[error("at most {0} new players an hour per client")]
    TooManyPlayers(usize),
    /// Past a rate of the address's (its requests, its pool joins a minute; its reports an
    /// hour).
    #[error("at most {0} {1} per client")]
    RateLimited(usize, &'static str),
    /// The database's count could not be read.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The period of the rates counted per minute.
const MINUTE: Duration = Duration::from_secs(60);

/// The chat reports the sockets of one client address may make in an hour (several players
/// may share an address: three times one reporter's).
pub(crate) const REPORTS_PER_IP_HOUR: usize = 30;

/// Tries to redeem a link code one client address may make in a minute (a code is 65 bits:
/// at this pace, guessing one takes far longer than the ten minutes it lives).
pub(crate) const LINKS_PER_IP_MINUTE: usize = 10;

#[derive(Default)]
struct PerAddress {
    sockets: usize,
    games: usize,
    /// The games it created in the last hour.
    created: Option<Budget>,
    /// The players it registered in the last hour.
    registered: Option<Budget>,
    /// Its open seeks.
    seeks: usize,
    /// The message budget its spectators' sockets share (a fresh socket does not refill
    /// it), kept while anything is counted in it.
    spectating: Option<Arc<Mutex<Budget>>>,
    /// Its HTTP requests.
    requests: Option<Rate>,
    /// Its players' pool joins.
    joins: Option<Rate>,
    /// The chat lines its sockets reported.
    reports: Option<Rate>,
    /// Its tries to redeem a device's link code.
    links: Option<Rate>,
}

impl PerAddress {
    /// Whether it holds nothing and remembers nothing.
    fn is_empty(&self, now: Instant) -> bool {
        self.sockets == 0
            && self.games == 0
            && self.seeks == 0
            && self.created.as_ref().is_none_or(|b| b.is_empty(now))
            && self.registered.as_ref().is_none_or(|b| b.is_empty(now))
            && self.spectating.as_ref().is_none_or(|b| {
                b.lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .is_empty(now)
            })
            && self.requests.as_ref().is_none_or(|r| r.is_full(now))
            && self.joins.as_ref().is_none_or(|r| r.is_full(now))
            && self.links.as_ref().is_none_or(|r| r.is_full(now))
            && self.reports.as_ref().is_none_or(|r| r.is_full(now))
    }
}

/// Every address's open sockets and unfinished games.
pub(crate) struct Quotas {
    limits: Limits,
    /// The database, for the counts at every node (one node of several).
    store: Option<Store>,
    by_address: Mutex<HashMap<IpAddr, PerAddress>>,
    /// Rates counted since the addresses that hold nothing were last forgotten.
    since_sweep: std::sync::atomic::AtomicUsize,
}

/// How many rates are counted between two sweeps of the addresses holding nothing (an
/// address that only made requests is forgotten by the next sweep once its rates are full).
const SWEEP_EVERY: usize = 4096;

/// Holds one of an address's open sockets until dropped.
pub(crate) struct SocketSlot {
    quotas: Arc<Quotas>,
    ip: IpAddr,
    budget: Arc<Mutex<Budget>>,
}

impl SocketSlot {
    /// The message budget the address's spectators' sockets share.
    #[must_use]
    pub(crate) fn budget(&self) -> Arc<Mutex<Budget>> {
        Arc::clone(&self.budget)
    }
}

impl Drop for SocketSlot {
    fn drop(&mut self) {
        self.quotas.update(self.ip, |count| {
            count.sockets = count.sockets.saturating_sub(1);
        });
    }
}

impl Quotas {
    /// No address holding anything, under `limits`; with `shared`, the database of several
    /// nodes, the hourly counts and the unfinished games are also counted in it.
    #[must_use]
    pub(crate) fn new(limits: Limits, shared: Option<Store>) -> Quotas {
        Quotas {
            limits,
            store: shared,
            by_address: Mutex::new(HashMap::new()),
            since_sweep: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<IpAddr, PerAddress>> {
        self.by_address
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Changes `ip`'s counts, forgetting the address once it holds nothing.
    fn update(&self, ip: IpAddr, change: impl FnOnce(&mut PerAddress)) {
        let mut all = self.lock();
        let count = all.entry(ip).or_default();
        change(count);
        if count.is_empty(Instant::now()) {
            all.remove(&ip);
        }
    }

    /// One more unfinished game for `ip`: at most `games_per_ip` at once, and at most
    /// `games_per_hour` created in an hour (finished or not), here and (one node of
    /// several) at every node.
    ///
    /// # Errors
    /// [`QuotaError::TooManyGames`] or [`QuotaError::TooManyCreated`] past a limit; the
    /// database's error (nothing is taken then).
    pub(crate) async fn take_game(&self, ip: IpAddr) -> Result<(), QuotaError> {
        let (unfinished, per_hour) = (self.limits.games_per_ip, self.limits.games_per_hour);
        {
            let mut all = self.lock();
            let count = all.entry(ip).or_default();
            if count.games >= unfinished {
                return Err(QuotaError::TooManyGames(unfinished));
            }
            let created = count
                .created
                .get_or_insert_with(|| Budget::per(per_hour, Duration::from_secs(3600)));
            if !created.take(Instant::now(), 1) {
                return Err(QuotaError::TooManyCreated(per_hour));
            }
            count.games += 1;
        }
        if let Err(e) = self.shared_games(ip).await {
            self.release_game(Some(ip));
            return Err(e);
        }
        Ok(())
    }

    /// One more game created an hour for each of `ips` (a rematch: no unfinished slot), all
    /// or none.
    ///
    /// # Errors
    /// [`QuotaError::TooManyCreated`] if one of them is past its games an hour (nothing is
    /// counted then).
    pub(crate) fn take_created(&self, ips: &[IpAddr]) -> Result<(), QuotaError> {
        let per_hour = self.limits.games_per_hour;
        let now = Instant::now();
        let mut all = self.lock();
        let mut taken = Vec::new();
        for &ip in ips {
            let count = all.entry(ip).or_default();
            let created = count
                .created
                .get_or_insert_with(|| Budget::per(per_hour, Duration::from_secs(3600)));
            if !created.take(now, 1) {
                for ip in taken {
                    if let Some(created) = all.get_mut(&ip).and_then(|c| c.created.as_mut()) {
                        created.give_back(1);
                    }
                }
                return Err(QuotaError::TooManyCreated(per_hour));
            }
            taken.push(ip);
        }
        Ok(())
    }

    /// One node of several: the address's unfinished games and games an hour at every node.
    async fn shared_games(&self, ip: IpAddr) -> Result<(), QuotaError> {
        let Some(store) = &self.store else {
            return Ok(());
        };
        let limits = &self.limits;
        let held = store.unfinished_by(ip).await?;
        if held.is_some_and(|held| held >= limits.games_per_ip as u64) {
            return Err(QuotaError::TooManyGames(limits.games_per_ip));
        }
        let made = store.arrivals_last_hour("game", ip).await?;
        if made.is_some_and(|made| made >= limits.games_per_hour as u64) {
            return Err(QuotaError::TooManyCreated(limits.games_per_hour));
        }
        Ok(())
    }

    /// One more player registered from `ip`: at most `players_per_hour` in an hour, here
    /// and (one node of several) at every node.
    ///
    /// # Errors
    /// [`QuotaError::TooManyPlayers`] past the limit; the database's error.
    pub(crate) async fn take_player(&self, ip: IpAddr) -> Result<(), QuotaError> {
        let per_hour = self.limits.players_per_hour;
        if let Some(store) = &self.store
            && store
                .arrivals_last_hour("player", ip)
                .await?
                .is_some_and(|made| made >= per_hour as u64)
        {
            return Err(QuotaError::TooManyPlayers(per_hour));
        }
        let mut all = self.lock();
        let count = all.entry(ip).or_default();
        let registered = count
            .registered
            .get_or_insert_with(|| Budget::per(per_hour, Duration::from_secs(3600)));
        if registered.take(Instant::now(), 1) {
            Ok(())
        } else {
            Err(QuotaError::TooManyPlayers(per_hour))
        }
    }

    /// One more open seek from `ip`: at most `seeks_per_ip` at once.
    ///
    /// # Errors
    /// [`QuotaError::TooManySeeks`] past the limit.
    pub(crate) fn take_seek(&self, ip: IpAddr) -> Result<(), QuotaError> {
        let most = self.limits.seeks_per_ip;
        let mut all = self.lock();
        let count = all.entry(ip).or_default();
        if count.seeks >= most {
            return Err(QuotaError::TooManySeeks(most));
        }
        count.seeks += 1;
        Ok(())
    }

    /// A seek of `ip` was accepted or withdrawn.
    pub(crate) fn release_seek(&self, ip: IpAddr) {
        self.update(ip, |count| count.seeks = count.seeks.saturating_sub(1));
    }

    /// One more HTTP request from `ip`: at most `requests_per_minute` a minute.
    ///
    /// # Errors
    /// [`QuotaError::RateLimited`] past it.
    pub(crate) fn take_request(&self, ip: IpAddr) -> Result<(), QuotaError> {
        let most = self.limits.requests_per_minute;
        self.take_rate(ip, (most, MINUTE), "requests a minute", |count| {
            &mut count.requests
        })
    }

    /// One more pool join by a player at `ip`: at most `pool_joins_per_ip_minute` a minute.
    ///
    /// # Errors
    /// [`QuotaError::RateLimited`] past it.
    pub(crate) fn take_pool_join(&self, ip: IpAddr) -> Result<(), QuotaError> {
        let most = self.limits.pool_joins_per_ip_minute;
        self.take_rate(ip, (most, MINUTE), "pool joins a minute", |count| {
            &mut count.joins
        })
    }

    /// One more chat report from a socket at `ip`: at most [`REPORTS_PER_IP_HOUR`] an hour.
    ///
    /// # Errors
    /// [`QuotaError::RateLimited`] past it.
    pub(crate) fn take_report(&self, ip: IpAddr) -> Result<(), QuotaError> {
        let hour = Duration::from_secs(3600);
        self.take_rate(
            ip,
            (REPORTS_PER_IP_HOUR, hour),
            "reports an hour",
            |count| &mut count.reports,
        )
    }

    /// One more try to redeem a link code from `ip`: at most [`LINKS_PER_IP_MINUTE`] a
    /// minute.
    ///
    /// # Errors
    /// [`QuotaError::RateLimited`] past it.
    pub(crate) fn take_link(&self, ip: IpAddr) -> Result<(), QuotaError> {
        self.take_rate(
            ip,
            (LINKS_PER_IP_MINUTE, MINUTE),
            "link codes tried a minute",
            |count| &mut count.links,
        )
    }

    /// One of the rate `which` of `ip`'s counts, of `most` a `per`.
    fn take_rate(
        &self,
        ip: IpAddr,
        (most, per): (usize, Duration),
        what: &'static str,
        which: impl FnOnce(&mut PerAddress) -> &mut Option<Rate>,
    ) -> Result<(), QuotaError> {
        let now = Instant::now();
        let mut all = self.lock();
        let counted = self
            .since_sweep
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if counted % SWEEP_EVERY == SWEEP_EVERY - 1 {
            all.retain(|_, count| !count.is_empty(now));
        }
        let count = all.entry(ip).or_default();
        let rate = which(count).get_or_insert_with(|| Rate::per(most, per, now));
        if rate.take(now) {
            Ok(())
        } else {
            Err(QuotaError::RateLimited(most, what))
        }
    }

    /// Counts an unfinished game of `ip` found in the database at start, whatever the limit.
    pub(crate) fn restore_game(&self, ip: IpAddr) {
        self.update(ip, |count| count.games += 1);
    }

    /// A game of `ip` ended (or was deleted, or never made it to the database); nothing for a
    /// game no address created (a rematch, a tournament's, a bot's).
    pub(crate) fn release_game(&self, ip: Option<IpAddr>) {
        if let Some(ip) = ip {
            self.update(ip, |count| count.games = count.games.saturating_sub(1));
        }
    }

    /// One more open socket (a spectator's, a player's or a lobby's) for `ip`, at most
    /// `connections_per_ip`, held until the slot is dropped; the slot carries the budget of
    /// messages all of the address's spectators' sockets share (`messages_per_window`).
    ///
    /// # Errors
    /// [`QuotaError::TooManyConnections`] past the limit.
    pub(crate) fn take_socket(self: &Arc<Quotas>, ip: IpAddr) -> Result<SocketSlot, QuotaError> {
        let limits = &self.limits;
        let mut all = self.lock();
        let count = all.entry(ip).or_default();
        if count.sockets >= limits.connections_per_ip {
            return Err(QuotaError::TooManyConnections(limits.connections_per_ip));
        }
        count.sockets += 1;
        let budget = count
            .spectating
            .get_or_insert_with(|| Arc::new(Mutex::new(Budget::new(limits))));
        Ok(SocketSlot {
            quotas: Arc::clone(self),
            ip,
            budget: Arc::clone(budget),
        })
    }

    /// The addresses holding anything.
    #[cfg(test)]
    fn addresses(&self) -> usize {
        self.lock().len()
    }

    /// The addresses that hold no socket and no game (only the memory of their creations).
    #[cfg(test)]
    fn addresses_holding_nothing_but_creations(&self) -> usize {
        self.lock()
            .values()
            .filter(|count| count.sockets == 0 && count.games == 0)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quotas(limits: Limits) -> Arc<Quotas> {
        Arc::new(Quotas::new(limits, None))
    }

    #[tokio::test]
    async fn an_address_makes_its_reports_an_hour_and_no_more() {
        let quotas = quotas(Limits::default());
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        for _ in 0..REPORTS_PER_IP_HOUR {
            quotas.take_report(a).unwrap();
        }
        let refused = quotas.take_report(a).unwrap_err();
        assert!(matches!(
            refused,
            QuotaError::RateLimited(REPORTS_PER_IP_HOUR, _)
        ));
        assert_eq!(refused.to_string(), "at most 30 reports an hour per client");
        quotas.take_report(b).unwrap();
    }

    #[tokio::test]
    async fn slots_are_counted_per_address_and_given_back() {
        let quotas = quotas(Limits {
            connections_per_ip: 2,
            games_per_ip: 1,
            games_per_hour: 10,
            ..Limits::default()
        });
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let first = quotas.take_socket(a).unwrap();
        let second = quotas.take_socket(a).unwrap();
        assert!(matches!(
            quotas.take_socket(a),
            Err(QuotaError::TooManyConnections(2))
        ));
        let other = quotas.take_socket(b).unwrap();
        drop(first);
        let third = quotas.take_socket(a).unwrap();
        quotas.take_game(a).await.unwrap();
        assert!(matches!(
            quotas.take_game(a).await,
            Err(QuotaError::TooManyGames(1))
        ));
        drop((second, third, other));
        assert_eq!(quotas.addresses(), 1, "a's game is still held");
        quotas.release_game(Some(a));
        assert_eq!(
            quotas.addresses(),
            1,
            "a's creations are remembered for an hour"
        );
        assert_eq!(quotas.addresses_holding_nothing_but_creations(), 1);
    }

    #[test]
    fn an_addresss_spectators_share_one_budget_while_it_counts_anything() {
        let quotas = quotas(Limits {
            messages_per_window: 3,
            ..Limits::default()
        });
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.4".parse().unwrap(), "10.0.0.5".parse().unwrap());
        let now = Instant::now();
        let first = quotas.take_socket(a).unwrap();
        assert!(first.budget().lock().unwrap().take(now, 3));
        drop(first);
        // A fresh socket of the same address does not get a fresh budget ...
        let second = quotas.take_socket(a).unwrap();
        assert!(!second.budget().lock().unwrap().take(now, 1));
        // ... another address does.
        let other = quotas.take_socket(b).unwrap();
        assert!(other.budget().lock().unwrap().take(now, 3));
        drop((second, other));
        assert_eq!(quotas.addresses(), 2, "their budgets still count");
    }

    #[tokio::test]
    async fn an_address_creates_at_most_its_games_an_hour_finished_or_not() {
        let quotas = quotas(Limits {
            games_per_ip: 1,
            games_per_hour: 3,
            players_per_hour: 2,
            seeks_per_ip: 1,
            ..Limits::default()
        });
        let a: IpAddr = "10.0.0.3".parse().unwrap();
        for _ in 0..3 {
            quotas.take_game(a).await.unwrap();
            quotas.release_game(Some(a));
        }
        assert!(matches!(
            quotas.take_game(a).await,
            Err(QuotaError::TooManyCreated(3))
        ));
        quotas.take_player(a).await.unwrap();
        quotas.take_player(a).await.unwrap();
        assert!(matches!(
            quotas.take_player(a).await,
            Err(QuotaError::TooManyPlayers(2))
        ));
        quotas.take_seek(a).unwrap();
        assert!(matches!(
            quotas.take_seek(a),
            Err(QuotaError::TooManySeeks(1))
        ));
        quotas.release_seek(a);
        quotas.take_seek(a).unwrap();
    }
}
