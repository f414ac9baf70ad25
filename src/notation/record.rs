//! The game record: tags, then every move with the arbiter's announcement.
//!
//! ```text
//! [Format "1"]                       ; the text format (`TEXT_FORMAT`); none means 1
//! [SetupRows "3"]
//! [MoveLimit "0"]
//! [First "white"]
//! [Date "2026.11.29"]                ; optional tags: player names, date, anything else
//! [White "Ana"]
//! [WhiteSetup "FL:a1 PV:b1 …"]       ; White's 21 pieces (the setup text, upper case)
//! [BlackSetup "pv:a6 fl:b6 …"]       ; Black's 21 pieces (lower case)
//! [Result "white:flag-captured"]     ; the status text: "-" while the game goes on
//!
//! 1. e3-e4
//! 2. e6-e5
//! 3. e4xe5 win
//! ```
//!
//! A game that started from a position has a `[Position "…"]` tag (a position text) instead of
//! the setups. Each move line is the ply number, the move (`x` for a challenge, `-` otherwise)
//! and, for a challenge, the outcome for the attacker: `win`, `lose` or `tie`. The result is the
//! game's status in the grammar of the position text (`-`, `white:flag-captured`,
//! `black:resignation`, `draw:agreement`, …). Replaying the moves must give exactly these
//! announcements and this result.
//!
//! Limits, so that reading any record takes time linear in its length (times a logarithm):
//! at most [`Game::MAX_TAGS`] tags, each value at most [`Game::MAX_TAG_LEN`] characters.

use crate::prelude::*;
use alloc::collections::BTreeMap;
use core::fmt::Write as _;

use crate::game::{Game, RESERVED_TAGS};
use crate::movegen::Move;
use crate::rules::Rules;
use crate::side::Side;
use crate::status::{DeclaredEnd, Status};

use super::setup_text::parse_setup;
use super::{PositionText, TEXT_FORMAT, TextError, Word, end_column, format_error, words};

/// The extra tags and the record's own.
const MAX_TAGS: usize = Game::MAX_TAGS + RESERVED_TAGS.len();
const MAX_TAG_LEN: usize = Game::MAX_TAG_LEN;

fn quote(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl Game {
    /// The game record (the grammar is in this module's docs and the repository's `docs/TEXT.md`): tags, both setups (or the start
    /// position), every move with its announcement, and the result. [`Game::from_record`] reads
    /// it back into the same game, history included.
    ///
    /// ```
    /// use salpakan::{Game, Rules, Setup, Side};
    ///
    /// let rules = Rules::default();
    /// let mut game = Game::dealt(Side::White, rules, 1);
    /// game.set_tag("Date", "2026.11.29");
    /// for _ in 0..30 {
    ///     if let Some(&mv) = game.legal_moves().first() {
    ///         game.play(mv)?;
    ///     }
    /// }
    /// let record = game.record();
    /// assert!(record.contains("[Date \"2026.11.29\"]"));
    /// assert_eq!(Game::from_record(&record)?, game);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn record(&self) -> String {
        let mut out = String::new();
        let rules = self.rules();
        let first = match self.first_mover() {
            Side::White => "white",
            Side::Black => "black",
        };
        let _ = writeln!(out, "[Format \"{TEXT_FORMAT}\"]");
        let _ = writeln!(out, "[SetupRows \"{}\"]", rules.setup_rows());
        let _ = writeln!(out, "[MoveLimit \"{}\"]", rules.move_limit().unwrap_or(0));
        let _ = writeln!(out, "[First \"{first}\"]");
        for (name, value) in self.tags() {
            let _ = writeln!(out, "[{name} {}]", quote(value));
        }
        match (self.setup(Side::White), self.setup(Side::Black)) {
            (Some(white), Some(black)) => {
                let _ = writeln!(out, "[WhiteSetup \"{white}\"]");
                let _ = writeln!(out, "[BlackSetup \"{black}\"]");
            }
            _ => {
                let _ = writeln!(out, "[Position {}]", quote(&self.start().to_string()));
            }
        }
        let _ = writeln!(out, "[Result \"{}\"]", self.status().token());
        out.push('\n');
        let mut board = *self.start();
        for (i, report) in self.history().iter().enumerate() {
            let _ = write!(out, "{}. {}", i + 1, board.move_text(report.mv));
            if let Some(outcome) = report.outcome {
                let _ = write!(out, " {}", outcome.name());
            }
            out.push('\n');
            board.play_unchecked(report.mv);
        }
        out
    }

    /// Reads a game record and replays it: the same game, history and tags included.
    ///
    /// # Errors
    /// [`TextError`] naming the line and column: malformed text, a missing, repeated or invalid
    /// tag or setup, more than [`Game::MAX_TAGS`] tags or a value over [`Game::MAX_TAG_LEN`]
    /// characters,
    /// an illegal move, and the first move whose announcement (or the result) differs from
    /// what the replay gives.
    pub fn from_record(text: &str) -> Result<Game, TextError> {
        let (tags, moves) = split_record(text)?;
        let rules = tags.rules()?;
        let (result, result_tag) = tags.result()?;
        let mut game = tags.start(rules)?;
        for (name, tag) in &tags.by_name {
            if !RESERVED_TAGS.contains(&name.as_str()) && !game.set_tag(name, &tag.value) {
                return Err(TextError::new(
                    tag.line,
                    1,
                    format!("at most {} extra tags", Game::MAX_TAGS),
                    format!("{name:?}, one more"),
                ));
            }
        }
        for (i, (line, text)) in moves.iter().enumerate() {
            replay_move(&mut game, i + 1, *line, text)?;
        }
        end_as_recorded(&mut game, result);
        if game.status() != result {
            return Err(TextError::new(
                result_tag.line,
                result_tag.column,
                format!("the replay's result \"{}\"", game.status().token()),
                quote(&result_tag.value),
            ));
        }
        Ok(game)
    }
}

/// A tag as read: its value and where the value starts.
struct Tag {
    value: String,
    line: usize,
    column: usize,
}

/// The tags of a record by name, and the last tag's line (where a missing tag is reported).
struct Tags {
    by_name: BTreeMap<String, Tag>,
    last_line: usize,
}

/// A move line of a record with its line number.
type MoveLine<'a> = (usize, &'a str);

/// Splits a record into its tags and its move lines (with their line numbers), refusing a
/// repeated tag, a tag after the moves, and more than [`Game::MAX_TAGS`] tags.
fn split_record(text: &str) -> Result<(Tags, Vec<MoveLine<'_>>), TextError> {
    let mut tags = Tags {
        by_name: BTreeMap::new(),
        last_line: 1,
    };
    let mut moves = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if !trimmed.starts_with('[') {
            moves.push((number, line));
            continue;
        }
        if !moves.is_empty() {
            return Err(TextError::new(
                number,
                1,
                "a move line (tags come before the moves)",
                format!("{:?}", trimmed.chars().take(40).collect::<String>()),
            ));
        }
        if tags.by_name.len() == MAX_TAGS {
            return Err(TextError::new(
                number,
                1,
                format!("the moves (a record has at most {MAX_TAGS} tags)"),
                "another tag",
            ));
        }
        let (name, tag) = parse_tag(line, number)?;
        // The format first of all: a later format's record may differ anywhere after it.
        if name == "Format" && tag.value != TEXT_FORMAT.to_string() {
            return Err(format_error(number, tag.column, &tag.value));
        }
        if tags.by_name.contains_key(&name) {
            return Err(TextError::new(
                number,
                tag.column,
                "a tag not given before",
                format!("a second {name:?} tag"),
            ));
        }
        tags.last_line = number;
        tags.by_name.insert(name, tag);
    }
    Ok((tags, moves))
}

impl Tags {
    fn get(&self, name: &str) -> Option<&Tag> {
        self.by_name.get(name)
    }

    fn required(&self, name: &str) -> Result<&Tag, TextError> {
        self.get(name).ok_or_else(|| {
            TextError::new(
                self.last_line,
                1,
                format!("a [{name} \"…\"] tag"),
                "no such tag",
            )
        })
    }

    fn number(&self, name: &str, default: u16) -> Result<u16, TextError> {
        match self.get(name) {
            None => Ok(default),
            Some(tag) => tag.value.parse().map_err(|_| {
                TextError::new(
                    tag.line,
                    tag.column,
                    format!("a number for {name}"),
                    quote(&tag.value),
                )
            }),
        }
    }

    /// The rules of the `SetupRows` and `MoveLimit` tags (3 rows and no limit by default).
    fn rules(&self) -> Result<Rules, TextError> {
        let rows = self.number("SetupRows", 3)?;
        let limit = self.number("MoveLimit", 0)?;
        Rules::new(rows.min(255) as u8, limit).map_err(|e| {
            let (line, column) = self.get("SetupRows").map_or((1, 1), |t| (t.line, t.column));
            TextError::new(line, column, "3 or 4 setup rows", e)
        })
    }

    /// The recorded result.
    fn result(&self) -> Result<(Status, &Tag), TextError> {
        let tag = self.required("Result")?;
        let status = tag.value.parse().map_err(|_| {
            TextError::new(
                tag.line,
                tag.column,
                "a result such as \"-\", \"white:flag-captured\" or \"draw:agreement\"",
                quote(&tag.value),
            )
        })?;
        Ok((status, tag))
    }

    /// The game at its start: from the `Position` tag, or from the `First` and setup tags.
    fn start(&self, rules: Rules) -> Result<Game, TextError> {
        if let Some(tag) = self.get("Position") {
            let text = PositionText::parse_line(&tag.value, tag.line).map_err(|e| TextError {
                column: tag.column + e.column - 1,
                ..e
            })?;
            let position = text.to_position(tag.line)?;
            if position.rules() != rules {
                return Err(TextError::new(
                    tag.line,
                    tag.column,
                    "the rules of the SetupRows and MoveLimit tags",
                    "a position under other rules",
                ));
            }
            return Ok(Game::from_position(position));
        }
        let first_tag = self.required("First")?;
        let first: Side = first_tag.value.parse().map_err(|_| {
            TextError::new(
                first_tag.line,
                first_tag.column,
                "\"white\" or \"black\"",
                quote(&first_tag.value),
            )
        })?;
        let setup = |name: &str, side: Side| {
            let tag = self.required(name)?;
            parse_setup(&tag.value, Some(side), rules, tag.line, tag.column)
        };
        let white = setup("WhiteSetup", Side::White)?;
        let black = setup("BlackSetup", Side::Black)?;
        Game::new(white, black, first, rules)
            .map_err(|e| TextError::new(self.last_line, 1, "setups that fit the rules", e))
    }
}

/// An end no move made (a resignation, an agreement, a loss on time, an abandonment) is not
/// in the moves: a record says it only in its result.
fn end_as_recorded(game: &mut Game, result: Status) {
    if let Some(end) = DeclaredEnd::of(result)
        && game.status().is_ongoing()
    {
        let _ = game.declare(end);
    }
}

/// A cursor over one tag line, for errors with the column of each fault.
struct TagLine {
    chars: Vec<char>,
    at: usize,
    line: usize,
}

impl TagLine {
    fn found(&self, i: usize) -> String {
        self.chars
            .get(i)
            .map_or_else(|| "the end of the line".to_string(), |c| format!("{c:?}"))
    }

    fn fail(&self, i: usize, expected: &str) -> TextError {
        TextError::new(self.line, i + 1, expected, self.found(i))
    }

    /// Consumes `c` or fails with `expected`.
    fn expect(&mut self, c: char, expected: &str) -> Result<(), TextError> {
        if self.chars.get(self.at) != Some(&c) {
            return Err(self.fail(self.at, expected));
        }
        self.at += 1;
        Ok(())
    }

    /// The tag name: letters and digits.
    fn name(&mut self) -> Result<String, TextError> {
        let start = self.at;
        while self
            .chars
            .get(self.at)
            .is_some_and(|c| c.is_ascii_alphanumeric())
        {
            self.at += 1;
        }
        if start == self.at {
            return Err(self.fail(self.at, "a tag name (letters and digits)"));
        }
        Ok(self.chars[start..self.at].iter().collect())
    }

    /// The quoted value after its opening quote, with `\"`, `\\` and `\n` escapes, up to and
    /// including the closing quote.
    fn value(&mut self) -> Result<String, TextError> {
        let mut value = String::new();
        let mut len = 0;
        loop {
            if len == MAX_TAG_LEN && self.chars.get(self.at) != Some(&'"') {
                return Err(self.fail(
                    self.at,
                    &format!("'\"' closing the tag's value (at most {MAX_TAG_LEN} characters)"),
                ));
            }
            len += 1;
            match self.chars.get(self.at) {
                None => return Err(self.fail(self.at, "'\"' closing the tag's value")),
                Some('"') => {
                    self.at += 1;
                    return Ok(value);
                }
                Some('\\') => {
                    let escaped = match self.chars.get(self.at + 1) {
                        Some('"') => '"',
                        Some('\\') => '\\',
                        Some('n') => '\n',
                        _ => return Err(self.fail(self.at + 1, "'\"', '\\\\' or 'n' after '\\'")),
                    };
                    value.push(escaped);
                    self.at += 2;
                }
                Some(c) => {
                    value.push(*c);
                    self.at += 1;
                }
            }
        }
    }

    /// Only spaces after the tag.
    fn end(&self) -> Result<(), TextError> {
        match self.chars[self.at..]
            .iter()
            .position(|c| !c.is_whitespace())
        {
            Some(extra) => Err(self.fail(self.at + extra, "the end of the line after the tag")),
            None => Ok(()),
        }
    }
}

/// Reads `[Name "value"]`.
fn parse_tag(line: &str, number: usize) -> Result<(String, Tag), TextError> {
    let chars: Vec<char> = line.chars().collect();
    let at = chars.iter().position(|c| *c == '[').map_or(0, |i| i + 1);
    let mut cursor = TagLine {
        chars,
        at,
        line: number,
    };
    let name = cursor.name()?;
    cursor.expect(' ', "a space after the tag name")?;
    cursor.expect('"', "'\"' opening the tag's value")?;
    let column = cursor.at + 1;
    let value = cursor.value()?;
    cursor.expect(']', "']' closing the tag")?;
    cursor.end()?;
    Ok((
        name,
        Tag {
            value,
            line: number,
            column,
        },
    ))
}

/// Plays move line `text` (ply `ply`, at line `line`) and checks its announcement.
fn replay_move(game: &mut Game, ply: usize, line: usize, text: &str) -> Result<(), TextError> {
    let fields = words(text);
    let number = fields
        .first()
        .ok_or_else(|| TextError::new(line, 1, "a move line", "an empty line"))?;
    if number.text != format!("{ply}.") {
        return Err(TextError::new(
            line,
            number.column,
            format!("the ply number \"{ply}.\""),
            number.quoted(),
        ));
    }
    let Some(word) = fields.get(1) else {
        return Err(TextError::new(
            line,
            end_column(text),
            "a move such as e3-e4 or e4xe5",
            "the end of the line",
        ));
    };
    if let Some(extra) = fields.get(3) {
        return Err(TextError::new(
            line,
            extra.column,
            "the end of the line",
            extra.quoted(),
        ));
    }
    let mv: Move = word.text.parse().map_err(|_| {
        TextError::new(
            line,
            word.column,
            "a move such as e3-e4 or e4xe5",
            word.quoted(),
        )
    })?;
    let written = game.position().move_text(mv);
    let report = game.play(mv).map_err(|e| {
        TextError::new(
            line,
            word.column,
            format!("a legal move ({e})"),
            word.quoted(),
        )
    })?;
    let expected = report.outcome.map(|o| o.name());
    let disagree = |at: &Word<'_>| {
        TextError::new(
            line,
            at.column,
            format!(
                "the replay's announcement for move {ply} ({written}): {}",
                expected.unwrap_or("a plain move, no outcome")
            ),
            at.quoted(),
        )
    };
    if word.text.contains('x') != report.outcome.is_some() {
        return Err(disagree(word));
    }
    match (fields.get(2), expected) {
        (None, None) => Ok(()),
        (Some(w), Some(e)) if w.text == e => Ok(()),
        (Some(w), _) => Err(disagree(w)),
        (None, Some(_)) => Err(TextError::new(
            line,
            end_column(text),
            format!(
                "the replay's announcement for move {ply} ({written}): {}",
                expected.unwrap_or_default()
            ),
            "no outcome",
        )),
    }
}
