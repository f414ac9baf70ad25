//! serde for the types whose natural form is text: a `Game` is its record, a `Position` its
//! position text, a `Setup` its pieces (`"FL:a1 PV:b1 …"`, lower case for Black).

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::game::Game;
use crate::position::Position;
use crate::setup::Setup;

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

/// serde for types written as their `Display` text and read back by their `FromStr`.
macro_rules! as_text {
    ($($name:ident),+) => {$(
        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            #[doc = concat!("Reads the text of [`", stringify!($name), "`]'s `FromStr`.")]
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$name, D::Error> {
                String::deserialize(d)?.parse().map_err(D::Error::custom)
            }
        }
    )+};
}

as_text!(Position, Setup);
