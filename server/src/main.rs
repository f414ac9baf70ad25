//! `salpakan-server`: serves games until SIGTERM or SIGINT (see `--help`).

use std::process::ExitCode;

use salpakan_server::config::{Config, USAGE};

fn main() -> ExitCode {
    let config = match Config::from_args(std::env::args().skip(1), |name| std::env::var(name).ok())
    {
        Ok(Some(config)) => config,
        Ok(None) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("salpakan-server: {e}");
            return ExitCode::from(2);
        }
    };
    let result = tokio::runtime::Runtime::new()
        .map_err(|e| e.to_string())
        .and_then(|runtime| runtime.block_on(salpakan_server::serve_until_signal(config)));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("salpakan-server: {e}");
            ExitCode::FAILURE
        }
    }
}
