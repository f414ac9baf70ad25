//! Replays a game record move by move, showing the arbiter's announcements and each side's view.
//!
//! ```text
//! cargo run --release --example selfplay -- 7 --record game.txt
//! cargo run --example replay -- game.txt
//! ```
//!
//! The record is checked as it is read: an illegal move, or an announcement or result that the
//! replay does not give, is reported with its line and column.

use salpakan::{Game, Side};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: cargo run --example replay -- FILE")?;
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let game = Game::from_record(&text).map_err(|e| format!("{path}: {e}"))?;
    for (name, value) in game.tags() {
        println!("{name}: {value}");
    }
    // Step through the history on a fresh game from the same start.
    let mut replay = match (game.setup(Side::White), game.setup(Side::Black)) {
        (Some(white), Some(black)) => Game::new(
            white.clone(),
            black.clone(),
            game.first_mover(),
            game.rules(),
        )?,
        _ => Game::from_position(*game.start()),
    };
    println!(
        "Start:\n{}\n\n{}\n",
        replay.view(Side::White),
        replay.view(Side::Black)
    );
    for (i, report) in game.history().iter().enumerate() {
        let side = replay.side_to_move();
        replay.play(report.mv)?;
        match report.outcome {
            Some(outcome) => println!(
                "{:>4}. {side} {}x{}: attacker {}s",
                i + 1,
                report.mv.from,
                report.mv.to,
                match outcome {
                    salpakan::Outcome::Win => "win",
                    salpakan::Outcome::Lose => "lose",
                    salpakan::Outcome::Tie => "tie",
                }
            ),
            None => println!("{:>4}. {side} {}", i + 1, report.mv),
        }
        if report.outcome.is_some() || !report.status.is_ongoing() {
            for viewer in Side::ALL {
                println!("{}\n", replay.view(viewer));
            }
        }
    }
    println!("Result: {}", game.status());
    Ok(())
}
