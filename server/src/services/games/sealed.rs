//! Tournament games: sealed until their tournament finishes (a record, replay, chat or watch
//! reaches only their two players), a named player taking its seat again with its key, and
//! a round's cutoff moved by its director (the games' setup time follows it).

use std::sync::Arc;

use salpakan::Side;
use tokio::time::Instant;

use super::reads::seat_of;
use super::{GameError, Games};
use crate::room::{Phase, Player};
use crate::secret::plausible_id;
use crate::secret::{self, TOKEN_BYTES};
use crate::store::Write;
use crate::wire::{JoinReply, SideWord};

impl Games {
    /// Refuses with [`GameError::Sealed`] a request for game `id` of a tournament not yet
    /// finished, unless it comes from one of its two players: by a seat's `token`, or by the
    /// `player` (with its key) named at a seat; a spectator's socket (`watch`) passes too if
    /// the tournament lets its games be watched (its `over` then carries no record: see
    /// [`crate::room::Spec::sealed`]). Any other game passes.
    ///
    /// # Errors
    /// [`GameError::Sealed`], or the database's error.
    pub async fn unsealed(
        &self,
        id: &str,
        (token, player): (Option<&str>, Option<&str>),
        watch: bool,
    ) -> Result<(), GameError> {
        if !plausible_id(id) {
            return Ok(());
        }
        // A game in memory says whether it is sealed: any other costs no read here.
        let held = match self.held(id) {
            Some(live) => {
                let state = live.state.lock().await;
                let spec = state.room.spec();
                if !spec.sealed {
                    return Ok(());
                }
                Some((spec.tokens.clone(), spec.names.clone()))
            }
            None => None,
        };
        let Some(of) = self.store.tournament_of(id).await? else {
            return Ok(());
        };
        if of.finished || (watch && of.watching) {
            return Ok(());
        }
        let (tokens, names) = match held {
            Some(seats) => seats,
            None => match self.store.finished_chat(id).await? {
                Some(seats) => (seats.tokens, seats.names),
                None => return Err(GameError::Sealed),
            },
        };
        let by_token = token.is_some_and(|t| seat_of(&tokens, t).is_some());
        let by_name =
            player.is_some_and(|p| names.iter().flatten().any(|n| n.eq_ignore_ascii_case(p)));
        if by_token || by_name {
            Ok(())
        } else {
            Err(GameError::Sealed)
        }
    }

    /// `POST /api/games/{id}/seat`: `player`, named at a seat of game `id` (a tournament's
    /// pairing names its players), takes that seat with a new token (the one before no
    /// longer opens a socket). For a player away when its game was made, or on another
    /// device.
    ///
    /// # Errors
    /// [`GameError::NotFound`] for an unknown game or one with no seat of `player`,
    /// [`GameError::GameOver`] for a finished one, or the database's error.
    pub async fn reseat(self: &Arc<Games>, id: &str, player: &str) -> Result<JoinReply, GameError> {
        if self.finished_seats(id).await.is_some() {
            return Err(GameError::GameOver);
        }
        let live = self.live(id).await?.ok_or(GameError::NotFound)?;
        let mut state = live.state.lock().await;
        if state.gone {
            return Err(GameError::NotFound);
        }
        if state.room.phase().finished() {
            return Err(GameError::GameOver);
        }
        let spec = state.room.spec();
        let side = Side::ALL
            .into_iter()
            .find(|s| {
                spec.players[s.index()] == Player::Human
                    && spec.names[s.index()]
                        .as_deref()
                        .is_some_and(|n| n.eq_ignore_ascii_case(player))
            })
            .ok_or(GameError::NotFound)?;
        let name = spec.names[side.index()].clone();
        let token = secret::random_hex(&*self.entropy, TOKEN_BYTES);
        let digest = secret::digest(&token);
        self.store
            .write(vec![Write::Join {
                game: live.id().to_owned(),
                side,
                token: digest.clone(),
                seated_ms: None,
                name: name.clone(),
                ip: None,
                unrated: None,
            }])
            .await?;
        state
            .room
            .take_seat(side, digest, name, crate::clock::unix_ms(), Instant::now());
        Ok(JoinReply {
            game: live.id().to_owned(),
            side: SideWord(side),
            token,
        })
    }

    /// Moves game `id`'s setup deadline to `cutoff_ms` (milliseconds since the Unix epoch),
    /// while it is in its setup phase with both seats taken: a tournament round's cutoff
    /// moved by its director.
    ///
    /// # Errors
    /// [`GameError::NotFound`], [`GameError::Elsewhere`] for a game another node holds, or the
    /// database's error.
    pub async fn extend_setup(
        self: &Arc<Games>,
        id: &str,
        cutoff_ms: u64,
    ) -> Result<(), GameError> {
        let live = self.live(id).await?.ok_or(GameError::NotFound)?;
        let mut state = live.state.lock().await;
        if state.gone || state.room.phase() != Phase::Setup {
            return Ok(());
        }
        let Some(seated) = state.room.spec().seated_ms else {
            return Ok(());
        };
        let setup_ms = cutoff_ms.saturating_sub(seated);
        self.store
            .write(vec![Write::SetupTime {
                game: live.id().to_owned(),
                setup_ms,
            }])
            .await?;
        state
            .room
            .set_setup_time(setup_ms, crate::clock::unix_ms(), Instant::now());
        drop(state);
        live.timer.notify_one();
        Ok(())
    }
}
