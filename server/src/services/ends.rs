//! Games' ends told, not polled (lila's `Bus.subscribeFun("finishGame")`): the games service
//! publishes each game's end once it is committed; whatever counts ends (the tournaments,
//! and later clubs and correspondence) subscribes. Among several nodes, the node that
//! commits an end also tells the others through the database's channel (PostgreSQL's
//! `NOTIFY`, sent with the commit); each node publishes what it hears to its own
//! subscribers. A subscriber that missed some (it fell behind, or a node's channel was
//! made again) is told [`Told::Missed`], and looks at the database itself.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use crate::room::End;

/// How many ends a subscriber may fall behind before it is told it missed some.
const BACKLOG: usize = 1024;

/// A game's end, committed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Ended {
    /// The game.
    pub game: String,
    /// How it ended.
    pub end: End,
}

/// What a subscriber hears.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Told {
    /// A game ended.
    Ended(Arc<Ended>),
    /// Some ends may have been missed: look at the database.
    Missed,
}

/// The games' ends, as they are committed.
pub(crate) struct Ends {
    sender: broadcast::Sender<Told>,
}

impl Default for Ends {
    fn default() -> Ends {
        Ends {
            sender: broadcast::channel(BACKLOG).0,
        }
    }
}

impl Ends {
    /// Tells every subscriber that `ended`.
    pub(crate) fn publish(&self, ended: Ended) {
        let _ = self.sender.send(Told::Ended(Arc::new(ended)));
    }

    /// Tells every subscriber that ends may have been missed (a node's channel to the
    /// others was made again).
    #[cfg(any(test, feature = "nodes"))]
    pub(crate) fn missed(&self) {
        let _ = self.sender.send(Told::Missed);
    }

    /// A subscriber, from now on.
    #[must_use]
    pub(crate) fn subscribe(&self) -> Subscriber {
        Subscriber {
            receiver: self.sender.subscribe(),
        }
    }
}

/// One subscriber's ear.
pub(crate) struct Subscriber {
    receiver: broadcast::Receiver<Told>,
}

impl Subscriber {
    /// The next thing told; [`Told::Missed`] after falling behind. Waits for ever once the
    /// publisher is gone (the server stops: a subscriber waits on its stop too).
    pub(crate) async fn recv(&mut self) -> Told {
        match self.receiver.recv().await {
            Ok(told) => told,
            Err(broadcast::error::RecvError::Lagged(_)) => Told::Missed,
            Err(broadcast::error::RecvError::Closed) => std::future::pending().await,
        }
    }
}

#[cfg(test)]
mod tests {
    use salpakan::Side;

    use super::*;

    fn ended(game: &str) -> Ended {
        Ended {
            game: game.into(),
            end: End::Won {
                winner: Side::White,
            },
        }
    }

    #[tokio::test]
    async fn every_subscriber_hears_each_end_and_a_laggard_hears_it_missed_some() {
        let ends = Ends::default();
        let (mut a, mut b) = (ends.subscribe(), ends.subscribe());
        ends.publish(ended("a"));
        assert_eq!(a.recv().await, Told::Ended(Arc::new(ended("a"))));
        assert_eq!(b.recv().await, Told::Ended(Arc::new(ended("a"))));
        for i in 0..=BACKLOG {
            ends.publish(ended(&i.to_string()));
        }
        assert_eq!(a.recv().await, Told::Missed);
        ends.missed();
        let mut c = ends.subscribe();
        ends.missed();
        assert_eq!(c.recv().await, Told::Missed);
    }
}
