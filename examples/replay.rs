//! Replays a game record ply by ply as each side knew it: the side's view, its exact beliefs
//! about every enemy piece, each challenge's odds as the attacker saw them, and each side's
//! luck at the end.
//!
//! ```text
//! cargo run --release --example selfplay -- 7 --record game.txt
//! cargo run --example replay -- game.txt                # both sides
//! cargo run --example replay -- game.txt --side white   # as White knew it
//! ```
//!
//! The record is checked as it is read: an illegal move, or an announcement or result that the
//! replay does not give, is reported with its line and column.
//!
//! Each side's beliefs are drawn as a board: on each enemy piece its likeliest rank with that
//! rank's chance in percent (`PV 45` is a Private with probability 0.45), and beneath it the
//! chance that the piece is the Flag, where above zero.

use salpakan::{Beliefs, Outcome, Rank, Replay, Side, Square, Walk};

const USAGE: &str = "usage: cargo run --example replay -- RECORD_FILE [--side white|black]";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut path = None;
    let mut sides = Side::ALL.to_vec();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--side" => {
                let word = args.next().ok_or(USAGE)?;
                sides = vec![word.parse().map_err(|e| format!("--side {word}: {e}"))?];
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            _ if path.is_none() => path = Some(arg),
            _ => return Err(format!("{arg}: one record at a time\n{USAGE}").into()),
        }
    }
    let path = path.ok_or(USAGE)?;
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let replay = Replay::from_record(&text).map_err(|e| format!("{path}: {e}"))?;
    for (name, value) in replay.game().tags() {
        println!("{name}: {value}");
    }
    let mut walks = sides
        .iter()
        .map(|&side| replay.walk(side))
        .collect::<Result<Vec<Walk<'_>>, _>>()?;
    show(&walks)?;
    for (i, report) in replay.game().history().iter().enumerate() {
        let ply = i + 1;
        let mover = walks[0].game().side_to_move();
        match (report.outcome, replay.odds(ply)) {
            (Some(outcome), Some(odds)) => println!(
                "=== {ply}. {mover} {}x{}: the attacker's {} {} (it saw win {:.1}%, tie {:.1}%, lose {:.1}%)",
                report.mv.from,
                report.mv.to,
                odds.rank,
                match outcome {
                    Outcome::Win => "wins",
                    Outcome::Lose => "loses",
                    Outcome::Tie => "ties",
                },
                100.0 * odds.win,
                100.0 * odds.tie,
                100.0 * odds.lose,
            ),
            _ => println!("=== {ply}. {mover} {}", report.mv),
        }
        for walk in &mut walks {
            walk.advance()?;
        }
        show(&walks)?;
    }
    println!("Result: {}", replay.game().status());
    for side in Side::ALL {
        let luck = replay.luck(side);
        println!(
            "{side}'s luck: {} challenges scored {:.1} where its beliefs expected {:.2}: {:+.2}",
            luck.challenges,
            luck.score,
            luck.expected,
            luck.luck()
        );
    }
    Ok(())
}

/// Each walking side's view and beliefs.
fn show(walks: &[Walk<'_>]) -> Result<(), Box<dyn std::error::Error>> {
    for walk in walks {
        println!("{}", walk.view());
        let beliefs = walk.tracker().beliefs()?;
        println!("{}'s beliefs:\n{}", walk.side(), board(&beliefs));
    }
    Ok(())
}

/// The beliefs as a board: each enemy piece's likeliest rank and its chance, and the Flag's.
fn board(beliefs: &Beliefs) -> String {
    let mut out = String::new();
    for row in (0..8).rev() {
        let mut ranks = format!("{} ", row + 1);
        let mut flags = "  ".to_owned();
        for file in 0..9 {
            let square = Square::from_coords(file, row).expect("on the board");
            match beliefs.at(square) {
                Some(piece) => {
                    let (rank, p) = piece.likeliest()[0];
                    ranks += &format!(" {:<2}{:>3}", rank.code(), (100.0 * p).round());
                    let flag = piece.probability(Rank::Flag);
                    flags += &if flag > 0.0 {
                        format!(" FL{:>3}", (100.0 * flag).round())
                    } else {
                        "      ".to_owned()
                    };
                }
                None => {
                    ranks += "   .  ";
                    flags += "      ";
                }
            }
        }
        out += ranks.trim_end();
        out += "\n";
        if !flags.trim().is_empty() {
            out += flags.trim_end();
            out += "\n";
        }
    }
    out += "     a     b     c     d     e     f     g     h     i\n";
    out
}
