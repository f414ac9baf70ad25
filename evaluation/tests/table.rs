//! The evaluation statistics against the shared table `tests/data/evaluation.txt`, which the
//! Python package runs too: each score's interval, each verdict, each Bradley-Terry fit.

use salpakan_evaluation::{GAMES_FOR_A_VERDICT, Score, Verdict, bradley_terry};

const TABLE: &str = include_str!("data/evaluation.txt");

fn numbers(words: &str) -> Vec<f64> {
    words
        .split_whitespace()
        .map(|w| w.parse().expect("a number"))
        .collect()
}

fn matrix(json: &str) -> Vec<Vec<f64>> {
    serde_json::from_str(json).expect("a JSON matrix")
}

fn close(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < 1e-6, "{what}: got {got:?}, want {want:?}");
    }
}

#[test]
fn every_row_of_the_shared_table_holds() {
    let mut rows = [0; 3];
    for line in TABLE
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let (call, expected) = line.split_once(" -> ").expect("CALL -> RESULT");
        let (op, args) = call
            .split_once(' ')
            .expect("an operation and its arguments");
        match op {
            "score" => {
                let [w, d, l] = numbers(args).try_into().expect("W D L");
                let score = Score::new(w as u32, d as u32, l as u32);
                let (low, high) = score.interval();
                close(&[score.mean(), low, high], &numbers(expected), line);
                rows[0] += 1;
            }
            "verdict" => {
                let words: Vec<&str> = args.split_whitespace().collect();
                let [a, b, w, d, l] = words.try_into().expect("A B W D L");
                let n = |v: &str| v.parse::<u32>().expect("a count");
                let score = Score::new(n(w), n(d), n(l));
                assert_eq!(score.verdict_words(a, b), expected, "{line}");
                rows[1] += 1;
            }
            "elo" => {
                let (points, games) = args.split_once(' ').expect("POINTS GAMES");
                let (elo, errors) = expected.split_once(' ').expect("ELO ERRORS");
                let ratings = bradley_terry(&matrix(points), &matrix(games)).expect("a fit");
                close(&ratings.elo, &matrix(&format!("[{elo}]"))[0], line);
                close(&ratings.errors, &matrix(&format!("[{errors}]"))[0], line);
                rows[2] += 1;
            }
            other => panic!("unknown operation {other}"),
        }
    }
    assert!(rows.iter().all(|&n| n >= 5), "rows of each kind: {rows:?}");
}

#[test]
fn a_verdict_needs_its_games_and_an_interval_clear_of_half() {
    assert_eq!(
        Score::new(GAMES_FOR_A_VERDICT - 1, 0, 0).verdict(),
        Verdict::TooFewGames
    );
    assert_eq!(Score::new(300, 0, 100).verdict(), Verdict::FirstBetter);
    assert_eq!(Score::new(100, 0, 300).verdict(), Verdict::SecondBetter);
    assert_eq!(Score::new(0, 400, 0).verdict(), Verdict::NoDifference);
    // The interval narrows as the games grow, around the same score.
    let width = |s: Score| {
        let (low, high) = s.interval();
        high - low
    };
    assert!(width(Score::new(300, 0, 100)) < width(Score::new(30, 0, 10)) / 3.0);
    // Draws narrow it: the same score, less spread.
    assert!(width(Score::new(100, 200, 100)) < width(Score::new(200, 0, 200)));
}

#[test]
fn a_fit_refuses_what_is_not_two_square_matrices() {
    let two = vec![vec![0.0, 1.0], vec![1.0, 0.0]];
    assert!(bradley_terry(&[], &[]).is_none());
    assert!(bradley_terry(&two, &[vec![0.0, 1.0]]).is_none());
    assert!(bradley_terry(&[vec![0.0, 1.0], vec![1.0]], &two).is_none());
    assert!(bradley_terry(&[vec![0.0, f64::NAN], vec![1.0, 0.0]], &two).is_none());
    assert!(bradley_terry(&[vec![0.0, -1.0], vec![1.0, 0.0]], &two).is_none());
    assert!(bradley_terry(&two, &two).is_some());
}
