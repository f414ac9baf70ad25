//! The arbiter's full-information position: play, legality and the end-of-game rules.

use thiserror::Error;

use crate::arbiter::{Outcome, challenge};
use crate::bitboard::Bitboard;
use crate::movegen::{Move, MoveList};
use crate::rank::Rank;
use crate::rules::Rules;
use crate::setup::{Setup, SetupError};
use crate::side::Side;
use crate::square::{Direction, Square};
use crate::status::{DrawReason, Status, WinReason};

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
}

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
/// let white = Setup::random(Side::White, &rules, 1);
/// let black = Setup::random(Side::Black, &rules, 2);
/// let mut pos = Position::new(&white, &black, Side::White, &rules)?;
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
    ply: u32,
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
        rules: &Rules,
    ) -> Result<Position, SetupError> {
        let mut pos = Position {
            occupied: [Bitboard::EMPTY; 2],
            board: [None; Square::NUM],
            side_to_move: first,
            waiting_flag: None,
            status: Status::Ongoing,
            plies_since_challenge: 0,
            move_limit: rules.move_limit().unwrap_or(0),
            ply: 0,
        };
        for (expected, setup) in [(Side::White, white), (Side::Black, black)] {
            if setup.side() != expected {
                return Err(SetupError::WrongSide {
                    expected,
                    found: setup.side(),
                });
            }
            setup.check_zone(rules)?;
            for (square, rank) in setup.pieces() {
                pos.board[square.index()] = Some(rank);
                pos.occupied[expected.index()] = pos.occupied[expected.index()].with(square);
            }
        }
        Ok(pos)
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side_to_move
    }

    /// The game's status.
    #[inline]
    pub fn status(&self) -> Status {
        self.status
    }

    /// The squares of `side`'s pieces.
    #[inline]
    pub fn occupied(&self, side: Side) -> Bitboard {
        self.occupied[side.index()]
    }

    /// The squares of all pieces.
    #[inline]
    pub fn occupied_all(&self) -> Bitboard {
        self.occupied[0] | self.occupied[1]
    }

    /// The piece on `square`, with its side and rank.
    #[inline]
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
    /// opponent's one reply (RULES.md, "Flag reaches the far end"). It belongs to the side not
    /// to move.
    #[inline]
    pub fn waiting_flag(&self) -> Option<Square> {
        self.waiting_flag
    }

    /// Plies played since the last challenge (or the start), as the move limit counts them.
    #[inline]
    pub fn plies_since_challenge(&self) -> u16 {
        self.plies_since_challenge
    }

    /// The move limit in force (plies without a challenge before a draw), if any.
    #[inline]
    pub fn move_limit(&self) -> Option<u16> {
        (self.move_limit != 0).then_some(self.move_limit)
    }

    /// Plies played since the start.
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The target squares of the side to move's pieces stepping in `direction`.
    #[inline]
    fn targets(&self, direction: Direction) -> Bitboard {
        let own = self.occupied[self.side_to_move.index()];
        own.shift(direction) & !own
    }

    /// Every legal move of the side to move, none once the game has ended. Generated from four
    /// shifted bitboards (one per direction); never allocates.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if !self.status.is_ongoing() {
            return list;
        }
        for direction in Direction::ALL {
            let back = direction.index_delta();
            for to in self.targets(direction) {
                let from = Square::new_unchecked((to.index() as i8 - back) as u8);
                list.push(Move { from, to });
            }
        }
        list
    }

    /// The number of legal moves, counted from the bitboards without listing them.
    #[inline]
    pub fn count_legal_moves(&self) -> u32 {
        if !self.status.is_ongoing() {
            return 0;
        }
        Direction::ALL
            .into_iter()
            .map(|direction| self.targets(direction).len())
            .sum()
    }

    /// Checks that `mv` is legal for the side to move.
    ///
    /// # Errors
    /// The [`MoveError`] that [`Position::play`] would give.
    pub fn check_move(&self, mv: Move) -> Result<(), MoveError> {
        if !self.status.is_ongoing() {
            return Err(MoveError::GameOver {
                status: self.status,
            });
        }
        let us = self.side_to_move;
        let Some((owner, _)) = self.piece_at(mv.from) else {
            return Err(MoveError::EmptySquare { square: mv.from });
        };
        if owner != us {
            return Err(MoveError::NotYourPiece {
                square: mv.from,
                owner,
            });
        }
        if mv.direction().is_none() {
            return Err(MoveError::NotAdjacent {
                from: mv.from,
                to: mv.to,
            });
        }
        if self.occupied[us.index()].has(mv.to) {
            return Err(MoveError::OwnPiece {
                to: mv.to,
                side: us,
            });
        }
        Ok(())
    }

    /// Whether `mv` is legal for the side to move.
    #[inline]
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check_move(mv).is_ok()
    }

    /// Plays `mv` for the side to move: a plain move, or a challenge resolved by the arbiter,
    /// then the end-of-game rules. Returns the arbiter's announcement.
    ///
    /// # Errors
    /// [`MoveError`] if the game is over or the move is illegal; the position is then unchanged.
    pub fn play(&mut self, mv: Move) -> Result<Report, MoveError> {
        self.check_move(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// Plays a move known to be legal (for example one from [`Position::legal_moves`]), skipping
    /// the checks. An illegal move leaves the position in an unspecified (but memory-safe) state.
    pub fn play_unchecked(&mut self, mv: Move) -> Report {
        let us = self.side_to_move;
        let them = us.other();
        let (from, to) = (Bitboard::from_square(mv.from), Bitboard::from_square(mv.to));
        let attacker = self.board[mv.from.index()].unwrap_or(Rank::Private);
        self.board[mv.from.index()] = None;
        self.occupied[us.index()] ^= from;

        let mut flag_lost = None;
        let mut arrived = None;
        let outcome = if let Some(defender) = self.board[mv.to.index()] {
            let outcome = challenge(attacker, defender);
            match outcome {
                Outcome::Win => {
                    self.occupied[them.index()] ^= to;
                    self.occupied[us.index()] |= to;
                    self.board[mv.to.index()] = Some(attacker);
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
                }
            }
            self.plies_since_challenge = 0;
            Some(outcome)
        } else {
            self.occupied[us.index()] |= to;
            self.board[mv.to.index()] = Some(attacker);
            self.plies_since_challenge = self.plies_since_challenge.saturating_add(1);
            if attacker == Rank::Flag && mv.to.row() == us.far_row() {
                arrived = Some(mv.to);
            }
            None
        };
        self.ply = self.ply.wrapping_add(1);

        self.status = if let Some(loser) = flag_lost {
            Status::Won {
                winner: loser.other(),
                reason: WinReason::FlagCaptured,
            }
        } else if self.waiting_flag.is_some() {
            // The opponent had its one reply and did not capture the waiting Flag.
            Status::Won {
                winner: them,
                reason: WinReason::FlagReachedEnd,
            }
        } else if let Some(square) = arrived {
            if (Bitboard::from_square(square).neighbours() & self.occupied[them.index()]).is_empty()
            {
                Status::Won {
                    winner: us,
                    reason: WinReason::FlagReachedEnd,
                }
            } else {
                self.waiting_flag = Some(square);
                Status::Ongoing
            }
        } else if self.move_limit != 0 && self.plies_since_challenge >= self.move_limit {
            Status::Drawn {
                reason: DrawReason::MoveLimit,
            }
        } else {
            Status::Ongoing
        };
        if !self.status.is_ongoing() {
            self.waiting_flag = None;
        }
        self.side_to_move = them;
        Report {
            mv,
            outcome,
            status: self.status,
        }
    }

    /// `side` resigns; the other side wins. Either side may resign at any time.
    ///
    /// # Errors
    /// [`MoveError::GameOver`] if the game has already ended.
    pub fn resign(&mut self, side: Side) -> Result<Status, MoveError> {
        self.end(Status::Won {
            winner: side.other(),
            reason: WinReason::Resignation,
        })
    }

    /// Both sides agree to a draw.
    ///
    /// # Errors
    /// [`MoveError::GameOver`] if the game has already ended.
    pub fn agree_draw(&mut self) -> Result<Status, MoveError> {
        self.end(Status::Drawn {
            reason: DrawReason::Agreement,
        })
    }

    fn end(&mut self, status: Status) -> Result<Status, MoveError> {
        if !self.status.is_ongoing() {
            return Err(MoveError::GameOver {
                status: self.status,
            });
        }
        self.status = status;
        self.waiting_flag = None;
        Ok(status)
    }

    /// Perft: the number of move sequences of length `depth` from this position (RULES.md).
    /// `perft(0)` is 1; a finished game contributes 0 at depth 1 or more. The last ply is
    /// counted from the bitboards without being played (bulk counting).
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => u64::from(self.count_legal_moves()),
            _ => self
                .legal_moves()
                .into_iter()
                .map(|mv| {
                    let mut next = *self;
                    next.play_unchecked(mv);
                    next.perft(depth - 1)
                })
                .sum(),
        }
    }
}
