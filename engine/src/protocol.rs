//! The protocol's lines, typed both ways: what a host says ([`HostLine`]) and what an engine
//! says ([`EngineLine`]), each written by `Display` and read by `FromStr`, so that a host and
//! an engine written with this crate, or against `docs/ENGINES.md` in any language, agree to
//! the byte. Every line is printable ASCII words separated by single spaces, at most
//! [`MAX_LINE`] bytes, ending in `\n`.
//!
//! ```
//! use salpakan_engine::{EngineLine, HostLine};
//!
//! let ply: HostLine = "ply e4xe5 win -".parse()?;
//! assert_eq!(ply.to_string(), "ply e4xe5 win -");
//! let answer: EngineLine = "move e5-e6".parse()?;
//! assert_eq!(answer.to_string(), "move e5-e6");
//! # Ok::<_, salpakan_engine::LineError>(())
//! ```

use core::fmt;
use core::str::FromStr;

use salpakan::{Bitboard, Move, Outcome, Report, Rules, Setup, Side, Square, Status};
use thiserror::Error;

/// The protocol's name, the first word a host sends.
pub const PROTOCOL: &str = "sep";

/// The protocol's version this crate speaks.
pub const VERSION: u32 = 1;

/// The longest line either side may send, in bytes (a formation is about 130).
pub const MAX_LINE: usize = 1024;

/// Why the host ended a game for an engine's fault, the last word of its `over` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Forfeit {
    /// A move the rules refuse.
    IllegalMove,
    /// A formation the rules refuse.
    BadFormation,
    /// A line the protocol does not have there (or none: the engine closed its output).
    BadLine,
    /// No answer in time.
    Timeout,
}

impl Forfeit {
    /// Every forfeit.
    pub const ALL: [Forfeit; 4] = [
        Forfeit::IllegalMove,
        Forfeit::BadFormation,
        Forfeit::BadLine,
        Forfeit::Timeout,
    ];

    /// Its word: `illegal-move`, `bad-formation`, `bad-line`, `timeout`.
    #[must_use]
    pub const fn word(self) -> &'static str {
        match self {
            Forfeit::IllegalMove => "illegal-move",
            Forfeit::BadFormation => "bad-formation",
            Forfeit::BadLine => "bad-line",
            Forfeit::Timeout => "timeout",
        }
    }
}

/// A line a host sends an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostLine {
    /// `sep 1`: the protocol and its version, the first line.
    Hello {
        /// The version.
        version: u32,
    },
    /// `setoption NAME VALUE`: an option the engine listed.
    SetOption {
        /// Its name.
        name: String,
        /// Its value (one word).
        value: String,
    },
    /// `newgame SIDE FIRST SETUP_ROWS MOVE_LIMIT`: a game begins, the engine playing `side`.
    NewGame {
        /// The engine's side.
        side: Side,
        /// The side that moves first.
        first: Side,
        /// The rules.
        rules: Rules,
    },
    /// `formation`: the engine's formation, please.
    Formation,
    /// `start SQUARE…`: both formations are in; the 21 squares the enemy's pieces stand on.
    Start {
        /// The enemy's squares.
        enemy: Bitboard,
    },
    /// `ply MOVE [OUTCOME] STATUS`: a ply of either side, as the arbiter announced it.
    Ply(Report),
    /// `go [OWN_MS ENEMY_MS]`: the engine's move, with both clocks in a timed game.
    Go {
        /// The engine's time left and the enemy's, in milliseconds.
        clocks: Option<(u64, u64)>,
    },
    /// `over STATUS [FORFEIT]`: the game ended; a forfeit names an engine's fault.
    Over {
        /// How it ended.
        status: Status,
        /// The engine's fault that ended it, if one did.
        forfeit: Option<Forfeit>,
    },
    /// `quit`: the engine should exit.
    Quit,
}

/// A line an engine sends its host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineLine {
    /// `id KEY VALUE…`: `id name …`, `id author …`.
    Id {
        /// `name` or `author`.
        key: String,
        /// The rest of the line.
        value: String,
    },
    /// `option NAME DEFAULT`: an option the engine takes.
    Option {
        /// Its name.
        name: String,
        /// Its default (one word).
        default: String,
    },
    /// `sepok`: the end of the engine's introduction.
    SepOk,
    /// `ready`: the answer to `newgame`.
    Ready,
    /// `formation SETUP`: the engine's formation (the setup text of its side).
    Formation(Setup),
    /// `move MOVE`: the engine's move.
    Move(Move),
    /// `resign`: the engine resigns instead of moving.
    Resign,
    /// `info TEXT…`: anything, any time; the host logs it and reads nothing from it.
    Info(String),
}

/// A line that is not the protocol's.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LineError {
    /// Longer than [`MAX_LINE`], or not printable ASCII.
    #[error("a line is printable ASCII of at most {MAX_LINE} bytes")]
    Shape,
    /// A first word the protocol does not have.
    #[error("unknown line {0:?}")]
    Unknown(String),
    /// A known line with a missing, extra or unreadable word.
    #[error("{line}: {why}")]
    Words {
        /// The line's first word.
        line: &'static str,
        /// What is wrong.
        why: String,
    },
}

fn words(line: &'static str, why: impl fmt::Display) -> LineError {
    LineError::Words {
        line,
        why: why.to_string(),
    }
}

fn checked(text: &str) -> Result<&str, LineError> {
    let text = text.strip_suffix('\n').unwrap_or(text);
    let text = text.strip_suffix('\r').unwrap_or(text);
    if text.len() > MAX_LINE || !text.bytes().all(|b| (b' '..=b'~').contains(&b)) {
        return Err(LineError::Shape);
    }
    Ok(text)
}

fn side_of(line: &'static str, word: Option<&str>) -> Result<Side, LineError> {
    match word {
        Some("white") => Ok(Side::White),
        Some("black") => Ok(Side::Black),
        other => Err(words(line, format!("white or black, not {other:?}"))),
    }
}

fn number<T: FromStr>(line: &'static str, word: Option<&str>) -> Result<T, LineError> {
    word.and_then(|w| w.parse().ok())
        .ok_or_else(|| words(line, format!("a number, not {word:?}")))
}

fn end(line: &'static str, mut rest: core::str::Split<'_, char>) -> Result<(), LineError> {
    match rest.next() {
        None => Ok(()),
        Some(extra) => Err(words(line, format!("nothing more, not {extra:?}"))),
    }
}

/// The move as a ply line writes it: `x` for a challenge, `-` otherwise.
fn move_text(mv: Move, challenge: bool) -> String {
    format!("{}{}{}", mv.from, if challenge { 'x' } else { '-' }, mv.to)
}

impl fmt::Display for HostLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostLine::Hello { version } => write!(f, "{PROTOCOL} {version}"),
            HostLine::SetOption { name, value } => write!(f, "setoption {name} {value}"),
            HostLine::NewGame { side, first, rules } => write!(
                f,
                "newgame {} {} {} {}",
                side.word(),
                first.word(),
                rules.setup_rows(),
                rules.move_limit().unwrap_or(0)
            ),
            HostLine::Formation => f.write_str("formation"),
            HostLine::Start { enemy } => {
                f.write_str("start")?;
                for square in *enemy {
                    write!(f, " {square}")?;
                }
                Ok(())
            }
            HostLine::Ply(report) => {
                write!(f, "ply {}", move_text(report.mv, report.outcome.is_some()))?;
                if let Some(outcome) = report.outcome {
                    write!(f, " {}", outcome.name())?;
                }
                write!(f, " {}", report.status.token())
            }
            HostLine::Go { clocks: None } => f.write_str("go"),
            HostLine::Go {
                clocks: Some((own, enemy)),
            } => write!(f, "go {own} {enemy}"),
            HostLine::Over { status, forfeit } => {
                write!(f, "over {}", status.token())?;
                if let Some(forfeit) = forfeit {
                    write!(f, " {}", forfeit.word())?;
                }
                Ok(())
            }
            HostLine::Quit => f.write_str("quit"),
        }
    }
}

impl FromStr for HostLine {
    type Err = LineError;

    fn from_str(text: &str) -> Result<HostLine, LineError> {
        let text = checked(text)?;
        let mut rest = text.split(' ');
        let first = rest.next().unwrap_or("");
        let line = match first {
            PROTOCOL => {
                let version = number("sep", rest.next())?;
                end("sep", rest)?;
                return Ok(HostLine::Hello { version });
            }
            "setoption" => {
                let (Some(name), Some(value)) = (rest.next(), rest.next()) else {
                    return Err(words("setoption", "a name and a value"));
                };
                let line = HostLine::SetOption {
                    name: name.to_owned(),
                    value: value.to_owned(),
                };
                end("setoption", rest)?;
                return Ok(line);
            }
            "newgame" => {
                let side = side_of("newgame", rest.next())?;
                let first = side_of("newgame", rest.next())?;
                let rows: i64 = number("newgame", rest.next())?;
                let limit: i64 = number("newgame", rest.next())?;
                let rules = Rules::from_numbers(rows, limit).map_err(|e| words("newgame", e))?;
                HostLine::NewGame { side, first, rules }
            }
            "formation" => HostLine::Formation,
            "start" => {
                let mut enemy = Bitboard::EMPTY;
                for word in rest.by_ref() {
                    let square: Square = word
                        .parse()
                        .map_err(|e| words("start", format!("{word:?}: {e}")))?;
                    enemy |= Bitboard::from_square(square);
                }
                HostLine::Start { enemy }
            }
            "ply" => {
                let mv_word = rest.next().unwrap_or("");
                let mv: Move = mv_word
                    .parse()
                    .map_err(|e| words("ply", format!("{mv_word:?}: {e}")))?;
                let challenge = mv_word.contains('x');
                let outcome = if challenge {
                    let word = rest.next().unwrap_or("");
                    Some(Outcome::from_word(word).map_err(|e| words("ply", e))?)
                } else {
                    None
                };
                let status_word = rest.next().unwrap_or("");
                let status: Status = status_word
                    .parse()
                    .map_err(|e| words("ply", format!("{status_word:?}: {e}")))?;
                HostLine::Ply(Report {
                    mv,
                    outcome,
                    status,
                })
            }
            "go" => match (rest.next(), rest.next()) {
                (None, _) => HostLine::Go { clocks: None },
                (own, enemy) => HostLine::Go {
                    clocks: Some((number("go", own)?, number("go", enemy)?)),
                },
            },
            "over" => {
                let status_word = rest.next().unwrap_or("");
                let status: Status = status_word
                    .parse()
                    .map_err(|e| words("over", format!("{status_word:?}: {e}")))?;
                let forfeit = match rest.next() {
                    None => None,
                    Some(word) => Some(
                        Forfeit::ALL
                            .into_iter()
                            .find(|f| f.word() == word)
                            .ok_or_else(|| words("over", format!("no forfeit {word:?}")))?,
                    ),
                };
                HostLine::Over { status, forfeit }
            }
            "quit" => HostLine::Quit,
            other => return Err(LineError::Unknown(other.to_owned())),
        };
        let name = match &line {
            HostLine::NewGame { .. } => "newgame",
            HostLine::Formation => "formation",
            HostLine::Start { .. } => "start",
            HostLine::Ply(_) => "ply",
            HostLine::Go { .. } => "go",
            HostLine::Over { .. } => "over",
            _ => "quit",
        };
        end(name, rest)?;
        Ok(line)
    }
}

impl fmt::Display for EngineLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineLine::Id { key, value } => write!(f, "id {key} {value}"),
            EngineLine::Option { name, default } => write!(f, "option {name} {default}"),
            EngineLine::SepOk => f.write_str("sepok"),
            EngineLine::Ready => f.write_str("ready"),
            EngineLine::Formation(setup) => write!(f, "formation {setup}"),
            EngineLine::Move(mv) => write!(f, "move {mv}"),
            EngineLine::Resign => f.write_str("resign"),
            EngineLine::Info(text) => write!(f, "info {text}"),
        }
    }
}

impl FromStr for EngineLine {
    type Err = LineError;

    fn from_str(text: &str) -> Result<EngineLine, LineError> {
        let text = checked(text)?;
        let (first, rest) = text.split_once(' ').unwrap_or((text, ""));
        let one_word = |line: &'static str| -> Result<(), LineError> {
            if rest.is_empty() {
                Ok(())
            } else {
                Err(words(line, format!("nothing more, not {rest:?}")))
            }
        };
        match first {
            "id" => {
                let (key, value) = rest
                    .split_once(' ')
                    .ok_or_else(|| words("id", "a key and a value"))?;
                Ok(EngineLine::Id {
                    key: key.to_owned(),
                    value: value.to_owned(),
                })
            }
            "option" => match rest.split(' ').collect::<Vec<_>>()[..] {
                [name, default] if !name.is_empty() => Ok(EngineLine::Option {
                    name: name.to_owned(),
                    default: default.to_owned(),
                }),
                _ => Err(words("option", "a name and a default")),
            },
            "sepok" => one_word("sepok").map(|()| EngineLine::SepOk),
            "ready" => one_word("ready").map(|()| EngineLine::Ready),
            "resign" => one_word("resign").map(|()| EngineLine::Resign),
            "formation" => rest
                .parse::<Setup>()
                .map(EngineLine::Formation)
                .map_err(|e| words("formation", e)),
            "move" => rest
                .parse::<Move>()
                .map(EngineLine::Move)
                .map_err(|e| words("move", format!("{rest:?}: {e}"))),
            "info" => Ok(EngineLine::Info(rest.to_owned())),
            other => Err(LineError::Unknown(other.to_owned())),
        }
    }
}
