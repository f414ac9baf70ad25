//! Two seeded bots play a whole game of Salpakan.
//!
//! White plays uniformly random legal moves; Black challenges whenever it can. Both decide
//! from their own view only (their own ranks, where the enemy pieces stand), never from the
//! arbiter's full position. The output shows the rank codes, each side's view at a few points,
//! every move with the arbiter's announcement, the final board with both armies revealed, every
//! challenge with the two ranks that met in it (revealed once the game is over, as a record
//! reveals them), and the result.
//!
//! ```text
//! cargo run --release --example selfplay [SEED] [--record FILE]
//! ```
//!
//! With `--record FILE` the game record is written to FILE (replay it with
//! `cargo run --example replay -- FILE`).

use salpakan::{Game, Move, Outcome, Rank, Rules, Side, SplitMix64, Square, View};

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

/// The rank codes as the boards write them (upper case White, lower case Black): the officers
/// from the highest, the Private, then the Spy (which beats every officer) and the Flag.
fn legend() -> String {
    let mut ranks: Vec<Rank> = Rank::ALL
        .into_iter()
        .rev()
        .filter(|&r| r != Rank::Spy && r != Rank::Flag)
        .collect();
    ranks.extend([Rank::Spy, Rank::Flag]);
    let codes: Vec<String> = ranks
        .iter()
        .map(|rank| format!("{} {}", rank.code(), rank.name()))
        .collect();
    format!("Ranks: {}.", codes.join(", "))
}

/// The board as it stands, every piece with its rank: what both sides may see once the game
/// is over.
fn show_revealed(game: &Game) {
    println!("--- The final board, both armies revealed ---");
    for row in (0..8).rev() {
        print!("{} ", row + 1);
        for file in 0..9 {
            let square = Square::from_coords(file, row).expect("on the board");
            let text = match game.position().piece_at(square) {
                None => ".",
                Some((side, rank)) => rank.code_for(side),
            };
            print!(" {text:<2}");
        }
        println!();
    }
    println!("   a  b  c  d  e  f  g  h  i\n");
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
    let mut game = Game::dealt(Side::White, rules, seed);
    let bots: [(&str, Bot); 2] = [
        ("random mover", random_bot),
        ("challenger", challenging_bot),
    ];
    let mut rng = SplitMix64::new(seed);
    println!(
        "Salpakan self-play, seed {seed}: White is the {}, Black the {}.",
        bots[0].0, bots[1].0
    );
    println!(
        "{}\nXX and xx are enemy pieces: their ranks are hidden.\n",
        legend()
    );
    show_views(&game, "Start");

    let mut challenges = 0;
    // Each challenge's two ranks, as the arbiter saw them: told to nobody until the end.
    let mut met: Vec<(usize, Side, Move, Rank, Rank, Outcome)> = Vec::new();
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
        let ranks = (
            game.position().piece_at(mv.from),
            game.position().piece_at(mv.to),
        );
        let report = game.play(mv)?;
        let ply = game.history().len();
        if let (Some(outcome), (Some((_, attacker)), Some((_, defender)))) = (report.outcome, ranks)
        {
            met.push((ply, side, mv, attacker, defender, outcome));
        }
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
    show_revealed(&game);
    println!("--- Every challenge, the ranks that met in it revealed ---");
    for (ply, side, mv, attacker, defender, outcome) in &met {
        println!(
            "{ply:>5}. {side}'s {} ({}) attacked {}'s {} ({}){}",
            attacker.name(),
            mv.from,
            side.other(),
            defender.name(),
            mv.to,
            announcement(Some(*outcome))
        );
    }
    println!();
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
