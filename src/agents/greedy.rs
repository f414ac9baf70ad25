//! A one-ply player on the exact posterior.

use crate::arbiter::{Outcome, challenge};
use crate::bitboard::Bitboard;
use crate::knowledge::{Beliefs, Tracker};
use crate::movegen::Move;
use crate::rank::Rank;
use crate::rng::SplitMix64;
use crate::square::Square;

use super::{Agent, WIN, my_turn, value};

/// Plays one ply ahead on the exact posterior: each move is scored by the material it is
/// expected to win or lose in a challenge (from the enemy piece's rank probabilities against
/// its own known rank), plus how much it changes the expected loss to enemy pieces that could
/// attack the moving piece, plus a little for stepping towards an enemy piece worth
/// challenging, plus the game itself when its Flag can arrive on the far row with no enemy
/// beside it; a challenge that removes an enemy piece beside its Flag is worth what that
/// piece threatens. The best score wins; equal scores are broken by a seeded random draw.
///
/// ```
/// use salpakan::{Agent, Game, Greedy, Rules, Side};
///
/// let rules = Rules::default();
/// let game = Game::dealt(Side::White, rules, 1);
/// let mv = Greedy::new(7).choose(&game.tracker(Side::White)?).unwrap();
/// assert!(game.position().is_legal(mv));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Greedy {
    rng: SplitMix64,
}

impl Greedy {
    /// A greedy player; `seed` breaks ties between equally good moves.
    #[must_use]
    pub fn new(seed: u64) -> Greedy {
        Greedy {
            rng: SplitMix64::new(seed),
        }
    }

    /// Each legal move of `me`'s side with the score `Greedy` gives it, in the order of
    /// [`Tracker::legal_moves`]: material units (a Private 1, a Spy 6, a General of five stars
    /// 13; a won game 1,000), the moves [`choose`](Agent::choose) draws from being those with
    /// the highest. Empty when it is not `me`'s turn or the game is over. A learner can start
    /// from these (a residual on `Greedy`'s judgement); [`VecEnv::greedy_scores`] gives them
    /// for a whole batch.
    ///
    /// [`VecEnv::greedy_scores`]: crate::training::VecEnv::greedy_scores
    ///
    /// ```
    /// use salpakan::{Agent, Game, Greedy, Rules, Side};
    ///
    /// let rules = Rules::default();
    /// let game = Game::dealt(Side::White, rules, 1);
    /// let me = game.tracker(Side::White)?;
    /// let scores = Greedy::scores(&me);
    /// assert_eq!(scores.len(), me.legal_moves().len());
    /// let best = scores.iter().map(|&(_, s)| s).fold(f64::NEG_INFINITY, f64::max);
    /// let chosen = Greedy::new(7).choose(&me).unwrap();
    /// assert!(scores.iter().any(|&(mv, s)| mv == chosen && s == best));
    /// assert!(Greedy::scores(&game.tracker(Side::Black)?).is_empty()); // not Black's turn
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn scores(me: &Tracker) -> Vec<(Move, f64)> {
        if !my_turn(me) {
            return Vec::new();
        }
        let Ok(beliefs) = me.beliefs() else {
            return Vec::new();
        };
        me.legal_moves()
            .iter()
            .map(|&mv| (mv, score(me, &beliefs, mv)))
            .collect()
    }

    /// [`Greedy::scores`] laid out by action id ([`Move::action`]): each legal action's
    /// score, 0 for the others (the legal-action mask tells them apart). All 0 when it is not
    /// `me`'s turn.
    ///
    /// ```
    /// use salpakan::{Game, Greedy, Rules, Side};
    ///
    /// let rules = Rules::default();
    /// let game = Game::dealt(Side::Black, rules, 3);
    /// let me = game.tracker(Side::Black)?;
    /// let row = Greedy::action_scores(&me);
    /// for (mv, score) in Greedy::scores(&me) {
    ///     assert_eq!(row[usize::from(mv.action().unwrap())], score as f32);
    /// }
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn action_scores(me: &Tracker) -> [f32; Move::NUM_ACTIONS] {
        let mut row = [0.0; Move::NUM_ACTIONS];
        for (mv, score) in Greedy::scores(me) {
            if let Some(action) = mv.action() {
                // Material counts and 1,000 for a won game: f32 holds them.
                #[allow(clippy::cast_possible_truncation)]
                let score = score as f32;
                row[usize::from(action)] = score;
            }
        }
        row
    }
}

impl Agent for Greedy {
    fn choose(&mut self, me: &Tracker) -> Option<Move> {
        let scores = Greedy::scores(me);
        let best = scores
            .iter()
            .map(|&(_, s)| s)
            .fold(f64::NEG_INFINITY, f64::max);
        let ties: Vec<Move> = scores
            .iter()
            .filter(|&&(_, s)| s >= best - 1e-9)
            .map(|&(mv, _)| mv)
            .collect();
        if ties.is_empty() {
            return None;
        }
        Some(ties[self.rng.below(ties.len() as u64) as usize])
    }
}

/// The probability that the enemy piece on `square` would win attacking our piece of `rank`.
fn attack_wins(beliefs: &Beliefs, square: Square, rank: Rank) -> f64 {
    let Some(belief) = beliefs.at(square) else {
        return 0.0;
    };
    Rank::ALL
        .into_iter()
        .filter(|&enemy| challenge(enemy, rank) == Outcome::Win)
        .map(|enemy| belief.probability(enemy))
        .sum()
}

/// The expected loss to the enemy pieces beside `square` (other than `except`) if our piece
/// of `rank` stood there and one of them attacked: the likeliest winner's chance times the
/// piece's value.
fn threat(me: &Tracker, beliefs: &Beliefs, square: Square, rank: Rank, except: Square) -> f64 {
    let enemies = me.occupied(me.side().other());
    let worst = (Bitboard::from_square(square).neighbours() & enemies)
        .filter(|&enemy| enemy != except)
        .map(|enemy| attack_wins(beliefs, enemy, rank))
        .fold(0.0, f64::max);
    worst * value(rank)
}

/// The square of our Flag.
fn own_flag(me: &Tracker) -> Option<Square> {
    me.occupied(me.side())
        .find(|&square| me.own_rank(square) == Some(Rank::Flag))
}

/// What our piece of `rank` expects to gain by challenging the enemy piece on `square`.
fn challenge_gain(beliefs: &Beliefs, square: Square, rank: Rank) -> f64 {
    let Some(belief) = beliefs.at(square) else {
        return 0.0;
    };
    Rank::ALL
        .into_iter()
        .map(|enemy| {
            belief.probability(enemy)
                * match challenge(rank, enemy) {
                    Outcome::Win => value(enemy),
                    Outcome::Lose => -value(rank),
                    Outcome::Tie => value(enemy) - value(rank),
                }
        })
        .sum()
}

/// How many steps closer `mv` brings our piece of `rank` to the nearest enemy piece it would
/// gain by challenging (negative if it moves away; 0 if there is none).
fn approach(me: &Tracker, beliefs: &Beliefs, rank: Rank, mv: Move) -> f64 {
    let distance = |a: Square, b: Square| {
        (i32::from(a.row()) - i32::from(b.row())).abs()
            + (i32::from(a.file()) - i32::from(b.file())).abs()
    };
    let target = me
        .occupied(me.side().other())
        .filter(|&enemy| challenge_gain(beliefs, enemy, rank) > 0.0)
        .min_by_key(|&enemy| distance(mv.from, enemy));
    match target {
        Some(enemy) => f64::from(distance(mv.from, enemy) - distance(mv.to, enemy)),
        None => 0.0,
    }
}

/// An enemy piece beside our Flag is the game at stake (whatever its rank, it wins if it
/// attacks the Flag): removing it, by a win (probability `win`) or a tie, with a piece other
/// than the Flag is worth the game. 0 for any other challenge.
fn flag_guard(me: &Tracker, beliefs: &Beliefs, rank: Rank, mv: Move, win: f64) -> f64 {
    let Some(belief) = beliefs.at(mv.to) else {
        return 0.0;
    };
    own_flag(me).map_or(0.0, |flag| {
        if rank != Rank::Flag && flag.is_adjacent(mv.to) {
            let tie = belief.probability(rank);
            (win + tie) * WIN
        } else {
            0.0
        }
    })
}

fn score(me: &Tracker, beliefs: &Beliefs, mv: Move) -> f64 {
    let Some(rank) = me.own_rank(mv.from) else {
        return f64::NEG_INFINITY;
    };
    let before = threat(me, beliefs, mv.from, rank, mv.to);
    let Some(belief) = beliefs.at(mv.to) else {
        // A plain move: away from (or into) danger, and the Flag's run.
        let after = threat(me, beliefs, mv.to, rank, mv.to);
        let mut score = before - after;
        if rank != Rank::Flag {
            // Towards the nearest enemy piece it would gain by challenging, a little.
            score += 0.05 * approach(me, beliefs, rank, mv);
        } else if mv.to.row() == me.side().far_row()
            && (Bitboard::from_square(mv.to).neighbours() & me.occupied(me.side().other()))
                .is_empty()
        {
            // The Flag arrives with no enemy beside it: the game is won. Otherwise it stays
            // with its army: a Flag that runs ahead is a Flag lost (a bonus of half a point a
            // row towards the far end made Greedy lose 10-12% of its games to Random; without
            // it, none of 800).
            score += WIN;
        }
        return score;
    };
    // A challenge: what each enemy rank would do to us, weighted by its probability.
    let expected = challenge_gain(beliefs, mv.to, rank);
    let win: f64 = Rank::ALL
        .into_iter()
        .filter(|&enemy| challenge(rank, enemy) == Outcome::Win)
        .map(|enemy| belief.probability(enemy))
        .sum();
    let flag_guard = flag_guard(me, beliefs, rank, mv, win);
    // Whatever happens, the piece no longer stands where it stood; if it wins, it stands on
    // the enemy's square, next to that square's other enemies.
    expected + before + flag_guard - win * threat(me, beliefs, mv.to, rank, mv.to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::rules::Rules;
    use crate::setup::Setup;
    use crate::side::Side;

    /// White's Flag on a3 with a Black Private arrived beside it on a4; a White Private on b4
    /// beside that one, and another on e4 below a Black Private on e5, far from the Flag.
    fn flag_threatened() -> (Tracker, Beliefs) {
        let white: Setup = "FL:a3 PV:b3 PV:e3 PV:i3 PV:a1 PV:b1 PV:c1 SG:d1 2L:e1 1L:f1 CP:g1 \
                            MJ:h1 LC:i1 CO:a2 1G:b2 2G:c2 3G:d2 4G:e2 5G:f2 SP:g2 SP:h2"
            .parse()
            .unwrap();
        let black: Setup = "fl:a8 pv:a6 pv:e6 pv:i6 pv:b8 pv:c8 pv:d8 sg:e8 2l:f8 1l:g8 cp:h8 \
                            mj:i8 lc:a7 co:b7 1g:c7 2g:d7 3g:e7 4g:f7 5g:g7 sp:h7 sp:i7"
            .parse()
            .unwrap();
        let mut game = Game::new(white, black, Side::White, Rules::default()).unwrap();
        for mv in ["b3-b4", "a6-a5", "e3-e4", "a5-a4", "i3-i4", "e6-e5"] {
            game.play(mv.parse().unwrap()).unwrap();
        }
        let tracker = game.tracker(Side::White).unwrap();
        let beliefs = tracker.beliefs().unwrap();
        (tracker, beliefs)
    }

    #[test]
    fn the_flag_guard_is_for_a_piece_other_than_the_flag_beside_it() {
        let (me, beliefs) = flag_threatened();
        let guard = |mv: &str| {
            let mv: Move = mv.parse().unwrap();
            let rank = me.own_rank(mv.from).unwrap();
            flag_guard(&me, &beliefs, rank, mv, 0.5)
        };
        // A Private takes on the piece beside the Flag: the game is at stake, won back by a
        // win or by a tie (the enemy piece is a Private too).
        let tie = beliefs
            .at("a4".parse().unwrap())
            .unwrap()
            .probability(Rank::Private);
        assert!(tie > 0.0);
        assert!((guard("b4-a4") - (0.5 + tie) * WIN).abs() < 1e-9);
        // The Flag itself challenging it earns nothing extra.
        assert_eq!(guard("a3-a4"), 0.0);
        // Nor does a challenge away from the Flag.
        assert_eq!(guard("e4-e5"), 0.0);
        // And the guard counts in the move's score: the same Private's challenge beside the
        // Flag outscores the one far from it.
        let score_of = |mv: &str| score(&me, &beliefs, mv.parse().unwrap());
        assert!(score_of("b4-a4") > score_of("e4-e5"));
    }
}
