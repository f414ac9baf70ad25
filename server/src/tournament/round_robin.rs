//! A round robin: every entrant meets every other once, by the circle method (the last entrant
//! fixed, the others turning one place a round); with an odd count, whoever would meet the
//! missing entrant has the bye. Colours: the fixed entrant alternates, every other board
//! gives White to the entrant coming round from the left, so that each entrant's whites and
//! blacks differ by at most one.

use super::{Pairing, Round};

/// Every round of a round robin of `entrants` entrants (`entrants - 1` rounds, or `entrants`
/// with an odd count).
#[must_use]
pub(crate) fn schedule(entrants: usize) -> Vec<Round> {
    if entrants < 2 {
        return Vec::new();
    }
    // With an odd count, a missing entrant (`n - 1`) stands for the bye.
    let n = entrants + entrants % 2;
    let missing = (entrants % 2 == 1).then_some(n - 1);
    let fixed = n - 1;
    let others = n - 1;
    (0..others)
        .map(|r| {
            let mut round = Round::default();
            // The circle: position 0 against the fixed entrant, position i against -i.
            let at = |i: usize| (r + i) % others;
            let (a, b) = (at(0), fixed);
            let first = if r % 2 == 0 { (a, b) } else { (b, a) };
            let mut boards = vec![first];
            for i in 1..n / 2 {
                boards.push((at(i), at(others - i)));
            }
            for (white, black) in boards {
                match missing {
                    Some(m) if white == m => round.bye = Some(black),
                    Some(m) if black == m => round.bye = Some(white),
                    _ => round.pairings.push(Pairing::new(white, black)),
                }
            }
            round
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everyone_meets_everyone_once_with_colours_within_one() {
        for n in 2..=13 {
            let rounds = schedule(n);
            let mut met = vec![vec![0; n]; n];
            let mut balance = vec![0i32; n];
            let mut byes = vec![0; n];
            for round in &rounds {
                let mut seen = vec![false; n];
                if let Some(bye) = round.bye {
                    byes[bye] += 1;
                    seen[bye] = true;
                }
                for p in &round.pairings {
                    met[p.white][p.black] += 1;
                    met[p.black][p.white] += 1;
                    balance[p.white] += 1;
                    balance[p.black] -= 1;
                    assert!(!seen[p.white] && !seen[p.black], "n {n}: twice in a round");
                    seen[p.white] = true;
                    seen[p.black] = true;
                }
                assert!(seen.iter().all(|&s| s), "n {n}: everyone in each round");
            }
            for (a, row) in met.iter().enumerate() {
                for (b, &times) in row.iter().enumerate() {
                    assert_eq!(times, usize::from(a != b), "n {n}: {a} and {b}");
                }
                assert!(balance[a].abs() <= 1, "n {n}: {a}'s colours {}", balance[a]);
                assert_eq!(byes[a], n % 2, "n {n}: {a}'s byes");
            }
        }
    }

    #[test]
    fn four_entrants_by_hand() {
        let boards: Vec<Vec<(usize, usize)>> = schedule(4)
            .iter()
            .map(|r| r.pairings.iter().map(|p| (p.white, p.black)).collect())
            .collect();
        assert_eq!(
            boards,
            [
                vec![(0, 3), (1, 2)],
                vec![(3, 1), (2, 0)],
                vec![(2, 3), (0, 1)]
            ]
        );
    }
}
