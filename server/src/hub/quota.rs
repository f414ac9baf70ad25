//! What each client address may hold at once: open sockets and unfinished games it created.
//! A slot is taken before the work it stands for and given back when that ends (a socket's
//! slot when it is dropped, a game's when the game ends or is deleted).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::HubError;

#[derive(Default)]
struct PerAddress {
    sockets: usize,
    games: usize,
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
        if count.sockets == 0 && count.games == 0 {
            all.remove(&ip);
        }
    }

    /// One more unfinished game for `ip`, at most `limit`.
    ///
    /// # Errors
    /// [`HubError::TooManyGames`] past the limit.
    pub fn take_game(&self, ip: IpAddr, limit: usize) -> Result<(), HubError> {
        let mut all = self.lock();
        let count = all.entry(ip).or_default();
        if count.games >= limit {
            return Err(HubError::TooManyGames(limit));
        }
        count.games += 1;
        Ok(())
    }

    /// Counts an unfinished game of `ip` found in the database at start, whatever the limit.
    pub fn restore_game(&self, ip: IpAddr) {
        self.update(ip, |count| count.games += 1);
    }

    /// A game of `ip` ended (or was deleted, or never made it to the database).
    pub fn release_game(&self, ip: IpAddr) {
        self.update(ip, |count| count.games = count.games.saturating_sub(1));
    }

    /// One more open socket for `ip`, at most `limit`, held until the slot is dropped.
    ///
    /// # Errors
    /// [`HubError::TooManyConnections`] past the limit.
    pub fn take_socket(
        self: &Arc<Quotas>,
        ip: IpAddr,
        limit: usize,
    ) -> Result<SocketSlot, HubError> {
        let mut all = self.lock();
        let count = all.entry(ip).or_default();
        if count.sockets >= limit {
            return Err(HubError::TooManyConnections(limit));
        }
        count.sockets += 1;
        Ok(SocketSlot {
            quotas: Arc::clone(self),
            ip,
        })
    }

    /// The addresses holding anything (for tests: none once every game ended and every
    /// socket closed).
    #[must_use]
    pub fn addresses(&self) -> usize {
        self.lock().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_counted_per_address_and_given_back() {
        let quotas = Arc::new(Quotas::default());
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let first = quotas.take_socket(a, 2).unwrap();
        let second = quotas.take_socket(a, 2).unwrap();
        assert!(matches!(
            quotas.take_socket(a, 2),
            Err(HubError::TooManyConnections(2))
        ));
        let other = quotas.take_socket(b, 2).unwrap();
        drop(first);
        let third = quotas.take_socket(a, 2).unwrap();
        quotas.take_game(a, 1).unwrap();
        assert!(matches!(
            quotas.take_game(a, 1),
            Err(HubError::TooManyGames(1))
        ));
        drop((second, third, other));
        assert_eq!(quotas.addresses(), 1, "a's game is still held");
        quotas.release_game(a);
        assert_eq!(quotas.addresses(), 0);
    }
}
