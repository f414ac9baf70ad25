//! The server's services. Each owns its state and its operations behind a small API, with
//! its own error type; [`Services`] hands them to the HTTP and socket layers and holds no
//! logic of its own: wiring is one line per service. A new concern (chat, tournaments, bot
//! accounts) is a new service here.
//!
//! From the bottom up, each using only those above it in this list:
//! - [`stopping`], [`pauses`], [`outbox`]: the stop signal, the server's own pauses (charged
//!   to nobody), and the frames a service hands a socket;
//! - [`quotas`]: what each client address may hold and make;
//! - [`readiness`]: ready, draining, and the database's probe;
//! - [`players`]: names, keys, profiles, finished games listed;
//! - [`ratings`]: the leaderboard and the ratings pairing reads;
//! - [`chat`]: each game's chat (its rules are [`crate::chat`]'s), a finished game's chat,
//!   the reports;
//! - [`ends`]: each game's end, told to whatever counts ends (here and on the other nodes);
//! - [`games`]: the rooms, their seats, clocks, timers and bots;
//! - [`pruner`]: the finished games past the retention deleted;
//! - [`player_sockets`]: who is online, and how to tell them;
//! - [`lobby`]: seeks, pools, the lobby's sockets and frame;
//! - [`challenges`]: a named player challenged, accepting or declining;
//! - [`live`]: the games in play anyone may watch, best first, and the featured game;
//! - [`records`]: a game's summary and record, from memory or from its row;
//! - [`replays`]: finished games replayed, a few at a time;
//! - [`tournaments`]: tournaments made, joined, directed, paired and their games made;
//!   told each game's end; whether a game is sealed;
//! - [`desk`]: what the operator reads (the games in memory, unrated games, reports);
//! - [`moderation`]: the moderators' desk (its queue, actions, log and appeals);
//! - `nodes` (feature `nodes`): one node of several, its lease and its sweeper.

pub(crate) mod challenges;
pub(crate) mod chat;
pub(crate) mod desk;
pub(crate) mod ends;
pub(crate) mod games;
pub(crate) mod live;
pub(crate) mod lobby;
pub(crate) mod moderation;
#[cfg(feature = "nodes")]
pub(crate) mod nodes;
pub(crate) mod outbox;
pub(crate) mod pauses;
pub(crate) mod player_sockets;
pub(crate) mod players;
pub(crate) mod pruner;
pub(crate) mod quotas;
pub(crate) mod ratings;
pub(crate) mod readiness;
pub(crate) mod records;
pub(crate) mod replays;
pub(crate) mod stopping;
pub(crate) mod tournaments;

use std::sync::Arc;

use tokio::time::Instant;

use crate::config::Config;
use crate::secret::Entropy;
use crate::store::Opened;

/// Every service, as the HTTP and socket layers reach them.
pub(crate) struct Services {
    /// The settings.
    pub config: Arc<Config>,
    /// The stop signal.
    pub stopping: stopping::Stopping,
    /// The server's own pauses.
    pub pauses: Arc<pauses::Pauses>,
    /// The per-address limits.
    pub quotas: Arc<quotas::Quotas>,
    /// Ready, draining.
    pub readiness: Arc<readiness::Readiness>,
    /// The players.
    pub players: Arc<players::Players>,
    /// The ratings.
    pub ratings: Arc<ratings::Ratings>,
    /// The chat of every game in memory.
    pub chats: Arc<chat::Chats>,
    /// The games.
    pub games: Arc<games::Games>,
    /// Who is online, and how to tell them.
    pub sockets: Arc<player_sockets::PlayerSockets>,
    /// The lobby.
    pub lobby: Arc<lobby::Lobby>,
    /// The challenges of named players.
    pub challenges: Arc<challenges::Challenges>,
    /// The games in play anyone may watch.
    pub live: Arc<live::LiveList>,
    /// A game's summary and record.
    pub records: Arc<records::Records>,
    /// Finished games' replays.
    pub replays: Arc<replays::Replays>,
    /// The tournaments.
    pub tournaments: Arc<tournaments::Tournaments>,
    /// What the operator reads.
    pub desk: desk::Desk,
    /// The moderators' desk.
    pub moderation: moderation::Moderation,
    /// This node among several (a shared database).
    #[cfg(feature = "nodes")]
    pub cluster: Option<Arc<nodes::Cluster>>,
}

impl Services {
    /// Every service over the database `opened` found (its unfinished games restored, its
    /// players held), their tasks started; chat lines are held to `blocklist`.
    ///
    /// Call inside a tokio runtime.
    #[must_use]
    pub(crate) fn start(
        config: Config,
        entropy: Arc<dyn Entropy>,
        opened: Opened,
        blocklist: crate::chat::Blocklist,
    ) -> Arc<Services> {
        let Opened {
            store,
            unfinished,
            players,
            #[cfg(feature = "nodes")]
            cluster,
            ..
        } = opened;
        let config = Arc::new(config);
        let stopping = stopping::Stopping::default();
        let pauses = Arc::new(pauses::Pauses::new(Instant::now()));
        tokio::spawn(Arc::clone(&pauses).watch(stopping.clone()));
        let shared = store.shared().then(|| store.clone());
        let quotas = Arc::new(quotas::Quotas::new(config.limits, shared));
        let readiness = Arc::new(readiness::Readiness::new(store.clone()));
        let players = Arc::new(players::Players::new(
            store.clone(),
            Arc::clone(&entropy),
            Arc::clone(&quotas),
            players,
        ));
        let ratings = Arc::new(ratings::Ratings::new(Arc::clone(&players)));
        let ends = Arc::new(ends::Ends::default());
        let chats = chat::Chats::new(chat::Parts {
            limits: config.limits,
            store: store.clone(),
            players: Arc::clone(&players),
            blocklist,
        });
        let games = games::Games::new(
            games::Parts {
                config: Arc::clone(&config),
                store: store.clone(),
                entropy: Arc::clone(&entropy),
                quotas: Arc::clone(&quotas),
                players: Arc::clone(&players),
                pauses: Arc::clone(&pauses),
                readiness: Arc::clone(&readiness),
                stopping: stopping.clone(),
                chats: Arc::clone(&chats),
                ends: Arc::clone(&ends),
            },
            unfinished,
        );
        pruner::start(store.clone(), config.limits.retention, &stopping);
        let sockets = Arc::new(player_sockets::PlayerSockets::new(
            config.limits.sockets_per_player,
        ));
        let lobby = lobby::Lobby::start(lobby::Parts {
            config: Arc::clone(&config),
            entropy: Arc::clone(&entropy),
            games: Arc::clone(&games),
            ratings: Arc::clone(&ratings),
            players: Arc::clone(&players),
            sockets: Arc::clone(&sockets),
            quotas: Arc::clone(&quotas),
            stopping: stopping.clone(),
        });
        let challenges = challenges::Challenges::start(challenges::Parts {
            limits: config.limits,
            entropy: Arc::clone(&entropy),
            stopping: stopping.clone(),
            players: Arc::clone(&players),
            ratings: Arc::clone(&ratings),
            lobby: Arc::clone(&lobby),
            sockets: Arc::clone(&sockets),
        });
        let records = Arc::new(records::Records::new(Arc::clone(&games), store.clone()));
        let replays = Arc::new(replays::Replays::new(Arc::clone(&records)));
        let tournaments = tournaments::Tournaments::start(tournaments::Parts {
            config: Arc::clone(&config),
            store: store.clone(),
            entropy: Arc::clone(&entropy),
            games: Arc::clone(&games),
            players: Arc::clone(&players),
            sockets: Arc::clone(&sockets),
            ends: Arc::clone(&ends),
            stopping: stopping.clone(),
        });
        let live = live::LiveList::start(live::Parts {
            config: Arc::clone(&config),
            store: store.clone(),
            games: Arc::clone(&games),
            ratings: Arc::clone(&ratings),
            stopping: stopping.clone(),
        });
        let desk = desk::Desk::new(Arc::clone(&games), Arc::clone(&chats), store.clone());
        let moderation = moderation::Moderation::new(
            store.clone(),
            Arc::clone(&players),
            Arc::clone(&sockets),
            Arc::clone(&entropy),
        );
        #[cfg(feature = "nodes")]
        let cluster = cluster.map(|c| {
            nodes::Cluster::start(
                nodes::Parts {
                    config: Arc::clone(&config),
                    store: store.clone(),
                    games: Arc::clone(&games),
                    lobby: Arc::clone(&lobby),
                    players: Arc::clone(&players),
                    ends: Arc::clone(&ends),
                    stopping: stopping.clone(),
                    key: c.key,
                },
                c.notices,
            )
        });
        #[cfg(not(feature = "nodes"))]
        let _ = store;
        Arc::new(Services {
            config,
            stopping,
            pauses,
            quotas,
            readiness,
            players,
            ratings,
            chats,
            games,
            sockets,
            lobby,
            challenges,
            live,
            records,
            replays,
            tournaments,
            desk,
            moderation,
            #[cfg(feature = "nodes")]
            cluster,
        })
    }

    /// Asks every socket to close (1012) and every task to end: the server is stopping.
    pub(crate) fn stop(&self) {
        self.stopping.stop();
        self.games.tables().wake_all();
    }

    /// The key the other nodes' forwarded requests carry (`None` for a server alone).
    #[must_use]
    pub(crate) fn node_key(&self) -> Option<&str> {
        #[cfg(feature = "nodes")]
        if let Some(cluster) = &self.cluster {
            return Some(cluster.key());
        }
        None
    }
}
