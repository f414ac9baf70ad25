//! What a room sends: each event, the `state` and the summary, as one recipient sees them,
//! built from that recipient's `View`, the `PublicView` or public facts only.

use salpakan::{Game, Outcome, Side};
use serde_json::{Value, json};
use tokio::time::Instant;

use super::{Event, Player, Recipient, Room};
use crate::wire;

impl Room {
    /// The event with version `v` as `to` receives it.
    ///
    /// # Panics
    /// If there is no such event (`v` is `1 ..= version()`).
    #[must_use]
    pub fn render(&self, v: u64, to: Recipient) -> String {
        let event = &self.events[(v - 1) as usize];
        let frame = match event {
            Event::Ready { side } => json!({"t": "ready", "v": v, "side": wire::side(*side)}),
            Event::Start { first, clock } => json!({
                "t": "start",
                "v": v,
                "first": wire::side(*first),
                "view": self.start_view(to),
                "clock": wire::clock(*clock),
            }),
            Event::Ply {
                ply,
                side,
                mv,
                outcome,
                status,
                clock,
            } => json!({
                "t": "ply",
                "v": v,
                "ply": ply,
                "side": wire::side(*side),
                "move": mv.to_string(),
                "challenge": outcome.is_some(),
                "outcome": outcome.map(Outcome::name),
                "status": wire::status(*status),
                "clock": wire::clock(*clock),
            }),
            Event::DrawOffer { side } => {
                json!({"t": "draw-offer", "v": v, "side": wire::side(*side)})
            }
            Event::Over { status } => json!({
                "t": "over",
                "v": v,
                "status": wire::status(*status),
                "record": self.record(),
            }),
        };
        frame.to_string()
    }

    fn start_view(&self, to: Recipient) -> Value {
        let (Some(white), Some(black)) = (&self.setups[0], &self.setups[1]) else {
            return Value::Null;
        };
        let Ok(start) = Game::new(
            white.clone(),
            black.clone(),
            self.spec.first,
            self.spec.rules,
        ) else {
            return Value::Null;
        };
        match to.side() {
            Some(side) => wire::seat_view(&start.view(side)),
            None => wire::public_view(&start.public_view()),
        }
    }

    /// The `state` message for `to` at `now`.
    #[must_use]
    pub fn state(&self, to: Recipient, now: Instant) -> String {
        let view = match (&self.game, to.side()) {
            (Some(game), Some(side)) => wire::seat_view(&game.view(side)),
            (Some(game), None) => wire::public_view(&game.public_view()),
            (None, Some(side)) => self.setups[side.index()]
                .as_ref()
                .map_or(Value::Null, wire::formation_view),
            (None, None) => Value::Null,
        };
        let presence: serde_json::Map<String, Value> = Side::ALL
            .into_iter()
            .map(|side| (side.word().to_owned(), Value::from(self.present(side))))
            .collect();
        json!({
            "t": "state",
            "v": self.version(),
            "side": to.side().map(Side::word),
            "phase": self.phase().word(),
            "view": view,
            "status": wire::status(self.status()),
            "clock": wire::clock(self.clock(now)),
            "draw_offer": self.draw_offer.map(Side::word),
            "presence": presence,
            "rules": wire::rules(self.spec.rules),
        })
        .to_string()
    }

    /// The reply to `GET /api/games/{id}` at `now`.
    #[must_use]
    pub fn summary(&self, now: Instant) -> Value {
        let players: serde_json::Map<String, Value> = Side::ALL
            .into_iter()
            .map(|side| {
                let word = match self.spec.players[side.index()] {
                    Player::Human => "human",
                    Player::Bot(_) => "bot",
                };
                (side.word().to_owned(), Value::from(word))
            })
            .collect();
        json!({
            "game": self.spec.id,
            "phase": self.phase().word(),
            "ply": self.ply(),
            "status": wire::status(self.status()),
            "clock": wire::clock(self.clock(now)),
            "players": players,
            "rules": wire::rules(self.spec.rules),
            "first": self.spec.first.word(),
        })
    }
}
