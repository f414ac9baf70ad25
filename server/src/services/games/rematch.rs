//! The rematch: once both seats of a finished game have asked, a new game with the same
//! settings, each player taking the other colour, the same colour moving first (now played by
//! the other person). It is made in the same transaction as the old game's `rematch-made`
//! event, so a crash cannot make it twice; each seat then hears its own new token only. A seat
//! whose page lost its answer asks again and gets a fresh token, as long as the new seat was
//! never used.

use std::net::IpAddr;
use std::sync::Arc;

use salpakan::Side;
use tokio::time::Instant;

use super::tables::TableState;
use super::{Games, Seating, Settings, Table};
use crate::room::{Event, Player, Spec};
use crate::secret::{self, Entropy, ID_BYTES, TOKEN_BYTES};
use crate::services::outbox::Out;
use crate::store::{GameWrite, NodeWrite, Write};
use crate::wire::{Code, Refusal, ServerMessage, SideWord};

/// The rematch of game `old`, whose seats were taken from `ips`: a new id, each player (and
/// its address) in the other seat, the same side first, and for each person's seat a fresh
/// token, given back beside the seating (which keeps only their digests).
fn swapped(
    old: &Spec,
    ips: &[Option<IpAddr>; 2],
    entropy: &dyn Entropy,
) -> (Seating, [Option<String>; 2]) {
    let mut seating = Seating::new(secret::random_hex(entropy, ID_BYTES), old.first);
    let mut tokens: [Option<String>; 2] = [None, None];
    for side in Side::ALL {
        let new = side.other();
        seating.players[new.index()] = old.players[side.index()];
        seating.names[new.index()] = old.names[side.index()].clone();
        seating.ips[new.index()] = ips[side.index()];
        if old.players[side.index()] == Player::Human {
            let token = secret::random_hex(entropy, TOKEN_BYTES);
            seating.tokens[new.index()] = Some(secret::digest(&token));
            tokens[new.index()] = Some(token);
        }
    }
    (seating, tokens)
}

/// The settings of game `old` again, unsealed (a tournament's game has no rematch in it).
fn same_settings(old: &Spec) -> Settings {
    Settings {
        rules: old.rules,
        clock: old.clock,
        setup_ms: old.setup_ms,
        rated: old.rated,
        listed: old.listed,
        sealed: false,
    }
}

/// The addresses a rematch counts against: each seat's, once.
fn addresses(ips: &[Option<IpAddr>; 2]) -> Vec<IpAddr> {
    let mut addresses: Vec<IpAddr> = ips.iter().flatten().copied().collect();
    addresses.dedup();
    addresses
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
        let old = state.room.spec();
        let settings = same_settings(old);
        let (seating, tokens) = swapped(old, &state.ips, &*self.entropy);
        let id = seating.id.clone();
        // A rematch is a new game for each of its players' addresses: counted against their
        // games an hour (it needs no unfinished slot, a finished game going before it).
        let addresses = addresses(&seating.ips);
        if let Err(e) = self.quotas.take_created(&addresses) {
            let refusal = crate::refusals::Refused::refusal(&e);
            let frame: Arc<str> = refusal.message().to_json().into();
            for s in &state.subscribers {
                s.outlet.send(Out::Text(Arc::clone(&frame)));
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
