//! The crate's evaluation statistics (`salpakan_evaluation`), for `salpakan.evaluation`: a
//! pairing's score and its interval, the verdict, and Bradley-Terry Elo ratings.

use pyo3::prelude::*;
use salpakan_evaluation::{Score, bradley_terry};

use crate::errors::argument;

/// `(mean, low, high)`: the score of `wins`, `draws` and `losses` (a draw counts half) and
/// its 95% interval.
#[pyfunction]
pub(crate) fn evaluation_score(wins: u32, draws: u32, losses: u32) -> (f64, f64, f64) {
    let score = Score::new(wins, draws, losses);
    let (low, high) = score.interval();
    (score.mean(), low, high)
}

/// What `a`'s score of `wins`, `draws` and `losses` against `b` says, in words.
#[pyfunction]
pub(crate) fn evaluation_verdict(a: &str, b: &str, wins: u32, draws: u32, losses: u32) -> String {
    Score::new(wins, draws, losses).verdict_words(a, b)
}

/// `(ratings, errors)` in Elo from `points[i][j]` over `games[i][j]`, the first agent at 0.
#[pyfunction]
pub(crate) fn evaluation_elo(
    py: Python<'_>,
    points: Vec<Vec<f64>>,
    games: Vec<Vec<f64>>,
) -> PyResult<(Vec<f64>, Vec<f64>)> {
    py.detach(|| bradley_terry(&points, &games))
        .map(|r| (r.elo, r.errors))
        .ok_or_else(|| {
            argument("points and games are square matrices of one size, finite and not negative")
        })
}
