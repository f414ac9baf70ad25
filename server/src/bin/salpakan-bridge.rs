//! `salpakan-bridge`: an engine of the Salpakan engine protocol (`docs/ENGINES.md`) playing
//! on a server as a bot account: it answers challenges, plays its games, and waits in the
//! bots' pool if asked to. See `docs/ENGINES.md` ("On a server: the bridge").
//!
//! ```text
//! salpakan-bridge --server 127.0.0.1:8080 --key-file bot.key --name heneral_bot \
//!     --engine 'python3 python/examples/sep_engine.py greedy' [--pool 5+3] [--rated-pool]
//!     [--games 1] [--accept rated,casual,untimed] [--move-ms 10000]
//!     [--description TEXT]
//! ```
//!
//! With `--key-file` naming a file that does not exist yet, the bridge registers the bot
//! account `--name` (with `--description`) and keeps its key there (readable by its owner
//! only); `--key KEY` gives a key instead.

use std::net::{SocketAddr, ToSocketAddrs};
use std::process::ExitCode;
use std::time::Duration;

use salpakan_engine::host::Limits;
use salpakan_server::bridge::{Accept, Launch, Options, run};
use salpakan_server::clock::ClockSettings;
use salpakan_server::wire::PoolRequest;

const USAGE: &str = "usage: salpakan-bridge --server HOST:PORT (--key KEY | --key-file FILE \
[--name NAME] [--description TEXT]) --engine COMMAND [--games N] [--pool untimed|M+S] \
[--rated-pool] [--accept rated,casual,untimed] [--move-ms N]";

struct Args {
    addr: SocketAddr,
    key: Option<String>,
    key_file: Option<String>,
    name: Option<String>,
    description: Option<String>,
    engine: String,
    games: usize,
    pool: Option<PoolRequest>,
    accept: Accept,
    move_ms: u64,
}

fn parse(mut words: impl Iterator<Item = String>) -> Result<Args, String> {
    let (mut addr, mut key, mut key_file, mut name, mut description, mut engine) =
        (None, None, None, None, None, None);
    let (mut games, mut pool, mut rated_pool, mut accept, mut move_ms) =
        (1, None, false, Accept::default(), 10_000);
    while let Some(flag) = words.next() {
        if flag == "--rated-pool" {
            rated_pool = true;
            continue;
        }
        let value = words
            .next()
            .ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--server" => {
                let found = value
                    .to_socket_addrs()
                    .map_err(|e| format!("--server {value}: {e}"))?
                    .next();
                addr = Some(found.ok_or_else(|| format!("--server {value}: no address"))?);
            }
            "--key" => key = Some(value),
            "--key-file" => key_file = Some(value),
            "--name" => name = Some(value),
            "--description" => description = Some(value),
            "--engine" => engine = Some(value),
            "--games" => {
                games = value
                    .parse()
                    .ok()
                    .filter(|n| (1..=16).contains(n))
                    .ok_or("--games takes 1 to 16")?;
            }
            "--pool" => pool = Some(clock(&value)?),
            "--accept" => {
                accept = Accept {
                    rated: false,
                    casual: false,
                    untimed: false,
                };
                for word in value.split(',') {
                    match word {
                        "rated" => accept.rated = true,
                        "casual" => accept.casual = true,
                        "untimed" => accept.untimed = true,
                        other => {
                            return Err(format!(
                                "--accept: {other:?} is not rated, casual or untimed"
                            ));
                        }
                    }
                }
            }
            "--move-ms" => {
                move_ms = value
                    .parse()
                    .ok()
                    .filter(|n| (1..=600_000).contains(n))
                    .ok_or("--move-ms takes 1 to 600000")?;
            }
            other => return Err(format!("unknown flag {other}")),
        }
    }
    let pool = pool.map(|clock| PoolRequest {
        clock,
        rated: Some(rated_pool),
        listed: None,
        bots: Some(true),
    });
    if key.is_none() && key_file.is_none() {
        return Err("--key or --key-file is needed".into());
    }
    Ok(Args {
        addr: addr.ok_or("--server is needed")?,
        key,
        key_file,
        name,
        description,
        engine: engine.ok_or("--engine is needed")?,
        games,
        pool,
        accept,
        move_ms,
    })
}

/// `untimed`, or `M+S` (minutes, and seconds of increment).
fn clock(word: &str) -> Result<Option<ClockSettings>, String> {
    if word == "untimed" {
        return Ok(None);
    }
    let (minutes, seconds) = word
        .split_once('+')
        .and_then(|(m, s)| Some((m.parse::<u64>().ok()?, s.parse::<u64>().ok()?)))
        .ok_or_else(|| format!("--pool {word:?}: untimed or M+S, as 5+3"))?;
    Ok(Some(ClockSettings {
        initial_ms: minutes * 60_000,
        increment_ms: seconds * 1000,
    }))
}

/// The key: given, kept in the key file, or a new bot account's (kept there).
async fn key(args: &Args) -> Result<String, String> {
    if let Some(key) = &args.key {
        return Ok(key.clone());
    }
    let file = args.key_file.as_deref().unwrap_or_default();
    if let Ok(kept) = std::fs::read_to_string(file) {
        return Ok(kept.trim().to_owned());
    }
    let name = args
        .name
        .as_deref()
        .ok_or_else(|| format!("{file} does not exist: give --name to register a bot account"))?;
    let mut body = serde_json::json!({"name": name, "bot": true});
    if let Some(description) = &args.description {
        body["description"] = description.clone().into();
    }
    let (status, text) =
        salpakan_server::client::request(args.addr, "POST", "/api/players", &body.to_string())
            .await
            .map_err(|e| e.to_string())?;
    if status != 201 {
        return Err(format!("registering {name}: {status} {text}"));
    }
    let made: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let key = made["key"]
        .as_str()
        .ok_or("no key in the reply")?
        .to_owned();
    write_private(file, &key).map_err(|e| format!("{file}: {e}"))?;
    eprintln!("registered the bot account {name}; its key is in {file}");
    Ok(key)
}

/// Writes `key` to `file`, readable by its owner only.
fn write_private(file: &str, key: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(file)?.write_all(format!("{key}\n").as_bytes())
}

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let args = match parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(why) => {
            eprintln!("{why}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let key = match key(&args).await {
        Ok(key) => key,
        Err(why) => {
            eprintln!("{why}");
            return ExitCode::FAILURE;
        }
    };
    let options = Options {
        addr: args.addr,
        key,
        engine: Launch::Command(args.engine),
        games: args.games,
        accept: args.accept,
        pool: args.pool,
        limits: Limits {
            mv: Duration::from_millis(args.move_ms),
            ..Limits::default()
        },
    };
    let (stop_tx, stop) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        let _ = tokio::signal::ctrl_c().await;
        let _ = stop_tx.send(true);
    });
    match run(options, stop).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("{why}");
            ExitCode::FAILURE
        }
    }
}
