//! Mid-game, what one side may believe about each enemy piece.
//!
//! Two seeded bots play until some challenges have happened; then, for the side chosen, every
//! enemy piece still on the board is listed with its likeliest ranks, exactly as the public
//! history allows (see `Game::beliefs`). The true ranks are shown alongside, for checking.
//!
//! ```text
//! cargo run --release --example beliefs [SEED] [white|black]
//! ```

use salpakan::{Game, Rules, Side, SplitMix64};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().map_or(Ok(7), |a| a.parse())?;
    let side: Side = args.next().map_or(Ok(Side::White), |a| a.parse())?;
    let rules = Rules::default();
    let mut game = Game::dealt(Side::White, rules, seed);
    // Random play until ten challenges, stopping before any move that would end the game.
    let mut rng = SplitMix64::new(seed);
    let mut challenges = 0;
    while challenges < 10 && game.history().len() < 2000 {
        let Some(mv) = game.position().random_move(&mut rng) else {
            break;
        };
        let mut next = game.clone();
        let report = next.play(mv)?;
        if report.status.is_ongoing() {
            challenges += usize::from(report.outcome.is_some());
            game = next;
        }
    }
    println!(
        "After {} plies and {challenges} challenges, {side} sees:\n\n{}\n",
        game.history().len(),
        game.view(side)
    );
    let beliefs = game.beliefs(side)?;
    println!(
        "{} rank assignments of {}'s army fit everything {side} has seen.\n",
        beliefs.assignments(),
        side.other()
    );
    println!("piece  square  truth  likeliest ranks");
    for piece in beliefs.pieces() {
        let Some(square) = piece.square else {
            continue;
        };
        let truth = game
            .position()
            .piece_at(square)
            .map_or("?", |(_, r)| r.code());
        let likeliest: Vec<String> = piece
            .likeliest()
            .iter()
            .take(4)
            .map(|(rank, p)| format!("{rank} {:.1}%", p * 100.0))
            .collect();
        println!(
            "{:<6} {square:<7} {truth:<6} {}",
            piece.id.to_string(),
            likeliest.join(", ")
        );
    }
    Ok(())
}
