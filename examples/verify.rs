//! Checks a finished game's record as anyone can: every announced challenge and the result
//! replayed from the two formations, and each formation against the commitment the arbiter
//! published before the first move (the server's `start` event; `docs/SERVER.md`,
//! "Formation commitments").
//!
//! ```text
//! curl -s http://127.0.0.1:8080/api/games/GAME/record > game.txt
//! cargo run --release --example verify -- game.txt
//! cargo run --release --example verify -- game.txt --published WHITE_HEX BLACK_HEX
//! ```
//!
//! With `--published`, the commitments in the record must also be the ones given (as the
//! `start` event showed them to you). It prints what it checked and exits with 0 if the game
//! verifies, 1 if it does not (saying what failed), 2 for a wrong command line.

use std::process::ExitCode;

use salpakan::commitment::Commitment;
use salpakan::{Game, Side};

const USAGE: &str =
    "usage: cargo run --example verify -- RECORD_FILE [--published WHITE_HEX BLACK_HEX]";

/// The command line: the record's path and, if given, the commitments published.
fn arguments() -> Result<(String, Option<[Commitment; 2]>), String> {
    let mut path = None;
    let mut published = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--published" => {
                let mut read = || -> Result<Commitment, String> {
                    let word = args.next().ok_or(USAGE)?;
                    word.parse().map_err(|e| format!("--published: {e}"))
                };
                published = Some([read()?, read()?]);
            }
            _ if path.is_none() && !arg.starts_with('-') => path = Some(arg),
            _ => return Err(format!("{arg}: not understood\n{USAGE}")),
        }
    }
    Ok((path.ok_or(USAGE)?, published))
}

/// Checks the record at `path`; the lines to print, or what failed.
fn verify(path: &str, published: Option<[Commitment; 2]>) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    // Replaying checks every move, every announcement and the result against the formations.
    let game = Game::from_record(&text).map_err(|e| format!("{path}: {e}"))?;
    let challenges = game
        .history()
        .iter()
        .filter(|report| report.outcome.is_some())
        .count();
    let mut lines = vec![format!(
        "Replayed {} plies from the two formations: all {challenges} announced challenges and \
         the result ({}) follow from them.",
        game.history().len(),
        game.status()
    )];
    game.verify_commitments().map_err(|e| e.to_string())?;
    for side in Side::ALL {
        let commitment = game.commitment(side).ok_or("no commitment")?;
        if let Some(published) = published
            && published[side.index()] != commitment
        {
            return Err(format!(
                "{side}'s commitment in the record, {commitment}, is not the one published, {}",
                published[side.index()]
            ));
        }
        lines.push(format!(
            "{side}'s formation and salt give its commitment {commitment}{}.",
            if published.is_some() {
                ", the one published"
            } else {
                ""
            }
        ));
    }
    lines.push("Verified.".into());
    Ok(lines)
}

fn main() -> ExitCode {
    let (path, published) = match arguments() {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    match verify(&path, published) {
        Ok(lines) => {
            for line in lines {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            println!("Not verified: {message}");
            ExitCode::FAILURE
        }
    }
}
