//! `salpakan-bench`: salpakan-bench v1 (`docs/ENGINES.md`), a frozen evaluation of any engine
//! of the Salpakan engine protocol against pinned opponents, deals and formation priors;
//! prints the table a result reports.
//!
//! ```text
//! salpakan-bench --engine CMD [--games N] [--move-ms MS] [--opponents random,level-1,…] [--priors uniform,people]
//! ```
//!
//! The defaults are v1's: `random` and `level-1` … `level-8`, both priors, 20 games a pairing
//! and prior, 10,000 ms a move. Fewer opponents or games make a quicker look; the table says
//! what it played.

use std::io::{self, Write};
use std::process::ExitCode;

use salpakan::Bot;
use salpakan_engine::bench::{self, Prior, Spec};
use salpakan_engine::host::Seat;

#[path = "shared/args.rs"]
mod args;
use args::Args;

const USAGE: &str = "usage: salpakan-bench --engine CMD [--games N] [--move-ms MS] \
                     [--opponents random,level-1,...] [--priors uniform,people]";

fn run() -> Result<(), String> {
    let mut spec = Spec::default();
    let mut engine = None;
    let mut args = Args::new(USAGE);
    while let Some(arg) = args.flag() {
        match arg.as_str() {
            "--engine" => engine = Some(args.value(&arg)?),
            "--games" => spec.games = args.number(&arg)?,
            "--move-ms" => spec.move_ms = args.number(&arg)?,
            "--opponents" => {
                spec.opponents = args
                    .value(&arg)?
                    .split(',')
                    .map(|w| w.parse::<Bot>().map_err(|e| format!("--opponents: {e}")))
                    .collect::<Result<_, _>>()?;
            }
            "--priors" => {
                spec.priors = args
                    .value(&arg)?
                    .split(',')
                    .map(|w| {
                        Prior::ALL
                            .into_iter()
                            .find(|p| p.word() == w)
                            .ok_or_else(|| format!("--priors: uniform or people, not {w:?}"))
                    })
                    .collect::<Result<_, _>>()?;
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => return Err(args.unknown(other)),
        }
    }
    let engine = engine.ok_or_else(|| format!("--engine is needed\n{USAGE}"))?;
    let mut seat = Seat::spawn(&engine).map_err(|e| format!("{engine}: {e}"))?;
    let lines = bench::run(&mut seat, &spec, |line| {
        eprintln!(
            "{} ({}): {}-{}-{}",
            line.opponent.word(),
            line.prior.word(),
            line.score.wins,
            line.score.draws,
            line.score.losses
        );
    });
    let name = seat.name().unwrap_or(&engine).to_owned();
    seat.quit();
    print!("{}", bench::table(&name, &spec, &lines));
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "salpakan-bench: {e}");
            ExitCode::from(2)
        }
    }
}
