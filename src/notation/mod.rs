//! Text formats: the one-line position text (full or as one side sees it) and the game record.
//! Every parser reports a [`TextError`] with the line and column and what was expected there.

use crate::prelude::*;

mod move_text;
mod position_text;
mod record;
#[cfg(feature = "serde")]
mod serde_impls;
mod setup_text;
mod status_text;

use core::fmt;

use thiserror::Error;

use crate::error_kind::{ErrorKind, engine_error};
use crate::position::Report;

pub use position_text::{PositionText, TextCell};

/// The version of the text formats this release writes and reads: the game record, the
/// position and view texts, and the notation inside them (the repository's `docs/TEXT.md`).
///
/// A record says its format in its first tag, `[Format "1"]`; a record without one is of
/// format 1 (every record written before the tag existed). A position or view text of format 1
/// has no mark; a later format's text begins with `v` and its number (`v2 …`). A text or record
/// of a format newer than this one is refused with a [`TextError`] that says so, rather than
/// misread. Within a format, every later release reads what an earlier one wrote.
///
/// ```
/// use salpakan::{Game, Rules, Side};
/// use salpakan::text::TEXT_FORMAT;
///
/// assert_eq!(TEXT_FORMAT, 1);
/// let record = Game::dealt(Side::White, Rules::default(), 1).record();
/// assert!(record.starts_with("[Format \"1\"]\n"));
/// let newer = record.replacen("[Format \"1\"]", "[Format \"2\"]", 1);
/// let err = Game::from_record(&newer).unwrap_err();
/// assert_eq!((err.line, err.column), (1, 10));
/// assert!(err.to_string().contains("format 2"), "{err}");
/// # Ok::<_, salpakan::text::TextError>(())
/// ```
pub const TEXT_FORMAT: u32 = 1;

/// The error for a text or record of format `found` (not [`TEXT_FORMAT`]) at `line`, `column`.
pub(crate) fn format_error(line: usize, column: usize, found: &str) -> TextError {
    // A number past `u32` is newer too.
    let newer = !found.is_empty()
        && found.bytes().all(|b| b.is_ascii_digit())
        && found
            .parse::<u32>()
            .map_or(true, |number| number > TEXT_FORMAT);
    if newer {
        TextError::new(
            line,
            column,
            format!("text format {TEXT_FORMAT}, the newest this release reads"),
            format!("format {found}, from a later release of salpakan"),
        )
    } else {
        TextError::new(
            line,
            column,
            format!("text format {TEXT_FORMAT}"),
            format!("{found:?}"),
        )
    }
}

/// Text that does not parse, or a record that contradicts its own replay. It names the line and
/// column (1-based, in characters) and what was expected there.
///
/// ```
/// use salpakan::Position;
/// let err = "not a position".parse::<Position>().unwrap_err();
/// assert_eq!((err.line, err.column), (1, 1));
/// assert!(err.to_string().starts_with("line 1, column 1: expected"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: expected {expected}, found {found}")]
pub struct TextError {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1, in characters.
    pub column: usize,
    /// What was expected there.
    pub expected: String,
    /// What was found (quoted text, or a description such as "the end of the line").
    pub found: String,
}

impl TextError {
    /// Its kind: always [`ErrorKind::Text`].
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        ErrorKind::Text
    }

    pub(crate) fn new(
        line: usize,
        column: usize,
        expected: impl Into<String>,
        found: impl fmt::Display,
    ) -> TextError {
        TextError {
            line,
            column,
            expected: expected.into(),
            found: found.to_string(),
        }
    }
}

engine_error!(TextError);

/// A word of a line with its 1-based column.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Word<'a> {
    pub(crate) text: &'a str,
    pub(crate) column: usize,
}

impl Word<'_> {
    /// The word quoted for an error message (shortened if long).
    pub(crate) fn quoted(&self) -> String {
        let short: String = self.text.chars().take(40).collect();
        if short.len() < self.text.len() {
            format!("{short:?}…")
        } else {
            format!("{short:?}")
        }
    }
}

/// Splits a line into words separated by single spaces or tabs, with their columns.
pub(crate) fn words(line: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    let mut column = 0;
    let mut start_column = 0;
    for (i, c) in line.char_indices() {
        column += 1;
        if c == ' ' || c == '\t' {
            if let Some(s) = start.take() {
                out.push(Word {
                    text: &line[s..i],
                    column: start_column,
                });
            }
        } else if start.is_none() {
            start = Some(i);
            start_column = column;
        }
    }
    if let Some(s) = start {
        out.push(Word {
            text: &line[s..],
            column: start_column,
        });
    }
    out
}

/// The column just after the end of a line (for "expected more" errors).
pub(crate) fn end_column(line: &str) -> usize {
    line.chars().count() + 1
}

impl fmt::Display for Report {
    /// The move, its outcome if it was a challenge, and the status if the move ended the game:
    /// `e3-e4`, `e4-e5 win`, `d7-d8 (White wins: flag reached the far end)`. The move is
    /// written with `-`: see [`crate::Position::move_text`] for the record's `x`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.mv)?;
        if let Some(outcome) = self.outcome {
            write!(f, " {outcome}")?;
        }
        if !self.status.is_ongoing() {
            write!(f, " ({})", self.status)?;
        }
        Ok(())
    }
}
