//! serde for the types whose natural form is text: a `Game` is its record, a `Position` its
//! position text, a `Setup` its pieces (`"FL:a1 PV:b1 …"`, lower case for Black).

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::game::Game;
use crate::position::Position;
use crate::rank::Rank;
use crate::rules::Rules;
use crate::setup::Setup;
use crate::side::Side;

impl Serialize for Game {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.record())
    }
}

impl<'de> Deserialize<'de> for Game {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Game, D::Error> {
        let text = String::deserialize(d)?;
        Game::from_record(&text).map_err(D::Error::custom)
    }
}

impl Serialize for Position {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Position {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Position, D::Error> {
        String::deserialize(d)?.parse().map_err(D::Error::custom)
    }
}

impl Serialize for Setup {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let side = self.side();
        let pieces: Vec<String> = self
            .pieces()
            .map(|(square, rank)| format!("{}:{square}", rank.code_for(side)))
            .collect();
        s.serialize_str(&pieces.join(" "))
    }
}

impl<'de> Deserialize<'de> for Setup {
    /// Reads the pieces and checks them against the widest zone (4 rows); a game checks the
    /// zone of its own rules again.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Setup, D::Error> {
        let text = String::deserialize(d)?;
        let mut side = None;
        let mut pieces = Vec::new();
        for item in text.split_whitespace() {
            let (code, square) = item
                .split_once(':')
                .ok_or_else(|| D::Error::custom(format!("expected RK:sq, found {item:?}")))?;
            let (rank, s): (Rank, Side) = Rank::parse_with_side(code).map_err(D::Error::custom)?;
            if *side.get_or_insert(s) != s {
                return Err(D::Error::custom("a setup mixes White's and Black's codes"));
            }
            pieces.push((square.parse().map_err(D::Error::custom)?, rank));
        }
        let side = side.ok_or_else(|| D::Error::custom("an empty setup"))?;
        let rules = Rules::new(4, 0).map_err(D::Error::custom)?;
        Setup::new(side, &rules, pieces).map_err(D::Error::custom)
    }
}
