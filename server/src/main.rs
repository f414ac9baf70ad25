//! `salpakan-server`: serves games until SIGTERM or SIGINT (see `--help`).

use std::process::ExitCode;
use std::sync::Arc;

use salpakan_server::{Config, OsEntropy, config::USAGE};

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
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("salpakan-server: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        let server = match salpakan_server::start(config, Arc::new(OsEntropy)).await {
            Ok(server) => server,
            Err(e) => {
                eprintln!("salpakan-server: {e}");
                return ExitCode::FAILURE;
            }
        };
        println!("listening on http://{}", server.addr());
        wait_for_signal().await;
        server.stop().await;
        ExitCode::SUCCESS
    })
}

async fn wait_for_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        let _ = tokio::signal::ctrl_c().await;
        return;
    };
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
    }
}
