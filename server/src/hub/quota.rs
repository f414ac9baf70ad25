//! What each client address may hold at once, open spectators' sockets and unfinished games
//! it created, how many games it may create in an hour, and the message budget its
//! spectators' sockets share. A slot is taken before the work
//! it stands for and given back when that ends (a socket's slot when it is dropped, a game's
//! when the game ends or is deleted).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::config::Limits;

use tokio::time::{Duration, Instant};

use super::HubError;
use crate::budget::Budget;

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
    }
}

/// Every address's open sockets and unfinished games.
#[derive(Default)]
pub struct Quotas {
    by_address: Mutex<HashMap<IpAddr, PerAddress>>,
}

/// Holds one of an address's open sockets until dropped.
pub struct SocketSlot {
    quotas: Arc<Quotas>,
    ip: IpAddr,
    budget: Arc<Mutex<Budget>>,
}

impl SocketSlot {
    /// The message budget the address's spectators' sockets share.
    #[must_use]
    pub fn budget(&self) -> Arc<Mutex<Budget>> {
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

    /// One more unfinished game for `ip`: at most `unfinished` at once, and at most
    /// `per_hour` created in an hour (finished or not).
    ///
    /// # Errors
    /// [`HubError::TooManyGames`] or [`HubError::TooManyCreated`] past a limit.
    pub fn take_game(
        &self,
        ip: IpAddr,
        unfinished: usize,
        per_hour: usize,
    ) -> Result<(), HubError> {
        let mut all = self.lock();
        let count = all.entry(ip).or_default();
        if count.games >= unfinished {
            return Err(HubError::TooManyGames(unfinished));
        }
        let created = count
            .created
            .get_or_insert_with(|| Budget::per(per_hour, Duration::from_secs(3600)));
        if !created.take(Instant::now(), 1) {
            return Err(HubError::TooManyCreated(per_hour));
        }
        count.games += 1;
        Ok(())
    }

    /// One more player registered from `ip`: at most `per_hour` in an hour.
    ///
    /// # Errors
    /// [`HubError::TooManyPlayers`] past the limit.
    pub fn take_player(&self, ip: IpAddr, per_hour: usize) -> Result<(), HubError> {
        let mut all = self.lock();
        let count = all.entry(ip).or_default();
        let registered = count
            .registered
            .get_or_insert_with(|| Budget::per(per_hour, Duration::from_secs(3600)));
        if registered.take(Instant::now(), 1) {
            Ok(())
        } else {
            Err(HubError::TooManyPlayers(per_hour))
        }
    }

    /// One more open seek from `ip`: at most `most` at once.
    ///
    /// # Errors
    /// [`HubError::TooManySeeks`] past the limit.
    pub fn take_seek(&self, ip: IpAddr, most: usize) -> Result<(), HubError> {
        let mut all = self.lock();
        let count = all.entry(ip).or_default();
        if count.seeks >= most {
            return Err(HubError::TooManySeeks(most));
        }
        count.seeks += 1;
        Ok(())
    }

    /// A seek of `ip` was accepted or withdrawn.
    pub fn release_seek(&self, ip: IpAddr) {
        self.update(ip, |count| count.seeks = count.seeks.saturating_sub(1));
    }

    /// Counts an unfinished game of `ip` found in the database at start, whatever the limit.
    pub fn restore_game(&self, ip: IpAddr) {
        self.update(ip, |count| count.games += 1);
    }

    /// A game of `ip` ended (or was deleted, or never made it to the database).
    pub fn release_game(&self, ip: IpAddr) {
        self.update(ip, |count| count.games = count.games.saturating_sub(1));
    }

    /// One more open spectator's socket for `ip`, at most `limits.connections_per_ip`, held
    /// until the slot is dropped; the slot carries the budget of messages all of the
    /// address's spectators' sockets share (`limits.messages_per_window`).
    ///
    /// # Errors
    /// [`HubError::TooManyConnections`] past the limit.
    pub fn take_socket(
        self: &Arc<Quotas>,
        ip: IpAddr,
        limits: &Limits,
    ) -> Result<SocketSlot, HubError> {
        let mut all = self.lock();
        let count = all.entry(ip).or_default();
        if count.sockets >= limits.connections_per_ip {
            return Err(HubError::TooManyConnections(limits.connections_per_ip));
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

    #[test]
    fn slots_are_counted_per_address_and_given_back() {
        let quotas = Arc::new(Quotas::default());
        let limits = Limits {
            connections_per_ip: 2,
            ..Limits::default()
        };
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let first = quotas.take_socket(a, &limits).unwrap();
        let second = quotas.take_socket(a, &limits).unwrap();
        assert!(matches!(
            quotas.take_socket(a, &limits),
            Err(HubError::TooManyConnections(2))
        ));
        let other = quotas.take_socket(b, &limits).unwrap();
        drop(first);
        let third = quotas.take_socket(a, &limits).unwrap();
        quotas.take_game(a, 1, 10).unwrap();
        assert!(matches!(
            quotas.take_game(a, 1, 10),
            Err(HubError::TooManyGames(1))
        ));
        drop((second, third, other));
        assert_eq!(quotas.addresses(), 1, "a's game is still held");
        quotas.release_game(a);
        assert_eq!(
            quotas.addresses(),
            1,
            "a's creations are remembered for an hour"
        );
        assert_eq!(quotas.addresses_holding_nothing_but_creations(), 1);
    }

    #[test]
    fn an_addresss_spectators_share_one_budget_while_it_counts_anything() {
        let quotas = Arc::new(Quotas::default());
        let limits = Limits {
            messages_per_window: 3,
            ..Limits::default()
        };
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.4".parse().unwrap(), "10.0.0.5".parse().unwrap());
        let now = Instant::now();
        let first = quotas.take_socket(a, &limits).unwrap();
        assert!(first.budget().lock().unwrap().take(now, 3));
        drop(first);
        // A fresh socket of the same address does not get a fresh budget ...
        let second = quotas.take_socket(a, &limits).unwrap();
        assert!(!second.budget().lock().unwrap().take(now, 1));
        // ... another address does.
        let other = quotas.take_socket(b, &limits).unwrap();
        assert!(other.budget().lock().unwrap().take(now, 3));
        drop((second, other));
        assert_eq!(quotas.addresses(), 2, "their budgets still count");
    }

    #[test]
    fn an_address_creates_at_most_its_games_an_hour_finished_or_not() {
        let quotas = Quotas::default();
        let a: IpAddr = "10.0.0.3".parse().unwrap();
        for _ in 0..3 {
            quotas.take_game(a, 1, 3).unwrap();
            quotas.release_game(a);
        }
        assert!(matches!(
            quotas.take_game(a, 1, 3),
            Err(HubError::TooManyCreated(3))
        ));
    }
}
