//! The rematch: once both seats of a finished game have asked, a new game with the same
//! settings, each player taking the other colour, the same colour moving first (now played by
//! the other person). It is made in the same transaction as the old game's `rematch-made`
//! event, so a crash cannot make it twice; each seat then hears its own new token only.

use std::net::IpAddr;
use std::sync::Arc;

use salpakan::Side;
use tokio::time::Instant;

use super::live::LiveState;
use super::open::{Seating, Settings};
use super::{Games, Live};
use crate::room::{Event, Player};
use crate::secret::{self, ID_BYTES, TOKEN_BYTES};
use crate::services::outbox::Out;
use crate::store::Write;
use crate::wire::{Code, Refusal, ServerMessage, SideWord};

impl Games {
    /// Makes the rematch of the game in `state` (both offers stand at `now`): the new game and
    /// the old game's `rematch-made` event in one transaction, then each seat its `rematch`.
    pub(super) async fn make_rematch(
        self: &Arc<Games>,
        live: &Arc<Live>,
        state: &mut LiveState,
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
        let mut also = vec![Write::Events {
            game: live.id().to_owned(),
            first_v: state.room.version() + 1,
            events: vec![event.clone()],
            ending: None,
        }];
        let at_ms = crate::clock::unix_ms();
        also.extend(addresses.iter().map(|&ip| Write::Arrival {
            kind: "game",
            ip,
            at_ms,
        }));
        if let Err(e) = self.open_game(&settings, seating, None, also).await {
            tracing::error!(game = %live.id(), error = %e, "rematch not made");
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
        state: &LiveState,
        side: Side,
    ) -> Result<ServerMessage, Refusal> {
        let unavailable = || Refusal::new(Code::SeatTaken, "the rematch's seat is not open");
        let id = state.room.rematched().ok_or_else(unavailable)?.to_owned();
        let new = side.other();
        let live = self
            .live(&id)
            .await
            .ok()
            .flatten()
            .ok_or_else(unavailable)?;
        let mut rematch = live.state.lock().await;
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
        let write = Write::Join {
            game: id.clone(),
            side: new,
            token: digest.clone(),
            seated_ms: None,
            name: name.clone(),
            ip: None,
            unrated: None,
        };
        if let Err(e) = self.store.write(vec![write]).await {
            tracing::error!(game = %id, error = %e, "seat not given again");
            return Err(Refusal::new(Code::Internal, "the server could not do that"));
        }
        let wall = crate::clock::unix_ms();
        rematch
            .room
            .take_seat(new, digest, name, wall, Instant::now());
        self.evict_if_done(&live, &rematch);
        Ok(ServerMessage::Rematch {
            game: id,
            side: SideWord(new),
            token,
        })
    }
}
