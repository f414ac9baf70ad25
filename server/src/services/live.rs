//! The live list: the games in play anyone may watch (listed ones only), best first, made
//! once a `live_every` (a second) from what each game noted at its last commit, with each
//! player's rating. Each version is rendered once, whole and as a delta from the version
//! before; a socket sends the delta when it has sent the version before, and the whole list
//! otherwise (on connect, or after it fell behind: a slow socket skips to the newest). With
//! several nodes each publishes its games through the database and reads the others'.
//!
//! The featured game is the operator's choice (`POST /admin/featured`) while it is in
//! play, and otherwise the best game in play.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

use super::games::{Games, lock};
use super::ratings::Ratings;
use super::stopping::Stopping;
use crate::config::Config;
use crate::store::{Store, Write};
use crate::wire::{LIVE_SHOWN, LiveEntry, LiveMessage, LiveRatings, LiveReply};

use super::outbox::Shared;
pub(crate) use super::outbox::Versioned;
use crate::store::NodeWrite;

/// What the live list is made of.
pub(crate) struct Parts {
    /// The settings.
    pub config: Arc<Config>,
    /// The database (several nodes share their lists through it).
    pub store: Store,
    /// The games.
    pub games: Arc<Games>,
    /// The players' ratings.
    pub ratings: Arc<Ratings>,
    /// The stop signal.
    pub stopping: Stopping,
}

/// The live list service.
pub(crate) struct LiveList {
    parts: Parts,
    frames: watch::Sender<Arc<Versioned>>,
    /// `GET /api/live`'s reply, as of the last version.
    reply: Mutex<Arc<str>>,
    /// The operator's featured game.
    featured: Mutex<Option<String>>,
}

fn rendered(v: u64, games: &[LiveEntry], featured: Option<&String>) -> Versioned {
    let full = LiveMessage::Live {
        v,
        games: games.to_vec(),
        featured: featured.cloned(),
    };
    Versioned {
        v,
        full: full.to_json().into(),
        delta: Shared::from_static(""),
    }
}

impl LiveList {
    /// The live list of `parts`, made by a task until the server stops.
    ///
    /// Call inside a tokio runtime.
    #[must_use]
    pub(crate) fn start(parts: Parts) -> Arc<LiveList> {
        let empty = LiveReply {
            games: Vec::new(),
            featured: None,
        };
        let list = Arc::new(LiveList {
            parts,
            frames: watch::channel(Arc::new(rendered(0, &[], None))).0,
            reply: Mutex::new(Arc::from(serde_json::to_string(&empty).unwrap_or_default())),
            featured: Mutex::new(None),
        });
        tokio::spawn(Arc::clone(&list).run());
        list
    }

    /// `GET /api/live`: the games in play, best first.
    #[must_use]
    pub(crate) fn reply(&self) -> Arc<str> {
        Arc::clone(&lock(&self.reply))
    }

    /// The newest version, and what tells of the next.
    #[must_use]
    pub(crate) fn frames(&self) -> watch::Receiver<Arc<Versioned>> {
        self.frames.subscribe()
    }

    /// The operator features `game` (or, with `None`, lets the best game be featured).
    pub(crate) fn feature(&self, game: Option<String>) {
        *lock(&self.featured) = game;
    }

    /// This node's games in play, rated, with the other nodes' (from the database).
    async fn gather(&self, published: &mut Vec<(String, String)>) -> Vec<LiveEntry> {
        let Parts {
            config,
            store,
            games,
            ratings,
            ..
        } = &self.parts;
        let rating =
            |name: &Option<String>| name.as_deref().map(|n| ratings.of(n).rating.round() as i64);
        let mut entries: Vec<LiveEntry> = games
            .tables()
            .listings()
            .into_iter()
            .map(|mut entry| {
                entry.ratings = LiveRatings {
                    white: rating(&entry.names.white),
                    black: rating(&entry.names.black),
                };
                entry
            })
            .collect();
        if store.shared() {
            // Only this node's best can be among the best of all.
            entries.sort_by_key(LiveEntry::rank_key);
            let mine: Vec<(String, String)> = entries
                .iter()
                .take(LIVE_SHOWN)
                .map(|e| (e.game.clone(), serde_json::to_string(e).unwrap_or_default()))
                .collect();
            if mine != *published {
                let write = Write::Node(NodeWrite::LiveGames {
                    node: config.node.clone(),
                    entries: mine.clone(),
                });
                if store.write(vec![write]).await.is_ok() {
                    *published = mine;
                }
            }
            if let Ok(others) = store.live_elsewhere(&config.node).await {
                let held: std::collections::HashSet<String> =
                    entries.iter().map(|e| e.game.clone()).collect();
                entries.extend(
                    others
                        .iter()
                        .filter_map(|json| serde_json::from_str::<LiveEntry>(json).ok())
                        .filter(|e| !held.contains(&e.game)),
                );
            }
        }
        entries.sort_by_key(LiveEntry::rank_key);
        entries
    }

    /// Makes a version whenever the list changed, once a `live_every`, until the server
    /// stops.
    async fn run(self: Arc<LiveList>) {
        let mut stop = self.parts.stopping.listen();
        let mut shown: HashMap<String, LiveEntry> = HashMap::new();
        let mut last_featured: Option<String> = None;
        let mut published = Vec::new();
        let mut v = 0;
        loop {
            let mut entries = self.gather(&mut published).await;
            let chosen = lock(&self.featured).clone();
            let featured = chosen
                .filter(|id| entries.iter().any(|e| e.game == *id))
                .or_else(|| entries.first().map(|e| e.game.clone()));
            entries.truncate(LIVE_SHOWN);
            let (mut changed, mut moved) = (Vec::new(), Vec::new());
            for entry in &entries {
                match shown.get(&entry.game) {
                    Some(before) if before == entry => {}
                    Some(before) if before.same_but_moves(entry) => moved.push(entry.moving()),
                    _ => changed.push(entry.clone()),
                }
            }
            let now: HashMap<String, LiveEntry> = entries
                .iter()
                .map(|e| (e.game.clone(), e.clone()))
                .collect();
            let gone: Vec<String> = shown
                .keys()
                .filter(|id| !now.contains_key(*id))
                .cloned()
                .collect();
            let same = changed.is_empty() && moved.is_empty() && gone.is_empty();
            if !same || featured != last_featured || v == 0 {
                v += 1;
                let mut version = rendered(v, &entries, featured.as_ref());
                version.delta = LiveMessage::LiveDelta {
                    v,
                    changed,
                    moved,
                    gone,
                    featured: featured.clone(),
                }
                .to_json()
                .into();
                let reply = LiveReply {
                    games: entries,
                    featured: featured.clone(),
                };
                *lock(&self.reply) = Arc::from(serde_json::to_string(&reply).unwrap_or_default());
                self.frames.send_replace(Arc::new(version));
                shown = now;
                last_featured = featured;
            }
            if !stop.sleep(self.parts.config.limits.live_every).await {
                return;
            }
        }
    }
}
