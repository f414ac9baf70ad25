//! The JSON of the contract (`docs/SERVER.md`): what clients send, and the values every
//! server message is made of. Each value here is built from one seat's [`View`], the
//! spectator's [`PublicView`] or public facts (statuses, moves, outcomes): never from a
//! `Game`, a `Position` or an enemy `Setup`.

use salpakan::{PieceId, PublicView, Setup, Side, Square, Status, View, ViewCell};
use serde::Deserialize;
use serde_json::{Value, json};

/// A message from a client, as the contract spells it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub enum ClientMessage {
    /// The seat's formation: 72 cell values (a rank's number 0 … 14, or 255 for empty).
    Setup {
        /// The cells, indexed by square (a1 = 0 … i8 = 71).
        cells: Vec<i64>,
    },
    /// A move, with the number of plies already played.
    Move {
        /// `"e3-e4"` (or `"e3xe4"`).
        #[serde(rename = "move")]
        mv: String,
        /// Plies already played when the client chose it.
        ply: u64,
    },
    /// Resign.
    Resign,
    /// Offer a draw, or accept the opponent's standing offer.
    Draw,
    /// On reconnect: the events after version `v`.
    Hello {
        /// The last version the client has.
        v: u64,
    },
    /// Answered with a pong.
    Ping,
}

impl ClientMessage {
    /// Reads one frame's text.
    ///
    /// # Errors
    /// What is wrong with it (the text of a `bad-message` error): not JSON, no or an unknown
    /// `t`, a missing field or one of the wrong type, a formation of other than 72 cells.
    pub fn parse(text: &str) -> Result<ClientMessage, String> {
        let message: ClientMessage = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if let ClientMessage::Setup { cells } = &message
            && cells.len() != Square::NUM
        {
            return Err(format!(
                "a formation has {} cells, not {}",
                Square::NUM,
                cells.len()
            ));
        }
        Ok(message)
    }
}

/// A refused request: the `code` and `message` of an `error` frame (or of an HTTP reply).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// One of the contract's codes (`bad-message`, `illegal-move`, …).
    pub code: &'static str,
    /// What was wrong, naming only what the recipient already knows.
    pub message: String,
}

impl Refusal {
    /// A refusal with `code` saying `message`.
    pub fn new(code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }

    /// The `error` frame.
    #[must_use]
    pub fn frame(&self) -> String {
        json!({"t": "error", "code": self.code, "message": self.message}).to_string()
    }
}

/// A side's word: `"white"`, `"black"`.
#[must_use]
pub fn side(side: Side) -> Value {
    Value::from(side.word())
}

/// `{"state", "winner", "reason"}`.
#[must_use]
pub fn status(status: Status) -> Value {
    json!({
        "state": status.state_word(),
        "winner": status.winner().map(Side::word),
        "reason": status.reason_token(),
    })
}

/// The rules: `{"setup_rows", "move_limit"}` (0 for none), as `POST /api/games` takes them.
#[must_use]
pub fn rules(rules: salpakan::Rules) -> Value {
    json!({"setup_rows": rules.setup_rows(), "move_limit": rules.move_limit().unwrap_or(0)})
}

/// The clock: `{"white_ms", "black_ms", "running"}`, or `null` for an untimed game.
#[must_use]
pub fn clock(reading: Option<crate::clock::Reading>) -> Value {
    match reading {
        None => Value::Null,
        Some(r) => json!({
            "white_ms": r.remaining_ms[0],
            "black_ms": r.remaining_ms[1],
            "running": r.running.map(Side::word),
        }),
    }
}

fn cell(side: Side, rank: Option<salpakan::Rank>) -> Value {
    json!({"side": side.word(), "rank": rank.map(salpakan::Rank::code)})
}

/// A seat's `VIEW`: its view text and 72 cells (its own pieces with rank, the enemy's
/// without).
#[must_use]
pub fn seat_view(view: &View) -> Value {
    let cells: Vec<Value> = view
        .cells()
        .iter()
        .map(|c| match *c {
            ViewCell::Empty => Value::Null,
            ViewCell::Own { rank, .. } => cell(view.side(), Some(rank)),
            ViewCell::Enemy { .. } => cell(view.side().other(), None),
        })
        .collect();
    json!({"text": view.to_text().to_string(), "cells": cells})
}

/// A spectator's `VIEW`: every piece's side, no rank, and the side to move.
#[must_use]
pub fn public_view(view: &PublicView) -> Value {
    let cells: Vec<Value> = view
        .cells()
        .iter()
        .map(|c| match c {
            None => Value::Null,
            Some(id) => cell(PieceId::side(*id), None),
        })
        .collect();
    json!({
        "text": view.to_text().to_string(),
        "cells": cells,
        "side_to_move": view.side_to_move().word(),
    })
}

/// A seat's `VIEW` in the setup phase: its own accepted formation (`text` is the formation's
/// setup text).
#[must_use]
pub fn formation_view(setup: &Setup) -> Value {
    let cells: Vec<Value> = setup
        .cells()
        .iter()
        .map(|rank| rank.map_or(Value::Null, |r| cell(setup.side(), Some(r))))
        .collect();
    json!({"text": setup.to_string(), "cells": cells})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_parse_as_the_contract_spells_them() {
        assert_eq!(
            ClientMessage::parse(r#"{"t":"ping"}"#),
            Ok(ClientMessage::Ping)
        );
        assert_eq!(
            ClientMessage::parse(r#"{"t":"move","move":"e3xe4","ply":7}"#),
            Ok(ClientMessage::Move {
                mv: "e3xe4".into(),
                ply: 7
            })
        );
        assert_eq!(
            ClientMessage::parse(r#"{"t":"hello","v":0}"#),
            Ok(ClientMessage::Hello { v: 0 })
        );
        for bad in [
            "",
            "[]",
            "{}",
            r#"{"t":"fly"}"#,
            r#"{"t":"move","move":"e3-e4"}"#,
            r#"{"t":"move","move":3,"ply":0}"#,
            r#"{"t":"move","move":"e3-e4","ply":-1}"#,
            r#"{"t":"hello","v":"1"}"#,
            r#"{"t":"setup","cells":[1,2,3]}"#,
            r#"{"t":"setup","cells":"x"}"#,
        ] {
            assert!(ClientMessage::parse(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn statuses_use_the_crate_tokens() {
        use salpakan::WinReason;
        assert_eq!(
            status(Status::Ongoing),
            json!({"state": "ongoing", "winner": null, "reason": null})
        );
        assert_eq!(
            status(Status::Won {
                winner: Side::Black,
                reason: WinReason::Time
            }),
            json!({"state": "won", "winner": "black", "reason": "time"})
        );
    }
}
