//! What one side may see of a game, and what anyone may (a spectator's public view).

use crate::prelude::*;
use core::fmt;

use crate::game::Game;
use crate::piece::PieceId;
use crate::position::Report;
use crate::rank::Rank;
use crate::rules::Rules;
use crate::side::Side;
use crate::square::Square;
use crate::status::Status;

impl Facts {
    /// The drawing's last line: `White to move; ongoing; seen by Black` while the game goes
    /// on, `Black wins: flag captured; seen by White` once it is over (nobody is to move).
    fn footer(&self, f: &mut fmt::Formatter<'_>, seen_by: impl fmt::Display) -> fmt::Result {
        if self.status.is_ongoing() {
            write!(f, "{} to move; ", self.side_to_move)?;
        }
        write!(f, "{}; seen by {seen_by}", self.status)
    }
}

/// What every view of a game shows alike, a seat's or a spectator's: the side to move, the
/// status, the public log and the counters, all public.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Facts {
    side_to_move: Side,
    status: Status,
    history: Vec<Report>,
    plies_since_challenge: u16,
    ply: u32,
    rules: Rules,
}

impl Facts {
    fn of(game: &Game) -> Facts {
        let position = game.position();
        Facts {
            side_to_move: position.side_to_move(),
            status: position.status(),
            history: game.history().to_vec(),
            plies_since_challenge: position.plies_since_challenge(),
            ply: position.ply(),
            rules: position.rules(),
        }
    }
}

/// The accessors of the [`Facts`] a view holds, written once for both views.
macro_rules! facts_accessors {
    () => {
        /// The side to move.
        #[inline]
        #[must_use]
        pub fn side_to_move(&self) -> Side {
            self.facts.side_to_move
        }

        /// The game's status.
        #[inline]
        #[must_use]
        pub fn status(&self) -> Status {
            self.facts.status
        }

        /// The public history: every ply's move, outcome and status, in order.
        #[inline]
        #[must_use]
        pub fn history(&self) -> &[Report] {
            &self.facts.history
        }

        /// Plies played since the last challenge (or the start), as the move limit counts
        /// them.
        #[inline]
        #[must_use]
        pub fn plies_since_challenge(&self) -> u16 {
            self.facts.plies_since_challenge
        }

        /// Plies played since the start.
        #[inline]
        #[must_use]
        pub fn ply(&self) -> u32 {
            self.facts.ply
        }

        /// The rules of the game.
        #[inline]
        #[must_use]
        pub fn rules(&self) -> Rules {
            self.facts.rules
        }
    };
}

/// One square as a side sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ViewCell {
    /// No piece.
    Empty,
    /// One of the viewer's own pieces, with its rank.
    Own {
        /// The piece.
        id: PieceId,
        /// Its rank.
        rank: Rank,
    },
    /// An enemy piece of unknown rank.
    Enemy {
        /// The piece.
        id: PieceId,
    },
}

/// The game as one side sees it: its own pieces with their ranks and ids, enemy pieces with
/// their ids only, the side to move, the public log (every ply's move, outcome and status) and
/// the status. It holds nothing else, so neither it nor its `Debug`, `Display` or serde form
/// can reveal a hidden enemy rank or a waiting enemy Flag.
///
/// # Examples
/// ```
/// use salpakan::{Game, Rules, Setup, Side, ViewCell};
///
/// let rules = Rules::default();
/// let game = Game::dealt(Side::White, rules, 1);
/// let view = game.view(Side::White);
/// let enemies = view.cells().iter().filter(|c| matches!(c, ViewCell::Enemy { .. })).count();
/// assert_eq!(enemies, 21);
/// assert!(view.to_string().contains("xx"));
/// # Ok::<_, salpakan::SetupError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct View {
    side: Side,
    #[cfg_attr(feature = "serde", serde(with = "cells_serde"))]
    cells: [ViewCell; Square::NUM],
    own_waiting_flag: Option<Square>,
    #[cfg_attr(feature = "serde", serde(flatten))]
    facts: Facts,
}

impl View {
    facts_accessors!();

    /// `side`'s view of a game.
    #[must_use]
    pub fn new(game: &Game, side: Side) -> View {
        let position = game.position();
        let mut cells = [ViewCell::Empty; Square::NUM];
        for square in position.occupied_all() {
            let (Some((owner, rank)), Some(id)) =
                (position.piece_at(square), game.piece_id_at(square))
            else {
                continue;
            };
            cells[square.index()] = if owner == side {
                ViewCell::Own { id, rank }
            } else {
                ViewCell::Enemy { id }
            };
        }
        // A waiting Flag is shown only to its own side.
        let own_waiting_flag = position.waiting_flag().filter(|&square| {
            position
                .piece_at(square)
                .is_some_and(|(owner, _)| owner == side)
        });
        View {
            side,
            cells,
            own_waiting_flag,
            facts: Facts::of(game),
        }
    }

    /// The viewer.
    #[inline]
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }

    /// The 72 cells indexed by square.
    #[inline]
    #[must_use]
    pub fn cells(&self) -> &[ViewCell; Square::NUM] {
        &self.cells
    }

    /// The cell on `square`.
    #[inline]
    #[must_use]
    pub fn cell(&self, square: Square) -> ViewCell {
        self.cells[square.index()]
    }

    /// Whether an enemy piece stands on `square`.
    #[inline]
    #[must_use]
    pub fn is_enemy(&self, square: Square) -> bool {
        matches!(self.cell(square), ViewCell::Enemy { .. })
    }

    /// The viewer's own Flag waiting on its far row, if it is waiting (an enemy Flag's wait
    /// is hidden).
    #[inline]
    #[must_use]
    pub fn own_waiting_flag(&self) -> Option<Square> {
        self.own_waiting_flag
    }
}

/// The game as a spectator sees it: every piece with its side and id and no rank, the side to
/// move, the public log and the status. It is a function of the public history only (the
/// start squares and every ply's move, announcement and status), so it is the same for every
/// assignment of hidden ranks: what a server may show someone who holds neither seat.
///
/// # Examples
/// ```
/// use salpakan::{Game, Rules, Setup, Side};
///
/// let rules = Rules::default();
/// let game = Game::dealt(Side::White, rules, 1);
/// let public = game.public_view();
/// assert_eq!(public.cells().iter().flatten().count(), 42);
/// let text = public.to_text().to_string();
/// assert!(text.contains("XX") && text.contains("xx") && !text.contains("FL"));
/// # Ok::<_, salpakan::SetupError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PublicView {
    #[cfg_attr(feature = "serde", serde(with = "ids_serde"))]
    cells: [Option<PieceId>; Square::NUM],
    #[cfg_attr(feature = "serde", serde(flatten))]
    facts: Facts,
}

impl PublicView {
    facts_accessors!();

    /// The public view of a game.
    #[must_use]
    pub fn new(game: &Game) -> PublicView {
        let position = game.position();
        let mut cells = [None; Square::NUM];
        for square in position.occupied_all() {
            cells[square.index()] = game.piece_id_at(square);
        }
        PublicView {
            cells,
            facts: Facts::of(game),
        }
    }

    /// The 72 cells indexed by square: the piece standing there (its id says its side), or
    /// `None`.
    #[inline]
    #[must_use]
    pub fn cells(&self) -> &[Option<PieceId>; Square::NUM] {
        &self.cells
    }

    /// The piece on `square`, if any.
    #[inline]
    #[must_use]
    pub fn cell(&self, square: Square) -> Option<PieceId> {
        self.cells[square.index()]
    }
}

impl Game {
    /// The game as `side` sees it: its own pieces with rank and id, enemy pieces with id only,
    /// the side to move, the public log and the status.
    #[must_use]
    pub fn view(&self, side: Side) -> View {
        View::new(self, side)
    }

    /// The game as a spectator sees it: every piece's side and id, no rank.
    #[must_use]
    pub fn public_view(&self) -> PublicView {
        PublicView::new(self)
    }
}

impl fmt::Display for PublicView {
    /// The board with row 8 at the top: White's pieces as `XX`, Black's as `xx`, empty squares
    /// as `.`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..8).rev() {
            write!(f, "{} ", row + 1)?;
            for file in 0..9 {
                let square = Square::from_coords(file, row).expect("on the board");
                let text = match self.cell(square).map(PieceId::side) {
                    None => ".",
                    Some(Side::White) => "XX",
                    Some(Side::Black) => "xx",
                };
                write!(f, " {text:<2}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a  b  c  d  e  f  g  h  i")?;
        self.facts.footer(f, "a spectator")
    }
}

impl fmt::Display for View {
    /// The board with row 8 at the top: own pieces by rank code (upper case for White, lower
    /// case for Black), enemy pieces as `XX`/`xx`, empty squares as `.`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let enemy = self.side.other();
        for row in (0..8).rev() {
            write!(f, "{} ", row + 1)?;
            for file in 0..9 {
                let square = Square::from_coords(file, row).expect("on the board");
                let text = match self.cell(square) {
                    ViewCell::Empty => ".",
                    ViewCell::Own { rank, .. } => rank.code_for(self.side),
                    ViewCell::Enemy { .. } => match enemy {
                        Side::White => "XX",
                        Side::Black => "xx",
                    },
                };
                write!(f, " {text:<2}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a  b  c  d  e  f  g  h  i")?;
        self.facts.footer(f, self.side)
    }
}

/// serde for the 72 public cells (serde's derives stop at arrays of 32).
#[cfg(feature = "serde")]
mod ids_serde {
    use super::{PieceId, Square};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(
        cells: &[Option<PieceId>; Square::NUM],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        cells.as_slice().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<[Option<PieceId>; Square::NUM], D::Error> {
        let cells = Vec::<Option<PieceId>>::deserialize(d)?;
        let n = cells.len();
        cells
            .try_into()
            .map_err(|_| serde::de::Error::invalid_length(n, &"72 cells"))
    }
}

/// serde for the 72 cells (serde's derives stop at arrays of 32).
#[cfg(feature = "serde")]
mod cells_serde {
    use super::{Square, ViewCell};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(
        cells: &[ViewCell; Square::NUM],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        cells.as_slice().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<[ViewCell; Square::NUM], D::Error> {
        let cells = Vec::<ViewCell>::deserialize(d)?;
        let n = cells.len();
        cells
            .try_into()
            .map_err(|_| serde::de::Error::invalid_length(n, &"72 cells"))
    }
}
