//! The replay of knowledge: at every ply each side's replayed view, tracker and beliefs are
//! those of the game cut at that ply (a tracker fed the same reports live, and the game's
//! own beliefs, the knowledge tests' oracle); each challenge's odds are the sum over the
//! defender's marginal as the attacker saw it; the luck is the results minus those odds.

use crate::common::dealt;
use salpakan::bindings::ErrorKind;
use salpakan::{
    Game, Outcome, Rank, Replay, ReplayError, Rules, Side, SplitMix64, Tracker, challenge,
};

/// A random game from `seed` under a 60-move limit, played to its end; every third one is
/// resigned (by the side to move) at a random ply, every fifth agreed drawn.
fn random_game(seed: u64) -> Game {
    let rules = Rules::new(3, 60).unwrap();
    let first = if seed.is_multiple_of(2) {
        Side::White
    } else {
        Side::Black
    };
    let mut game = dealt(rules, seed * 7 + 1, seed * 7 + 2, first);
    let mut rng = SplitMix64::new(seed);
    let stop = (rng.next_u64() % 120) as usize;
    while game.status().is_ongoing() {
        if game.history().len() == stop && seed.is_multiple_of(3) {
            game.resign(game.side_to_move()).unwrap();
            break;
        }
        if game.history().len() == stop && seed.is_multiple_of(5) {
            game.agree_draw().unwrap();
            break;
        }
        let moves = game.legal_moves();
        game.play(moves[(rng.next_u64() % moves.len() as u64) as usize])
            .unwrap();
    }
    game
}

/// The game cut after `ply` plies (the whole game at its end).
fn cut(game: &Game, ply: usize) -> Game {
    if ply == game.history().len() {
        return game.clone();
    }
    let mut cut = Game::new(
        game.setup(Side::White).unwrap().clone(),
        game.setup(Side::Black).unwrap().clone(),
        game.first_mover(),
        game.rules(),
    )
    .unwrap();
    for report in &game.history()[..ply] {
        cut.play(report.mv).unwrap();
    }
    cut
}

#[test]
fn every_ply_of_a_replay_is_what_each_side_knew_then() {
    let mut challenges = 0;
    for seed in 0..32 {
        let game = random_game(seed);
        let replay = Replay::from_record(&game.record()).unwrap();
        assert_eq!(replay.plies(), game.history().len());
        assert_eq!(replay.game().status(), game.status());
        for side in Side::ALL {
            // A tracker fed the reports live, one at a time.
            let own = game.setup(side).unwrap();
            let enemy = game.setup(side.other()).unwrap().occupied();
            let mut live = Tracker::new(own, enemy, game.first_mover(), game.rules()).unwrap();
            let mut walk = replay.walk(side).unwrap();
            let mut then = cut(&game, 0);
            for ply in 0..=replay.plies() {
                if ply > 0 {
                    live.observe(&game.history()[ply - 1]).unwrap();
                    assert!(walk.advance().unwrap());
                    then.play(game.history()[ply - 1].mv).unwrap();
                }
                if ply == replay.plies() {
                    then = game.clone();
                    if !game.status().is_ongoing() && live.status().is_ongoing() {
                        live.observe_end(game.status()).unwrap();
                    }
                }
                assert_eq!(walk.tracker(), &live, "seed {seed}, {side}, ply {ply}");
                assert_eq!(walk.view(), then.view(side));
                let beliefs = walk.tracker().beliefs().unwrap();
                assert_eq!(
                    beliefs,
                    then.beliefs(side).unwrap(),
                    "seed {seed} ply {ply}"
                );
                // The replay's own answers, at some plies and the last.
                if ply % 9 == 4 || ply == replay.plies() {
                    assert_eq!(replay.tracker(ply, side).unwrap(), live);
                    assert_eq!(replay.view(ply, side).unwrap(), then.view(side));
                    assert_eq!(replay.public_view(ply).unwrap(), then.public_view());
                    assert_eq!(replay.beliefs(ply, side).unwrap(), beliefs);
                    assert_eq!(
                        replay.beliefs_by_square(ply, side).unwrap(),
                        live.beliefs_by_square().unwrap()
                    );
                }
            }
            assert!(!walk.advance().unwrap(), "the walk stops at the end");
        }
        // Each challenge's odds: the attacker's own rank against the defender's marginal
        // in the attacker's beliefs just before, summed rank by rank.
        let mut luck = [(0u32, 0.0f64, 0.0f64); 2];
        for (i, report) in game.history().iter().enumerate() {
            let ply = i + 1;
            let Some(outcome) = report.outcome else {
                assert_eq!(replay.odds(ply), None);
                continue;
            };
            challenges += 1;
            let before = cut(&game, i);
            let attacker = before.side_to_move();
            let own = before.position().piece_at(report.mv.from).unwrap().1;
            let marginal = before
                .beliefs(attacker)
                .unwrap()
                .at(report.mv.to)
                .unwrap()
                .probabilities;
            let (mut win, mut tie, mut lose) = (0.0, 0.0, 0.0);
            for (rank, p) in Rank::ALL.into_iter().zip(marginal) {
                match challenge(own, rank) {
                    Outcome::Win => win += p,
                    Outcome::Tie => tie += p,
                    Outcome::Lose => lose += p,
                }
            }
            let odds = replay.odds(ply).expect("a challenge has odds");
            assert_eq!(
                (odds.attacker, odds.rank, odds.outcome),
                (attacker, own, outcome)
            );
            for (got, want) in [(odds.win, win), (odds.tie, tie), (odds.lose, lose)] {
                assert!((got - want).abs() < 1e-12, "ply {ply}: {odds:?}");
            }
            // What happened was possible.
            let happened = match outcome {
                Outcome::Win => win,
                Outcome::Tie => tie,
                Outcome::Lose => lose,
            };
            assert!(
                happened > 0.0,
                "ply {ply}: an outcome the attacker thought impossible"
            );
            let score = match outcome {
                Outcome::Win => 1.0,
                Outcome::Tie => 0.5,
                Outcome::Lose => 0.0,
            };
            assert!((odds.score() - score).abs() < 1e-12);
            assert!((odds.expected() - (win + tie / 2.0)).abs() < 1e-12);
            assert!((odds.luck() - (score - win - tie / 2.0)).abs() < 1e-12);
            let l = &mut luck[attacker.index()];
            l.0 += 1;
            l.1 += score;
            l.2 += win + tie / 2.0;
        }
        for side in Side::ALL {
            let got = replay.luck(side);
            let (n, score, expected) = luck[side.index()];
            assert_eq!(got.challenges, n);
            assert!((got.score - score).abs() < 1e-9 && (got.expected - expected).abs() < 1e-9);
            assert!((got.luck() - (score - expected)).abs() < 1e-9);
        }
        assert_eq!(replay.odds(0), None);
        assert_eq!(replay.odds(replay.plies() + 1), None);
    }
    assert!(
        challenges > 100,
        "only {challenges} challenges were checked"
    );
}

#[test]
fn a_replay_refuses_what_it_cannot_show() {
    let game = random_game(3);
    let replay = Replay::new(&game).unwrap();
    let past = replay.plies() + 1;
    for err in [
        replay.beliefs(past, Side::White).unwrap_err(),
        replay.view(past, Side::Black).unwrap_err(),
        replay.tracker(usize::MAX, Side::Black).unwrap_err(),
        replay.game_at(past).unwrap_err(),
    ] {
        assert_eq!(err.kind(), ErrorKind::Argument);
        assert!(matches!(err, ReplayError::Ply { .. }), "{err}");
    }
    let err = Replay::from_record("not a record").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Text);
    // A game from a position has no formations to know from.
    let from_position = Game::from_position(*game.position());
    let err = Replay::from_record(&from_position.record()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Observe, "{err}");
    // A game in play replays too, up to where it is.
    let mut early = cut(&game, 0);
    early.play(early.legal_moves()[0]).unwrap();
    let replay = Replay::new(&early).unwrap();
    assert_eq!(replay.plies(), 1);
    assert_eq!(replay.game_at(1).unwrap().history(), early.history());
}

/// The replays every binding checks (`tests/data/replays.txt`): the crate writes it when
/// `SALPAKAN_BLESS` is set and otherwise checks that it says what the crate computes; the
/// Python and npm packages' tests read it and must give the same numbers.
fn replay_vectors() -> String {
    let mut out = String::from(
        "# Replays every binding must give alike: written by the crate's tests\n\
         # (SALPAKAN_BLESS=1 cargo test --test engine replay_vectors), read by the Python and npm\n\
         # packages' tests. A game: `record` and its text as a JSON string; `plies N`; `odds PLY\n\
         # WIN TIE LOSE OUTCOME` for each challenge (the attacker's, from its beliefs just before);\n\
         # `luck SIDE CHALLENGES SCORE EXPECTED`; `beliefs PLY SIDE D0 … D14`, where Dr is the sum\n\
         # over squares s of (s + 1) × the probability that the piece on s has rank r, from\n\
         # that side's (72, 15) beliefs after PLY plies. Numbers to 12 decimals; compare within 1e-9.\n",
    );
    // The first three games with 8 challenges or more, one of them resigned.
    let games = (0..)
        .map(random_game)
        .filter(|g| g.history().iter().filter(|r| r.outcome.is_some()).count() >= 8);
    let resigned = games
        .clone()
        .find(|g| g.status().reason_token() == Some("resignation"));
    for game in games.take(2).chain(resigned) {
        let replay = Replay::new(&game).unwrap();
        out += &format!("\nrecord {}\n", json_string(&game.record()));
        out += &format!("plies {}\n", replay.plies());
        for ply in 1..=replay.plies() {
            if let Some(o) = replay.odds(ply) {
                out += &format!(
                    "odds {ply} {:.12} {:.12} {:.12} {}\n",
                    o.win,
                    o.tie,
                    o.lose,
                    o.outcome.name()
                );
            }
        }
        for side in Side::ALL {
            let l = replay.luck(side);
            out += &format!(
                "luck {side_word} {} {:.12} {:.12}\n",
                l.challenges,
                l.score,
                l.expected,
                side_word = side.word()
            );
        }
        for ply in [0, replay.plies() / 2, replay.plies()] {
            for side in Side::ALL {
                let rows = replay.beliefs_by_square(ply, side).unwrap();
                let digest: Vec<String> = (0..Rank::NUM)
                    .map(|r| {
                        let d: f64 = rows
                            .iter()
                            .enumerate()
                            .map(|(s, row)| (s + 1) as f64 * row[r])
                            .sum();
                        format!("{d:.12}")
                    })
                    .collect();
                out += &format!("beliefs {ply} {} {}\n", side.word(), digest.join(" "));
            }
        }
    }
    out
}

/// `text` as a JSON string.
fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out += "\\\"",
            '\\' => out += "\\\\",
            '\n' => out += "\\n",
            c if (c as u32) < 0x20 => out += &format!("\\u{:04x}", c as u32),
            c => out.push(c),
        }
    }
    out + "\""
}

#[test]
fn replay_vectors_say_what_the_crate_computes() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/replays.txt");
    let want = replay_vectors();
    if std::env::var_os("SALPAKAN_BLESS").is_some() {
        std::fs::write(path, &want).unwrap();
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "tests/data/replays.txt is not what the crate computes; after checking why, rewrite it:\n    \
         SALPAKAN_BLESS=1 cargo test --test engine replay_vectors"
    );
}
