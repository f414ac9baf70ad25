//! Following a game from one side: its own setup plus the public events, nothing else.

use crate::arbiter::{Outcome, challenge};
use crate::bitboard::Bitboard;
use crate::movegen::{self, ActionMask, MoveList};
use crate::piece::{IdBoard, PieceId, initial_ids, move_ids};
use crate::position::Report;
use crate::rank::Rank;
use crate::rules::Rules;
use crate::setup::Setup;
use crate::side::Side;
use crate::square::Square;
use crate::status::{DeclaredEnd, DrawReason, Status, WinReason};

use std::sync::Arc;

use super::cache::{CountCache, PriorCache};
use super::count::Count;
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
/// use salpakan::{Game, Rank, Rules, Side, Tracker};
///
/// let rules = Rules::default();
/// let mut game = Game::dealt(Side::White, rules, 1);
/// // A client that knows only White's setup and where Black's pieces stand.
/// let mut client = Tracker::new(
///     game.setup(Side::White).unwrap(),
///     game.setup(Side::Black).unwrap().occupied(),
///     Side::White,
///     rules,
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
    own: Setup,
    first: Side,
    rules: Rules,
    own_ranks: [Rank; Rank::ARMY_SIZE],
    enemy_start: [Square; Rank::ARMY_SIZE],
    sets: [RankSet; Rank::ARMY_SIZE],
    ids: IdBoard,
    /// Each side's squares (indexed by side), kept beside `ids`.
    occupied: [Bitboard; 2],
    side_to_move: Side,
    status: Status,
    plies_since_challenge: u16,
    own_flag_waiting: bool,
    enemy_pending: Option<PieceId>,
    history: Vec<Report>,
    counts: CountCache,
    prior: PriorCache,
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
        rules: Rules,
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
            own: own.clone(),
            first,
            rules,
            own_ranks,
            enemy_start,
            sets: [RankSet::all(); Rank::ARMY_SIZE],
            ids: initial_ids(white, black),
            occupied: [white, black],
            side_to_move: first,
            status: Status::Ongoing,
            plies_since_challenge: 0,
            own_flag_waiting: false,
            enemy_pending: None,
            history: Vec::new(),
            counts: CountCache::default(),
            prior: PriorCache::default(),
        })
    }

    /// The tracking side's own setup, as the game started.
    #[inline]
    #[must_use]
    pub fn own_setup(&self) -> &Setup {
        &self.own
    }

    /// The side that moved first.
    #[inline]
    #[must_use]
    pub fn first_mover(&self) -> Side {
        self.first
    }

    /// The rules of the game.
    #[inline]
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The squares the enemy's pieces started on, in piece-number order.
    #[must_use]
    pub fn enemy_start_squares(&self) -> Bitboard {
        self.enemy_start
            .iter()
            .fold(Bitboard::EMPTY, |set, &square| set.with(square))
    }

    /// The side to move.
    #[inline]
    #[must_use]
    pub fn side_to_move(&self) -> Side {
        self.side_to_move
    }

    /// The squares of `side`'s pieces (both sides' squares are public).
    #[inline]
    #[must_use]
    pub fn occupied(&self, side: Side) -> Bitboard {
        self.occupied[side.index()]
    }

    /// The square piece `id` stands on, if it is still on the board.
    fn square_of(&self, id: PieceId) -> Option<Square> {
        self.occupied(id.side())
            .find(|square| self.ids[square.index()] == Some(id))
    }

    /// Plies played since the last challenge (or the start), as the move limit counts them.
    #[inline]
    #[must_use]
    pub fn plies_since_challenge(&self) -> u16 {
        self.plies_since_challenge
    }

    /// The square of this side's own Flag if it reached its far row beside an enemy piece and
    /// waits for the enemy's one reply.
    #[must_use]
    pub fn own_waiting_flag(&self) -> Option<Square> {
        if !self.own_flag_waiting {
            return None;
        }
        self.history.last().map(|report| report.mv.to)
    }

    /// The square of an enemy piece that just reached its far row beside a piece of this side
    /// while the game went on: if it is the enemy's Flag, it waits for this side's one reply
    /// (capture it, or lose). Public knowledge: the enemy's own waiting Flag is hidden, this is
    /// what can be seen of it.
    #[must_use]
    pub fn enemy_arrived(&self) -> Option<Square> {
        self.square_of(self.enemy_pending?)
    }

    /// The squares of the side to move's pieces while the game goes on, none after it.
    fn movers(&self) -> Bitboard {
        if self.status.is_ongoing() {
            self.occupied(self.side_to_move)
        } else {
            Bitboard::EMPTY
        }
    }

    /// The legal moves of the side to move (either side: legality depends only on the
    /// squares, which are public), in the order of [`crate::Position::legal_moves`]; none once
    /// the game has ended. A client needs no arbiter to know its moves.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        movegen::list(self.movers())
    }

    /// The legal moves of the side to move as action ids (see [`Move::action`](crate::Move::action)).
    #[must_use]
    pub fn legal_action_mask(&self) -> ActionMask {
        movegen::action_mask(self.movers())
    }

    /// The tracking side.
    #[inline]
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }

    /// The public history so far: every ply's move, outcome and status.
    #[inline]
    #[must_use]
    pub fn history(&self) -> &[Report] {
        &self.history
    }

    /// The game's status as observed.
    #[inline]
    #[must_use]
    pub fn status(&self) -> Status {
        self.status
    }

    /// The piece on `square`, if any.
    #[inline]
    #[must_use]
    pub fn piece_at(&self, square: Square) -> Option<PieceId> {
        self.ids[square.index()]
    }

    /// The square an enemy piece (by number, 0..21) stands on, if it is still on the board.
    #[must_use]
    pub fn enemy_square(&self, number: usize) -> Option<Square> {
        self.square_of(PieceId::new(self.side.other(), number)?)
    }

    /// The square an enemy piece (by number) started on.
    #[must_use]
    pub fn enemy_start(&self, number: usize) -> Option<Square> {
        self.enemy_start.get(number).copied()
    }

    /// The rank of the tracking side's own piece on `square`, or `None` if none of its
    /// pieces stands there (an empty square, or an enemy piece: its rank is hidden).
    #[inline]
    #[must_use]
    pub fn own_rank(&self, square: Square) -> Option<Rank> {
        let id = self.ids[square.index()].filter(|id| id.side() == self.side)?;
        Some(self.own_ranks[id.number()])
    }

    /// The ranks each enemy piece (by number) can still have, from the facts about that piece
    /// alone. The army's composition narrows them further: see [`Beliefs`](crate::Beliefs).
    #[inline]
    #[must_use]
    pub fn constraints(&self) -> &[RankSet; Rank::ARMY_SIZE] {
        &self.sets
    }

    /// The counts of the rank assignments that fit the constraints, made once per set of
    /// constraints. `None` if none fits.
    pub(crate) fn counts(&self) -> Option<Arc<Count>> {
        self.counts.get(&self.sets)
    }

    /// The kept sums under a prior ([`Tracker::beliefs_under`]).
    pub(crate) fn prior_cache(&self) -> &PriorCache {
        &self.prior
    }

    /// Takes in one ply of the public log. On an error the tracker is unchanged.
    ///
    /// Three steps: the move's legality on the squares known, what a challenge's outcome says
    /// of the enemy piece in it, and what the reported status says under the end-of-game
    /// rules. Only when all three agree is the tracker changed.
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
        let ply = Ply {
            number: self.history.len() + 1,
            report: *report,
        };
        let (mover, target) = self.legality(&ply)?;
        let mut sets = self.sets;
        let removed = self.challenge_fact(&ply, mover, target, &mut sets);
        let plies = if target.is_some() {
            0
        } else {
            self.plies_since_challenge.saturating_add(1)
        };
        let waits = self.end_fact(&ply, mover, target, removed, plies, &mut sets)?;

        move_ids(&mut self.ids, report.mv, report.outcome);
        self.move_squares(report);
        if sets != self.sets {
            // A new fact: the counts behind the beliefs must be made again.
            self.counts = CountCache::default();
            self.prior = PriorCache::default();
        }
        self.sets = sets;
        self.plies_since_challenge = plies;
        self.side_to_move = self.side_to_move.other();
        self.status = report.status;
        self.own_flag_waiting = waits.own_flag;
        self.enemy_pending = waits.enemy;
        self.history.push(*report);
        Ok(())
    }

    /// Moves the squares of the pieces as `report` says (after [`move_ids`]): the mover
    /// leaves its square and stands on the target unless it lost; a defender that lost or
    /// tied is gone.
    fn move_squares(&mut self, report: &Report) {
        let (mv, mover) = (report.mv, self.side_to_move);
        let [own, enemy] = [mover, mover.other()].map(Side::index);
        self.occupied[own] = self.occupied[own].without(mv.from);
        match report.outcome {
            None => self.occupied[own] = self.occupied[own].with(mv.to),
            Some(Outcome::Win) => {
                self.occupied[own] = self.occupied[own].with(mv.to);
                self.occupied[enemy] = self.occupied[enemy].without(mv.to);
            }
            Some(Outcome::Lose) => {}
            Some(Outcome::Tie) => self.occupied[enemy] = self.occupied[enemy].without(mv.to),
        }
    }

    /// Step 1: the move is one the side to move can make on the squares known, and it has an
    /// outcome exactly when it is a challenge. Returns the moving piece and the piece on the
    /// target, if any.
    fn legality(&self, ply: &Ply) -> Result<(PieceId, Option<PieceId>), ObserveError> {
        let mv = ply.report.mv;
        let side = self.side_to_move;
        let mover = self.ids[mv.from.index()]
            .filter(|id| id.side() == side)
            .ok_or_else(|| ply.illegal("no piece of the side to move stands on its start"))?;
        if !mv.from.is_adjacent(mv.to) {
            return Err(ply.illegal("not a step of one square forward, backward, left or right"));
        }
        let target = self.ids[mv.to.index()];
        if target.is_some_and(|id| id.side() == side) {
            return Err(ply.illegal("its target holds a piece of the same side"));
        }
        if target.is_some() != ply.report.outcome.is_some() {
            return Err(ply.inconsistent(
                "a challenge (a move onto an enemy piece) has an outcome, a plain move none",
            ));
        }
        Ok((mover, target))
    }

    /// Step 2: a challenge's outcome against our piece's known rank narrows the enemy piece's
    /// ranks. Returns what the challenge removed that the end rules look at.
    fn challenge_fact(
        &self,
        ply: &Ply,
        mover: PieceId,
        target: Option<PieceId>,
        sets: &mut [RankSet; Rank::ARMY_SIZE],
    ) -> Removed {
        let (Some(target), Some(outcome)) = (target, ply.report.outcome) else {
            return Removed::default();
        };
        let enemy_attacks = mover.side() != self.side;
        let (enemy, own) = if enemy_attacks {
            (mover, self.own_ranks[target.number()])
        } else {
            (target, self.own_ranks[mover.number()])
        };
        sets[enemy.number()] &= if enemy_attacks {
            RankSet::filter(|r| challenge(r, own) == outcome)
        } else {
            RankSet::filter(|r| challenge(own, r) == outcome)
        };
        let (enemy_removed, own_removed) = match (outcome, enemy_attacks) {
            (Outcome::Tie, _) => (true, true),
            (Outcome::Win, true) | (Outcome::Lose, false) => (false, true),
            (Outcome::Lose, true) | (Outcome::Win, false) => (true, false),
        };
        Removed {
            enemy: enemy_removed.then_some(enemy),
            own_flag: own_removed && own == Rank::Flag,
        }
    }

    /// Step 3: the reported status, under the end-of-game rules in the arbiter's order. Each
    /// unknown is one enemy piece's flag-ness, so every fact becomes a constraint on a single
    /// piece. Returns the Flags that wait after this ply.
    fn end_fact(
        &self,
        ply: &Ply,
        mover: PieceId,
        target: Option<PieceId>,
        removed: Removed,
        plies: u16,
        sets: &mut [RankSet; Rank::ARMY_SIZE],
    ) -> Result<Waiting, ObserveError> {
        let (me, enemy) = (self.side, self.side.other());
        let mv = ply.report.mv;
        let status = ply.report.status;
        let won = |winner, reason| Status::Won { winner, reason };
        let not_flag = RankSet::all().difference(RankSet::FLAG);
        let mut waits = Waiting::default();
        if removed.own_flag {
            if status != won(enemy, WinReason::FlagCaptured) {
                return Err(ply.inconsistent("our Flag was removed, so the enemy has won"));
            }
            return Ok(waits);
        }
        if status == won(me, WinReason::FlagCaptured) {
            let e = removed
                .enemy
                .ok_or_else(|| ply.inconsistent("no enemy piece was removed"))?;
            sets[e.number()] &= RankSet::FLAG;
            return Ok(waits);
        }
        if let Some(e) = removed.enemy {
            sets[e.number()] &= not_flag;
        }
        if self.own_flag_waiting {
            if status != won(me, WinReason::FlagReachedEnd) {
                return Err(ply.inconsistent("our waiting Flag was not captured, so we have won"));
            }
            return Ok(waits);
        }
        if let Some(p) = self.enemy_pending {
            if status == won(enemy, WinReason::FlagReachedEnd) {
                sets[p.number()] &= RankSet::FLAG;
                return Ok(waits);
            }
            sets[p.number()] &= not_flag;
        }
        let limit_reached = self.rules.move_limit().is_some_and(|limit| plies >= limit);
        let side = mover.side();
        if target.is_none() && mv.to.row() == side.far_row() {
            let guarded = Bitboard::from_square(mv.to)
                .neighbours()
                .any(|s| self.ids[s.index()].is_some_and(|id| id.side() != side));
            if side == me {
                if self.own_ranks[mover.number()] == Rank::Flag {
                    let expected = if guarded {
                        waits.own_flag = true;
                        Status::Ongoing
                    } else {
                        won(me, WinReason::FlagReachedEnd)
                    };
                    if status != expected {
                        return Err(ply.inconsistent("our Flag reached the far row"));
                    }
                    return Ok(waits);
                }
            } else if !guarded {
                if status == won(enemy, WinReason::FlagReachedEnd) {
                    sets[mover.number()] &= RankSet::FLAG;
                    return Ok(waits);
                }
                sets[mover.number()] &= not_flag;
            } else if status.is_ongoing() {
                // A Flag would wait here; anything else goes on (or is drawn by the limit).
                if limit_reached {
                    sets[mover.number()] &= RankSet::FLAG;
                }
                waits.enemy = Some(mover);
                return Ok(waits);
            } else {
                sets[mover.number()] &= not_flag;
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
            return Err(ply.inconsistent("nothing in this move ends the game that way"));
        }
        Ok(waits)
    }

    /// Takes in an end of the game that no move made (a resignation, an agreed draw, a loss on
    /// time, an abandonment: [`DeclaredEnd`]), which says nothing of ranks.
    ///
    /// # Errors
    /// [`ObserveError::GameOver`] if the game had already ended; [`ObserveError::NotAnEnd`] if
    /// `status` is not such an end.
    pub fn observe_end(&mut self, status: Status) -> Result<(), ObserveError> {
        if !self.status.is_ongoing() {
            return Err(ObserveError::GameOver {
                status: self.status,
            });
        }
        if DeclaredEnd::of(status).is_none() {
            return Err(ObserveError::NotAnEnd { status });
        }
        self.status = status;
        self.own_flag_waiting = false;
        self.enemy_pending = None;
        Ok(())
    }
}

/// One ply being observed: its number (from 1) and its report, for the errors' messages.
struct Ply {
    number: usize,
    report: Report,
}

impl Ply {
    fn illegal(&self, why: &'static str) -> ObserveError {
        ObserveError::IllegalMove {
            ply: self.number,
            mv: self.report.mv,
            why,
        }
    }

    fn inconsistent(&self, why: &'static str) -> ObserveError {
        ObserveError::Inconsistent {
            ply: self.number,
            mv: self.report.mv,
            reported: self.report.status,
            why,
        }
    }
}

/// What a challenge removed that the end-of-game rules look at.
#[derive(Debug, Clone, Copy, Default)]
struct Removed {
    /// The enemy piece removed, if one was.
    enemy: Option<PieceId>,
    /// Whether our Flag was removed.
    own_flag: bool,
}

/// The Flags waiting after a ply: ours (known), or an enemy piece that would be one.
#[derive(Debug, Clone, Copy, Default)]
struct Waiting {
    own_flag: bool,
    enemy: Option<PieceId>,
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::game::Game;
    use crate::rng::SplitMix64;
    use crate::rules::Rules;

    use crate::side::Side;

    #[test]
    fn counts_are_made_once_per_set_of_constraints() {
        let rules = Rules::default();
        let mut game = Game::dealt(Side::White, rules, 1);
        let mut tracker = game.tracker(Side::White).unwrap();
        let mut rng = SplitMix64::new(3);
        let (mut kept, mut remade) = (0, 0);
        while game.status().is_ongoing() && game.history().len() < 400 {
            let before = tracker.counts().unwrap();
            let sets = *tracker.constraints();
            let report = game
                .play(game.position().random_move(&mut rng).unwrap())
                .unwrap();
            tracker.observe(&report).unwrap();
            let after = tracker.counts().unwrap();
            if sets == *tracker.constraints() {
                assert!(Arc::ptr_eq(&before, &after), "no new fact, the same counts");
                kept += 1;
            } else {
                assert!(!Arc::ptr_eq(&before, &after), "a new fact, new counts");
                assert_eq!(
                    tracker.beliefs().unwrap(),
                    game.beliefs(Side::White).unwrap()
                );
                remade += 1;
            }
        }
        assert!(kept > 10 && remade > 3, "{kept} kept, {remade} remade");
    }
}
