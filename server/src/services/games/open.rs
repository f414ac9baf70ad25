//! Making and joining games: `POST /api/games` and its `join`, and the one way every game is
//! made (by a creator, a pairing of the lobby, a pool's bot, a tournament's pairing, a
//! rematch: `rematch.rs`): checked settings, a slot of the creator's address, one
//! transaction, then the room in memory; a tournament round's cutoff moved on a game's setup
//! time.

use std::net::IpAddr;
use std::sync::Arc;

use salpakan::Side;
use tokio::time::Instant;

use super::{GameError, Games, Origin, Settings, Table};
use crate::room::{Phase, Player, Room, SavedChat, Spec};
use crate::secret::{self, Entropy, ID_BYTES, INVITE_BYTES, TOKEN_BYTES};
use crate::store::{GameWrite, NodeWrite, Write};
use crate::wire::{Code, CreateReply, CreateRequest, JoinReply, JoinRequest, SideWord, Unrated};

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
            unrated,
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
            unrated: unrated.map(Unrated::word),
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
            self.quotas.release_game(ip);
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
            unrated = unrated.map_or("", Unrated::word),
            "game created"
        );
        Ok(id)
    }

    /// Why game `id`, asked `rated`, between `names` at `ips` is played unrated, if it is.
    /// Two players at one client address play rated when both ratings are settled (neither
    /// provisional), within their own bounds: the pair's rated games a day, and the
    /// address's among its own players (`--rated-one-address-pair-day`,
    /// `--rated-one-address-day`; `--rated-one-address` lifts both, for a venue). Every
    /// pair is bounded by its rated games a day and each address by the rated games it
    /// took part in. A game with a seat still open is decided when the seat is taken.
    async fn unrated_why(
        &self,
        (id, rated): (&str, bool),
        names: &[Option<String>; 2],
        ips: &[Option<IpAddr>; 2],
    ) -> Result<Option<Unrated>, GameError> {
        let [Some(white), Some(black)] = names else {
            return Ok(None);
        };
        if !rated {
            return Ok(None);
        }
        let limits = &self.config.limits;
        let one_address = !limits.rated_one_address && ips[0].is_some() && ips[0] == ips[1];
        if one_address {
            let settled = |name: &str| {
                self.players
                    .with_row(name, |row| !crate::rating::provisional(row.rd))
                    .unwrap_or(false)
            };
            if !settled(white) || !settled(black) {
                return Ok(Some(Unrated::SameAddress));
            }
        }
        let since = crate::clock::unix_ms().saturating_sub(DAY_MS);
        let counted = self
            .store
            .rated_since(([white.clone(), black.clone()], *ips), since, id)
            .await?;
        Ok(
            if one_address
                && (counted.pair >= limits.rated_one_address_pair_day as u64
                    || counted.one_address >= limits.rated_one_address_day as u64)
            {
                Some(Unrated::SameAddressDay)
            } else if counted.pair >= limits.rated_per_pair_day as u64 {
                Some(Unrated::PairDay)
            } else if counted
                .by_ip
                .iter()
                .any(|&n| n >= limits.rated_per_ip_day as u64)
            {
                Some(Unrated::AddressDay)
            } else {
                None
            },
        )
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
        let settings = Settings::check(request.settings(), &self.config.limits)?;
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
            unrated: unrated.map(Unrated::word),
        });
        self.store.write(vec![write]).await?;
        let bot = self.players.bot_accounts(&names)[side.index()];
        state
            .room
            .take_seat(side, digest, player, wall_ms, Instant::now());
        state.room.mark_bot_account(side, bot);
        state.ips = ips;
        if let Some(why) = unrated {
            state.room.unrate(why);
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
