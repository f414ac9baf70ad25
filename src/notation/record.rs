//! The game record: tags, then every move with the arbiter's announcement.
//!
//! ```text
//! [SetupRows "3"]
//! [MoveLimit "0"]
//! [First "white"]
//! [White "Ana"]                      ; optional tags: player names, date, anything else
//! [Date "2026.11.29"]
//! [WhiteSetup "FL:a1 PV:b1 …"]       ; White's 21 pieces (upper-case codes)
//! [BlackSetup "pv:a6 fl:b6 …"]       ; Black's 21 pieces (lower-case codes)
//! [Result "White wins: flag captured"]
//!
//! 1. e3-e4
//! 2. e6-e5
//! 3. e4xe5 win
//! ```
//!
//! A game that started from a position has a `[Position "…"]` tag (a position text) instead of
//! the setups. Each move line is the ply number, the move (`x` for a challenge, `-` otherwise)
//! and, for a challenge, the outcome for the attacker: `win`, `lose` or `tie`. The result is the
//! game's status: `ongoing`, `White wins: <reason>`, `Black wins: <reason>` or `Draw: <reason>`,
//! with the reasons `flag captured`, `flag reached the far end`, `resignation`, `agreement`,
//! `move limit`. Replaying the moves must give exactly these announcements and this result.

use core::fmt::Write as _;

use crate::arbiter::Outcome;
use crate::game::Game;
use crate::movegen::Move;
use crate::rank::Rank;
use crate::rules::Rules;
use crate::setup::Setup;
use crate::side::Side;
use crate::square::Square;
use crate::status::{DrawReason, Status, WinReason};

use super::{PositionText, TextError, end_column, words};

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

fn setup_text(setup: &Setup) -> String {
    let side = setup.side();
    let pieces: Vec<String> = setup
        .pieces()
        .map(|(square, rank)| format!("{}:{square}", rank.code_for(side)))
        .collect();
    pieces.join(" ")
}

/// Every status, for reading the result back.
fn all_statuses() -> Vec<Status> {
    let mut all = vec![Status::Ongoing];
    for winner in Side::ALL {
        for reason in [
            WinReason::FlagCaptured,
            WinReason::FlagReachedEnd,
            WinReason::Resignation,
        ] {
            all.push(Status::Won { winner, reason });
        }
    }
    all.push(Status::Drawn {
        reason: DrawReason::Agreement,
    });
    all.push(Status::Drawn {
        reason: DrawReason::MoveLimit,
    });
    all
}

impl Game {
    /// The game record (see the README, "Game records"): tags, both setups (or the start
    /// position), every move with its announcement, and the result. [`Game::from_record`] reads
    /// it back into the same game, history included.
    ///
    /// ```
    /// use salpakan::{Game, Rules, Setup, Side};
    ///
    /// let rules = Rules::default();
    /// let mut game = Game::new(
    ///     Setup::random(Side::White, &rules, 1),
    ///     Setup::random(Side::Black, &rules, 2),
    ///     Side::White,
    ///     rules,
    /// )?;
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
    pub fn record(&self) -> String {
        let mut out = String::new();
        let rules = self.rules();
        let _ = writeln!(out, "[SetupRows \"{}\"]", rules.setup_rows());
        let _ = writeln!(out, "[MoveLimit \"{}\"]", rules.move_limit().unwrap_or(0));
        let _ = writeln!(
            out,
            "[First \"{}\"]",
            self.first_mover().name().to_lowercase()
        );
        for (name, value) in self.tags() {
            let _ = writeln!(out, "[{name} {}]", quote(value));
        }
        match (self.setup(Side::White), self.setup(Side::Black)) {
            (Some(white), Some(black)) => {
                let _ = writeln!(out, "[WhiteSetup {}]", quote(&setup_text(white)));
                let _ = writeln!(out, "[BlackSetup {}]", quote(&setup_text(black)));
            }
            _ => {
                let _ = writeln!(out, "[Position {}]", quote(&self.start().to_string()));
            }
        }
        let _ = writeln!(out, "[Result {}]", quote(&self.status().to_string()));
        out.push('\n');
        let mut squares = *self.start();
        for (i, report) in self.history().iter().enumerate() {
            let mover = squares.side_to_move();
            let sep = if squares.occupied(mover.other()).has(report.mv.to) {
                'x'
            } else {
                '-'
            };
            let _ = write!(out, "{}. {}{sep}{}", i + 1, report.mv.from, report.mv.to);
            if let Some(outcome) = report.outcome {
                let _ = write!(out, " {}", outcome.name());
            }
            out.push('\n');
            squares.play_unchecked(report.mv);
        }
        out
    }

    /// Reads a game record and replays it: the same game, history and tags included.
    ///
    /// # Errors
    /// [`TextError`] naming the line and column: malformed text, a missing or invalid tag or
    /// setup, an illegal move, and the first move whose announcement (or the result) differs
    /// from what the replay gives.
    pub fn from_record(text: &str) -> Result<Game, TextError> {
        let mut tags: Vec<(String, String, usize, usize)> = Vec::new();
        let mut moves: Vec<(usize, &str)> = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            let trimmed = line.trim();
            if trimmed.is_empty() {
                continue;
            }
            if trimmed.starts_with('[') {
                if !moves.is_empty() {
                    return Err(TextError::new(
                        number,
                        1,
                        "a move line (tags come before the moves)",
                        format!("{:?}", trimmed.chars().take(40).collect::<String>()),
                    ));
                }
                let (name, value, column) = parse_tag(line, number)?;
                if tags.iter().any(|t| t.0 == name) {
                    return Err(TextError::new(
                        number,
                        column,
                        "a tag not given before",
                        format!("a second {name:?} tag"),
                    ));
                }
                tags.push((name, value, number, column));
            } else {
                moves.push((number, line));
            }
        }
        let tag = |name: &str| tags.iter().find(|t| t.0 == name);
        let last_tag_line = tags.last().map_or(1, |t| t.2);
        let required = |name: &str| {
            tag(name).ok_or_else(|| {
                TextError::new(
                    last_tag_line,
                    1,
                    format!("a [{name} \"…\"] tag"),
                    "no such tag",
                )
            })
        };
        let number_tag = |name: &str, default: u16| -> Result<u16, TextError> {
            match tag(name) {
                None => Ok(default),
                Some((_, value, line, column)) => value.parse().map_err(|_| {
                    TextError::new(*line, *column, format!("a number for {name}"), quote(value))
                }),
            }
        };
        let rows = number_tag("SetupRows", 3)?;
        let limit = number_tag("MoveLimit", 0)?;
        let rules = Rules::new(rows.min(255) as u8, limit).map_err(|e| {
            let (line, column) = tag("SetupRows").map_or((1, 1), |t| (t.2, t.3));
            TextError::new(line, column, "3 or 4 setup rows", e)
        })?;
        let result_tag = required("Result")?;
        let result = all_statuses()
            .into_iter()
            .find(|s| s.to_string() == result_tag.1)
            .ok_or_else(|| {
                TextError::new(
                    result_tag.2,
                    result_tag.3,
                    "a result such as \"ongoing\", \"White wins: flag captured\" or \"Draw: agreement\"",
                    quote(&result_tag.1),
                )
            })?;

        let mut game = if let Some((_, value, line, column)) = tag("Position") {
            let text = PositionText::parse_line(value, *line).map_err(|e| TextError {
                column: column + e.column,
                ..e
            })?;
            let position = text.to_position(*line)?;
            if position.rules() != rules {
                return Err(TextError::new(
                    *line,
                    *column,
                    "the rules of the SetupRows and MoveLimit tags",
                    "a position under other rules",
                ));
            }
            Game::from_position(position)
        } else {
            let first_tag = required("First")?;
            let first: Side = first_tag.1.parse().map_err(|_| {
                TextError::new(
                    first_tag.2,
                    first_tag.3,
                    "\"white\" or \"black\"",
                    quote(&first_tag.1),
                )
            })?;
            let white = parse_setup(required("WhiteSetup")?, Side::White, &rules)?;
            let black = parse_setup(required("BlackSetup")?, Side::Black, &rules)?;
            Game::new(white, black, first, rules)
                .map_err(|e| TextError::new(last_tag_line, 1, "setups that fit the rules", e))?
        };
        for (name, value, _, _) in &tags {
            game.set_tag(name, value); // ignores the record's own tags
        }

        for (i, (line, text)) in moves.iter().enumerate() {
            replay_move(&mut game, i + 1, *line, text)?;
        }

        if game.status().is_ongoing() {
            match result {
                Status::Won {
                    winner,
                    reason: WinReason::Resignation,
                } => {
                    let _ = game.resign(winner.other());
                }
                Status::Drawn {
                    reason: DrawReason::Agreement,
                } => {
                    let _ = game.agree_draw();
                }
                _ => {}
            }
        }
        if game.status() != result {
            return Err(TextError::new(
                result_tag.2,
                result_tag.3,
                format!("the replay's result {}", quote(&game.status().to_string())),
                quote(&result_tag.1),
            ));
        }
        Ok(game)
    }
}

fn parse_tag(line: &str, number: usize) -> Result<(String, String, usize), TextError> {
    let chars: Vec<char> = line.chars().collect();
    let start = chars.iter().position(|c| *c == '[').unwrap_or(0);
    let mut i = start + 1;
    let name_start = i;
    while i < chars.len() && chars[i].is_ascii_alphanumeric() {
        i += 1;
    }
    let name: String = chars[name_start..i].iter().collect();
    let found = |i: usize| {
        chars
            .get(i)
            .map_or_else(|| "the end of the line".to_string(), |c| format!("{c:?}"))
    };
    if name.is_empty() {
        return Err(TextError::new(
            number,
            i + 1,
            "a tag name (letters and digits)",
            found(i),
        ));
    }
    if chars.get(i) != Some(&' ') {
        return Err(TextError::new(
            number,
            i + 1,
            "a space after the tag name",
            found(i),
        ));
    }
    i += 1;
    if chars.get(i) != Some(&'"') {
        return Err(TextError::new(
            number,
            i + 1,
            "'\"' opening the tag's value",
            found(i),
        ));
    }
    let value_column = i + 2;
    i += 1;
    let mut value = String::new();
    loop {
        match chars.get(i) {
            None => {
                return Err(TextError::new(
                    number,
                    i + 1,
                    "'\"' closing the tag's value",
                    "the end of the line",
                ));
            }
            Some('"') => break,
            Some('\\') => {
                match chars.get(i + 1) {
                    Some('"') => value.push('"'),
                    Some('\\') => value.push('\\'),
                    Some('n') => value.push('\n'),
                    _ => {
                        return Err(TextError::new(
                            number,
                            i + 2,
                            "'\"', '\\\\' or 'n' after '\\'",
                            found(i + 1),
                        ));
                    }
                }
                i += 2;
            }
            Some(c) => {
                value.push(*c);
                i += 1;
            }
        }
    }
    i += 1;
    if chars.get(i) != Some(&']') {
        return Err(TextError::new(
            number,
            i + 1,
            "']' closing the tag",
            found(i),
        ));
    }
    if let Some(extra) = chars[i + 1..].iter().position(|c| !c.is_whitespace()) {
        return Err(TextError::new(
            number,
            i + 2 + extra,
            "the end of the line after the tag",
            found(i + 1 + extra),
        ));
    }
    Ok((name, value, value_column))
}

fn parse_setup(
    tag: &(String, String, usize, usize),
    side: Side,
    rules: &Rules,
) -> Result<Setup, TextError> {
    let (_, value, line, column) = tag;
    let mut pieces = Vec::new();
    for word in words(value) {
        let at = column + word.column - 1;
        let bad = || {
            TextError::new(
                *line,
                at,
                format!(
                    "a piece such as \"{}:a1\" (rank code, ':', square)",
                    Rank::Private.code_for(side)
                ),
                word.quoted(),
            )
        };
        let (code, square) = word.text.split_once(':').ok_or_else(bad)?;
        let (rank, written_side) = Rank::parse_with_side(code).map_err(|_| bad())?;
        if written_side != side {
            return Err(TextError::new(
                *line,
                at,
                format!(
                    "{side}'s rank codes ({} case)",
                    match side {
                        Side::White => "upper",
                        Side::Black => "lower",
                    }
                ),
                word.quoted(),
            ));
        }
        let square: Square = square.parse().map_err(|_| bad())?;
        pieces.push((square, rank));
    }
    Setup::new(side, rules, pieces)
        .map_err(|e| TextError::new(*line, *column, format!("a valid {side} setup"), e))
}

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
    let mv: Move = word.text.parse().map_err(|_| {
        TextError::new(
            line,
            word.column,
            "a move such as e3-e4 or e4xe5",
            word.quoted(),
        )
    })?;
    let said = fields.get(2);
    if let Some(extra) = fields.get(3) {
        return Err(TextError::new(
            line,
            extra.column,
            "the end of the line",
            extra.quoted(),
        ));
    }
    let report = game.play(mv).map_err(|e| {
        TextError::new(
            line,
            word.column,
            format!("a legal move ({e})"),
            word.quoted(),
        )
    })?;
    let expected_word = report.outcome.map(Outcome::name);
    let written_challenge = word.text.contains('x');
    let disagree = |column: usize, found: String| {
        Err(TextError::new(
            line,
            column,
            format!(
                "the replay's announcement for move {ply} ({}{}{}): {}",
                mv.from,
                if report.outcome.is_some() { 'x' } else { '-' },
                mv.to,
                expected_word.unwrap_or("a plain move, no outcome")
            ),
            found,
        ))
    };
    if written_challenge != report.outcome.is_some() {
        return disagree(word.column, word.quoted());
    }
    match (said, expected_word) {
        (None, None) => Ok(()),
        (Some(w), Some(expected)) if w.text == expected => Ok(()),
        (Some(w), _) => disagree(w.column, w.quoted()),
        (None, Some(_)) => disagree(end_column(text), "no outcome".into()),
    }
}
