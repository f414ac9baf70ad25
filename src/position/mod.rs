//! The arbiter's full-information position: play, legality and the end-of-game rules.
//! Random playouts and perft live in the submodules.

mod parts;
mod perft;
mod playout;

pub(crate) use parts::Parts;
pub use playout::Playout;

use thiserror::Error;

use crate::error_kind::{ErrorKind, engine_error};

use crate::arbiter::{Outcome, challenge};
use crate::bitboard::Bitboard;
use crate::movegen::{self, ActionMask, Move, MoveList};
use crate::rank::Rank;
use crate::rules::Rules;
use crate::setup::{Setup, SetupError};
use crate::side::Side;
use crate::square::Square;
use crate::status::{DeclaredEnd, DrawReason, Status, WinReason};
use crate::zobrist;

/// What a move did, as the arbiter announces it: a plain move or a challenge with its
/// [`Outcome`] (from the attacker's side), and the game's status after the move. It never
/// holds a rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Report {
    /// The move played.
    pub mv: Move,
    /// `None` for a plain move, the outcome for a challenge.
    pub outcome: Option<Outcome>,
    /// The status after the move.
    pub status: Status,
}

/// Why a move or game action was refused. The position is unchanged. No message depends on a
/// hidden rank: each names only squares, sides and the public status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The game has ended; it accepts no more moves or actions.
    #[error("the game is over ({status})")]
    GameOver {
        /// How it ended.
        status: Status,
    },
    /// No piece stands on the square the move starts from.
    #[error("no piece on {square} to move")]
    EmptySquare {
        /// The empty square.
        square: Square,
    },
    /// The piece on the starting square belongs to the side not to move.
    #[error("the piece on {square} is {owner}'s, and it is {}'s turn", .owner.other())]
    NotYourPiece {
        /// The starting square.
        square: Square,
        /// The side that owns the piece there.
        owner: Side,
    },
    /// The target is not one step forward, backward, left or right of the start.
    #[error("{from} to {to} is not a move of one square forward, backward, left or right")]
    NotAdjacent {
        /// The starting square.
        from: Square,
        /// The target square.
        to: Square,
    },
    /// The target holds a piece of the side to move.
    #[error("{to} is occupied by {side}'s own piece")]
    OwnPiece {
        /// The target square.
        to: Square,
        /// The side to move.
        side: Side,
    },
    /// The game has played as many plies as its counter holds (`u32::MAX`, reachable only
    /// from a position text): the next move could not be counted, so none is played.
    #[error(
        "the game has played {} plies, the most the ply counter holds: no further move can be counted",
        u32::MAX
    )]
    PlyLimit,
}

impl MoveError {
    /// Its kind: [`ErrorKind::GameOver`] after the end, else [`ErrorKind::IllegalMove`].
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        match self {
            MoveError::GameOver { .. } => ErrorKind::GameOver,
            _ => ErrorKind::IllegalMove,
        }
    }
}

engine_error!(MoveError);

/// The arbiter's full-information state: every piece with its rank, the side to move, a Flag
/// waiting on its far row, the end of the game, and the counters. It is everything needed to
/// continue play and nothing more; it is small and `Copy`, so search and perft copy it.
///
/// Most users hold a [`crate::Game`], which owns a `Position` plus its history.
///
/// # Examples
/// ```
/// use salpakan::{Position, Rules, Setup, Side};
///
/// let rules = Rules::default();
/// let white = Setup::random(Side::White, rules, 1);
/// let black = Setup::random(Side::Black, rules, 2);
/// let mut pos = Position::new(&white, &black, Side::White, rules)?;
/// let mv = pos.legal_moves()[0];
/// let report = pos.play(mv).expect("a generated move is legal");
/// assert_eq!(report.outcome, None); // the armies start apart: no challenge yet
/// assert_eq!(pos.side_to_move(), Side::Black);
/// assert_eq!(pos.perft(1), pos.legal_moves().len() as u64);
/// # Ok::<_, salpakan::SetupError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    occupied: [Bitboard; 2],
    board: [Option<Rank>; Square::NUM],
    side_to_move: Side,
    waiting_flag: Option<Square>,
    status: Status,
    plies_since_challenge: u16,
    move_limit: u16,
    setup_rows: u8,
    ply: u32,
    hash: u64,
}

impl Position {
    /// The start position from two setups, the side that moves first and the rules.
    ///
    /// # Errors
    /// [`SetupError::WrongSide`] if `white` is not White's setup or `black` not Black's;
    /// [`SetupError::OutsideZone`] if a setup does not fit `rules`' setup zone.
    pub fn new(
        white: &Setup,
        black: &Setup,
        first: Side,
        rules: Rules,
    ) -> Result<Position, SetupError> {
        for (expected, setup) in [(Side::White, white), (Side::Black, black)] {
            if setup.side() != expected {
                return Err(SetupError::WrongSide {
                    expected,
                    found: setup.side(),
                });
            }
            setup.check_zone(rules)?;
        }
        // The two zones do not meet, so each square holds at most one side's piece.
        let (white_cells, black_cells) = (white.cells(), black.cells());
        let board = core::array::from_fn(|i| white_cells[i].or(black_cells[i]));
        let occupied = [white.occupied(), black.occupied()];
        Ok(Position::from_parts(Parts {
            occupied,
            board,
            side_to_move: first,
            waiting_flag: None,
            status: Status::Ongoing,
            plies_since_challenge: 0,
            rules,
            ply: 0,
        }))
    }

    /// A position from its parts (checked by the caller), its hash computed.
    pub(crate) fn from_parts(parts: Parts) -> Position {
        let mut pos = Position {
            occupied: parts.occupied,
            board: parts.board,
            side_to_move: parts.side_to_move,
            waiting_flag: parts.waiting_flag,
            status: parts.status,
            plies_since_challenge: parts.plies_since_challenge,
            move_limit: parts.rules.move_limit().unwrap_or(0),
            setup_rows: parts.rules.setup_rows(),
            ply: parts.ply,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    /// The rules the position is played under.
    #[inline]
    #[must_use]
    pub fn rules(&self) -> Rules {
        Rules::new(self.setup_rows, self.move_limit).unwrap_or(Rules::OFFICIAL)
    }

    /// The side to move.
    #[inline]
    #[must_use]
    pub fn side_to_move(&self) -> Side {
        self.side_to_move
    }

    /// The game's status.
    #[inline]
    #[must_use]
    pub fn status(&self) -> Status {
        self.status
    }

    /// The squares of `side`'s pieces.
    #[inline]
    #[must_use]
    pub fn occupied(&self, side: Side) -> Bitboard {
        self.occupied[side.index()]
    }

    /// The squares of all pieces.
    #[inline]
    #[must_use]
    pub fn occupied_all(&self) -> Bitboard {
        self.occupied[0] | self.occupied[1]
    }

    /// The piece on `square`, with its side and rank.
    #[inline]
    #[must_use]
    pub fn piece_at(&self, square: Square) -> Option<(Side, Rank)> {
        let rank = self.board[square.index()]?;
        let side = if self.occupied[0].has(square) {
            Side::White
        } else {
            Side::Black
        };
        Some((side, rank))
    }

    /// The square of a Flag that reached its far row next to an enemy piece and waits for the
    /// opponent's one reply ([rulebook](crate::rulebook), "Flag reaches the far end"). It belongs to the side not
    /// to move.
    #[inline]
    #[must_use]
    pub fn waiting_flag(&self) -> Option<Square> {
        self.waiting_flag
    }

    /// Plies played since the last challenge (or the start), as the move limit counts them.
    #[inline]
    #[must_use]
    pub fn plies_since_challenge(&self) -> u16 {
        self.plies_since_challenge
    }

    /// The move limit in force (plies without a challenge before a draw), if any.
    #[inline]
    #[must_use]
    pub fn move_limit(&self) -> Option<u16> {
        (self.move_limit != 0).then_some(self.move_limit)
    }

    /// Plies played since the start. The count stops at `u32::MAX` (4294967295) rather than
    /// wrapping to 0; no game plays that many.
    #[inline]
    #[must_use]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The Zobrist hash of the position: every piece (side, rank, square), the side to move
    /// and a waiting Flag; not the status or the counters. Updated incrementally by every move
    /// and the same on every platform, for transposition tables and repetition checks.
    #[inline]
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist hash computed from scratch (what [`Position::hash`] keeps up to date).
    pub(crate) fn compute_hash(&self) -> u64 {
        let mut hash = 0;
        for square in self.occupied_all() {
            if let Some((side, rank)) = self.piece_at(square) {
                hash ^= zobrist::piece(side, rank, square);
            }
        }
        if self.side_to_move == Side::Black {
            hash ^= zobrist::BLACK_TO_MOVE;
        }
        if let Some(square) = self.waiting_flag {
            hash ^= zobrist::WAITING_FLAG[square.index()];
        }
        hash
    }

    /// The squares of the side to move's pieces while the game goes on; none once it has
    /// ended, so that every generator below finds no move then.
    #[inline(always)]
    pub(crate) fn movers(&self) -> Bitboard {
        self.movers_of(self.side_to_move)
    }

    /// [`Position::movers`] for a side the caller knows is to move (a playout's per-side ply
    /// passes a constant).
    #[inline(always)]
    pub(crate) fn movers_of(&self, side: Side) -> Bitboard {
        if self.status.is_ongoing() {
            self.occupied[side.index()]
        } else {
            Bitboard::EMPTY
        }
    }

    /// For each direction (indexed by [`Direction::index`](crate::Direction::index)), the
    /// squares the side to move's pieces can step to in that direction: the legal moves as
    /// four bitboards (all empty once the game has ended). A move's start is its target
    /// stepped back.
    #[inline]
    #[must_use]
    pub fn move_targets(&self) -> [Bitboard; 4] {
        movegen::all_targets(self.movers())
    }

    /// Every legal move of the side to move, none once the game has ended: by direction (up,
    /// down, left, right), then by target square. Never allocates.
    #[inline]
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        movegen::list(self.movers())
    }

    /// Writes every legal move of the side to move to `out` as `[from, to]` square indices,
    /// in the order of [`Position::legal_moves`], and returns how many (none once the game
    /// has ended). For bindings that hand moves to another language as plain bytes (a C
    /// `SalpakanMove` is such a pair); on CPUs with AVX-512 it writes without a branch per
    /// move, which makes it the fastest way to list a fresh position's moves. The pairs past
    /// the count returned are unspecified (they may be overwritten).
    ///
    /// ```
    /// # use salpakan::{MoveList, Position, Rules, Setup, Side};
    /// # let rules = Rules::default();
    /// # let pos = Position::new(&Setup::random(Side::White, rules, 1),
    /// #     &Setup::random(Side::Black, rules, 2), Side::White, rules)?;
    /// let mut pairs = [[0u8; 2]; MoveList::CAPACITY];
    /// let n = pos.legal_move_pairs(&mut pairs);
    /// let list = pos.legal_moves();
    /// assert_eq!(n, list.len());
    /// assert_eq!(pairs[0], [list[0].from.index() as u8, list[0].to.index() as u8]);
    /// # Ok::<_, salpakan::SetupError>(())
    /// ```
    #[inline]
    pub fn legal_move_pairs(&self, out: &mut [[u8; 2]; MoveList::CAPACITY]) -> usize {
        movegen::write_pairs(self.movers(), out)
    }

    /// Calls `f` on every legal move of the side to move, in the order of
    /// [`Position::legal_moves`], until `f` returns `true`; returns whether it stopped early.
    /// No list is built. None once the game has ended.
    ///
    /// ```
    /// # use salpakan::{Position, Rules, Setup, Side};
    /// # let rules = Rules::default();
    /// # let pos = Position::new(&Setup::random(Side::White, rules, 1),
    /// #     &Setup::random(Side::Black, rules, 2), Side::White, rules)?;
    /// let mut n = 0;
    /// let stopped = pos.generate_moves(|_| {
    ///     n += 1;
    ///     false // go on
    /// });
    /// assert!(!stopped);
    /// assert_eq!(n, pos.legal_moves().len());
    /// // Stop at the first move onto row 4 (row index 3).
    /// assert!(pos.generate_moves(|mv| mv.to.row() == 3));
    /// # Ok::<_, salpakan::SetupError>(())
    /// ```
    #[inline(always)]
    pub fn generate_moves(&self, f: impl FnMut(Move) -> bool) -> bool {
        movegen::generate(self.movers(), f)
    }

    /// The number of legal moves, counted from the bitboards without listing them.
    #[inline(always)]
    #[must_use]
    pub fn count_legal_moves(&self) -> u32 {
        movegen::count(self.movers())
    }

    /// Checks that `mv` is legal for the side to move.
    ///
    /// # Errors
    /// The [`MoveError`] that [`Position::play`] would give.
    #[inline]
    pub fn check_move(&self, mv: Move) -> Result<(), MoveError> {
        let own = self.occupied[self.side_to_move.index()];
        // One branch for the five checks.
        if self.status.is_ongoing()
            & own.has(mv.from)
            & !own.has(mv.to)
            & mv.from.is_adjacent(mv.to)
            & (self.ply != u32::MAX)
        {
            Ok(())
        } else {
            Err(self.move_error(mv))
        }
    }

    /// Why `mv`, found illegal by [`Position::check_move`], is illegal: the first of its
    /// checks that fails, in the order the errors are documented.
    #[cold]
    #[inline(never)]
    fn move_error(&self, mv: Move) -> MoveError {
        if !self.status.is_ongoing() {
            return MoveError::GameOver {
                status: self.status,
            };
        }
        if self.ply == u32::MAX {
            return MoveError::PlyLimit;
        }
        let us = self.side_to_move;
        let Some((owner, _)) = self.piece_at(mv.from) else {
            return MoveError::EmptySquare { square: mv.from };
        };
        if owner != us {
            return MoveError::NotYourPiece {
                square: mv.from,
                owner,
            };
        }
        if !mv.from.is_adjacent(mv.to) {
            return MoveError::NotAdjacent {
                from: mv.from,
                to: mv.to,
            };
        }
        debug_assert!(self.occupied[us.index()].has(mv.to));
        MoveError::OwnPiece {
            to: mv.to,
            side: us,
        }
    }

    /// Whether `mv` is legal for the side to move.
    #[inline]
    #[must_use]
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check_move(mv).is_ok()
    }

    /// Plays `mv` for the side to move: a plain move, or a challenge resolved by the arbiter,
    /// then the end-of-game rules. Returns the arbiter's announcement.
    ///
    /// # Errors
    /// [`MoveError`] if the game is over or the move is illegal, or
    /// [`MoveError::PlyLimit`] once `u32::MAX` plies were played; the position is then
    /// unchanged.
    pub fn play(&mut self, mv: Move) -> Result<Report, MoveError> {
        self.check_move(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// Plays a move known to be legal (for example one from [`Position::legal_moves`]), skipping
    /// the checks. An illegal move leaves the position in an unspecified (but memory-safe) state.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) -> Report {
        self.make::<true>(mv)
    }

    /// [`Position::play_unchecked`], always inlined. With `HASH` false the Zobrist hash is not
    /// kept up to date: for the throwaway copies inside perft and playouts, which no caller
    /// ever sees.
    ///
    /// It branches on the side to move into a copy of the move's code for each side. That
    /// branch alternates and is predicted, so the work need not wait for the side to be read
    /// back from memory, and each copy indexes the side's bitboards and keys by a constant.
    #[inline(always)]
    pub(crate) fn make<const HASH: bool>(&mut self, mv: Move) -> Report {
        match self.side_to_move {
            Side::White => self.make_as::<HASH, false>(mv),
            Side::Black => self.make_as::<HASH, true>(mv),
        }
    }

    /// [`Position::make`] for a side to move known at compile time (`BLACK`).
    #[inline(always)]
    pub(crate) fn make_as<const HASH: bool, const BLACK: bool>(&mut self, mv: Move) -> Report {
        let us = if BLACK { Side::Black } else { Side::White };
        let them = us.other();
        let (from, to) = (Bitboard::from_square(mv.from), Bitboard::from_square(mv.to));
        let attacker = self.board[mv.from.index()].unwrap_or(Rank::Private);
        self.board[mv.from.index()] = None;
        self.side_to_move = them;
        self.ply = self.ply.saturating_add(1);
        // The hash's change, applied once on each path.
        let left = if HASH {
            zobrist::piece(us, attacker, mv.from) ^ zobrist::BLACK_TO_MOVE
        } else {
            0
        };

        let Some(defender) = self.board[mv.to.index()] else {
            // A plain move.
            self.occupied[us.index()] ^= from | to;
            self.board[mv.to.index()] = Some(attacker);
            if HASH {
                self.hash ^= left ^ zobrist::piece(us, attacker, mv.to);
            }
            self.plies_since_challenge = self.plies_since_challenge.saturating_add(1);
            if attacker != Rank::Flag && self.waiting_flag.is_none() && !self.limit_reached() {
                // Nothing can end the game: the common case, kept short.
                return Report {
                    mv,
                    outcome: None,
                    status: Status::Ongoing,
                };
            }
            let arrived = attacker == Rank::Flag && mv.to.row() == us.far_row();
            self.settle(us, None, arrived.then_some(mv.to));
            return Report {
                mv,
                outcome: None,
                status: self.status,
            };
        };

        // A challenge.
        if HASH {
            self.hash ^= left;
        }
        self.occupied[us.index()] ^= from;
        self.plies_since_challenge = 0;
        let outcome = challenge(attacker, defender);
        let mut flag_lost = None;
        match outcome {
            Outcome::Win => {
                self.occupied[them.index()] ^= to;
                self.occupied[us.index()] |= to;
                self.board[mv.to.index()] = Some(attacker);
                if HASH {
                    self.hash ^=
                        zobrist::piece(them, defender, mv.to) ^ zobrist::piece(us, attacker, mv.to);
                }
                if defender == Rank::Flag {
                    flag_lost = Some(them);
                }
            }
            Outcome::Lose => {
                if attacker == Rank::Flag {
                    flag_lost = Some(us);
                }
            }
            Outcome::Tie => {
                // Flag vs Flag is a win, so a tie never removes a Flag.
                self.occupied[them.index()] ^= to;
                self.board[mv.to.index()] = None;
                if HASH {
                    self.hash ^= zobrist::piece(them, defender, mv.to);
                }
            }
        }
        self.settle(us, flag_lost, None);
        Report {
            mv,
            outcome: Some(outcome),
            status: self.status,
        }
    }

    #[inline]
    fn limit_reached(&self) -> bool {
        self.move_limit != 0 && self.plies_since_challenge >= self.move_limit
    }

    /// The end-of-game rules of the [rulebook](crate::rulebook), applied after `mover`'s move: `flag_lost` is the side
    /// whose Flag the move removed, `arrived` the far-row square a Flag just moved onto.
    #[inline(never)]
    fn settle(&mut self, mover: Side, flag_lost: Option<Side>, arrived: Option<Square>) {
        let opponent = mover.other();
        self.status = if let Some(loser) = flag_lost {
            Status::Won {
                winner: loser.other(),
                reason: WinReason::FlagCaptured,
            }
        } else if self.waiting_flag.is_some() {
            // The opponent of the waiting Flag had its one reply and did not capture it.
            Status::Won {
                winner: opponent,
                reason: WinReason::FlagReachedEnd,
            }
        } else if let Some(square) = arrived {
            let guards =
                Bitboard::from_square(square).neighbours() & self.occupied[opponent.index()];
            if guards.is_empty() {
                Status::Won {
                    winner: mover,
                    reason: WinReason::FlagReachedEnd,
                }
            } else {
                self.waiting_flag = Some(square);
                self.hash ^= zobrist::WAITING_FLAG[square.index()];
                Status::Ongoing
            }
        } else if self.limit_reached() {
            Status::Drawn {
                reason: DrawReason::MoveLimit,
            }
        } else {
            Status::Ongoing
        };
        if !self.status.is_ongoing() {
            self.clear_waiting_flag();
        }
    }

    /// `side` resigns; the other side wins. Either side may resign at any time.
    ///
    /// # Errors
    /// [`MoveError::GameOver`] if the game has already ended.
    pub fn resign(&mut self, side: Side) -> Result<Status, MoveError> {
        self.declare(DeclaredEnd::Resignation { loser: side })
    }

    /// Both sides agree to a draw.
    ///
    /// # Errors
    /// [`MoveError::GameOver`] if the game has already ended.
    pub fn agree_draw(&mut self) -> Result<Status, MoveError> {
        self.declare(DeclaredEnd::Agreement)
    }

    /// Ends the game as `end` says, at any time: a resignation, an agreed draw, a loss on time
    /// or an abandonment (the last two a server decides).
    ///
    /// # Errors
    /// [`MoveError::GameOver`] if the game has already ended.
    pub fn declare(&mut self, end: DeclaredEnd) -> Result<Status, MoveError> {
        self.end(end.status())
    }

    fn end(&mut self, status: Status) -> Result<Status, MoveError> {
        if !self.status.is_ongoing() {
            return Err(MoveError::GameOver {
                status: self.status,
            });
        }
        self.status = status;
        self.clear_waiting_flag();
        Ok(status)
    }

    #[inline]
    fn clear_waiting_flag(&mut self) {
        if let Some(square) = self.waiting_flag.take() {
            self.hash ^= zobrist::WAITING_FLAG[square.index()];
        }
    }

    /// The legal moves as a mask of action ids (`from * 4 + direction`, see [`Move::action`]).
    #[must_use]
    pub fn legal_action_mask(&self) -> ActionMask {
        movegen::action_mask(self.movers())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Rules, Setup, SplitMix64};

    /// Random games, with every kind of move, resignations and draws: the incremental hash
    /// always equals the hash computed from scratch.
    #[test]
    fn the_incremental_hash_equals_the_recomputed_hash() {
        for seed in 0..300u64 {
            let rules =
                Rules::new(3 + (seed % 2) as u8, if seed % 3 == 0 { 40 } else { 0 }).unwrap();
            let mut pos = Position::new(
                &Setup::random(Side::White, rules, seed),
                &Setup::random(Side::Black, rules, seed + 1000),
                Side::ALL[(seed % 2) as usize],
                rules,
            )
            .unwrap();
            assert_eq!(pos.hash(), pos.compute_hash());
            let mut rng = SplitMix64::new(seed);
            while let Some(mv) = pos.random_move(&mut rng) {
                pos.play_unchecked(mv);
                assert_eq!(
                    pos.hash(),
                    pos.compute_hash(),
                    "seed {seed} ply {}",
                    pos.ply()
                );
                if pos.ply() == 500 {
                    let end = if seed % 2 == 0 {
                        pos.resign(Side::White)
                    } else {
                        pos.agree_draw()
                    };
                    assert!(end.is_ok());
                    assert_eq!(pos.hash(), pos.compute_hash());
                }
            }
        }
    }

    /// A setup with `fixed` pieces and the rest of the army on the zone squares nearest the
    /// home row, skipping `empty`.
    fn setup(side: Side, rules: Rules, fixed: &[(&str, Rank)], empty: &[&str]) -> Setup {
        let mut pieces: Vec<(Square, Rank)> = fixed
            .iter()
            .map(|(s, r)| (s.parse().unwrap(), *r))
            .collect();
        let mut army: Vec<Rank> = Rank::ARMY.to_vec();
        for (_, rank) in &pieces {
            let i = army.iter().position(|r| r == rank).unwrap();
            army.remove(i);
        }
        let mut zone: Vec<Square> = rules.setup_zone(side).collect();
        if side == Side::Black {
            zone.reverse();
        }
        let taken: Vec<Square> = pieces.iter().map(|p| p.0).collect();
        let free = zone
            .into_iter()
            .filter(|s| !taken.contains(s) && !empty.contains(&s.to_string().as_str()));
        pieces.extend(free.zip(army));
        Setup::new(side, rules, pieces).unwrap()
    }

    #[test]
    fn the_hash_covers_a_waiting_flag() {
        let rules = Rules::new(4, 0).unwrap();
        let white = setup(Side::White, rules, &[("a4", Rank::Flag)], &[]);
        let black = setup(
            Side::Black,
            rules,
            &[("b8", Rank::Private)],
            &["a5", "a6", "a7", "a8"],
        );
        let mut pos = Position::new(&white, &black, Side::White, rules).unwrap();
        for text in [
            "a4-a5", "i6-i5", "a5-a6", "i5-i6", "a6-a7", "i6-i5", "a7-a8",
        ] {
            pos.play(text.parse().unwrap()).unwrap();
            assert_eq!(pos.hash(), pos.compute_hash(), "{text}");
        }
        assert_eq!(pos.waiting_flag(), Some("a8".parse().unwrap()));
        // The same squares without the wait hash differently.
        let mut plain = pos;
        plain.clear_waiting_flag();
        assert_ne!(plain.hash(), pos.hash());
        let mut captured = pos;
        captured.play("b8-a8".parse().unwrap()).unwrap();
        assert_eq!(captured.hash(), captured.compute_hash());
        let mut ended = pos;
        ended.play("i5-i6".parse().unwrap()).unwrap();
        assert_eq!(ended.waiting_flag(), None);
        assert_eq!(ended.hash(), ended.compute_hash());
    }
}
