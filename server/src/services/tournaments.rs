//! The tournaments: made, joined, directed and played. Each tournament is a
//! [`Tournament`] value held in memory by the node that owns the lobby, written whole to the
//! database after every change (before anyone hears of it), and read back by whichever node
//! owns the lobby next. It is *told* that a game ended (the games service publishes each
//! end, here or on another node: [`super::ends`]) and counts it at once, pairing what that
//! makes due. A tick a second pairs the rounds whose cutoff has come, makes their games and
//! finishes the tournaments that are done; it looks at the games' rows for ends only as a
//! backstop (once a minute, when this node first holds the tournaments, and after ends
//! were missed).
//!
//! Whether a game is sealed is answered from memory on the node that holds the
//! tournaments (a running tournament's games and their players); elsewhere from the
//! database.
//!
//! A tournament game is made with both seats named and taken (its players hear their tokens
//! on their player sockets, or take their seats again with their keys), its setup time
//! running to the round's cutoff: a side whose formation is not in by then loses by default,
//! a game aborted by a side is a default to the other. Its games are unlisted and sealed
//! until it finishes.

use std::collections::{BTreeSet, HashMap};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use salpakan::Side;
use thiserror::Error;
use tokio::sync::Mutex;

use super::ends::{Ends, Told};
use super::games::{GameError, Games, Seating, Settings as GameSettings, lock};
use super::player_sockets::PlayerSockets;
use super::players::Players;
use super::stopping::Stopping;
use crate::config::Config;
use crate::room::End;
use crate::secret::{self, Entropy, ID_BYTES, TOKEN_BYTES};
use crate::store::{LogWrite, TournamentWrite};
use crate::store::{Store, StoreError, Write};
use crate::tournament::event::{
    Kind, ResultWords, Settings, Status, ToMake, Tournament, TournamentError,
};
use crate::wire::{
    AbortReason, CreateTournament, DecideRequest, LobbyMessage, SettingsRequest, SideWord,
    TournamentEntry, TournamentList, TournamentReply,
};

/// Why the tournaments service refused a request.
#[derive(Debug, Error)]
pub(crate) enum TournamentsError {
    /// No such tournament.
    #[error("no such tournament")]
    NotFound,
    /// The tournament refused it.
    #[error(transparent)]
    Refused(#[from] TournamentError),
    /// Past the tournaments the server (or the player) may have open.
    #[error("{0}")]
    TooMany(String),
    /// A game of a tournament not finished, asked by someone not playing it.
    #[error("this game is sealed until its tournament ends: only its players may see it")]
    Sealed,
    /// A game's settings refused.
    #[error(transparent)]
    Game(#[from] GameError),
    /// The database failed (the cause is logged, never sent).
    #[error("the server could not do that")]
    Store(#[from] StoreError),
}

/// The most tournaments not finished at once, and for one creator.
pub(crate) const MAX_OPEN: usize = 200;
/// The most tournaments not finished one player may have created.
pub(crate) const MAX_OPEN_PER_CREATOR: usize = 3;
/// Tournaments not finished made from one client address (as games and seeks are bounded
/// per address): a few accounts of one address cannot take every slot.
pub(crate) const MAX_OPEN_PER_ADDRESS: usize = 6;
/// The finished tournaments `GET /api/tournaments` lists (the newest).
pub(crate) const FINISHED_LISTED: usize = 50;
/// How often the tick runs.
pub(crate) const TICK: Duration = Duration::from_secs(1);
/// How many ticks apart the tick looks at the games' rows for ends it was not told.
pub(crate) const RECOVER_EVERY: u32 = 60;

/// A sealed game as the tournaments service knows it: whether its tournament lets it be
/// watched, and its two players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Seal {
    /// Whether spectators may watch it (its `over` then carries no record).
    pub watching: bool,
    /// Its players' names, White's and Black's.
    pub names: [String; 2],
}

/// What the tournaments service is made of.
pub(crate) struct Parts {
    /// The settings.
    pub config: Arc<Config>,
    /// The database.
    pub store: Store,
    /// Where ids and tokens come from.
    pub entropy: Arc<dyn Entropy>,
    /// The games (a pairing makes one).
    pub games: Arc<Games>,
    /// The players (ratings, titles).
    pub players: Arc<Players>,
    /// Who is online (a pairing is told on the players' sockets).
    pub sockets: Arc<PlayerSockets>,
    /// The games' ends, as they are committed.
    pub ends: Arc<Ends>,
    /// The stop signal.
    pub stopping: Stopping,
}

/// The tournaments service.
pub(crate) struct Tournaments {
    parts: Parts,
    /// The tournaments held here (those not finished), by id; `None` until read from the
    /// database by the node that owns them.
    held: Mutex<Option<HashMap<String, Tournament>>>,
    /// The newest finished tournaments' entries, as the list shows them (read again when
    /// one finishes): the list then parses nothing.
    finished: std::sync::Mutex<Option<Vec<TournamentEntry>>>,
    /// The games of the tournaments held here, each with its seal (`None` while the
    /// tournaments are not held here): read without waiting for a tournament's write.
    seals: std::sync::Mutex<Option<HashMap<String, Seal>>>,
    /// Whether the held tournaments are to be looked at for ends not told (read anew, or
    /// ends were missed).
    recover: std::sync::atomic::AtomicBool,
    /// The numbers of each held tournament's log lines as the database holds them since this
    /// node last wrote it (none: its next write writes the whole log).
    logged: std::sync::Mutex<HashMap<String, BTreeSet<u64>>>,
}

fn now_ms() -> u64 {
    crate::clock::unix_ms()
}

impl Tournaments {
    /// The service, its tick running until the server stops.
    ///
    /// Call inside a tokio runtime.
    #[must_use]
    pub(crate) fn start(parts: Parts) -> Arc<Tournaments> {
        let ends = parts.ends.subscribe();
        let service = Arc::new(Tournaments {
            parts,
            held: Mutex::new(None),
            finished: std::sync::Mutex::new(None),
            seals: std::sync::Mutex::new(None),
            recover: std::sync::atomic::AtomicBool::new(true),
            logged: std::sync::Mutex::new(HashMap::new()),
        });
        tokio::spawn(Arc::clone(&service).run_ticks());
        tokio::spawn(Arc::clone(&service).run_told(ends));
        service
    }

    async fn run_ticks(self: Arc<Tournaments>) {
        let mut stop = self.parts.stopping.listen();
        let mut ticks: u32 = 0;
        while stop.sleep(TICK).await {
            ticks = ticks.wrapping_add(1);
            if ticks.is_multiple_of(RECOVER_EVERY) {
                self.recover_later();
            }
            if let Err(e) = self.tick().await {
                tracing::warn!(error = %e, "tournaments' tick");
            }
        }
    }

    /// Counts each game's end as it is told, until the server stops.
    async fn run_told(self: Arc<Tournaments>, mut ends: super::ends::Subscriber) {
        let mut stop = self.parts.stopping.listen();
        while let Some(told) = stop.or(ends.recv()).await {
            match told {
                Told::Ended(ended) => {
                    if let Err(e) = self.told(&ended.game, ended.end).await {
                        tracing::warn!(game = %ended.game, error = %e, "a game's end not counted");
                        self.recover_later();
                    }
                }
                Told::Missed => self.recover_later(),
            }
        }
    }

    /// The next tick looks at the games' rows for ends not told.
    fn recover_later(&self) {
        self.recover
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Counts game `game`'s `end` in the running tournament that plays it, if one held here
    /// does, and advances that tournament.
    async fn told(&self, game: &str, end: End) -> Result<(), TournamentsError> {
        let mut held = self.held.lock().await;
        let Some(map) = held.as_mut() else {
            return Ok(());
        };
        let Some((id, at)) = map.values().find_map(|t| {
            let running = t.status == Status::Running;
            let at = t.in_play().into_iter().find(|(_, g)| g == game)?.0;
            running.then(|| (t.id.clone(), at))
        }) else {
            return Ok(());
        };
        if let Some(mut t) = map.get(&id).cloned() {
            t.game_ended(at, result_of(end), now_ms());
            self.keep(map, &t).await?;
            self.advance(map, &id, false).await;
        }
        Ok(())
    }

    /// Whether game `id` is sealed, from memory: `Some(None)` for a game of no running
    /// tournament held here, `Some(Some(seal))` for one of a running tournament's, `None`
    /// where this node does not hold the tournaments (ask the database).
    #[must_use]
    pub(crate) fn seal_of(&self, id: &str) -> Option<Option<Seal>> {
        let seals = self
            .seals
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        seals.as_ref().map(|seals| seals.get(id).cloned())
    }

    /// Refuses with [`TournamentsError::Sealed`] a request for game `id` of a tournament not
    /// yet finished, unless it comes from one of its two players: by a seat's `token`, or by
    /// the `player` (with its key) named at a seat; a spectator's socket (`watch`) passes too
    /// if the tournament lets its games be watched (its `over` then carries no record: see
    /// [`crate::room::Spec::sealed`]). Any other game passes. Answered from memory: the game
    /// (if it is in memory) and the tournaments held here; the database is read only where
    /// neither knows (another node holds the tournaments), or for a finished game's tokens.
    ///
    /// # Errors
    /// [`TournamentsError::Sealed`], or the database's error.
    pub(crate) async fn unsealed(
        &self,
        id: &str,
        (token, player): (Option<&str>, Option<&str>),
        watch: bool,
    ) -> Result<(), TournamentsError> {
        if !crate::secret::plausible_id(id) {
            return Ok(());
        }
        let store = &self.parts.store;
        let seats = self.parts.games.seats(id).await;
        let (watching, mut names) = match (seats.as_ref().map(|s| s.sealed), self.seal_of(id)) {
            (Some(false), _) => return Ok(()),
            (_, Some(Some(seal))) => (seal.watching, Some(seal.names.map(Some))),
            // Not in memory, and of no running tournament held here.
            (None, Some(None)) => return Ok(()),
            _ => match store.tournament_of(id).await? {
                Some(of) if !of.finished => (of.watching, None),
                _ => return Ok(()),
            },
        };
        if watch && watching {
            return Ok(());
        }
        let mut tokens = None;
        if let Some(seats) = seats {
            names.get_or_insert(seats.names);
            tokens = Some(seats.tokens);
        }
        if names.is_none() || (token.is_some() && tokens.is_none()) {
            let Some(found) = store.finished_chat(id).await? else {
                return Err(TournamentsError::Sealed);
            };
            names.get_or_insert(found.names);
            tokens.get_or_insert(found.tokens);
        }
        let by_name = player.is_some_and(|p| {
            names
                .iter()
                .flatten()
                .flatten()
                .any(|n| n.eq_ignore_ascii_case(p))
        });
        let by_token = token
            .zip(tokens)
            .is_some_and(|(t, tokens)| crate::secret::seat_of(&tokens, t).is_some());
        if by_name || by_token {
            Ok(())
        } else {
            Err(TournamentsError::Sealed)
        }
    }

    /// The seals of the games of `map`'s tournaments (none finished), for [`Self::seal_of`].
    fn reseal(&self, map: Option<&HashMap<String, Tournament>>) {
        let seals = map.map(|map| {
            map.values()
                .flat_map(|t| {
                    t.games().filter_map(move |(_, board)| {
                        let game = board.game.clone()?;
                        let names = [board.white, board.black].map(|e| t.entrants[e].name.clone());
                        let watching = t.settings.watching;
                        Some((game, Seal { watching, names }))
                    })
                })
                .collect()
        });
        *self
            .seals
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = seals;
    }

    /// Whether this node owns the tournaments (the lobby's owner; a server alone always).
    async fn owner_here(&self) -> bool {
        #[cfg(feature = "nodes")]
        {
            use super::games::Place;
            matches!(
                self.parts.games.place(crate::store::LOBBY).await,
                Ok(Place::Here)
            )
        }
        #[cfg(not(feature = "nodes"))]
        true
    }

    /// The tournaments held here, read from the database first if this node has not yet.
    async fn held(
        &self,
    ) -> Result<tokio::sync::MutexGuard<'_, Option<HashMap<String, Tournament>>>, TournamentsError>
    {
        let mut held = self.held.lock().await;
        if held.is_none() {
            let mut map = HashMap::new();
            for body in self.parts.store.tournaments(0).await? {
                let t: Tournament =
                    serde_json::from_str(&body).map_err(|e| StoreError::Corrupt(e.to_string()))?;
                if t.status != Status::Finished {
                    map.insert(t.id.clone(), t);
                }
            }
            self.reseal(Some(&map));
            self.recover_later();
            *held = Some(map);
        }
        Ok(held)
    }

    /// Writes `t`: its body but its log, and what changed in its log since this node last
    /// wrote it (all of it the first time); with `finished`, its games are listed from now
    /// on. Once the write is committed, [`Tournaments::wrote`] notes its log as written.
    fn write_of(&self, t: &Tournament) -> Write {
        let line = |l: &crate::tournament::rows::LogLine| {
            (l.n, serde_json::to_string(l).unwrap_or_default())
        };
        let log = match lock(&self.logged).get(&t.id) {
            None => LogWrite::All(t.log.iter().map(line).collect()),
            Some(written) => {
                let now: BTreeSet<u64> = t.log.iter().map(|l| l.n).collect();
                LogWrite::Change {
                    said: t
                        .log
                        .iter()
                        .filter(|l| !written.contains(&l.n))
                        .map(line)
                        .collect(),
                    dropped: written.difference(&now).copied().collect(),
                }
            }
        };
        let mut body = serde_json::to_value(t).unwrap_or_default();
        if let Some(fields) = body.as_object_mut() {
            fields.remove("log");
        }
        Write::Tournament(TournamentWrite::Put {
            id: t.id.clone(),
            status: t.status.word(),
            created_ms: t.created_ms,
            body: body.to_string(),
            finished: t.status == Status::Finished,
            log,
        })
    }

    /// Notes `t`'s log as the database holds it now (its write committed); a finished
    /// tournament is no longer written.
    fn wrote(&self, t: &Tournament) {
        let mut logged = lock(&self.logged);
        if t.status == Status::Finished {
            logged.remove(&t.id);
        } else {
            logged.insert(t.id.clone(), t.log.iter().map(|l| l.n).collect());
        }
    }

    /// `GET /api/tournaments`: those held (upcoming and running, oldest first) and the newest
    /// finished, neither read from the database but once.
    ///
    /// # Errors
    /// The database's error.
    pub(crate) async fn list(&self) -> Result<TournamentList, TournamentsError> {
        let mut open: Vec<TournamentEntry> = {
            let held = self.held().await?;
            let mut open: Vec<&Tournament> = held.iter().flat_map(HashMap::values).collect();
            open.sort_by(|a, b| (a.created_ms, &a.id).cmp(&(b.created_ms, &b.id)));
            open.into_iter().map(TournamentEntry::of).collect()
        };
        let cached = self.finished_entries().clone();
        let finished = match cached {
            Some(entries) => entries,
            None => {
                let mut entries = Vec::new();
                for body in self.parts.store.tournaments(FINISHED_LISTED).await? {
                    let t: Tournament = serde_json::from_str(&body)
                        .map_err(|e| StoreError::Corrupt(e.to_string()))?;
                    if t.status == Status::Finished {
                        entries.push(TournamentEntry::of(&t));
                    }
                }
                *self.finished_entries() = Some(entries.clone());
                entries
            }
        };
        open.extend(finished);
        Ok(TournamentList { tournaments: open })
    }

    fn finished_entries(&self) -> std::sync::MutexGuard<'_, Option<Vec<TournamentEntry>>> {
        self.finished
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// `GET /api/tournaments/{id}`.
    ///
    /// # Errors
    /// [`TournamentsError::NotFound`], or the database's error.
    pub(crate) async fn get(&self, id: &str) -> Result<TournamentReply, TournamentsError> {
        if let Some(t) = self.held().await?.as_ref().and_then(|m| m.get(id)) {
            return Ok(TournamentReply::of(t));
        }
        if !crate::secret::plausible_id(id) {
            return Err(TournamentsError::NotFound);
        }
        let body = self
            .parts
            .store
            .tournament(id)
            .await?
            .ok_or(TournamentsError::NotFound)?;
        let t: Tournament =
            serde_json::from_str(&body).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        Ok(TournamentReply::of(&t))
    }

    /// `POST /api/tournaments` by `player`.
    ///
    /// # Errors
    /// [`TournamentsError::Refused`] for settings out of range, [`TournamentsError::TooMany`]
    /// past the open tournaments, or the database's error.
    pub(crate) async fn create(
        &self,
        player: &str,
        request: CreateTournament,
        ip: IpAddr,
    ) -> Result<TournamentReply, TournamentsError> {
        // The games' settings are checked as a game's would be.
        let game = GameSettings::check(
            SettingsRequest {
                rules: request.rules,
                clock: request.clock,
                rated: request.rated,
                listed: Some(false),
                setup_ms: None,
            },
            &self.parts.config.limits,
        )?;
        let settings = Settings {
            name: request.name,
            kind: request.kind,
            rounds: request.rounds.unwrap_or(match request.kind {
                Kind::Series => 7,
                _ => 5,
            }),
            target: request.target.unwrap_or(4),
            minutes: request.minutes.unwrap_or(60),
            round_ms: request.round_ms.unwrap_or(3_600_000),
            clock: game.clock,
            setup_rows: Some(i64::from(game.rules.setup_rows())),
            move_limit: Some(i64::from(game.rules.move_limit().unwrap_or(0))),
            rated: game.rated,
            eligibility: request.eligibility.unwrap_or_default(),
            max_entrants: request.max_entrants.unwrap_or(match request.kind {
                Kind::RoundRobin => crate::tournament::settings::MAX_ROUND_ROBIN,
                _ => 64,
            }),
            watching: request.watching.unwrap_or(false),
        };
        let min_round = u64::try_from(self.parts.config.limits.min_setup.as_millis()).unwrap_or(0);
        settings.check(min_round)?;
        let mut held = self.held().await?;
        let map = held.get_or_insert_with(HashMap::new);
        if map.len() >= MAX_OPEN {
            return Err(TournamentsError::TooMany(format!(
                "at most {MAX_OPEN} tournaments not finished at once"
            )));
        }
        let mine = map
            .values()
            .filter(|t| {
                t.directors
                    .first()
                    .is_some_and(|d| d.eq_ignore_ascii_case(player))
            })
            .count();
        if mine >= MAX_OPEN_PER_CREATOR {
            return Err(TournamentsError::TooMany(format!(
                "at most {MAX_OPEN_PER_CREATOR} tournaments of yours not finished"
            )));
        }
        let address = ip.to_string();
        let from_here = map
            .values()
            .filter(|t| t.made_from.as_deref() == Some(address.as_str()))
            .count();
        if from_here >= MAX_OPEN_PER_ADDRESS {
            return Err(TournamentsError::TooMany(format!(
                "at most {MAX_OPEN_PER_ADDRESS} tournaments not finished from one address"
            )));
        }
        let id = secret::random_hex(&*self.parts.entropy, ID_BYTES);
        let directors = request.directors.unwrap_or_default();
        let mut t = Tournament::new(id.clone(), settings, player, &directors, now_ms())?;
        t.made_from = Some(address);
        self.parts.store.write(vec![self.write_of(&t)]).await?;
        self.wrote(&t);
        let reply = TournamentReply::of(&t);
        map.insert(id, t);
        Ok(reply)
    }

    /// Changes tournament `id` with `change` (on a copy: written, then kept; refused, nothing
    /// changes), then pairs and makes what is due.
    async fn change(
        &self,
        id: &str,
        change: impl FnOnce(&mut Tournament) -> Result<(), TournamentError>,
    ) -> Result<TournamentReply, TournamentsError> {
        let mut held = self.held().await?;
        let map = held.get_or_insert_with(HashMap::new);
        let Some(mut t) = map.get(id).cloned() else {
            drop(held);
            return Err(self.missing(id).await);
        };
        change(&mut t)?;
        self.parts.store.write(vec![self.write_of(&t)]).await?;
        self.wrote(&t);
        map.insert(id.to_owned(), t);
        self.advance(map, id, false).await;
        let t = map.get(id).cloned();
        drop(held);
        match t {
            Some(t) => Ok(TournamentReply::of(&t)),
            None => self.get(id).await,
        }
    }

    /// The refusal for a tournament not held here: over, or no such one.
    async fn missing(&self, id: &str) -> TournamentsError {
        match self.parts.store.tournament(id).await {
            Ok(Some(_)) => TournamentError::WrongState("the tournament is over".into()).into(),
            Ok(None) => TournamentsError::NotFound,
            Err(e) => e.into(),
        }
    }

    /// `POST /api/tournaments/{id}/register` by `player` from client address `ip` (its games'
    /// seats are made from it).
    ///
    /// # Errors
    /// The tournament's refusal, [`TournamentsError::NotFound`], or the database's error.
    pub(crate) async fn register(
        &self,
        id: &str,
        player: &str,
        ip: IpAddr,
    ) -> Result<TournamentReply, TournamentsError> {
        let (rating, rd, bot) = self
            .parts
            .players
            .with_row(player, |row| (row.rating, row.rd, row.bot))
            .unwrap_or((1500.0, 350.0, false));
        if bot {
            return Err(TournamentError::NotEligible(
                "bots do not play tournaments: they are for people".into(),
            )
            .into());
        }
        let title = crate::rating::title(rating, rd);
        self.change(id, |t| {
            t.register(player, (rating, title), now_ms())?;
            t.note_address(player, ip);
            Ok(())
        })
        .await
    }

    /// `POST /api/tournaments/{id}/withdraw` by `player`.
    ///
    /// # Errors
    /// The tournament's refusal, [`TournamentsError::NotFound`], or the database's error.
    pub(crate) async fn withdraw(
        &self,
        id: &str,
        player: &str,
    ) -> Result<TournamentReply, TournamentsError> {
        self.change(id, |t| t.withdraw(player, now_ms())).await
    }

    /// `POST /api/tournaments/{id}/start` by director `player`: the first round is paired
    /// and its games made at once.
    ///
    /// # Errors
    /// The tournament's refusal, [`TournamentsError::NotFound`], or the database's error.
    pub(crate) async fn begin(
        &self,
        id: &str,
        player: &str,
    ) -> Result<TournamentReply, TournamentsError> {
        self.change(id, |t| t.start(player, now_ms())).await
    }

    /// `POST /api/tournaments/{id}/pause` (`paused`) or `resume` by director `player`.
    ///
    /// # Errors
    /// The tournament's refusal, [`TournamentsError::NotFound`], or the database's error.
    pub(crate) async fn pause(
        &self,
        id: &str,
        player: &str,
        paused: bool,
    ) -> Result<TournamentReply, TournamentsError> {
        self.change(id, |t| t.pause(player, paused, now_ms())).await
    }

    /// `POST /api/tournaments/{id}/extend` by director `player`: the round's cutoff, and the
    /// setup time of its games not started, `minutes` later.
    ///
    /// # Errors
    /// The tournament's refusal, [`TournamentsError::NotFound`], or the database's error.
    pub(crate) async fn extend(
        &self,
        id: &str,
        player: &str,
        minutes: u32,
    ) -> Result<TournamentReply, TournamentsError> {
        let mut moved = (0, Vec::new());
        let reply = self
            .change(id, |t| {
                moved = t.extend(player, minutes, now_ms())?;
                Ok(())
            })
            .await?;
        let (cutoff, games) = moved;
        for game in games {
            if let Err(e) = self.parts.games.extend_setup(&game, cutoff).await {
                tracing::warn!(game = %game, error = %e, "a tournament game's setup time not moved");
            }
        }
        Ok(reply)
    }

    /// `POST /api/tournaments/{id}/decide` by director `player`: a default or a void.
    ///
    /// # Errors
    /// The tournament's refusal, [`TournamentsError::NotFound`], or the database's error.
    pub(crate) async fn decide(
        &self,
        id: &str,
        player: &str,
        request: DecideRequest,
    ) -> Result<TournamentReply, TournamentsError> {
        let result = match (request.result.as_str(), request.present.as_deref()) {
            ("void", None) => ResultWords::Void,
            ("default", None | Some("none")) => ResultWords::Default { present: None },
            ("default", Some("white")) => ResultWords::Default {
                present: Some(Side::White),
            },
            ("default", Some("black")) => ResultWords::Default {
                present: Some(Side::Black),
            },
            _ => {
                return Err(TournamentError::Invalid(
                    "result must be \"default\" (present: \"white\", \"black\" or none) or \
                     \"void\""
                        .into(),
                )
                .into());
            }
        };
        let at = (
            request
                .round
                .checked_sub(1)
                .ok_or(TournamentError::NoBoard)?,
            request
                .board
                .checked_sub(1)
                .ok_or(TournamentError::NoBoard)?,
        );
        // Whether the board's game ended, from its row (its end is committed before this
        // service is told it).
        let game = {
            let held = self.held().await?;
            let board = held.as_ref().and_then(|map| map.get(id)?.board_game(at));
            board.map(str::to_owned)
        };
        let over = match game {
            Some(game) => self.parts.store.finished(&game).await?.is_some(),
            None => false,
        };
        let decision = (result, request.reason.as_deref());
        self.change(id, |t| t.direct(player, at, decision, over, now_ms()))
            .await
    }

    /// One tick: when this node owns the tournaments, each running one is advanced.
    ///
    /// # Errors
    /// The database's error.
    pub(crate) async fn tick(&self) -> Result<(), TournamentsError> {
        if !self.owner_here().await {
            // Another node owns them: read them again should this node own them later.
            let mut held = self.held.lock().await;
            if held.take().is_some() {
                self.reseal(None);
                lock(&self.logged).clear();
            }
            return Ok(());
        }
        let mut held = self.held().await?;
        let map = held.get_or_insert_with(HashMap::new);
        let recover = self
            .recover
            .swap(false, std::sync::atomic::Ordering::Relaxed);
        let ids: Vec<String> = map
            .values()
            .filter(|t| t.status == Status::Running)
            .map(|t| t.id.clone())
            .collect();
        for id in ids {
            self.advance(map, &id, recover).await;
        }
        self.expire(map).await;
        Ok(())
    }

    /// Advances tournament `id`: with `recover`, its games that ended and were not told
    /// decided from their rows; its due rounds paired and their games made, finished when
    /// done. Errors are logged; the next tick tries again (and recovers).
    async fn advance(&self, map: &mut HashMap<String, Tournament>, id: &str, recover: bool) {
        if let Err(e) = self.advance_or_fail(map, id, recover).await {
            tracing::warn!(tournament = %id, error = %e, "tournament not advanced");
            self.recover_later();
        }
    }

    async fn advance_or_fail(
        &self,
        map: &mut HashMap<String, Tournament>,
        id: &str,
        recover: bool,
    ) -> Result<(), TournamentsError> {
        let Some(mut t) = map.get(id).cloned() else {
            return Ok(());
        };
        if t.status != Status::Running {
            return Ok(());
        }
        let before = t.clone();
        let now = now_ms();
        if recover {
            self.recover_ends(&mut t, now).await?;
        }
        t.pair(now);
        let missing = t.unmade();
        if t != before {
            self.keep(map, &t).await?;
        }
        for make in missing {
            self.make_game(map, &mut t, &make).await?;
        }
        if t.finish_if_done(now_ms()) {
            self.keep(map, &t).await?;
            tracing::info!(tournament = %id, "tournament finished");
        }
        Ok(())
    }

    /// Ends the upcoming tournaments whose time to start is past
    /// ([`Tournament::expire_if_due`]); a write refused is tried again at the next tick.
    async fn expire(&self, map: &mut HashMap<String, Tournament>) {
        let now = now_ms();
        let due: Vec<String> = map
            .values()
            .filter(|t| t.expiry(now).is_some())
            .map(|t| t.id.clone())
            .collect();
        for id in due {
            let Some(mut t) = map.get(&id).cloned() else {
                continue;
            };
            t.expire_if_due(now);
            match self.keep(map, &t).await {
                Ok(()) => tracing::info!(tournament = %t.id, "tournament expired"),
                Err(e) => tracing::warn!(tournament = %t.id, error = %e, "not expired yet"),
            }
        }
    }

    /// Writes `t`, then holds it (a finished one leaves
    /// memory).
    async fn keep(
        &self,
        map: &mut HashMap<String, Tournament>,
        t: &Tournament,
    ) -> Result<(), TournamentsError> {
        self.parts.store.write(vec![self.write_of(t)]).await?;
        self.wrote(t);
        if t.status == Status::Finished {
            map.remove(&t.id);
            *self.finished_entries() = None;
        } else {
            map.insert(t.id.clone(), t.clone());
        }
        self.reseal(Some(map));
        Ok(())
    }

    /// Makes the game of board `make` of `t`, with `t` (noting the game) written in the
    /// game's own transaction; tells both players their seats.
    async fn make_game(
        &self,
        map: &mut HashMap<String, Tournament>,
        t: &mut Tournament,
        make: &ToMake,
    ) -> Result<(), TournamentsError> {
        let entropy = &*self.parts.entropy;
        let board = t.rounds[make.round].boards[make.board].clone();
        let cutoff_ms = t.rounds[make.round].cutoff_ms;
        let now = now_ms();
        let id = secret::random_hex(entropy, ID_BYTES);
        let tokens = [(); 2].map(|()| secret::random_hex(entropy, TOKEN_BYTES));
        let mut seating = Seating::new(id.clone(), board.first);
        seating.tokens = [0, 1].map(|i| Some(secret::digest(&tokens[i])));
        seating.names = [board.white, board.black].map(|e| Some(t.entrants[e].name.clone()));
        // Each seat's address as its player registered: the game is rated or not by the
        // rules of any game, and counts in the address's rated games a day.
        seating.ips = [board.white, board.black].map(|e| t.address_of(&t.entrants[e].name));
        let rules = salpakan::Rules::from_numbers(
            t.settings.setup_rows.unwrap_or(3),
            t.settings.move_limit.unwrap_or(0),
        )
        .unwrap_or_default();
        let settings = GameSettings {
            rules,
            clock: t.settings.clock,
            // The setup time runs to the round's cutoff, in whole seconds (a game made as its
            // round is paired has the round's time to the second, whenever in that second it
            // was made), at least the server's shortest.
            setup_ms: (cutoff_ms.saturating_sub(now).div_ceil(1000) * 1000)
                .max(u64::try_from(self.parts.config.limits.min_setup.as_millis()).unwrap_or(0)),
            rated: t.settings.rated,
            listed: false,
            sealed: true,
        };
        let mut next = t.clone();
        next.made((make.round, make.board), id.clone());
        let also = vec![
            Write::Tournament(TournamentWrite::Game {
                game: id.clone(),
                tournament: t.id.clone(),
                watching: t.settings.watching,
            }),
            self.write_of(&next),
        ];
        self.parts
            .games
            .open_game(&settings, seating, None, also)
            .await?;
        self.wrote(&next);
        *t = next;
        map.insert(t.id.clone(), t.clone());
        self.reseal(Some(map));
        for side in Side::ALL {
            let entrant = if side == Side::White {
                board.white
            } else {
                board.black
            };
            self.parts.sockets.tell(
                &t.entrants[entrant].name,
                &LobbyMessage::TournamentGame {
                    tournament: t.id.clone(),
                    round: make.round + 1,
                    game: id.clone(),
                    side: SideWord(side),
                    token: tokens[side.index()].clone(),
                    cutoff_ms,
                },
            );
        }
        Ok(())
    }

    /// Decides `t`'s games in play that ended without its being told: one read tells which
    /// of its games have ended; only those are read whole, their ends taken from their logs
    /// as the games service took them.
    async fn recover_ends(&self, t: &mut Tournament, now: u64) -> Result<(), TournamentsError> {
        let ended: std::collections::HashSet<String> = self
            .parts
            .store
            .ended_games(&t.id)
            .await?
            .into_iter()
            .collect();
        for (at, game) in t.in_play() {
            if !ended.contains(&game) {
                continue;
            }
            let Some(saved) = self.parts.store.load(&game).await? else {
                continue;
            };
            let ready = saved.setups.each_ref().map(Option::is_some);
            if let Some(end) = End::of(&saved.events, ready) {
                t.game_ended(at, result_of(end), now);
            }
        }
        Ok(())
    }
}

/// How a game's `end` counts in its tournament: an abort is a default, to the other side if
/// it called the game off or if the other's formation was in.
fn result_of(end: End) -> ResultWords {
    match end {
        End::Won {
            winner: Side::White,
        } => ResultWords::WhiteWon,
        End::Won {
            winner: Side::Black,
        } => ResultWords::BlackWon,
        End::Drawn => ResultWords::Draw,
        End::Aborted {
            reason,
            side,
            other_ready,
        } => ResultWords::Default {
            present: (reason == AbortReason::Abort || other_ready).then_some(side.other()),
        },
    }
}
