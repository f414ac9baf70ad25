//! Glicko-2, as Glickman's "Example of the Glicko-2 system" gives it: one rating period is
//! one rated game, computed from both players' values before it.
//!
//! The steps keep the paper's numbering. Nothing is rounded on the way: a rating, its
//! deviation and its volatility are stored as computed. One departure, which the contract
//! states: a game never raises a deviation (step 6 adds the volatility before step 7 takes
//! the game's information away, and against an opponent whose rating says little the sum can
//! come out above where it started; the deviation then stays where it was).

use super::{INITIAL_RATING, INITIAL_RD};

/// τ, the system constant that bounds how fast a volatility changes.
pub(crate) const TAU: f64 = 0.5;
/// The convergence tolerance of step 5's iteration.
pub(crate) const EPSILON: f64 = 0.000_001;
/// The scale between the Glicko and Glicko-2 units (step 2).
pub(crate) const SCALE: f64 = 173.7178;
/// At most this many steps of step 5's iteration (it converges in well under 100).
const MAX_STEPS: usize = 200;

/// A player's rating, deviation and volatility.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glicko {
    /// The rating (1500 for a new player).
    pub rating: f64,
    /// The rating deviation (350 for a new player).
    pub rd: f64,
    /// The volatility (0.06 for a new player).
    pub volatility: f64,
}

/// One game's result for the player rated: its opponent and its score (1 a win, 0.5 a draw,
/// 0 a loss).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Played {
    /// The opponent's values before the game.
    pub opponent: Glicko,
    /// The player's score.
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Glicko {
    /// A new player's values: 1500, 350, 0.06.
    pub const NEW: Glicko = Glicko {
        rating: INITIAL_RATING,
        rd: INITIAL_RD,
        volatility: super::INITIAL_VOLATILITY,
    };

    /// The values after one rating period with `games` (the paper's steps 2 to 8); with no
    /// games the values stay (no growth of the deviation for idle time).
    ///
    /// ```
    /// use salpakan_server::rating::glicko::{Glicko, Played};
    ///
    /// // The paper's worked example.
    /// let player = Glicko { rating: 1500.0, rd: 200.0, volatility: 0.06 };
    /// let vs = |rating, rd, score| Played {
    ///     opponent: Glicko { rating, rd, volatility: 0.06 },
    ///     score,
    /// };
    /// let after = player.after(&[vs(1400.0, 30.0, 1.0), vs(1550.0, 100.0, 0.0),
    ///     vs(1700.0, 300.0, 0.0)]);
    /// assert!((after.rating - 1464.05).abs() < 0.01);
    /// assert!((after.rd - 151.52).abs() < 0.01);
    /// assert!((after.volatility - 0.059996).abs() < 0.000001);
    /// ```
    #[must_use]
    pub fn after(self, games: &[Played]) -> Glicko {
        if games.is_empty() {
            return self;
        }
        // Step 2: the Glicko-2 scale.
        let mu = (self.rating - INITIAL_RATING) / SCALE;
        let phi = self.rd / SCALE;
        let sigma = self.volatility;
        // Steps 3 and 4: the estimated variance and the estimated improvement.
        let mut information = 0.0;
        let mut surprise = 0.0;
        for game in games {
            let mu_j = (game.opponent.rating - INITIAL_RATING) / SCALE;
            let phi_j = game.opponent.rd / SCALE;
            let e = expected(mu, mu_j, phi_j);
            let g_j = g(phi_j);
            information += g_j * g_j * e * (1.0 - e);
            surprise += g_j * (game.score - e);
        }
        let v = 1.0 / information;
        let delta = v * surprise;
        // Step 5: the new volatility, by the Illinois algorithm.
        let sigma = new_volatility(delta, phi, v, sigma);
        // Step 6: the deviation grown by the volatility.
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        // Step 7: the new deviation and rating.
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * surprise;
        // Step 8: back to the Glicko scale; the deviation never above where it was.
        Glicko {
            rating: SCALE * mu_new + INITIAL_RATING,
            rd: (SCALE * phi_new).min(self.rd),
            volatility: sigma,
        }
    }

    /// Both players' values after one game between them, each from both players' values
    /// before it: `score` is the first player's (1, 0.5 or 0).
    #[must_use]
    pub fn game(first: Glicko, second: Glicko, score: f64) -> (Glicko, Glicko) {
        (
            first.after(&[Played {
                opponent: second,
                score,
            }]),
            second.after(&[Played {
                opponent: first,
                score: 1.0 - score,
            }]),
        )
    }
}

/// Step 5: σ′ from Δ, φ, v and σ (Glickman's iteration, the Illinois variant of regula falsi).
fn new_volatility(delta: f64, phi: f64, v: f64, sigma: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 && k < MAX_STEPS as f64 {
            k += 1.0;
        }
        a - k * TAU
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    let mut steps = 0;
    while (big_b - big_a).abs() > EPSILON && steps < MAX_STEPS {
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
        steps += 1;
    }
    (big_a / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(rating: f64, rd: f64) -> Glicko {
        Glicko {
            rating,
            rd,
            volatility: 0.06,
        }
    }

    #[test]
    fn the_papers_worked_example() {
        let after = at(1500.0, 200.0).after(&[
            Played {
                opponent: at(1400.0, 30.0),
                score: 1.0,
            },
            Played {
                opponent: at(1550.0, 100.0),
                score: 0.0,
            },
            Played {
                opponent: at(1700.0, 300.0),
                score: 0.0,
            },
        ]);
        assert!((after.rating - 1464.05).abs() < 0.01, "{after:?}");
        assert!((after.rd - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.059996).abs() < 0.000_01, "{after:?}");
        // Computed without rounding: 1464.0507, 151.5165, 0.0599959.
        assert!((after.rating - 1464.0507).abs() < 0.0001, "{after:?}");
        assert!((after.rd - 151.5165).abs() < 0.0001, "{after:?}");
    }

    #[test]
    fn a_draw_between_equals_moves_nobodys_rating_and_narrows_both() {
        let (a, b) = Glicko::game(Glicko::NEW, Glicko::NEW, 0.5);
        assert_eq!(a, b);
        assert!((a.rating - 1500.0).abs() < 1e-9, "{a:?}");
        assert!(a.rd < 350.0 && a.rd > 250.0, "{a:?}");
        // A draw with a stronger player raises the weaker one.
        let (weak, strong) = Glicko::game(at(1400.0, 100.0), at(1700.0, 100.0), 0.5);
        assert!(weak.rating > 1400.0 && strong.rating < 1700.0);
    }

    #[test]
    fn no_games_change_nothing() {
        let player = at(1612.5, 73.0);
        assert_eq!(player.after(&[]), player);
    }

    /// The same system written again the plain way: the volatility by bisection, every
    /// quantity named as in the paper, one opponent.
    fn plain(player: Glicko, opponent: Glicko, score: f64) -> Glicko {
        let (mu, phi, sigma) = (
            (player.rating - 1500.0) / 173.7178,
            player.rd / 173.7178,
            player.volatility,
        );
        let (mu_j, phi_j) = (
            (opponent.rating - 1500.0) / 173.7178,
            opponent.rd / 173.7178,
        );
        let pi2 = std::f64::consts::PI.powi(2);
        let g_j = (1.0 + 3.0 * phi_j.powi(2) / pi2).powf(-0.5);
        let e = 1.0 / (1.0 + (-g_j * (mu - mu_j)).exp());
        let v = (g_j.powi(2) * e * (1.0 - e)).recip();
        let delta = v * g_j * (score - e);
        let a = sigma.powi(2).ln();
        let f = |x: f64| {
            x.exp() * (delta.powi(2) - phi.powi(2) - v - x.exp())
                / (2.0 * (phi.powi(2) + v + x.exp()).powi(2))
                - (x - a) / 0.25
        };
        // f falls from +inf to -inf: bisect between bounds where it changes sign.
        let (mut lo, mut hi) = (a - 1.0, a + 1.0);
        while f(lo) < 0.0 {
            lo -= 1.0;
        }
        while f(hi) > 0.0 {
            hi += 1.0;
        }
        for _ in 0..200 {
            let mid = (lo + hi) / 2.0;
            if f(mid) > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let sigma_new = ((lo + hi) / 4.0).exp();
        let phi_star2 = phi.powi(2) + sigma_new.powi(2);
        let phi_new = (phi_star2.recip() + v.recip()).powf(-0.5);
        let mu_new = mu + phi_new.powi(2) * g_j * (score - e);
        Glicko {
            rating: 1500.0 + 173.7178 * mu_new,
            rd: 173.7178 * phi_new,
            volatility: sigma_new,
        }
    }

    #[test]
    fn a_thousand_random_games_agree_with_a_plain_implementation_and_no_rd_grows() {
        let mut rng = salpakan::SplitMix64::new(0x61c6_2b0d);
        let mut unit = || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let mut grew = 0;
        for _ in 0..1000 {
            let mut player = || Glicko {
                rating: 800.0 + 1600.0 * unit(),
                rd: 30.0 + 320.0 * unit(),
                volatility: 0.04 + 0.04 * unit(),
            };
            let (a, b) = (player(), player());
            let score = [0.0, 0.5, 1.0][(unit() * 3.0) as usize % 3];
            let (after_a, after_b) = Glicko::game(a, b, score);
            for (before, opponent, s, after) in
                [(a, b, score, after_a), (b, a, 1.0 - score, after_b)]
            {
                let want = plain(before, opponent, s);
                assert!(
                    (after.rating - want.rating).abs() < 1e-6,
                    "{before:?} {opponent:?} {s}: {after:?} vs {want:?}"
                );
                assert!(
                    (after.volatility - want.volatility).abs() < 1e-7,
                    "{after:?} vs {want:?}"
                );
                assert!(
                    (after.rd - want.rd.min(before.rd)).abs() < 1e-6,
                    "{after:?} vs {want:?}"
                );
                assert!(after.rd <= before.rd);
                grew += usize::from(want.rd > before.rd);
                // A win never lowers a rating, a loss never raises one.
                if s == 1.0 {
                    assert!(after.rating >= before.rating);
                } else if s == 0.0 {
                    assert!(after.rating <= before.rating);
                }
            }
        }
        // The plain system does raise some deviations (a narrow player against a wide one):
        // the cap is tested where it acts.
        assert!(grew > 0, "no case where the cap acts");
    }
}
