//! The engine crate's programs' command lines, read one flag at a time: `--flag VALUE`
//! pairs, each error naming the flag and followed by the program's usage.

use std::fmt::Display;
use std::str::FromStr;

/// A program's arguments after its name.
pub struct Args {
    rest: std::iter::Skip<std::env::Args>,
    usage: &'static str,
}

impl Args {
    /// This process's arguments, for the program whose usage is `usage`.
    pub fn new(usage: &'static str) -> Args {
        Args {
            rest: std::env::args().skip(1),
            usage,
        }
    }

    /// The next flag, if any.
    pub fn flag(&mut self) -> Option<String> {
        self.rest.next()
    }

    /// The value after `flag`.
    pub fn value(&mut self, flag: &str) -> Result<String, String> {
        self.rest
            .next()
            .ok_or_else(|| format!("{flag} needs a value\n{}", self.usage))
    }

    /// The value after `flag`, read as a `T`.
    pub fn number<T: FromStr>(&mut self, flag: &str) -> Result<T, String>
    where
        T::Err: Display,
    {
        self.value(flag)?
            .parse()
            .map_err(|e| format!("{flag}: {e}"))
    }

    /// The error for an argument the program does not take.
    pub fn unknown(&self, arg: &str) -> String {
        format!("unknown argument {arg:?}\n{}", self.usage)
    }
}
