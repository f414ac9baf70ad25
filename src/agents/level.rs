//! The ladder: eight bots from a beginner to the strongest search, each a fixed recipe over
//! the crate's agents, so that a player can pick one by its rating.

use std::sync::OnceLock;

use crate::knowledge::Formation;
use crate::knowledge::Tracker;
use crate::movegen::Move;
use crate::rng::SplitMix64;
use crate::rules::Rules;
use crate::setup::Setup;
use crate::side::Side;
use crate::value_error::ValueError;

use super::{Agent, Greedy, Ismcts, my_turn};

/// What one level plays.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Recipe {
    /// The share of moves played uniformly at random instead of the inner agent's.
    blunders: f64,
    /// `Ismcts` iterations a move; 0 for `Greedy`.
    iterations: u32,
    /// Whether the search believes the enemy deployed like people, hedged
    /// ([`believed_formation`]).
    prior: bool,
}

/// How far level 8 trusts its belief that the enemy deploys like people: the classic formation
/// tempered by this power. The full belief (1) is what an opponent who deploys otherwise
/// exploits; the measurements are in the repository's `docs/PERFORMANCE.md`.
const PRIOR_POWER: f64 = 0.5;

/// What the recipes with a prior believe: the classic formation tempered by
/// [`PRIOR_POWER`], made once (a formation's sums take a dynamic programme, which a bot made
/// for each game should not repeat).
fn believed_formation() -> Formation {
    static BELIEVED: OnceLock<Formation> = OnceLock::new();
    BELIEVED
        .get_or_init(|| {
            Formation::classic()
                .tempered(PRIOR_POWER)
                .expect("a finite power >= 0")
        })
        .clone()
}

/// The levels, 1 to 8.
const RECIPES: [Recipe; Level::COUNT as usize] = [
    Recipe {
        blunders: 0.85,
        iterations: 0,
        prior: false,
    },
    Recipe {
        blunders: 0.7,
        iterations: 0,
        prior: false,
    },
    Recipe {
        blunders: 0.45,
        iterations: 0,
        prior: false,
    },
    Recipe {
        blunders: 0.25,
        iterations: 0,
        prior: false,
    },
    Recipe {
        blunders: 0.1,
        iterations: 0,
        prior: false,
    },
    Recipe {
        blunders: 0.0,
        iterations: 0,
        prior: false,
    },
    Recipe {
        blunders: 0.0,
        iterations: 2_000,
        prior: false,
    },
    Recipe {
        blunders: 0.0,
        iterations: 10_000,
        prior: true,
    },
];

/// A bot of the ladder, by level: 1 a beginner (stronger than [`super::Random`], weaker than
/// [`Greedy`]), 8 the strongest search. Every level deploys by [`Formation::classic`]
/// ([`Agent::deploy`]) and, like every agent, sees only its [`Tracker`].
///
/// | level | plays |
/// |---|---|
/// | 1 | `Greedy`, 85% of its moves random |
/// | 2 | `Greedy`, 70% random |
/// | 3 | `Greedy`, 45% random |
/// | 4 | `Greedy`, 25% random |
/// | 5 | `Greedy`, 10% random |
/// | 6 | `Greedy` |
/// | 7 | `Ismcts`, 2,000 iterations a move |
/// | 8 | `Ismcts`, 10,000 (its default), believing the enemy deploys like people, hedged: the classic formation [tempered](Formation::tempered) by 0.5 |
///
/// Their ratings, measured by a round robin, are in the repository's `docs/PERFORMANCE.md`.
/// The same level, seed and trackers give the same moves.
///
/// ```
/// use salpakan::{Agent, Game, Level, Rules, Side};
///
/// let rules = Rules::default();
/// let mut white = Level::new(3, 1)?;
/// let mut black = Level::new(1, 2)?;
/// let game = Game::new(white.deploy(Side::White, rules, 10),
///     black.deploy(Side::Black, rules, 11), Side::White, rules)?;
/// let mv = white.choose(&game.tracker(Side::White)?).unwrap();
/// assert!(game.position().is_legal(mv));
/// assert!(Level::new(9, 1).is_err());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Level {
    level: u8,
    blunders: f64,
    rng: SplitMix64,
    inner: Inner,
}

#[derive(Debug, Clone)]
enum Inner {
    Greedy(Greedy),
    Ismcts(Box<Ismcts>),
}

impl Level {
    /// The number of levels (the C ABI's `SALPAKAN_AGENT_LEVELS`).
    pub const COUNT: u8 = 8;

    /// The bot of `level` (1 to [`Level::COUNT`]), its draws seeded with `seed`.
    ///
    /// # Errors
    /// [`ValueError::Level`] for a level outside 1 to 8.
    pub fn new(level: i64, seed: u64) -> Result<Level, ValueError> {
        let recipe = usize::try_from(level)
            .ok()
            .and_then(|l| l.checked_sub(1))
            .and_then(|i| RECIPES.get(i))
            .ok_or(ValueError::Level(level))?;
        let inner = if recipe.iterations == 0 {
            Inner::Greedy(Greedy::new(seed))
        } else {
            let search = Ismcts::new(seed, recipe.iterations);
            Inner::Ismcts(Box::new(if recipe.prior {
                search.with_prior(believed_formation())
            } else {
                search
            }))
        };
        Ok(Level {
            level: level as u8,
            blunders: recipe.blunders,
            rng: SplitMix64::new(seed ^ 0x5a17_9a4a_1e7e_1000),
            inner,
        })
    }

    /// Its level, 1 to 8.
    #[inline]
    #[must_use]
    pub fn level(&self) -> u8 {
        self.level
    }
}

impl Agent for Level {
    fn choose(&mut self, me: &Tracker) -> Option<Move> {
        if !my_turn(me) {
            return None;
        }
        if self.blunders > 0.0 && self.rng.next_f64() < self.blunders {
            let moves = me.legal_moves();
            return (!moves.is_empty()).then(|| moves[self.rng.below(moves.len() as u64) as usize]);
        }
        match &mut self.inner {
            Inner::Greedy(agent) => agent.choose(me),
            Inner::Ismcts(agent) => agent.choose(me),
        }
    }

    fn deploy(&mut self, side: Side, rules: Rules, seed: u64) -> Setup {
        Setup::sample_with(
            side,
            rules,
            &Formation::classic(),
            &mut SplitMix64::new(seed),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_level_8_believes_a_prior_and_it_is_the_hedged_classic() {
        for level in 1..=i64::from(Level::COUNT) {
            let bot = Level::new(level, 1).unwrap();
            let prior = match &bot.inner {
                Inner::Greedy(_) => None,
                Inner::Ismcts(search) => search.prior(),
            };
            if level == 8 {
                let hedged = Formation::classic().tempered(0.5).unwrap();
                assert_eq!(prior, Some(&hedged));
                assert_ne!(prior, Some(&Formation::classic()));
            } else {
                assert_eq!(prior, None, "level {level}");
            }
        }
    }
}
