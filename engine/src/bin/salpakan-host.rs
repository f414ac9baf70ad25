//! `salpakan-host`: plays engines of the Salpakan engine protocol (`docs/ENGINES.md`)
//! against each other, or against one of the crate's agents, and prints each game's result
//! and the score.
//!
//! ```text
//! salpakan-host --white CMD --black CMD [--games N] [--move-ms MS] [--move-limit N] [--records DIR]
//! salpakan-host --check CMD [--move-ms MS]
//! ```
//!
//! `--check` runs the protocol's conformance checks on the engine `CMD` runs, one line each
//! (`ok` or `FAIL`), and exits 1 if any failed.
//!
//! Each `CMD` is a command line (run through `sh -c`), or `agent:WORD` for one of the crate's
//! agents in this process (`agent:level-5`, seeded from the game's number). The engines swap
//! colours every game, and the side to move first alternates every two games.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Duration;

use salpakan::{Rules, Side, Status};
use salpakan_engine::engine::AgentEngine;
use salpakan_engine::host::{Limits, Match, Seat};

#[path = "shared/args.rs"]
mod args;
use args::Args;

const USAGE: &str = "usage: salpakan-host --white CMD --black CMD [--games N] [--move-ms MS] \
                     [--move-limit N] [--records DIR]  (CMD: a command line, or agent:WORD)\n       \
                     salpakan-host --check CMD [--move-ms MS]";

struct Options {
    engines: [String; 2],
    check: Option<String>,
    games: u32,
    move_ms: u64,
    move_limit: i64,
    records: Option<std::path::PathBuf>,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        engines: [String::new(), String::new()],
        check: None,
        games: 1,
        move_ms: 10_000,
        move_limit: 200,
        records: None,
    };
    let mut args = Args::new(USAGE);
    while let Some(arg) = args.flag() {
        match arg.as_str() {
            "--white" => o.engines[0] = args.value(&arg)?,
            "--black" => o.engines[1] = args.value(&arg)?,
            "--games" => o.games = args.number(&arg)?,
            "--move-ms" => o.move_ms = args.number(&arg)?,
            "--move-limit" => {
                o.move_limit =
                    i64::try_from(args.number::<u64>(&arg)?).map_err(|e| e.to_string())?;
            }
            "--records" => o.records = Some(args.value(&arg)?.into()),
            "--check" => o.check = Some(args.value(&arg)?),
            "-h" | "--help" => return Err(USAGE.to_owned()),
            other => return Err(args.unknown(other)),
        }
    }
    if o.check.is_none() && o.engines.iter().any(String::is_empty) {
        return Err(format!("--white and --black are needed\n{USAGE}"));
    }
    Ok(o)
}

/// The seat of `command` for game `n`.
fn seat(command: &str, n: u32) -> Result<Seat, String> {
    match command.strip_prefix("agent:") {
        Some(word) => Ok(Seat::in_process(AgentEngine::new(word, u64::from(n) + 1)?)),
        None => Seat::spawn(command).map_err(|e| format!("{command}: {e}")),
    }
}

/// `--check CMD`: the conformance checks, one line each; whether all passed.
fn check(command: &str, limits: Limits) -> Result<bool, String> {
    let mut out = io::stdout().lock();
    let mut passed = true;
    for (what, result) in salpakan_engine::host::conformance(command, limits) {
        let line = match result {
            Ok(()) => format!("ok    {what}"),
            Err(why) => {
                passed = false;
                format!("FAIL  {what}: {why}")
            }
        };
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
    }
    Ok(passed)
}

fn run() -> Result<bool, String> {
    let o = options()?;
    let rules = Rules::from_numbers(3, o.move_limit).map_err(|e| e.to_string())?;
    let limits = Limits {
        mv: Duration::from_millis(o.move_ms),
        ..Limits::default()
    };
    if let Some(command) = &o.check {
        return check(command, limits);
    }
    // Points (win 2, draw 1) of the engine given as --white, and of the other.
    let mut points = [0_u32; 2];
    let mut seats = [seat(&o.engines[0], 0)?, seat(&o.engines[1], 0)?];
    let mut out = io::stdout().lock();
    for n in 0..o.games {
        // The first engine plays White in even games.
        let swapped = n % 2 == 1;
        let first = if (n / 2) % 2 == 0 {
            Side::White
        } else {
            Side::Black
        };
        let game = Match::default().rules(rules).first(first).limits(limits);
        let [a, b] = &mut seats;
        let played = if swapped {
            game.play([b, a])
        } else {
            game.play([a, b])
        };
        let engine_of = |side: Side| usize::from(swapped) ^ side.index();
        match played.status {
            Status::Won { winner, .. } => points[engine_of(winner)] += 2,
            Status::Drawn { .. } => {
                points[0] += 1;
                points[1] += 1;
            }
            Status::Ongoing => {}
        }
        let mut line = format!(
            "game {}: {} (White) v {} (Black): {} after {} plies",
            n + 1,
            seats_name(&seats, engine_of(Side::White), &o),
            seats_name(&seats, engine_of(Side::Black), &o),
            played.status.token(),
            played.plies
        );
        if let Some((side, forfeit)) = played.forfeit {
            line += &format!(
                " ({side} forfeits: {}: {})",
                forfeit.word(),
                played.why.as_deref().unwrap_or("")
            );
        }
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
        if let (Some(dir), Some(record)) = (&o.records, &played.record) {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
            std::fs::write(dir.join(format!("game-{}.txt", n + 1)), record)
                .map_err(|e| e.to_string())?;
        }
    }
    writeln!(
        out,
        "score: {} {} - {} {} (win 2, draw 1, over {} games)",
        seats_name(&seats, 0, &o),
        points[0],
        points[1],
        seats_name(&seats, 1, &o),
        o.games
    )
    .map_err(|e| e.to_string())?;
    for seat in seats {
        seat.quit();
    }
    Ok(true)
}

fn seats_name(seats: &[Seat; 2], i: usize, o: &Options) -> String {
    seats[i].name().unwrap_or(&o.engines[i]).to_owned()
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            let _ = writeln!(io::stderr(), "salpakan-host: {e}");
            ExitCode::from(2)
        }
    }
}
