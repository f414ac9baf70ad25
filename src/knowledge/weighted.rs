//! Exact sums over assignments under a product-form weight: items (pieces, or the squares of
//! a setup zone) each take one kind (a rank, or "empty"), every kind a fixed number of times,
//! and an assignment weighs the product of `weight[item][kind]` over its items. Behind the
//! beliefs under a [`crate::Formation`] and the formations drawn from one.
//!
//! A state is how many of each kind the first items have taken (a multiset, mixed radix), so
//! the items are handed kinds one at a time and a layer is the states of one size. A forward
//! pass gives the weight of reaching each state, a backward pass the weight of completing it;
//! their products give every item's marginals exactly, and the backward weights let a sampler
//! draw an assignment with probability proportional to its weight in one step per item. The
//! standard army has `2^13 × 7 × 3` = 172,032 states; the states of each size are listed once
//! per army shape and kept.

use std::sync::{Arc, Mutex, OnceLock};

use crate::rng::SplitMix64;

/// The most kinds: the fifteen ranks and "empty".
pub(crate) const KINDS: usize = 16;

/// The states of one army shape, by size, and which kinds each state has left.
#[derive(Debug)]
struct Shape {
    counts: [u8; KINDS],
    strides: [u32; KINDS],
    /// Every state, in layers of equal size; `starts[i]..starts[i + 1]` is layer `i`.
    states: Vec<u32>,
    starts: Vec<usize>,
    /// For each state, a bit per kind with some left.
    left: Vec<u16>,
}

impl Shape {
    fn new(counts: [u8; KINDS]) -> Shape {
        let mut strides = [0u32; KINDS];
        let mut total = 1u32;
        for kind in 0..KINDS {
            strides[kind] = total;
            total *= u32::from(counts[kind]) + 1;
        }
        let items: usize = counts.iter().map(|&c| usize::from(c)).sum();
        let mut digits = [0u8; KINDS];
        let mut size = 0usize;
        let mut by_size: Vec<Vec<u32>> = vec![Vec::new(); items + 1];
        let mut left = Vec::with_capacity(total as usize);
        for state in 0..total {
            by_size[size].push(state);
            let mut bits = 0u16;
            for kind in 0..KINDS {
                if digits[kind] < counts[kind] {
                    bits |= 1 << kind;
                }
            }
            left.push(bits);
            // Count up, odometer-wise.
            for kind in 0..KINDS {
                if digits[kind] < counts[kind] {
                    digits[kind] += 1;
                    size += 1;
                    break;
                }
                size -= usize::from(digits[kind]);
                digits[kind] = 0;
            }
        }
        let mut starts = Vec::with_capacity(items + 2);
        let mut states = Vec::with_capacity(total as usize);
        for layer in by_size {
            starts.push(states.len());
            states.extend(layer);
        }
        starts.push(states.len());
        Shape {
            counts,
            strides,
            states,
            starts,
            left,
        }
    }

    /// The shape for `counts`, made once and kept.
    fn get(counts: [u8; KINDS]) -> Arc<Shape> {
        static SHAPES: OnceLock<Mutex<Vec<Arc<Shape>>>> = OnceLock::new();
        let shapes = SHAPES.get_or_init(|| Mutex::new(Vec::new()));
        let mut shapes = shapes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(shape) = shapes.iter().find(|s| s.counts == counts) {
            return Arc::clone(shape);
        }
        let shape = Arc::new(Shape::new(counts));
        shapes.push(Arc::clone(&shape));
        shape
    }

    fn layer(&self, size: usize) -> &[u32] {
        &self.states[self.starts[size]..self.starts[size + 1]]
    }
}

/// The weighted sums for items with weight rows and an army of kinds.
#[derive(Debug)]
pub(crate) struct Weighted {
    shape: Arc<Shape>,
    weights: Vec<[f64; KINDS]>,
    /// The weight of completing each state (0 for states not reached).
    backward: Vec<f64>,
    /// Each item's probability of each kind.
    pub(crate) marginals: Vec<[f64; KINDS]>,
}

impl Weighted {
    /// The sums for `weights` (a row per item, as many items as the army, finite and not
    /// negative) and `counts` (how many items take each kind). `None` if no assignment has a
    /// positive weight.
    pub(crate) fn new(weights: &[[f64; KINDS]], counts: [u8; KINDS]) -> Option<Weighted> {
        let items = weights.len();
        debug_assert_eq!(items, counts.iter().map(|&c| usize::from(c)).sum::<usize>());
        // Scaling a row scales every assignment alike: it keeps the sums in range.
        let weights: Vec<[f64; KINDS]> = weights
            .iter()
            .map(|row| {
                let top = row.iter().copied().fold(0.0, f64::max);
                if top > 0.0 {
                    row.map(|w| w / top)
                } else {
                    *row
                }
            })
            .collect();
        let shape = Shape::get(counts);
        let states = shape.left.len();
        let mut forward = vec![0.0f64; states];
        forward[0] = 1.0;
        for (item, row) in weights.iter().enumerate() {
            for &state in shape.layer(item) {
                let reach = forward[state as usize];
                if reach == 0.0 {
                    continue;
                }
                for_each_kind(shape.left[state as usize], |kind| {
                    let w = row[kind];
                    if w > 0.0 {
                        forward[(state + shape.strides[kind]) as usize] += reach * w;
                    }
                });
            }
        }
        let end = shape.layer(items)[0] as usize;
        if forward[end] <= 0.0 {
            return None;
        }
        let mut backward = vec![0.0f64; states];
        backward[end] = 1.0;
        let mut marginals = vec![[0.0; KINDS]; items];
        for item in (0..items).rev() {
            let row = &weights[item];
            let marginal = &mut marginals[item];
            for &state in shape.layer(item) {
                let reach = forward[state as usize];
                if reach == 0.0 {
                    continue;
                }
                let mut sum = 0.0;
                for_each_kind(shape.left[state as usize], |kind| {
                    let w = row[kind];
                    if w > 0.0 {
                        let part = w * backward[(state + shape.strides[kind]) as usize];
                        sum += part;
                        marginal[kind] += reach * part;
                    }
                });
                backward[state as usize] = sum;
            }
        }
        let total = backward[0];
        for marginal in &mut marginals {
            for p in marginal.iter_mut() {
                *p /= total;
            }
        }
        Some(Weighted {
            shape,
            weights,
            backward,
            marginals,
        })
    }

    /// An assignment drawn with probability proportional to its weight: each item's kind.
    pub(crate) fn sample(&self, rng: &mut SplitMix64) -> Vec<u8> {
        let mut kinds = Vec::with_capacity(self.weights.len());
        let mut state = 0u32;
        for row in &self.weights {
            let mut target = rng.next_f64() * self.backward[state as usize];
            let (mut chosen, mut last) = (None, 0);
            for_each_kind(self.shape.left[state as usize], |kind| {
                let w = row[kind];
                if chosen.is_none() && w > 0.0 {
                    let part = w * self.backward[(state + self.shape.strides[kind]) as usize];
                    if part > 0.0 {
                        last = kind;
                        if target < part {
                            chosen = Some(kind);
                        }
                        target -= part;
                    }
                }
            });
            // The target falls in some kind's part; the last positive one guards rounding.
            let kind = chosen.unwrap_or(last);
            kinds.push(kind as u8);
            state += self.shape.strides[kind];
        }
        kinds
    }
}

/// Calls `f` with each kind whose bit is set in `bits`, in ascending order.
#[inline]
fn for_each_kind(mut bits: u16, mut f: impl FnMut(usize)) {
    while bits != 0 {
        let kind = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        f(kind);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every assignment's weight by brute force: (total, marginals).
    fn brute_force(weights: &[[f64; KINDS]], counts: [u8; KINDS]) -> (f64, Vec<[f64; KINDS]>) {
        fn go(
            item: usize,
            weights: &[[f64; KINDS]],
            left: &mut [u8; KINDS],
            chosen: &mut Vec<usize>,
            total: &mut f64,
            marginals: &mut Vec<[f64; KINDS]>,
        ) {
            if item == weights.len() {
                let w: f64 = chosen
                    .iter()
                    .enumerate()
                    .map(|(i, &k)| weights[i][k])
                    .product();
                *total += w;
                for (i, &k) in chosen.iter().enumerate() {
                    marginals[i][k] += w;
                }
                return;
            }
            for kind in 0..KINDS {
                if left[kind] > 0 {
                    left[kind] -= 1;
                    chosen.push(kind);
                    go(item + 1, weights, left, chosen, total, marginals);
                    chosen.pop();
                    left[kind] += 1;
                }
            }
        }
        let mut total = 0.0;
        let mut marginals = vec![[0.0; KINDS]; weights.len()];
        go(
            0,
            weights,
            &mut counts.clone(),
            &mut Vec::new(),
            &mut total,
            &mut marginals,
        );
        for m in &mut marginals {
            for p in m.iter_mut() {
                *p /= total;
            }
        }
        (total, marginals)
    }

    fn random_case(rng: &mut SplitMix64) -> (Vec<[f64; KINDS]>, [u8; KINDS]) {
        let mut counts = [0u8; KINDS];
        let items = 3 + rng.below(5) as usize;
        for _ in 0..items {
            counts[rng.below(4) as usize] += 1;
        }
        let weights = (0..items)
            .map(|_| {
                core::array::from_fn(|_| match rng.below(4) {
                    0 => 0.0,
                    _ => rng.next_f64() * 3.0,
                })
            })
            .collect();
        (weights, counts)
    }

    #[test]
    fn marginals_equal_brute_force() {
        let mut rng = SplitMix64::new(5);
        let mut checked = 0;
        for _ in 0..300 {
            let (weights, counts) = random_case(&mut rng);
            let (total, expected) = brute_force(&weights, counts);
            match Weighted::new(&weights, counts) {
                None => assert!(total == 0.0, "{weights:?} {counts:?}"),
                Some(w) => {
                    checked += 1;
                    for (got, want) in w.marginals.iter().zip(&expected) {
                        for k in 0..KINDS {
                            assert!((got[k] - want[k]).abs() < 1e-12, "{got:?} vs {want:?}");
                        }
                    }
                }
            }
        }
        assert!(checked > 200);
    }

    #[test]
    fn samples_follow_the_weights() {
        // Three items, kinds 0, 0, 1: three assignments, by where kind 1 goes.
        let mut counts = [0u8; KINDS];
        counts[0] = 2;
        counts[1] = 1;
        let mut weights = vec![[0.0; KINDS]; 3];
        for (item, w1) in [(0, 1.0), (1, 2.0), (2, 5.0)] {
            weights[item][0] = 1.0;
            weights[item][1] = w1;
        }
        let sums = Weighted::new(&weights, counts).unwrap();
        let mut seen = [0u32; 3];
        let mut rng = SplitMix64::new(11);
        let draws = 80_000;
        for _ in 0..draws {
            let kinds = sums.sample(&mut rng);
            seen[kinds.iter().position(|&k| k == 1).unwrap()] += 1;
        }
        // Chi-square with 2 degrees of freedom against 1 : 2 : 5; 13.8 is its 0.999 point.
        let chi: f64 = [1.0, 2.0, 5.0]
            .iter()
            .zip(seen)
            .map(|(w, n)| {
                let e = f64::from(draws) * w / 8.0;
                (f64::from(n) - e).powi(2) / e
            })
            .sum();
        assert!(chi < 13.8, "{seen:?} chi-square {chi}");
    }
}
