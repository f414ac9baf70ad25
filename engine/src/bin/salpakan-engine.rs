//! `salpakan-engine`: one of the crate's agents as an engine of the Salpakan engine protocol
//! (`docs/ENGINES.md`) on standard input and output, for any host.
//!
//! ```text
//! salpakan-engine [--agent level-5] [--seed N] [--budget N]
//! ```
//!
//! `--agent` is `random`, `greedy`, `ismcts` or `level-1` … `level-8` (default `level-5`);
//! `--seed` seeds its formations and choices (default: 64 bits of the operating system's
//! generator, so that its formations stay secret); `--budget` is ISMCTS's iterations a move.

use std::io::{self, Write};
use std::process::ExitCode;

use salpakan_engine::engine::{AgentEngine, Engine, serve};

const USAGE: &str = "usage: salpakan-engine [--agent random|greedy|ismcts|level-1..level-8] \
                     [--seed N] [--budget N]";

fn run() -> Result<(), String> {
    let mut agent = "level-5".to_owned();
    let mut seed = None;
    let mut budget = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .ok_or_else(|| format!("{arg} needs a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--agent" => agent = value()?,
            "--seed" => {
                seed = Some(
                    value()?
                        .parse::<u64>()
                        .map_err(|e| format!("--seed: {e}"))?,
                )
            }
            "--budget" => {
                budget = Some(
                    value()?
                        .parse::<u64>()
                        .map_err(|e| format!("--budget: {e}"))?,
                );
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    let seed = match seed {
        Some(seed) => seed,
        None => {
            let mut bytes = [0_u8; 8];
            getrandom::fill(&mut bytes).map_err(|e| format!("the OS's generator: {e}"))?;
            u64::from_le_bytes(bytes)
        }
    };
    let mut engine = AgentEngine::new(&agent, seed)?;
    if let Some(budget) = budget {
        engine.answer(&salpakan_engine::HostLine::SetOption {
            name: "budget".into(),
            value: budget.to_string(),
        });
    }
    let stdin = io::stdin();
    let stdout = io::stdout();
    serve(&mut engine, stdin.lock(), stdout.lock()).map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "salpakan-engine: {e}");
            ExitCode::from(2)
        }
    }
}
