//! One side's formation: validation against the rules and seeded random setups.

use crate::prelude::*;
use core::fmt;

use thiserror::Error;

use crate::error_kind::{ErrorKind, engine_error};

use crate::bitboard::Bitboard;
use crate::rank::Rank;
use crate::rng::SplitMix64;
use crate::rules::Rules;
use crate::side::Side;
use crate::square::Square;

/// One side's formation: 21 pieces of the right ranks on distinct squares of its setup zone.
/// A `Setup` is always valid for the rules it was built with.
///
/// # Examples
/// ```
/// use salpakan::{Rank, Rules, Setup, SetupError, Side};
///
/// let rules = Rules::default();
/// let white = Setup::random(Side::White, rules, 42);
/// assert_eq!(white.pieces().count(), 21);
///
/// // The same pieces with one Private moved outside the zone is rejected, naming the square.
/// let mut pieces: Vec<_> = white.pieces().collect();
/// let private = pieces.iter_mut().find(|(_, rank)| *rank == Rank::Private).unwrap();
/// private.0 = "e5".parse()?;
/// let err = Setup::new(Side::White, rules, pieces).unwrap_err();
/// assert_eq!(err.to_string(), "square e5 is outside White's setup zone (rows 1-3)");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Setup {
    side: Side,
    cells: [Option<Rank>; Square::NUM],
    /// The squares of `cells` that hold a piece, kept beside them.
    occupied: Bitboard,
}

/// What is wrong with a setup. Each variant names the square or rank at fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum SetupError {
    /// Two pieces were placed on one square.
    #[error("two pieces on square {square}")]
    SquareTaken {
        /// The square placed twice.
        square: Square,
    },
    /// A piece was placed outside the side's setup zone.
    #[error("square {square} is outside {side}'s setup zone ({})", zone_rows(*.side, *.rows))]
    OutsideZone {
        /// The side whose setup it is.
        side: Side,
        /// The square outside the zone.
        square: Square,
        /// The number of rows of the zone.
        rows: u8,
    },
    /// More pieces of one rank than an army has.
    #[error("too many of rank {} ({rank}): {found} placed, an army has {expected}", .rank.code())]
    TooMany {
        /// The over-counted rank.
        rank: Rank,
        /// How many an army has.
        expected: u8,
        /// How many were placed.
        found: u8,
    },
    /// Fewer pieces of one rank than an army has.
    #[error("too few of rank {} ({rank}): {found} placed, an army has {expected}", .rank.code())]
    TooFew {
        /// The under-counted rank.
        rank: Rank,
        /// How many an army has.
        expected: u8,
        /// How many were placed.
        found: u8,
    },
    /// A setup for one side was given where the other side's was expected.
    #[error("a setup for {found} was given where {expected}'s setup was expected")]
    WrongSide {
        /// The side expected.
        expected: Side,
        /// The side of the setup given.
        found: Side,
    },
}

impl SetupError {
    /// Its kind: always [`ErrorKind::Setup`].
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        ErrorKind::Setup
    }
}

fn zone_rows(side: Side, rows: u8) -> String {
    match side {
        Side::White => format!("rows 1-{rows}"),
        Side::Black => format!("rows {}-8", 9 - rows),
    }
}

/// Checks the number of pieces of each rank, in rank order.
/// A setup given as cell values (as the C ABI, the Python and the npm packages take them)
/// that does not make a setup: not one cell per square, a value that is no cell, or a
/// formation that breaks the rules.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CellsError {
    /// Not one cell per square.
    #[error("{0} cells: a setup has one per square, 72")]
    Count(usize),
    /// A cell that is neither a rank's number nor [`Setup::EMPTY_CELL`].
    #[error("cell {square} holds {value}: a rank is 0..15, an empty square 255")]
    Cell {
        /// The cell's square.
        square: Square,
        /// The value it holds, as the caller wrote it.
        value: String,
    },
    /// Cells that break the setup rules.
    #[error(transparent)]
    Setup(#[from] SetupError),
}

impl CellsError {
    /// Its kind: [`ErrorKind::Argument`] for what is no setup array, the kind of the
    /// [`SetupError`] for one that breaks the rules.
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        match self {
            CellsError::Count(_) | CellsError::Cell { .. } => ErrorKind::Argument,
            CellsError::Setup(e) => e.kind(),
        }
    }
}

engine_error!(SetupError, CellsError);

fn check_counts(counts: &[u32; Rank::NUM]) -> Result<(), SetupError> {
    for rank in Rank::ALL {
        let (found, expected) = (counts[rank.index()], rank.count());
        let found_u8 = found.min(u8::MAX as u32) as u8;
        if found > u32::from(expected) {
            return Err(SetupError::TooMany {
                rank,
                expected,
                found: found_u8,
            });
        }
        if found < u32::from(expected) {
            return Err(SetupError::TooFew {
                rank,
                expected,
                found: found_u8,
            });
        }
    }
    Ok(())
}

impl Setup {
    /// Validates a formation for `side` under `rules`.
    ///
    /// # Errors
    /// The first problem found, looking first at the squares in the order given
    /// ([`SetupError::SquareTaken`], [`SetupError::OutsideZone`]), then at the counts in rank
    /// order ([`SetupError::TooMany`], [`SetupError::TooFew`]).
    pub fn new(
        side: Side,
        rules: Rules,
        pieces: impl IntoIterator<Item = (Square, Rank)>,
    ) -> Result<Setup, SetupError> {
        let zone = rules.setup_zone(side);
        let mut cells = [None; Square::NUM];
        let mut occupied = Bitboard::EMPTY;
        let mut counts = [0u32; Rank::NUM];
        for (square, rank) in pieces {
            if cells[square.index()].is_some() {
                return Err(SetupError::SquareTaken { square });
            }
            if !zone.has(square) {
                return Err(SetupError::OutsideZone {
                    side,
                    square,
                    rows: rules.setup_rows(),
                });
            }
            cells[square.index()] = Some(rank);
            occupied = occupied.with(square);
            counts[rank.index()] += 1;
        }
        check_counts(&counts)?;
        Ok(Setup {
            side,
            cells,
            occupied,
        })
    }

    /// Validates a formation given as 72 cells indexed by square (`None` for an empty square).
    ///
    /// # Errors
    /// As [`Setup::new`] with the pieces in square order.
    pub fn from_cells(
        side: Side,
        rules: Rules,
        cells: &[Option<Rank>; Square::NUM],
    ) -> Result<Setup, SetupError> {
        // Without a branch per cell: whether a random formation's cell is empty is a coin
        // toss the branch predictor loses.
        let (mut low, mut high) = (0u64, 0u64);
        for (i, cell) in cells[..64].iter().enumerate() {
            low |= u64::from(cell.is_some()) << i;
        }
        for (i, cell) in cells[64..].iter().enumerate() {
            high |= u64::from(cell.is_some()) << i;
        }
        let occupied = Bitboard::from_bits((u128::from(high) << 64) + u128::from(low));
        let mut counts = [0u32; Rank::NUM];
        for square in occupied {
            if let Some(rank) = cells[square.index()] {
                counts[rank.index()] += 1;
            }
        }
        // One rank per cell, so no square is taken twice; the first square outside the zone
        // in square order is the first problem found.
        if let Some(square) = (occupied & !rules.setup_zone(side)).first() {
            return Err(SetupError::OutsideZone {
                side,
                square,
                rows: rules.setup_rows(),
            });
        }
        check_counts(&counts)?;
        Ok(Setup {
            side,
            cells: *cells,
            occupied,
        })
    }

    /// A uniformly random valid setup for `side`, from `seed`. The same arguments give the same
    /// setup on every platform: the zone's squares, in index order, are shuffled with
    /// [`SplitMix64`] (Fisher–Yates), and the army, in rank order (Flag, six Privates, Sergeant,
    /// …, 5-Star General, two Spies), is placed on the first 21 of them.
    ///
    /// # A seed is a key
    /// Anyone who knows (or can guess) the seed knows the whole formation, Flag included, and
    /// an opponent who sees where the pieces stand can try every seed of a small range until
    /// one fits. A formation played against a person must come from a secret seed of at least
    /// 64 bits drawn from the operating system's generator (`getrandom`, `/dev/urandom`,
    /// `crypto.getRandomValues`), never from a clock, a counter or a non-cryptographic
    /// generator. Small fixed seeds are for tests, benches and bots playing bots. The Python
    /// and JavaScript `Setup.random` draw such a seed themselves when none is given.
    ///
    /// # Examples
    /// ```
    /// use salpakan::{Rules, Setup, Side};
    ///
    /// let rules = Rules::default();
    /// // Reproducible, for a test: the same seed, the same formation.
    /// assert_eq!(Setup::random(Side::White, rules, 7), Setup::random(Side::White, rules, 7));
    /// // For a person's game, the seed is 64 secret bits from the OS, such as
    /// // `getrandom::u64()?` of the `getrandom` crate (the server does that).
    /// # let secret = 0x9e37_79b9_7f4a_7c15;
    /// let formation = Setup::random(Side::White, rules, secret);
    /// assert_eq!(formation.pieces().count(), 21);
    /// ```
    #[must_use]
    pub fn random(side: Side, rules: Rules, seed: u64) -> Setup {
        // The zone has at most 4 rows of 9 squares.
        let zone = rules.setup_zone(side);
        let mut squares = [Square::ALL[0]; 36];
        for (slot, square) in squares.iter_mut().zip(zone) {
            *slot = square;
        }
        let squares = &mut squares[..zone.len() as usize];
        SplitMix64::new(seed).shuffle(squares);
        let army = Rank::ARMY;
        let mut cells = [None; Square::NUM];
        let mut occupied = Bitboard::EMPTY;
        for (&square, rank) in squares.iter().zip(army) {
            cells[square.index()] = Some(rank);
            occupied = occupied.with(square);
        }
        Setup {
            side,
            cells,
            occupied,
        }
    }

    /// The formation a game dealt from one `seed` gives `side`: [`Setup::random`] from `seed`
    /// for White and from `seed + 1` (wrapping) for Black, so that one seed deals two
    /// different armies. [`Game::dealt`](crate::Game::dealt) deals both; the Python and
    /// JavaScript `Game(seed)` deal the same games. As for [`Setup::random`], a seed is a key.
    ///
    /// # Examples
    /// ```
    /// use salpakan::{Rules, Setup, Side};
    ///
    /// let rules = Rules::default();
    /// assert_eq!(Setup::dealt(Side::White, rules, 7), Setup::random(Side::White, rules, 7));
    /// assert_eq!(Setup::dealt(Side::Black, rules, 7), Setup::random(Side::Black, rules, 8));
    /// ```
    #[must_use]
    pub fn dealt(side: Side, rules: Rules, seed: u64) -> Setup {
        Setup::random(side, rules, seed.wrapping_add(side.index() as u64))
    }

    /// The side this formation belongs to.
    #[inline]
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }

    /// The rank on `square`, if a piece stands there.
    #[inline]
    #[must_use]
    pub fn rank_at(&self, square: Square) -> Option<Rank> {
        self.cells[square.index()]
    }

    /// The 72 cells indexed by square.
    #[inline]
    #[must_use]
    pub fn cells(&self) -> &[Option<Rank>; Square::NUM] {
        &self.cells
    }

    /// The 21 pieces, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Rank)> + '_ {
        self.occupied
            .into_iter()
            .filter_map(|square| self.cells[square.index()].map(|rank| (square, rank)))
    }

    /// The squares the pieces stand on.
    #[must_use]
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// Checks that the formation fits `rules`' setup zone (a setup validated for the 4-row zone
    /// may not fit the 3-row one).
    ///
    /// # Errors
    /// [`SetupError::OutsideZone`] naming the first square outside the zone.
    pub fn check_zone(&self, rules: Rules) -> Result<(), SetupError> {
        let outside = self.occupied() & !rules.setup_zone(self.side);
        match outside.first() {
            Some(square) => Err(SetupError::OutsideZone {
                side: self.side,
                square,
                rows: rules.setup_rows(),
            }),
            None => Ok(()),
        }
    }
}

impl Setup {
    /// The value of an empty square in a setup's cell array (`SALPAKAN_NO_PIECE` in C).
    pub const EMPTY_CELL: u8 = 255;

    /// A setup from 72 cell values indexed by square: a rank's number (0 Flag … 14 Spy) or
    /// [`Setup::EMPTY_CELL`], as the C ABI, the Python and the npm packages take them.
    ///
    /// # Errors
    /// [`CellsError::Count`] for a length other than 72, [`CellsError::Cell`] for the first
    /// value that is no cell, [`CellsError::Setup`] for cells that break the rules (as
    /// [`Setup::from_cells`]).
    ///
    /// # Examples
    /// ```
    /// use salpakan::{CellsError, Rules, Setup, Side};
    /// use salpakan::bindings::ErrorKind;
    ///
    /// let rules = Rules::default();
    /// let setup = Setup::random(Side::White, rules, 7);
    /// let mut cells = setup.cell_values();
    /// assert_eq!(Setup::from_cell_values(Side::White, rules, &cells)?, setup);
    /// cells[0] = 15;
    /// let err = Setup::from_cell_values(Side::White, rules, &cells).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::Argument);
    /// # Ok::<_, CellsError>(())
    /// ```
    pub fn from_cell_values<T>(side: Side, rules: Rules, values: &[T]) -> Result<Setup, CellsError>
    where
        T: Copy + Into<i64> + fmt::Display,
    {
        let values: &[T; Square::NUM] = values
            .try_into()
            .map_err(|_| CellsError::Count(values.len()))?;
        // Checked first, then converted without a branch per cell (a random formation's empty
        // cells are a coin toss for the branch predictor).
        let rank = |value: i64| usize::try_from(value).ok().and_then(Rank::try_index);
        let valid = |value: i64| rank(value).is_some() || value == i64::from(Setup::EMPTY_CELL);
        if let Some(i) = values.iter().position(|&v| !valid(v.into())) {
            return Err(CellsError::Cell {
                square: Square::ALL[i],
                value: values[i].to_string(),
            });
        }
        let ranks: [Option<Rank>; Square::NUM] = core::array::from_fn(|i| rank(values[i].into()));
        Ok(Setup::from_cells(side, rules, &ranks)?)
    }

    /// The setup's 72 cell values indexed by square: rank numbers, [`Setup::EMPTY_CELL`] for
    /// an empty square.
    #[must_use]
    pub fn cell_values(&self) -> [u8; Square::NUM] {
        self.cells()
            .map(|cell| cell.map_or(Setup::EMPTY_CELL, |rank| rank as u8))
    }
}
