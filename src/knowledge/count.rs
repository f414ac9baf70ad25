//! Counting the rank assignments that fit the facts, exactly, and drawing one uniformly: the
//! machinery behind [`super::Beliefs`] and the samples.
//!
//! Pieces with the same allowed set are interchangeable, so they form one class.
//! The army's 21 ranks are handed out one at a time (Flag, six Privates, …, two Spies); a state
//! is how many places each class still has, and handing a rank to a class with `k` places left
//! has `k` ways. The largest class (usually the pieces nothing is known about) is left out of
//! the state: its places left follow from the others'. At each step only the classes that have
//! already been offered one of their ranks and will be offered another are free; the others are
//! known to be full or empty, so each step visits just the states of its free classes. A
//! backward pass counts the completions
//! of every state, a forward pass the ways to reach it; their products give every piece's
//! marginal exactly, and the backward counts let a sampler draw a uniformly random fitting
//! assignment in 21 steps. Handing out equal ranks one at a time counts each assignment
//! `6! × 2!` times, the same factor for all, which cancels in every probability.
//!
//! Nothing here allocates but the one buffer a count keeps (the backward counts, which the
//! sampler reads): classes, steps and marginals live in fixed arrays sized by the army, and
//! the forward pass works in buffers kept per thread.

use core::ops::{Deref, DerefMut};

use crate::rank::Rank;
use crate::rng::SplitMix64;

use super::rankset::RankSet;

/// The most pieces a count is over: one army.
const MAX: usize = Rank::ARMY_SIZE;

/// At most `N` values, kept inline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Few<T, const N: usize> {
    items: [T; N],
    len: usize,
}

impl<T: Copy, const N: usize> Few<T, N> {
    /// None yet; `fill` stands in the unused slots.
    const fn new(fill: T) -> Few<T, N> {
        Few {
            items: [fill; N],
            len: 0,
        }
    }

    /// Adds `item` at the end (the callers' bounds keep it within `N`).
    fn push(&mut self, item: T) {
        self.items[self.len] = item;
        self.len += 1;
    }

    /// Removes the item at `index`, putting the last one in its place.
    fn remove_swap(&mut self, index: usize) -> T {
        let item = self.items[index];
        self.items[index] = self.items[self.len - 1];
        self.len -= 1;
        item
    }

    /// Removes the item at `index`, shifting the later ones down.
    fn remove(&mut self, index: usize) -> T {
        let item = self.items[index];
        self.items.copy_within(index + 1..self.len, index);
        self.len -= 1;
        item
    }
}

impl<T, const N: usize> Deref for Few<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items[..self.len]
    }
}

impl<T, const N: usize> DerefMut for Few<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items[..self.len]
    }
}

/// Narrows the allowed sets by what the army forces: a rank that pieces whose set holds only it
/// use up entirely is impossible for every other piece (repeated until nothing changes). The
/// fitting assignments stay the same; there are fewer distinct sets to count over. `None` if
/// a set becomes empty.
fn narrow(sets: &[RankSet], army: &[Rank]) -> Option<Few<RankSet, MAX>> {
    let mut narrowed = Few::new(RankSet::empty());
    for &set in sets {
        narrowed.push(set);
    }
    let mut counts = [0usize; Rank::NUM];
    for rank in army {
        counts[rank.index()] += 1;
    }
    loop {
        let mut changed = false;
        for rank in Rank::ALL {
            let only = RankSet::of(rank);
            let fixed = narrowed.iter().filter(|s| **s == only).count();
            if fixed > counts[rank.index()] {
                return None;
            }
            if fixed == counts[rank.index()] {
                for set in narrowed.iter_mut().filter(|s| **s != only && s.has(rank)) {
                    set.remove(only);
                    changed = true;
                }
            }
        }
        if narrowed.iter().any(|s| s.is_empty()) {
            return None;
        }
        if !changed {
            return Some(narrowed);
        }
    }
}

/// The states of one step: the explicit classes still free to take ranks, with their
/// local strides. Every other class is fixed: full if none of its ranks has been handed out
/// yet, empty if all of them have (any other state leads nowhere). Worked out when a step is
/// visited, from the classes' spans; a count keeps none.
#[derive(Debug, Clone)]
struct Layer {
    /// `(class, class size, local stride)` of each free class.
    free: Few<(u8, u8, u32), MAX>,
    /// The digit (places left) of each explicit class when it is not free.
    fixed: [u8; MAX],
    /// The local stride of each explicit class, 0 if it is not free.
    strides: [u32; MAX],
    /// The number of states: the product of (size + 1) over the free classes.
    size: usize,
}

/// What handing out the rank of step `t` involves, worked out once per count: the classes
/// that can take it, the classes it closes, and where the next layer's states lie.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Step {
    /// The explicit classes whose set holds the rank, a bit each.
    takers: u32,
    /// The explicit classes whose last rank this is, a bit each: a class at its last rank is
    /// not in the next layer (stride 0) and must be empty after the step.
    closers: u32,
    /// Whether the implicit class's set holds the rank.
    implicit: bool,
    /// The strides of the layer after the step, by explicit class.
    next_strides: [u32; MAX],
}

/// The classes of a mask, in ascending order.
fn classes_of(mut mask: u32) -> impl Iterator<Item = usize> {
    core::iter::from_fn(move || {
        (mask != 0).then(|| {
            let c = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            c
        })
    })
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

/// The position of the state with places left `digits` in a layer with `strides`.
fn position(digits: &[usize], strides: &[u32; MAX]) -> usize {
    digits
        .iter()
        .zip(strides)
        .map(|(&d, &s)| d * s as usize)
        .sum()
}

/// A class of pieces with the same allowed set: the set and the piece numbers.
type Class = (RankSet, Few<u8, MAX>);

/// The counts for pieces with allowed sets and an army (a sequence of ranks): how many
/// assignments fit, each piece's marginals, and what sampling needs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Count {
    /// Classes of pieces with the same allowed set. The last is implicit.
    classes: Few<Class, MAX>,
    /// The first and the last step whose rank each explicit class's set holds.
    spans: [(usize, usize); MAX],
    /// Where layer `t`'s states start in `backward`, `0..=n`, and the end.
    offsets: [usize; MAX + 2],
    /// What each step `0..n` does.
    steps: [Step; MAX],
    /// The completions of every state, layer after layer.
    backward: Vec<f64>,
    pub(crate) total: f64,
    /// Each piece's probability of each rank.
    pub(crate) marginals: [[f64; Rank::NUM]; MAX],
}

impl Count {
    /// Counts the assignments of `army` to pieces with the allowed `sets` (one per piece, as
    /// many as the army, at most an army's 21). `None` if none fits.
    pub(crate) fn new(sets: &[RankSet], army: &[Rank]) -> Option<Count> {
        if sets.len() != army.len() || army.len() > MAX {
            return None;
        }
        let sets = narrow(sets, army)?;
        let n = sets.len();
        let mut classes: Few<Class, MAX> = Few::new((RankSet::empty(), Few::new(0)));
        for (piece, &set) in sets.iter().enumerate() {
            match classes.iter_mut().find(|(s, _)| *s == set) {
                Some((_, members)) => members.push(piece as u8),
                None => {
                    let mut members = Few::new(0);
                    members.push(piece as u8);
                    classes.push((set, members));
                }
            }
        }
        let mut spans: Few<(usize, usize), MAX> = Few::new((0, 0));
        for (set, _) in classes.iter() {
            spans.push((
                army.iter().position(|r| set.has(*r))?,
                army.iter().rposition(|r| set.has(*r))?,
            ));
        }
        // One class is left out of the state (its places follow from the others'): the one
        // whose absence leaves the fewest states to visit.
        let free = |c: usize, t: usize| spans[c].0 < t && spans[c].1 >= t;
        let mut all = [1.0f64; MAX];
        for (t, states) in (1..=n).zip(&mut all) {
            *states = (0..classes.len())
                .filter(|&c| free(c, t))
                .map(|c| (classes[c].1.len() + 1) as f64)
                .product();
        }
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
        let implicit_span = spans.remove(implicit);
        spans.push(implicit_span);
        let mut count = Count {
            classes,
            spans: [(0, 0); MAX],
            offsets: [0; MAX + 2],
            steps: [Step {
                takers: 0,
                closers: 0,
                implicit: false,
                next_strides: [0; MAX],
            }; MAX],
            backward: Vec::new(),
            total: 0.0,
            marginals: [[0.0; Rank::NUM]; MAX],
        };
        count.spans[..spans.len()].copy_from_slice(&spans);
        for t in 0..=n {
            let size = count.layer(t).size;
            // Too many states to count (never seen in a real game): positions must fit in
            // `u32`.
            if size > u32::MAX as usize {
                return None;
            }
            count.offsets[t + 1] = count.offsets[t] + size;
        }
        for t in 0..n {
            count.steps[t] = count.step(t, army);
        }
        count.solve(army)
    }

    /// The number of explicit classes (all but the last).
    fn explicit(&self) -> usize {
        self.classes.len() - 1
    }

    /// The states before step `t`.
    fn layer(&self, t: usize) -> Layer {
        let mut layer = Layer {
            free: Few::new((0, 0, 0)),
            fixed: [0; MAX],
            strides: [0; MAX],
            size: 1,
        };
        for c in 0..self.explicit() {
            let size = self.classes[c].1.len();
            let (first, last) = self.spans[c];
            if first >= t {
                layer.fixed[c] = size as u8;
            } else if last >= t {
                // A stride is below the layer's size, which `Count::new` keeps below 2^32
                // (a larger layer is refused before it is ever visited).
                layer.free.push((c as u8, size as u8, layer.size as u32));
                layer.strides[c] = layer.size as u32;
                layer.size = layer.size.saturating_mul(size + 1);
            }
        }
        layer
    }

    /// What step `t` does.
    fn step(&self, t: usize, army: &[Rank]) -> Step {
        let mut step = Step {
            takers: 0,
            closers: 0,
            implicit: self.classes[self.explicit()].0.has(army[t]),
            next_strides: self.layer(t + 1).strides,
        };
        for c in 0..self.explicit() {
            if self.classes[c].0.has(army[t]) {
                step.takers |= 1 << c;
            }
            if self.spans[c].1 == t {
                step.closers |= 1 << c;
            }
        }
        step
    }

    /// Calls `f(position, digits, next, used)` for every state of `layer`, in position
    /// order: `digits` the places left in each explicit class, `next` the position of the
    /// same digits in the next layer (whose strides are `next_strides`), `used` the places the
    /// explicit classes have filled. The last two are kept up to date as the digits count up.
    fn for_each_state(
        &self,
        layer: &Layer,
        next_strides: &[u32; MAX],
        mut f: impl FnMut(usize, &[usize], usize, usize),
    ) {
        let explicit = self.explicit();
        let mut digits = layer.fixed.map(usize::from);
        let mut next = position(&digits[..explicit], next_strides);
        let mut used: usize = self.classes[..explicit]
            .iter()
            .zip(&digits)
            .map(|((_, m), d)| m.len() - d)
            .sum();
        for p in 0..layer.size {
            f(p, &digits[..explicit], next, used);
            for &(c, size, _) in layer.free.iter() {
                let (c, size) = (usize::from(c), usize::from(size));
                let stride = next_strides[c] as usize;
                digits[c] += 1;
                next += stride;
                if digits[c] <= size {
                    used -= 1;
                    break;
                }
                digits[c] = 0;
                next -= (size + 1) * stride;
                used += size;
            }
        }
    }

    /// Calls `emit(class, ways, to)` for each way to hand out step `t`'s rank from the state with places left `digits` (`next` and `used` as
    /// [`Count::for_each_state`] gives them): to explicit class `Some(c)` or to the implicit
    /// class (`None`), in `ways` ways, leading to position `to` of layer `t + 1`.
    #[inline]
    fn transitions(
        &self,
        t: usize,
        digits: &[usize],
        next: usize,
        used: usize,
        mut emit: impl FnMut(Option<usize>, usize, usize),
    ) {
        // A class at its last rank must be empty afterwards: at most one may still have a
        // place, and then it must take this rank.
        let step = &self.steps[t];
        let closing_left = classes_of(step.closers).filter(|&c| digits[c] > 0).count();
        if closing_left > 1 {
            return;
        }
        for c in classes_of(step.takers) {
            let k = digits[c];
            let closes = step.closers >> c & 1 != 0;
            if k == 0 || (closing_left == 1 && !(closes && k == 1)) {
                continue;
            }
            emit(Some(c), k, next - step.next_strides[c] as usize);
        }
        if step.implicit && closing_left == 0 {
            let implicit_size = self.classes[self.explicit()].1.len();
            let implicit_left = t
                .checked_sub(used)
                .and_then(|taken| implicit_size.checked_sub(taken))
                .unwrap_or(0);
            if implicit_left != 0 {
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
        // kept per thread, so that counting again (after every new fact) allocates nothing.
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
        let explicit = self.explicit();
        let offsets = self.offsets;
        // Layer `t`'s forward counts are `forward[offsets[t]..offsets[t + 1]]`.
        forward.clear();
        forward.resize(offsets[n + 1], 0.0);
        forward[0] = 1.0;
        edges.clear();
        let mut starts = [0usize; MAX + 1];
        for t in 0..n {
            starts[t] = edges.len();
            let layer = self.layer(t);
            let (before, after) = forward.split_at_mut(offsets[t + 1]);
            let here = &before[offsets[t]..];
            let next = &mut after[..offsets[t + 2] - offsets[t + 1]];
            self.for_each_state(
                &layer,
                &self.steps[t].next_strides,
                |p, digits, to_same, used| {
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
                },
            );
        }
        starts[n] = edges.len();
        if forward[offsets[n]] <= 0.0 {
            return None;
        }
        let mut expected = [[0.0f64; Rank::NUM]; MAX];
        let backward = &mut self.backward;
        backward.clear();
        backward.resize(offsets[n + 1], 0.0);
        backward[offsets[n]] = 1.0; // every place filled
        for t in (0..n).rev() {
            let rank = army[t].index();
            let (before, after) = backward.split_at_mut(offsets[t + 1]);
            let row = &mut before[offsets[t]..];
            let reach = &forward[offsets[t]..offsets[t + 1]];
            for edge in &edges[starts[t]..starts[t + 1]] {
                let (from, to) = (edge.from as usize, edge.to as usize);
                let completions = f64::from(edge.ways) * after[to];
                row[from] += completions;
                expected[usize::from(edge.class)][rank] += reach[from] * completions;
            }
        }
        let total = backward[0];
        if total <= 0.0 {
            return None;
        }
        for (c, (_, members)) in self.classes.iter().enumerate() {
            let mut p = expected[c];
            for v in &mut p {
                *v /= total * members.len() as f64;
            }
            for &piece in members.iter() {
                self.marginals[usize::from(piece)] = p;
            }
        }
        self.total = total;
        Some(())
    }

    /// A uniformly random fitting assignment, as (piece, rank) pairs in army order.
    pub(crate) fn sample(&self, army: &[Rank], rng: &mut SplitMix64) -> Few<(usize, Rank), MAX> {
        let explicit = self.explicit();
        let mut free: [Few<u8, MAX>; MAX] = [Few::new(0); MAX];
        let mut digits = [0usize; MAX];
        for (c, (_, members)) in self.classes.iter().enumerate() {
            free[c] = *members;
            if c < explicit {
                digits[c] = members.len();
            }
        }
        let mut out = Few::new((0, Rank::Flag));
        for (t, &rank) in army.iter().enumerate() {
            let next = position(&digits[..explicit], &self.steps[t].next_strides);
            let used: usize = self.classes[..explicit]
                .iter()
                .zip(&digits)
                .map(|((_, m), d)| m.len() - d)
                .sum();
            // At most one way per class, and there are at most 21 classes.
            let mut ways = [(None, 0.0f64); 32];
            let mut len = 0;
            let after = &self.backward[self.offsets[t + 1]..];
            self.transitions(t, &digits[..explicit], next, used, |class, k, to| {
                if len < ways.len() {
                    ways[len] = (class, k as f64 * after[to]);
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
            out.push((usize::from(members.remove_swap(pick)), rank));
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
            for &(p, r) in fast.sample(&army, &mut rng).iter() {
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
