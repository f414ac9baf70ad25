//! The ratings the server's bots start from: their measured strengths, so that the quick
//! pairing's "the bot whose rating is closest" means something from the first game.
//!
//! The strengths are the ladder's round robin in the repository's `docs/PERFORMANCE.md`
//! (Bradley-Terry Elo, `Random` at 0), moved so that level 5 starts where a new player does
//! (1500), with a deviation of [`SEEDED_RD`]: known, not yet settled against people. A bot's
//! rating then moves with its games like anyone's.

use salpakan::{AgentKind, Bot};

use super::INITIAL_RATING;

/// A seeded bot's rating deviation: more certain than a new player's, still provisional (a
/// measurement against bots, not yet settled against people), so that a bot joins the
/// leaderboard only after games like anyone.
pub const SEEDED_RD: f64 = 150.0;

/// The measured Elo of each level, 1 to 8, with `Random` at 0.
const LEVEL_ELO: [f64; 8] = [295.0, 440.0, 692.0, 874.0, 982.0, 1137.0, 1245.0, 1385.0];

/// The ladder's Elo of `bot`: `greedy` is level 6's recipe and `ismcts` (at the server's
/// default budget, 2,000 iterations) level 7's, so they share those levels' figures.
fn elo(bot: Bot) -> f64 {
    match bot {
        Bot::Agent(AgentKind::Random) => 0.0,
        Bot::Agent(AgentKind::Greedy) => LEVEL_ELO[5],
        Bot::Agent(AgentKind::Ismcts) => LEVEL_ELO[6],
        Bot::Level(level) => LEVEL_ELO[usize::from(level.clamp(1, 8) - 1)],
    }
}

/// The rating `bot` starts from.
///
/// ```
/// use salpakan::Bot;
/// use salpakan_server::rating::bots::seeded;
///
/// assert_eq!(seeded(Bot::Level(5)), 1500.0);
/// assert!(seeded(Bot::Level(1)) < seeded(Bot::Level(8)));
/// ```
#[must_use]
pub fn seeded(bot: Bot) -> f64 {
    (INITIAL_RATING + elo(bot) - LEVEL_ELO[4]).round()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_levels_start_in_order_around_a_new_player() {
        let levels: Vec<f64> = (1..=8).map(|l| seeded(Bot::Level(l))).collect();
        assert!(levels.windows(2).all(|w| w[0] < w[1]), "{levels:?}");
        assert_eq!(levels[4], INITIAL_RATING);
        assert!(seeded(Bot::Agent(AgentKind::Random)) < levels[0]);
        assert_eq!(seeded(Bot::Agent(AgentKind::Greedy)), levels[5]);
        assert_eq!(seeded(Bot::Agent(AgentKind::Ismcts)), levels[6]);
        for bot in Bot::ALL {
            assert!((0.0..3000.0).contains(&seeded(bot)), "{bot:?}");
        }
        assert!(super::super::provisional(SEEDED_RD));
        const { assert!(SEEDED_RD < super::super::INITIAL_RD) };
    }
}
