//! Making, joining and reading games: the HTTP requests of the contract, and who a socket is
//! for.

use std::net::IpAddr;
use std::sync::Arc;

use salpakan::{Rules, Side};
use tokio::time::Instant;

use super::{Hub, HubError, Live, SocketSlot, lock, plausible_id};
use crate::clock::ClockSettings;
use crate::room::{Phase, Player, Recipient, Room, Spec};
use crate::secret::{self, Entropy, ID_BYTES, INVITE_BYTES, TOKEN_BYTES};
use crate::store::{Ending, StoreError, Write};
use crate::wire::{
    Code, CreateReply, CreateRequest, JoinReply, JoinRequest, RulesRequest, SideWord, Summary,
};

/// A game's settings, as asked for and checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// The rules.
    pub rules: Rules,
    /// The clock, for a timed game.
    pub clock: Option<ClockSettings>,
    /// The setup time, in milliseconds.
    pub setup_ms: u64,
    /// Whether the game is rated.
    pub rated: bool,
}

/// Who sits where in a new game, and its id.
pub(super) struct Seating {
    pub(super) id: String,
    pub(super) first: Side,
    pub(super) players: [Player; 2],
    pub(super) names: [Option<String>; 2],
    /// Each taken seat's token's digest.
    pub(super) tokens: [Option<String>; 2],
    /// The invite's digest, for an open seat.
    pub(super) invite: Option<String>,
}

impl Seating {
    /// Game `id` of two people's seats, none taken yet, `first` to move first.
    pub(super) fn new(id: String, first: Side) -> Seating {
        Seating {
            id,
            first,
            players: [Player::Human; 2],
            names: [None, None],
            tokens: [None, None],
            invite: None,
        }
    }
}

/// White or Black, from one random draw of `entropy`.
pub(super) fn random_side(entropy: &dyn Entropy) -> Side {
    if secret::random_u64(entropy) & 1 == 0 {
        Side::White
    } else {
        Side::Black
    }
}

/// A side chosen as `"white"`, `"black"` or `"random"` (the default; then from the entropy).
fn side_choice(word: Option<&str>, what: &str, entropy: &dyn Entropy) -> Result<Side, HubError> {
    match word {
        None | Some("random") => Ok(random_side(entropy)),
        Some("white") => Ok(Side::White),
        Some("black") => Ok(Side::Black),
        Some(other) => Err(HubError::invalid(
            Code::BadMessage,
            format!("{what} must be white, black or random, not {other:?}"),
        )),
    }
}

impl Hub {
    /// The rules a game is asked for: the official ones, with this server's move limit
    /// unless another is asked for, and never a longer one than the server allows (a move
    /// limit bounds a game's length: see [`crate::wire::RulesWords::max_plies`]).
    fn rules(&self, asked: RulesRequest) -> Result<Rules, HubError> {
        let limits = &self.config.limits;
        let move_limit = asked
            .move_limit
            .unwrap_or(i64::from(limits.default_move_limit));
        let longest = i64::from(limits.max_move_limit);
        if limits.max_move_limit > 0 && !(1..=longest).contains(&move_limit) {
            return Err(HubError::invalid(
                Code::BadRules,
                format!(
                    "move_limit must be 1 … {longest} on this server (plies without a challenge \
                     before a draw), not {move_limit}"
                ),
            ));
        }
        Rules::from_numbers(asked.setup_rows.unwrap_or(3), move_limit)
            .map_err(|e| HubError::invalid(Code::BadRules, e.to_string()))
    }

    /// A game's settings as asked for, checked: the rules, the clock, the setup time, and
    /// whether it is rated.
    pub(super) fn settings(
        &self,
        rules: Option<RulesRequest>,
        clock: Option<ClockSettings>,
        setup_ms: Option<i64>,
        rated: Option<bool>,
    ) -> Result<Settings, HubError> {
        let rules = self.rules(rules.unwrap_or_default())?;
        let clock = clock
            .map(ClockSettings::check)
            .transpose()
            .map_err(|e| HubError::invalid(Code::BadClock, e.to_string()))?;
        let min_setup = u64::try_from(self.config.limits.min_setup.as_millis()).unwrap_or(0);
        let setup_ms = crate::wire::setup_ms(setup_ms, min_setup)
            .map_err(|e| HubError::invalid(Code::BadMessage, e))?;
        Ok(Settings {
            rules,
            clock,
            setup_ms,
            rated: rated.unwrap_or(false),
        })
    }

    /// Makes a game of `settings` with `seating`, created by `ip` (its slot taken under the
    /// limits of games per address; a rematch has none): written, with `also` in the same
    /// transaction, then held. Returns its id.
    pub(super) async fn open_game(
        self: &Arc<Hub>,
        settings: &Settings,
        seating: Seating,
        ip: Option<IpAddr>,
        also: Vec<Write>,
    ) -> Result<String, HubError> {
        self.check_open()?;
        let kinds = seating.players.map(Player::kind_word);
        let limits = &self.config.limits;
        if let Some(ip) = ip {
            self.quotas
                .take_game(ip, limits.games_per_ip, limits.games_per_hour)?;
            // One node of several: the address's games at every node count.
            if let Err(e) = self.shared_game_limits(ip).await {
                self.release_game(Some(ip));
                return Err(e);
            }
        }
        let entropy = &*self.entropy;
        let id = seating.id.clone();
        let created_ms = crate::clock::unix_ms();
        let mut names = seating.names;
        for side in Side::ALL {
            if let Some(bot) = seating.players[side.index()].bot_name() {
                names[side.index()] = Some(bot);
            }
        }
        let mut spec = Spec {
            id: id.clone(),
            rules: settings.rules,
            first: seating.first,
            players: seating.players,
            clock: settings.clock,
            tokens: seating.tokens,
            invite: seating.invite,
            bot_seed: secret::random_u64(entropy),
            created_ms,
            setup_ms: settings.setup_ms,
            names,
            rated: settings.rated,
            seated_ms: None,
        };
        // Both seats taken at once (a bot's, or a pairing's): the setup time runs from now.
        spec.seated_ms = spec.all_seated().then_some(created_ms);
        let room = Room::new(
            spec.clone(),
            self.config.limits.abandon_grace,
            self.config.bot_budget,
            Instant::now(),
        );
        let mut writes = vec![Write::Create { spec, creator: ip }];
        if let Some(ip) = ip {
            writes.push(Write::Arrival {
                kind: "game",
                ip,
                at_ms: created_ms,
            });
        }
        if !room.events().is_empty() {
            writes.push(Write::Events {
                game: id.clone(),
                first_v: 1,
                events: room.events().to_vec(),
                ending: None,
            });
        }
        writes.extend(also);
        if let Err(e) = self.store.write(writes).await {
            self.release_game(ip);
            return Err(e.into());
        }
        self.admit(room, ip);
        crate::telemetry::game_created();
        tracing::info!(
            game = %id,
            white = kinds[0],
            black = kinds[1],
            rated = settings.rated,
            "game created"
        );
        Ok(id)
    }

    /// With several nodes: refuses a game past the address's unfinished games, or its games
    /// an hour, counted in the database at every node (nothing to do on SQLite).
    async fn shared_game_limits(&self, ip: IpAddr) -> Result<(), HubError> {
        let limits = &self.config.limits;
        let held = self.store.unfinished_by(ip).await?;
        if held.is_some_and(|held| held >= limits.games_per_ip as u64) {
            return Err(HubError::TooManyGames(limits.games_per_ip));
        }
        let made = self.store.arrivals_last_hour("game", ip).await?;
        if made.is_some_and(|made| made >= limits.games_per_hour as u64) {
            return Err(HubError::TooManyCreated(limits.games_per_hour));
        }
        Ok(())
    }

    /// `POST /api/games` from `ip`, made by `player` (or anonymously): the creator's seat.
    ///
    /// # Errors
    /// [`HubError::Invalid`] for values out of range, [`HubError::BadKey`] for a rated game
    /// asked for anonymously, [`HubError::TooManyGames`] past the games per client,
    /// [`HubError::Store`] if the database fails.
    pub async fn create(
        self: &Arc<Hub>,
        request: CreateRequest,
        ip: IpAddr,
        player: Option<String>,
    ) -> Result<CreateReply, HubError> {
        let entropy = &*self.entropy;
        let side = side_choice(request.side.as_deref(), "side", entropy)?;
        let first = side_choice(request.first.as_deref(), "first", entropy)?;
        let opponent = Player::from_word(request.opponent.as_deref().unwrap_or("human"))
            .map_err(|e| HubError::invalid(Code::BadMessage, e.to_string()))?;
        let settings = self.settings(
            request.rules,
            request.clock,
            request.setup_ms,
            request.rated,
        )?;
        if settings.rated && player.is_none() {
            return Err(HubError::BadKey);
        }
        let id = secret::random_hex(entropy, ID_BYTES);
        let token = secret::random_hex(entropy, TOKEN_BYTES);
        let invite = (opponent == Player::Human).then(|| secret::random_hex(entropy, INVITE_BYTES));
        let mut seating = Seating::new(id, first);
        seating.players[side.other().index()] = opponent;
        seating.tokens[side.index()] = Some(secret::digest(&token));
        seating.names[side.index()] = player;
        seating.invite = invite.as_deref().map(secret::digest);
        let game = self
            .open_game(&settings, seating, Some(ip), Vec::new())
            .await?;
        Ok(CreateReply {
            game,
            side: SideWord(side),
            token,
            invite,
        })
    }

    /// `POST /api/games/{id}/join`: the joiner's seat.
    ///
    /// # Errors
    /// [`HubError::NotFound`] for an unknown game or a wrong invite (the same reply),
    /// [`HubError::SeatTaken`] once the seat is taken, [`HubError::BadKey`] for a rated
    /// game joined anonymously, [`HubError::OwnGame`] for the player of the other seat.
    pub async fn join(
        self: &Arc<Hub>,
        id: &str,
        request: JoinRequest,
        player: Option<String>,
    ) -> Result<JoinReply, HubError> {
        let live = self.live(id).await?.ok_or(HubError::NotFound)?;
        let joined = self.join_live(&live, request, player).await;
        // A finished game loaded for a refused join leaves memory again.
        self.let_go(&live).await;
        joined
    }

    /// [`Hub::join`] of the game in memory.
    async fn join_live(
        self: &Arc<Hub>,
        live: &Arc<Live>,
        request: JoinRequest,
        player: Option<String>,
    ) -> Result<JoinReply, HubError> {
        let mut state = live.state.lock().await;
        if state.gone {
            return Err(HubError::NotFound);
        }
        let spec = state.room.spec();
        let Some(invite) = spec.invite.as_deref() else {
            return Err(HubError::NotFound);
        };
        if !secret::matches(&request.invite, invite) {
            return Err(HubError::NotFound);
        }
        let side = Side::ALL
            .into_iter()
            .find(|&s| spec.players[s.index()] == Player::Human && spec.tokens[s.index()].is_none())
            .ok_or(HubError::SeatTaken)?;
        if spec.rated && player.is_none() {
            return Err(HubError::BadKey);
        }
        let other = spec.names[side.other().index()].as_deref();
        if player.is_some() && other.is_some_and(|o| Some(o) == player.as_deref()) {
            return Err(HubError::OwnGame);
        }
        let token = secret::random_hex(&*self.entropy, TOKEN_BYTES);
        let digest = secret::digest(&token);
        let wall_ms = crate::clock::unix_ms();
        let mut seated = state.room.spec().clone();
        seated.tokens[side.index()] = Some(digest.clone());
        let last = seated.all_seated();
        let write = Write::Join {
            game: live.id.clone(),
            side,
            token: digest.clone(),
            seated_ms: last.then_some(wall_ms),
            name: player.clone(),
        };
        self.store.write(vec![write]).await?;
        state
            .room
            .take_seat(side, digest, player, wall_ms, Instant::now());
        live.timer.notify_one();
        Ok(JoinReply {
            game: live.id.clone(),
            side: SideWord(side),
            token,
        })
    }

    /// `GET /api/games/{id}`.
    ///
    /// # Errors
    /// [`HubError::NotFound`] for an unknown game.
    pub async fn summary(self: &Arc<Hub>, id: &str) -> Result<Summary, HubError> {
        if let Some(ending) = self.kept_ending(id).await? {
            return serde_json::from_str(&ending.summary)
                .map_err(|e| HubError::Store(StoreError::Corrupt(e.to_string())));
        }
        let live = self.live(id).await?.ok_or(HubError::NotFound)?;
        let mut state = live.state.lock().await;
        if state.gone {
            return Err(HubError::NotFound);
        }
        let now = self.now(&mut state.room);
        let summary = state.room.summary(now);
        self.evict_if_done(&live, &state);
        Ok(summary)
    }

    /// `GET /api/games/{id}/record`.
    ///
    /// # Errors
    /// [`HubError::NotFound`] for an unknown game or an aborted one (its formations are never
    /// revealed), [`HubError::NotOver`] while it is not over.
    pub async fn record(self: &Arc<Hub>, id: &str) -> Result<String, HubError> {
        if let Some(ending) = self.kept_ending(id).await? {
            return ending.record.ok_or(HubError::NotFound);
        }
        let live = self.live(id).await?.ok_or(HubError::NotFound)?;
        let state = live.state.lock().await;
        if state.gone {
            return Err(HubError::NotFound);
        }
        let record = state.room.record();
        let aborted = state.room.phase() == Phase::Aborted;
        self.evict_if_done(&live, &state);
        match record {
            Some(record) => Ok(record),
            None if aborted => Err(HubError::NotFound),
            None => Err(HubError::NotOver),
        }
    }

    /// A finished game's summary and record as its row keeps them, when it is not in memory:
    /// read by a reader, never replayed.
    async fn kept_ending(&self, id: &str) -> Result<Option<Ending>, HubError> {
        if !plausible_id(id) || lock(&self.rooms).contains_key(id) {
            return Ok(None);
        }
        Ok(self.store.ending(id).await?)
    }

    /// Whether a socket for `to` may open, from `ip`: a seat's within its own sockets and
    /// reconnects a minute (never counted against its address, so that another client at
    /// the same address cannot keep it out), a spectator's within its address's sockets
    /// (the slot it then holds).
    ///
    /// # Errors
    /// [`HubError::TooManyConnections`] past a limit.
    pub async fn admit_socket(
        &self,
        live: &Arc<Live>,
        to: Recipient,
        ip: IpAddr,
    ) -> Result<Option<SocketSlot>, HubError> {
        let limits = &self.config.limits;
        let Recipient::Seat(side) = to else {
            return self.quotas.take_socket(ip, limits).map(Some);
        };
        let mut state = live.state.lock().await;
        if state.room.sockets(side) >= limits.sockets_per_seat {
            return Err(HubError::TooManyConnections(limits.sockets_per_seat));
        }
        if !state.connects[side.index()].take(Instant::now(), 1) {
            return Err(HubError::TooManyReconnects(limits.seat_connects_per_minute));
        }
        Ok(None)
    }

    /// A request for `live` failed: a finished game it loaded leaves memory again (unless a
    /// socket follows it).
    pub async fn let_go(&self, live: &Arc<Live>) {
        let state = live.state.lock().await;
        self.evict_if_done(live, &state);
    }

    /// Who a socket to game `id` with `token` is for.
    ///
    /// # Errors
    /// [`HubError::Unauthorized`], the same for an unknown game, a wrong token and another
    /// game's token.
    pub async fn authorize(
        self: &Arc<Hub>,
        id: &str,
        token: Option<&str>,
    ) -> Result<(Arc<Live>, Recipient), HubError> {
        let live = self
            .live(id)
            .await
            .ok()
            .flatten()
            .ok_or(HubError::Unauthorized)?;
        let state = live.state.lock().await;
        if state.gone {
            return Err(HubError::Unauthorized);
        }
        let Some(token) = token else {
            drop(state);
            return Ok((live, Recipient::Spectator));
        };
        let tokens = &state.room.spec().tokens;
        // Both seats are compared, each in constant time, whatever the first gives.
        let found = Side::ALL.map(|side| {
            tokens[side.index()]
                .as_deref()
                .is_some_and(|stored| secret::matches(token, stored))
        });
        drop(state);
        match found {
            [true, _] => Ok((live, Recipient::Seat(Side::White))),
            [_, true] => Ok((live, Recipient::Seat(Side::Black))),
            _ => Err(HubError::Unauthorized),
        }
    }
}
