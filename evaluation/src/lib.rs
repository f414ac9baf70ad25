//! How strong an agent is, as a reviewer accepts it: a pairing's score with a 95% interval
//! that is honest at small numbers of games, a verdict ("A beats B") only over at least
//! [`GAMES_FOR_A_VERDICT`] games with the interval clear of 50%, and Bradley-Terry Elo
//! ratings with their standard errors. The tournament of the engine's agents
//! (`examples/tournament.rs` beside this crate), the Python package (`salpakan.evaluation`)
//! and its examples all use these, and `tests/data/evaluation.txt` holds every one of them
//! to the same answers.
//!
//! Statistics of match results, not rules: a crate of its own beside the engine, which
//! depends on nothing.
#![deny(missing_docs)]

/// The fewest games a pairing needs before a verdict says one agent beats the other.
pub const GAMES_FOR_A_VERDICT: u32 = 400;

/// The normal quantile of a two-sided 95% interval.
const Z: f64 = 1.96;

/// Elo points per natural unit of a Bradley-Terry rating (400 / ln 10).
const ELO: f64 = 400.0 / core::f64::consts::LN_10;

/// One side's results in a pairing: its wins, draws and losses.
///
/// # Examples
/// ```
/// use salpakan_evaluation::Score;
///
/// let score = Score::new(0, 0, 4);
/// assert_eq!(score.mean(), 0.0);
/// // Four losses prove little: the interval reaches almost to one half (not 0 ± 0).
/// let (low, high) = score.interval();
/// assert_eq!(low, 0.0);
/// assert!((high - 0.4899).abs() < 1e-4);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Score {
    /// Games won.
    pub wins: u32,
    /// Games drawn (each counts half).
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// What a pairing's score says about its two agents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Fewer than [`GAMES_FOR_A_VERDICT`] games: nothing is claimed.
    TooFewGames,
    /// The first agent is stronger: its interval lies above one half.
    FirstBetter,
    /// The second agent is stronger: the first's interval lies below one half.
    SecondBetter,
    /// The interval holds one half: no difference can be claimed.
    NoDifference,
}

impl Score {
    /// The score of `wins`, `draws` and `losses`.
    #[must_use]
    pub const fn new(wins: u32, draws: u32, losses: u32) -> Score {
        Score {
            wins,
            draws,
            losses,
        }
    }

    /// The number of games.
    #[must_use]
    pub const fn games(self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score, a draw counting half: 0 to 1 (0 with no games).
    #[must_use]
    pub fn mean(self) -> f64 {
        if self.games() == 0 {
            return 0.0;
        }
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(self.games())
    }

    /// The 95% interval of the score, `(low, high)`: Wilson's score interval, which holds at
    /// small numbers of games (0 wins of 4 is 0 to 0.49, not 0 ± 0), extended to draws. A
    /// game scores 0, ½ or 1, so with a draw rate `d` its variance at a true score `p` is
    /// `p (1 − p) − d / 4`; the interval is every `p` with `(p̂ − p)² ≤ z² (p (1 − p) − d/4) / n`,
    /// the two roots of a quadratic. The draw rate is the observed one shrunk by `z²` games
    /// without a draw (`d = draws / (n + z²)`), so that a few draws never make the interval
    /// vanish (4 draws of 4: 0.26 to 0.74). With no draws it is Wilson's interval exactly;
    /// with no games, `(0, 1)`.
    #[must_use]
    pub fn interval(self) -> (f64, f64) {
        let n = f64::from(self.games());
        if n == 0.0 {
            return (0.0, 1.0);
        }
        let z2 = Z * Z;
        let (p, d) = (self.mean(), f64::from(self.draws) / (n + z2));
        // (n + z²) q² − (2 n p + z²) q + (n p² + z² d / 4) = 0
        let a = n + z2;
        let b = 2.0 * n * p + z2;
        let discriminant = z2 * (n * (4.0 * p * (1.0 - p) - d) + z2 * (1.0 - d));
        let root = discriminant.max(0.0).sqrt();
        let low = ((b - root) / (2.0 * a)).clamp(0.0, 1.0);
        let high = ((b + root) / (2.0 * a)).clamp(0.0, 1.0);
        (low.min(p), high.max(p))
    }

    /// What the score says: a verdict only over at least [`GAMES_FOR_A_VERDICT`] games, and
    /// only when the interval is clear of one half.
    #[must_use]
    pub fn verdict(self) -> Verdict {
        if self.games() < GAMES_FOR_A_VERDICT {
            return Verdict::TooFewGames;
        }
        match self.interval() {
            (low, _) if low > 0.5 => Verdict::FirstBetter,
            (_, high) if high < 0.5 => Verdict::SecondBetter,
            _ => Verdict::NoDifference,
        }
    }

    /// The verdict in words, `a` being the agent this score is of and `b` its opponent:
    /// `"a beats b (400 games)"`, `"b beats a (…)"`,
    /// `"a vs b: no significant difference over N games"` or
    /// `"a vs b: N games, fewer than 400: no verdict"`.
    #[must_use]
    pub fn verdict_words(self, a: &str, b: &str) -> String {
        let games = self.games();
        match self.verdict() {
            Verdict::TooFewGames => {
                format!("{a} vs {b}: {games} games, fewer than {GAMES_FOR_A_VERDICT}: no verdict")
            }
            Verdict::FirstBetter => format!("{a} beats {b} ({games} games)"),
            Verdict::SecondBetter => format!("{b} beats {a} ({games} games)"),
            Verdict::NoDifference => {
                format!("{a} vs {b}: no significant difference over {games} games")
            }
        }
    }
}

/// Bradley-Terry ratings in Elo with their standard errors: [`bradley_terry`]'s answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Ratings {
    /// Each agent's rating, the first anchored at 0.
    pub elo: Vec<f64>,
    /// Each rating's standard error (0 for the anchor); ±1.96 of them is its 95% interval.
    pub errors: Vec<f64>,
}

/// Bradley-Terry maximum-likelihood ratings in Elo, the first agent anchored at 0, and their
/// standard errors. `points[i][j]` is what agent `i` scored against `j` (a draw counts half)
/// over `games[i][j]` games. One virtual draw is added to every pairing, so that a clean
/// sweep has a finite rating. `None` unless both are square matrices of the same size with
/// finite, non-negative entries and at least one agent.
///
/// # Examples
/// ```
/// use salpakan_evaluation::bradley_terry;
///
/// // 300 points of 400 against the anchor: about 191 Elo (with the virtual draw, 400
/// // log10(300.5 / 100.5)).
/// let ratings = bradley_terry(&[vec![0.0, 100.0], vec![300.0, 0.0]],
///                             &[vec![0.0, 400.0], vec![400.0, 0.0]]).unwrap();
/// assert_eq!(ratings.elo[0], 0.0);
/// assert!((ratings.elo[1] - 400.0 * (300.5f64 / 100.5).log10()).abs() < 1e-6);
/// ```
#[must_use]
pub fn bradley_terry(points: &[Vec<f64>], games: &[Vec<f64>]) -> Option<Ratings> {
    let k = points.len();
    let square = |m: &[Vec<f64>]| {
        m.len() == k
            && m.iter().flatten().all(|v| v.is_finite() && *v >= 0.0)
            && m.iter().all(|r| r.len() == k)
    };
    if k == 0 || !square(points) || !square(games) {
        return None;
    }
    let s = |i: usize, j: usize| points[i][j] + 0.5;
    let n = |i: usize, j: usize| games[i][j] + 1.0;
    let mut r = vec![0.0f64; k];
    // Newton's method on the log-likelihood, the first rating fixed at 0.
    let mut covariance = vec![vec![0.0; k - 1]; k - 1];
    for _ in 0..100 {
        let mut gradient = vec![0.0; k];
        let mut hessian = vec![vec![0.0; k]; k];
        for i in 0..k {
            for j in (0..k).filter(|&j| j != i) {
                let p = 1.0 / (1.0 + (r[j] - r[i]).exp());
                gradient[i] += s(i, j) - n(i, j) * p;
                let w = n(i, j) * p * (1.0 - p);
                hessian[i][i] += w;
                hessian[i][j] -= w;
            }
        }
        // Solve I δ = g on the free ratings (1..k), I the information matrix.
        let information: Vec<Vec<f64>> = (1..k).map(|i| hessian[i][1..].to_vec()).collect();
        covariance = invert(&information);
        let mut largest: f64 = 0.0;
        for i in 1..k {
            let step: f64 = (1..k).map(|j| covariance[i - 1][j - 1] * gradient[j]).sum();
            r[i] += step;
            largest = largest.max(step.abs());
        }
        if largest < 1e-10 {
            break;
        }
    }
    let errors = (0..k)
        .map(|i| match i {
            0 => 0.0,
            _ => covariance[i - 1][i - 1].max(0.0).sqrt() * ELO,
        })
        .collect();
    Some(Ratings {
        elo: r.iter().map(|v| v * ELO).collect(),
        errors,
    })
}

/// The inverse of a small symmetric positive definite matrix (Gauss-Jordan with partial
/// pivoting).
fn invert(matrix: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = matrix.len();
    let mut a: Vec<Vec<f64>> = matrix
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut row = row.clone();
            row.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            row
        })
        .collect();
    for c in 0..n {
        let pivot = (c..n)
            .max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))
            .unwrap_or(c);
        a.swap(c, pivot);
        let d = a[c][c];
        if d.abs() < 1e-300 {
            continue;
        }
        for v in &mut a[c] {
            *v /= d;
        }
        let pivot_row = a[c].clone();
        for (r, row) in a.iter_mut().enumerate() {
            let f = row[c];
            if r != c && f != 0.0 {
                for (v, p) in row.iter_mut().zip(&pivot_row) {
                    *v -= f * p;
                }
            }
        }
    }
    a.into_iter().map(|row| row[n..].to_vec()).collect()
}
