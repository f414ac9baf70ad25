//! The exact posterior over the enemy's ranks, and exact sampling from it.
//!
//! Under uniformly random setups every assignment of ranks to the enemy's 21 pieces that fits
//! the army and every public fact is equally likely, so a piece's probability of a rank is
//! the number of fitting assignments that give it that rank over the number of all fitting
//! assignments. Each fact constrains one piece ([`super::Tracker`]), so an assignment fits
//! when every piece's rank is in its allowed set and the ranks make up the army. The counting
//! itself is [`super::count`]'s.

use std::sync::Arc;

use super::formation::Formation;
use crate::piece::PieceId;
use crate::rank::Rank;
use crate::rng::SplitMix64;
use crate::side::Side;
use crate::square::Square;

use super::count::Count;
use super::weighted::{KINDS, Weighted};

use super::cache::PriorSums;
use super::error::ObserveError;
use super::rankset::RankSet;
use super::tracker::Tracker;

/// What one side may believe about one enemy piece.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PieceBelief {
    /// The piece.
    pub id: PieceId,
    /// Where it stands, or `None` if it has been removed.
    pub square: Option<Square>,
    /// The probability of each rank, indexed by rank value.
    pub probabilities: [f64; Rank::NUM],
    /// The ranks with a probability above zero.
    pub possible: RankSet,
}

impl PieceBelief {
    /// The probability that the piece has `rank`.
    #[inline]
    #[must_use]
    pub fn probability(&self, rank: Rank) -> f64 {
        self.probabilities[rank.index()]
    }

    /// The ranks in decreasing probability (ties in rank order), with their probabilities.
    #[must_use]
    pub fn likeliest(&self) -> Vec<(Rank, f64)> {
        let mut ranks: Vec<(Rank, f64)> = self
            .possible
            .ranks()
            .map(|rank| (rank, self.probability(rank)))
            .collect();
        ranks.sort_by(|a, b| b.1.total_cmp(&a.1));
        ranks
    }
}

/// The exact posterior over every enemy piece's rank for one side, and a sampler for it.
///
/// Under uniformly random setups every assignment of ranks to the enemy's 21 pieces (removed
/// ones included) that fits the army and every public fact is equally likely; a piece's
/// probability of a rank is the share of fitting assignments that give it that rank. The
/// facts are gathered by a [`Tracker`]; the assignments are counted exactly by a dynamic
/// programme over classes of interchangeable pieces, and samples are drawn from the same
/// counts in 21 steps.
///
/// # Examples
/// ```
/// use salpakan::{Game, Rank, Rules, Side};
///
/// let rules = Rules::default();
/// let game = Game::dealt(Side::White, rules, 1);
/// let beliefs = game.beliefs(Side::White)?;
/// // Before anything happens every enemy piece is a Private with probability 6/21.
/// let p = beliefs.pieces()[0].probability(Rank::Private);
/// assert!((p - 6.0 / 21.0).abs() < 1e-12);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Beliefs {
    side: Side,
    pieces: [PieceBelief; Rank::ARMY_SIZE],
    count: Arc<Count>,
    /// The weighted sums when the beliefs are under a prior ([`Tracker::beliefs_under`]).
    prior: Option<Arc<PriorSums>>,
}

impl Tracker {
    /// The exact posterior over the enemy's ranks.
    ///
    /// The counting is done once per set of facts and kept in the tracker (clones share it):
    /// a ply that adds no fact, as most do, leaves it in place, and the next call only reads
    /// it and notes where each enemy piece now stands (docs/PERFORMANCE.md gives the times).
    ///
    /// # Errors
    /// [`ObserveError::NoFit`] if no assignment of ranks fits every fact (impossible for the
    /// events of a real game).
    pub fn beliefs(&self) -> Result<Beliefs, ObserveError> {
        Beliefs::from_tracker(self)
    }

    /// The exact posterior over the enemy's ranks when the enemy deployed by `formation`
    /// (its product form, [`Formation`]): every fitting assignment weighs the product of the
    /// formation's weights of each piece's rank on the square it started on. Under a
    /// formation whose rank weights are all equal (such as [`Formation::uniform`]) it is
    /// [`Tracker::beliefs`], bit for bit. The formation's guard on the Flag is not part of
    /// the prior (it is no product form).
    ///
    /// The sums are made by a dynamic programme over how many of each rank the pieces so
    /// far hold (172,032 states), once per set of facts and formation, and kept in the
    /// tracker like the plain counts (docs/PERFORMANCE.md gives the times).
    ///
    /// ```
    /// use salpakan::{Formation, Game, Rank, Rules, Side};
    ///
    /// let rules = Rules::default();
    /// let game = Game::dealt(Side::White, rules, 1);
    /// let me = game.tracker(Side::White)?;
    /// let classic = me.beliefs_under(&Formation::classic())?;
    /// // Black's back row is row 8: a piece that started there is likelier its Flag.
    /// let back = classic.pieces().iter().find(|p| p.square.unwrap().row() == 7).unwrap();
    /// let front = classic.pieces().iter().find(|p| p.square.unwrap().row() == 5).unwrap();
    /// assert!(back.probability(Rank::Flag) > 5.0 * front.probability(Rank::Flag));
    /// assert_eq!(me.beliefs_under(&Formation::uniform())?, me.beliefs()?);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Tracker::beliefs`].
    pub fn beliefs_under(&self, formation: &Formation) -> Result<Beliefs, ObserveError> {
        if formation.is_uniform_over_ranks(self.rules().setup_rows()) {
            return self.beliefs();
        }
        let mut beliefs = Beliefs::from_tracker(self)?;
        let prior = self.prior_sums(formation);
        let Some(sums) = prior.sums() else {
            return Err(ObserveError::NoFit {
                why: "no assignment of the enemy's ranks with a positive prior fits every fact",
            });
        };
        for (piece, marginal) in beliefs.pieces.iter_mut().zip(&sums.marginals) {
            piece.probabilities.copy_from_slice(&marginal[..Rank::NUM]);
            let probabilities = piece.probabilities;
            piece.possible = RankSet::filter(|r| probabilities[r.index()] > 0.0);
        }
        beliefs.prior = Some(prior);
        Ok(beliefs)
    }

    /// The sums under `formation` for the facts so far, made now unless the tracker kept
    /// them for the same formation.
    fn prior_sums(&self, formation: &Formation) -> Arc<PriorSums> {
        self.prior_cache().get(formation.fingerprint(), || {
            let enemy = self.side().other();
            let rows: Vec<[f64; KINDS]> = (0..Rank::ARMY_SIZE)
                .map(|number| {
                    let square = self.enemy_start(number).expect("21 enemy pieces");
                    let mut row = formation.rank_row(enemy, self.rules(), square);
                    let allowed = self.constraints()[number];
                    for rank in Rank::ALL {
                        if !allowed.has(rank) {
                            row[rank.index()] = 0.0;
                        }
                    }
                    row
                })
                .collect();
            let mut counts = [0u8; KINDS];
            for rank in Rank::ALL {
                counts[rank.index()] = rank.count();
            }
            Arc::new(PriorSums::new(
                formation.fingerprint(),
                Weighted::new(&rows, counts),
            ))
        })
    }

    /// The beliefs laid out by square, as the C ABI and the bindings hand them out:
    /// `[square][rank]` is the probability that the piece on `square` has `rank`. An enemy
    /// piece's row is its exact posterior; an own piece's row is 1 at its rank; an empty
    /// square's row is all 0.
    ///
    /// ```
    /// use salpakan::{Game, Rank, Rules, Side, Square};
    ///
    /// let rules = Rules::default();
    /// let game = Game::dealt(Side::White, rules, 1);
    /// let rows = game.tracker(Side::White)?.beliefs_by_square()?;
    /// let e8: Square = "e8".parse()?;
    /// let total: f64 = rows.iter().flatten().sum();
    /// assert!((total - 42.0).abs() < 1e-9); // 42 pieces, each a distribution
    /// assert!(rows[e8.index()][Rank::Flag.index()] >= 0.0);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Tracker::beliefs`].
    pub fn beliefs_by_square(&self) -> Result<[[f64; Rank::NUM]; Square::NUM], ObserveError> {
        let counts = self.counts().ok_or(ObserveError::NoFit {
            why: "no assignment of the enemy's ranks fits every fact",
        })?;
        let mut rows = [[0.0; Rank::NUM]; Square::NUM];
        for square in Square::ALL {
            let Some(id) = self.piece_at(square) else {
                continue;
            };
            let row = &mut rows[square.index()];
            if id.side() == self.side() {
                if let Some(rank) = self.own_rank(square) {
                    row[rank.index()] = 1.0;
                }
            } else {
                *row = counts.marginals[id.number()];
            }
        }
        Ok(rows)
    }
}

impl Beliefs {
    pub(crate) fn from_tracker(tracker: &Tracker) -> Result<Beliefs, ObserveError> {
        let enemy = tracker.side().other();
        let count = tracker.counts().ok_or(ObserveError::NoFit {
            why: "no assignment of the enemy's ranks fits every fact",
        })?;
        let mut squares = [None; Rank::ARMY_SIZE];
        for square in tracker.occupied(enemy) {
            if let Some(id) = tracker.piece_at(square) {
                squares[id.number()] = Some(square);
            }
        }
        let pieces = core::array::from_fn(|number| {
            let probabilities = count.marginals[number];
            PieceBelief {
                id: PieceId::new(enemy, number).expect("number below 21"),
                square: squares[number],
                probabilities,
                possible: RankSet::filter(|r| probabilities[r.index()] > 0.0),
            }
        });
        Ok(Beliefs {
            side: tracker.side(),
            pieces,
            count,
            prior: None,
        })
    }

    /// The side whose beliefs these are.
    #[inline]
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }

    /// The enemy's 21 pieces, by number (removed ones included).
    #[inline]
    #[must_use]
    pub fn pieces(&self) -> &[PieceBelief] {
        &self.pieces
    }

    /// The belief about the enemy piece on `square`, if one stands there.
    #[must_use]
    pub fn at(&self, square: Square) -> Option<&PieceBelief> {
        self.pieces.iter().find(|p| p.square == Some(square))
    }

    /// The number of rank assignments that fit every fact, each counted once: pieces of the
    /// same rank are interchangeable, so the count over distinct pieces is divided by the
    /// orderings of the 6 Privates and of the 2 Spies. Under a prior, still the number of
    /// fitting assignments (the prior weighs them; it does not add or remove any).
    #[must_use]
    pub fn assignments(&self) -> f64 {
        let orderings: f64 = Rank::ALL
            .iter()
            .map(|rank| (1..=u32::from(rank.count())).product::<u32>() as f64)
            .product();
        self.count.total / orderings
    }

    /// Draws the enemy's ranks (by piece number) from the posterior: every fitting assignment
    /// equally likely, or under a prior as likely as its weight. Cheap: 21 steps over the
    /// counts computed with the beliefs.
    pub fn sample(&self, rng: &mut SplitMix64) -> [Rank; Rank::ARMY_SIZE] {
        let mut ranks = [Rank::Flag; Rank::ARMY_SIZE];
        if let Some(sums) = self.prior.as_ref().and_then(|p| p.sums()) {
            for (slot, kind) in ranks.iter_mut().zip(sums.sample(rng)) {
                *slot = Rank::ALL[usize::from(kind)];
            }
            return ranks;
        }
        for &(number, rank) in self.count.sample(&Rank::ARMY, rng).iter() {
            ranks[number] = rank;
        }
        ranks
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::knowledge::formation::depth_and_file;
    use crate::rules::Rules;
    use crate::setup::Setup;

    /// Trackers of both sides after some random plies of a few games (challenges included).
    fn trackers() -> Vec<Tracker> {
        let rules = Rules::default();
        let mut out = Vec::new();
        for seed in 0..6u64 {
            let mut rng = SplitMix64::new(seed);
            let mut game = Game::new(
                Setup::sample_with(Side::White, rules, &Formation::classic(), &mut rng),
                Setup::sample_with(Side::Black, rules, &Formation::classic(), &mut rng),
                Side::White,
                rules,
            )
            .unwrap();
            for _ in 0..(20 * seed) {
                if !game.status().is_ongoing() {
                    break;
                }
                let mv = game.position().random_move(&mut rng).unwrap();
                game.play(mv).unwrap();
            }
            for side in Side::ALL {
                out.push(game.tracker(side).unwrap());
            }
        }
        out
    }

    #[test]
    fn a_uniform_prior_is_the_plain_count() {
        // Made once: a formation costs two exact sums over every setup of a zone.
        let flat = Formation::new(|_, _, _, _| 2.5, false).unwrap();
        for tracker in trackers() {
            // Bit for bit: the same beliefs.
            assert_eq!(
                tracker.beliefs_under(&Formation::uniform()).unwrap(),
                tracker.beliefs().unwrap()
            );
            // And the weighted sums themselves, forced with equal weights, agree with the
            // class count to rounding: two independent exact methods.
            let prior = tracker.prior_sums(&flat);
            let plain = tracker.counts().unwrap();
            for (w, c) in prior.sums().unwrap().marginals.iter().zip(plain.marginals) {
                for rank in Rank::ALL {
                    assert!((w[rank.index()] - c[rank.index()]).abs() < 1e-12);
                }
            }
        }
    }

    /// The posterior under the prior estimated by weighing uniform posterior samples by the
    /// prior (importance sampling): an independent route to the same marginals.
    #[test]
    fn prior_marginals_match_weighted_uniform_samples() {
        // Weights that differ by rank on four squares only (two back-row corners' neighbours
        // and two front-row squares, none symmetric: a file flipped or a side's depth read
        // the wrong way round would show), so that the weighted samples stay many.
        let classic = Formation::new(
            |kind, depth, file, _| {
                let k = kind.map_or(15, Rank::index) as f64;
                match (depth, file) {
                    (0, 1) => 0.2 + k / 5.0,
                    (0, 6) => 3.0 - k / 6.0,
                    (2, 2) if kind == Some(Rank::Flag) => 0.0,
                    (2, 7) if kind == Some(Rank::Private) => 4.0,
                    _ => 1.0,
                }
            },
            false,
        )
        .unwrap();
        for tracker in trackers().into_iter().step_by(3) {
            let plain = tracker.beliefs().unwrap();
            let under = tracker.beliefs_under(&classic).unwrap();
            let enemy = tracker.side().other();
            let mut rng = SplitMix64::new(99);
            let mut sums = [[0.0f64; Rank::NUM]; Rank::ARMY_SIZE];
            let mut total = 0.0;
            for _ in 0..40_000 {
                let ranks = plain.sample(&mut rng);
                let w: f64 = ranks
                    .iter()
                    .enumerate()
                    .map(|(n, r)| {
                        let (depth, file) = depth_and_file(enemy, tracker.enemy_start(n).unwrap());
                        classic.weight(Some(*r), depth, file, 3)
                    })
                    .product();
                total += w;
                for (n, r) in ranks.iter().enumerate() {
                    sums[n][r.index()] += w;
                }
            }
            for (n, piece) in under.pieces().iter().enumerate() {
                for rank in Rank::ALL {
                    let estimate = sums[n][rank.index()] / total;
                    let exact = piece.probability(rank);
                    assert!(
                        (estimate - exact).abs() < 0.03,
                        "piece {n} {rank}: {estimate} vs {exact}"
                    );
                }
                // Nothing the facts rule out becomes possible.
                assert!(
                    piece
                        .possible
                        .ranks()
                        .all(|r| plain.pieces()[n].possible.has(r))
                );
            }
        }
    }

    #[test]
    fn a_copy_keeps_the_sums_made() {
        let classic = Formation::classic();
        let tracker = trackers().swap_remove(1);
        let made = tracker.prior_sums(&classic);
        // Asked again, and by a copy: the same sums, not counted again.
        assert!(Arc::ptr_eq(&made, &tracker.prior_sums(&classic)));
        assert!(Arc::ptr_eq(&made, &tracker.clone().prior_sums(&classic)));
        // Another formation is counted anew.
        let flat = Formation::new(|_, depth, _, _| 1.0 + f64::from(depth), false).unwrap();
        assert!(!Arc::ptr_eq(&made, &tracker.prior_sums(&flat)));
    }

    #[test]
    fn samples_follow_the_prior() {
        let classic = Formation::classic();
        let tracker = &trackers()[0];
        let under = tracker.beliefs_under(&classic).unwrap();
        // Which piece is the Flag, over many draws, against its marginals: chi-square over
        // the pieces with a marginal of at least 1%, the rest pooled.
        let draws = 40_000u32;
        let mut seen = [0u32; Rank::ARMY_SIZE];
        let mut rng = SplitMix64::new(5);
        for _ in 0..draws {
            let ranks = under.sample(&mut rng);
            seen[ranks.iter().position(|r| *r == Rank::Flag).unwrap()] += 1;
        }
        let (mut chi, mut cells, mut rest_e, mut rest_n) = (0.0, 0, 0.0, 0.0);
        for (n, piece) in under.pieces().iter().enumerate() {
            let e = piece.probability(Rank::Flag) * f64::from(draws);
            if e >= 0.01 * f64::from(draws) {
                chi += (f64::from(seen[n]) - e).powi(2) / e;
                cells += 1;
            } else {
                rest_e += e;
                rest_n += f64::from(seen[n]);
            }
        }
        if rest_e > 0.0 {
            chi += (rest_n - rest_e).powi(2) / rest_e;
            cells += 1;
        }
        // Under 21 cells: 46.8 is chi-square's 0.999 point for 20 degrees of freedom.
        assert!(cells >= 5 && chi < 46.8, "{cells} cells, chi-square {chi}");
    }
}
