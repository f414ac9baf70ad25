//! Every parser's time grows at most about linearly with its input: each hostile shape is
//! parsed at n and at 8n bytes, and the ratio of the times is bounded (linear gives about 8,
//! quadratic about 64). Times are the best of several runs, so that other work on the machine
//! does not decide the result; the bound leaves room for a logarithm and for noise.
//!
//! One test runs all shapes one after another, so that they do not time each other.

use std::hint::black_box;
use std::time::{Duration, Instant};

use salpakan::text::PositionText;
use salpakan::{Game, Position, Rules, Side};

/// The largest ratio accepted for 8 times the input.
const BOUND: f64 = 24.0;

fn best_time(input: &str, parse: &dyn Fn(&str)) -> Duration {
    // Enough repetitions that the small input takes a measurable time.
    let mut reps = 1u32;
    loop {
        let start = Instant::now();
        for _ in 0..reps {
            parse(black_box(input));
        }
        if start.elapsed() > Duration::from_millis(20) || reps >= 1 << 20 {
            break;
        }
        reps *= 2;
    }
    (0..5)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..reps {
                parse(black_box(input));
            }
            start.elapsed() / reps
        })
        .min()
        .unwrap()
}

fn record_head() -> (Game, String) {
    let rules = Rules::default();
    let game = Game::dealt(Side::White, rules, 1);
    let record = game.record();
    (game, record)
}

/// A record with `n` extra tags (refused past `Game::MAX_TAGS`, which is part of the shape).
fn many_tags(n: usize) -> String {
    let (_, record) = record_head();
    let tags: String = (0..n)
        .map(|i| format!("[Tag{i} \"value {i}\"]\n"))
        .collect();
    record.replacen("[WhiteSetup", &format!("{tags}[WhiteSetup"), 1)
}

/// A record with one tag of `n` characters (refused past `Game::MAX_TAG_LEN`).
fn huge_tag(n: usize) -> String {
    let (_, record) = record_head();
    record.replacen(
        "[WhiteSetup",
        &format!("[Note \"{}\"]\n[WhiteSetup", "x".repeat(n)),
        1,
    )
}

/// A valid record of `n` plies: two pieces stepping back and forth, far from each other.
fn many_plies(n: usize) -> String {
    let (mut game, _) = record_head();
    let white = game.legal_moves()[0];
    game.play(white).unwrap();
    let black = game.legal_moves()[0];
    game.play(black).unwrap();
    let back = |m: salpakan::Move| salpakan::Move::new(m.to, m.from);
    let cycle = [back(white), back(black), white, black];
    for i in 0..n.saturating_sub(2) {
        game.play(cycle[i % 4]).unwrap();
    }
    game.record()
}

/// A position text with `n` spaces between two fields (the word splitter's worst case).
fn wide_position(n: usize) -> String {
    let (game, _) = record_head();
    game.position()
        .to_string()
        .replacen(" w ", &format!("{}w ", " ".repeat(n)), 1)
}

/// A record of `n` lines that are all the same bad move line after valid tags (refused at the
/// first), then deep repetition of the tag opener.
fn repeated_openers(n: usize) -> String {
    format!("{}\"]", "[".repeat(n))
}

#[test]
fn every_parser_is_about_linear_in_its_input() {
    fn record(text: &str) {
        let _ = black_box(Game::from_record(text));
    }
    fn position(text: &str) {
        let _ = black_box(text.parse::<Position>());
        let _ = black_box(text.parse::<PositionText>());
    }
    type Shape = (
        &'static str,
        fn(usize) -> String,
        usize,
        &'static dyn Fn(&str),
    );
    let shapes: [Shape; 5] = [
        ("many tags", many_tags, 120, &record),
        ("one huge tag", huge_tag, 500, &record),
        ("many plies", many_plies, 300, &record),
        ("wide position text", wide_position, 2_000, &position),
        ("repeated openers", repeated_openers, 5_000, &record),
    ];
    let mut report = Vec::new();
    for (name, make, n, parse) in shapes {
        let (small, large) = (make(n), make(8 * n));
        assert!(large.len() > 4 * small.len(), "{name}: the input grows");
        let (t1, t8) = (best_time(&small, parse), best_time(&large, parse));
        let ratio = t8.as_secs_f64() / t1.as_secs_f64().max(1e-9);
        report.push(format!("{name}: {t1:?} -> {t8:?}, ratio {ratio:.1}"));
        assert!(
            ratio < BOUND,
            "{name}: 8x the input took {ratio:.1}x the time ({t1:?} -> {t8:?})"
        );
    }
    println!("{}", report.join("\n"));
}

#[test]
fn the_hostile_records_are_refused_or_read() {
    // The shapes themselves behave as documented.
    assert!(Game::from_record(&many_tags(100)).is_ok());
    let err = Game::from_record(&many_tags(Game::MAX_TAGS + 1)).unwrap_err();
    assert!(err.expected.contains("at most"), "{err}");
    assert!(Game::from_record(&huge_tag(Game::MAX_TAG_LEN)).is_ok());
    let err = Game::from_record(&huge_tag(Game::MAX_TAG_LEN + 1)).unwrap_err();
    assert!(err.expected.contains("characters"), "{err}");
    let game = Game::from_record(&many_plies(1000)).unwrap();
    assert_eq!(game.history().len(), 1000);
    assert!(wide_position(100).parse::<Position>().is_ok());
    assert!(Game::from_record(&repeated_openers(100)).is_err());
}
