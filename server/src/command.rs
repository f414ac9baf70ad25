//! The `salpakan-server` command: serve (the default), `backup`, `migrate`, `health`,
//! `export`.

use std::io::{Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use crate::config::{self, Config, Read};
use crate::store::{self, Store, Upgrade};
use crate::{OsEntropy, StartError, listen, start, telemetry};

/// The `salpakan-server` command: reads `args` (without the program's name) and the
/// environment. Serves until SIGTERM or SIGINT, or runs the subcommand `args` begins with
/// (`backup`, `migrate`, `health`, `export`). Exits 0 after a clean stop (and for `--help`), 2 for bad
/// arguments, 1 if the server cannot start or the subcommand fails.
#[must_use]
pub fn run_command(args: Vec<String>) -> ExitCode {
    let env = |name: &str| std::env::var(name).ok();
    let rest = || args[1..].iter().cloned();
    match args.first().map(String::as_str) {
        Some("backup") => return task("salpakan-server backup", rest(), env, backup),
        Some("migrate") => return task("salpakan-server migrate", rest(), env, migrate),
        Some("health") => return task("salpakan-server health", rest(), env, health),
        Some("export") => return task("salpakan-server export", rest(), env, export),
        _ => {}
    }
    let Read { flags, settings } = match Config::read(args, env) {
        Ok(Some(read)) => read,
        Ok(None) => {
            print!("{}", config::usage());
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("salpakan-server: {e}");
            return ExitCode::from(2);
        }
    };
    telemetry::init_log(flags.log_format);
    tracing::info!(config = %settings, "configured");
    let result = tokio::runtime::Runtime::new()
        .map_err(StartError::Runtime)
        .and_then(|runtime| runtime.block_on(serve_until_signal(flags)));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = %e, "the server could not start");
            ExitCode::FAILURE
        }
    }
}

/// A subcommand called `name`: its flags `T` from `args` and `env`, then `run` with them;
/// its `--help`, or its usage's error (exit 2).
fn task<T: clap::Args + clap::FromArgMatches>(
    name: &'static str,
    args: impl Iterator<Item = String>,
    env: impl Fn(&str) -> Option<String>,
    run: fn(T) -> Result<String, String>,
) -> ExitCode {
    match config::read::<T>(name, args, env) {
        Ok(Some(read)) => finish(name, run(read.flags)),
        Ok(None) => {
            print!("{}", config::help::<T>(name));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{name}: {e}");
            ExitCode::from(2)
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

/// A subcommand's end: its line on standard output and success, or `NAME: why` on standard
/// error and failure.
fn finish(name: &str, result: Result<String, String>) -> ExitCode {
    match result {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("{name}: {why}");
            ExitCode::FAILURE
        }
    }
}

/// An online, checked copy of a live database (SQLite's; PostgreSQL's own tools copy
/// theirs).
#[derive(clap::Args)]
struct Backup {
    /// the live database
    #[arg(long, value_name = "PATH")]
    db: String,
    /// where the copy goes (never overwritten)
    #[arg(long, value_name = "PATH")]
    to: String,
}

/// `salpakan-server backup --db PATH --to PATH`.
fn backup(Backup { db, to }: Backup) -> Result<String, String> {
    store::backup(&PathBuf::from(&db), &PathBuf::from(&to))
        .map(|made| {
            format!(
                "{to}: {} bytes, {} games, schema version {}, integrity ok",
                made.bytes, made.games, made.version
            )
        })
        .map_err(|e| e.to_string())
}

/// The games their players agreed to share, as JSON lines.
#[derive(clap::Args)]
struct Export {
    /// the database
    #[arg(long, value_name = "PATH")]
    db: String,
    /// the file made (never overwritten)
    #[arg(long, value_name = "FILE")]
    out: String,
}

/// `salpakan-server export --db PATH --out FILE`: the dataset of shared games.
fn export(Export { db, out }: Export) -> Result<String, String> {
    crate::export::export(&PathBuf::from(&db), &PathBuf::from(&out)).map(|found| {
        format!(
            "{out}: {} games shared, {} finished games left out (a player did not agree, or an anonymous seat), licence {}",
            found.shared,
            found.left_out,
            crate::export::LICENCE
        )
    })
}

/// Bring a database's schema up to date.
#[derive(clap::Args)]
struct Migrate {
    /// the database
    #[arg(long, value_name = "PATH", default_value = "salpakan.db")]
    db: String,
}

/// `salpakan-server migrate --db PATH`.
fn migrate(Migrate { db }: Migrate) -> Result<String, String> {
    match Store::migrate(&PathBuf::from(&db)) {
        Ok(Upgrade::Done { from, to }) if from == to => {
            Ok(format!("{db}: schema version {to}, up to date"))
        }
        Ok(Upgrade::Done { from, to }) => Ok(format!("{db}: schema version {from} -> {to}")),
        Ok(Upgrade::Newer { found, known }) => {
            Err(format!("{db}: version {found} is newer than {known}"))
        }
        Err(e) => Err(e.to_string()),
    }
}

/// Exit 0 if the server at ADDR is ready: a container's health check.
#[derive(clap::Args)]
struct Health {
    /// the server's address (an unspecified one, 0.0.0.0, is asked on loopback)
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
}

/// `salpakan-server health [--addr ADDR]`: `GET /api/ready` at ADDR (an unspecified address,
/// `0.0.0.0`, is asked on loopback); exit 0 for 200.
fn health(Health { mut addr }: Health) -> Result<String, String> {
    if addr.ip().is_unspecified() {
        addr.set_ip(if addr.is_ipv4() {
            std::net::Ipv4Addr::LOCALHOST.into()
        } else {
            std::net::Ipv6Addr::LOCALHOST.into()
        });
    }
    match ready_status(addr) {
        Ok(200) => Ok("ready".to_owned()),
        Ok(status) => Err(format!("{addr} answered {status}: not ready")),
        Err(e) => Err(format!("{addr}: {e}")),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `T`'s flags from `args` and the variables `env`.
    fn read<T: clap::Args + clap::FromArgMatches>(
        args: &[&str],
        env: &[(&str, &str)],
    ) -> Result<Option<T>, config::ConfigError> {
        let args = args.iter().map(|a| (*a).to_owned());
        let env = |name: &str| {
            env.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned())
        };
        Ok(config::read::<T>("salpakan-server test", args, env)?.map(|read| read.flags))
    }

    #[test]
    fn the_subcommands_read_their_flags_and_the_environment() {
        let Backup { db, to } = read(&["--db", "a.db", "--to", "b.db"], &[])
            .unwrap()
            .unwrap();
        assert_eq!((db.as_str(), to.as_str()), ("a.db", "b.db"));
        let missing = read::<Backup>(&["--db", "a.db"], &[]).err().unwrap();
        assert!(missing.to_string().contains("--to"), "{missing}");
        let Backup { to, .. } = read(&["--db", "a.db"], &[("SALPAKAN_TO", "c.db")])
            .unwrap()
            .unwrap();
        assert_eq!(to, "c.db");
        let Export { out, .. } = read(&["--db", "a.db", "--out", "x.jsonl"], &[])
            .unwrap()
            .unwrap();
        assert_eq!(out, "x.jsonl");
        assert!(read::<Export>(&["--out", "x.jsonl"], &[]).is_err());
        let Migrate { db } = read(&[], &[]).unwrap().unwrap();
        assert_eq!(db, "salpakan.db");
        let Migrate { db } = read(&[], &[("SALPAKAN_DB", "env.db")]).unwrap().unwrap();
        assert_eq!(db, "env.db");
        let Health { addr } = read(&[], &[]).unwrap().unwrap();
        assert_eq!(addr, SocketAddr::from(([127, 0, 0, 1], 8080)));
        let Health { addr } = read(&[], &[("SALPAKAN_ADDR", "0.0.0.0:9000")])
            .unwrap()
            .unwrap();
        assert_eq!(addr.port(), 9000);
        let bad = read::<Health>(&["--addr", "nowhere"], &[]).err().unwrap();
        assert!(bad.to_string().contains("--addr"), "{bad}");
        let bad = read::<Health>(&[], &[("SALPAKAN_ADDR", "nowhere")])
            .err()
            .unwrap();
        assert!(bad.to_string().starts_with("SALPAKAN_ADDR: "), "{bad}");
        assert!(read::<Migrate>(&["--to", "x"], &[]).is_err());
        assert!(read::<Migrate>(&["--help"], &[]).unwrap().is_none());
        let help = config::help::<Backup>("salpakan-server backup");
        for said in [
            "--db <PATH>",
            "--to <PATH>",
            "SALPAKAN_TO",
            "never overwritten",
        ] {
            assert!(help.contains(said), "{said}: {help}");
        }
    }
}
