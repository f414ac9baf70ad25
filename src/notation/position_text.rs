//! The one-line position text.
//!
//! Grammar (fields separated by spaces):
//!
//! ```text
//! position  = board SP side SP waiting SP quiet SP ply SP rows SP limit SP status
//! board     = row8 "/" row7 "/" … "/" row1        ; rows from row 8 down to row 1
//! row       = 9 cells, each "." (empty) or a two-character code:
//!             "FL" "PV" "SG" "2L" "1L" "CP" "MJ" "LC" "CO" "1G" "2G" "3G" "4G" "5G" "SP"
//!             upper case for White, lower case for Black, "XX" / "xx" for a hidden piece
//! side      = "w" | "b"                          ; the side to move
//! waiting   = "-" | square                       ; a Flag waiting on its far row
//! quiet     = plies since the last challenge (the move-limit count)
//! ply       = plies played since the start
//! rows      = "3" | "4"                          ; the setup zone
//! limit     = move limit in plies, "0" for none
//! status    = "-" (ongoing) | ("white" | "black") ":" win-reason | "draw:" draw-reason
//! win-reason  = "flag-captured" | "flag-reached-end" | "resignation" | "time" | "abandoned"
//! draw-reason = "agreement" | "move-limit"
//! ```

use crate::prelude::*;
use core::fmt;
use core::str::FromStr;

use crate::bitboard::Bitboard;
use crate::position::{Parts, Position};
use crate::rank::Rank;
use crate::rules::Rules;
use crate::side::Side;
use crate::square::Square;
use crate::status::Status;
use crate::view::{PublicView, View, ViewCell};

use super::{TEXT_FORMAT, TextError, Word, end_column, format_error, words};

/// One square of a position text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TextCell {
    /// No piece (`.`).
    #[default]
    Empty,
    /// A piece with its rank shown (`PV`, `pv`, …: upper case for White, lower case for Black).
    Piece {
        /// The piece's side.
        side: Side,
        /// Its rank.
        rank: Rank,
    },
    /// A piece whose rank the text hides (`XX` for White, `xx` for Black): an enemy piece in a
    /// side's view.
    Hidden {
        /// The piece's side.
        side: Side,
    },
}

/// A position text, parsed but not yet checked against the rules: the full position (every rank
/// known) or a side's view of it (enemy ranks hidden). [`crate::Position`] converts from and to
/// it; [`crate::View::to_text`] makes the hidden form. See the grammar in the module docs (and
/// the repository's `docs/TEXT.md`).
///
/// # What is checked
/// Parsing checks the grammar: 8 rows of 9 cells, known codes, the side, a square or `-` for
/// the waiting Flag, numbers within their fields (plies since the last challenge and the move
/// limit at most 65535, the ply at most 4294967295), 3 or 4 setup rows, a status token.
/// Turning the text into a [`crate::Position`] (`FromStr`, `TryFrom`) then refuses every state
/// no game can reach, naming the field at fault:
/// - a hidden piece (`XX`/`xx`), or more pieces of a rank than an army has;
/// - plies since the last challenge above the plies played, or above the move limit;
/// - a game that goes on without both Flags, or at the move limit with no Flag waiting (it
///   would have been drawn);
/// - `draw:move-limit` without the limit reached; `X:flag-captured` with the loser's Flag on
///   the board or the winner's gone; `X:flag-reached-end` without X's Flag on its far row or
///   without the loser's Flag; a resignation, agreement, loss on time or abandonment without
///   both Flags;
/// - a waiting Flag that is not the side not to move's own Flag on its far row in a game that
///   goes on.
///
/// ```
/// use salpakan::Side;
/// use salpakan::text::PositionText;
///
/// let text = "......... /.........";
/// assert!(text.parse::<PositionText>().is_err());
/// let start = ".........//////// w - 0 0 3 0 -";
/// assert!(start.parse::<PositionText>().is_err()); // rows need 9 cells
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionText {
    /// The 72 cells indexed by square.
    pub cells: [TextCell; Square::NUM],
    /// The side to move.
    pub side_to_move: Side,
    /// A Flag waiting on its far row, if shown.
    pub waiting_flag: Option<Square>,
    /// Plies since the last challenge.
    pub plies_since_challenge: u16,
    /// Plies since the start.
    pub ply: u32,
    /// The rules.
    pub rules: Rules,
    /// The status.
    pub status: Status,
}

impl fmt::Display for PositionText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..8u8).rev() {
            for file in 0..9u8 {
                let square = Square::from_coords(file, row).expect("on the board");
                match self.cells[square.index()] {
                    TextCell::Empty => f.write_str(".")?,
                    TextCell::Piece { side, rank } => f.write_str(rank.code_for(side))?,
                    TextCell::Hidden { side: Side::White } => f.write_str("XX")?,
                    TextCell::Hidden { side: Side::Black } => f.write_str("xx")?,
                }
            }
            if row > 0 {
                f.write_str("/")?;
            }
        }
        let side = match self.side_to_move {
            Side::White => "w",
            Side::Black => "b",
        };
        let waiting = self
            .waiting_flag
            .map_or_else(|| "-".to_string(), |s| s.to_string());
        write!(
            f,
            " {side} {waiting} {} {} {} {} {}",
            self.plies_since_challenge,
            self.ply,
            self.rules.setup_rows(),
            self.rules.move_limit().unwrap_or(0),
            self.status.token()
        )
    }
}

impl PositionText {
    /// Parses one line, reporting errors at `line` (for texts embedded in a record).
    pub(crate) fn parse_line(text: &str, line: usize) -> Result<PositionText, TextError> {
        let fields = words(text);
        const NAMES: [&str; 8] = [
            "a board of 8 rows separated by '/'",
            "the side to move, 'w' or 'b'",
            "a waiting Flag's square or '-'",
            "the plies since the last challenge",
            "the plies played",
            "the setup rows, 3 or 4",
            "the move limit (0 for none)",
            "the status ('-', 'white:flag-captured', 'draw:agreement', ...)",
        ];
        let field = |i: usize| -> Result<Word<'_>, TextError> {
            fields.get(i).copied().ok_or_else(|| {
                TextError::new(line, end_column(text), NAMES[i], "the end of the line")
            })
        };
        // A later format's text begins with its number (`v2 …`): no board starts with a `v`.
        if let Some(first) = fields.first()
            && let Some(number) = first.text.strip_prefix('v')
            && number.starts_with(|c: char| c.is_ascii_digit())
        {
            if number == TEXT_FORMAT.to_string() {
                return Err(TextError::new(
                    line,
                    first.column,
                    format!("a board (a text of format {TEXT_FORMAT} has no format mark)"),
                    first.quoted(),
                ));
            }
            return Err(format_error(line, first.column + 1, number));
        }
        if let Some(extra) = fields.get(NAMES.len()) {
            return Err(TextError::new(
                line,
                extra.column,
                "the end of the line",
                extra.quoted(),
            ));
        }
        let board = field(0)?;
        let cells = parse_board(board, line)?;
        let side = field(1)?;
        let side_to_move = match side.text {
            "w" => Side::White,
            "b" => Side::Black,
            _ => return Err(TextError::new(line, side.column, NAMES[1], side.quoted())),
        };
        let waiting = field(2)?;
        let waiting_flag =
            match waiting.text {
                "-" => None,
                t => Some(t.parse::<Square>().map_err(|_| {
                    TextError::new(line, waiting.column, NAMES[2], waiting.quoted())
                })?),
            };
        let number = |i: usize| -> Result<u64, TextError> {
            let w = field(i)?;
            if w.text.len() > 10 || !w.text.bytes().all(|b| b.is_ascii_digit()) {
                return Err(TextError::new(line, w.column, NAMES[i], w.quoted()));
            }
            w.text
                .parse()
                .map_err(|_| TextError::new(line, w.column, NAMES[i], w.quoted()))
        };
        let in_range = |i: usize, value: u64, max: u64| -> Result<u64, TextError> {
            if value > max {
                let w = field(i)?;
                return Err(TextError::new(
                    line,
                    w.column,
                    format!("{} (at most {max})", NAMES[i]),
                    w.quoted(),
                ));
            }
            Ok(value)
        };
        let quiet = in_range(3, number(3)?, u64::from(u16::MAX))? as u16;
        let ply = in_range(4, number(4)?, u64::from(u32::MAX))? as u32;
        let rows_field = field(5)?;
        let rows = number(5)?;
        let limit = in_range(6, number(6)?, u64::from(u16::MAX))? as u16;
        let rules = Rules::new(rows.min(255) as u8, limit)
            .map_err(|_| TextError::new(line, rows_field.column, NAMES[5], rows_field.quoted()))?;
        let status_field = field(7)?;
        let status: Status = status_field.text.parse().map_err(|_| {
            TextError::new(line, status_field.column, NAMES[7], status_field.quoted())
        })?;
        Ok(PositionText {
            cells,
            side_to_move,
            waiting_flag,
            plies_since_challenge: quiet,
            ply,
            rules,
            status,
        })
    }
}

fn parse_board(board: Word<'_>, line: usize) -> Result<[TextCell; Square::NUM], TextError> {
    let mut cells = [TextCell::Empty; Square::NUM];
    let mut row = 7i32;
    let mut file = 0u8;
    let mut column = board.column;
    let chars: Vec<char> = board.text.chars().collect();
    let mut i = 0;
    let expected_cell = "a cell: '.', a rank code such as 'PV' or 'pv', or 'XX'/'xx'";
    while i < chars.len() {
        let c = chars[i];
        if c == '/' {
            if file != 9 {
                return Err(TextError::new(
                    line,
                    column,
                    format!("{} more cells in row {}", 9 - file, row + 1),
                    "'/'",
                ));
            }
            if row == 0 {
                return Err(TextError::new(line, column, "the end of the board", "'/'"));
            }
            row -= 1;
            file = 0;
            i += 1;
            column += 1;
            continue;
        }
        if file == 9 {
            return Err(TextError::new(
                line,
                column,
                format!("'/' after the 9 cells of row {}", row + 1),
                format!("{c:?}"),
            ));
        }
        let square = Square::from_coords(file, row as u8).expect("on the board");
        if c == '.' {
            i += 1;
            column += 1;
        } else {
            let code: String = chars[i..chars.len().min(i + 2)].iter().collect();
            let cell = match code.as_str() {
                "XX" => Some(TextCell::Hidden { side: Side::White }),
                "xx" => Some(TextCell::Hidden { side: Side::Black }),
                _ => Rank::parse_with_side(&code)
                    .ok()
                    .map(|(rank, side)| TextCell::Piece { side, rank }),
            };
            let Some(cell) = cell else {
                return Err(TextError::new(
                    line,
                    column,
                    expected_cell,
                    format!("{code:?}"),
                ));
            };
            cells[square.index()] = cell;
            i += 2;
            column += 2;
        }
        file += 1;
    }
    if row != 0 || file != 9 {
        return Err(TextError::new(
            line,
            column,
            format!(
                "the rest of the board (row {} has {file} of 9 cells)",
                row + 1
            ),
            "the end of the board",
        ));
    }
    Ok(cells)
}

impl FromStr for PositionText {
    type Err = TextError;

    fn from_str(text: &str) -> Result<PositionText, TextError> {
        if let Some((i, _)) = text.char_indices().find(|(_, c)| *c == '\n') {
            let column = text[..i].chars().count() + 1;
            return Err(TextError::new(1, column, "a single line", "a line break"));
        }
        PositionText::parse_line(text, 1)
    }
}

impl PublicView {
    /// The public view as a position text (the grammar of [`PositionText`]): every piece
    /// hidden, `XX` White's and `xx` Black's, and no waiting Flag.
    #[must_use]
    pub fn to_text(&self) -> PositionText {
        PositionText {
            cells: self.cells().map(|cell| match cell {
                None => TextCell::Empty,
                Some(id) => TextCell::Hidden { side: id.side() },
            }),
            side_to_move: self.side_to_move(),
            waiting_flag: None,
            plies_since_challenge: self.plies_since_challenge(),
            ply: self.ply(),
            rules: self.rules(),
            status: self.status(),
        }
    }
}

impl PositionText {
    /// The full position this text describes, checked: every rank shown, and a state some
    /// game can reach (the position layer's checks: no side with more of a rank than its army,
    /// a waiting Flag only where the rules can leave one, a status and counters that fit).
    ///
    /// # Errors
    /// [`TextError`] at line `line`, column 1, naming the square or count at fault.
    pub(crate) fn to_position(&self, line: usize) -> Result<Position, TextError> {
        let mut occupied = [Bitboard::EMPTY; 2];
        let mut board = [None; Square::NUM];
        for square in Square::ALL {
            match self.cells[square.index()] {
                TextCell::Empty => {}
                TextCell::Hidden { .. } => {
                    return Err(TextError::new(
                        line,
                        1,
                        "every piece's rank (a full position hides nothing)",
                        format!("a hidden piece on {square}"),
                    ));
                }
                TextCell::Piece { side, rank } => {
                    occupied[side.index()] = occupied[side.index()].with(square);
                    board[square.index()] = Some(rank);
                }
            }
        }
        let parts = Parts {
            occupied,
            board,
            side_to_move: self.side_to_move,
            waiting_flag: self.waiting_flag,
            status: self.status,
            plies_since_challenge: self.plies_since_challenge,
            rules: self.rules,
            ply: self.ply,
        };
        parts
            .check()
            .map_err(|e| TextError::new(line, 1, e.expected, e.found))?;
        Ok(Position::from_parts(parts))
    }
}

impl TryFrom<PositionText> for Position {
    type Error = TextError;

    /// The full position the text describes, checked as [`Position`]'s `FromStr` checks it.
    fn try_from(text: PositionText) -> Result<Position, TextError> {
        text.to_position(1)
    }
}

impl FromStr for Position {
    type Err = TextError;

    /// Parses a full position text (see [`PositionText`]).
    fn from_str(text: &str) -> Result<Position, TextError> {
        text.parse::<PositionText>()?.to_position(1)
    }
}

impl fmt::Display for Position {
    /// The position text (see [`PositionText`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_text().fmt(f)
    }
}

impl Position {
    /// The position as text (see [`PositionText`] for the grammar; `Display` prints it).
    ///
    /// ```
    /// use salpakan::{Position, Rules, Setup, Side};
    /// let rules = Rules::default();
    /// let pos = Position::new(&Setup::random(Side::White, rules, 1),
    ///     &Setup::random(Side::Black, rules, 2), Side::White, rules)?;
    /// let text = pos.to_string();
    /// assert!(text.ends_with(" w - 0 0 3 0 -"));
    /// assert_eq!(text.parse::<Position>()?, pos);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn to_text(&self) -> PositionText {
        let mut cells = [TextCell::Empty; Square::NUM];
        for square in self.occupied_all() {
            if let Some((side, rank)) = self.piece_at(square) {
                cells[square.index()] = TextCell::Piece { side, rank };
            }
        }
        PositionText {
            cells,
            side_to_move: self.side_to_move(),
            waiting_flag: self.waiting_flag(),
            plies_since_challenge: self.plies_since_challenge(),
            ply: self.ply(),
            rules: self.rules(),
            status: self.status(),
        }
    }
}

impl View {
    /// The view as a position text (the grammar of [`PositionText`]): enemy pieces as
    /// `XX`/`xx`, and a waiting Flag shown only if it is the viewer's own.
    ///
    /// ```
    /// use salpakan::{Game, Rules, Setup, Side};
    /// let rules = Rules::default();
    /// let game = Game::dealt(Side::White, rules, 1);
    /// let text = game.view(Side::White).to_text().to_string();
    /// assert!(text.contains("xx") && !text.contains("pv"));
    /// # Ok::<_, salpakan::SetupError>(())
    /// ```
    #[must_use]
    pub fn to_text(&self) -> PositionText {
        let mut cells = [TextCell::Empty; Square::NUM];
        for (slot, cell) in cells.iter_mut().zip(self.cells()) {
            *slot = match *cell {
                ViewCell::Empty => TextCell::Empty,
                ViewCell::Own { rank, .. } => TextCell::Piece {
                    side: self.side(),
                    rank,
                },
                ViewCell::Enemy { .. } => TextCell::Hidden {
                    side: self.side().other(),
                },
            };
        }
        PositionText {
            cells,
            side_to_move: self.side_to_move(),
            waiting_flag: self.own_waiting_flag(),
            plies_since_challenge: self.plies_since_challenge(),
            ply: self.ply(),
            rules: self.rules(),
            status: self.status(),
        }
    }
}
