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

#[path = "shared/args.rs"]
mod args;
use args::Args;

const USAGE: &str = "usage: salpakan-engine [--agent random|greedy|ismcts|level-1..level-8] \
                     [--seed N] [--budget N]";

fn run() -> Result<(), String> {
    let mut agent = "level-5".to_owned();
    let mut seed = None;
    let mut budget = None;
    let mut args = Args::new(USAGE);
    while let Some(arg) = args.flag() {
        match arg.as_str() {
            "--agent" => agent = args.value(&arg)?,
            "--seed" => seed = Some(args.number::<u64>(&arg)?),
            "--budget" => budget = Some(args.number::<u64>(&arg)?),
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => return Err(args.unknown(other)),
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
