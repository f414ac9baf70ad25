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

use std::sync::Arc;

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
    count: Arc<Count>,
}

impl Tracker {
    /// The exact posterior over the enemy's ranks.
    ///
    /// The counting is done once per set of facts and kept in the tracker (clones share it):
    /// a ply that adds no fact, as most do, leaves it in place, and the next call only reads
    /// it and notes where each enemy piece now stands. Counting takes about 10 µs in a
    /// typical midgame and 150 µs in the slowest positions of long games (see the README).
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
                if let Some(rank) = self.own_rank(id.number()) {
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
        let pieces = (0..Rank::ARMY_SIZE)
            .map(|number| {
                let probabilities = count.marginals[number];
                PieceBelief {
                    id: PieceId::new(enemy, number).expect("number below 21"),
                    square: squares[number],
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
    /// The local stride of each explicit class, 0 if it is not free.
    strides: Vec<usize>,
    /// The number of states: the product of (size + 1) over the free classes.
    size: usize,
}

impl Layer {
    fn new(t: usize, sizes: &[usize], first: &[usize], last: &[usize]) -> Layer {
        let mut free = Vec::new();
        let mut fixed = vec![0; sizes.len()];
        let mut strides = vec![0; sizes.len()];
        let mut size = 1usize;
        for c in 0..sizes.len() {
            if first[c] >= t {
                fixed[c] = sizes[c];
            } else if last[c] >= t {
                free.push((c, size, sizes[c]));
                strides[c] = size;
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
}

/// What handing out the rank of step `t` involves, worked out once for every state.
#[derive(Debug, Clone, PartialEq)]
struct Plan {
    /// The explicit classes whose set holds the rank: `(class, its stride in the next layer,
    /// whether this is its last rank)`; a class at its last rank is not in the next layer
    /// (stride 0) and must be empty after the step.
    takers: Vec<(usize, usize, bool)>,
    /// The explicit classes whose last rank this is.
    closers: Vec<usize>,
    /// Whether the implicit class's set holds the rank.
    implicit: bool,
}

/// Working space for counting, kept per thread and reused.
#[derive(Default)]
struct Scratch {
    /// Every layer's forward counts, one after another.
    forward: Vec<f64>,
    /// The transitions out of reached states, layer by layer.
    edges: Vec<Edge>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// A transition out of a reached state, noted by the forward pass for the backward one.
#[derive(Debug, Clone, Copy)]
struct Edge {
    from: u32,
    to: u32,
    class: u16,
    ways: u16,
}

/// The counting machinery for pieces with allowed sets and an army (a sequence of ranks).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Count {
    /// Classes of pieces with the same allowed set: (set, piece numbers). The last is implicit.
    classes: Vec<(RankSet, Vec<usize>)>,
    /// The states before each step, `0..=n`.
    layers: Vec<Layer>,
    /// What each step `0..n` does.
    plans: Vec<Plan>,
    /// `backward[t][p]`: completions of state `p` of layer `t`.
    backward: Vec<Vec<f64>>,
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
        let spans: Vec<(usize, usize)> = classes
            .iter()
            .map(|(set, _)| {
                Some((
                    army.iter().position(|r| set.has(*r))?,
                    army.iter().rposition(|r| set.has(*r))?,
                ))
            })
            .collect::<Option<_>>()?;
        // One class is left out of the state (its places follow from the others'): the one
        // whose absence leaves the fewest states to visit.
        let free = |c: usize, t: usize| spans[c].0 < t && spans[c].1 >= t;
        let all: Vec<f64> = (1..=n)
            .map(|t| {
                (0..classes.len())
                    .filter(|&c| free(c, t))
                    .map(|c| (classes[c].1.len() + 1) as f64)
                    .product()
            })
            .collect();
        let states_without = |out: usize| -> f64 {
            let size = (classes[out].1.len() + 1) as f64;
            (1..=n)
                .map(|t| all[t - 1] / if free(out, t) { size } else { 1.0 })
                .sum()
        };
        let implicit = (0..classes.len())
            .map(|out| (out, states_without(out)))
            .min_by(|a, b| a.1.total_cmp(&b.1))?
            .0;
        let implicit_class = classes.remove(implicit);
        classes.push(implicit_class);
        let mut spans = spans;
        let implicit_span = spans.remove(implicit);
        spans.push(implicit_span);
        let explicit = classes.len() - 1;
        let sizes: Vec<usize> = classes[..explicit].iter().map(|(_, m)| m.len()).collect();
        let first: Vec<usize> = spans[..explicit].iter().map(|s| s.0).collect();
        let last: Vec<usize> = spans[..explicit].iter().map(|s| s.1).collect();
        let layers: Vec<Layer> = (0..=n)
            .map(|t| Layer::new(t, &sizes, &first, &last))
            .collect();
        // Too many states to count (never seen in a real game): positions must fit in `u32`.
        if layers.iter().any(|l| l.size > u32::MAX as usize) {
            return None;
        }
        let plans = (0..n)
            .map(|t| Plan {
                takers: (0..explicit)
                    .filter(|&c| classes[c].0.has(army[t]))
                    .map(|c| (c, layers[t + 1].strides[c], last[c] == t))
                    .collect(),
                closers: (0..explicit).filter(|&c| last[c] == t).collect(),
                implicit: classes[explicit].0.has(army[t]),
            })
            .collect();
        let count = Count {
            classes,
            layers,
            plans,
            backward: Vec::new(),
            total: 0.0,
            marginals: Vec::new(),
        };
        count.solve(army)
    }

    /// Calls `f(position, digits, next, used)` for every state of layer `t`, in position
    /// order: `digits` the places left in each explicit class, `next` the position of the
    /// same digits in layer `t + 1`, `used` the places the explicit classes have filled. The
    /// last two are kept up to date as the digits count up.
    fn for_each_state(&self, t: usize, mut f: impl FnMut(usize, &[usize], usize, usize)) {
        let layer = &self.layers[t];
        let next_strides = &self.layers[t + 1].strides;
        let mut digits = layer.fixed.clone();
        let mut next: usize = digits.iter().zip(next_strides).map(|(d, s)| d * s).sum();
        let mut used: usize = self.classes[..digits.len()]
            .iter()
            .zip(&digits)
            .map(|((_, m), d)| m.len() - d)
            .sum();
        for p in 0..layer.size {
            f(p, &digits, next, used);
            for &(c, _, size) in &layer.free {
                digits[c] += 1;
                next += next_strides[c];
                if digits[c] <= size {
                    used -= 1;
                    break;
                }
                digits[c] = 0;
                next -= (size + 1) * next_strides[c];
                used += size;
            }
        }
    }

    /// Calls `emit(class, ways, to)` for each way to hand out step `t`'s rank from the state
    /// with places left `digits` (`next` and `used` as [`Count::for_each_state`] gives them):
    /// to explicit class `Some(c)` or to the implicit class (`None`), in `ways` ways, leading
    /// to position `to` of layer `t + 1`.
    #[inline]
    fn transitions(
        &self,
        t: usize,
        digits: &[usize],
        next: usize,
        used: usize,
        mut emit: impl FnMut(Option<usize>, usize, usize),
    ) {
        let plan = &self.plans[t];
        // A class at its last rank must be empty afterwards: at most one may still have a
        // place, and then it must take this rank.
        let closing_left = plan.closers.iter().filter(|&&c| digits[c] > 0).count();
        if closing_left > 1 {
            return;
        }
        for &(c, stride, closes) in &plan.takers {
            let k = digits[c];
            if k == 0 || (closing_left == 1 && !(closes && k == 1)) {
                continue;
            }
            emit(Some(c), k, next - stride);
        }
        if plan.implicit && closing_left == 0 {
            let implicit_size = self.classes[self.classes.len() - 1].1.len();
            let implicit_left = t
                .checked_sub(used)
                .and_then(|taken| implicit_size.checked_sub(taken))
                .unwrap_or(0);
            if implicit_left > 0 {
                emit(None, implicit_left, next);
            }
        }
    }

    /// Counts in two passes: forward, the ways to reach each state from the start, noting
    /// every transition out of a reached state; then backward over those transitions only,
    /// the ways to complete each state, and with them each class's expected count of each rank
    /// (reach × ways × completions of every transition).
    fn solve(mut self, army: &[Rank]) -> Option<Count> {
        // The forward counts and the transitions are needed only here: they live in buffers
        // kept per thread, so that counting again (after every new fact) allocates little.
        SCRATCH.with(|scratch| {
            let mut scratch = scratch.borrow_mut();
            let Scratch { forward, edges } = &mut *scratch;
            self.count(army, forward, edges)
        })?;
        Some(self)
    }

    /// The two passes of [`Count::solve`], with `forward` and `edges` as working space.
    fn count(
        &mut self,
        army: &[Rank],
        forward: &mut Vec<f64>,
        edges: &mut Vec<Edge>,
    ) -> Option<()> {
        let n = army.len();
        let explicit = self.classes.len() - 1;
        // Layer `t`'s forward counts are `forward[offsets[t]..offsets[t + 1]]`.
        let mut offsets = Vec::with_capacity(n + 2);
        offsets.push(0);
        for layer in &self.layers {
            offsets.push(offsets[offsets.len() - 1] + layer.size);
        }
        forward.clear();
        forward.resize(offsets[n + 1], 0.0);
        forward[0] = 1.0;
        edges.clear();
        let mut starts = Vec::with_capacity(n + 1);
        for t in 0..n {
            starts.push(edges.len());
            let (before, after) = forward.split_at_mut(offsets[t + 1]);
            let here = &before[offsets[t]..];
            let next = &mut after[..self.layers[t + 1].size];
            self.for_each_state(t, |p, digits, to_same, used| {
                let f = here[p];
                if f == 0.0 {
                    return;
                }
                self.transitions(t, digits, to_same, used, |class, ways, to| {
                    next[to] += f * ways as f64;
                    // Layers are below 2^32 states (checked), classes and ways at most 21.
                    edges.push(Edge {
                        from: p as u32,
                        to: to as u32,
                        class: class.unwrap_or(explicit) as u16,
                        ways: ways as u16,
                    });
                });
            });
        }
        starts.push(edges.len());
        if forward[offsets[n]] <= 0.0 {
            return None;
        }
        let mut expected = vec![[0.0f64; Rank::NUM]; self.classes.len()];
        let mut backward: Vec<Vec<f64>> = self.layers.iter().map(|l| vec![0.0; l.size]).collect();
        backward[n][0] = 1.0; // every place filled
        for t in (0..n).rev() {
            let rank = army[t].index();
            let (before, after) = backward.split_at_mut(t + 1);
            let (row, after) = (&mut before[t], &after[0]);
            let reach = &forward[offsets[t]..offsets[t + 1]];
            for edge in &edges[starts[t]..starts[t + 1]] {
                let (from, to) = (edge.from as usize, edge.to as usize);
                let completions = f64::from(edge.ways) * after[to];
                row[from] += completions;
                expected[usize::from(edge.class)][rank] += reach[from] * completions;
            }
        }
        let total = backward[0][0];
        if total <= 0.0 {
            return None;
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
        Some(())
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
        for (t, &rank) in army.iter().enumerate() {
            let next_strides = &self.layers[t + 1].strides;
            let next: usize = digits.iter().zip(next_strides).map(|(d, s)| d * s).sum();
            let used: usize = self.classes[..explicit]
                .iter()
                .zip(&digits)
                .map(|((_, m), d)| m.len() - d)
                .sum();
            // At most one way per class, and there are at most 21 classes.
            let mut ways = [(None, 0.0f64); 32];
            let mut len = 0;
            self.transitions(t, &digits, next, used, |class, k, to| {
                if len < ways.len() {
                    ways[len] = (class, k as f64 * self.backward[t + 1][to]);
                    len += 1;
                }
            });
            let ways = &ways[..len];
            let sum: f64 = ways.iter().map(|w| w.1).sum();
            let mut u = rng.next_f64() * sum;
            let mut chosen = ways.iter().rposition(|w| w.1 > 0.0).unwrap_or(0);
            for (i, &(_, w)) in ways.iter().enumerate() {
                if u < w {
                    chosen = i;
                    break;
                }
                u -= w;
            }
            let class = ways.get(chosen).and_then(|w| w.0);
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
