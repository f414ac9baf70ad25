//! The games service: the rooms in memory, their seats and clocks, and the one path every
//! change takes: a room's lock, the room's decision, the commit, then the messages to each
//! recipient. One writer per game (the room's lock); games share nothing but the database's
//! writer thread.
//!
//! - `error`: why the games service refused a request;
//! - `tables`: each game in memory at its table, its one lock, what the operator reads of it
//!   without it, and the registry of tables with their counts;
//! - `open`: games made (`create`, and for the lobby, a tournament, the rematch) and joined;
//! - `rematch`: the rematch made once both seats ask, and a lost token given again;
//!   (and in this file: the lookups, and a room looked at under its lock);
//! - `play`: the change path: a seat's command, the commit, the frames;
//! - `presence`: each seat's presence told to everyone at its table, at most once a second;
//! - `settings`: a game's settings as asked for, checked against the limits (no I/O);
//! - `seats`: who a socket is for, sockets attached and detached, a seat taken again;
//! - `tasks`: each room's timer and bot;
//! - `nodes` (feature `nodes`): where a game is played among several nodes.
//!
//! What is not a game's is another service's: its chat ([`super::chat`]), whether it is
//! sealed ([`super::tournaments`]), what the operator reads ([`super::desk`]); a game's end
//! is published ([`super::ends`]) for whatever counts it.

mod error;
#[cfg(feature = "nodes")]
mod nodes;
mod open;
mod play;
mod presence;
mod rematch;
mod seats;
mod settings;
mod tables;
mod tasks;

pub(crate) use error::GameError;
#[cfg(feature = "nodes")]
pub(crate) use nodes::Place;
pub(crate) use open::{Seating, random_side};
pub(crate) use settings::Settings;
pub(crate) use tables::{Origin, PHASES, Table, Tables, lock};

use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use salpakan::{Side, Status, WinReason};
use tokio::time::Instant;

use super::chat::Chats;
use super::ends::Ends;
use super::pauses::Pauses;
use super::players::Players;
use super::quotas::Quotas;
use super::readiness::Readiness;
use super::stopping::Stopping;
use crate::config::Config;
use crate::room::{Event, PLIES_TO_COUNT, Phase, RestoreError, Room, Saved, SavedChat};
use crate::secret::{Entropy, plausible_id};
use crate::store::GameWrite;
use crate::store::{Ending, GameResult, Settlement, Store, Write};
use crate::wire::{AbortReason, Unrated};

/// What the games service is made of: the services below it it uses.
pub(crate) struct Parts {
    /// The settings.
    pub config: Arc<Config>,
    /// The database.
    pub store: Store,
    /// Where ids, tokens and bots' seeds come from.
    pub entropy: Arc<dyn Entropy>,
    /// The per-address limits.
    pub quotas: Arc<Quotas>,
    /// The players (a game's end updates their counts and ratings).
    pub players: Arc<Players>,
    /// The server's own pauses, charged to nobody's clock.
    pub pauses: Arc<Pauses>,
    /// Whether new games are made (not while draining).
    pub readiness: Arc<Readiness>,
    /// The stop signal.
    pub stopping: Stopping,
    /// The chat service (each game's chat is opened with the game).
    pub chats: Arc<Chats>,
    /// Where each game's end is told once committed.
    pub ends: Arc<Ends>,
}

/// Every game the server holds.
pub(crate) struct Games {
    config: Arc<Config>,
    store: Store,
    entropy: Arc<dyn Entropy>,
    quotas: Arc<Quotas>,
    players: Arc<Players>,
    pauses: Arc<Pauses>,
    readiness: Arc<Readiness>,
    stopping: Stopping,
    tables: Tables,
    chats: Arc<Chats>,
    ends: Arc<Ends>,
    next_subscriber: AtomicU64,
}

impl Games {
    /// The games service of `parts`, holding `unfinished` (restored; a game the database
    /// holds but the rules refuse is quarantined, and said in the log), their timers and
    /// bots started.
    ///
    /// Call inside a tokio runtime.
    #[must_use]
    pub(crate) fn new(parts: Parts, unfinished: Vec<Saved>) -> Arc<Games> {
        let games = Arc::new(Games {
            config: parts.config,
            store: parts.store,
            entropy: parts.entropy,
            quotas: parts.quotas,
            players: parts.players,
            pauses: parts.pauses,
            readiness: parts.readiness,
            stopping: parts.stopping,
            tables: Tables::default(),
            chats: parts.chats,
            ends: parts.ends,
            next_subscriber: AtomicU64::new(1),
        });
        for saved in unfinished {
            let id = saved.spec.id.clone();
            let origin = Origin {
                creator: saved.creator,
                ips: saved.ips,
            };
            match games.restore(saved) {
                Ok((room, chat)) => {
                    // The creator's count of unfinished games survives the restart.
                    if let Some(ip) = origin.creator {
                        games.quotas.restore_game(ip);
                    }
                    games.admit(room, origin, chat);
                }
                Err(e) => {
                    let store = games.store.clone();
                    let write = quarantine(&id, &e);
                    tokio::spawn(async move { store.write(vec![write]).await });
                }
            }
        }
        games
    }

    /// The tables in memory, and their counts.
    #[must_use]
    pub(crate) fn tables(&self) -> &Tables {
        &self.tables
    }

    fn restore(&self, mut saved: Saved) -> Result<(Room, SavedChat), RestoreError> {
        self.tables.count_restored();
        saved.spec.bot_accounts = self.players.bot_accounts(&saved.spec.names);
        let chat = std::mem::take(&mut saved.chat);
        let room = Room::restore(
            saved,
            self.config.limits.abandon_grace,
            self.config.bot_budget,
            Instant::now(),
        )?;
        Ok((room, chat))
    }

    /// Puts a room in memory (unless one is there already), created by `creator`, its seats
    /// taken from `ips`, its chat so far `chat`, and starts its tasks.
    fn admit(self: &Arc<Games>, mut room: Room, origin: Origin, chat: SavedChat) -> Arc<Table> {
        room.expire_setup(
            self.config.limits.setup_expiry,
            crate::clock::unix_ms(),
            Instant::now(),
        );
        let id = room.spec().id.clone();
        let over = room.phase().finished();
        let has_bot = room
            .spec()
            .players
            .iter()
            .any(|p| matches!(p, crate::room::Player::Bot(_)));
        let held = self.tables.hold(&id, || {
            let chat = self.chats.open(room.spec(), chat);
            Arc::new(Table::new(room, origin, chat, &self.config.limits))
        });
        let table = match held {
            Ok(table) => table,
            Err(existing) => return existing,
        };
        if let Ok(mut state) = table.state.try_lock() {
            self.tables.recount(&table, &mut state);
        }
        if !over {
            tokio::spawn(Arc::clone(self).run_timer(Arc::clone(&table)));
            if has_bot {
                tokio::spawn(Arc::clone(self).run_bot(Arc::clone(&table)));
            }
        }
        table
    }

    /// The game `id`, from memory or from the database.
    async fn table(self: &Arc<Games>, id: &str) -> Result<Option<Arc<Table>>, GameError> {
        if !plausible_id(id) {
            return Ok(None);
        }
        if let Some(table) = self.tables.get(id) {
            return Ok(Some(table));
        }
        #[cfg(feature = "nodes")]
        if let Place::At(url) = self.place(id).await? {
            return Err(GameError::Elsewhere(url));
        }
        self.load_here(id).await
    }

    /// The game `id` loaded from the database into memory (this node owns it).
    async fn load_here(self: &Arc<Games>, id: &str) -> Result<Option<Arc<Table>>, GameError> {
        if let Some(table) = self.tables.get(id) {
            return Ok(Some(table));
        }
        let Some(saved) = self.store.load(id).await? else {
            return Ok(None);
        };
        // An unfinished game reloaded (after a refused write) still holds its creator's
        // slot: it is given back when the game ends.
        let origin = Origin {
            creator: saved.creator,
            ips: saved.ips,
        };
        match self.restore(saved) {
            Ok((room, chat)) => Ok(Some(self.admit(room, origin, chat))),
            // A stored game the rules refuse is quarantined (if the start's own quarantine
            // of it is not committed yet, this one is) and answers as no game.
            Err(e) => {
                self.store.write(vec![quarantine(id, &e)]).await?;
                Ok(None)
            }
        }
    }
}

impl Games {
    /// What `look` makes of game `id`'s room and the time in it (the server's pauses taken
    /// out), under the room's lock: `None` for no such game. A finished game is let go from
    /// memory after it is read, as after any request.
    ///
    /// # Errors
    /// `GameError::Elsewhere` (another node holds it, feature `nodes`), or the database's error.
    pub(crate) async fn look<T>(
        self: &Arc<Games>,
        id: &str,
        look: impl FnOnce(&Room, Instant) -> T,
    ) -> Result<Option<T>, GameError> {
        let Some(table) = self.table(id).await? else {
            return Ok(None);
        };
        let mut state = table.state.lock().await;
        if state.gone {
            return Ok(None);
        }
        let now = self.pauses.now(&mut state.room);
        let seen = look(&state.room, now);
        self.tables.evict_if_done(&table, &state);
        Ok(Some(seen))
    }
}

/// The write that leaves out stored game `id`, which the rules refuse (`why`), from now on;
/// said in the log.
fn quarantine(id: &str, why: &RestoreError) -> Write {
    tracing::warn!(game = %id, error = %why, "game not restored: quarantined");
    Write::Game(GameWrite::Quarantine {
        game: id.to_owned(),
        reason: why.to_string(),
    })
}

/// What a room keeps in its row once it is over: its summary and record, and when it ended;
/// each named player's result, unless a side made fewer than
/// [`crate::room::PLIES_TO_COUNT`] plies (then
/// the game is neither rated nor counted); and the strikes it earns (an abort once both
/// formations were in, a resignation before the resigner's second ply).
fn ending(room: &Room) -> Option<Settlement> {
    let events = room.events();
    let plies = room.plies_made();
    let name = |side: Side| room.spec().names[side.index()].clone();
    let aborted = room.phase() == Phase::Aborted;
    let played = room.played_enough();
    let struck = events.iter().find_map(|e| match e {
        Event::Aborted {
            reason: AbortReason::Abort,
            side,
        } if Side::ALL.iter().all(|&s| room.setup(s).is_some()) => Some(*side),
        Event::Over {
            status:
                Status::Won {
                    winner,
                    reason: WinReason::Resignation,
                },
            ..
        } if plies[winner.other().index()] < PLIES_TO_COUNT => Some(winner.other()),
        _ => None,
    });
    let record = if aborted { None } else { Some(room.record()?) };
    let results = match room.status().winner() {
        _ if aborted || !played => Vec::new(),
        winner => Side::ALL
            .into_iter()
            .filter_map(|side| {
                let result = match winner {
                    None => GameResult::Drawn,
                    Some(w) if w == side => GameResult::Won,
                    Some(_) => GameResult::Lost,
                };
                Some((name(side)?, result))
            })
            .collect(),
    };
    let rated = room.spec().rated && played && !aborted;
    let mut summary = room.summary(Instant::now());
    summary.rated = rated;
    summary.unrated = room.unrated();
    Some(Settlement {
        end: room.end(),
        ending: Ending {
            summary: serde_json::to_string(&summary).ok()?,
            record,
        },
        ended_ms: crate::clock::unix_ms(),
        rated,
        unrated: (room.spec().rated && !rated && !aborted).then_some(Unrated::Early.word()),
        results,
        strikes: struck.and_then(name).into_iter().collect(),
    })
}
