//! The server's one stop signal (mini-redis's `Shutdown`): every task and socket holds a
//! [`Stop`] and ends when it hears the stop, whether it began waiting before or after it.

use std::future::Future;
use std::sync::Arc;

use tokio::sync::watch;
use tokio::time::{Duration, Instant};

/// Whether the server is stopping, and what tells every waiter when it starts to.
#[derive(Clone)]
pub(crate) struct Stopping {
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
    pub(crate) fn stop(&self) {
        self.sender.send_replace(true);
    }

    /// Whether the server has begun to stop.
    #[must_use]
    pub(crate) fn stopped(&self) -> bool {
        *self.sender.borrow()
    }

    /// A waiter for the stop, for one task.
    #[must_use]
    pub(crate) fn listen(&self) -> Stop {
        Stop {
            receiver: self.sender.subscribe(),
        }
    }
}

/// One task's ear for the stop.
pub(crate) struct Stop {
    receiver: watch::Receiver<bool>,
}

impl Stop {
    /// Returns once the server stops (at once if it has).
    pub(crate) async fn recv(&mut self) {
        // The sender is dropped only with the server: that is a stop too.
        let _ = self.receiver.wait_for(|stopped| *stopped).await;
    }

    /// Sleeps for `wait`; `false` if the server stopped first.
    pub(crate) async fn sleep(&mut self, wait: Duration) -> bool {
        self.sleep_until(Instant::now() + wait).await
    }

    /// Sleeps until `at`; `false` if the server stopped first.
    pub(crate) async fn sleep_until(&mut self, at: Instant) -> bool {
        self.or(tokio::time::sleep_until(at)).await.is_some()
    }

    /// What `work` gives, or `None` if the server stops first (or has stopped).
    pub(crate) async fn or<T>(&mut self, work: impl Future<Output = T>) -> Option<T> {
        tokio::select! {
            biased;
            () = self.recv() => None,
            out = work => Some(out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn every_waiter_hears_the_stop_even_one_that_listens_after_it() {
        let stopping = Stopping::default();
        let mut before = stopping.listen();
        assert!(!stopping.stopped());
        let waiting = tokio::spawn(async move { before.recv().await });
        stopping.stop();
        waiting.await.unwrap();
        let mut after = stopping.clone().listen();
        after.recv().await;
        assert!(stopping.stopped());
    }

    #[tokio::test(start_paused = true)]
    async fn a_sleep_ends_early_when_the_server_stops() {
        let stopping = Stopping::default();
        let mut stop = stopping.listen();
        assert!(stop.sleep(Duration::from_secs(1)).await);
        let started = Instant::now();
        let sleeping = tokio::spawn(async move { stop.sleep(Duration::from_secs(3600)).await });
        tokio::time::sleep(Duration::from_secs(5)).await;
        stopping.stop();
        assert!(!sleeping.await.unwrap());
        assert!(started.elapsed() < Duration::from_secs(3600));
        assert_eq!(stopping.listen().or(async { 7 }).await, None);
        assert!(!stopping.listen().sleep(Duration::ZERO).await);
    }
}
