//! The server's settings: where it listens, its database, and its limits, from the command
//! line and the environment (`flags.rs`: every flag declared once).

mod flags;

pub(crate) use flags::{env_name, usage};

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

pub(crate) use crate::telemetry::LogFormat;

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
    /// Open lobby sockets of one client address.
    pub lobby_sockets_per_ip: usize,
    /// The most seeks the lobby lists on a page (the newest first); the rest are paged.
    pub lobby_shown: usize,
    /// The most seeks of one client address on a page of the lobby.
    pub lobby_shown_per_ip: usize,
    /// How long a player waits in a pool before a server bot takes the other seat (the bot
    /// whose rating is closest); `None`: it waits for a person only.
    pub pool_bot_after: Option<Duration>,
    /// The least time between two lobby frames: changes within it are sent together.
    pub lobby_gap: Duration,
    /// How often the live list is made again (only a change makes a new version).
    pub live_every: Duration,
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
    /// HTTP requests per client address in a minute (a bucket of this many, refilled at
    /// this pace); one more is refused with 429 `rate-limited`.
    pub requests_per_minute: usize,
    /// Requests one connection may carry; its reply to the last says `Connection: close`.
    pub requests_per_connection: usize,
    /// Pool joins of one player in a minute; one more is refused with 429 `rate-limited`.
    pub pool_joins_per_minute: usize,
    /// Chat lines (and reports) one socket may send in 10 seconds; one more is refused with
    /// `chat-rate-limited`.
    pub chat_lines_per_socket: usize,
    /// Chat lines one player (or one anonymous seat) may say in a minute, over all its
    /// sockets and games.
    pub chat_lines_per_minute: usize,
    /// Pool joins of all players at one client address in a minute.
    pub pool_joins_per_ip_minute: usize,
    /// Rated games one pair of players may start in a day; more are played unrated.
    pub rated_per_pair_day: usize,
    /// Rated games one client address (or /64) may take part in a day; more are played
    /// unrated.
    pub rated_per_ip_day: usize,
    /// Whether two players at one address may play rated (a club's venue behind one
    /// address); by default their game is played unrated.
    pub rated_one_address: bool,
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
            lobby_sockets_per_ip: 4,
            lobby_shown: 100,
            lobby_shown_per_ip: 2,
            lobby_gap: Duration::from_millis(50),
            live_every: Duration::from_secs(1),
            lobby_playing_every: Duration::from_secs(1),
            pool_bot_after: Some(Duration::from_secs(30)),
            outbox: 512,
            write_timeout: Duration::from_secs(10),
            presence_gap: Duration::from_secs(1),
            requests_per_minute: 600,
            requests_per_connection: 1_000,
            pool_joins_per_minute: 10,
            chat_lines_per_socket: 5,
            chat_lines_per_minute: 20,
            pool_joins_per_ip_minute: 30,
            rated_per_pair_day: 10,
            rated_per_ip_day: 100,
            rated_one_address: false,
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
    /// A file of words chat lines may not carry, one a line, added to the built-in list
    /// (`--chat-blocklist`).
    pub chat_blocklist: Option<PathBuf>,
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
    /// How long a starting server waits for another to let go of its SQLite database
    /// (`--db-lock-wait-ms`): a server stopping lets go soon.
    pub lock_wait: Duration,
    /// The limits.
    pub limits: Limits,
}

/// A bot's move is sent no sooner than this after its turn began, unless told otherwise.
pub(crate) const DEFAULT_BOT_FLOOR_MS: u64 = 500;

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: PathBuf::from("salpakan.db"),
            static_dir: None,
            chat_blocklist: None,
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
            lock_wait: crate::store::LOCK_WAIT,
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
    use flags::without_password;

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
        let usage = usage();
        let mut listed: Vec<&str> = usage
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("--"))
            .filter_map(|l| l.split_whitespace().next())
            .filter(|f| *f != "help")
            .collect();
        listed.dedup();
        let flags: Vec<&str> = flags::FLAGS.iter().map(|f| &f.name[2..]).collect();
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
        assert_eq!(settings.len(), flags::FLAGS.len());
        let mut line = Vec::new();
        for (flag, value) in &settings {
            let takes = flags::FLAGS.iter().find(|f| f.name == *flag).unwrap().takes;
            match takes {
                flags::Takes::Switch if value == "true" => line.push((*flag).to_owned()),
                flags::Takes::Switch => {}
                flags::Takes::List(_) => {
                    for item in value.split(',').filter(|v| !v.is_empty()) {
                        line.extend([(*flag).to_owned(), item.to_owned()]);
                    }
                }
                flags::Takes::Value(_) if value.is_empty() => {}
                flags::Takes::Value(_) => line.extend([(*flag).to_owned(), value.clone()]),
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
        let defaults = Config::default();
        for flag in flags::FLAGS {
            let row = rows
                .iter()
                .find(|r| r[0].split(' ').next() == Some(flag.name))
                .unwrap_or_else(|| panic!("{} has no row in docs/SERVER.md", flag.name));
            assert_eq!(row[1], env_name(flag.name), "{}", flag.name);
            let default = (flag.get)(&defaults);
            if matches!(flag.takes, flags::Takes::Value(_)) && !default.is_empty() {
                assert!(
                    row[2].contains(&default),
                    "{}: {} in the guide",
                    flag.name,
                    row[2]
                );
            }
        }
        assert_eq!(
            rows.len(),
            flags::FLAGS.len(),
            "a row for a flag the server lacks"
        );
    }
}
