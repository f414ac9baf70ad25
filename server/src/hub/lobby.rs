//! The lobby: open seeks, the quick-pairing pools, the players' sockets that hear of their
//! pairings, and the public lobby frame. All of it lives in memory only, and only while its
//! owner has a player socket open: a seek or a pool entry is refused without one, and goes
//! when the owner's last one closes (so none outlives its player, nor a restart).
//!
//! Pairing is decided under the lobby's one lock (of two players accepting one seek at once,
//! exactly one finds it there); the game is then made outside the lock.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::{Notify, mpsc, watch};

use super::games::{Seating, Settings, random_side};
use super::players::rounded;
use super::{Hub, HubError, Out, lock};
use salpakan::Bot;

use crate::clock::ClockSettings;
use crate::rating;
use crate::room::Player;
use crate::secret::{self, ID_BYTES, TOKEN_BYTES};
use crate::wire::{
    JoinReply, LobbyMessage, LobbyWords, PoolReply, PoolRequest, RulesWords, SeekReply,
    SeekRequest, SeekWords, SideWord,
};

/// An open seek.
struct Seek {
    sid: String,
    owner: String,
    ip: IpAddr,
    settings: Settings,
}

/// A player waiting in a pool.
struct Waiting {
    /// Which wait this is (a player who leaves and joins again waits anew).
    id: u64,
    player: String,
    pool: String,
    settings: Settings,
    rating: f64,
}

#[derive(Default)]
struct LobbyState {
    /// Oldest first.
    seeks: Vec<Seek>,
    pool: Vec<Waiting>,
    /// Each player's open player sockets (by its name folded to lower case).
    sockets: HashMap<String, Vec<(u64, mpsc::Sender<Out>)>>,
    /// Open lobby sockets.
    watchers: usize,
}

/// The lobby of a [`Hub`].
pub(super) struct Lobby {
    state: Mutex<LobbyState>,
    /// The latest lobby frame; a lobby socket sends the newest it has not sent.
    frame: watch::Sender<Arc<str>>,
    /// Wakes the task that renders the frame (the lobby or the games in play changed).
    changed: Notify,
    next_socket: AtomicU64,
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby {
            state: Mutex::new(LobbyState::default()),
            frame: watch::channel(Arc::from("")).0,
            changed: Notify::new(),
            next_socket: AtomicU64::new(1),
        }
    }
}

fn fold(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// A pool's name: `"5+3"` (minutes, and seconds of increment), or milliseconds where they
/// are not whole, or `"untimed"`; `" rated"` after a rated pool's.
#[must_use]
pub fn pool_name(clock: Option<ClockSettings>, rated: bool) -> String {
    let clock = match clock {
        None => "untimed".to_owned(),
        Some(c) if c.initial_ms % 60_000 == 0 && c.increment_ms % 1000 == 0 => {
            format!("{}+{}", c.initial_ms / 60_000, c.increment_ms / 1000)
        }
        Some(c) => format!("{}ms+{}ms", c.initial_ms, c.increment_ms),
    };
    if rated {
        format!("{clock} rated")
    } else {
        clock
    }
}

/// Of players waiting (each its pool and rating, longest waiting first), the one in `pool`
/// whose rating is closest to `rating`; of equals, the one waiting longest.
#[must_use]
pub fn closest(waiting: &[(&str, f64)], pool: &str, rating: f64) -> Option<usize> {
    waiting
        .iter()
        .enumerate()
        .filter(|(_, (p, _))| *p == pool)
        .min_by(|(i, (_, a)), (j, (_, b))| {
            (a - rating)
                .abs()
                .total_cmp(&(b - rating).abs())
                .then(i.cmp(j))
        })
        .map(|(i, _)| i)
}

/// Who is paired: the player a seek or a pool entry belonged to, and the one who took it.
struct Pairing {
    waiting: String,
    arriving: String,
    settings: Settings,
}

impl Hub {
    /// Wakes the lobby frame's renderer.
    pub(super) fn lobby_changed(&self) {
        self.lobby.changed.notify_one();
    }

    /// Renders the lobby frame whenever a seek came or went (at once, then the changes within
    /// a `lobby_gap` together) and, for the count of games in play, at most once a
    /// `lobby_playing_every` (then only if the frame differs from the last). Until the server
    /// stops.
    pub(super) async fn run_lobby(self: Arc<Hub>) {
        let mut stopping = self.stopping();
        let mut last = String::new();
        let mut changed = true;
        loop {
            let frame = LobbyMessage::Lobby {
                seeks: self.lobby().seeks,
                playing: self.playing(),
            }
            .to_json();
            if changed || frame != last {
                self.lobby.frame.send_replace(Arc::from(frame.as_str()));
                last = frame;
            }
            tokio::time::sleep(self.config.limits.lobby_gap).await;
            changed = tokio::select! {
                () = self.lobby.changed.notified() => true,
                () = tokio::time::sleep(self.config.limits.lobby_playing_every) => false,
                _ = stopping.changed() => return,
            };
        }
    }

    /// `GET /api/lobby`: the open seeks (the oldest `lobby_shown` of them) and the games in
    /// play.
    #[must_use]
    pub fn lobby(&self) -> LobbyWords {
        let shown: Vec<(String, String, Settings)> = {
            let state = lock(&self.lobby.state);
            state
                .seeks
                .iter()
                .take(self.config.limits.lobby_shown)
                .map(|s| (s.sid.clone(), s.owner.clone(), s.settings))
                .collect()
        };
        let seeks = shown
            .into_iter()
            .map(|(seek, name, settings)| {
                let (rating, rd) = self.rating_of(&name);
                SeekWords {
                    seek,
                    name,
                    rating: rounded(rating),
                    provisional: rating::provisional(rd),
                    clock: settings.clock,
                    rules: RulesWords::from(settings.rules),
                    rated: settings.rated,
                    setup_ms: settings.setup_ms,
                }
            })
            .collect();
        LobbyWords {
            seeks,
            playing: self.playing(),
        }
    }

    /// The latest lobby frame, and what tells of the next.
    #[must_use]
    pub fn lobby_frames(&self) -> watch::Receiver<Arc<str>> {
        self.lobby.frame.subscribe()
    }

    /// A lobby socket opened: within the limit of lobby sockets.
    ///
    /// # Errors
    /// [`HubError::TooManyConnections`] past the limit.
    pub fn open_lobby_socket(&self) -> Result<(), HubError> {
        let most = self.config.limits.lobby_sockets;
        let mut state = lock(&self.lobby.state);
        if state.watchers >= most {
            return Err(HubError::TooManyConnections(most));
        }
        state.watchers += 1;
        Ok(())
    }

    /// A lobby socket closed.
    pub fn close_lobby_socket(&self) {
        let mut state = lock(&self.lobby.state);
        state.watchers = state.watchers.saturating_sub(1);
    }

    /// `player`'s player socket opened, its frames going to `tx`: returns its id.
    ///
    /// # Errors
    /// [`HubError::TooManyConnections`] past the player's sockets.
    pub fn open_player_socket(&self, player: &str, tx: mpsc::Sender<Out>) -> Result<u64, HubError> {
        let most = self.config.limits.sockets_per_player;
        let id = self.lobby.next_socket.fetch_add(1, Ordering::Relaxed);
        let mut state = lock(&self.lobby.state);
        let sockets = state.sockets.entry(fold(player)).or_default();
        if sockets.len() >= most {
            return Err(HubError::TooManyConnections(most));
        }
        sockets.push((id, tx));
        Ok(id)
    }

    /// `player`'s player socket `id` closed: with its last, its seeks and its pool entry go.
    pub fn close_player_socket(&self, player: &str, id: u64) {
        let folded = fold(player);
        let withdrawn: Vec<IpAddr> = {
            let mut state = lock(&self.lobby.state);
            let Some(sockets) = state.sockets.get_mut(&folded) else {
                return;
            };
            sockets.retain(|(i, _)| *i != id);
            if !sockets.is_empty() {
                return;
            }
            state.sockets.remove(&folded);
            state.pool.retain(|w| fold(&w.player) != folded);
            let (gone, kept) = std::mem::take(&mut state.seeks)
                .into_iter()
                .partition(|s| fold(&s.owner) == folded);
            state.seeks = kept;
            gone.into_iter().map(|s: Seek| s.ip).collect()
        };
        for ip in withdrawn {
            self.quotas.release_seek(ip);
        }
        self.lobby_changed();
    }

    /// Sends `message` to every player socket of `player`.
    fn tell_player(&self, player: &str, message: &LobbyMessage) {
        let frame: Arc<str> = message.to_json().into();
        let state = lock(&self.lobby.state);
        for (_, tx) in state.sockets.get(&fold(player)).into_iter().flatten() {
            let _ = tx.try_send(Out::Text(Arc::clone(&frame)));
        }
    }

    /// `POST /api/seeks` by `player` from `ip`.
    ///
    /// # Errors
    /// [`HubError::Invalid`] for settings out of range, [`HubError::NoSocket`] without an open
    /// player socket, [`HubError::TooManySeeks`] past the player's or the address's seeks.
    pub fn create_seek(
        &self,
        player: &str,
        request: SeekRequest,
        ip: IpAddr,
    ) -> Result<SeekReply, HubError> {
        let settings = self.settings(
            request.rules,
            request.clock,
            request.setup_ms,
            request.rated,
        )?;
        let sid = secret::random_hex(&*self.entropy, ID_BYTES);
        let folded = fold(player);
        {
            let mut state = lock(&self.lobby.state);
            if !state.sockets.contains_key(&folded) {
                return Err(HubError::NoSocket);
            }
            let most = self.config.limits.seeks_per_player;
            if state
                .seeks
                .iter()
                .filter(|s| fold(&s.owner) == folded)
                .count()
                >= most
            {
                return Err(HubError::TooManySeeks(most));
            }
            self.quotas.take_seek(ip, self.config.limits.seeks_per_ip)?;
            state.seeks.push(Seek {
                sid: sid.clone(),
                owner: player.to_owned(),
                ip,
                settings,
            });
        }
        self.lobby_changed();
        Ok(SeekReply { seek: sid })
    }

    /// `DELETE /api/seeks/{sid}` by `player`.
    ///
    /// # Errors
    /// [`HubError::NotFound`] for an unknown seek or another player's (the same reply).
    pub fn withdraw_seek(&self, player: &str, sid: &str) -> Result<(), HubError> {
        let ip = {
            let mut state = lock(&self.lobby.state);
            let at = state
                .seeks
                .iter()
                .position(|s| s.sid == sid && fold(&s.owner) == fold(player))
                .ok_or(HubError::NotFound)?;
            state.seeks.remove(at).ip
        };
        self.quotas.release_seek(ip);
        self.lobby_changed();
        Ok(())
    }

    /// `POST /api/seeks/{sid}/accept` by `player` from `ip`: the accepter's seat; the seek's
    /// owner is told its own.
    ///
    /// # Errors
    /// [`HubError::NotFound`] for a seek no longer open (of two accepting at once, one gets
    /// this), [`HubError::OwnSeek`], or the game's creation's errors.
    pub async fn accept_seek(
        self: &Arc<Hub>,
        player: &str,
        sid: &str,
        ip: IpAddr,
    ) -> Result<JoinReply, HubError> {
        let seek = {
            let mut state = lock(&self.lobby.state);
            let at = state
                .seeks
                .iter()
                .position(|s| s.sid == sid)
                .ok_or(HubError::NotFound)?;
            if fold(&state.seeks[at].owner) == fold(player) {
                return Err(HubError::OwnSeek);
            }
            state.seeks.remove(at)
        };
        self.quotas.release_seek(seek.ip);
        self.lobby_changed();
        let pairing = Pairing {
            waiting: seek.owner,
            arriving: player.to_owned(),
            settings: seek.settings,
        };
        self.pair(pairing, ip).await
    }

    /// Makes the game of `pairing` (sides at random), created by `ip`: the waiting player is
    /// told its seat on its player sockets; the arriving player's is returned.
    async fn pair(self: &Arc<Hub>, pairing: Pairing, ip: IpAddr) -> Result<JoinReply, HubError> {
        let entropy = &*self.entropy;
        let waiting_side = random_side(entropy);
        let first = random_side(entropy);
        let id = secret::random_hex(entropy, ID_BYTES);
        let tokens = [(); 2].map(|()| secret::random_hex(entropy, TOKEN_BYTES));
        let mut seating = Seating::new(id, first);
        seating.tokens = [0, 1].map(|i| Some(secret::digest(&tokens[i])));
        seating.names[waiting_side.index()] = Some(pairing.waiting.clone());
        seating.names[waiting_side.other().index()] = Some(pairing.arriving.clone());
        let game = self
            .open_game(&pairing.settings, seating, Some(ip), Vec::new())
            .await?;
        self.tell_player(
            &pairing.waiting,
            &LobbyMessage::Paired {
                game: game.clone(),
                side: SideWord(waiting_side),
                token: tokens[waiting_side.index()].clone(),
            },
        );
        let arriving = waiting_side.other();
        Ok(JoinReply {
            game,
            side: SideWord(arriving),
            token: tokens[arriving.index()].clone(),
        })
    }

    /// `POST /api/pool` by `player` from `ip`: waits in the pool of its clock and rated flag
    /// (leaving any other), or is paired at once with the waiting player of the closest
    /// rating; both then hear `paired` on their player sockets.
    ///
    /// # Errors
    /// [`HubError::Invalid`] for a clock out of range, [`HubError::NoSocket`] without an open
    /// player socket, or the game's creation's errors.
    pub async fn join_pool(
        self: &Arc<Hub>,
        player: &str,
        request: PoolRequest,
        ip: IpAddr,
    ) -> Result<PoolReply, HubError> {
        let settings = self.settings(None, request.clock, None, request.rated)?;
        let pool = pool_name(settings.clock, settings.rated);
        let (rating, _) = self.rating_of(player);
        let folded = fold(player);
        let wait = self.lobby.next_socket.fetch_add(1, Ordering::Relaxed);
        let partner = {
            let mut state = lock(&self.lobby.state);
            if !state.sockets.contains_key(&folded) {
                return Err(HubError::NoSocket);
            }
            state.pool.retain(|w| fold(&w.player) != folded);
            let waiting: Vec<(&str, f64)> = state
                .pool
                .iter()
                .map(|w| (w.pool.as_str(), w.rating))
                .collect();
            match closest(&waiting, &pool, rating) {
                Some(i) => Some(state.pool.remove(i)),
                None => {
                    state.pool.push(Waiting {
                        id: wait,
                        player: player.to_owned(),
                        pool: pool.clone(),
                        settings,
                        rating,
                    });
                    None
                }
            }
        };
        if let Some(partner) = partner {
            let pairing = Pairing {
                waiting: partner.player.clone(),
                arriving: player.to_owned(),
                settings: partner.settings,
            };
            let seat = match self.pair(pairing, ip).await {
                Ok(seat) => seat,
                Err(e) => {
                    // The partner waits on, first in line.
                    lock(&self.lobby.state).pool.insert(0, partner);
                    return Err(e);
                }
            };
            self.tell_player(
                player,
                &LobbyMessage::Paired {
                    game: seat.game,
                    side: seat.side,
                    token: seat.token,
                },
            );
        } else if let Some(after) = self.config.limits.pool_bot_after {
            // Nobody came: a server bot takes the other seat.
            let hub = Arc::clone(self);
            tokio::spawn(async move {
                tokio::time::sleep(after).await;
                hub.pair_with_bot(wait, ip).await;
            });
        }
        Ok(PoolReply { pool })
    }

    /// The wait `wait` is still unanswered: its player is paired with the server's bot whose
    /// rating is closest to its own, on its player sockets.
    async fn pair_with_bot(self: &Arc<Hub>, wait: u64, ip: IpAddr) {
        let waiting = {
            let mut state = lock(&self.lobby.state);
            let Some(at) = state.pool.iter().position(|w| w.id == wait) else {
                return;
            };
            state.pool.remove(at)
        };
        let bots: Vec<(Bot, f64)> = Bot::ALL
            .into_iter()
            .map(|kind| {
                let name = Player::Bot(kind).bot_name().unwrap_or_default();
                (kind, self.rating_of(&name).0)
            })
            .collect();
        let Some(&(kind, _)) = bots.iter().min_by(|a, b| {
            (a.1 - waiting.rating)
                .abs()
                .total_cmp(&(b.1 - waiting.rating).abs())
        }) else {
            return;
        };
        let entropy = &*self.entropy;
        let side = random_side(entropy);
        let first = random_side(entropy);
        let id = secret::random_hex(entropy, ID_BYTES);
        let token = secret::random_hex(entropy, TOKEN_BYTES);
        let mut seating = Seating::new(id, first);
        seating.players[side.other().index()] = Player::Bot(kind);
        seating.tokens[side.index()] = Some(secret::digest(&token));
        seating.names[side.index()] = Some(waiting.player.clone());
        match self
            .open_game(&waiting.settings, seating, Some(ip), Vec::new())
            .await
        {
            Ok(game) => self.tell_player(
                &waiting.player,
                &LobbyMessage::Paired {
                    game,
                    side: SideWord(side),
                    token,
                },
            ),
            Err(e) => tracing::error!(error = %e, "a pool's bot game not made"),
        }
    }

    /// `DELETE /api/pool` by `player` (nothing to leave is no error).
    pub fn leave_pool(&self, player: &str) {
        let folded = fold(player);
        lock(&self.lobby.state)
            .pool
            .retain(|w| fold(&w.player) != folded);
    }
}

impl Hub {
    /// This node no longer holds the lobby (its lease lapsed): every seek and pool entry
    /// goes, and every player socket is told to connect again (1012), to the lobby's owner
    /// now.
    pub(super) fn lobby_given_up(&self) {
        let sockets = {
            let mut state = lock(&self.lobby.state);
            state.seeks.clear();
            state.pool.clear();
            std::mem::take(&mut state.sockets)
        };
        for (_, sender) in sockets.into_values().flatten() {
            let _ = sender.try_send(Out::Close(
                crate::wire::CloseCode::Restart,
                "the lobby moves to another server; connect again",
            ));
        }
        self.lobby_changed();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_are_named_by_clock_and_rated_flag() {
        let clock = |initial_ms, increment_ms| {
            Some(ClockSettings {
                initial_ms,
                increment_ms,
            })
        };
        assert_eq!(pool_name(clock(300_000, 3_000), false), "5+3");
        assert_eq!(pool_name(clock(600_000, 0), true), "10+0 rated");
        assert_eq!(pool_name(None, false), "untimed");
        assert_eq!(pool_name(clock(90_500, 250), false), "90500ms+250ms");
    }

    #[test]
    fn the_pool_pairs_the_closest_rating_within_the_pool() {
        let waiting = [
            ("5+3", 1900.0),
            ("10+0", 1500.0),
            ("5+3", 1450.0),
            ("5+3", 1550.0),
            ("5+3 rated", 1500.0),
        ];
        // 1450 and 1550 are as close to 1500: the one waiting longer.
        assert_eq!(closest(&waiting, "5+3", 1500.0), Some(2));
        assert_eq!(closest(&waiting, "5+3", 1540.0), Some(3));
        assert_eq!(closest(&waiting, "5+3", 2400.0), Some(0));
        assert_eq!(closest(&waiting, "10+0", 900.0), Some(1));
        assert_eq!(closest(&waiting, "3+2", 1500.0), None);
    }
}
