//! The server's settings: where it listens, its database, and its limits, from the command
//! line and the environment.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use thiserror::Error;

use crate::store::Durability;

/// What is wrong with the command line or the environment.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ConfigError {
    /// A flag given without its value.
    #[error("{0} needs a value")]
    MissingValue(String),
    /// Not an `IP:PORT` address.
    #[error("not an address (IP:PORT): {0}")]
    Address(String),
    /// A flag's value that is not a number of its range.
    #[error("{flag} takes a number, not {value}")]
    Number {
        /// The flag.
        flag: String,
        /// What it was given.
        value: String,
    },
    /// `--durability` other than `full` or `normal`.
    #[error("--durability full or normal, not {0}")]
    Durability(String),
    /// A flag the server does not know.
    #[error("unknown argument {0} (see --help)")]
    Unknown(String),
}

/// The bounds that keep one client from disturbing the others (`docs/SERVER.md`, "Limits").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The longest frame a client may send, in bytes; a longer one closes its socket with
    /// 1009. Fixed by the contract at 4,096.
    pub max_frame_bytes: usize,
    /// How many messages a socket may send within [`Limits::window`]; one more closes it
    /// with 1008.
    pub messages_per_window: usize,
    /// The window of the message budget.
    pub window: Duration,
    /// Open sockets per client address; one more is refused with 429 before the upgrade.
    pub connections_per_ip: usize,
    /// Unfinished games a client address may have created; one more is refused with 429.
    pub games_per_ip: usize,
    /// How often the server pings a socket.
    pub ping_interval: Duration,
    /// A socket that sends nothing (not even a pong) for this long is closed with 1001.
    pub idle_timeout: Duration,
    /// A seat with no socket for this long, while its opponent has one, loses the game by
    /// abandonment.
    pub abandon_grace: Duration,
    /// A game still in its setup phase this long after it was created (its invite never
    /// used, or a formation never sent) is deleted: its links then answer as for an unknown
    /// game, and its sockets close with 4410.
    pub setup_expiry: Duration,
    /// Frames waiting to be sent to one socket; a socket that falls further behind is
    /// closed with 1008.
    pub outbox: usize,
    /// The longest a frame may take to be written to a socket; a client that reads nothing
    /// for longer is closed with 1008, its slot freed.
    pub write_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_frame_bytes: 4096,
            messages_per_window: 200,
            window: Duration::from_secs(10),
            connections_per_ip: 32,
            games_per_ip: 16,
            ping_interval: Duration::from_secs(20),
            idle_timeout: Duration::from_secs(60),
            abandon_grace: Duration::from_secs(60),
            setup_expiry: Duration::from_secs(24 * 60 * 60),
            outbox: 512,
            write_timeout: Duration::from_secs(10),
        }
    }
}

/// Everything the server is started with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Where it listens.
    pub addr: SocketAddr,
    /// The SQLite database (created if missing).
    pub db: PathBuf,
    /// The page's files, served at `/`.
    pub static_dir: Option<PathBuf>,
    /// How hard commits press data to disk.
    pub durability: Durability,
    /// Whether the client's address is the last one of `X-Forwarded-For` (only behind a
    /// proxy that sets it), not the connection's.
    pub trust_forwarded_for: bool,
    /// The server's Ismcts bot's budget in iterations per move.
    pub bot_budget: u32,
    /// The limits.
    pub limits: Limits,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: PathBuf::from("salpakan.db"),
            static_dir: None,
            durability: Durability::Full,
            trust_forwarded_for: false,
            bot_budget: 2_000,
            limits: Limits::default(),
        }
    }
}

/// The `--help` text.
pub const USAGE: &str = "\
salpakan-server: the arbiter server of Game of the Generals

  --addr ADDR                  listen on ADDR (env SALPAKAN_ADDR; default 127.0.0.1:8080)
  --db PATH                    the SQLite database, created if missing (env SALPAKAN_DB;
                               default ./salpakan.db)
  --static DIR                 serve the page's files from DIR at /
  --durability full|normal     full (default): a commit survives a power cut; normal: it
                               survives a crash of the server, not of the machine
  --trust-forwarded-for        take the client's address from X-Forwarded-For (only behind
                               a proxy that sets it)
  --bot-budget N               the ismcts bot's iterations per move (default 2000)
  --connections-per-ip N       open sockets per client address (default 32)
  --games-per-ip N             unfinished games per client address (default 16)
  --messages-per-window N      messages a socket may send in 10 s (default 200)
  --abandon-grace-secs N       a seat away this long, its opponent present, loses (default 60)
  --setup-expiry-secs N        a game not started this long after its creation is deleted
                               (default 86400, a day)
  --help                       this text
";

impl Config {
    /// The settings from command-line arguments (without the program's name) and the
    /// environment's `SALPAKAN_ADDR` and `SALPAKAN_DB`. `Ok(None)` for `--help`.
    ///
    /// # Errors
    /// What is wrong with the arguments.
    pub fn from_args(
        args: impl IntoIterator<Item = String>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<Config>, ConfigError> {
        let mut config = Config::default();
        if let Some(addr) = env("SALPAKAN_ADDR") {
            config.addr = parse_addr(&addr)?;
        }
        if let Some(db) = env("SALPAKAN_DB") {
            config.db = PathBuf::from(db);
        }
        let mut args = args.into_iter();
        while let Some(flag) = args.next() {
            let mut value = || {
                args.next()
                    .ok_or_else(|| ConfigError::MissingValue(flag.clone()))
            };
            match flag.as_str() {
                "--help" | "-h" => return Ok(None),
                "--addr" => config.addr = parse_addr(&value()?)?,
                "--db" => config.db = PathBuf::from(value()?),
                "--static" => config.static_dir = Some(PathBuf::from(value()?)),
                "--durability" => {
                    config.durability = match value()?.as_str() {
                        "full" => Durability::Full,
                        "normal" => Durability::Normal,
                        other => return Err(ConfigError::Durability(other.to_owned())),
                    }
                }
                "--trust-forwarded-for" => config.trust_forwarded_for = true,
                "--bot-budget" => config.bot_budget = number(&flag, &value()?)?,
                "--connections-per-ip" => {
                    config.limits.connections_per_ip = number(&flag, &value()?)?;
                }
                "--games-per-ip" => config.limits.games_per_ip = number(&flag, &value()?)?,
                "--messages-per-window" => {
                    config.limits.messages_per_window = number(&flag, &value()?)?;
                }
                "--abandon-grace-secs" => {
                    config.limits.abandon_grace = Duration::from_secs(number(&flag, &value()?)?);
                }
                "--setup-expiry-secs" => {
                    config.limits.setup_expiry = Duration::from_secs(number(&flag, &value()?)?);
                }
                other => return Err(ConfigError::Unknown(other.to_owned())),
            }
        }
        Ok(Some(config))
    }
}

fn parse_addr(text: &str) -> Result<SocketAddr, ConfigError> {
    text.parse()
        .map_err(|_| ConfigError::Address(text.to_owned()))
}

fn number<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T, ConfigError> {
    text.parse().map_err(|_| ConfigError::Number {
        flag: flag.to_owned(),
        value: text.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn arguments_and_environment_are_read() {
        let config = Config::from_args(
            args(&[
                "--db",
                "x.db",
                "--games-per-ip",
                "3",
                "--durability",
                "normal",
                "--setup-expiry-secs",
                "3600",
            ]),
            |name| (name == "SALPAKAN_ADDR").then(|| "127.0.0.1:9000".to_owned()),
        )
        .unwrap()
        .unwrap();
        assert_eq!(config.addr.port(), 9000);
        assert_eq!(config.db, PathBuf::from("x.db"));
        assert_eq!(config.limits.games_per_ip, 3);
        assert_eq!(config.durability, Durability::Normal);
        assert_eq!(config.limits.setup_expiry, Duration::from_secs(3600));
        assert_eq!(Config::from_args(args(&["--help"]), |_| None), Ok(None));
        for bad in [
            &["--addr"][..],
            &["--addr", "nowhere"],
            &["--bot-budget", "x"],
            &["--setup-expiry-secs", "-1"],
            &["--fly"],
        ] {
            assert!(Config::from_args(args(bad), |_| None).is_err(), "{bad:?}");
        }
    }
}
