//! `salpakan-server`: serves games until SIGTERM or SIGINT (see `--help`).

fn main() -> std::process::ExitCode {
    salpakan_server::command::run_command(std::env::args().skip(1).collect())
}
