//! The kind of every error the crate returns: what a binding turns it into (a C result code,
//! a Python exception class, a JavaScript error's `kind`), decided once for all of them.

use core::fmt;

/// What kind of refusal an error is. Every error type of the crate has a `kind()`; the C ABI,
/// the Python package and the npm package turn the kind (never the type) into their own
/// error, so the same input is refused the same way everywhere.
///
/// | kind | meaning | C result | Python | JavaScript `error.kind` |
/// |---|---|---|---|---|
/// | `Argument` | a value out of range, or a side asked to move out of turn | `INVALID_ARGUMENT` | `ArgumentError` | `"argument"` |
/// | `Setup` | a formation that breaks the setup rules | `INVALID_SETUP` | `SetupError` | `"setup"` |
/// | `IllegalMove` | a move the rules refuse | `ILLEGAL_MOVE` | `IllegalMoveError` | `"illegal-move"` |
/// | `GameOver` | a move, action, report or agent call after the end | `GAME_OVER` | `GameOverError` | `"game-over"` |
/// | `Text` | a text that does not read (record, position, setup, move notation) | `PARSE` | `TextError` | `"text"` |
/// | `Observe` | reports a tracker cannot follow, or a game with no history to follow | `INVALID_ARGUMENT` | `ObserveError` | `"observe"` |
/// | `Commitment` | a record whose formations do not open its commitments, or that has none | `NOT_VERIFIED` | `CommitmentError` | `"commitment"` |
///
/// # Examples
/// ```
/// use salpakan::Square;
/// use salpakan::bindings::ErrorKind;
///
/// let err = "j9".parse::<Square>().unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Argument);
/// assert_eq!(ErrorKind::IllegalMove.name(), "illegal-move");
/// assert_eq!("game-over".parse::<ErrorKind>(), Ok(ErrorKind::GameOver));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A value out of range (a side, square, rank, action, cell, count or rule option), or a
    /// side asked to move out of turn.
    Argument,
    /// A formation that breaks the setup rules.
    Setup,
    /// A move the rules refuse.
    IllegalMove,
    /// A move, action, report or agent call after the end of the game.
    GameOver,
    /// A text that does not read: a record, a position text, a setup text, a move's notation.
    Text,
    /// Reports a tracker cannot follow, or a game with no history to follow.
    Observe,
    /// A record whose formations and salts do not give its formation commitments, or that
    /// has none to check.
    Commitment,
}

impl ErrorKind {
    /// Every kind.
    pub const ALL: [ErrorKind; 7] = [
        ErrorKind::Argument,
        ErrorKind::Setup,
        ErrorKind::IllegalMove,
        ErrorKind::GameOver,
        ErrorKind::Text,
        ErrorKind::Observe,
        ErrorKind::Commitment,
    ];

    /// The kind's word, as the npm package's errors carry it: `"argument"`, `"setup"`,
    /// `"illegal-move"`, `"game-over"`, `"text"`, `"observe"`, `"commitment"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ErrorKind::Argument => "argument",
            ErrorKind::Setup => "setup",
            ErrorKind::IllegalMove => "illegal-move",
            ErrorKind::GameOver => "game-over",
            ErrorKind::Text => "text",
            ErrorKind::Observe => "observe",
            ErrorKind::Commitment => "commitment",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for ErrorKind {
    type Err = ();

    /// Reads a kind's [`name`](ErrorKind::name).
    fn from_str(word: &str) -> Result<ErrorKind, ()> {
        ErrorKind::ALL
            .into_iter()
            .find(|kind| kind.name() == word)
            .ok_or(())
    }
}

/// An error of the engine: every error type of the crate has a [kind](ErrorKind), which is
/// all a binding needs to turn it into its own (with the error's message).
///
/// # Examples
/// ```
/// use salpakan::Position;
/// use salpakan::bindings::{EngineError, ErrorKind};
///
/// fn describe(e: &dyn EngineError) -> String {
///     format!("{}: {e}", e.kind())
/// }
/// let err = "not a position".parse::<Position>().unwrap_err();
/// assert!(describe(&err).starts_with("text: line 1, column 1"));
/// ```
pub trait EngineError: core::error::Error {
    /// What kind of refusal it is.
    fn kind(&self) -> ErrorKind;
}

/// Makes an error type an [`EngineError`] through its own `const fn kind(&self)`: each error
/// type of the crate invokes it beside its definition.
macro_rules! engine_error {
    ($($error:ty),* $(,)?) => {
        $(
            impl $crate::error_kind::EngineError for $error {
                fn kind(&self) -> $crate::error_kind::ErrorKind {
                    <$error>::kind(self)
                }
            }
        )*
    };
}

pub(crate) use engine_error;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_prints_its_name_and_reads_back() {
        let names: Vec<String> = ErrorKind::ALL.iter().map(ToString::to_string).collect();
        assert_eq!(
            names,
            [
                "argument",
                "setup",
                "illegal-move",
                "game-over",
                "text",
                "observe",
                "commitment"
            ]
        );
        for kind in ErrorKind::ALL {
            assert_eq!(kind.to_string(), kind.name());
            assert_eq!(kind.name().parse::<ErrorKind>(), Ok(kind));
        }
        assert_eq!("illegal move".parse::<ErrorKind>(), Err(()));
        assert_eq!("".parse::<ErrorKind>(), Err(()));
    }
}
