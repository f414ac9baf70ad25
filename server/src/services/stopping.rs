//! The server's one stop signal: every task and socket holds a receiver and ends when it
//! changes (mini-redis's `Shutdown`, shared by the services, the sockets and the listener).

use std::sync::Arc;

use tokio::sync::watch;

/// Whether the server is stopping, and what tells every waiter when it starts to.
#[derive(Clone)]
pub struct Stopping {
    sender: Arc<watch::Sender<bool>>,
}

impl Default for Stopping {
    fn default() -> Stopping {
        Stopping {
            sender: Arc::new(watch::channel(false).0),
        }
    }
}

impl Stopping {
    /// Tells every waiter that the server stops.
    pub fn stop(&self) {
        self.sender.send_replace(true);
    }

    /// Whether the server has begun to stop.
    #[must_use]
    pub fn stopped(&self) -> bool {
        *self.sender.borrow()
    }

    /// A receiver that changes when the server stops.
    #[must_use]
    pub fn subscribe(&self) -> watch::Receiver<bool> {
        self.sender.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn every_receiver_hears_the_stop() {
        let stopping = Stopping::default();
        let mut a = stopping.subscribe();
        let mut b = stopping.clone().subscribe();
        assert!(!stopping.stopped());
        stopping.stop();
        a.changed().await.unwrap();
        b.changed().await.unwrap();
        assert!(stopping.stopped() && *a.borrow() && *b.borrow());
    }
}
