//! Reading the flags declared on [`Config`] (and on the subcommands' own types): the command
//! line first, then the environment (`SALPAKAN_` and the flag's name, [`env_name`]) for a
//! flag the command line leaves out, then the flag's default. The environment is given, not
//! read here, so that a test (or an embedding program) passes its own; clap's `env` names
//! each flag's variable in `--help`. What was read comes back as [`Settings`] too: the log
//! shows them at start.

use std::fmt;
use std::time::Duration;

use clap::error::ErrorKind;
use clap::{ArgAction, ArgMatches, Args, Command, FromArgMatches};

use super::{Config, ConfigError, Durability, LogFormat};

/// The server's name, and its command's.
const NAME: &str = "salpakan-server";

/// `--help`'s first line.
const ABOUT: &str = "salpakan-server: the arbiter server of Game of the Generals";

/// The command's forms, above the flags in `--help`.
const USAGE: &str = "\
salpakan-server [FLAG...]                 serve (until SIGTERM or SIGINT)
       salpakan-server backup --db PATH --to PATH
                                                 an online, checked copy of a live database
       salpakan-server migrate --db PATH         bring a database's schema up to date
       salpakan-server export --db PATH --out FILE
                                                 the games their players agreed to share,
                                                 as JSON lines (never overwrites FILE)
       salpakan-server health [--addr ADDR]      exit 0 if the server at ADDR is ready";

/// Below the flags in every command's `--help`.
const ENVIRONMENT: &str = "\
Every flag is also read from the environment: --games-per-ip is SALPAKAN_GAMES_PER_IP (a
switch takes 1 or 0, a repeatable flag its values separated by commas; an empty variable
is unset); the command line wins.";

/// How wide `--help` is.
const WIDTH: usize = 92;

/// What a command line and an environment gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Read<T> {
    /// The flags, typed.
    pub(crate) flags: T,
    /// Each flag's effective value as text.
    pub(crate) settings: Settings,
}

/// Every flag of a command with its effective value as the command line would give it: a
/// switch `true` or `false`, a repeatable flag its values, a flag unset and without a
/// default none; a database URL's password written as `***`. Nothing in it is secret: what
/// the server logs at start (`flag=VALUE ...`, a repeated flag's values joined by commas).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Settings(pub(crate) Vec<(String, Vec<String>)>);

impl fmt::Display for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (flag, values)) in self.0.iter().enumerate() {
            let space = if i == 0 { "" } else { " " };
            write!(f, "{space}{}={}", &flag[2..], values.join(","))?;
        }
        Ok(())
    }
}

/// `T`'s flags as a command called `name`: a flag given twice is the last one given.
fn command<T: Args>(name: &'static str) -> Command {
    let command = T::augment_args(Command::new(name))
        .args_override_self(true)
        .term_width(WIDTH)
        .after_help(ENVIRONMENT);
    if name == NAME {
        command.about(ABOUT).long_about(None).override_usage(USAGE)
    } else {
        command
    }
}

/// `T`'s `--help`, each flag with its variable and its default.
#[must_use]
pub(crate) fn help<T: Args>(name: &'static str) -> String {
    command::<T>(name)
        .mut_args(|arg| match arg.get_long().map(env_name) {
            Some(variable) => arg.env(variable).hide_env_values(true),
            None => arg,
        })
        .render_help()
        .to_string()
        + "\n"
}

/// The server's `--help`.
#[must_use]
pub(crate) fn usage() -> String {
    help::<Config>(NAME)
}

/// `T`'s flags from `args` (without the program's name) and from `env`, for the command
/// called `name`. `Ok(None)` for `--help`.
///
/// # Errors
/// What is wrong with the command line ([`ConfigError::Arguments`]) or with a variable
/// ([`ConfigError::Env`], naming it; each variable is checked alone).
pub(crate) fn read<T: Args + FromArgMatches>(
    name: &'static str,
    args: impl IntoIterator<Item = String>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Option<Read<T>>, ConfigError> {
    let mut parser = command::<T>(name);
    let flags: Vec<(String, String, ArgAction)> = parser
        .get_arguments()
        .filter_map(|arg| {
            let long = arg.get_long()?;
            Some((
                arg.get_id().to_string(),
                long.to_owned(),
                arg.get_action().clone(),
            ))
        })
        .collect();
    for (id, long, action) in flags {
        let variable = env_name(&long);
        let Some(text) = env(&variable).filter(|text| !text.is_empty()) else {
            continue;
        };
        let named = |error: String| ConfigError::Env {
            name: variable.clone(),
            error,
        };
        let values: Vec<String> = match action {
            ArgAction::SetTrue => match text.as_str() {
                "1" | "true" | "yes" => vec!["true".to_owned()],
                "0" | "false" | "no" => vec!["false".to_owned()],
                other => return Err(named(ConfigError::Switch(other.to_owned()).to_string())),
            },
            ArgAction::Append => text
                .split(',')
                .map(str::trim)
                .filter(|item| !item.is_empty())
                .map(str::to_owned)
                .collect(),
            _ => vec![text],
        };
        // The variable alone (no flag required), so that a bad value is said to be the
        // variable's.
        let mut alone = command::<T>(name)
            .mut_args(|arg| arg.required(false))
            .mut_arg(&id, |arg| arg.default_values(values.clone()));
        alone
            .try_get_matches_from_mut([NAME])
            .map_err(|error| named(words(&error)))?;
        // A required flag's variable gives it.
        parser = parser.mut_arg(&id, |arg| arg.default_values(values).required(false));
    }
    let args = std::iter::once(NAME.to_owned()).chain(args);
    let matches = match parser.try_get_matches_from_mut(args) {
        Ok(matches) => matches,
        Err(error) if matches!(error.kind(), ErrorKind::DisplayHelp) => return Ok(None),
        Err(error) => return Err(ConfigError::Arguments(words(&error))),
    };
    let flags = T::from_arg_matches(&matches).map_err(|e| ConfigError::Arguments(words(&e)))?;
    Ok(Some(Read {
        flags,
        settings: settings(&parser, &matches),
    }))
}

/// `T` with every flag at its default (and every field without a flag at its own).
pub(super) fn defaults<T: Args + FromArgMatches>() -> T {
    let matches = command::<T>(NAME).try_get_matches_from([NAME]);
    // Every default is a value its flag takes: the config's tests parse each.
    matches
        .and_then(|m| T::from_arg_matches(&m))
        .expect("a flag's default is a value it takes")
}

/// Each flag of `command` with its effective value in `matches`.
fn settings(command: &Command, matches: &ArgMatches) -> Settings {
    let flags = command.get_arguments().filter_map(|arg| {
        let long = arg.get_long().filter(|long| *long != "help")?;
        let values = matches
            .get_raw(arg.get_id().as_str())
            .into_iter()
            .flatten()
            .map(|value| {
                let text = value.to_string_lossy();
                if long == "db" {
                    without_password(&text)
                } else {
                    text.into_owned()
                }
            })
            .collect();
        Some((format!("--{long}"), values))
    });
    Settings(flags.collect())
}

/// What clap says is wrong, in one line: its first paragraph, without its `error: `.
fn words(error: &clap::Error) -> String {
    let rendered = error.render().to_string();
    let first = rendered.split("\n\n").next().unwrap_or_default().trim();
    let line = first.strip_prefix("error: ").unwrap_or(first);
    format!(
        "{} (see --help)",
        line.split_whitespace().collect::<Vec<_>>().join(" ")
    )
}

/// The environment variable of `flag` (its long name, with or without the dashes):
/// `--games-per-ip` is `SALPAKAN_GAMES_PER_IP`.
#[must_use]
pub(crate) fn env_name(flag: &str) -> String {
    format!(
        "SALPAKAN_{}",
        flag.trim_start_matches('-')
            .replace('-', "_")
            .to_ascii_uppercase()
    )
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

/// Whether `name` may name a node: 1 to 32 of `a-z 0-9 _ -`.
fn valid_node(name: &str) -> bool {
    (1..=32).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

/// `--node`'s value.
pub(super) fn node(text: &str) -> Result<String, ConfigError> {
    if valid_node(text) {
        Ok(text.to_owned())
    } else {
        Err(ConfigError::Node(text.to_owned()))
    }
}

/// `--public-url`'s value, without a trailing `/`.
pub(super) fn public_url(text: &str) -> Result<String, ConfigError> {
    if !(text.starts_with("http://") || text.starts_with("https://"))
        || text.contains(['?', '#', ' '])
    {
        return Err(ConfigError::PublicUrl(text.to_owned()));
    }
    Ok(text.trim_end_matches('/').to_owned())
}

/// `--durability`'s value.
pub(super) fn durability(text: &str) -> Result<Durability, String> {
    match text {
        "full" => Ok(Durability::Full),
        "normal" => Ok(Durability::Normal),
        _ => Err("full or normal".to_owned()),
    }
}

/// `--log-format`'s value.
pub(super) fn log_format(text: &str) -> Result<LogFormat, String> {
    match text {
        "text" => Ok(LogFormat::Text),
        "json" => Ok(LogFormat::Json),
        _ => Err("text or json".to_owned()),
    }
}

/// A whole number from `least` to `most`.
fn within(text: &str, least: u64, most: u64) -> Result<u64, ConfigError> {
    text.parse()
        .ok()
        .filter(|n| (least..=most).contains(n))
        .ok_or(ConfigError::Range { least, most })
}

/// A whole number of seconds from `LEAST` to `MOST`.
pub(super) fn secs_in<const LEAST: u64, const MOST: u64>(
    text: &str,
) -> Result<Duration, ConfigError> {
    within(text, LEAST, MOST).map(Duration::from_secs)
}

/// A whole number of milliseconds from `LEAST` to `MOST`.
pub(super) fn millis_in<const LEAST: u64, const MOST: u64>(
    text: &str,
) -> Result<Duration, ConfigError> {
    within(text, LEAST, MOST).map(Duration::from_millis)
}

/// A whole number of seconds.
pub(super) fn secs(text: &str) -> Result<Duration, ConfigError> {
    secs_in::<0, { u64::MAX }>(text)
}

/// A whole number of milliseconds.
pub(super) fn millis(text: &str) -> Result<Duration, ConfigError> {
    millis_in::<0, { u64::MAX }>(text)
}

/// A whole number of seconds; 0 is never.
pub(super) fn secs_or_never(text: &str) -> Result<Option<Duration>, ConfigError> {
    secs(text).map(|d| Some(d).filter(|d| !d.is_zero()))
}

/// A whole number of days; 0 is never.
pub(super) fn days_or_never(text: &str) -> Result<Option<Duration>, ConfigError> {
    let days = within(text, 0, u64::MAX)?;
    Ok(Some(Duration::from_secs(days.saturating_mul(86_400))).filter(|d| !d.is_zero()))
}

impl Config {
    /// The settings from the command-line arguments (without the program's name), then
    /// the environment (`SALPAKAN_` and a flag's name: `--games-per-ip` is
    /// `SALPAKAN_GAMES_PER_IP`) for a flag the arguments leave out, then the defaults
    /// (`salpakan-server --help` lists them). `env` gives a variable's value: the server
    /// passes the process's environment. `Ok(None)` for `--help`.
    ///
    /// ```
    /// use salpakan_server::Config;
    /// let env = |name: &str| (name == "SALPAKAN_GAMES_PER_IP").then(|| "3".to_owned());
    /// let args = ["--db".to_owned(), "games.db".to_owned()];
    /// let config = Config::from_args(args, env).unwrap().unwrap();
    /// assert_eq!((config.limits.games_per_ip, config.db.to_str()), (3, Some("games.db")));
    /// assert!(Config::from_args(["--fly".to_owned()], |_| None).is_err());
    /// ```
    ///
    /// # Errors
    /// What is wrong with the arguments or the environment.
    pub fn from_args(
        args: impl IntoIterator<Item = String>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<Config>, ConfigError> {
        Ok(read::<Config>(NAME, args, env)?.map(|read| read.flags))
    }

    /// [`Config::from_args`], with the settings read.
    pub(crate) fn read(
        args: impl IntoIterator<Item = String>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<Read<Config>>, ConfigError> {
        read::<Config>(NAME, args, env)
    }
}
