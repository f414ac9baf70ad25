//! Following a game from one side: its own setup plus the public events, nothing else.

use crate::arbiter::{Outcome, challenge};
use crate::bitboard::Bitboard;
use crate::piece::{IdBoard, PieceId, initial_ids, move_ids};
use crate::position::Report;
use crate::rank::Rank;
use crate::rules::Rules;
use crate::setup::Setup;
use crate::side::Side;
use crate::square::Square;
use crate::status::{DrawReason, Status, WinReason};

use super::error::ObserveError;
use super::rankset::RankSet;

/// One side's knowledge of a game: its own setup, where the enemy's pieces started, and the
/// public events since, as a constraint on each enemy piece's rank.
///
/// A game server builds one from a [`crate::Game`] ([`crate::Game::tracker`]); a game client
/// builds one from what it was told ([`Tracker::new`] and [`Tracker::observe`]) and gets the
/// same [`Beliefs`](crate::Beliefs).
///
/// Every public fact is used: the outcome of each challenge against the tracking side's own
/// known rank; that a removed enemy piece was not the Flag if the game went on; that an enemy
/// piece reaching its far row was not the Flag if the game went on (at once with no piece of
/// ours beside it, or after our reply if one was); that it was the Flag if the game then ended
/// that way, or if the move limit was reached and the game still went on (a waiting Flag holds
/// the draw off).
///
/// # Examples
/// ```
/// use salpakan::{Game, Rank, Rules, Setup, Side, Tracker};
///
/// let rules = Rules::default();
/// let mut game = Game::new(
///     Setup::random(Side::White, &rules, 1),
///     Setup::random(Side::Black, &rules, 2),
///     Side::White,
///     rules,
/// )?;
/// // A client that knows only White's setup and where Black's pieces stand.
/// let mut client = Tracker::new(
///     game.setup(Side::White).unwrap(),
///     game.setup(Side::Black).unwrap().occupied(),
///     Side::White,
///     &rules,
/// )?;
/// for _ in 0..20 {
///     let mv = game.legal_moves()[0];
///     let report = game.play(mv)?;
///     client.observe(&report)?;
/// }
/// assert_eq!(client.beliefs()?, game.beliefs(Side::White)?);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tracker {
    side: Side,
    move_limit: u16,
    own_ranks: [Rank; Rank::ARMY_SIZE],
    enemy_start: [Square; Rank::ARMY_SIZE],
    sets: [RankSet; Rank::ARMY_SIZE],
    ids: IdBoard,
    side_to_move: Side,
    status: Status,
    plies_since_challenge: u16,
    own_flag_waiting: bool,
    enemy_pending: Option<PieceId>,
    history: Vec<Report>,
}

impl Tracker {
    /// A tracker for the side of `own`, whose enemy's pieces start on `enemy_squares`, with
    /// `first` to move under `rules`.
    ///
    /// # Errors
    /// [`ObserveError::Start`] if `enemy_squares` is not 21 squares of the enemy's setup zone
    /// apart from the tracking side's own pieces.
    pub fn new(
        own: &Setup,
        enemy_squares: Bitboard,
        first: Side,
        rules: &Rules,
    ) -> Result<Tracker, ObserveError> {
        let side = own.side();
        let enemy = side.other();
        if enemy_squares.len() as usize != Rank::ARMY_SIZE {
            return Err(ObserveError::Start(format!(
                "{enemy} has {} pieces, not {}",
                enemy_squares.len(),
                Rank::ARMY_SIZE
            )));
        }
        if let Some(square) = (enemy_squares & !rules.setup_zone(enemy)).first() {
            return Err(ObserveError::Start(format!(
                "{enemy}'s piece on {square} is outside its setup zone"
            )));
        }
        let own_squares = own.occupied();
        if let Some(square) = (enemy_squares & own_squares).first() {
            return Err(ObserveError::Start(format!(
                "{square} holds a piece of both sides"
            )));
        }
        let (white, black) = match side {
            Side::White => (own_squares, enemy_squares),
            Side::Black => (enemy_squares, own_squares),
        };
        let mut own_ranks = [Rank::Flag; Rank::ARMY_SIZE];
        for (slot, (_, rank)) in own_ranks.iter_mut().zip(own.pieces()) {
            *slot = rank;
        }
        let mut enemy_start = [Square::clamped(0); Rank::ARMY_SIZE];
        for (slot, square) in enemy_start.iter_mut().zip(enemy_squares) {
            *slot = square;
        }
        Ok(Tracker {
            side,
            move_limit: rules.move_limit().unwrap_or(0),
            own_ranks,
            enemy_start,
            sets: [RankSet::all(); Rank::ARMY_SIZE],
            ids: initial_ids(white, black),
            side_to_move: first,
            status: Status::Ongoing,
            plies_since_challenge: 0,
            own_flag_waiting: false,
            enemy_pending: None,
            history: Vec::new(),
        })
    }

    /// The tracking side.
    #[inline]
    pub fn side(&self) -> Side {
        self.side
    }

    /// The public history so far: every ply's move, outcome and status.
    #[inline]
    pub fn history(&self) -> &[Report] {
        &self.history
    }

    /// The game's status as observed.
    #[inline]
    pub fn status(&self) -> Status {
        self.status
    }

    /// The piece on `square`, if any.
    #[inline]
    pub fn piece_at(&self, square: Square) -> Option<PieceId> {
        self.ids[square.index()]
    }

    /// The square an enemy piece (by number, 0..21) stands on, if it is still on the board.
    pub fn enemy_square(&self, number: usize) -> Option<Square> {
        let id = PieceId::new(self.side.other(), number)?;
        Square::ALL
            .into_iter()
            .find(|square| self.ids[square.index()] == Some(id))
    }

    /// The square an enemy piece (by number) started on.
    pub fn enemy_start(&self, number: usize) -> Option<Square> {
        self.enemy_start.get(number).copied()
    }

    /// The rank of one of the tracking side's own pieces (by number).
    pub fn own_rank(&self, number: usize) -> Option<Rank> {
        self.own_ranks.get(number).copied()
    }

    /// The ranks each enemy piece (by number) can still have, from the facts about that piece
    /// alone. The army's composition narrows them further: see [`Beliefs`](crate::Beliefs).
    #[inline]
    pub fn constraints(&self) -> &[RankSet; Rank::ARMY_SIZE] {
        &self.sets
    }

    fn rank_of_own(&self, id: PieceId) -> Rank {
        self.own_ranks[id.number()]
    }

    /// Takes in one ply of the public log. On an error the tracker is unchanged.
    ///
    /// # Errors
    /// [`ObserveError`] if the game is over, the move is impossible, or the outcome or status
    /// contradicts what is known.
    pub fn observe(&mut self, report: &Report) -> Result<(), ObserveError> {
        if !self.status.is_ongoing() {
            return Err(ObserveError::GameOver {
                status: self.status,
            });
        }
        let ply = self.history.len() + 1;
        let mv = report.mv;
        let illegal = |why| ObserveError::IllegalMove { ply, mv, why };
        let inconsistent = |why| ObserveError::Inconsistent {
            ply,
            mv,
            reported: report.status,
            why,
        };
        let me = self.side;
        let enemy = me.other();
        let mover = self.side_to_move;
        let x = self.ids[mv.from.index()]
            .filter(|id| id.side() == mover)
            .ok_or_else(|| illegal("no piece of the side to move stands on its start"))?;
        if !Bitboard::from_square(mv.from).neighbours().has(mv.to) {
            return Err(illegal(
                "not a step of one square forward, backward, left or right",
            ));
        }
        let y = self.ids[mv.to.index()];
        if y.is_some_and(|id| id.side() == mover) {
            return Err(illegal("its target holds a piece of the same side"));
        }
        if y.is_some() != report.outcome.is_some() {
            return Err(inconsistent(
                "a challenge (a move onto an enemy piece) has an outcome, a plain move none",
            ));
        }

        let mut sets = self.sets;
        let not_flag = RankSet::all().difference(RankSet::FLAG);
        let mut enemy_removed = None;
        let mut own_flag_lost = false;
        if let (Some(y), Some(outcome)) = (y, report.outcome) {
            let (e, own, e_attacks) = if mover == me {
                (y, self.rank_of_own(x), false)
            } else {
                (x, self.rank_of_own(y), true)
            };
            sets[e.number()] &= if e_attacks {
                RankSet::filter(|r| challenge(r, own) == outcome)
            } else {
                RankSet::filter(|r| challenge(own, r) == outcome)
            };
            let (e_removed, own_removed) = match (outcome, e_attacks) {
                (Outcome::Tie, _) => (true, true),
                (Outcome::Win, true) | (Outcome::Lose, false) => (false, true),
                (Outcome::Lose, true) | (Outcome::Win, false) => (true, false),
            };
            if e_removed {
                enemy_removed = Some(e);
            }
            own_flag_lost = own_removed && own == Rank::Flag;
        }
        let plies = if y.is_some() {
            0
        } else {
            self.plies_since_challenge.saturating_add(1)
        };
        let limit_reached = self.move_limit != 0 && plies >= self.move_limit;
        let status = report.status;
        let won = |winner, reason| Status::Won { winner, reason };
        let mut own_flag_waiting = false;
        let mut enemy_pending = None;

        // The end-of-game rules in the arbiter's order; each unknown is one enemy piece's
        // flag-ness, so every fact becomes a constraint on a single piece.
        'rules: {
            if own_flag_lost {
                if status != won(enemy, WinReason::FlagCaptured) {
                    return Err(inconsistent("our Flag was removed, so the enemy has won"));
                }
                break 'rules;
            }
            if status == won(me, WinReason::FlagCaptured) {
                let e = enemy_removed.ok_or_else(|| inconsistent("no enemy piece was removed"))?;
                sets[e.number()] &= RankSet::FLAG;
                break 'rules;
            }
            if let Some(e) = enemy_removed {
                sets[e.number()] &= not_flag;
            }
            if self.own_flag_waiting {
                if status != won(me, WinReason::FlagReachedEnd) {
                    return Err(inconsistent(
                        "our waiting Flag was not captured, so we have won",
                    ));
                }
                break 'rules;
            }
            if let Some(p) = self.enemy_pending {
                if status == won(enemy, WinReason::FlagReachedEnd) {
                    sets[p.number()] &= RankSet::FLAG;
                    break 'rules;
                }
                sets[p.number()] &= not_flag;
            }
            if y.is_none() && mv.to.row() == mover.far_row() {
                let guarded = Bitboard::from_square(mv.to)
                    .neighbours()
                    .any(|s| self.ids[s.index()].is_some_and(|id| id.side() != mover));
                if mover == me {
                    if self.rank_of_own(x) == Rank::Flag {
                        let expected = if guarded {
                            own_flag_waiting = true;
                            Status::Ongoing
                        } else {
                            won(me, WinReason::FlagReachedEnd)
                        };
                        if status != expected {
                            return Err(inconsistent("our Flag reached the far row"));
                        }
                        break 'rules;
                    }
                } else if !guarded {
                    if status == won(enemy, WinReason::FlagReachedEnd) {
                        sets[x.number()] &= RankSet::FLAG;
                        break 'rules;
                    }
                    sets[x.number()] &= not_flag;
                } else if status.is_ongoing() {
                    // A Flag would wait here; anything else goes on (or is drawn by the limit).
                    if limit_reached {
                        sets[x.number()] &= RankSet::FLAG;
                    }
                    enemy_pending = Some(x);
                    break 'rules;
                } else {
                    sets[x.number()] &= not_flag;
                }
            }
            let expected = if limit_reached {
                Status::Drawn {
                    reason: DrawReason::MoveLimit,
                }
            } else {
                Status::Ongoing
            };
            if status != expected {
                return Err(inconsistent("nothing in this move ends the game that way"));
            }
        }

        move_ids(&mut self.ids, mv, report.outcome);
        self.sets = sets;
        self.plies_since_challenge = plies;
        self.side_to_move = mover.other();
        self.status = status;
        self.own_flag_waiting = own_flag_waiting;
        self.enemy_pending = enemy_pending;
        self.history.push(*report);
        Ok(())
    }

    /// Takes in the end of the game by resignation or agreement (which says nothing of ranks).
    ///
    /// # Errors
    /// [`ObserveError::GameOver`] if the game had already ended; [`ObserveError::NotAnEnd`] if
    /// `status` is not a resignation or an agreed draw.
    pub fn observe_end(&mut self, status: Status) -> Result<(), ObserveError> {
        if !self.status.is_ongoing() {
            return Err(ObserveError::GameOver {
                status: self.status,
            });
        }
        match status {
            Status::Won {
                reason: WinReason::Resignation,
                ..
            }
            | Status::Drawn {
                reason: DrawReason::Agreement,
            } => {
                self.status = status;
                self.own_flag_waiting = false;
                self.enemy_pending = None;
                Ok(())
            }
            _ => Err(ObserveError::NotAnEnd { status }),
        }
    }
}
