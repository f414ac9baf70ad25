//! The server's settings: where it listens, its database, and its limits, from the command
//! line and the environment. Each flag is declared once, on the field it sets (clap's
//! derive); `args.rs` reads them, the environment with them, and gives back what was read.

mod args;

pub(crate) use args::{Read, help, read, usage};
use args::{
    days_or_never, durability, log_format, millis, millis_in, node, public_url, secs, secs_in,
    secs_or_never,
};

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use thiserror::Error;

use crate::store::Durability;

/// What is wrong with the command line or the environment.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ConfigError {
    /// What is wrong with the command line, in clap's words: a flag the server does not
    /// know, a flag without its value, a value its flag does not take.
    #[error("{0}")]
    Arguments(String),
    /// What is wrong with an environment variable's value.
    #[error("{name}: {error}")]
    Env {
        /// The variable.
        name: String,
        /// What is wrong with its value.
        error: String,
    },
    /// A number outside its flag's range.
    #[error("a whole number from {least} to {most}")]
    Range {
        /// The least it may be.
        least: u64,
        /// The most it may be.
        most: u64,
    },
    /// Not an address block (`ADDR/PREFIX`).
    #[error("not an address block (ADDR/PREFIX): {0}")]
    Cidr(String),
    /// `--node` other than 1 to 32 of `a-z 0-9 _ -`.
    #[error("1 to 32 of a-z 0-9 _ -, not {0:?}")]
    Node(String),
    /// `--public-url` that is not an `http://` or `https://` URL without a query.
    #[error("http://HOST:PORT (or https://), not {0:?}")]
    PublicUrl(String),
    /// A switch's environment variable that is neither on (`1`, `true`, `yes`) nor off
    /// (`0`, `false`, `no`, empty).
    #[error("1 or 0, not {0}")]
    Switch(String),
}

pub(crate) use crate::telemetry::LogFormat;

/// The bounds that keep one client from disturbing the others (`docs/SERVER.md`, "Limits").
/// The fields with a flag are read from it (`--help` lists them under "Limits"); the others
/// are fixed by the contract or set by tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::Args)]
#[command(next_help_heading = "Limits")]
pub struct Limits {
    /// The longest frame a client may send, in bytes; a longer one closes its socket with
    /// 1009. Fixed by the contract at 4,096.
    #[arg(skip = 4096_usize)]
    pub max_frame_bytes: usize,
    /// How many messages a socket may send within [`Limits::window`]; one more closes it
    /// with 1008.
    #[arg(
        long,
        value_name = "N",
        default_value = "200",
        help = "messages a socket may send in 10 s"
    )]
    pub messages_per_window: usize,
    /// The window of the message budget.
    #[arg(skip = Duration::from_secs(10))]
    pub window: Duration,
    /// Open spectators' sockets per client address; one more is refused with 429 before the
    /// upgrade. (A seat's sockets never count here: another client at the same address
    /// cannot keep a seat out.)
    #[arg(
        long,
        value_name = "N",
        default_value = "32",
        help = "open sockets (spectators', players', the lobby's) per client address"
    )]
    pub connections_per_ip: usize,
    /// Open sockets of one seat; one more is refused with 429.
    #[arg(
        long,
        value_name = "N",
        default_value = "4",
        help = "open sockets of one seat"
    )]
    pub sockets_per_seat: usize,
    /// Sockets a seat may open in a minute (its reconnects); one more is refused with 429.
    #[arg(skip = 30_usize)]
    pub seat_connects_per_minute: usize,
    /// Connections per client address still in HTTP (no request yet, or between requests);
    /// one more is closed at once.
    #[arg(
        long,
        value_name = "N",
        default_value = "16",
        help = "connections per address waiting for a request"
    )]
    pub pending_per_ip: usize,
    /// New connections per client address in a minute; one more is closed at once.
    #[arg(
        long,
        value_name = "N",
        default_value = "240",
        help = "new connections per address a minute"
    )]
    pub connects_per_minute: usize,
    /// A connection that sends no complete request head for this long (on arrival, or
    /// between requests) is closed.
    #[arg(
        long = "header-timeout-secs",
        value_name = "N",
        default_value = "10",
        value_parser = secs,
        help = "a connection sending no request this long is closed"
    )]
    pub header_timeout: Duration,
    /// The most connections held at once (also never more than the open-file limit less
    /// [`Limits::reserved_files`]).
    #[arg(
        long,
        value_name = "N",
        default_value = "20000",
        help = "connections at once, at most (never more than the open-file limit less 64)"
    )]
    pub max_connections: usize,
    /// Descriptors kept back from connections, for the database, the page's files and the
    /// listener.
    #[arg(skip = 64_usize)]
    pub reserved_files: usize,
    /// Games a client address may create in an hour (finished or not).
    #[arg(
        long,
        value_name = "N",
        default_value = "120",
        help = "games a client address may create in an hour"
    )]
    pub games_per_hour: usize,
    /// How long a finished game is kept (its summary, record and events) after it ended;
    /// `None` keeps every game.
    #[arg(
        long = "retention-days",
        value_name = "N",
        default_value = "30",
        value_parser = days_or_never,
        help = "a finished game is deleted N days after it ended (0 keeps every game)"
    )]
    pub retention: std::option::Option<Duration>,
    /// The move limit of a game whose creator names none (plies without a challenge that
    /// draw): it bounds every game's length.
    #[arg(
        long,
        value_name = "N",
        default_value = "200",
        help = "plies without a challenge that draw, when a game's creator names none: it bounds a game's length"
    )]
    pub default_move_limit: u16,
    /// The longest move limit a creator may ask for; 0 lets a creator ask for none (and
    /// games of any length).
    #[arg(
        long,
        value_name = "N",
        default_value = "1000",
        help = "the longest move limit a creator may ask for (0 allows none, and games of any length)"
    )]
    pub max_move_limit: u16,
    /// Unfinished games a client address may have created; one more is refused with 429.
    #[arg(
        long,
        value_name = "N",
        default_value = "16",
        help = "unfinished games per client address"
    )]
    pub games_per_ip: usize,
    /// How often the server pings a socket.
    #[arg(
        long = "ping-interval-secs",
        value_name = "N",
        default_value = "20",
        value_parser = secs,
        help = "how often the server pings a socket"
    )]
    pub ping_interval: Duration,
    /// A socket that sends nothing (not even a pong) for this long is closed with 1001.
    #[arg(
        long = "idle-timeout-secs",
        value_name = "N",
        default_value = "60",
        value_parser = secs,
        help = "a socket that sends nothing (not even a pong) this long is closed with 1001; a pause of the server counts not"
    )]
    pub idle_timeout: Duration,
    /// A seat with no socket for this long, while its opponent has one, loses the game by
    /// abandonment.
    #[arg(
        long = "abandon-grace-secs",
        value_name = "N",
        default_value = "60",
        value_parser = secs,
        help = "a seat away this long, its opponent present, loses"
    )]
    pub abandon_grace: Duration,
    /// A game whose invite was never used this long after it was created is deleted: its
    /// links then answer as for an unknown game, and its sockets close with 4410. (Once both
    /// seats are taken, the game's own setup time applies instead: a side that misses it
    /// aborts the game.)
    #[arg(
        long = "setup-expiry-secs",
        value_name = "N",
        default_value = "86400",
        value_parser = secs,
        help = "a game not started this long after its creation is deleted"
    )]
    pub setup_expiry: Duration,
    /// Players a client address may register in an hour.
    #[arg(
        long,
        value_name = "N",
        default_value = "20",
        help = "players a client address may register in an hour"
    )]
    pub players_per_hour: usize,
    /// Open seeks a player may have (the contract's 3).
    #[arg(skip = 3_usize)]
    pub seeks_per_player: usize,
    /// Open seeks of all players at one client address.
    #[arg(
        long,
        value_name = "N",
        default_value = "12",
        help = "open seeks of all players at one client address"
    )]
    pub seeks_per_ip: usize,
    /// Open player sockets of one player.
    #[arg(skip = 4_usize)]
    pub sockets_per_player: usize,
    /// Open lobby sockets, all addresses together (each address's also count in
    /// `connections_per_ip`).
    #[arg(skip = 10_000_usize)]
    pub lobby_sockets: usize,
    /// Open lobby sockets of one client address.
    #[arg(skip = 4_usize)]
    pub lobby_sockets_per_ip: usize,
    /// The most seeks the lobby lists on a page (the newest first); the rest are paged.
    #[arg(skip = 100_usize)]
    pub lobby_shown: usize,
    /// The most seeks of one client address on a page of the lobby.
    #[arg(skip = 2_usize)]
    pub lobby_shown_per_ip: usize,
    /// How long a player waits in a pool before a server bot takes the other seat (the bot
    /// whose rating is closest); `None`: it waits for a person only.
    #[arg(
        long = "pool-bot-secs",
        value_name = "N",
        default_value = "30",
        value_parser = secs_or_never,
        help = "a player alone in a pool this long plays a server bot (0: never)"
    )]
    pub pool_bot_after: std::option::Option<Duration>,
    /// The least time between two lobby frames: changes within it are sent together.
    #[arg(
        long = "lobby-gap-ms",
        value_name = "N",
        default_value = "50",
        value_parser = millis_in::<10, 1_000>,
        help = "changes to the lobby within N ms of its last frame go out together in the next (10 to 1000)"
    )]
    pub lobby_gap: Duration,
    /// How often the live list is made again (only a change makes a new version).
    #[arg(
        long = "live-every-ms",
        value_name = "N",
        default_value = "1000",
        value_parser = millis_in::<100, 60_000>,
        help = "the live list is made again every N ms (100 to 60000)"
    )]
    pub live_every: Duration,
    /// How often the lobby frame's count of games in play is brought up to date (a seek's
    /// coming or going is sent at once).
    #[arg(skip = Duration::from_secs(1))]
    pub lobby_playing_every: Duration,
    /// The shortest setup time a game may ask for (the contract's 10 s; a test may shorten
    /// it).
    #[arg(skip = Duration::from_secs(10))]
    pub min_setup: Duration,
    /// Frames waiting to be sent to one socket; a socket that falls further behind is
    /// closed with 1008.
    #[arg(skip = 512_usize)]
    pub outbox: usize,
    /// The longest a frame may take to be written to a socket; a client that reads nothing
    /// for longer is closed with 1008, its slot freed.
    #[arg(skip = Duration::from_secs(10))]
    pub write_timeout: Duration,
    /// The least time between two changes of one seat's presence told to everyone (a
    /// change sooner waits, and only the seat's presence then is told).
    #[arg(skip = Duration::from_secs(1))]
    pub presence_gap: Duration,
    /// HTTP requests per client address in a minute (a bucket of this many, refilled at
    /// this pace); one more is refused with 429 `rate-limited`.
    #[arg(
        long,
        value_name = "N",
        default_value = "600",
        help = "API requests per client address a minute"
    )]
    pub requests_per_minute: usize,
    /// Requests one connection may carry; its reply to the last says `Connection: close`.
    #[arg(
        long,
        value_name = "N",
        default_value = "1000",
        help = "HTTP requests one connection may carry before it is closed"
    )]
    pub requests_per_connection: usize,
    /// Pool joins of one player in a minute; one more is refused with 429 `rate-limited`.
    #[arg(
        long,
        value_name = "N",
        default_value = "10",
        help = "pool joins of one player a minute"
    )]
    pub pool_joins_per_minute: usize,
    /// Chat lines (and reports) one socket may send in 10 seconds; one more is refused with
    /// `chat-rate-limited`.
    #[arg(
        long,
        value_name = "N",
        default_value = "5",
        help = "chat lines (and reports) one socket may send in 10 s"
    )]
    pub chat_lines_per_socket: usize,
    /// Chat lines one player (or one anonymous seat) may say in a minute, over all its
    /// sockets and games.
    #[arg(
        long,
        value_name = "N",
        default_value = "20",
        help = "chat lines one player (or anonymous seat) may say a minute over all its games"
    )]
    pub chat_lines_per_minute: usize,
    /// Pool joins of all players at one client address in a minute.
    #[arg(
        long,
        value_name = "N",
        default_value = "30",
        help = "pool joins of all players at one client address a minute"
    )]
    pub pool_joins_per_ip_minute: usize,
    /// Rated games one pair of players may start in a day; more are played unrated.
    #[arg(
        long,
        value_name = "N",
        default_value = "10",
        help = "rated games one pair of players may start in a day (more are unrated)"
    )]
    pub rated_per_pair_day: usize,
    /// Rated games one client address (or /64) may take part in a day; more are played
    /// unrated.
    #[arg(
        long,
        value_name = "N",
        default_value = "100",
        help = "rated games one client address may take part in a day (more are unrated)"
    )]
    pub rated_per_ip_day: usize,
    /// Rated games two players at one client address may start in a day (both settled:
    /// neither provisional); more are played unrated.
    #[arg(
        long,
        value_name = "N",
        default_value = "2",
        help = "rated games two players at one address may start in a day (more are unrated)"
    )]
    pub rated_one_address_pair_day: usize,
    /// Rated games between two players of one client address that address may have in a
    /// day; more are played unrated.
    #[arg(
        long,
        value_name = "N",
        default_value = "8",
        help = "rated games between players of one address it may have in a day"
    )]
    pub rated_one_address_day: usize,
    /// Whether two players at one address play rated as any two players do (a club's venue
    /// behind one address, which the operator vouches for): no settled ratings asked, no
    /// bounds of their own.
    #[arg(
        long,
        help = "two players at one address play rated as any two do (a venue behind one address)"
    )]
    pub rated_one_address: bool,
}

impl Default for Limits {
    /// What no flag changes.
    fn default() -> Limits {
        args::defaults()
    }
}

/// Everything the server is started with: the command line's and the environment's flags
/// (`salpakan-server --help`; each also `SALPAKAN_` and its name, see [`Config::from_args`]).
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct Config {
    /// Where it listens.
    #[arg(
        long,
        value_name = "ADDR",
        default_value = "127.0.0.1:8080",
        help = "listen on ADDR"
    )]
    pub addr: SocketAddr,
    /// The SQLite database (created if missing).
    #[arg(
        long,
        value_name = "PATH",
        default_value = "salpakan.db",
        help = "the SQLite database, created if missing; or a PostgreSQL database, postgres://USER:PASSWORD@HOST/DB (the feature `nodes`)"
    )]
    pub db: PathBuf,
    /// The page's files, served at `/`.
    #[arg(
        long = "static",
        value_name = "DIR",
        help = "serve the page's files from DIR at / (FILE.br or FILE.gz beside FILE, if there, to clients that take it)"
    )]
    pub static_dir: Option<PathBuf>,
    /// A file of words chat lines may not carry, one a line, added to the built-in list
    /// (`--chat-blocklist`).
    #[arg(
        long,
        value_name = "FILE",
        help = "words chat lines may not carry, one a line (# for a comment), added to the built-in list"
    )]
    pub chat_blocklist: Option<PathBuf>,
    /// How long a starting server waits for another to let go of its SQLite database
    /// (`--db-lock-wait-ms`): a server stopping lets go soon.
    #[arg(
        long = "db-lock-wait-ms",
        value_name = "N",
        default_value = "5000",
        value_parser = millis,
        help = "how long a starting server waits for another to let go of its SQLite database"
    )]
    pub lock_wait: Duration,
    /// How hard commits press data to disk.
    #[arg(
        long,
        value_name = "full|normal",
        default_value = "full",
        value_parser = durability,
        help = "full: a commit survives a power cut; normal: it survives a crash of the server, not of the machine"
    )]
    pub durability: Durability,
    /// The log's format.
    #[arg(
        long,
        value_name = "text|json",
        default_value = "text",
        value_parser = log_format,
        help = "the log's format on standard error; RUST_LOG filters it (info unless it says)"
    )]
    pub log_format: LogFormat,
    /// Where `/metrics` and the admin routes are served (`None`: nowhere).
    #[arg(
        long,
        value_name = "ADDR",
        help = "serve Prometheus text at /metrics, and the admin routes, on ADDR only (default: off; keep it on loopback)"
    )]
    pub metrics_addr: Option<SocketAddr>,
    /// This node's name among the nodes sharing a PostgreSQL database (`--node`; default
    /// `main`). Names nothing on SQLite.
    #[arg(
        long,
        value_name = "NAME",
        default_value = "main",
        value_parser = node,
        help = "this node's name among the servers sharing one PostgreSQL database (1 to 32 of a-z 0-9 _ -)"
    )]
    pub node: String,
    /// Where the other nodes reach this one (`--public-url`; default `http://` and the
    /// listening address, a loopback one when it listens on every address).
    #[arg(
        long,
        value_name = "URL",
        value_parser = public_url,
        help = "where the other nodes reach this one (default http:// and the address listened on; loopback for an unspecified one)"
    )]
    pub public_url: Option<String>,
    /// How long a node owns its games without renewing its lease (`--lease-secs`): a node
    /// silent this long has its games taken over by the others.
    #[arg(
        long = "lease-secs",
        value_name = "N",
        default_value = "10",
        value_parser = secs_in::<2, 600>,
        help = "a node silent this long has its games taken over by the others (2 to 600)"
    )]
    pub lease: Duration,
    /// The proxies whose `X-Forwarded-For` is believed (`--trusted-proxy`): for a
    /// connection from one of them, the client's address is the last entry of that header,
    /// not the connection's. Empty (the default), and `trust_forwarded_for` off: the header
    /// is never read. See [`Config::trusts_forwarded_for`].
    #[arg(
        long = "trusted-proxy",
        value_name = "CIDR",
        help = "believe X-Forwarded-For on connections from CIDR (a proxy that sets it; repeat for more); otherwise it is never read"
    )]
    pub trusted_proxies: Vec<Cidr>,
    /// Whether a proxy on this machine (`127.0.0.0/8`, `::1`) is trusted too
    /// (`--trust-forwarded-for`).
    #[arg(
        long,
        help = "the same for a proxy on this machine (127.0.0.0/8 and ::1)"
    )]
    pub trust_forwarded_for: bool,
    /// How client addresses are grouped for the per-address limits (an IPv6 client holds a
    /// whole prefix).
    #[command(flatten)]
    pub address_key: AddressKey,
    /// The server's Ismcts bot's budget in iterations per move.
    #[arg(
        long,
        value_name = "N",
        default_value = "2000",
        help = "the ismcts bot's iterations per move"
    )]
    pub bot_budget: u32,
    /// The least time between a bot's turn and its move (`--bot-floor-ms`): a move found
    /// sooner waits, so how long a bot thought tells nothing of its hidden ranks.
    #[arg(
        long = "bot-floor-ms",
        value_name = "N",
        default_value = "500",
        value_parser = millis_in::<0, 10_000>,
        help = "a bot's move is sent no sooner than N ms after its turn began (0 to 10000)"
    )]
    pub bot_floor: Duration,
    /// The limits.
    #[command(flatten)]
    pub limits: Limits,
}

impl Default for Config {
    /// What no flag changes: `salpakan-server` with no arguments and no `SALPAKAN_*`
    /// variable.
    fn default() -> Config {
        args::defaults()
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
    pub(crate) fn contains(&self, ip: IpAddr) -> bool {
        match (self.addr, ip.to_canonical()) {
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
    pub(crate) fn loopback() -> [Cidr; 2] {
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::Args)]
pub struct AddressKey {
    /// The bits of an IPv6 address that name its client.
    #[arg(
        long,
        value_name = "N",
        default_value = "64",
        value_parser = clap::value_parser!(u8).range(0..=128),
        help = "an IPv6 client is its first N bits, for the per-address limits"
    )]
    pub ipv6_prefix: u8,
}

impl Default for AddressKey {
    fn default() -> AddressKey {
        args::defaults()
    }
}

impl AddressKey {
    /// The key the per-address limits count `ip` under.
    #[must_use]
    pub(crate) fn of(self, ip: IpAddr) -> IpAddr {
        // An IPv4 client of an IPv6 listener (`::ffff:a.b.c.d`) is the IPv4 client it is.
        let ip = ip.to_canonical();
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

impl Config {
    /// Whether a connection from `peer` may name its client in `X-Forwarded-For`: `peer` is
    /// in [`Config::trusted_proxies`], or on this machine with
    /// [`Config::trust_forwarded_for`].
    ///
    /// ```
    /// use salpakan_server::Config;
    /// let config = Config { trust_forwarded_for: true, ..Config::default() };
    /// assert!(config.trusts_forwarded_for("127.0.0.1".parse().unwrap()));
    /// assert!(!config.trusts_forwarded_for("192.0.2.1".parse().unwrap()));
    /// assert!(!Config::default().trusts_forwarded_for("127.0.0.1".parse().unwrap()));
    /// ```
    #[must_use]
    pub fn trusts_forwarded_for(&self, peer: IpAddr) -> bool {
        let loopback = self.trust_forwarded_for.then(Cidr::loopback);
        self.trusted_proxies
            .iter()
            .chain(loopback.iter().flatten())
            .any(|proxy| proxy.contains(peer))
    }

    /// Where the other nodes reach this one, `--public-url` or what `addr` (the address
    /// bound) gives.
    #[must_use]
    pub(crate) fn public_url_for(&self, addr: SocketAddr) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use args::{env_name, without_password};

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
        let env = |name: &str| match name {
            "SALPAKAN_ADDR" => Some("127.0.0.1:9000".to_owned()),
            // The command line wins.
            "SALPAKAN_DB" => Some("env.db".to_owned()),
            "SALPAKAN_BOT_BUDGET" => Some("77".to_owned()),
            "SALPAKAN_TRUSTED_PROXY" => Some("192.0.2.0/24, 198.51.100.7".to_owned()),
            "SALPAKAN_LOG_FORMAT" => Some("json".to_owned()),
            "SALPAKAN_TRUST_FORWARDED_FOR" => Some("0".to_owned()),
            // Empty is unset.
            "SALPAKAN_NODE" => Some(String::new()),
            _ => None,
        };
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
                "--ipv6-prefix",
                "56",
                "--max-move-limit",
                "0",
                // The last of a flag given twice.
                "--bot-floor-ms",
                "100",
                "--bot-floor-ms",
                "200",
            ]),
            env,
        )
        .unwrap()
        .unwrap();
        assert_eq!(config.addr.port(), 9000);
        assert_eq!(config.db, PathBuf::from("x.db"));
        assert_eq!(config.limits.games_per_ip, 3);
        assert_eq!(config.durability, Durability::Normal);
        assert_eq!(config.limits.setup_expiry, Duration::from_secs(3600));
        assert_eq!(config.bot_budget, 77);
        assert_eq!(config.bot_floor, Duration::from_millis(200));
        assert_eq!(config.log_format, LogFormat::Json);
        assert_eq!(config.node, "main");
        let proxies: Vec<Cidr> = ["192.0.2.0/24", "198.51.100.7"]
            .iter()
            .map(|c| c.parse().unwrap())
            .collect();
        assert_eq!(config.trusted_proxies, proxies);
        assert!(!config.trust_forwarded_for);
        assert_eq!(config.address_key.ipv6_prefix, 56);
        assert_eq!(config.limits.max_move_limit, 0);
        // A repeatable flag on the command line replaces its variable's list.
        let given = Config::from_args(args(&["--trusted-proxy", "10.0.0.0/8"]), env)
            .unwrap()
            .unwrap();
        assert_eq!(given.trusted_proxies, ["10.0.0.0/8".parse().unwrap()]);
        assert_eq!(Config::from_args(args(&["--help"]), |_| None), Ok(None));
        for bad in [
            &["--addr"][..],
            &["--addr", "nowhere"],
            &["--bot-budget", "x"],
            &["--setup-expiry-secs", "-1"],
            &["--trusted-proxy", "10.0.0.0/40"],
            &["--ipv6-prefix", "129"],
            &["--durability", "fast"],
            &["--rated-one-address", "yes"],
            &["--fly"],
            &["serve"],
        ] {
            let refused = Config::from_args(args(bad), |_| None);
            let Err(ConfigError::Arguments(words)) = &refused else {
                panic!("{bad:?}: {refused:?}");
            };
            // Clap's first paragraph in one line, naming the flag.
            assert!(
                words.ends_with("(see --help)") && !words.contains('\n'),
                "{words}"
            );
            assert!(bad.iter().any(|b| words.contains(b)), "{bad:?}: {words}");
        }
        for (name, value) in [
            ("SALPAKAN_GAMES_PER_IP", "many"),
            ("SALPAKAN_TRUST_FORWARDED_FOR", "maybe"),
            ("SALPAKAN_METRICS_ADDR", "loopback"),
            ("SALPAKAN_LEASE_SECS", "1"),
            ("SALPAKAN_TRUSTED_PROXY", "10.0.0.0/8,nowhere"),
        ] {
            let error = Config::from_args(args(&[]), |n| (n == name).then(|| value.to_owned()));
            let Err(ConfigError::Env { name: said, .. }) = error else {
                panic!("{name}={value}: {error:?}");
            };
            assert_eq!(said, name);
        }
        // A bad variable is refused even when the command line gives its flag.
        let error = Config::from_args(args(&["--games-per-ip", "2"]), |n| {
            (n == "SALPAKAN_GAMES_PER_IP").then(|| "many".to_owned())
        });
        assert!(matches!(error, Err(ConfigError::Env { .. })), "{error:?}");
        let on = |n: &str| (n == "SALPAKAN_TRUST_FORWARDED_FOR").then(|| "1".to_owned());
        let config = Config::from_args(args(&[]), on).unwrap().unwrap();
        assert!(config.trust_forwarded_for && config.trusted_proxies.is_empty());
        assert!(config.trusts_forwarded_for("::1".parse().unwrap()));
        assert!(config.trusts_forwarded_for("127.3.2.1".parse().unwrap()));
        assert!(!config.trusts_forwarded_for("192.0.2.1".parse().unwrap()));
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
        let url = "postgres://salpakan:hunter2@db/games";
        let read = Config::read(args(&["--db", url]), |_| None)
            .unwrap()
            .unwrap();
        let shown = read.settings.to_string();
        assert!(
            shown.contains("db=postgres://salpakan:***@db/games"),
            "{shown}"
        );
        assert!(!shown.contains("hunter2"));
    }

    /// The server's flags, as clap holds them: each `(long name, switch, its default)`.
    fn flags() -> Vec<(String, bool, String)> {
        let command = <Config as clap::Args>::augment_args(clap::Command::new("flags"));
        command
            .get_arguments()
            .map(|arg| {
                let switch = matches!(arg.get_action(), clap::ArgAction::SetTrue);
                let defaults: Vec<String> = arg
                    .get_default_values()
                    .iter()
                    .map(|v| v.to_string_lossy().into_owned())
                    .collect();
                (
                    arg.get_long().unwrap().to_owned(),
                    switch,
                    defaults.join(","),
                )
            })
            .collect()
    }

    /// Every flag is in `--help` with its variable, and the settings read give back the
    /// same configuration, through the command line and through the environment.
    #[test]
    fn every_flag_is_documented_read_from_the_environment_and_logged_faithfully() {
        let usage = usage();
        let flags = flags();
        assert!(flags.len() >= 40, "{}", flags.len());
        for (long, _, _) in &flags {
            let listed = [" ", "\n"].map(|after| format!("--{long}{after}"));
            assert!(listed.iter().any(|l| usage.contains(l)), "--{long}");
            assert!(usage.contains(&env_name(long)), "{}", env_name(long));
        }
        assert_eq!(env_name("--games-per-ip"), "SALPAKAN_GAMES_PER_IP");
        let given = args(&[
            "--static",
            "web",
            "--metrics-addr",
            "127.0.0.1:9090",
            "--trusted-proxy",
            "10.0.0.0/8",
            "--trusted-proxy",
            "::1",
            "--trust-forwarded-for",
            "--pool-bot-secs",
            "0",
            "--retention-days",
            "7",
            "--durability",
            "normal",
            "--games-per-ip",
            "5",
            "--rated-one-address",
        ]);
        let read = Config::read(given, |_| None).unwrap().unwrap();
        let config = read.flags;
        assert_eq!(config.limits.pool_bot_after, None);
        assert_eq!(
            config.limits.retention,
            Some(Duration::from_secs(7 * 86_400))
        );
        let settings = &read.settings.0;
        assert_eq!(settings.len(), flags.len());
        let mut line = Vec::new();
        for (flag, values) in settings {
            let switch = flags.iter().any(|(long, s, _)| *s && flag[2..] == **long);
            if switch {
                if values == &["true"] {
                    line.push(flag.clone());
                }
                continue;
            }
            for value in values {
                line.extend([flag.clone(), value.clone()]);
            }
        }
        assert_eq!(Config::from_args(line, |_| None), Ok(Some(config.clone())));
        let from_env = Config::from_args(Vec::new(), |name| {
            settings
                .iter()
                .find(|(flag, _)| env_name(flag) == name)
                .map(|(_, values)| values.join(","))
        });
        assert_eq!(from_env, Ok(Some(config)));
        // What no flag gives is the default.
        let none = Config::read(Vec::new(), |_| None).unwrap().unwrap();
        assert_eq!(none.flags, Config::default());
        assert!(
            none.settings
                .to_string()
                .starts_with("addr=127.0.0.1:8080 db=salpakan.db")
        );
        assert_eq!(Config::default().lock_wait, crate::store::LOCK_WAIT);
    }

    /// `docs/SERVER.md`'s table of flags has a row for every flag, with its variable and
    /// its default as `--help` gives it, and no row for a flag the server does not know.
    #[test]
    fn the_guide_s_table_of_flags_is_the_server_s() {
        let guide = include_str!("../../../docs/SERVER.md");
        let rows: Vec<Vec<&str>> = guide
            .lines()
            .filter(|l| l.starts_with("| `--"))
            .map(|l| {
                l.split(" | ")
                    .map(|c| c.trim_matches(['|', ' ', '`']))
                    .collect()
            })
            .collect();
        let flags = flags();
        for (long, switch, default) in &flags {
            let flag = format!("--{long}");
            let row = rows
                .iter()
                .find(|r| r[0].split(' ').next() == Some(flag.as_str()))
                .unwrap_or_else(|| panic!("{flag} has no row in docs/SERVER.md"));
            assert_eq!(row[1], env_name(long), "{flag}");
            if !switch && !default.is_empty() {
                assert!(row[2].contains(default), "{flag}: {} in the guide", row[2]);
            }
        }
        assert_eq!(rows.len(), flags.len(), "a row for a flag the server lacks");
    }
}
