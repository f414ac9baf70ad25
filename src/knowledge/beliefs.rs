//! The exact posterior over the enemy's ranks, and exact sampling from it.
//!
//! Under uniformly random setups every assignment of ranks to the enemy's 21 pieces that fits
//! the army and every public fact is equally likely, so a piece's probability of a rank is
//! the number of fitting assignments that give it that rank over the number of all fitting
//! assignments. Each fact constrains one piece ([`super::Tracker`]), so an assignment fits
//! when every piece's rank is in its allowed set and the ranks make up the army.
//!
//! Counting: pieces with the same allowed set are interchangeable, so they form one class.
//! The army's 21 ranks are handed out one at a time (Flag, six Privates, …, two Spies); a state
//! is how many places each class still has, and handing a rank to a class with `k` places left
//! has `k` ways. The largest class (usually the pieces nothing is known about) is left out of
//! the state: its places left follow from the others'. A backward pass counts the completions
//! of every state, a forward pass the ways to reach it; their products give every piece's
//! marginal exactly, and the backward counts let a sampler draw a uniformly random fitting
//! assignment in 21 steps. Handing out equal ranks one at a time counts each assignment
//! `6! × 2!` times, the same factor for all, which cancels in every probability.

use crate::piece::PieceId;
use crate::rank::{ARMY_SIZE, Rank};
use crate::rng::SplitMix64;
use crate::side::Side;
use crate::square::Square;

use super::rankset::RankSet;
use super::tracker::{ObserveError, Tracker};

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
    pub fn probability(&self, rank: Rank) -> f64 {
        self.probabilities[rank.index()]
    }

    /// The ranks in decreasing probability (ties in rank order), with their probabilities.
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
///     Setup::random(Side::White, &rules, 1),
///     Setup::random(Side::Black, &rules, 2),
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
    pieces: Vec<PieceBelief>,
    count: Count,
}

impl Beliefs {
    pub(crate) fn from_tracker(tracker: &Tracker) -> Result<Beliefs, ObserveError> {
        let enemy = tracker.side().other();
        let count = Count::new(tracker.constraints(), &army()).ok_or_else(|| {
            ObserveError::Inconsistent {
                ply: tracker.log().len(),
                mv: tracker.log().last().map_or(
                    crate::Move::new(Square::clamped(0), Square::clamped(0)),
                    |r| r.mv,
                ),
                reported: tracker.status(),
                why: "no assignment of the enemy's ranks fits every fact",
            }
        })?;
        let pieces = (0..ARMY_SIZE)
            .map(|number| {
                let probabilities = count.marginals[number];
                PieceBelief {
                    id: PieceId::new(enemy, number).expect("number below 21"),
                    square: tracker.enemy_square(number),
                    probabilities,
                    possible: RankSet::filter(|r| probabilities[r.index()] > 0.0),
                }
            })
            .collect();
        Ok(Beliefs {
            side: tracker.side(),
            pieces,
            count,
        })
    }

    /// The side whose beliefs these are.
    #[inline]
    pub fn side(&self) -> Side {
        self.side
    }

    /// The enemy's 21 pieces, by number (removed ones included).
    #[inline]
    pub fn pieces(&self) -> &[PieceBelief] {
        &self.pieces
    }

    /// The belief about the enemy piece on `square`, if one stands there.
    pub fn at(&self, square: Square) -> Option<&PieceBelief> {
        self.pieces.iter().find(|p| p.square == Some(square))
    }

    /// The number of rank assignments that fit every fact (each counted once).
    pub fn assignments(&self) -> f64 {
        self.count.total / (720.0 * 2.0)
    }

    /// Draws the enemy's ranks (by piece number) from the posterior: every fitting assignment
    /// equally likely. Cheap: 21 steps over the counts computed with the beliefs.
    pub fn sample(&self, rng: &mut SplitMix64) -> [Rank; ARMY_SIZE] {
        let mut ranks = [Rank::Flag; ARMY_SIZE];
        for (number, rank) in self.count.sample(&army(), rng) {
            ranks[number] = rank;
        }
        ranks
    }
}

/// The army as a sequence of 21 ranks in rank order.
pub(crate) fn army() -> Vec<Rank> {
    Rank::ALL
        .into_iter()
        .flat_map(|rank| core::iter::repeat_n(rank, rank.count() as usize))
        .collect()
}

/// Narrows the allowed sets by what the army forces: a rank that pieces whose set holds only it
/// use up entirely is impossible for every other piece (repeated until nothing changes). The
/// fitting assignments stay the same; there are fewer distinct sets to count over. `None` if
/// a set becomes empty.
fn narrow(sets: &[RankSet], army: &[Rank]) -> Option<Vec<RankSet>> {
    let mut sets = sets.to_vec();
    let mut counts = [0usize; Rank::NUM];
    for rank in army {
        counts[rank.index()] += 1;
    }
    loop {
        let mut changed = false;
        for rank in Rank::ALL {
            let only = RankSet::of(rank);
            let fixed = sets.iter().filter(|s| **s == only).count();
            if fixed > counts[rank.index()] {
                return None;
            }
            if fixed == counts[rank.index()] {
                for set in sets.iter_mut().filter(|s| **s != only && s.has(rank)) {
                    set.remove(only);
                    changed = true;
                }
            }
        }
        if sets.iter().any(|s| s.is_empty()) {
            return None;
        }
        if !changed {
            return Some(sets);
        }
    }
}

/// The counting machinery for pieces with allowed sets and an army (a sequence of ranks).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Count {
    /// Classes of pieces with the same allowed set: (set, piece numbers). The last is implicit.
    classes: Vec<(RankSet, Vec<usize>)>,
    strides: Vec<usize>,
    states: usize,
    /// `backward[t * states + s]`: completions of state `s` before handing out rank `t`.
    backward: Vec<f64>,
    total: f64,
    pub(crate) marginals: Vec<[f64; Rank::NUM]>,
}

impl Count {
    /// Counts the assignments of `army` to pieces with the allowed `sets` (one per piece, as
    /// many as the army). `None` if none fits.
    pub(crate) fn new(sets: &[RankSet], army: &[Rank]) -> Option<Count> {
        if sets.len() != army.len() {
            return None;
        }
        let sets = narrow(sets, army)?;
        let n = sets.len();
        let mut classes: Vec<(RankSet, Vec<usize>)> = Vec::new();
        for (piece, &set) in sets.iter().enumerate() {
            match classes.iter_mut().find(|(s, _)| *s == set) {
                Some((_, members)) => members.push(piece),
                None => classes.push((set, vec![piece])),
            }
        }
        // The largest class goes last and is left out of the state.
        let largest = (0..classes.len()).max_by_key(|&c| (classes[c].1.len(), usize::MAX - c))?;
        let implicit = classes.remove(largest);
        classes.push(implicit);
        let explicit = classes.len() - 1;
        let sizes: Vec<usize> = classes.iter().map(|(_, m)| m.len()).collect();
        let mut strides = Vec::with_capacity(explicit);
        let mut states = 1usize;
        for &size in &sizes[..explicit] {
            strides.push(states);
            states = states.checked_mul(size + 1)?;
        }
        // Places left per explicit class for every state, and places used in all of them.
        let mut left = vec![0u8; states * explicit];
        let mut used = vec![0usize; states];
        for s in 0..states {
            for c in 0..explicit {
                let k = (s / strides[c]) % (sizes[c] + 1);
                left[s * explicit + c] = k as u8;
                used[s] += sizes[c] - k;
            }
        }
        let implicit_size = sizes[explicit];
        let implicit_left = |s: usize, t: usize| -> Option<usize> {
            let taken = t.checked_sub(used[s])?;
            implicit_size.checked_sub(taken)
        };

        // For each rank, the explicit classes that may take it.
        let eligible: Vec<Vec<usize>> = Rank::ALL
            .iter()
            .map(|&rank| (0..explicit).filter(|&c| classes[c].0.has(rank)).collect())
            .collect();
        let mut backward = vec![0.0f64; (n + 1) * states];
        backward[n * states] = 1.0; // every place filled: state 0
        for t in (0..n).rev() {
            let rank = army[t];
            let implicit_takes = classes[explicit].0.has(rank);
            let (done, next) = backward.split_at_mut((t + 1) * states);
            let row = &mut done[t * states..];
            let next = &next[..states];
            for s in 0..states {
                let Some(z) = implicit_left(s, t) else {
                    continue;
                };
                let mut ways = 0.0;
                for &c in &eligible[rank.index()] {
                    let k = left[s * explicit + c];
                    if k > 0 {
                        ways += f64::from(k) * next[s - strides[c]];
                    }
                }
                if z > 0 && implicit_takes {
                    ways += z as f64 * next[s];
                }
                row[s] = ways;
            }
        }
        let full = states - 1;
        let total = backward[full];
        if total <= 0.0 {
            return None;
        }

        // Forward: the ways to reach each state, and each class's expected count of each rank.
        let mut expected = vec![[0.0f64; Rank::NUM]; classes.len()];
        let mut forward = vec![0.0f64; states];
        let mut next = vec![0.0f64; states];
        forward[full] = 1.0;
        for (t, &rank) in army.iter().enumerate() {
            next.iter_mut().for_each(|v| *v = 0.0);
            for s in 0..states {
                let f = forward[s];
                if f == 0.0 {
                    continue;
                }
                let Some(z) = implicit_left(s, t) else {
                    continue;
                };
                for &c in &eligible[rank.index()] {
                    let k = left[s * explicit + c];
                    if k > 0 {
                        let to = s - strides[c];
                        let w = f * f64::from(k);
                        expected[c][rank.index()] += w * backward[(t + 1) * states + to];
                        next[to] += w;
                    }
                }
                if z > 0 && classes[explicit].0.has(rank) {
                    let w = f * z as f64;
                    expected[explicit][rank.index()] += w * backward[(t + 1) * states + s];
                    next[s] += w;
                }
            }
            core::mem::swap(&mut forward, &mut next);
        }
        let mut marginals = vec![[0.0f64; Rank::NUM]; n];
        for (c, (_, members)) in classes.iter().enumerate() {
            let mut p = expected[c];
            for v in &mut p {
                *v /= total * members.len() as f64;
            }
            for &piece in members {
                marginals[piece] = p;
            }
        }
        Some(Count {
            classes,
            strides,
            states,
            backward,
            total,
            marginals,
        })
    }

    /// A uniformly random fitting assignment, as (piece, rank) pairs in army order.
    pub(crate) fn sample(&self, army: &[Rank], rng: &mut SplitMix64) -> Vec<(usize, Rank)> {
        let explicit = self.classes.len() - 1;
        let mut free: Vec<Vec<usize>> = self.classes.iter().map(|(_, m)| m.clone()).collect();
        let mut s = self.states - 1;
        let mut out = Vec::with_capacity(army.len());
        for (t, &rank) in army.iter().enumerate() {
            let row = (t + 1) * self.states;
            let mut options: [(usize, f64); 32] = [(0, 0.0); 32];
            let mut n_options = 0;
            for (c, members) in free.iter().enumerate() {
                let k = members.len();
                if k == 0 || !self.classes[c].0.has(rank) || n_options == options.len() {
                    continue;
                }
                let target = if c < explicit { s - self.strides[c] } else { s };
                let w = k as f64 * self.backward[row + target];
                if w > 0.0 {
                    options[n_options] = (c, w);
                    n_options += 1;
                }
            }
            let options = &options[..n_options];
            let sum: f64 = options.iter().map(|o| o.1).sum();
            let mut u = rng.next_f64() * sum;
            let mut chosen = options.last().map_or(explicit, |o| o.0);
            for &(c, w) in options {
                if u < w {
                    chosen = c;
                    break;
                }
                u -= w;
            }
            let members = &mut free[chosen];
            let pick = rng.below(members.len() as u64) as usize;
            let piece = members.swap_remove(pick);
            out.push((piece, rank));
            if chosen < explicit {
                s -= self.strides[chosen];
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every assignment of `army` to the pieces, by brute force (small cases only).
    fn brute_force(sets: &[RankSet], army: &[Rank]) -> (f64, Vec<[f64; Rank::NUM]>) {
        fn go(
            piece: usize,
            sets: &[RankSet],
            left: &mut Vec<Rank>,
            chosen: &mut Vec<Rank>,
            count: &mut f64,
            tally: &mut Vec<[f64; Rank::NUM]>,
        ) {
            if piece == sets.len() {
                *count += 1.0;
                for (p, r) in chosen.iter().enumerate() {
                    tally[p][r.index()] += 1.0;
                }
                return;
            }
            let mut tried = RankSet::empty();
            for i in 0..left.len() {
                let r = left[i];
                if tried.has(r) || !sets[piece].has(r) {
                    continue;
                }
                tried |= RankSet::of(r);
                left.remove(i);
                chosen.push(r);
                go(piece + 1, sets, left, chosen, count, tally);
                chosen.pop();
                left.insert(i, r);
            }
        }
        let mut count = 0.0;
        let mut tally = vec![[0.0; Rank::NUM]; sets.len()];
        go(
            0,
            sets,
            &mut army.to_vec(),
            &mut Vec::new(),
            &mut count,
            &mut tally,
        );
        for row in &mut tally {
            for v in row.iter_mut() {
                *v /= count;
            }
        }
        (count, tally)
    }

    fn set(ranks: &[Rank]) -> RankSet {
        ranks
            .iter()
            .fold(RankSet::empty(), |s, r| s | RankSet::of(*r))
    }

    #[test]
    fn marginals_equal_brute_force_on_small_cases() {
        use Rank::*;
        let army = [Flag, Private, Private, Private, Sergeant, Spy, Spy, Major];
        let all = RankSet::all();
        let not_flag = all.difference(RankSet::FLAG);
        let cases: Vec<Vec<RankSet>> = vec![
            vec![all; 8],
            vec![not_flag, not_flag, all, all, all, all, all, all],
            vec![
                set(&[Flag, Spy]),
                set(&[Private]),
                not_flag,
                all,
                all,
                all,
                all,
                all,
            ],
            vec![
                set(&[Sergeant, Major]),
                set(&[Sergeant, Major, Spy]),
                set(&[Flag, Private]),
                not_flag,
                not_flag,
                all,
                set(&[Private, Spy]),
                all,
            ],
            vec![
                set(&[Spy]),
                set(&[Spy, Major]),
                set(&[Private, Flag]),
                set(&[Private, Flag]),
                set(&[Private, Sergeant]),
                not_flag,
                not_flag,
                all,
            ],
        ];
        for (i, sets) in cases.iter().enumerate() {
            let (count, brute) = brute_force(sets, &army);
            let fast = Count::new(sets, &army).expect("fits");
            // The DP counts each assignment 3! x 2! times (equal Privates and Spies ordered).
            assert!(
                (fast.total / 12.0 - count).abs() < 1e-6,
                "case {i}: {} vs {count}",
                fast.total
            );
            for (p, (a, b)) in fast.marginals.iter().zip(&brute).enumerate() {
                for r in 0..Rank::NUM {
                    assert!((a[r] - b[r]).abs() < 1e-12, "case {i} piece {p} rank {r}");
                }
            }
        }
    }

    #[test]
    fn no_fitting_assignment_is_none() {
        use Rank::*;
        let army = [Flag, Private];
        assert!(Count::new(&[RankSet::of(Flag), RankSet::of(Flag)], &army).is_none());
        assert!(Count::new(&[RankSet::empty(), RankSet::all()], &army).is_none());
    }

    #[test]
    fn samples_are_uniform_over_fitting_assignments() {
        use Rank::*;
        let army = [Flag, Private, Private, Spy];
        let sets = [
            set(&[Flag, Spy]),
            RankSet::all(),
            set(&[Private, Spy]),
            RankSet::all(),
        ];
        let (count, _) = brute_force(&sets, &army);
        let fast = Count::new(&sets, &army).unwrap();
        let mut rng = SplitMix64::new(5);
        let mut seen = std::collections::HashMap::new();
        let draws = 60_000;
        for _ in 0..draws {
            let mut ranks = [Flag; 4];
            for (p, r) in fast.sample(&army, &mut rng) {
                assert!(sets[p].has(r));
                ranks[p] = r;
            }
            *seen.entry(ranks).or_insert(0u32) += 1;
        }
        assert_eq!(
            seen.len() as f64,
            count,
            "every fitting assignment is drawn"
        );
        let expected = f64::from(draws) / count;
        let chi2: f64 = seen
            .values()
            .map(|&c| (f64::from(c) - expected).powi(2) / expected)
            .sum();
        assert!(chi2 < 40.0, "chi-square {chi2} over {count} cells");
    }
}
