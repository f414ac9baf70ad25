//! A game socket, a seat's or a spectator's: each text frame is read once into a
//! [`Request`]: a `ping` is answered here, a chat request goes to the chat service, a
//! `hello` and a seat's command to the game. What they decide comes back through the
//! socket's outbox. A `hello`'s replay is paid from the socket's budget before it is sent.

use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

use axum::extract::ws::WebSocket;
use tokio::time::Instant;

use super::request::Request;
use super::{Closing, Env, Flow, Handler, Incoming, Socket};
use crate::budget::Budget;
use crate::chat;
use crate::config::Limits;
use crate::room::Recipient;
use crate::services::Services;
use crate::services::chat::Chats;
use crate::services::games::{Games, Table};
use crate::services::outbox::{Out, Outlet, outlet};
use crate::services::quotas::{Quotas, SocketSlot};
use crate::wire::{Code, Refusal, ServerMessage};

/// Events a replay sends for each message it costs the socket's budget (a `hello` itself
/// costs one), paid before the replay is sent and at most the rest of a whole window: a
/// budget of 200 messages in 10 s replays at most about 5,000 events per window, or one
/// longer game's whole history once. A replay the budget cannot pay is not sent: the
/// socket gets `rate-limited` and is closed.
pub const REPLAYED_PER_MESSAGE: usize = 25;

/// What a replay of `replayed` events costs a budget of `per_window` messages.
#[must_use]
pub(crate) fn replay_cost(replayed: usize, per_window: usize) -> usize {
    (replayed / REPLAYED_PER_MESSAGE).min(per_window.saturating_sub(1))
}

struct Seat {
    games: Arc<Games>,
    chats: Arc<Chats>,
    table: Arc<Table>,
    to: Recipient,
    subscriber: u64,
    /// The socket's own queue (a `pong` and a refusal go out in order with the rest).
    outlet: Outlet,
    budget: Arc<Mutex<Budget>>,
    limits: Limits,
    /// A spectator's slot among its address's sockets, held until the socket ends.
    slot: Option<SocketSlot>,
    /// The client's address, and its per-address limits (the reports it makes).
    ip: IpAddr,
    quotas: Arc<Quotas>,
}

impl Handler for Seat {
    async fn frame(&mut self, frame: Incoming, received: Instant) -> Flow {
        let Incoming::Text(text) = frame else {
            let refusal = Refusal::new(Code::BadMessage, "frames are text");
            return Flow::Reply(refusal.message().to_json().into());
        };
        match Request::read(text.as_str(), self.to) {
            Err(refusal) => {
                crate::telemetry::refused(refusal.code.word());
                self.outlet
                    .send(Out::Text(refusal.message().to_json().into()));
            }
            Ok(Request::Ping) => {
                self.outlet
                    .send(Out::Text(ServerMessage::Pong.to_json().into()));
            }
            Ok(Request::Chat(command)) => {
                if matches!(command, chat::Command::Report { .. })
                    && let Err(e) = self.quotas.take_report(self.ip)
                {
                    let refusal = Refusal::new(Code::ChatRateLimited, e.to_string());
                    self.outlet
                        .send(Out::Text(refusal.message().to_json().into()));
                    return Flow::Go;
                }
                self.chats
                    .handle(self.table.chat(), self.subscriber, command, received)
                    .await;
            }
            Ok(Request::Play(command)) => {
                self.games
                    .play(&self.table, self.subscriber, command, received)
                    .await;
            }
            Ok(Request::Hello { v }) => {
                let (budget, per_window) = (&self.budget, self.limits.messages_per_window);
                let pay = |replayed: usize| {
                    budget
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .take(received, replay_cost(replayed, per_window))
                };
                let paid = self
                    .games
                    .hello(&self.table, (self.subscriber, self.to), v, pay)
                    .await;
                if !paid {
                    return Flow::Close(Closing::rate_limited(&self.limits));
                }
            }
        }
        Flow::Go
    }

    async fn finish(self) {
        self.games
            .detach(&self.table, self.subscriber, self.to)
            .await;
        drop(self.slot);
    }
}

/// Serves one socket of client `ip` for `to` of game `table` until it closes. Its message
/// budget is the seat's (shared by the seat's sockets) or, for a spectator, its address's
/// (shared by the address's spectators, whose sockets hold a `slot`).
pub(crate) async fn serve(
    ws: WebSocket,
    services: Arc<Services>,
    (table, to): (Arc<Table>, Recipient),
    ip: IpAddr,
    slot: Option<SocketSlot>,
) {
    let kind = match to {
        Recipient::Seat(_) => "seat",
        Recipient::Spectator => "spectator",
    };
    let socket = Socket::new(ws, kind, Env::of(&services)).for_game(table.id());
    let limits = *socket.limits();
    let (to_socket, inbox) = outlet(limits.outbox);
    let spectating = slot.as_ref().map(SocketSlot::budget);
    let games = Arc::clone(&services.games);
    let (subscriber, budget) = games
        .attach(&table, to, to_socket.clone(), spectating)
        .await;
    let seat = Seat {
        games,
        chats: Arc::clone(&services.chats),
        table,
        outlet: to_socket,
        to,
        subscriber,
        budget: Arc::clone(&budget),
        limits,
        slot,
        ip,
        quotas: Arc::clone(&services.quotas),
    };
    socket.run(seat, inbox, Some(budget)).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replay_costs_a_message_per_25_events_and_at_most_the_rest_of_a_window() {
        assert_eq!(replay_cost(24, 200), 0);
        assert_eq!(replay_cost(1203, 200), 48);
        assert_eq!(replay_cost(8442, 200), 199);
        assert_eq!(replay_cost(8442, 0), 0);
    }
}
