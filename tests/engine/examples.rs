//! The examples a newcomer runs first, run as they are built for `cargo test` (cargo builds
//! the examples before it runs the tests): `selfplay` says what its codes mean, plays a game
//! to its end and shows it, and its record replays.

use std::path::PathBuf;
use std::process::Command;

/// An example's program, beside this test's own (`target/debug/examples/NAME`).
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    let deps = exe.parent().expect("the deps folder");
    deps.parent()
        .expect("the profile's folder")
        .join("examples")
        .join(name)
}

fn run(name: &str, args: &[&str]) -> String {
    let output = Command::new(example(name))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(output.status.success(), "{name} {args:?}: {output:?}");
    String::from_utf8(output.stdout).expect("text")
}

#[test]
fn selfplay_explains_plays_to_the_end_and_its_record_replays() {
    let record = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("selfplay-7.txt");
    let record = record.to_str().expect("a path");
    let out = run("selfplay", &["7", "--record", record]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[1].starts_with("Ranks: 5G 5-Star General, ")
            && lines[1].ends_with("SP Spy, FL Flag."),
        "the legend: {}",
        lines[1]
    );
    let end = lines
        .iter()
        .position(|l| l.starts_with("--- The final board, both armies revealed"))
        .expect("the final board, once");
    assert!(
        !lines[end..].iter().any(|l| l.contains(" to move")),
        "nobody is to move once it is over:\n{}",
        lines[end..].join("\n")
    );
    let result = lines
        .iter()
        .find(|l| l.starts_with("Result after "))
        .expect("the result");
    assert!(
        result.contains(" wins: ") || result.contains("Draw: "),
        "{result}"
    );
    // Every piece on the final board shows its rank: no XX or xx.
    assert!(
        !lines[end..end + 9]
            .iter()
            .any(|l| l.contains("XX") || l.contains("xx"))
    );
    // Each challenge is listed at the end with the two ranks that met in it: as many as the
    // result counts, each naming a rank of the army on both sides of "attacked".
    let listed = lines
        .iter()
        .position(|l| l.starts_with("--- Every challenge, the ranks that met in it revealed"))
        .expect("the challenges, revealed");
    let met: Vec<&&str> = lines[listed + 1..]
        .iter()
        .take_while(|l| !l.is_empty())
        .collect();
    let counted: usize = result
        .split(" plies and ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the challenges counted");
    assert_eq!(met.len(), counted, "{met:?}");
    for line in &met {
        let (attacker, defender) = line.split_once(" attacked ").expect("attacked");
        for part in [attacker, defender] {
            assert!(
                salpakan::Rank::ALL.iter().any(|r| part.contains(r.name())),
                "{line}"
            );
        }
    }
    let replayed = run("replay", &[record]);
    let status = result.split(": ").skip(1).collect::<Vec<_>>().join(": ");
    assert!(
        replayed.contains(&status),
        "the replay ends as the game did ({status}):\n{}",
        replayed
            .lines()
            .rev()
            .take(5)
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn verify_checks_a_committed_record_and_names_what_fails() {
    use salpakan::commitment::{Commitment, Salt};
    use salpakan::{Game, Rules, Side};
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let mut game = Game::dealt(Side::White, Rules::default(), 11);
    let salts = [Salt::from_bytes([3; 16]), Salt::from_bytes([4; 16])];
    let published: Vec<Commitment> = Side::ALL
        .iter()
        .map(|&side| game.commit(side, &salts[side.index()]).expect("formations"))
        .collect();
    while game.status().is_ongoing() && game.history().len() < 60 {
        let mv = game.legal_moves()[0];
        game.play(mv).expect("legal");
    }
    for side in Side::ALL {
        game.open_commitment(side, &salts[side.index()]);
    }
    let good = dir.join("verify-good.txt");
    std::fs::write(&good, game.record()).expect("written");
    let good = good.to_str().expect("a path");
    let words: Vec<String> = published.iter().map(ToString::to_string).collect();
    let out = run("verify", &[good, "--published", &words[0], &words[1]]);
    assert!(out.contains("announced challenges"), "{out}");
    assert!(
        out.contains(&format!(
            "White's formation and salt give its commitment {}, the one published",
            words[0]
        )),
        "{out}"
    );
    assert!(out.trim_end().ends_with("Verified."), "{out}");

    // A salt changed, or other commitments published: exit 1, saying what failed.
    let forged = dir.join("verify-forged.txt");
    let black_salt = salts[1].to_string();
    std::fs::write(&forged, game.record().replace(&black_salt, &"0".repeat(32))).expect("written");
    let refused = |args: &[&str]| {
        let output = Command::new(example("verify"))
            .args(args)
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(1), "{args:?}: {output:?}");
        String::from_utf8(output.stdout).expect("text")
    };
    let out = refused(&[forged.to_str().expect("a path")]);
    assert!(
        out.contains("Not verified: Black's formation and salt do not give"),
        "{out}"
    );
    let out = refused(&[good, "--published", &words[1], &words[0]]);
    assert!(out.contains("White's commitment in the record"), "{out}");
}
