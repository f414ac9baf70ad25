//! Challenges of a named player: a player (or a bot) asks another, by name, for a game with
//! settings it chose; the other accepts (the game is made, both seats taken) or declines.
//! This is how a bot account is asked for a game: its player socket hears the challenge and
//! its owner's program answers it.
//!
//! Like seeks, challenges live in memory only, with the lobby's owner, and only while both
//! players have a player socket open: a challenge to a player with none is refused
//! (`offline`), and one goes when either player's last socket closes, when it lapses
//! unanswered ([`CHALLENGE_TTL`]), or when the lobby moves to another node. Both players hear
//! `challenge` when it is made and `challenge-gone` when it ends.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use thiserror::Error;
use tokio::time::Instant;

use super::games::{GameError, Settings, lock};
use super::lobby::{Lobby, LobbyError};
use super::player_sockets::{Gone as Offline, PlayerSockets};
use super::players::Players;
use super::ratings::Ratings;
use super::stopping::Stopping;
use crate::budget::Rate;
use crate::config::Limits;
use crate::rating;
use crate::secret::{self, Entropy, ID_BYTES};
use crate::wire::{
    BOT_PREFIX, ChallengeList, ChallengeOffer, ChallengeReply, ChallengeRequest, DeclineReason,
    Gone, JoinReply, LobbyMessage, RulesWords,
};

/// How long a challenge stands unanswered.
pub(crate) const CHALLENGE_TTL: Duration = Duration::from_secs(120);
/// A player's open challenges to others, at most.
pub(crate) const MAX_OUTGOING: usize = 5;
/// Open challenges to one player, at most (a bot account asked by many: the oldest are
/// answered first; more are refused until some end).
pub(crate) const MAX_INCOMING: usize = 50;

/// The open challenges a player may have from one client address (the address its
/// challengers made them from): a few accounts of one address cannot fill its
/// [`MAX_INCOMING`].
pub(crate) const MAX_INCOMING_PER_ADDRESS: usize = 5;
/// Challenges a player may make a minute.
pub(crate) const CHALLENGES_PER_MINUTE: usize = 20;

/// Why a challenge was refused.
#[derive(Debug, Error)]
pub(crate) enum ChallengeError {
    /// No such player, or no such challenge open for this player (the same reply).
    #[error("no such {0}")]
    NotFound(&'static str),
    /// A challenge of oneself.
    #[error("you cannot challenge yourself")]
    Own,
    /// A challenge of one of the server's bots: they play through `POST /api/games`.
    #[error(
        "the server's bots play through POST /api/games with \"opponent\": \"level-1\" … \"level-8\", not challenges"
    )]
    ServerBot,
    /// The challenged player has no player socket open.
    #[error("{0} is not online: a player hears challenges only while a player socket is open")]
    Offline(String),
    /// Past the challenger's open challenges, or the challenged player's, or a minute's.
    #[error("{0}")]
    TooMany(String),
    /// The lobby's refusal (no socket, a ban, the game's settings or creation).
    #[error(transparent)]
    Lobby(#[from] LobbyError),
}

impl From<GameError> for ChallengeError {
    fn from(e: GameError) -> ChallengeError {
        ChallengeError::Lobby(LobbyError::Game(e))
    }
}

/// An open challenge.
struct Challenge {
    offer: ChallengeOffer,
    ip: IpAddr,
    settings: super::games::Settings,
    /// Being accepted: its game is being made (a second accept, a decline or a withdrawal
    /// finds no challenge).
    taking: bool,
}

#[derive(Default)]
struct State {
    /// Oldest first.
    open: Vec<Challenge>,
    /// Each challenger's challenges (by its name folded to lower case), kept until full
    /// again.
    made: HashMap<String, Rate>,
}

/// The challenges service.
pub(crate) struct Challenges {
    limits: Limits,
    entropy: Arc<dyn Entropy>,
    players: Arc<Players>,
    ratings: Arc<Ratings>,
    lobby: Arc<Lobby>,
    sockets: Arc<PlayerSockets>,
    stopping: Stopping,
    state: Mutex<State>,
}

/// What the challenges service is made of: the services below it it uses.
pub(crate) struct Parts {
    /// The limits a challenge's game settings are checked against.
    pub limits: Limits,
    /// Where challenge ids come from.
    pub entropy: Arc<dyn Entropy>,
    /// The stop signal.
    pub stopping: Stopping,
    /// The players (names, bots, bans).
    pub players: Arc<Players>,
    /// The ratings.
    pub ratings: Arc<Ratings>,
    /// The lobby (an accepted challenge is paired there).
    pub lobby: Arc<Lobby>,
    /// Who is online, and how to tell them.
    pub sockets: Arc<PlayerSockets>,
}

fn same(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

impl Challenges {
    /// No challenges yet; the player sockets tell this service of every player whose last
    /// socket closed (and of every player's, when the lobby moves to another node).
    #[must_use]
    pub(crate) fn start(parts: Parts) -> Arc<Challenges> {
        let challenges = Arc::new(Challenges {
            entropy: parts.entropy,
            limits: parts.limits,
            players: parts.players,
            ratings: parts.ratings,
            lobby: parts.lobby,
            sockets: parts.sockets,
            stopping: parts.stopping,
            state: Mutex::new(State::default()),
        });
        let weak: Weak<Challenges> = Arc::downgrade(&challenges);
        challenges.sockets.on_offline(Box::new(move |gone| {
            if let Some(challenges) = weak.upgrade() {
                challenges.offline(gone);
            }
        }));
        challenges
    }

    /// `GET /api/challenges` by `player`: its open challenges, both ways, oldest first.
    #[must_use]
    pub(crate) fn list(&self, player: &str) -> ChallengeList {
        let state = lock(&self.state);
        let of = |mine: fn(&ChallengeOffer) -> &str| {
            state
                .open
                .iter()
                .filter(|c| same(mine(&c.offer), player))
                .map(|c| c.offer.clone())
                .collect()
        };
        ChallengeList {
            incoming: of(|o| &o.to),
            outgoing: of(|o| &o.from),
        }
    }

    /// `POST /api/challenges` by `player` from `ip`: both players hear `challenge`.
    ///
    /// # Errors
    /// [`ChallengeError::NotFound`] for an unknown player, [`ChallengeError::Own`],
    /// [`ChallengeError::ServerBot`], [`ChallengeError::Offline`], [`ChallengeError::TooMany`],
    /// or the lobby's refusals (settings out of range, no socket of the challenger's, a ban).
    pub(crate) fn create(
        self: &Arc<Challenges>,
        player: &str,
        request: ChallengeRequest,
        ip: IpAddr,
    ) -> Result<ChallengeReply, ChallengeError> {
        self.players.not_banned(player).map_err(LobbyError::from)?;
        let settings = Settings::check(request.settings(), &self.limits)?;
        if request.to.starts_with(BOT_PREFIX) {
            return Err(ChallengeError::ServerBot);
        }
        let (to, to_bot) = self
            .players
            .with_row(&request.to, |row| (row.name.clone(), row.bot))
            .ok_or(ChallengeError::NotFound("player"))?;
        if same(&to, player) {
            return Err(ChallengeError::Own);
        }
        if !self.sockets.online(player) {
            return Err(LobbyError::NoSocket.into());
        }
        if !self.sockets.online(&to) {
            return Err(ChallengeError::Offline(to));
        }
        let held = self.ratings.of(player);
        let expires_ms = crate::clock::unix_ms() + CHALLENGE_TTL.as_millis() as u64;
        let offer = ChallengeOffer {
            challenge: secret::random_hex(&*self.entropy, ID_BYTES),
            from: player.to_owned(),
            from_bot: self.players.is_bot(player),
            from_rating: rating::rounded(held.rating),
            to: to.clone(),
            to_bot,
            clock: settings.clock,
            rules: RulesWords::from(settings.rules),
            rated: settings.rated,
            setup_ms: settings.setup_ms,
            expires_ms,
        };
        let mut displaced = None;
        {
            let now = Instant::now();
            let mut state = lock(&self.state);
            let outgoing = state
                .open
                .iter()
                .filter(|c| same(&c.offer.from, player))
                .count();
            if outgoing >= MAX_OUTGOING {
                return Err(ChallengeError::TooMany(format!(
                    "at most {MAX_OUTGOING} open challenges of yours"
                )));
            }
            let incoming: Vec<&Challenge> = state
                .open
                .iter()
                .filter(|c| same(&c.offer.to, &to))
                .collect();
            let from = |address: IpAddr| incoming.iter().filter(|c| c.ip == address).count();
            let ours = from(ip);
            if ours >= MAX_INCOMING_PER_ADDRESS {
                return Err(ChallengeError::TooMany(format!(
                    "{to} has {MAX_INCOMING_PER_ADDRESS} open challenges from your address: \
                     try again later"
                )));
            }
            // Full: the address holding the most gives way (its oldest challenge), unless
            // this one's holds as many.
            if incoming.len() >= MAX_INCOMING {
                let most = incoming.iter().map(|c| from(c.ip)).max().unwrap_or(0);
                let oldest = incoming.iter().find(|c| !c.taking && from(c.ip) == most);
                match oldest {
                    Some(c) if most > ours => displaced = Some(c.offer.challenge.clone()),
                    _ => {
                        return Err(ChallengeError::TooMany(format!(
                            "{to} has {MAX_INCOMING} open challenges: try again later"
                        )));
                    }
                }
            }
            state.made.retain(|_, rate| !rate.is_full(now));
            let rate = state
                .made
                .entry(player.to_ascii_lowercase())
                .or_insert_with(|| Rate::per(CHALLENGES_PER_MINUTE, Duration::from_secs(60), now));
            if !rate.take(now) {
                return Err(ChallengeError::TooMany(format!(
                    "at most {CHALLENGES_PER_MINUTE} challenges a minute"
                )));
            }
            state.open.push(Challenge {
                offer: offer.clone(),
                ip,
                settings,
                taking: false,
            });
        }
        if let Some(old) = displaced {
            self.end(|c| c.offer.challenge == old, Gone::Displaced, None);
        }
        let cid = offer.challenge.clone();
        let message = LobbyMessage::Challenge(offer);
        self.sockets.tell(&to, &message);
        self.sockets.tell(player, &message);
        let weak = Arc::downgrade(self);
        let mut stop = self.stopping.listen();
        let lapse = cid.clone();
        tokio::spawn(async move {
            if !stop.sleep(CHALLENGE_TTL).await {
                return;
            }
            if let Some(challenges) = weak.upgrade() {
                challenges.end(|c| c.offer.challenge == lapse, Gone::Expired, None);
            }
        });
        Ok(ChallengeReply {
            challenge: cid,
            expires_ms,
        })
    }

    /// `POST /api/challenges/{cid}/accept` by the challenged `player` from `ip`: the game,
    /// both seats taken, sides at random; the reply is the accepter's seat, the challenger
    /// hears `paired`, both hear `challenge-gone` (`accepted`). A game refused (a limit, a
    /// draining server) leaves the challenge open.
    ///
    /// # Errors
    /// [`ChallengeError::NotFound`] for no such challenge to `player` (taken, ended, or
    /// another's), the lobby's and the game's refusals.
    pub(crate) async fn accept(
        self: &Arc<Challenges>,
        player: &str,
        cid: &str,
        ip: IpAddr,
    ) -> Result<JoinReply, ChallengeError> {
        self.players.not_banned(player).map_err(LobbyError::from)?;
        let (from, from_ip, settings) = {
            let mut state = lock(&self.state);
            let challenge = state
                .open
                .iter_mut()
                .find(|c| c.offer.challenge == cid && same(&c.offer.to, player) && !c.taking)
                .ok_or(ChallengeError::NotFound("challenge"))?;
            challenge.taking = true;
            (
                challenge.offer.from.clone(),
                challenge.ip,
                challenge.settings,
            )
        };
        let paired = self
            .lobby
            .pair_players((from, from_ip), (player.to_owned(), ip), settings)
            .await;
        match paired {
            Ok(seat) => {
                self.end(|c| c.offer.challenge == cid, Gone::Accepted, None);
                Ok(seat)
            }
            Err(e) => {
                let mut state = lock(&self.state);
                if let Some(c) = state.open.iter_mut().find(|c| c.offer.challenge == cid) {
                    c.taking = false;
                }
                Err(e.into())
            }
        }
    }

    /// `POST /api/challenges/{cid}/decline` by the challenged `player`, saying `reason`.
    ///
    /// # Errors
    /// [`ChallengeError::NotFound`] for no such challenge to `player`.
    pub(crate) fn decline(
        &self,
        player: &str,
        cid: &str,
        reason: DeclineReason,
    ) -> Result<(), ChallengeError> {
        let ended = self.end(
            |c| c.offer.challenge == cid && same(&c.offer.to, player),
            Gone::Declined,
            Some(reason),
        );
        if ended == 0 {
            return Err(ChallengeError::NotFound("challenge"));
        }
        Ok(())
    }

    /// `DELETE /api/challenges/{cid}` by the challenger `player`.
    ///
    /// # Errors
    /// [`ChallengeError::NotFound`] for no such challenge of `player`'s.
    pub(crate) fn withdraw(&self, player: &str, cid: &str) -> Result<(), ChallengeError> {
        let ended = self.end(
            |c| c.offer.challenge == cid && same(&c.offer.from, player),
            Gone::Withdrawn,
            None,
        );
        if ended == 0 {
            return Err(ChallengeError::NotFound("challenge"));
        }
        Ok(())
    }

    /// A player's last player socket closed (or every player's: the lobby moved to another
    /// node): every challenge of it and to it ends.
    fn offline(&self, gone: Offline<'_>) {
        self.end(
            |c| match gone {
                Offline::Player(p) => same(&c.offer.from, p) || same(&c.offer.to, p),
                #[cfg(any(test, feature = "nodes"))]
                Offline::Everyone => true,
            },
            Gone::Offline,
            None,
        );
    }

    /// Ends every open challenge (not being accepted, unless `reason` is `accepted`) that
    /// `which` picks, telling both its players why. Returns how many ended.
    fn end(
        &self,
        which: impl Fn(&Challenge) -> bool,
        reason: Gone,
        decline: Option<DeclineReason>,
    ) -> usize {
        let ended: Vec<Challenge> = {
            let mut state = lock(&self.state);
            let (ended, kept) = std::mem::take(&mut state.open)
                .into_iter()
                .partition(|c| which(c) && (c.taking == (reason == Gone::Accepted)));
            state.open = kept;
            ended
        };
        for c in &ended {
            let message = LobbyMessage::ChallengeGone {
                challenge: c.offer.challenge.clone(),
                reason,
                decline,
            };
            self.sockets.tell(&c.offer.from, &message);
            self.sockets.tell(&c.offer.to, &message);
        }
        ended.len()
    }
}
