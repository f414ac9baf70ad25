//! Two seeded bots play a whole game of Salpakan.
//!
//! White plays uniformly random legal moves; Black challenges whenever it can. Both decide
//! from their own view only (their own ranks, where the enemy pieces stand), never from the
//! arbiter's full position. The output shows each side's view at a few points, every move with
//! the arbiter's announcement, and the result.
//!
//! ```text
//! cargo run --release --example selfplay [SEED] [--record FILE]
//! ```
//!
//! With `--record FILE` the game record is written to FILE (replay it with
//! `cargo run --example replay -- FILE`).

use salpakan::{Game, Move, Outcome, Rules, Setup, Side, SplitMix64, View};

/// A bot picks a move from the legal moves and its own view.
type Bot = fn(&View, &[Move], &mut SplitMix64) -> Move;

fn random_bot(_view: &View, moves: &[Move], rng: &mut SplitMix64) -> Move {
    moves[rng.below(moves.len() as u64) as usize]
}

fn challenging_bot(view: &View, moves: &[Move], rng: &mut SplitMix64) -> Move {
    let challenges: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|mv| view.is_enemy(mv.to))
        .collect();
    if challenges.is_empty() {
        random_bot(view, moves, rng)
    } else {
        random_bot(view, &challenges, rng)
    }
}

fn show_views(game: &Game, title: &str) {
    for side in Side::ALL {
        println!("--- {title}: the board as {side} sees it ---");
        println!("{}\n", game.view(side));
    }
}

fn announcement(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        None => "",
        Some(Outcome::Win) => ": attacker wins",
        Some(Outcome::Lose) => ": attacker loses",
        Some(Outcome::Tie) => ": tie, both removed",
    }
}

/// A game that has not ended after this many plies is drawn by agreement.
const MAX_PLIES: usize = 5000;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut seed: u64 = 2026;
    let mut record_path = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--record" {
            record_path = Some(args.next().ok_or("--record needs a file name")?);
        } else {
            seed = arg
                .parse()
                .map_err(|_| format!("the seed must be a number, not {arg:?}"))?;
        }
    }
    let rules = Rules::default();
    let mut game = Game::new(
        Setup::random(Side::White, rules, seed),
        Setup::random(Side::Black, rules, seed.wrapping_add(1)),
        Side::White,
        rules,
    )?;
    let bots: [(&str, Bot); 2] = [
        ("random mover", random_bot),
        ("challenger", challenging_bot),
    ];
    let mut rng = SplitMix64::new(seed);
    println!(
        "Salpakan self-play, seed {seed}: White is the {}, Black the {}.\n",
        bots[0].0, bots[1].0
    );
    show_views(&game, "Start");

    let mut challenges = 0;
    while game.status().is_ongoing() {
        if game.history().len() >= MAX_PLIES {
            game.agree_draw()?;
            println!("No result after {MAX_PLIES} plies: the bots agree to a draw.");
            break;
        }
        let side = game.side_to_move();
        let view = game.view(side);
        let moves = game.legal_moves();
        let mv = (bots[side.index()].1)(&view, &moves, &mut rng);
        let report = game.play(mv)?;
        let ply = game.history().len();
        let shown = match report.outcome {
            Some(_) => format!("{}x{}", mv.from, mv.to),
            None => mv.to_string(),
        };
        println!("{ply:>5}. {side} {shown}{}", announcement(report.outcome));
        if report.outcome.is_some() {
            challenges += 1;
            if challenges == 10 {
                println!();
                show_views(&game, &format!("After ply {ply}, the tenth challenge"));
            }
        }
    }
    println!();
    show_views(&game, "End");
    println!(
        "Result after {} plies and {challenges} challenges: {}",
        game.history().len(),
        game.status()
    );
    if let Some(path) = record_path {
        game.set_tag("White", bots[0].0);
        game.set_tag("Black", bots[1].0);
        game.set_tag("Seed", &seed.to_string());
        std::fs::write(&path, game.record()).map_err(|e| format!("{path}: {e}"))?;
        println!("Record written to {path}.");
    }
    Ok(())
}
