//! What a tournament keeps of its entrants, rounds, boards and log, as its JSON says them.

use salpakan::Side;
use serde::{Deserialize, Serialize};

use super::{Entrant, Outcome, Round};

/// Where a tournament is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Taking registrations.
    Upcoming,
    /// Started (paused or not).
    Running,
    /// Over: its games' records, replays and openings are public.
    Finished,
}

impl Status {
    /// `"upcoming"`, `"running"` or `"finished"`.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Status::Upcoming => "upcoming",
            Status::Running => "running",
            Status::Finished => "finished",
        }
    }
}

/// A registered player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EntrantRow {
    /// Its name.
    pub name: String,
    /// Its rating at registration (at the start for those registered before it).
    pub rating: f64,
    /// Whether it withdrew after the start (it is paired no more; its results stand).
    pub withdrawn: bool,
}

/// How a board ended, as the tournament's JSON says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "result")]
pub enum ResultWords {
    /// White won.
    WhiteWon,
    /// Black won.
    BlackWon,
    /// Drawn.
    Draw,
    /// Not started by the cutoff: `present` (if either was) scores the default.
    Default {
        /// The side present: `"white"`, `"black"` or null.
        #[serde(with = "side_words::optional")]
        present: Option<Side>,
    },
    /// Voided by a director.
    Void,
}

impl ResultWords {
    /// The outcome the standings count.
    #[must_use]
    pub fn outcome(self) -> Outcome {
        match self {
            ResultWords::WhiteWon => Outcome::Won(Side::White),
            ResultWords::BlackWon => Outcome::Won(Side::Black),
            ResultWords::Draw => Outcome::Drawn,
            ResultWords::Default { present } => Outcome::Default(present),
            ResultWords::Void => Outcome::Void,
        }
    }

    /// The words of `outcome`.
    #[must_use]
    pub fn of(outcome: Outcome) -> ResultWords {
        match outcome {
            Outcome::Won(Side::White) => ResultWords::WhiteWon,
            Outcome::Won(Side::Black) => ResultWords::BlackWon,
            Outcome::Drawn => ResultWords::Draw,
            Outcome::Default(present) => ResultWords::Default { present },
            Outcome::Void => ResultWords::Void,
        }
    }
}

/// A game of a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// White's entrant.
    pub white: Entrant,
    /// Black's entrant.
    pub black: Entrant,
    /// The side that moves first: `"white"` or `"black"`.
    #[serde(with = "side_words")]
    pub first: Side,
    /// Its game, once made.
    pub game: Option<String>,
    /// How it ended, once decided.
    pub result: Option<ResultWords>,
}

/// A round: its boards, its bye, its cutoff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRow {
    /// Its boards.
    pub boards: Vec<Board>,
    /// Who sits it out.
    pub bye: Option<Entrant>,
    /// When it was paired (milliseconds since the Unix epoch; 0 for a round robin's round
    /// not yet under way).
    pub paired_ms: u64,
    /// Its cutoff: a game not started by then is a default.
    pub cutoff_ms: u64,
}

/// One line of the public log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogLine {
    /// Its number in the tournament's log, from 1, in the order said (a line dropped from a
    /// full log leaves a gap): the database keeps each line under it.
    #[serde(default)]
    pub n: u64,
    /// When, in milliseconds since the Unix epoch.
    pub at_ms: u64,
    /// Who: a player's name, or `"server"`.
    pub by: String,
    /// What was done: `created`, `registered`, `withdrew`, `started`, `paused`, `resumed`,
    /// `extended`, `paired`, `default`, `void`, `result`, `finished`, `director`.
    pub action: String,
    /// Its details.
    pub detail: String,
}

/// A round's row from its plain value, paired at `paired_ms`, `first` to move first.
pub(super) fn row_of(round: &Round, first: Side, paired_ms: u64) -> RoundRow {
    RoundRow {
        boards: round
            .pairings
            .iter()
            .map(|p| Board {
                white: p.white,
                black: p.black,
                first,
                game: None,
                result: None,
            })
            .collect(),
        bye: round.bye,
        paired_ms,
        cutoff_ms: 0,
    }
}

/// A side as the contract writes it, `"white"` or `"black"`.
mod side_words {
    use salpakan::Side;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(side: &Side, to: S) -> Result<S::Ok, S::Error> {
        to.serialize_str(side.word())
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(from: D) -> Result<Side, D::Error> {
        let word = String::deserialize(from)?;
        word.parse().map_err(serde::de::Error::custom)
    }

    /// An optional side: a side's word, or null.
    pub mod optional {
        use salpakan::Side;
        use serde::{Deserialize, Deserializer, Serializer};

        pub(crate) fn serialize<S: Serializer>(
            side: &Option<Side>,
            to: S,
        ) -> Result<S::Ok, S::Error> {
            match side {
                Some(side) => to.serialize_str(side.word()),
                None => to.serialize_none(),
            }
        }

        pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
            from: D,
        ) -> Result<Option<Side>, D::Error> {
            let word = Option::<String>::deserialize(from)?;
            word.map(|w| w.parse().map_err(serde::de::Error::custom))
                .transpose()
        }
    }
}
