//! Making and joining games: `POST /api/games` and its `join`, and the one way every game is
//! made (by a creator, a pairing of the lobby, a pool's bot, a tournament's pairing, a
//! rematch): checked settings, a slot of the creator's address, one transaction, then the
//! room in memory; a tournament round's cutoff moved on a game's setup time.
//!
//! The rematch: once both seats of a finished game have asked, a new game with the same
//! settings, each player taking the other colour, the same colour moving first (now played by
//! the other person). It is made in the same transaction as the old game's `rematch-made`
//! event, so a crash cannot make it twice; each seat then hears its own new token only.

use std::net::IpAddr;
use std::sync::Arc;

use salpakan::{Rules, Side};
use tokio::time::Instant;

use super::tables::TableState;
use super::{GameError, Games, Origin, Table};
use crate::clock::ClockSettings;
use crate::room::{Event, Phase, Player, Room, SavedChat, Spec};
use crate::secret::{self, Entropy, ID_BYTES, INVITE_BYTES, TOKEN_BYTES};
use crate::services::outbox::Out;
use crate::store::Write;
use crate::store::{GameWrite, NodeWrite};
use crate::wire::{
    Code, CreateReply, CreateRequest, JoinReply, JoinRequest, Refusal, RulesRequest, ServerMessage,
    SettingsRequest, SideWord,
};

/// A game's settings, as asked for and checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Settings {
    /// The rules.
    pub rules: Rules,
    /// The clock, for a timed game.
    pub clock: Option<ClockSettings>,
    /// The setup time, in milliseconds.
    pub setup_ms: u64,
    /// Whether the game is rated.
    pub rated: bool,
    /// Whether the game is listed.
    pub listed: bool,
    /// Whether the game is sealed (a tournament's: see [`Spec::sealed`]).
    pub sealed: bool,
}

/// Who sits where in a new game, and its id.
pub(crate) struct Seating {
    /// The game's id.
    pub id: String,
    /// Who moves first.
    pub first: Side,
    /// Who plays each side.
    pub players: [Player; 2],
    /// Each seat's player's name, if a named player holds it.
    pub names: [Option<String>; 2],
    /// Each taken seat's token's digest.
    pub tokens: [Option<String>; 2],
    /// The invite's digest, for an open seat.
    pub invite: Option<String>,
    /// Each taken seat's address (a bot's has none).
    pub ips: [Option<IpAddr>; 2],
}

impl Seating {
    /// Game `id` of two people's seats, none taken yet, `first` to move first.
    #[must_use]
    pub(crate) fn new(id: String, first: Side) -> Seating {
        Seating {
            id,
            first,
            players: [Player::Human; 2],
            names: [None, None],
            tokens: [None, None],
            invite: None,
            ips: [None, None],
        }
    }
}

/// A day, in milliseconds: the window of the bounds of rated games.
const DAY_MS: u64 = 24 * 60 * 60 * 1000;

/// White or Black, from one random draw of `entropy`.
#[must_use]
pub(crate) fn random_side(entropy: &dyn Entropy) -> Side {
    if secret::random_u64(entropy) & 1 == 0 {
        Side::White
    } else {
        Side::Black
    }
}

/// A side chosen as `"white"`, `"black"` or `"random"` (the default; then from the entropy).
fn side_choice(word: Option<&str>, what: &str, entropy: &dyn Entropy) -> Result<Side, GameError> {
    match word {
        None | Some("random") => Ok(random_side(entropy)),
        Some("white") => Ok(Side::White),
        Some("black") => Ok(Side::Black),
        Some(other) => Err(GameError::invalid(
            Code::BadMessage,
            format!("{what} must be white, black or random, not {other:?}"),
        )),
    }
}

impl Games {
    /// The rules a game is asked for: the official ones, with this server's move limit
    /// unless another is asked for, and never a longer one than the server allows (a move
    /// limit bounds a game's length: see [`crate::wire::RulesWords::max_plies`]).
    fn rules(&self, asked: RulesRequest) -> Result<Rules, GameError> {
        let limits = &self.config.limits;
        let move_limit = asked
            .move_limit
            .unwrap_or(i64::from(limits.default_move_limit));
        let longest = i64::from(limits.max_move_limit);
        if limits.max_move_limit > 0 && !(1..=longest).contains(&move_limit) {
            return Err(GameError::invalid(
                Code::BadRules,
                format!(
                    "move_limit must be 1 … {longest} on this server (plies without a challenge \
                     before a draw), not {move_limit}"
                ),
            ));
        }
        Rules::from_numbers(asked.setup_rows.unwrap_or(3), move_limit)
            .map_err(|e| GameError::invalid(Code::BadRules, e.to_string()))
    }

    /// A game's settings as asked for, checked: the rules, the clock, the setup time,
    /// whether it is rated and whether it is listed.
    ///
    /// # Errors
    /// [`GameError::Invalid`] naming the value out of range.
    pub(crate) fn settings(&self, asked: SettingsRequest) -> Result<Settings, GameError> {
        let SettingsRequest {
            rules,
            clock,
            rated,
            setup_ms,
            listed,
        } = asked;
        let rules = self.rules(rules.unwrap_or_default())?;
        let clock = clock
            .map(ClockSettings::check)
            .transpose()
            .map_err(|e| GameError::invalid(Code::BadClock, e.to_string()))?;
        let min_setup = u64::try_from(self.config.limits.min_setup.as_millis()).unwrap_or(0);
        let setup_ms = crate::wire::setup_ms(setup_ms, min_setup)
            .map_err(|e| GameError::invalid(Code::BadMessage, e))?;
        Ok(Settings {
            rules,
            clock,
            setup_ms,
            rated: rated.unwrap_or(false),
            listed: listed.unwrap_or(true),
            sealed: false,
        })
    }

    /// Makes a game of `settings` with `seating`, created by `ip` (its slot taken under the
    /// limits of games per address; a rematch has none): written, with `also` in the same
    /// transaction, then held. Returns its id.
    ///
    /// # Errors
    /// [`GameError::Draining`], a quota's, or the database's error (nothing is made then).
    pub(crate) async fn open_game(
        self: &Arc<Games>,
        settings: &Settings,
        seating: Seating,
        ip: Option<IpAddr>,
        also: Vec<Write>,
    ) -> Result<String, GameError> {
        if self.readiness.draining() {
            return Err(GameError::Draining);
        }
        let kinds = seating.players.map(Player::kind_word);
        let mut names = seating.names.clone();
        for side in Side::ALL {
            if let Some(bot) = seating.players[side.index()].bot_name() {
                names[side.index()] = Some(bot);
            }
        }
        let unrated = self
            .unrated_why((&seating.id, settings.rated), &names, &seating.ips)
            .await?;
        if let Some(ip) = ip {
            self.quotas.take_game(ip).await?;
        }
        let entropy = &*self.entropy;
        let id = seating.id.clone();
        let created_ms = crate::clock::unix_ms();
        let bot_accounts = self.players.bot_accounts(&names);
        let mut spec = Spec {
            id: id.clone(),
            rules: settings.rules,
            first: seating.first,
            players: seating.players,
            clock: settings.clock,
            tokens: seating.tokens,
            invite: seating.invite,
            bot_seed: secret::random_u64(entropy),
            salts: Some([secret::random_salt(entropy), secret::random_salt(entropy)]),
            created_ms,
            setup_ms: settings.setup_ms,
            names,
            rated: settings.rated && unrated.is_none(),
            listed: settings.listed,
            sealed: settings.sealed,
            seated_ms: None,
            bot_accounts,
        };
        // Both seats taken at once (a bot's, or a pairing's): the setup time runs from now.
        spec.seated_ms = spec.all_seated().then_some(created_ms);
        let room = Room::new(
            spec.clone(),
            self.config.limits.abandon_grace,
            self.config.bot_budget,
            Instant::now(),
        );
        let mut writes = vec![Write::Game(GameWrite::Create {
            spec,
            creator: ip,
            ips: seating.ips,
            unrated,
        })];
        if let Some(ip) = ip {
            writes.push(Write::Node(NodeWrite::Arrival {
                kind: "game",
                ip,
                at_ms: created_ms,
            }));
        }
        if !room.events().is_empty() {
            writes.push(Write::Game(GameWrite::Events {
                game: id.clone(),
                first_v: 1,
                events: room.events().to_vec(),
                ending: None,
            }));
        }
        writes.extend(also);
        if let Err(e) = self.store.write(writes).await {
            self.release_game(ip);
            return Err(e.into());
        }
        let origin = Origin {
            creator: ip,
            ips: seating.ips,
        };
        self.admit(room, origin, SavedChat::default());
        crate::telemetry::game_created();
        tracing::info!(
            game = %id,
            white = kinds[0],
            black = kinds[1],
            rated = settings.rated && unrated.is_none(),
            unrated = unrated.unwrap_or(""),
            "game created"
        );
        Ok(id)
    }

    /// Why game `id`, asked `rated`, between `names` at `ips` is played unrated, if it is: the
    /// two players at one address (unless the server allows it), or past the rated games a
    /// day of the pair or of one address. A game with a seat still open is decided when the
    /// seat is taken.
    async fn unrated_why(
        &self,
        (id, rated): (&str, bool),
        names: &[Option<String>; 2],
        ips: &[Option<IpAddr>; 2],
    ) -> Result<Option<&'static str>, GameError> {
        let [Some(white), Some(black)] = names else {
            return Ok(None);
        };
        if !rated {
            return Ok(None);
        }
        let limits = &self.config.limits;
        if !limits.rated_one_address && ips[0].is_some() && ips[0] == ips[1] {
            return Ok(Some("same-address"));
        }
        let since = crate::clock::unix_ms().saturating_sub(DAY_MS);
        let (pair, by_ip) = self
            .store
            .rated_since(([white.clone(), black.clone()], *ips), since, id)
            .await?;
        Ok(if pair >= limits.rated_per_pair_day as u64 {
            Some("pair-day")
        } else if by_ip.iter().any(|&n| n >= limits.rated_per_ip_day as u64) {
            Some("address-day")
        } else {
            None
        })
    }

    /// `POST /api/games` from `ip`, made by `player` (or anonymously): the creator's seat.
    ///
    /// # Errors
    /// [`GameError::Invalid`] for values out of range, [`GameError::BadKey`] for a rated game
    /// asked for anonymously, [`GameError::Quota`] past the games per client,
    /// [`GameError::Store`] if the database fails.
    pub(crate) async fn create(
        self: &Arc<Games>,
        request: CreateRequest,
        ip: IpAddr,
        player: Option<String>,
    ) -> Result<CreateReply, GameError> {
        let entropy = &*self.entropy;
        let side = side_choice(request.side.as_deref(), "side", entropy)?;
        let first = side_choice(request.first.as_deref(), "first", entropy)?;
        let opponent = Player::from_word(request.opponent.as_deref().unwrap_or("human"))
            .map_err(|e| GameError::invalid(Code::BadMessage, e.to_string()))?;
        let settings = self.settings(request.settings())?;
        if settings.rated && player.is_none() {
            return Err(GameError::BadKey);
        }
        let id = secret::random_hex(entropy, ID_BYTES);
        let token = secret::random_hex(entropy, TOKEN_BYTES);
        let invite = (opponent == Player::Human).then(|| secret::random_hex(entropy, INVITE_BYTES));
        let mut seating = Seating::new(id, first);
        seating.players[side.other().index()] = opponent;
        seating.tokens[side.index()] = Some(secret::digest(&token));
        seating.names[side.index()] = player;
        seating.ips[side.index()] = Some(ip);
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
    /// [`GameError::NotFound`] for an unknown game or a wrong invite (the same reply),
    /// [`GameError::SeatTaken`] once the seat is taken, [`GameError::BadKey`] for a rated
    /// game joined anonymously, [`GameError::OwnGame`] for the player of the other seat.
    pub(crate) async fn join(
        self: &Arc<Games>,
        id: &str,
        request: JoinRequest,
        player: Option<String>,
        ip: IpAddr,
    ) -> Result<JoinReply, GameError> {
        // A finished game's seats are taken: refused from its row, never loaded for it.
        if let Some(seats) = self.finished_seats(id).await {
            let invited = seats
                .invite
                .as_deref()
                .is_some_and(|invite| secret::matches(&request.invite, invite));
            return Err(if invited {
                GameError::SeatTaken
            } else {
                GameError::NotFound
            });
        }
        let table = self.table(id).await?.ok_or(GameError::NotFound)?;
        let joined = self.join_live(&table, request, player, ip).await;
        // A finished game loaded for a refused join leaves memory again.
        self.let_go(&table).await;
        joined
    }

    /// [`Games::join`] of the game in memory.
    async fn join_live(
        self: &Arc<Games>,
        table: &Arc<Table>,
        request: JoinRequest,
        player: Option<String>,
        ip: IpAddr,
    ) -> Result<JoinReply, GameError> {
        let mut state = table.state.lock().await;
        if state.gone {
            return Err(GameError::NotFound);
        }
        let spec = state.room.spec();
        let Some(invite) = spec.invite.as_deref() else {
            return Err(GameError::NotFound);
        };
        if !secret::matches(&request.invite, invite) {
            return Err(GameError::NotFound);
        }
        let side = Side::ALL
            .into_iter()
            .find(|&s| spec.players[s.index()] == Player::Human && spec.tokens[s.index()].is_none())
            .ok_or(GameError::SeatTaken)?;
        if spec.rated && player.is_none() {
            return Err(GameError::BadKey);
        }
        let other = spec.names[side.other().index()].as_deref();
        if player.is_some() && other.is_some_and(|o| Some(o) == player.as_deref()) {
            return Err(GameError::OwnGame);
        }
        // The pair is known now: a rated game past a bound is played unrated from here.
        let (mut names, mut ips) = (spec.names.clone(), state.ips);
        names[side.index()].clone_from(&player);
        ips[side.index()] = Some(ip);
        let unrated = self
            .unrated_why((table.id(), spec.rated), &names, &ips)
            .await?;
        let token = secret::random_hex(&*self.entropy, TOKEN_BYTES);
        let digest = secret::digest(&token);
        let wall_ms = crate::clock::unix_ms();
        let mut seated = state.room.spec().clone();
        seated.tokens[side.index()] = Some(digest.clone());
        let last = seated.all_seated();
        let write = Write::Game(GameWrite::Join {
            game: table.id().to_owned(),
            side,
            token: digest.clone(),
            seated_ms: last.then_some(wall_ms),
            name: player.clone(),
            ip: Some(ip),
            unrated,
        });
        self.store.write(vec![write]).await?;
        let bot = self.players.bot_accounts(&names)[side.index()];
        state
            .room
            .take_seat(side, digest, player, wall_ms, Instant::now());
        state.room.mark_bot_account(side, bot);
        state.ips = ips;
        if unrated.is_some() {
            state.room.unrate();
        }
        table.timer.notify_one();
        Ok(JoinReply {
            game: table.id().to_owned(),
            side: SideWord(side),
            token,
        })
    }
}

impl Games {
    /// Moves game `id`'s setup deadline to `cutoff_ms` (milliseconds since the Unix epoch),
    /// while it is in its setup phase with both seats taken: a tournament round's cutoff
    /// moved by its director.
    ///
    /// # Errors
    /// [`GameError::NotFound`], [`GameError::Elsewhere`] for a game another node holds, or the
    /// database's error.
    pub(crate) async fn extend_setup(
        self: &Arc<Games>,
        id: &str,
        cutoff_ms: u64,
    ) -> Result<(), GameError> {
        let table = self.table(id).await?.ok_or(GameError::NotFound)?;
        let mut state = table.state.lock().await;
        if state.gone || state.room.phase() != Phase::Setup {
            return Ok(());
        }
        let Some(seated) = state.room.spec().seated_ms else {
            return Ok(());
        };
        let setup_ms = cutoff_ms.saturating_sub(seated);
        self.store
            .write(vec![Write::Game(GameWrite::SetupTime {
                game: table.id().to_owned(),
                setup_ms,
            })])
            .await?;
        state
            .room
            .set_setup_time(setup_ms, crate::clock::unix_ms(), Instant::now());
        drop(state);
        table.timer.notify_one();
        Ok(())
    }
}

impl Games {
    /// Makes the rematch of the game in `state` (both offers stand at `now`): the new game and
    /// the old game's `rematch-made` event in one transaction, then each seat its `rematch`.
    pub(super) async fn make_rematch(
        self: &Arc<Games>,
        table: &Arc<Table>,
        state: &mut TableState,
        now: Instant,
    ) {
        let old = state.room.spec().clone();
        let entropy = &*self.entropy;
        let id = secret::random_hex(entropy, ID_BYTES);
        let mut seating = Seating::new(id.clone(), old.first);
        let mut tokens: [Option<String>; 2] = [None, None];
        for side in Side::ALL {
            let new = side.other();
            seating.players[new.index()] = old.players[side.index()];
            seating.names[new.index()] = old.names[side.index()].clone();
            seating.ips[new.index()] = state.ips[side.index()];
            if old.players[side.index()] == Player::Human {
                let token = secret::random_hex(entropy, TOKEN_BYTES);
                seating.tokens[new.index()] = Some(secret::digest(&token));
                tokens[new.index()] = Some(token);
            }
        }
        let settings = Settings {
            rules: old.rules,
            clock: old.clock,
            setup_ms: old.setup_ms,
            rated: old.rated,
            listed: old.listed,
            sealed: false,
        };
        // A rematch is a new game for each of its players' addresses: counted against their
        // games an hour (it needs no unfinished slot, a finished game going before it).
        let addresses = self.rematch_addresses(&seating.ips);
        if let Err(e) = self.quotas.take_created(&addresses) {
            let refusal = crate::refusals::Refused::refusal(&e);
            let frame: std::sync::Arc<str> = refusal.message().to_json().into();
            for s in &state.subscribers {
                s.outlet.send(Out::Text(std::sync::Arc::clone(&frame)));
            }
            return;
        }
        let event = Event::Rematched { game: id.clone() };
        let mut also = vec![Write::Game(GameWrite::Events {
            game: table.id().to_owned(),
            first_v: state.room.version() + 1,
            events: vec![event.clone()],
            ending: None,
        })];
        let at_ms = crate::clock::unix_ms();
        also.extend(addresses.iter().map(|&ip| {
            Write::Node(NodeWrite::Arrival {
                kind: "game",
                ip,
                at_ms,
            })
        }));
        if let Err(e) = self.open_game(&settings, seating, None, also).await {
            tracing::error!(game = %table.id(), error = %e, "rematch not made");
            return;
        }
        state.room.apply(event, now);
        let v = state.room.version();
        let room = &state.room;
        state
            .subscribers
            .retain(|s| s.outlet.send(Out::Text(room.frame(v, s.to))));
        for s in &state.subscribers {
            let Some(side) = s.to.side() else { continue };
            let new = side.other();
            if let Some(token) = &tokens[new.index()] {
                let message = ServerMessage::Rematch {
                    game: id.clone(),
                    side: SideWord(new),
                    token: token.clone(),
                };
                s.outlet.send(Out::Text(message.to_json().into()));
            }
        }
    }

    /// The addresses a rematch counts against: each seat's, once.
    fn rematch_addresses(&self, ips: &[Option<IpAddr>; 2]) -> Vec<IpAddr> {
        let mut addresses: Vec<IpAddr> = ips.iter().flatten().copied().collect();
        addresses.dedup();
        addresses
    }

    /// `side` of the finished game in `state` asks again for its seat in the rematch already
    /// made (its page lost the first answer): a fresh token for that seat, which replaces the
    /// one given before, as long as that seat has never been used. Once it has (a socket
    /// opened with its token, or its formation sent), only its own token opens it: the
    /// finished game's token cannot take it over.
    pub(super) async fn reissue(
        self: &Arc<Games>,
        state: &TableState,
        side: Side,
    ) -> Result<ServerMessage, Refusal> {
        let unavailable = || Refusal::new(Code::SeatTaken, "the rematch's seat is not open");
        let id = state.room.rematched().ok_or_else(unavailable)?.to_owned();
        let new = side.other();
        let table = self
            .table(&id)
            .await
            .ok()
            .flatten()
            .ok_or_else(unavailable)?;
        let mut rematch = table.state.lock().await;
        if rematch.gone || rematch.room.spec().players[new.index()] != Player::Human {
            return Err(unavailable());
        }
        if rematch.used[new.index()] {
            return Err(Refusal::new(
                Code::SeatTaken,
                "the rematch's seat is in use: only its own token opens it",
            ));
        }
        let token = secret::random_hex(&*self.entropy, TOKEN_BYTES);
        let digest = secret::digest(&token);
        let name = rematch.room.spec().names[new.index()].clone();
        let write = Write::Game(GameWrite::Join {
            game: id.clone(),
            side: new,
            token: digest.clone(),
            seated_ms: None,
            name: name.clone(),
            ip: None,
            unrated: None,
        });
        if let Err(e) = self.store.write(vec![write]).await {
            tracing::error!(game = %id, error = %e, "seat not given again");
            return Err(Refusal::new(Code::Internal, "the server could not do that"));
        }
        let wall = crate::clock::unix_ms();
        rematch
            .room
            .take_seat(new, digest, name, wall, Instant::now());
        self.tables.evict_if_done(&table, &rematch);
        Ok(ServerMessage::Rematch {
            game: id,
            side: SideWord(new),
            token,
        })
    }
}
