//! An arena (as lichess runs them): for a fixed time, entrants who are free and waiting are
//! paired at once, each with the nearest in score (then rating) it did not just play, and
//! every game's result scores as the tournament scores (win 2, draw 1, loss 0). Colours go
//! to whoever has had fewer whites.

use std::cmp::Reverse;

use super::{Entrant, Pairing};

/// An entrant waiting for a game, as the arena's pairing sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Waiting {
    /// The entrant.
    pub entrant: Entrant,
    /// Its arena score so far.
    pub score: u32,
    /// Its rating.
    pub rating: f64,
    /// Whites minus blacks in its arena games so far.
    pub balance: i32,
    /// Its last opponent, if any (never paired with it again at once).
    pub last: Option<Entrant>,
}

/// Pairs the waiting entrants: highest score first (then rating), each with the next waiting
/// entrant below it that was not its last opponent (or, if only that one is left, with it
/// after all); an odd one out goes on waiting. Returns the pairings and who still waits.
#[must_use]
pub fn pair(waiting: &[Waiting]) -> (Vec<Pairing>, Vec<Entrant>) {
    let mut order: Vec<Waiting> = waiting.to_vec();
    order.sort_by(|a, b| {
        Reverse(a.score)
            .cmp(&Reverse(b.score))
            .then(b.rating.total_cmp(&a.rating))
            .then(a.entrant.cmp(&b.entrant))
    });
    let mut pairings = Vec::new();
    while order.len() >= 2 {
        let top = order.remove(0);
        let at = order
            .iter()
            .position(|w| top.last != Some(w.entrant) && w.last != Some(top.entrant))
            .unwrap_or(0);
        // Only a rematch is left for the last two: they wait rather than meet again at once.
        if order.len() == 1 && at == 0 && top.last == Some(order[0].entrant) {
            order.insert(0, top);
            break;
        }
        let other = order.remove(at);
        let (white, black) = if other.balance < top.balance {
            (other, top)
        } else {
            (top, other)
        };
        pairings.push(Pairing::new(white.entrant, black.entrant));
    }
    (pairings, order.into_iter().map(|w| w.entrant).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting(entrant: Entrant, score: u32, last: Option<Entrant>) -> Waiting {
        Waiting {
            entrant,
            score,
            rating: 1500.0 - entrant as f64,
            balance: 0,
            last,
        }
    }

    #[test]
    fn the_nearest_in_score_that_was_not_the_last_opponent() {
        // 0 (6 points) last played 1 (6): it meets 2 (4) instead; 1 meets 3 (2).
        let (pairings, left) = pair(&[
            waiting(3, 2, None),
            waiting(1, 6, Some(0)),
            waiting(0, 6, Some(1)),
            waiting(2, 4, None),
        ]);
        let boards: Vec<(Entrant, Entrant)> = pairings.iter().map(|p| (p.white, p.black)).collect();
        assert_eq!(boards, [(0, 2), (1, 3)]);
        assert!(left.is_empty());
    }

    #[test]
    fn two_who_just_met_wait_and_an_odd_one_waits() {
        let (pairings, left) = pair(&[waiting(0, 2, Some(1)), waiting(1, 0, Some(0))]);
        assert!(pairings.is_empty());
        assert_eq!(left, [0, 1]);
        let (pairings, left) = pair(&[
            waiting(0, 2, None),
            waiting(1, 0, None),
            waiting(2, 0, None),
        ]);
        assert_eq!(pairings.len(), 1);
        assert_eq!(left, [2]);
    }

    #[test]
    fn white_goes_to_the_one_with_fewer_whites() {
        let mut a = waiting(0, 0, None);
        a.balance = 1;
        let b = waiting(1, 0, None);
        let (pairings, _) = pair(&[a, b]);
        assert_eq!((pairings[0].white, pairings[0].black), (1, 0));
    }
}
