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
            trusted_proxies: Vec::new(),
            address_key: AddressKey::default(),
            bot_budget: 2_000,
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

/// The `--help` text.
pub const USAGE: &str = "\
salpakan-server: the arbiter server of Game of the Generals

  --addr ADDR                  listen on ADDR (env SALPAKAN_ADDR; default 127.0.0.1:8080)
  --db PATH                    the SQLite database, created if missing (env SALPAKAN_DB;
                               default ./salpakan.db)
  --static DIR                 serve the page's files from DIR at /
  --durability full|normal     full (default): a commit survives a power cut; normal: it
                               survives a crash of the server, not of the machine
  --trusted-proxy CIDR         believe X-Forwarded-For on connections from CIDR (a proxy
                               that sets it; repeat for more); otherwise it is never read
  --trust-forwarded-for        the same for a proxy on this machine (127.0.0.0/8 and ::1)
  --ipv6-prefix N              an IPv6 client is its first N bits, for the per-address
                               limits (default 64)
  --bot-budget N               the ismcts bot's iterations per move (default 2000)
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
                "--trust-forwarded-for" => config.trusted_proxies.extend(Cidr::loopback()),
                "--trusted-proxy" => config.trusted_proxies.push(value()?.parse()?),
                "--ipv6-prefix" => {
                    let prefix: u8 = number(&flag, &value()?)?;
                    if prefix > 128 {
                        return Err(ConfigError::Number {
                            flag,
                            value: prefix.to_string(),
                        });
                    }
                    config.address_key.ipv6_prefix = prefix;
                }
                "--sockets-per-seat" => config.limits.sockets_per_seat = number(&flag, &value()?)?,
                "--pending-per-ip" => config.limits.pending_per_ip = number(&flag, &value()?)?,
                "--connects-per-minute" => {
                    config.limits.connects_per_minute = number(&flag, &value()?)?;
                }
                "--header-timeout-secs" => {
                    config.limits.header_timeout = Duration::from_secs(number(&flag, &value()?)?);
                }
                "--max-connections" => config.limits.max_connections = number(&flag, &value()?)?,
                "--games-per-hour" => config.limits.games_per_hour = number(&flag, &value()?)?,
                "--players-per-hour" => {
                    config.limits.players_per_hour = number(&flag, &value()?)?;
                }
                "--seeks-per-ip" => config.limits.seeks_per_ip = number(&flag, &value()?)?,
                "--pool-bot-secs" => {
                    let secs: u64 = number(&flag, &value()?)?;
                    config.limits.pool_bot_after = (secs > 0).then(|| Duration::from_secs(secs));
                }
                "--retention-days" => {
                    let days: u64 = number(&flag, &value()?)?;
                    config.limits.retention =
                        (days > 0).then(|| Duration::from_secs(days * 24 * 60 * 60));
                }
                "--default-move-limit" => {
                    config.limits.default_move_limit = number(&flag, &value()?)?;
                }
                "--max-move-limit" => config.limits.max_move_limit = number(&flag, &value()?)?,
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
            |name| (name == "SALPAKAN_ADDR").then(|| "127.0.0.1:9000".to_owned()),
        )
        .unwrap()
        .unwrap();
        assert_eq!(config.addr.port(), 9000);
        assert_eq!(config.db, PathBuf::from("x.db"));
        assert_eq!(config.limits.games_per_ip, 3);
        assert_eq!(config.durability, Durability::Normal);
        assert_eq!(config.limits.setup_expiry, Duration::from_secs(3600));
        assert_eq!(config.trusted_proxies, vec!["10.0.0.0/8".parse().unwrap()]);
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
    }
}
