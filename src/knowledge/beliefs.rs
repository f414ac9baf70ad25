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
//! the state: its places left follow from the others'. At each step only the classes that have
//! already been offered one of their ranks and will be offered another are free; the others are
//! known to be full or empty, so each step visits just the states of its free classes. A backward pass counts the completions
//! of every state, a forward pass the ways to reach it; their products give every piece's
//! marginal exactly, and the backward counts let a sampler draw a uniformly random fitting
//! assignment in 21 steps. Handing out equal ranks one at a time counts each assignment
//! `6! × 2!` times, the same factor for all, which cancels in every probability.

use crate::piece::PieceId;
use crate::rank::Rank;
use crate::rng::SplitMix64;
use crate::side::Side;
use crate::square::Square;

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
    pieces: Vec<PieceBelief>,
    count: Count,
}

impl Tracker {
    /// The exact posterior over the enemy's ranks.
    ///
    /// # Errors
    /// [`ObserveError::NoFit`] if no assignment of ranks fits every fact (impossible for the
    /// events of a real game).
    pub fn beliefs(&self) -> Result<Beliefs, ObserveError> {
        Beliefs::from_tracker(self)
    }
}

impl Beliefs {
    pub(crate) fn from_tracker(tracker: &Tracker) -> Result<Beliefs, ObserveError> {
        let enemy = tracker.side().other();
        let count = Count::new(tracker.constraints(), &Rank::ARMY).ok_or(ObserveError::NoFit {
            why: "no assignment of the enemy's ranks fits every fact",
        })?;
        let pieces = (0..Rank::ARMY_SIZE)
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
        for (number, rank) in self.count.sample(&Rank::ARMY, rng) {
            ranks[number] = rank;
        }
        ranks
    }
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

/// The states of one step: the explicit classes still free to take ranks, with their
/// local strides. Every other class is fixed: full if none of its ranks has been handed out
/// yet, empty if all of them have (any other state leads nowhere).
#[derive(Debug, Clone, PartialEq)]
struct Layer {
    /// `(class, local stride, class size)` of each free class.
    free: Vec<(usize, usize, usize)>,
    /// The digit (places left) of each explicit class when it is not free.
    fixed: Vec<usize>,
    /// The local stride of each explicit class, `None` if it is not free.
    strides: Vec<Option<usize>>,
    /// The number of states: the product of (size + 1) over the free classes.
    size: usize,
}

impl Layer {
    fn new(t: usize, sizes: &[usize], first: &[usize], last: &[usize]) -> Layer {
        let mut free = Vec::new();
        let mut fixed = vec![0; sizes.len()];
        let mut strides = vec![None; sizes.len()];
        let mut size = 1usize;
        for c in 0..sizes.len() {
            if first[c] >= t {
                fixed[c] = sizes[c];
            } else if last[c] >= t {
                free.push((c, size, sizes[c]));
                strides[c] = Some(size);
                size = size.saturating_mul(sizes[c] + 1);
            }
        }
        Layer {
            free,
            fixed,
            strides,
            size,
        }
    }

    /// The local position of a state given as the places left in every explicit class.
    #[inline]
    fn position(&self, digits: &[usize]) -> usize {
        self.free
            .iter()
            .map(|&(c, stride, _)| digits[c] * stride)
            .sum()
    }

    /// The local stride of class `c`, if it is free in this layer.
    #[inline]
    fn stride(&self, c: usize) -> Option<usize> {
        self.strides[c]
    }

    /// Calls `f(position, digits)` for every state, in position order.
    fn for_each(&self, mut f: impl FnMut(usize, &[usize])) {
        let mut digits = self.fixed.clone();
        for p in 0..self.size {
            f(p, &digits);
            for &(c, _, size) in &self.free {
                digits[c] += 1;
                if digits[c] <= size {
                    break;
                }
                digits[c] = 0;
            }
        }
    }
}

/// The counting machinery for pieces with allowed sets and an army (a sequence of ranks).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Count {
    /// Classes of pieces with the same allowed set: (set, piece numbers). The last is implicit.
    classes: Vec<(RankSet, Vec<usize>)>,
    /// The states before each step, `0..=n`.
    layers: Vec<Layer>,
    /// `backward[t][p]`: completions of state `p` of layer `t`.
    backward: Vec<Vec<f64>>,
    total: f64,
    pub(crate) marginals: Vec<[f64; Rank::NUM]>,
}

/// One way to hand out the rank of step `t` from a state: to explicit class `Some(c)` or to
/// the implicit class (`None`), with its number of ways and the position it leads to in the
/// next layer.
struct Step {
    class: Option<usize>,
    ways: usize,
    to: usize,
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
        let sizes: Vec<usize> = classes[..explicit].iter().map(|(_, m)| m.len()).collect();
        let mut first = Vec::with_capacity(explicit);
        let mut last = Vec::with_capacity(explicit);
        for (set, _) in &classes[..explicit] {
            first.push(army.iter().position(|r| set.has(*r))?);
            last.push(army.iter().rposition(|r| set.has(*r))?);
        }
        let layers: Vec<Layer> = (0..=n)
            .map(|t| Layer::new(t, &sizes, &first, &last))
            .collect();
        let count = Count {
            classes,
            layers,
            backward: Vec::new(),
            total: 0.0,
            marginals: Vec::new(),
        };
        count.solve(army)
    }

    /// The ways to hand out step `t`'s rank from the state with places left `digits`.
    fn steps(&self, t: usize, rank: Rank, digits: &[usize], out: &mut Vec<Step>) {
        out.clear();
        let explicit = self.classes.len() - 1;
        let next = &self.layers[t + 1];
        // Classes whose last rank this is must be empty afterwards.
        let closing_left: usize = (0..explicit)
            .filter(|&c| next.stride(c).is_none() && next.fixed[c] == 0 && digits[c] > 0)
            .count();
        let same = next.position(digits);
        let used: usize = self.classes[..explicit]
            .iter()
            .zip(digits)
            .map(|((_, m), d)| m.len() - d)
            .sum();
        let implicit_size = self.classes[explicit].1.len();
        let implicit_left = t
            .checked_sub(used)
            .and_then(|taken| implicit_size.checked_sub(taken))
            .unwrap_or(0);
        for (c, &k) in digits.iter().enumerate().take(explicit) {
            if k == 0 || !self.classes[c].0.has(rank) {
                continue;
            }
            let closing = next.stride(c).is_none() && next.fixed[c] == 0;
            let others_left = closing_left - usize::from(closing);
            if others_left > 0 || (closing && k != 1) {
                continue;
            }
            let to = same - next.stride(c).unwrap_or(0);
            out.push(Step {
                class: Some(c),
                ways: k,
                to,
            });
        }
        if implicit_left > 0 && closing_left == 0 && self.classes[explicit].0.has(rank) {
            out.push(Step {
                class: None,
                ways: implicit_left,
                to: same,
            });
        }
    }

    fn solve(mut self, army: &[Rank]) -> Option<Count> {
        let n = army.len();
        let explicit = self.classes.len() - 1;
        let mut backward: Vec<Vec<f64>> = self.layers.iter().map(|l| vec![0.0; l.size]).collect();
        backward[n][0] = 1.0; // every place filled
        let mut steps = Vec::new();
        for t in (0..n).rev() {
            let mut row = vec![0.0; self.layers[t].size];
            self.layers[t].for_each(|p, digits| {
                self.steps(t, army[t], digits, &mut steps);
                row[p] = steps
                    .iter()
                    .map(|s| s.ways as f64 * backward[t + 1][s.to])
                    .sum();
            });
            backward[t] = row;
        }
        let total = backward[0][0];
        if total <= 0.0 {
            return None;
        }
        // Forward: the ways to reach each state, and each class's expected count of each rank.
        let mut expected = vec![[0.0f64; Rank::NUM]; self.classes.len()];
        let mut forward = vec![1.0];
        for (t, &rank) in army.iter().enumerate() {
            let mut next = vec![0.0; self.layers[t + 1].size];
            self.layers[t].for_each(|p, digits| {
                let f = forward[p];
                if f == 0.0 {
                    return;
                }
                self.steps(t, rank, digits, &mut steps);
                for s in &steps {
                    let w = f * s.ways as f64;
                    let c = s.class.unwrap_or(explicit);
                    expected[c][rank.index()] += w * backward[t + 1][s.to];
                    next[s.to] += w;
                }
            });
            forward = next;
        }
        let mut marginals = vec![[0.0f64; Rank::NUM]; n];
        for (c, (_, members)) in self.classes.iter().enumerate() {
            let mut p = expected[c];
            for v in &mut p {
                *v /= total * members.len() as f64;
            }
            for &piece in members {
                marginals[piece] = p;
            }
        }
        self.backward = backward;
        self.total = total;
        self.marginals = marginals;
        Some(self)
    }

    /// A uniformly random fitting assignment, as (piece, rank) pairs in army order.
    pub(crate) fn sample(&self, army: &[Rank], rng: &mut SplitMix64) -> Vec<(usize, Rank)> {
        let explicit = self.classes.len() - 1;
        let mut free: Vec<Vec<usize>> = self.classes.iter().map(|(_, m)| m.clone()).collect();
        let mut digits: Vec<usize> = self.classes[..explicit]
            .iter()
            .map(|(_, m)| m.len())
            .collect();
        let mut out = Vec::with_capacity(army.len());
        let mut steps = Vec::new();
        for (t, &rank) in army.iter().enumerate() {
            self.steps(t, rank, &digits, &mut steps);
            // At most one step per class, and there are at most 21 classes.
            let mut weights = [0.0f64; 32];
            for (w, s) in weights.iter_mut().zip(&steps) {
                *w = s.ways as f64 * self.backward[t + 1][s.to];
            }
            let weights = &weights[..steps.len().min(32)];
            let sum: f64 = weights.iter().sum();
            let mut u = rng.next_f64() * sum;
            let mut chosen = weights.iter().rposition(|w| *w > 0.0).unwrap_or(0);
            for (i, &w) in weights.iter().enumerate() {
                if u < w {
                    chosen = i;
                    break;
                }
                u -= w;
            }
            let class = steps.get(chosen).and_then(|s| s.class);
            let members = &mut free[class.unwrap_or(explicit)];
            if members.is_empty() {
                break;
            }
            let pick = rng.below(members.len() as u64) as usize;
            out.push((members.swap_remove(pick), rank));
            if let Some(c) = class {
                digits[c] -= 1;
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
