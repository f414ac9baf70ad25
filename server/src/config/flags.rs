//! Every flag of the server, declared once: its name, what it takes, its help, how it sets
//! the [`Config`] and how the config shows it. The command line, the environment
//! (`SALPAKAN_` and the name: [`env_name`]), `--help` (with each default, read from
//! [`Config::default`]) and the settings logged at start all read this one table, so a new
//! flag is one entry.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use super::{Cidr, Config, ConfigError, Durability, LogFormat};

/// What a flag takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Takes {
    /// A value (`--flag VALUE`; in the environment, the value).
    Value(&'static str),
    /// Nothing (`--flag`; in the environment, `1`/`true` or `0`/`false`).
    Switch,
    /// A value, repeatable (in the environment, the values separated by commas).
    List(&'static str),
}

/// Sets what a flag sets: the config, the flag's name (for its errors), the value (empty
/// for a switch).
type Set = fn(&mut Config, &'static str, &str) -> Result<(), ConfigError>;
/// The flag's effective value as the command line would give it (a switch `true` or
/// `false`, a list joined by commas, an unset value empty).
type Get = fn(&Config) -> String;

/// One flag.
pub(super) struct Flag {
    pub(super) name: &'static str,
    pub(super) takes: Takes,
    help: &'static str,
    set: Set,
    pub(super) get: Get,
}

/// A flag taking a value called `arg`.
const fn value(
    name: &'static str,
    arg: &'static str,
    help: &'static str,
    set: Set,
    get: Get,
) -> Flag {
    Flag {
        name,
        takes: Takes::Value(arg),
        help,
        set,
        get,
    }
}

/// A flag of a whole number of the limits (or the config): `$($field).+` is where it goes.
macro_rules! number {
    ($name:literal, $help:literal, $($field:ident).+) => {
        value(
            $name,
            "N",
            $help,
            |c, flag, v| {
                c.$($field).+ = number(flag, v)?;
                Ok(())
            },
            |c| c.$($field).+.to_string(),
        )
    };
}

/// A flag of a whole number of seconds of the limits.
macro_rules! secs {
    ($name:literal, $help:literal, $($field:ident).+) => {
        value(
            $name,
            "N",
            $help,
            |c, flag, v| {
                c.$($field).+ = Duration::from_secs(number(flag, v)?);
                Ok(())
            },
            |c| c.$($field).+.as_secs().to_string(),
        )
    };
}

/// A flag of a whole number within a range, read into a config field by `$from` and shown
/// by its method `$show`.
macro_rules! ranged {
    ($name:literal, $help:literal, $($field:ident).+, $range:expr, $from:path, $show:ident) => {
        value(
            $name,
            "N",
            $help,
            |c, flag, v| {
                c.$($field).+ = $from(within(flag, v, $range)?);
                Ok(())
            },
            |c| c.$($field).+.$show().to_string(),
        )
    };
}

/// A flag of a file or folder, none by default: `$field` is where it goes.
macro_rules! path {
    ($name:literal, $arg:literal, $help:literal, $field:ident) => {
        value(
            $name,
            $arg,
            $help,
            |c, _, v| {
                c.$field = Some(PathBuf::from(v));
                Ok(())
            },
            |c| {
                c.$field
                    .as_ref()
                    .map(|d| d.display().to_string())
                    .unwrap_or_default()
            },
        )
    };
}

/// A flag of one of a few words, each standing for a value of a config field.
macro_rules! choice {
    ($name:literal, $arg:literal, $help:literal, $field:ident, $error:path,
     [$(($word:literal, $value:expr)),+ $(,)?]) => {
        value(
            $name,
            $arg,
            $help,
            |c, _, v| {
                c.$field = match v {
                    $($word => $value,)+
                    other => return Err($error(other.to_owned())),
                };
                Ok(())
            },
            |c| {
                $(if c.$field == $value {
                    return $word.to_owned();
                })+
                String::new()
            },
        )
    };
}

/// Every flag, in the order `--help` lists them.
pub(super) const FLAGS: &[Flag] = &[
    value(
        "--addr",
        "ADDR",
        "listen on ADDR",
        |c, _, v| {
            c.addr = parse_addr(v)?;
            Ok(())
        },
        |c| c.addr.to_string(),
    ),
    value(
        "--db",
        "PATH",
        "the SQLite database, created if missing; or a PostgreSQL database, postgres://USER:PASSWORD@HOST/DB (the feature `nodes`)",
        |c, _, v| {
            c.db = PathBuf::from(v);
            Ok(())
        },
        |c| without_password(&c.db.display().to_string()),
    ),
    path!(
        "--static",
        "DIR",
        "serve the page's files from DIR at / (FILE.br or FILE.gz beside FILE, if there, to clients that take it)",
        static_dir
    ),
    path!(
        "--chat-blocklist",
        "FILE",
        "words chat lines may not carry, one a line (# for a comment), added to the built-in list",
        chat_blocklist
    ),
    value(
        "--db-lock-wait-ms",
        "N",
        "how long a starting server waits for another to let go of its SQLite database",
        |c, flag, v| {
            c.lock_wait = Duration::from_millis(number(flag, v)?);
            Ok(())
        },
        |c| c.lock_wait.as_millis().to_string(),
    ),
    choice!(
        "--durability",
        "full|normal",
        "full: a commit survives a power cut; normal: it survives a crash of the server, not of the machine",
        durability,
        ConfigError::Durability,
        [("full", Durability::Full), ("normal", Durability::Normal)]
    ),
    choice!(
        "--log-format",
        "text|json",
        "the log's format on standard error; RUST_LOG filters it (info unless it says)",
        log_format,
        ConfigError::LogFormat,
        [("text", LogFormat::Text), ("json", LogFormat::Json)]
    ),
    value(
        "--metrics-addr",
        "ADDR",
        "serve Prometheus text at /metrics, and the admin routes, on ADDR only (default: off; keep it on loopback)",
        |c, _, v| {
            c.metrics_addr = Some(parse_addr(v)?);
            Ok(())
        },
        |c| c.metrics_addr.map(|a| a.to_string()).unwrap_or_default(),
    ),
    value(
        "--node",
        "NAME",
        "this node's name among the servers sharing one PostgreSQL database (1 to 32 of a-z 0-9 _ -)",
        |c, _, v| {
            if !valid_node(v) {
                return Err(ConfigError::Node(v.to_owned()));
            }
            v.clone_into(&mut c.node);
            Ok(())
        },
        |c| c.node.clone(),
    ),
    value(
        "--public-url",
        "URL",
        "where the other nodes reach this one (default http:// and the address listened on; loopback for an unspecified one)",
        |c, _, v| {
            if !(v.starts_with("http://") || v.starts_with("https://"))
                || v.contains(['?', '#', ' '])
            {
                return Err(ConfigError::PublicUrl(v.to_owned()));
            }
            c.public_url = Some(v.trim_end_matches('/').to_owned());
            Ok(())
        },
        |c| c.public_url.clone().unwrap_or_default(),
    ),
    ranged!(
        "--lease-secs",
        "a node silent this long has its games taken over by the others (2 to 600)",
        lease,
        2..=600,
        Duration::from_secs,
        as_secs
    ),
    Flag {
        name: "--trusted-proxy",
        takes: Takes::List("CIDR"),
        help: "believe X-Forwarded-For on connections from CIDR (a proxy that sets it; repeat for more); otherwise it is never read",
        set: |c, _, v| {
            c.trusted_proxies.push(v.parse()?);
            Ok(())
        },
        get: |c| {
            c.trusted_proxies
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        },
    },
    Flag {
        name: "--trust-forwarded-for",
        takes: Takes::Switch,
        help: "the same for a proxy on this machine (127.0.0.0/8 and ::1)",
        set: |c, _, _| {
            c.trusted_proxies.extend(Cidr::loopback());
            Ok(())
        },
        // Folded into --trusted-proxy's list.
        get: |_| "false".to_owned(),
    },
    ranged!(
        "--ipv6-prefix",
        "an IPv6 client is its first N bits, for the per-address limits",
        address_key.ipv6_prefix,
        0..=128,
        std::convert::identity,
        clone
    ),
    number!(
        "--bot-budget",
        "the ismcts bot's iterations per move",
        bot_budget
    ),
    ranged!(
        "--bot-floor-ms",
        "a bot's move is sent no sooner than N ms after its turn began (0 to 10000)",
        bot_floor,
        0..=10_000,
        Duration::from_millis,
        as_millis
    ),
    ranged!(
        "--lobby-gap-ms",
        "changes to the lobby within N ms of its last frame go out together in the next (10 to 1000)",
        limits.lobby_gap,
        10..=1_000,
        Duration::from_millis,
        as_millis
    ),
    ranged!(
        "--live-every-ms",
        "the live list is made again every N ms (100 to 60000)",
        limits.live_every,
        100..=60_000,
        Duration::from_millis,
        as_millis
    ),
    number!(
        "--connections-per-ip",
        "open sockets (spectators', players', the lobby's) per client address",
        limits.connections_per_ip
    ),
    number!(
        "--sockets-per-seat",
        "open sockets of one seat",
        limits.sockets_per_seat
    ),
    number!(
        "--pending-per-ip",
        "connections per address waiting for a request",
        limits.pending_per_ip
    ),
    number!(
        "--connects-per-minute",
        "new connections per address a minute",
        limits.connects_per_minute
    ),
    secs!(
        "--header-timeout-secs",
        "a connection sending no request this long is closed",
        limits.header_timeout
    ),
    number!(
        "--max-connections",
        "connections at once, at most (never more than the open-file limit less 64)",
        limits.max_connections
    ),
    number!(
        "--requests-per-minute",
        "API requests per client address a minute",
        limits.requests_per_minute
    ),
    number!(
        "--requests-per-connection",
        "HTTP requests one connection may carry before it is closed",
        limits.requests_per_connection
    ),
    number!(
        "--pool-joins-per-minute",
        "pool joins of one player a minute",
        limits.pool_joins_per_minute
    ),
    number!(
        "--chat-lines-per-socket",
        "chat lines (and reports) one socket may send in 10 s",
        limits.chat_lines_per_socket
    ),
    number!(
        "--chat-lines-per-minute",
        "chat lines one player (or anonymous seat) may say a minute over all its games",
        limits.chat_lines_per_minute
    ),
    number!(
        "--pool-joins-per-ip-minute",
        "pool joins of all players at one client address a minute",
        limits.pool_joins_per_ip_minute
    ),
    number!(
        "--rated-per-pair-day",
        "rated games one pair of players may start in a day (more are unrated)",
        limits.rated_per_pair_day
    ),
    number!(
        "--rated-per-ip-day",
        "rated games one client address may take part in a day (more are unrated)",
        limits.rated_per_ip_day
    ),
    Flag {
        name: "--rated-one-address",
        takes: Takes::Switch,
        help: "two players at one address may play rated (a venue behind one address)",
        set: |c, _, _| {
            c.limits.rated_one_address = true;
            Ok(())
        },
        get: |c| c.limits.rated_one_address.to_string(),
    },
    number!(
        "--games-per-ip",
        "unfinished games per client address",
        limits.games_per_ip
    ),
    number!(
        "--games-per-hour",
        "games a client address may create in an hour",
        limits.games_per_hour
    ),
    number!(
        "--players-per-hour",
        "players a client address may register in an hour",
        limits.players_per_hour
    ),
    number!(
        "--seeks-per-ip",
        "open seeks of all players at one client address",
        limits.seeks_per_ip
    ),
    value(
        "--pool-bot-secs",
        "N",
        "a player alone in a pool this long plays a server bot (0: never)",
        |c, flag, v| {
            c.limits.pool_bot_after =
                Some(Duration::from_secs(number(flag, v)?)).filter(|d| !d.is_zero());
            Ok(())
        },
        |c| {
            c.limits
                .pool_bot_after
                .unwrap_or_default()
                .as_secs()
                .to_string()
        },
    ),
    value(
        "--retention-days",
        "N",
        "a finished game is deleted N days after it ended (0 keeps every game)",
        |c, flag, v| {
            let days: u64 = number(flag, v)?;
            c.limits.retention =
                Some(Duration::from_secs(days.saturating_mul(86_400))).filter(|d| !d.is_zero());
            Ok(())
        },
        |c| (c.limits.retention.unwrap_or_default().as_secs() / 86_400).to_string(),
    ),
    number!(
        "--default-move-limit",
        "plies without a challenge that draw, when a game's creator names none: it bounds a game's length",
        limits.default_move_limit
    ),
    number!(
        "--max-move-limit",
        "the longest move limit a creator may ask for (0 allows none, and games of any length)",
        limits.max_move_limit
    ),
    number!(
        "--messages-per-window",
        "messages a socket may send in 10 s",
        limits.messages_per_window
    ),
    secs!(
        "--ping-interval-secs",
        "how often the server pings a socket",
        limits.ping_interval
    ),
    secs!(
        "--idle-timeout-secs",
        "a socket that sends nothing (not even a pong) this long is closed with 1001; a pause of the server counts not",
        limits.idle_timeout
    ),
    secs!(
        "--abandon-grace-secs",
        "a seat away this long, its opponent present, loses",
        limits.abandon_grace
    ),
    secs!(
        "--setup-expiry-secs",
        "a game not started this long after its creation is deleted",
        limits.setup_expiry
    ),
];

/// Whether `name` may name a node: 1 to 32 of `a-z 0-9 _ -`.
#[must_use]
pub(crate) fn valid_node(name: &str) -> bool {
    (1..=32).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

/// The environment variable of `flag`: `--games-per-ip` is `SALPAKAN_GAMES_PER_IP`.
#[must_use]
pub(crate) fn env_name(flag: &str) -> String {
    format!(
        "SALPAKAN_{}",
        flag.trim_start_matches('-')
            .replace('-', "_")
            .to_ascii_uppercase()
    )
}

/// The top of `--help`: the command's forms.
const SYNOPSIS: &str = "\
salpakan-server: the arbiter server of Game of the Generals

usage: salpakan-server [FLAG...]                 serve (until SIGTERM or SIGINT)
       salpakan-server backup --db PATH --to PATH
                                                 an online, checked copy of a live database
       salpakan-server migrate --db PATH         bring a database's schema up to date
       salpakan-server export --db PATH --out FILE
                                                 the games their players agreed to share,
                                                 as JSON lines (never overwrites FILE)
       salpakan-server health [--addr ADDR]      exit 0 if the server at ADDR is ready

Every flag is also read from the environment: --games-per-ip is SALPAKAN_GAMES_PER_IP (a
switch takes 1 or 0, --trusted-proxy a list separated by commas); the command line wins.

";

/// Where a flag's help starts, and how wide `--help` is.
const HELP_AT: usize = 31;
const WIDTH: usize = 92;

/// The `--help` text: every flag of the table, its help, and its default.
#[must_use]
pub(crate) fn usage() -> String {
    let defaults = Config::default();
    let mut text = SYNOPSIS.to_owned();
    for flag in FLAGS {
        let head = match flag.takes {
            Takes::Value(arg) | Takes::List(arg) => format!("  {} {arg}", flag.name),
            Takes::Switch => format!("  {}", flag.name),
        };
        let default = (flag.get)(&defaults);
        let mut help = flag.help.to_owned();
        if matches!(flag.takes, Takes::Value(_)) && !default.is_empty() {
            help.push_str(&format!(" (default {default})"));
        }
        text.push_str(&wrapped(&head, &help));
    }
    text.push_str(&wrapped("  --help", "this text"));
    text
}

/// `head` and `help` beside it from [`HELP_AT`], wrapped at [`WIDTH`].
fn wrapped(head: &str, help: &str) -> String {
    let mut out = String::new();
    let mut line = format!("{head:<HELP_AT$}");
    if head.len() >= HELP_AT {
        line = format!("{head} ");
    }
    let mut empty = true;
    for word in help.split(' ') {
        if !empty && line.len() + 1 + word.len() > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = " ".repeat(HELP_AT);
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

impl Config {
    /// The settings from the environment (every flag's `SALPAKAN_*` variable, see
    /// `env_name`), then the command-line arguments (without the program's name), which
    /// win. `Ok(None)` for `--help`.
    ///
    /// ```
    /// use salpakan_server::Config;
    /// let env = |name: &str| (name == "SALPAKAN_GAMES_PER_IP").then(|| "3".to_owned());
    /// let args = ["--db".to_owned(), "games.db".to_owned()];
    /// let config = Config::from_args(args, env).unwrap().unwrap();
    /// assert_eq!((config.limits.games_per_ip, config.db.to_str()), (3, Some("games.db")));
    /// ```
    ///
    /// # Errors
    /// What is wrong with the arguments or the environment.
    pub fn from_args(
        args: impl IntoIterator<Item = String>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<Config>, ConfigError> {
        let mut config = Config::default();
        for flag in FLAGS {
            let name = env_name(flag.name);
            let Some(text) = env(&name) else { continue };
            let in_env = |error| ConfigError::Env {
                name: name.clone(),
                error: Box::new(error),
            };
            match flag.takes {
                Takes::Value(_) => (flag.set)(&mut config, flag.name, &text).map_err(in_env)?,
                Takes::List(_) => {
                    for item in text.split(',').map(str::trim).filter(|t| !t.is_empty()) {
                        (flag.set)(&mut config, flag.name, item).map_err(in_env)?;
                    }
                }
                Takes::Switch => match text.as_str() {
                    "1" | "true" | "yes" => (flag.set)(&mut config, flag.name, "")?,
                    "0" | "false" | "no" | "" => {}
                    other => return Err(in_env(ConfigError::Switch(other.to_owned()))),
                },
            }
        }
        let mut args = args.into_iter();
        while let Some(given) = args.next() {
            if given == "--help" || given == "-h" {
                return Ok(None);
            }
            let Some(flag) = FLAGS.iter().find(|f| f.name == given) else {
                return Err(ConfigError::Unknown(given));
            };
            let value = match flag.takes {
                Takes::Switch => String::new(),
                Takes::Value(_) | Takes::List(_) => args
                    .next()
                    .ok_or_else(|| ConfigError::MissingValue(given.clone()))?,
            };
            (flag.set)(&mut config, flag.name, &value)?;
        }
        Ok(Some(config))
    }

    /// Every flag with its effective value, as the command line would give it (a switch
    /// `true` or `false`, a list its values joined by commas, an unset value empty): what
    /// the server logs at start. Nothing in it is secret.
    #[must_use]
    pub(crate) fn settings(&self) -> Vec<(&'static str, String)> {
        FLAGS
            .iter()
            .map(|flag| (flag.name, (flag.get)(self)))
            .collect()
    }
}

/// A database URL with its password (`user:PASSWORD@`, `password=PASSWORD`) written as
/// `***`: what the log may show of it. A path is itself.
#[must_use]
pub(crate) fn without_password(db: &str) -> String {
    let mut shown = db.to_owned();
    if let Some(scheme) = shown.find("://") {
        let rest = scheme + 3;
        if let Some(at) = shown[rest..].find('@').map(|i| i + rest)
            && let Some(colon) = shown[rest..at].find(':').map(|i| i + rest)
        {
            shown.replace_range(colon + 1..at, "***");
        }
    }
    if let Some(start) = shown.find("password=").map(|i| i + "password=".len()) {
        let end = shown[start..].find('&').map_or(shown.len(), |i| i + start);
        shown.replace_range(start..end, "***");
    }
    shown
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

/// A number of `range`, or the error naming `flag`.
fn within<T: std::str::FromStr + PartialOrd>(
    flag: &str,
    text: &str,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, ConfigError> {
    let n: T = number(flag, text)?;
    if range.contains(&n) {
        Ok(n)
    } else {
        Err(ConfigError::Number {
            flag: flag.to_owned(),
            value: text.to_owned(),
        })
    }
}
