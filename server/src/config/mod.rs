//! The server's settings: where it listens, its database, and its limits, from the command
//! line and the environment.

use std::net::{IpAddr, SocketAddr};
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
    /// Not an address block (`ADDR/PREFIX`).
    #[error("not an address block (ADDR/PREFIX): {0}")]
    Cidr(String),
    /// `--log-format` other than `text` or `json`.
    #[error("--log-format text or json, not {0}")]
    LogFormat(String),
    /// `--node` other than 1 to 32 of `a-z 0-9 _ -`.
    #[error("--node takes 1 to 32 of a-z 0-9 _ -, not {0:?}")]
    Node(String),
    /// `--public-url` that is not an `http://` or `https://` URL without a query.
    #[error("--public-url takes http://HOST:PORT (or https://), not {0:?}")]
    PublicUrl(String),
    /// A switch's environment variable that is neither on (`1`, `true`, `yes`) nor off
    /// (`0`, `false`, `no`, empty).
    #[error("1 or 0, not {0}")]
    Switch(String),
    /// What is wrong with an environment variable.
    #[error("{name}: {error}")]
    Env {
        /// The variable.
        name: String,
        /// What is wrong with its value.
        error: Box<ConfigError>,
    },
}

pub use crate::telemetry::LogFormat;

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
    /// Open spectators' sockets per client address; one more is refused with 429 before the
    /// upgrade. (A seat's sockets never count here: another client at the same address
    /// cannot keep a seat out.)
    pub connections_per_ip: usize,
    /// Open sockets of one seat; one more is refused with 429.
    pub sockets_per_seat: usize,
    /// Sockets a seat may open in a minute (its reconnects); one more is refused with 429.
    pub seat_connects_per_minute: usize,
    /// Connections per client address still in HTTP (no request yet, or between requests);
    /// one more is closed at once.
    pub pending_per_ip: usize,
    /// New connections per client address in a minute; one more is closed at once.
    pub connects_per_minute: usize,
    /// A connection that sends no complete request head for this long (on arrival, or
    /// between requests) is closed.
    pub header_timeout: Duration,
    /// The most connections held at once (also never more than the open-file limit less
    /// [`Limits::reserved_files`]).
    pub max_connections: usize,
    /// Descriptors kept back from connections, for the database, the page's files and the
    /// listener.
    pub reserved_files: usize,
    /// Games a client address may create in an hour (finished or not).
    pub games_per_hour: usize,
    /// How long a finished game is kept (its summary, record and events) after it ended;
    /// `None` keeps every game.
    pub retention: Option<Duration>,
    /// The move limit of a game whose creator names none (plies without a challenge that
    /// draw): it bounds every game's length.
    pub default_move_limit: u16,
    /// The longest move limit a creator may ask for; 0 lets a creator ask for none (and
    /// games of any length).
    pub max_move_limit: u16,
    /// Unfinished games a client address may have created; one more is refused with 429.
    pub games_per_ip: usize,
    /// How often the server pings a socket.
    pub ping_interval: Duration,
    /// A socket that sends nothing (not even a pong) for this long is closed with 1001.
    pub idle_timeout: Duration,
    /// A seat with no socket for this long, while its opponent has one, loses the game by
    /// abandonment.
    pub abandon_grace: Duration,
    /// A game whose invite was never used this long after it was created is deleted: its
    /// links then answer as for an unknown game, and its sockets close with 4410. (Once both
    /// seats are taken, the game's own setup time applies instead: a side that misses it
    /// aborts the game.)
    pub setup_expiry: Duration,
    /// Players a client address may register in an hour.
    pub players_per_hour: usize,
    /// Open seeks a player may have (the contract's 3).
    pub seeks_per_player: usize,
    /// Open seeks of all players at one client address.
    pub seeks_per_ip: usize,
    /// Open player sockets of one player.
    pub sockets_per_player: usize,
    /// Open lobby sockets, all addresses together (each address's also count in
    /// `connections_per_ip`).
    pub lobby_sockets: usize,
    /// The most seeks the lobby lists (the oldest first); more stay open and can be
    /// accepted, but are not shown until older ones go.
    pub lobby_shown: usize,
    /// How long a player waits in a pool before a server bot takes the other seat (the bot
    /// whose rating is closest); `None`: it waits for a person only.
    pub pool_bot_after: Option<Duration>,
    /// The least time between two lobby frames: changes within it are sent together.
    pub lobby_gap: Duration,
    /// How often the lobby frame's count of games in play is brought up to date (a seek's
    /// coming or going is sent at once).
    pub lobby_playing_every: Duration,
    /// The shortest setup time a game may ask for (the contract's 10 s; a test may shorten
    /// it).
    pub min_setup: Duration,
    /// Frames waiting to be sent to one socket; a socket that falls further behind is
    /// closed with 1008.
    pub outbox: usize,
    /// The longest a frame may take to be written to a socket; a client that reads nothing
    /// for longer is closed with 1008, its slot freed.
    pub write_timeout: Duration,
    /// The least time between two changes of one seat's presence told to everyone (a
    /// change sooner waits, and only the seat's presence then is told).
    pub presence_gap: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_frame_bytes: 4096,
            messages_per_window: 200,
            window: Duration::from_secs(10),
            connections_per_ip: 32,
            sockets_per_seat: 4,
            seat_connects_per_minute: 30,
            pending_per_ip: 16,
            connects_per_minute: 240,
            header_timeout: Duration::from_secs(10),
            max_connections: 20_000,
            reserved_files: 64,
            games_per_hour: 120,
            retention: Some(Duration::from_secs(30 * 24 * 60 * 60)),
            default_move_limit: 200,
            max_move_limit: 1_000,
            games_per_ip: 16,
            ping_interval: Duration::from_secs(20),
            idle_timeout: Duration::from_secs(60),
            abandon_grace: Duration::from_secs(60),
            setup_expiry: Duration::from_secs(24 * 60 * 60),
            min_setup: Duration::from_secs(10),
            players_per_hour: 20,
            seeks_per_player: 3,
            seeks_per_ip: 12,
            sockets_per_player: 4,
            lobby_sockets: 10_000,
            lobby_shown: 100,
            lobby_gap: Duration::from_millis(100),
            lobby_playing_every: Duration::from_secs(1),
            pool_bot_after: Some(Duration::from_secs(30)),
            outbox: 512,
            write_timeout: Duration::from_secs(10),
            presence_gap: Duration::from_secs(1),
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
    /// The proxies whose `X-Forwarded-For` is believed: for a connection from one of them,
    /// the client's address is the last entry of that header, not the connection's. Empty
    /// (the default): the header is never read.
    pub trusted_proxies: Vec<Cidr>,
    /// How client addresses are grouped for the per-address limits (an IPv6 client holds a
    /// whole prefix).
    pub address_key: AddressKey,
    /// The server's Ismcts bot's budget in iterations per move.
    pub bot_budget: u32,
    /// The least time between a bot's turn and its move (`--bot-floor-ms`): a move found
    /// sooner waits, so how long a bot thought tells nothing of its hidden ranks.
    pub bot_floor: Duration,
    /// The log's format.
    pub log_format: LogFormat,
    /// Where `/metrics` and the admin routes are served (`None`: nowhere).
    pub metrics_addr: Option<SocketAddr>,
    /// This node's name among the nodes sharing a PostgreSQL database (`--node`; default
    /// `main`). Names nothing on SQLite.
    pub node: String,
    /// Where the other nodes reach this one (`--public-url`; default `http://` and the
    /// listening address, a loopback one when it listens on every address).
    pub public_url: Option<String>,
    /// How long a node owns its games without renewing its lease (`--lease-secs`): a node
    /// silent this long has its games taken over by the others.
    pub lease: Duration,
    /// The limits.
    pub limits: Limits,
}

/// A bot's move is sent no sooner than this after its turn began, unless told otherwise.
pub const DEFAULT_BOT_FLOOR_MS: u64 = 500;

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: PathBuf::from("salpakan.db"),
            static_dir: None,
            durability: Durability::Full,
            trusted_proxies: Vec::new(),
            address_key: AddressKey::default(),
            bot_budget: 2_000,
            bot_floor: Duration::from_millis(DEFAULT_BOT_FLOOR_MS),
            log_format: LogFormat::Text,
            metrics_addr: None,
            node: "main".to_owned(),
            public_url: None,
            lease: Duration::from_secs(10),
            limits: Limits::default(),
        }
    }
}

/// A block of addresses, `ADDR/PREFIX` (a lone address is its own block).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    addr: IpAddr,
    prefix: u8,
}

impl Cidr {
    /// Whether `ip` is in the block.
    #[must_use]
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.addr, ip) {
            (IpAddr::V4(block), IpAddr::V4(ip)) => {
                mask_v4(u32::from(block), self.prefix) == mask_v4(u32::from(ip), self.prefix)
            }
            (IpAddr::V6(block), IpAddr::V6(ip)) => {
                mask_v6(u128::from(block), self.prefix) == mask_v6(u128::from(ip), self.prefix)
            }
            _ => false,
        }
    }

    /// The loopback blocks, `127.0.0.0/8` and `::1/128`.
    #[must_use]
    pub fn loopback() -> [Cidr; 2] {
        [
            Cidr {
                addr: IpAddr::from([127, 0, 0, 0]),
                prefix: 8,
            },
            Cidr {
                addr: IpAddr::from(std::net::Ipv6Addr::LOCALHOST),
                prefix: 128,
            },
        ]
    }
}

impl std::fmt::Display for Cidr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.addr, self.prefix)
    }
}

impl std::str::FromStr for Cidr {
    type Err = ConfigError;

    fn from_str(text: &str) -> Result<Cidr, ConfigError> {
        let bad = || ConfigError::Cidr(text.to_owned());
        let (addr, prefix) = text.split_once('/').unwrap_or((text, ""));
        let addr: IpAddr = addr.parse().map_err(|_| bad())?;
        let most = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = if prefix.is_empty() {
            most
        } else {
            prefix.parse().ok().filter(|&p| p <= most).ok_or_else(bad)?
        };
        Ok(Cidr { addr, prefix })
    }
}

fn mask_v4(bits: u32, prefix: u8) -> u32 {
    bits.checked_shr(32 - u32::from(prefix)).unwrap_or(0)
}

fn mask_v6(bits: u128, prefix: u8) -> u128 {
    bits.checked_shr(128 - u32::from(prefix)).unwrap_or(0)
}

/// How client addresses are grouped for the per-address limits: an IPv4 address alone, an
/// IPv6 address by its first `ipv6_prefix` bits (64 by default: one client's network holds
/// 2^64 addresses).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AddressKey {
    /// The bits of an IPv6 address that name its client.
    pub ipv6_prefix: u8,
}

impl Default for AddressKey {
    fn default() -> AddressKey {
        AddressKey { ipv6_prefix: 64 }
    }
}

impl AddressKey {
    /// The key the per-address limits count `ip` under.
    #[must_use]
    pub fn of(self, ip: IpAddr) -> IpAddr {
        match ip {
            IpAddr::V4(_) => ip,
            IpAddr::V6(v6) => {
                let keep = u32::from(self.ipv6_prefix.min(128));
                let bits = u128::from(v6);
                let masked = bits
                    .checked_shr(128 - keep)
                    .and_then(|b| b.checked_shl(128 - keep))
                    .unwrap_or(0);
                IpAddr::from(std::net::Ipv6Addr::from(masked))
            }
        }
    }
}

/// What a flag takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Takes {
    /// A value (`--flag VALUE`; in the environment, the value).
    Value,
    /// Nothing (`--flag`; in the environment, `1`/`true` or `0`/`false`).
    Switch,
    /// A value, repeatable (in the environment, the values separated by commas).
    List,
}

/// Every flag of the server, in the order `--help` lists them; each is also read from the
/// environment as `SALPAKAN_` and its name in capitals with `_` for `-` ([`env_name`]).
const FLAGS: &[(&str, Takes)] = &[
    ("--addr", Takes::Value),
    ("--db", Takes::Value),
    ("--static", Takes::Value),
    ("--durability", Takes::Value),
    ("--log-format", Takes::Value),
    ("--metrics-addr", Takes::Value),
    ("--node", Takes::Value),
    ("--public-url", Takes::Value),
    ("--lease-secs", Takes::Value),
    ("--trusted-proxy", Takes::List),
    ("--trust-forwarded-for", Takes::Switch),
    ("--ipv6-prefix", Takes::Value),
    ("--bot-budget", Takes::Value),
    ("--bot-floor-ms", Takes::Value),
    ("--connections-per-ip", Takes::Value),
    ("--sockets-per-seat", Takes::Value),
    ("--pending-per-ip", Takes::Value),
    ("--connects-per-minute", Takes::Value),
    ("--header-timeout-secs", Takes::Value),
    ("--max-connections", Takes::Value),
    ("--games-per-ip", Takes::Value),
    ("--games-per-hour", Takes::Value),
    ("--players-per-hour", Takes::Value),
    ("--seeks-per-ip", Takes::Value),
    ("--pool-bot-secs", Takes::Value),
    ("--retention-days", Takes::Value),
    ("--default-move-limit", Takes::Value),
    ("--max-move-limit", Takes::Value),
    ("--messages-per-window", Takes::Value),
    ("--abandon-grace-secs", Takes::Value),
    ("--setup-expiry-secs", Takes::Value),
];

/// Whether `name` may name a node: 1 to 32 of `a-z 0-9 _ -`.
#[must_use]
pub fn valid_node(name: &str) -> bool {
    (1..=32).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

impl Config {
    /// Where the other nodes reach this one, `--public-url` or what `addr` (the address
    /// bound) gives.
    #[must_use]
    pub fn public_url_for(&self, addr: SocketAddr) -> String {
        if let Some(url) = &self.public_url {
            return url.clone();
        }
        let ip = match addr.ip() {
            std::net::IpAddr::V4(ip) if ip.is_unspecified() => {
                std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST)
            }
            std::net::IpAddr::V6(ip) if ip.is_unspecified() => {
                std::net::IpAddr::V6(std::net::Ipv6Addr::LOCALHOST)
            }
            ip => ip,
        };
        format!("http://{}", SocketAddr::new(ip, addr.port()))
    }
}

/// The environment variable of `flag`: `--games-per-ip` is `SALPAKAN_GAMES_PER_IP`.
#[must_use]
pub fn env_name(flag: &str) -> String {
    format!(
        "SALPAKAN_{}",
        flag.trim_start_matches('-')
            .replace('-', "_")
            .to_ascii_uppercase()
    )
}

/// The `--help` text.
pub const USAGE: &str = "\
salpakan-server: the arbiter server of Game of the Generals

usage: salpakan-server [FLAG...]                 serve (until SIGTERM or SIGINT)
       salpakan-server backup --db PATH --to PATH
                                                 an online, checked copy of a live database
       salpakan-server migrate --db PATH         bring a database's schema up to date
       salpakan-server health [--addr ADDR]      exit 0 if the server at ADDR is ready

Every flag is also read from the environment: --games-per-ip is SALPAKAN_GAMES_PER_IP (a
switch takes 1 or 0, --trusted-proxy a list separated by commas); the command line wins.

  --addr ADDR                  listen on ADDR (default 127.0.0.1:8080)
  --db PATH                    the SQLite database, created if missing (default
                               ./salpakan.db)
  --static DIR                 serve the page's files from DIR at /
  --durability full|normal     full (default): a commit survives a power cut; normal: it
                               survives a crash of the server, not of the machine
  --log-format text|json       the log's format on standard error (default text; RUST_LOG
                               filters it, default info)
  --metrics-addr ADDR          serve Prometheus text at /metrics, and the admin routes, on
                               ADDR only (default: off; keep it on loopback)
  --node NAME                  this node's name among the servers sharing one PostgreSQL
                               database (default main; 1 to 32 of a-z 0-9 _ -)
  --public-url URL             where the other nodes reach this one (default http:// and
                               the address listened on; loopback for an unspecified one)
  --lease-secs N               a node silent this long has its games taken over by the
                               others (default 10; 2 to 600)
  --trusted-proxy CIDR         believe X-Forwarded-For on connections from CIDR (a proxy
                               that sets it; repeat for more); otherwise it is never read
  --trust-forwarded-for        the same for a proxy on this machine (127.0.0.0/8 and ::1)
  --ipv6-prefix N              an IPv6 client is its first N bits, for the per-address
                               limits (default 64)
  --bot-budget N               the ismcts bot's iterations per move (default 2000)
  --bot-floor-ms N             a bot's move is sent no sooner than N ms after its turn
                               began (default 500; 0 to 10000)
  --connections-per-ip N       open spectators' sockets per client address (default 32)
  --sockets-per-seat N         open sockets of one seat (default 4)
  --pending-per-ip N           connections per address waiting for a request (default 16)
  --connects-per-minute N      new connections per address a minute (default 240)
  --header-timeout-secs N      a connection sending no request this long is closed
                               (default 10)
  --max-connections N          connections at once, at most (default 20000; never more
                               than the open-file limit less 64)
  --games-per-ip N             unfinished games per client address (default 16)
  --games-per-hour N           games a client address may create in an hour (default 120)
  --players-per-hour N         players a client address may register in an hour (default 20)
  --seeks-per-ip N             open seeks of all players at one client address (default 12)
  --pool-bot-secs N            a player alone in a pool this long plays a server bot (default
                               30; 0: never)
  --retention-days N           a finished game is deleted N days after it ended (default
                               30; 0 keeps every game)
  --default-move-limit N       plies without a challenge that draw, when a game's creator
                               names none (default 200): it bounds a game's length
  --max-move-limit N           the longest move limit a creator may ask for (default 1000;
                               0 allows none, and games of any length)
  --messages-per-window N      messages a socket may send in 10 s (default 200)
  --abandon-grace-secs N       a seat away this long, its opponent present, loses (default 60)
  --setup-expiry-secs N        a game not started this long after its creation is deleted
                               (default 86400, a day)
  --help                       this text
";

impl Config {
    /// The settings from the environment (every flag's `SALPAKAN_*` variable, see
    /// [`env_name`]), then the command-line arguments (without the program's name), which
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
        for &(flag, takes) in FLAGS {
            let name = env_name(flag);
            let Some(text) = env(&name) else { continue };
            let in_env = |error| ConfigError::Env {
                name: name.clone(),
                error: Box::new(error),
            };
            match takes {
                Takes::Value => config.set(flag, &text).map_err(in_env)?,
                Takes::List => {
                    for item in text.split(',').map(str::trim).filter(|t| !t.is_empty()) {
                        config.set(flag, item).map_err(in_env)?;
                    }
                }
                Takes::Switch => match text.as_str() {
                    "1" | "true" | "yes" => config.set(flag, "")?,
                    "0" | "false" | "no" | "" => {}
                    other => return Err(in_env(ConfigError::Switch(other.to_owned()))),
                },
            }
        }
        let mut args = args.into_iter();
        while let Some(flag) = args.next() {
            if flag == "--help" || flag == "-h" {
                return Ok(None);
            }
            let Some(&(known, takes)) = FLAGS.iter().find(|(f, _)| *f == flag) else {
                return Err(ConfigError::Unknown(flag));
            };
            let value = match takes {
                Takes::Switch => String::new(),
                Takes::Value | Takes::List => args
                    .next()
                    .ok_or_else(|| ConfigError::MissingValue(flag.clone()))?,
            };
            config.set(known, &value)?;
        }
        Ok(Some(config))
    }

    /// Sets what `flag` (one of [`FLAGS`]) sets, to `value` (empty for a switch).
    fn set(&mut self, flag: &str, value: &str) -> Result<(), ConfigError> {
        let secs = |value: &str| number(flag, value).map(Duration::from_secs);
        let limits = &mut self.limits;
        match flag {
            "--addr" => self.addr = parse_addr(value)?,
            "--db" => self.db = PathBuf::from(value),
            "--static" => self.static_dir = Some(PathBuf::from(value)),
            "--durability" => {
                self.durability = match value {
                    "full" => Durability::Full,
                    "normal" => Durability::Normal,
                    other => return Err(ConfigError::Durability(other.to_owned())),
                }
            }
            "--log-format" => {
                self.log_format = match value {
                    "text" => LogFormat::Text,
                    "json" => LogFormat::Json,
                    other => return Err(ConfigError::LogFormat(other.to_owned())),
                }
            }
            "--metrics-addr" => self.metrics_addr = Some(parse_addr(value)?),
            "--node" => {
                if !valid_node(value) {
                    return Err(ConfigError::Node(value.to_owned()));
                }
                value.clone_into(&mut self.node);
            }
            "--public-url" => {
                if !(value.starts_with("http://") || value.starts_with("https://"))
                    || value.contains(['?', '#', ' '])
                {
                    return Err(ConfigError::PublicUrl(value.to_owned()));
                }
                self.public_url = Some(value.trim_end_matches('/').to_owned());
            }
            "--lease-secs" => {
                let lease: u64 = number(flag, value)?;
                if !(2..=600).contains(&lease) {
                    return Err(ConfigError::Number {
                        flag: flag.to_owned(),
                        value: value.to_owned(),
                    });
                }
                self.lease = Duration::from_secs(lease);
            }
            "--trust-forwarded-for" => self.trusted_proxies.extend(Cidr::loopback()),
            "--trusted-proxy" => self.trusted_proxies.push(value.parse()?),
            "--ipv6-prefix" => {
                let prefix: u8 = number(flag, value)?;
                if prefix > 128 {
                    return Err(ConfigError::Number {
                        flag: flag.to_owned(),
                        value: value.to_owned(),
                    });
                }
                self.address_key.ipv6_prefix = prefix;
            }
            "--bot-budget" => self.bot_budget = number(flag, value)?,
            "--bot-floor-ms" => {
                let ms: u64 = number(flag, value)?;
                if ms > 10_000 {
                    return Err(ConfigError::Number {
                        flag: flag.to_owned(),
                        value: value.to_owned(),
                    });
                }
                self.bot_floor = Duration::from_millis(ms);
            }
            "--connections-per-ip" => limits.connections_per_ip = number(flag, value)?,
            "--sockets-per-seat" => limits.sockets_per_seat = number(flag, value)?,
            "--pending-per-ip" => limits.pending_per_ip = number(flag, value)?,
            "--connects-per-minute" => limits.connects_per_minute = number(flag, value)?,
            "--header-timeout-secs" => limits.header_timeout = secs(value)?,
            "--max-connections" => limits.max_connections = number(flag, value)?,
            "--games-per-ip" => limits.games_per_ip = number(flag, value)?,
            "--games-per-hour" => limits.games_per_hour = number(flag, value)?,
            "--players-per-hour" => limits.players_per_hour = number(flag, value)?,
            "--seeks-per-ip" => limits.seeks_per_ip = number(flag, value)?,
            "--pool-bot-secs" => {
                limits.pool_bot_after = Some(secs(value)?).filter(|d| !d.is_zero());
            }
            "--retention-days" => {
                let days: u64 = number(flag, value)?;
                limits.retention =
                    Some(Duration::from_secs(days.saturating_mul(86_400))).filter(|d| !d.is_zero());
            }
            "--default-move-limit" => limits.default_move_limit = number(flag, value)?,
            "--max-move-limit" => limits.max_move_limit = number(flag, value)?,
            "--messages-per-window" => limits.messages_per_window = number(flag, value)?,
            "--abandon-grace-secs" => limits.abandon_grace = secs(value)?,
            "--setup-expiry-secs" => limits.setup_expiry = secs(value)?,
            other => return Err(ConfigError::Unknown(other.to_owned())),
        }
        Ok(())
    }

    /// Every flag with its effective value, as the command line would give it (a switch
    /// `true` or `false`, a list its values joined by commas, an unset value empty): what
    /// the server logs at start. Nothing in it is secret.
    #[must_use]
    pub fn settings(&self) -> Vec<(&'static str, String)> {
        let limits = &self.limits;
        let secs = |d: Duration| d.as_secs().to_string();
        FLAGS
            .iter()
            .map(|&(flag, _)| {
                let value = match flag {
                    "--addr" => self.addr.to_string(),
                    "--db" => without_password(&self.db.display().to_string()),
                    "--static" => self
                        .static_dir
                        .as_ref()
                        .map(|d| d.display().to_string())
                        .unwrap_or_default(),
                    "--durability" => match self.durability {
                        Durability::Full => "full".to_owned(),
                        Durability::Normal => "normal".to_owned(),
                    },
                    "--log-format" => match self.log_format {
                        LogFormat::Text => "text".to_owned(),
                        LogFormat::Json => "json".to_owned(),
                    },
                    "--metrics-addr" => {
                        self.metrics_addr.map(|a| a.to_string()).unwrap_or_default()
                    }
                    "--node" => self.node.clone(),
                    "--public-url" => self.public_url.clone().unwrap_or_default(),
                    "--lease-secs" => secs(self.lease),
                    "--trusted-proxy" => self
                        .trusted_proxies
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(","),
                    // Folded into --trusted-proxy's list.
                    "--trust-forwarded-for" => "false".to_owned(),
                    "--ipv6-prefix" => self.address_key.ipv6_prefix.to_string(),
                    "--bot-budget" => self.bot_budget.to_string(),
                    "--bot-floor-ms" => self.bot_floor.as_millis().to_string(),
                    "--connections-per-ip" => limits.connections_per_ip.to_string(),
                    "--sockets-per-seat" => limits.sockets_per_seat.to_string(),
                    "--pending-per-ip" => limits.pending_per_ip.to_string(),
                    "--connects-per-minute" => limits.connects_per_minute.to_string(),
                    "--header-timeout-secs" => secs(limits.header_timeout),
                    "--max-connections" => limits.max_connections.to_string(),
                    "--games-per-ip" => limits.games_per_ip.to_string(),
                    "--games-per-hour" => limits.games_per_hour.to_string(),
                    "--players-per-hour" => limits.players_per_hour.to_string(),
                    "--seeks-per-ip" => limits.seeks_per_ip.to_string(),
                    "--pool-bot-secs" => secs(limits.pool_bot_after.unwrap_or_default()),
                    "--retention-days" => {
                        (limits.retention.unwrap_or_default().as_secs() / 86_400).to_string()
                    }
                    "--default-move-limit" => limits.default_move_limit.to_string(),
                    "--max-move-limit" => limits.max_move_limit.to_string(),
                    "--messages-per-window" => limits.messages_per_window.to_string(),
                    "--abandon-grace-secs" => secs(limits.abandon_grace),
                    "--setup-expiry-secs" => secs(limits.setup_expiry),
                    _ => String::new(),
                };
                (flag, value)
            })
            .collect()
    }
}

/// A database URL with its password (`user:PASSWORD@`, `password=PASSWORD`) written as
/// `***`: what the log may show of it. A path is itself.
#[must_use]
pub fn without_password(db: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_node_s_name_url_and_lease_are_checked() {
        let config = Config::from_args(
            args(&[
                "--node",
                "eu-1_b",
                "--public-url",
                "http://10.0.0.7:8080/",
                "--lease-secs",
                "4",
            ]),
            |_| None,
        )
        .unwrap()
        .unwrap();
        assert_eq!(config.node, "eu-1_b");
        assert_eq!(config.public_url.as_deref(), Some("http://10.0.0.7:8080"));
        assert_eq!(config.lease, Duration::from_secs(4));
        let floor = Config::from_args(args(&["--bot-floor-ms", "250"]), |_| None)
            .unwrap()
            .unwrap();
        assert_eq!(floor.bot_floor, Duration::from_millis(250));
        assert_eq!(Config::default().bot_floor, Duration::from_millis(500));
        let bound: SocketAddr = "0.0.0.0:9000".parse().unwrap();
        assert_eq!(config.public_url_for(bound), "http://10.0.0.7:8080");
        // Without --public-url: the address bound, loopback for an unspecified one.
        let default = Config::default();
        assert_eq!(default.node, "main");
        assert_eq!(default.public_url_for(bound), "http://127.0.0.1:9000");
        let v6: SocketAddr = "[::]:9000".parse().unwrap();
        assert_eq!(default.public_url_for(v6), "http://[::1]:9000");
        let at: SocketAddr = "192.0.2.4:81".parse().unwrap();
        assert_eq!(default.public_url_for(at), "http://192.0.2.4:81");
        for (flag, bad) in [
            ("--node", ""),
            ("--node", "Upper"),
            ("--node", "a'b"),
            ("--node", &"x".repeat(33)),
            ("--public-url", "10.0.0.7:8080"),
            ("--public-url", "http://h/?q=1"),
            ("--lease-secs", "1"),
            ("--lease-secs", "601"),
            ("--bot-floor-ms", "10001"),
            ("--bot-floor-ms", "-1"),
        ] {
            let refused = Config::from_args(args(&[flag, bad]), |_| None);
            assert!(refused.is_err(), "{flag} {bad}");
        }
    }

    #[test]
    fn address_blocks_and_keys() {
        let block: Cidr = "10.1.0.0/16".parse().unwrap();
        assert!(block.contains("10.1.200.3".parse().unwrap()));
        assert!(!block.contains("10.2.0.1".parse().unwrap()));
        assert!(!block.contains("::1".parse().unwrap()));
        let one: Cidr = "2001:db8::7".parse().unwrap();
        assert!(one.contains("2001:db8::7".parse().unwrap()));
        assert!(!one.contains("2001:db8::8".parse().unwrap()));
        let all: Cidr = "0.0.0.0/0".parse().unwrap();
        assert!(all.contains("192.0.2.1".parse().unwrap()));
        for bad in ["10.0.0.0/33", "nowhere", "::/129", "10.0.0.0/x"] {
            assert!(bad.parse::<Cidr>().is_err(), "{bad}");
        }
        assert!(
            Cidr::loopback()
                .iter()
                .any(|c| c.contains("127.9.9.9".parse().unwrap()))
        );
        // An IPv6 client is its /64: 2^64 addresses are one client.
        let key = AddressKey::default();
        let a = key.of("2001:db8:1:2:aaaa::1".parse().unwrap());
        let b = key.of("2001:db8:1:2:ffff:ffff:ffff:ffff".parse().unwrap());
        assert_eq!(a, b);
        assert_ne!(a, key.of("2001:db8:1:3::1".parse().unwrap()));
        assert_eq!(
            key.of("192.0.2.1".parse().unwrap()),
            "192.0.2.1".parse::<IpAddr>().unwrap()
        );
        let whole = AddressKey { ipv6_prefix: 128 };
        assert_ne!(
            whole.of("2001:db8::1".parse().unwrap()),
            whole.of("2001:db8::2".parse().unwrap())
        );
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
                "--trusted-proxy",
                "10.0.0.0/8",
                "--ipv6-prefix",
                "56",
                "--max-move-limit",
                "0",
            ]),
            |name| match name {
                "SALPAKAN_ADDR" => Some("127.0.0.1:9000".to_owned()),
                // The command line wins.
                "SALPAKAN_DB" => Some("env.db".to_owned()),
                "SALPAKAN_BOT_BUDGET" => Some("77".to_owned()),
                "SALPAKAN_TRUSTED_PROXY" => Some("192.0.2.0/24, 198.51.100.7".to_owned()),
                "SALPAKAN_LOG_FORMAT" => Some("json".to_owned()),
                "SALPAKAN_TRUST_FORWARDED_FOR" => Some("0".to_owned()),
                _ => None,
            },
        )
        .unwrap()
        .unwrap();
        assert_eq!(config.addr.port(), 9000);
        assert_eq!(config.db, PathBuf::from("x.db"));
        assert_eq!(config.limits.games_per_ip, 3);
        assert_eq!(config.durability, Durability::Normal);
        assert_eq!(config.limits.setup_expiry, Duration::from_secs(3600));
        assert_eq!(config.bot_budget, 77);
        assert_eq!(config.log_format, LogFormat::Json);
        let proxies: Vec<Cidr> = ["192.0.2.0/24", "198.51.100.7", "10.0.0.0/8"]
            .iter()
            .map(|c| c.parse().unwrap())
            .collect();
        assert_eq!(config.trusted_proxies, proxies);
        assert_eq!(config.address_key.ipv6_prefix, 56);
        assert_eq!(config.limits.max_move_limit, 0);
        assert_eq!(Config::from_args(args(&["--help"]), |_| None), Ok(None));
        for bad in [
            &["--addr"][..],
            &["--addr", "nowhere"],
            &["--bot-budget", "x"],
            &["--setup-expiry-secs", "-1"],
            &["--trusted-proxy", "10.0.0.0/40"],
            &["--ipv6-prefix", "129"],
            &["--fly"],
        ] {
            assert!(Config::from_args(args(bad), |_| None).is_err(), "{bad:?}");
        }
        for (name, value) in [
            ("SALPAKAN_GAMES_PER_IP", "many"),
            ("SALPAKAN_TRUST_FORWARDED_FOR", "maybe"),
            ("SALPAKAN_METRICS_ADDR", "loopback"),
        ] {
            let error = Config::from_args(args(&[]), |n| (n == name).then(|| value.to_owned()));
            let Err(ConfigError::Env { name: said, .. }) = error else {
                panic!("{name}={value}: {error:?}");
            };
            assert_eq!(said, name);
        }
        let on = |n: &str| (n == "SALPAKAN_TRUST_FORWARDED_FOR").then(|| "1".to_owned());
        let config = Config::from_args(args(&[]), on).unwrap().unwrap();
        assert_eq!(config.trusted_proxies, Cidr::loopback().to_vec());
    }

    #[test]
    fn a_database_urls_password_is_never_shown() {
        assert_eq!(
            without_password("postgres://salpakan:hunter2@db:5432/games"),
            "postgres://salpakan:***@db:5432/games"
        );
        assert_eq!(
            without_password("postgresql:///games?host=/run&password=hunter2&user=s"),
            "postgresql:///games?host=/run&password=***&user=s"
        );
        assert_eq!(
            without_password("postgres://db/games"),
            "postgres://db/games"
        );
        assert_eq!(
            without_password("/var/lib/salpakan/games.db"),
            "/var/lib/salpakan/games.db"
        );
    }

    /// Every flag is in `--help`, has its variable, and the settings logged at start give
    /// back the same configuration, through the command line and through the environment.
    #[test]
    fn every_flag_is_documented_read_from_the_environment_and_logged_faithfully() {
        let mut listed: Vec<&str> = USAGE
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("--"))
            .filter_map(|l| l.split_whitespace().next())
            .filter(|f| *f != "help")
            .collect();
        listed.dedup();
        let flags: Vec<&str> = FLAGS.iter().map(|(f, _)| &f[2..]).collect();
        assert_eq!(listed, flags);
        let mut config = Config::from_args(
            args(&[
                "--static",
                "web",
                "--metrics-addr",
                "127.0.0.1:9090",
                "--trusted-proxy",
                "10.0.0.0/8",
                "--trust-forwarded-for",
                "--pool-bot-secs",
                "0",
                "--retention-days",
                "7",
                "--durability",
                "normal",
            ]),
            |_| None,
        )
        .unwrap()
        .unwrap();
        config.limits.games_per_ip = 5;
        let settings = config.settings();
        assert_eq!(settings.len(), FLAGS.len());
        let mut line = Vec::new();
        for (flag, value) in &settings {
            let takes = FLAGS.iter().find(|(f, _)| f == flag).unwrap().1;
            match takes {
                Takes::Switch if value == "true" => line.push((*flag).to_owned()),
                Takes::Switch => {}
                Takes::List => {
                    for item in value.split(',').filter(|v| !v.is_empty()) {
                        line.extend([(*flag).to_owned(), item.to_owned()]);
                    }
                }
                Takes::Value if value.is_empty() => {}
                Takes::Value => line.extend([(*flag).to_owned(), value.clone()]),
            }
        }
        assert_eq!(
            Config::from_args(line, |_| None).unwrap(),
            Some(config.clone())
        );
        let from_env = Config::from_args(Vec::new(), |name| {
            settings
                .iter()
                .find(|(flag, _)| env_name(flag) == name)
                .map(|(_, value)| value.clone())
                .filter(|v| !v.is_empty())
        });
        assert_eq!(from_env.unwrap(), Some(config));
        assert_eq!(env_name("--games-per-ip"), "SALPAKAN_GAMES_PER_IP");
    }
}
