//! Every bot by its name, as servers and bindings choose one: the three agents and the eight
//! levels of the ladder.

use core::fmt;
use core::str::FromStr;

use crate::value_error::ValueError;

use super::{Agent, AgentKind, Level};

/// A bot by name: one of the agents ([`AgentKind`]: `"random"`, `"greedy"`, `"ismcts"`) or a
/// level of the ladder (`"level-1"` … `"level-8"`).
///
/// # Examples
/// ```
/// use salpakan::{AgentKind, Bot};
///
/// let bot: Bot = "level-4".parse()?;
/// assert_eq!(bot, Bot::Level(4));
/// assert_eq!(bot.word(), "level-4");
/// assert_eq!("greedy".parse::<Bot>()?, Bot::Agent(AgentKind::Greedy));
/// assert_eq!(Bot::ALL.len(), 11);
/// assert!("level-9".parse::<Bot>().is_err());
/// # Ok::<_, salpakan::bindings::ValueError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bot {
    /// One of the crate's agents, with the budget its user gives.
    Agent(AgentKind),
    /// A level of the ladder, 1 to [`Level::COUNT`].
    Level(u8),
}

/// The levels' words, by level.
const LEVEL_WORDS: [&str; Level::COUNT as usize] = [
    "level-1", "level-2", "level-3", "level-4", "level-5", "level-6", "level-7", "level-8",
];

impl Bot {
    /// Every bot: the agents, then the levels in order.
    pub const ALL: [Bot; 3 + Level::COUNT as usize] = [
        Bot::Agent(AgentKind::Random),
        Bot::Agent(AgentKind::Greedy),
        Bot::Agent(AgentKind::Ismcts),
        Bot::Level(1),
        Bot::Level(2),
        Bot::Level(3),
        Bot::Level(4),
        Bot::Level(5),
        Bot::Level(6),
        Bot::Level(7),
        Bot::Level(8),
    ];

    /// Its word: the agent's ([`AgentKind::word`]) or `"level-N"`.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Bot::Agent(kind) => kind.word(),
            Bot::Level(level) => LEVEL_WORDS
                .get(usize::from(level).wrapping_sub(1))
                .copied()
                .unwrap_or("level-?"),
        }
    }

    /// A new bot whose draws are seeded with `seed`; `budget` is [`crate::Ismcts`]'s
    /// iterations a move for `Bot::Agent(AgentKind::Ismcts)` (0 for its default), ignored by
    /// the others (a level has its own).
    #[must_use]
    pub fn build(self, seed: u64, budget: u32) -> Box<dyn Agent + Send> {
        match self {
            Bot::Agent(kind) => kind.build(seed, budget),
            Bot::Level(level) => match Level::new(i64::from(level), seed) {
                Ok(level) => Box::new(level),
                // Only `Bot::Level(0)` or past 8 made by hand gets here: the nearest level.
                Err(_) => Box::new(
                    Level::new(i64::from(level.clamp(1, Level::COUNT)), seed)
                        .expect("a level in range"),
                ),
            },
        }
    }
}

impl fmt::Display for Bot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl FromStr for Bot {
    type Err = ValueError;

    /// Reads a [`Bot::word`], in any case.
    fn from_str(word: &str) -> Result<Bot, ValueError> {
        Bot::ALL
            .into_iter()
            .find(|bot| bot.word().eq_ignore_ascii_case(word))
            .ok_or_else(|| ValueError::Bot(word.to_owned()))
    }
}

/// A bot's serde form is its word (`"level-3"`).
#[cfg(feature = "serde")]
impl serde::Serialize for Bot {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.word())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Bot {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Bot, D::Error> {
        use serde::de::Error as _;
        let word = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        word.parse().map_err(D::Error::custom)
    }
}
