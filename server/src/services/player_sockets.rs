//! Who is online here, and how to tell them (lila-ws's `Users`): each player's open player
//! sockets, a message told to all of a player's, and who hears when a player's last socket
//! closes (the lobby withdraws its seeks and its pool entry, the challenges end theirs). A
//! player socket hears what is for its player alone: pairings, challenges, its tournament
//! seats.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::mpsc;

use super::outbox::Out;
#[cfg(any(test, feature = "nodes"))]
use crate::wire::CloseCode;
use crate::wire::LobbyMessage;

/// Who went offline: a player whose last socket closed, or everyone (this node closed every
/// player socket: the lobby moved to another node).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Gone<'a> {
    /// This player.
    Player(&'a str),
    /// Every player.
    #[cfg(any(test, feature = "nodes"))]
    Everyone,
}

/// What hears of players gone offline.
pub(crate) type Offline = Box<dyn Fn(Gone<'_>) + Send + Sync>;

/// Each player's open sockets (by its name folded to lower case): each one's id and queue.
type Open = HashMap<String, Vec<(u64, mpsc::Sender<Out>)>>;

/// The player sockets service.
pub(crate) struct PlayerSockets {
    /// The most sockets one player may have open.
    most: usize,
    sockets: Mutex<Open>,
    next: AtomicU64,
    offline: Mutex<Vec<Arc<Offline>>>,
}

/// Past a player's sockets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("at most {0} sockets")]
pub(crate) struct TooManySockets(pub usize);

fn fold(name: &str) -> String {
    name.to_ascii_lowercase()
}

impl PlayerSockets {
    /// No socket open yet; at most `most` a player.
    #[must_use]
    pub(crate) fn new(most: usize) -> PlayerSockets {
        PlayerSockets {
            most,
            sockets: Mutex::default(),
            next: AtomicU64::new(1),
            offline: Mutex::default(),
        }
    }

    fn sockets(&self) -> std::sync::MutexGuard<'_, Open> {
        self.sockets.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `offline` hears of every player gone offline from now on.
    pub(crate) fn on_offline(&self, offline: Offline) {
        self.offline
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Arc::new(offline));
    }

    fn tell_offline(&self, gone: Gone<'_>) {
        let hearing: Vec<Arc<Offline>> = self
            .offline
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        for offline in hearing {
            offline(gone);
        }
    }

    /// `player`'s socket opened, its frames going to `tx`: returns its id.
    ///
    /// # Errors
    /// [`TooManySockets`] past the player's sockets.
    pub(crate) fn open(&self, player: &str, tx: mpsc::Sender<Out>) -> Result<u64, TooManySockets> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let mut sockets = self.sockets();
        let held = sockets.entry(fold(player)).or_default();
        if held.len() >= self.most {
            return Err(TooManySockets(self.most));
        }
        held.push((id, tx));
        Ok(id)
    }

    /// `player`'s socket `id` closed: with its last, whoever listens hears the player gone.
    pub(crate) fn close(&self, player: &str, id: u64) {
        let folded = fold(player);
        {
            let mut sockets = self.sockets();
            let Some(held) = sockets.get_mut(&folded) else {
                return;
            };
            held.retain(|(i, _)| *i != id);
            if !held.is_empty() {
                return;
            }
            sockets.remove(&folded);
        }
        self.tell_offline(Gone::Player(player));
    }

    /// Whether `player` has a socket open here.
    #[must_use]
    pub(crate) fn online(&self, player: &str) -> bool {
        self.sockets().contains_key(&fold(player))
    }

    /// Sends `message` to every socket of `player`.
    pub(crate) fn tell(&self, player: &str, message: &LobbyMessage) {
        let frame: Arc<str> = message.to_json().into();
        for (_, tx) in self.sockets().get(&fold(player)).into_iter().flatten() {
            let _ = tx.try_send(Out::Text(Arc::clone(&frame)));
        }
    }

    /// Closes `player`'s player sockets (its account closed): 4401, as a wrong key's.
    pub(crate) fn close_player(&self, player: &str) {
        for (_, tx) in self.sockets().get(&fold(player)).into_iter().flatten() {
            let _ = tx.try_send(Out::close(crate::wire::CloseCode::BadKey, "account closed"));
        }
    }

    /// Closes every player socket with `code` and `reason`; whoever listens hears everyone
    /// gone.
    #[cfg(any(test, feature = "nodes"))]
    pub(crate) fn close_all(&self, code: CloseCode, reason: &'static str) {
        let sockets = std::mem::take(&mut *self.sockets());
        self.tell_offline(Gone::Everyone);
        for (_, tx) in sockets.into_values().flatten() {
            let _ = tx.try_send(Out::close(code, reason));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_is_online_until_its_last_socket_closes_and_listeners_hear_it() {
        let sockets = PlayerSockets::new(2);
        let heard = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&heard);
        sockets.on_offline(Box::new(move |gone| {
            log.lock().unwrap().push(match gone {
                Gone::Player(p) => p.to_owned(),
                #[cfg(any(test, feature = "nodes"))]
                Gone::Everyone => "*".to_owned(),
            });
        }));
        let (tx, mut rx) = mpsc::channel(4);
        let a = sockets.open("Maria_S", tx.clone()).unwrap();
        let b = sockets.open("maria_s", tx.clone()).unwrap();
        assert_eq!(sockets.open("MARIA_S", tx.clone()), Err(TooManySockets(2)));
        sockets.tell("maria_S", &LobbyMessage::Pong);
        assert!(matches!(rx.try_recv(), Ok(Out::Text(_))));
        assert!(matches!(rx.try_recv(), Ok(Out::Text(_))));
        sockets.close("Maria_S", a);
        assert!(sockets.online("maria_s") && heard.lock().unwrap().is_empty());
        sockets.close("Maria_S", b);
        assert!(!sockets.online("maria_s"));
        assert_eq!(*heard.lock().unwrap(), ["Maria_S"]);
        sockets.open("juan", tx).unwrap();
        sockets.close_all(CloseCode::Restart, "moving");
        assert!(!sockets.online("juan"));
        assert_eq!(*heard.lock().unwrap(), ["Maria_S", "*"]);
        assert!(matches!(
            rx.try_recv(),
            Ok(Out::Close(CloseCode::Restart, _))
        ));
    }
}
