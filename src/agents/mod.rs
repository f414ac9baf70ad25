//! Players that see only what a player may see: an [`Agent`] chooses its move from a
//! [`Tracker`] (its own setup, the enemy's squares, the public history), never from the
//! arbiter's game, so no agent can cheat by construction.
//!
//! - [`Random`]: a uniformly random legal move, seeded.
//! - [`Greedy`]: one ply of look-ahead on the exact posterior: it challenges where it likely
//!   wins, steps away from likely losses, guards its Flag, and wins by the Flag's arrival
//!   when the far row is clear.
//! - [`Ismcts`]: information-set Monte Carlo tree search over determinizations drawn from the
//!   exact posterior, with a budget in iterations and a seed.
//! - [`Level`]: the ladder, eight recipes over the two, from a beginner to the strongest.
//!
//! Under the official rules a game has no move limit, and two cautious agents (two `Greedy`s
//! most of all) can step back and forth for ever: neither attacks where it is likely to lose.
//! A program that must finish plays with a move limit (`Rules::new(3, 200)`: a draw after 200
//! plies without a challenge, the rule servers use) or caps the plies itself. The agents do
//! not avoid repeating positions: the rules have no repetition draw, and a repetition rule
//! would be a rule of its own, not a player's choice.

mod bot;
mod greedy;
mod ismcts;
mod level;

pub use bot::Bot;
pub use greedy::Greedy;
pub use ismcts::Ismcts;
pub use level::Level;

use core::str::FromStr;

use thiserror::Error;

use crate::error_kind::{ErrorKind, engine_error};
use crate::game::Game;
use crate::knowledge::{ObserveError, Tracker};
use crate::movegen::Move;
use crate::rank::Rank;
use crate::rng::SplitMix64;
use crate::rules::Rules;
use crate::setup::Setup;
use crate::side::Side;
use crate::status::Status;
use crate::value_error::ValueError;

/// A player. It is handed only its side's [`Tracker`], so its choice is a function of what
/// that side may know (and of the agent's own state, such as its seed).
pub trait Agent {
    /// The move to play, or `None` if the game is over or it is not the tracker's side to
    /// move.
    fn choose(&mut self, me: &Tracker) -> Option<Move>;

    /// As [`Agent::choose`], saying why there is no move: the one behaviour every binding
    /// gives an agent asked to move when it cannot.
    ///
    /// # Errors
    /// [`ChooseError::GameOver`] once the game has ended, [`ChooseError::NotYourTurn`] when
    /// it is the other side's move.
    fn try_choose(&mut self, me: &Tracker) -> Result<Move, ChooseError> {
        let status = me.status();
        if !status.is_ongoing() {
            return Err(ChooseError::GameOver { status });
        }
        if me.side_to_move() != me.side() {
            return Err(ChooseError::NotYourTurn { side: me.side() });
        }
        self.choose(me)
            .ok_or(ChooseError::NoMove { side: me.side() })
    }

    /// The move for `side` in the arbiter's `game`: the agent is handed only `side`'s
    /// [`Tracker`], never the game.
    ///
    /// # Errors
    /// As [`Agent::try_choose`]; [`ChooseError::Observe`] for a game with no history to
    /// follow (one made from a position).
    ///
    /// # Examples
    /// ```
    /// use salpakan::{Agent, ChooseError, Game, Random, Rules, Side};
    /// use salpakan::bindings::ErrorKind;
    ///
    /// let rules = Rules::default();
    /// let mut game = Game::dealt(Side::White, rules, 1);
    /// let mut agent = Random::new(7);
    /// let err = agent.choose_in(&game, Side::Black).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::Argument); // not Black's turn
    /// game.play(agent.choose_in(&game, Side::White)?)?;
    /// game.resign(Side::White)?;
    /// assert_eq!(agent.choose_in(&game, Side::Black).unwrap_err().kind(), ErrorKind::GameOver);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    fn choose_in(&mut self, game: &Game, side: Side) -> Result<Move, ChooseError> {
        let status = game.status();
        if !status.is_ongoing() {
            return Err(ChooseError::GameOver { status });
        }
        if game.side_to_move() != side {
            return Err(ChooseError::NotYourTurn { side });
        }
        self.try_choose(&game.tracker(side)?)
    }

    /// The agent's formation for `side` under `rules`, drawn with `seed` (from the OS's
    /// generator where it must stay secret): the uniform deal ([`Setup::random`]) unless the
    /// agent deploys by a [`crate::Formation`], as every [`Level`] does.
    ///
    /// ```
    /// use salpakan::{Agent, Random, Rules, Setup, Side};
    ///
    /// let setup = Random::new(1).deploy(Side::White, Rules::default(), 9);
    /// assert_eq!(setup, Setup::random(Side::White, Rules::default(), 9));
    /// ```
    fn deploy(&mut self, side: Side, rules: Rules, seed: u64) -> Setup {
        Setup::random(side, rules, seed)
    }
}

/// Why an agent has no move to give.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ChooseError {
    /// The game has ended.
    #[error("the game is over ({status})")]
    GameOver {
        /// How it ended.
        status: Status,
    },
    /// It is the other side's move.
    #[error("it is {}'s turn, not {side}'s", .side.other())]
    NotYourTurn {
        /// The side asked to move.
        side: Side,
    },
    /// The agent found no move in a game that goes on (never for the crate's agents: a side
    /// to move always has one).
    #[error("{side} has no move to choose")]
    NoMove {
        /// The side asked to move.
        side: Side,
    },
    /// The game has no history to follow.
    #[error(transparent)]
    Observe(#[from] ObserveError),
}

impl ChooseError {
    /// Its kind: [`ErrorKind::GameOver`] after the end, [`ErrorKind::Argument`] out of turn
    /// (or with no move), the observation error's kind otherwise.
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        match self {
            ChooseError::GameOver { .. } => ErrorKind::GameOver,
            ChooseError::NotYourTurn { .. } | ChooseError::NoMove { .. } => ErrorKind::Argument,
            ChooseError::Observe(e) => e.kind(),
        }
    }
}

engine_error!(ChooseError);

crate::enums::simple_enum! {
    /// The crate's players by name, as the bindings and servers choose them: `"random"`,
    /// `"greedy"`, `"ismcts"` (their [`AgentKind::word`]), numbered 0, 1, 2 (the C ABI's
    /// `SALPAKAN_AGENT_*`).
    ///
    /// # Examples
    /// ```
    /// use salpakan::AgentKind;
    ///
    /// let kind: AgentKind = "ismcts".parse()?;
    /// assert_eq!(kind, AgentKind::Ismcts);
    /// let agent = kind.build(7, 0); // the default budget
    /// # let _ = agent;
    /// # Ok::<_, salpakan::bindings::ValueError>(())
    /// ```
    pub enum AgentKind {
        /// [`Random`].
        Random = 0 => "Random",
        /// [`Greedy`].
        Greedy = 1 => "Greedy",
        /// [`Ismcts`].
        Ismcts = 2 => "Ismcts",
    }
    number_error = ValueError::AgentNumber
}

impl AgentKind {
    /// The kind's word: `"random"`, `"greedy"` or `"ismcts"`.
    #[must_use]
    pub const fn word(self) -> &'static str {
        match self {
            AgentKind::Random => "random",
            AgentKind::Greedy => "greedy",
            AgentKind::Ismcts => "ismcts",
        }
    }

    /// A new player of this kind whose draws are seeded with `seed`; `budget` is
    /// [`Ismcts`]'s iterations a move (0 for [`Ismcts::DEFAULT_BUDGET`]), ignored by the
    /// others.
    #[must_use]
    pub fn build(self, seed: u64, budget: u32) -> Box<dyn Agent + Send> {
        match self {
            AgentKind::Random => Box::new(Random::new(seed)),
            AgentKind::Greedy => Box::new(Greedy::new(seed)),
            AgentKind::Ismcts => Box::new(Ismcts::new(seed, budget)),
        }
    }
}

impl FromStr for AgentKind {
    type Err = ValueError;

    /// Reads a kind's [`word`](AgentKind::word), in any case.
    fn from_str(word: &str) -> Result<AgentKind, Self::Err> {
        AgentKind::ALL
            .into_iter()
            .find(|kind| kind.word().eq_ignore_ascii_case(word))
            .ok_or_else(|| ValueError::AgentKind(word.to_owned()))
    }
}

/// What a game won (or lost) is worth, against the material values below.
pub(crate) const WIN: f64 = 1000.0;

/// What a piece is worth in material: its rank's strength, the Spy as a Major (it beats every
/// officer but loses to a Private), the Flag dearly (losing it loses the game).
pub(crate) fn value(rank: Rank) -> f64 {
    match rank {
        Rank::Flag => WIN,
        Rank::Spy => 6.0,
        rank => rank.index() as f64,
    }
}

/// Whether it is `me`'s side to move in a game that goes on.
fn my_turn(me: &Tracker) -> bool {
    me.status().is_ongoing() && me.side_to_move() == me.side()
}

/// Plays a uniformly random legal move, drawn from a [`SplitMix64`]: the same seed and the same
/// positions give the same moves.
///
/// ```
/// use salpakan::{Agent, Game, Random, Rules, Side};
///
/// let rules = Rules::default();
/// let game = Game::dealt(Side::White, rules, 1);
/// let mut agent = Random::new(7);
/// let mv = agent.choose(&game.tracker(Side::White)?).unwrap();
/// assert!(game.position().is_legal(mv));
/// assert_eq!(agent.choose(&game.tracker(Side::Black)?), None); // not Black's turn
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Random {
    rng: SplitMix64,
}

impl Random {
    /// A random player seeded with `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Random {
        Random {
            rng: SplitMix64::new(seed),
        }
    }
}

impl Agent for Random {
    fn choose(&mut self, me: &Tracker) -> Option<Move> {
        if !my_turn(me) {
            return None;
        }
        let moves = me.legal_moves();
        if moves.is_empty() {
            return None;
        }
        Some(moves[self.rng.below(moves.len() as u64) as usize])
    }
}
