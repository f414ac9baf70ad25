//! The exact posterior over the enemy's ranks, and exact sampling from it.
//!
//! Under uniformly random setups every assignment of ranks to the enemy's 21 pieces that fits
//! the army and every public fact is equally likely, so a piece's probability of a rank is
//! the number of fitting assignments that give it that rank over the number of all fitting
//! assignments. Each fact constrains one piece ([`super::Tracker`]), so an assignment fits
//! when every piece's rank is in its allowed set and the ranks make up the army. The counting
//! itself is [`super::count`]'s.

use std::sync::Arc;

use crate::piece::PieceId;
use crate::rank::Rank;
use crate::rng::SplitMix64;
use crate::side::Side;
use crate::square::Square;

use super::count::Count;
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
/// use salpakan::{Game, Rank, Rules, Setup, Side};
///
/// let rules = Rules::default();
/// let game = Game::new(
///     Setup::random(Side::White, rules, 1),
///     Setup::random(Side::Black, rules, 2),
///     Side::White,
///     rules,
/// )?;
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

    /// The beliefs laid out by square, as the C ABI and the bindings hand them out:
    /// `[square][rank]` is the probability that the piece on `square` has `rank`. An enemy
    /// piece's row is its exact posterior; an own piece's row is 1 at its rank; an empty
    /// square's row is all 0.
    ///
    /// ```
    /// use salpakan::{Game, Rank, Rules, Setup, Side, Square};
    ///
    /// let rules = Rules::default();
    /// let game = Game::new(Setup::random(Side::White, rules, 1),
    ///     Setup::random(Side::Black, rules, 2), Side::White, rules)?;
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
    /// orderings of the 6 Privates and of the 2 Spies.
    #[must_use]
    pub fn assignments(&self) -> f64 {
        let orderings: f64 = Rank::ALL
            .iter()
            .map(|rank| (1..=u32::from(rank.count())).product::<u32>() as f64)
            .product();
        self.count.total / orderings
    }

    /// Draws the enemy's ranks (by piece number) from the posterior: every fitting assignment
    /// equally likely. Cheap: 21 steps over the counts computed with the beliefs.
    pub fn sample(&self, rng: &mut SplitMix64) -> [Rank; Rank::ARMY_SIZE] {
        let mut ranks = [Rank::Flag; Rank::ARMY_SIZE];
        for &(number, rank) in self.count.sample(&Rank::ARMY, rng).iter() {
            ranks[number] = rank;
        }
        ranks
    }
}
