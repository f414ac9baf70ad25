//! The `salpakan-server` command: serve (the default), `backup`, `migrate`, `health`,
//! `export`.

use std::io::{Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use crate::config::{self, Config, env_name};
use crate::store::{self, Store, Upgrade};
use crate::{OsEntropy, StartError, listen, start, telemetry};

/// The `salpakan-server` command: reads `args` (without the program's name) and the
/// environment. Serves until SIGTERM or SIGINT, or runs the subcommand `args` begins with
/// (`backup`, `migrate`, `health`, `export`). Exits 0 after a clean stop (and for `--help`), 2 for bad
/// arguments, 1 if the server cannot start or the subcommand fails.
#[must_use]
pub fn run_command(args: Vec<String>) -> ExitCode {
    let env = |name: &str| std::env::var(name).ok();
    match args.first().map(String::as_str) {
        Some("backup") => return backup(&args[1..], env),
        Some("migrate") => return migrate(&args[1..], env),
        Some("health") => return health(&args[1..], env),
        Some("export") => return export(&args[1..], env),
        _ => {}
    }
    let config = match Config::from_args(args, env) {
        Ok(Some(config)) => config,
        Ok(None) => {
            print!("{}", config::usage());
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("salpakan-server: {e}");
            return ExitCode::from(2);
        }
    };
    telemetry::init_log(config.log_format);
    let result = tokio::runtime::Runtime::new()
        .map_err(StartError::Runtime)
        .and_then(|runtime| runtime.block_on(serve_until_signal(config)));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = %e, "the server could not start");
            ExitCode::FAILURE
        }
    }
}

/// Serves with `config` until SIGTERM or SIGINT, printing `listening on http://ADDR` once it
/// accepts connections; then stops as [`crate::Running::stop`] does. Raises the open-file
/// soft limit to the hard limit first. The `salpakan-server` binary.
///
/// # Errors
/// [`StartError`]: the database's or the listener's error.
pub(crate) async fn serve_until_signal(config: Config) -> Result<(), StartError> {
    match listen::raise_open_file_limit() {
        Ok((before, after)) => tracing::info!(before, after, "open-file limit"),
        Err(e) => tracing::warn!(error = %e, "the open-file limit could not be raised"),
    }
    let server = start(config, Arc::new(OsEntropy)).await?;
    println!("listening on http://{}", server.addr());
    let _ = std::io::stdout().flush();
    let signal = wait_for_signal().await;
    tracing::info!(signal, "shutting down");
    server.stop().await;
    Ok(())
}

async fn wait_for_signal() -> &'static str {
    use tokio::signal::unix::{SignalKind, signal};
    match (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) {
        (Ok(mut term), Ok(mut int)) => {
            tokio::select! {
                _ = term.recv() => "SIGTERM",
                _ = int.recv() => "SIGINT",
            }
        }
        _ => {
            let _ = tokio::signal::ctrl_c().await;
            "SIGINT"
        }
    }
}

/// A subcommand's flags: each `(flag, default)` from the command line, else its `SALPAKAN_*`
/// variable, else the default (`None`: required).
fn flags<const N: usize>(
    command: &str,
    args: &[String],
    env: impl Fn(&str) -> Option<String>,
    wanted: [(&str, Option<&str>); N],
) -> Result<[String; N], String> {
    let mut found: [Option<String>; N] = [const { None }; N];
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let Some(i) = wanted.iter().position(|(f, _)| f == flag) else {
            return Err(format!("{command}: unknown argument {flag} (see --help)"));
        };
        found[i] = Some(
            rest.next()
                .ok_or_else(|| format!("{command}: {flag} needs a value"))?
                .clone(),
        );
    }
    let mut values: [String; N] = [const { String::new() }; N];
    for (i, (flag, default)) in wanted.iter().enumerate() {
        values[i] = found[i]
            .take()
            .or_else(|| env(&env_name(flag)))
            .or_else(|| default.map(str::to_owned))
            .ok_or_else(|| format!("{command}: {flag} is required"))?;
    }
    Ok(values)
}

/// A command's end: its line on standard output and success, or `salpakan-server COMMAND:
/// why` on standard error and failure.
fn finish(command: &str, result: Result<String, String>) -> ExitCode {
    match result {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("salpakan-server {command}: {why}");
            ExitCode::FAILURE
        }
    }
}

fn bad_usage(message: &str) -> ExitCode {
    eprintln!("salpakan-server {message}");
    ExitCode::from(2)
}

/// `salpakan-server backup --db PATH --to PATH`.
fn backup(args: &[String], env: impl Fn(&str) -> Option<String>) -> ExitCode {
    let [db, to] = match flags("backup", args, env, [("--db", None), ("--to", None)]) {
        Ok(values) => values,
        Err(message) => return bad_usage(&message),
    };
    let made = store::backup(&PathBuf::from(&db), &PathBuf::from(&to)).map(|made| {
        format!(
            "{to}: {} bytes, {} games, schema version {}, integrity ok",
            made.bytes, made.games, made.version
        )
    });
    finish("backup", made.map_err(|e| e.to_string()))
}

/// `salpakan-server export --db PATH --out FILE`: the dataset of shared games.
fn export(args: &[String], env: impl Fn(&str) -> Option<String>) -> ExitCode {
    let [db, out] = match flags("export", args, env, [("--db", None), ("--out", None)]) {
        Ok(values) => values,
        Err(message) => return bad_usage(&message),
    };
    let made = crate::export::export(&PathBuf::from(&db), &PathBuf::from(&out)).map(|found| {
        format!(
            "{out}: {} games shared, {} finished games left out (a player did not agree, or an anonymous seat), licence {}",
            found.shared,
            found.left_out,
            crate::export::LICENCE
        )
    });
    finish("export", made)
}

/// `salpakan-server migrate --db PATH`.
fn migrate(args: &[String], env: impl Fn(&str) -> Option<String>) -> ExitCode {
    let [db] = match flags("migrate", args, env, [("--db", Some("salpakan.db"))]) {
        Ok(values) => values,
        Err(message) => return bad_usage(&message),
    };
    let upgraded = match Store::migrate(&PathBuf::from(&db)) {
        Ok(Upgrade::Done { from, to }) if from == to => {
            Ok(format!("{db}: schema version {to}, up to date"))
        }
        Ok(Upgrade::Done { from, to }) => Ok(format!("{db}: schema version {from} -> {to}")),
        Ok(Upgrade::Newer { found, known }) => {
            Err(format!("{db}: version {found} is newer than {known}"))
        }
        Err(e) => Err(e.to_string()),
    };
    finish("migrate", upgraded)
}

/// `salpakan-server health [--addr ADDR]`: `GET /api/ready` at ADDR (an unspecified address,
/// `0.0.0.0`, is asked on loopback); exit 0 for 200. A container's health check.
fn health(args: &[String], env: impl Fn(&str) -> Option<String>) -> ExitCode {
    let [addr] = match flags("health", args, env, [("--addr", Some("127.0.0.1:8080"))]) {
        Ok(values) => values,
        Err(message) => return bad_usage(&message),
    };
    let Ok(mut addr) = addr.parse::<SocketAddr>() else {
        return bad_usage(&format!("health: not an address (IP:PORT): {addr}"));
    };
    if addr.ip().is_unspecified() {
        addr.set_ip(if addr.is_ipv4() {
            std::net::Ipv4Addr::LOCALHOST.into()
        } else {
            std::net::Ipv6Addr::LOCALHOST.into()
        });
    }
    let ready = match ready_status(addr) {
        Ok(200) => Ok("ready".to_owned()),
        Ok(status) => Err(format!("{addr} answered {status}: not ready")),
        Err(e) => Err(format!("{addr}: {e}")),
    };
    finish("health", ready)
}

/// The status of `GET /api/ready` at `addr`, within three seconds.
fn ready_status(addr: SocketAddr) -> std::io::Result<u16> {
    let within = Duration::from_secs(3);
    let mut stream = TcpStream::connect_timeout(&addr, within)?;
    stream.set_read_timeout(Some(within))?;
    stream.set_write_timeout(Some(within))?;
    write!(
        stream,
        "GET /api/ready HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )?;
    let mut head = [0u8; 32];
    let mut read = 0;
    while read < 12 {
        match stream.read(&mut head[read..])? {
            0 => break,
            n => read += n,
        }
    }
    let text = std::str::from_utf8(&head[..read]).unwrap_or("");
    text.strip_prefix("HTTP/1.1 ")
        .and_then(|rest| rest.get(..3))
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("not an HTTP reply: {text:?}")))
}
