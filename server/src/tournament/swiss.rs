//! A Swiss round: entrants ordered by score, then rating (then seed); the highest unpaired
//! entrant meets the first it may of its own score group, those whose colours it can even
//! out first, each starting halfway down the group (the top half meets the bottom half), or
//! else the next group down; never an entrant it has met. Colours go to even out each
//! entrant's whites and blacks, and never break the absolute rule: whites and blacks within
//! two of each other, never the same colour three times running. (Within one cannot always
//! hold: after a first round whose White players all won, the winners' group can only be
//! paired by giving some of them White again.) With an odd count, the bye goes to the
//! lowest-ranked entrant that has not had one. The search backtracks when a choice leaves
//! the rest unpairable; if no round keeps every rule, the colours give way first, then the
//! no-repeat rule, so that a round is always made.

use std::collections::HashSet;

use salpakan::Side;

use super::{Entrant, Pairing, Round, Scoring};

/// An entrant still in the tournament, as the pairing sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Seed {
    /// The entrant.
    pub entrant: Entrant,
    /// Its rating when the tournament started (the order within a score).
    pub rating: f64,
}

/// Each entrant's past as the pairing reads it from the rounds so far.
#[derive(Debug, Clone, Default)]
struct Past {
    score: u32,
    /// Whites minus blacks.
    balance: i32,
    last: Option<Side>,
    /// How many times running it had `last`.
    run: u32,
    had_bye: bool,
    met: HashSet<Entrant>,
}

/// How strict a search is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rules {
    colours: bool,
    no_repeat: bool,
}

/// Steps one search (one bye, one number of floats) may take before it gives up.
const STEPS: u32 = 20_000;

/// The next round for `entrants` (those still in, withdrawn ones left out) after `rounds`.
#[must_use]
pub fn pair(entrants: &[Seed], rounds: &[Round], scoring: &Scoring) -> Round {
    let mut past: Vec<Past> =
        vec![Past::default(); entrants.iter().map(|s| s.entrant + 1).max().unwrap_or(0)];
    for round in rounds {
        if let Some(bye) = round.bye
            && let Some(p) = past.get_mut(bye)
        {
            p.score += scoring.bye;
            p.had_bye = true;
        }
        for pairing in &round.pairings {
            for side in Side::ALL {
                let Some(p) = past.get_mut(pairing.of(side)) else {
                    continue;
                };
                p.met.insert(pairing.of(side.other()));
                p.balance += if side == Side::White { 1 } else { -1 };
                p.run = if p.last == Some(side) { p.run + 1 } else { 1 };
                p.last = Some(side);
                if let Some(outcome) = pairing.outcome {
                    p.score += scoring.points(outcome, side).0;
                }
            }
        }
    }
    let mut order: Vec<Seed> = entrants.to_vec();
    order.sort_by(|a, b| {
        past[b.entrant]
            .score
            .cmp(&past[a.entrant].score)
            .then(b.rating.total_cmp(&a.rating))
            .then(a.entrant.cmp(&b.entrant))
    });
    let ranked: Vec<Entrant> = order.iter().map(|s| s.entrant).collect();
    let first_round = rounds.is_empty();
    for rules in [
        Rules {
            colours: true,
            no_repeat: true,
        },
        Rules {
            colours: false,
            no_repeat: true,
        },
        Rules {
            colours: false,
            no_repeat: false,
        },
    ] {
        if let Some(round) = search(&ranked, &past, rules, first_round) {
            return round;
        }
    }
    unreachable!("without rules every even list pairs")
}

/// A round under `rules`, trying each possible bye from the bottom up, and for each the
/// fewest entrants paired out of their score group first.
fn search(ranked: &[Entrant], past: &[Past], rules: Rules, first_round: bool) -> Option<Round> {
    let byes: Vec<Option<usize>> = if ranked.len().is_multiple_of(2) {
        vec![None]
    } else {
        (0..ranked.len())
            .rev()
            .filter(|&i| !(rules.no_repeat && past[ranked[i]].had_bye))
            .map(Some)
            .collect()
    };
    for bye in byes {
        let mut rest = ranked.to_vec();
        if let Some(i) = bye {
            rest.remove(i);
        }
        for floats in 0..=rest.len() / 2 {
            let mut steps = 0;
            if let Some(pairs) = pair_from(rest.clone(), past, rules, floats, &mut steps) {
                return Some(finish(pairs, bye.map(|i| ranked[i]), past, first_round));
            }
        }
    }
    None
}

/// Pairs `left` (in rank order) by backtracking, with at most `floats` pairs across score
/// groups; `None` if it cannot under `rules`.
fn pair_from(
    left: Vec<Entrant>,
    past: &[Past],
    rules: Rules,
    floats: usize,
    steps: &mut u32,
) -> Option<Vec<(Entrant, Entrant)>> {
    let Some((&top, rest)) = left.split_first() else {
        return Some(Vec::new());
    };
    *steps += 1;
    if *steps > STEPS {
        return None;
    }
    for &other in &candidates(top, rest, past) {
        let float = past[other].score != past[top].score;
        if (float && floats == 0)
            || (rules.no_repeat && past[top].met.contains(&other))
            || (rules.colours && colours(top, other, past).is_none())
        {
            continue;
        }
        let remaining: Vec<Entrant> = rest.iter().copied().filter(|&e| e != other).collect();
        let left_over = floats - usize::from(float);
        if let Some(mut pairs) = pair_from(remaining, past, rules, left_over, steps) {
            pairs.insert(0, (top, other));
            return Some(pairs);
        }
    }
    None
}

/// `top`'s opponents in the order it should try them: its own score group from halfway down
/// (the top half meets the bottom half), then the rest of its group upwards, those whose
/// colours it can even out before the others; then the groups below in rank order.
fn candidates(top: Entrant, rest: &[Entrant], past: &[Past]) -> Vec<Entrant> {
    let score = past[top].score;
    let group: Vec<Entrant> = rest
        .iter()
        .copied()
        .filter(|&e| past[e].score == score)
        .collect();
    // In a group of n (top included), the top's opposite number is n / 2 places down.
    let half = group.len().div_ceil(2).saturating_sub(1);
    let mut order: Vec<Entrant> = group[half..].to_vec();
    order.extend(group[..half].iter().rev());
    // A stable sort: the halfway order stands within each kind.
    order.sort_by_key(|&other| !evens_out(top, other, past));
    order.extend(rest.iter().copied().filter(|&e| past[e].score != score));
    order
}

/// Whether `a` and `b` want different colours (or either has no preference): the one
/// behind on whites gets White, and both end nearer even.
fn evens_out(a: Entrant, b: Entrant, past: &[Past]) -> bool {
    past[a].balance.signum() != past[b].balance.signum()
        || past[a].balance == 0
        || past[b].balance == 0
}

/// Who of `a` (ranked higher) and `b` plays White, if the absolute colour rule allows it:
/// the one with fewer whites; equal, the one that had Black last; equal, the higher-ranked
/// takes the colour it did not have last (White when neither has played).
fn colours(a: Entrant, b: Entrant, past: &[Past]) -> Option<(Entrant, Entrant)> {
    let (pa, pb) = (&past[a], &past[b]);
    let white = if pa.balance != pb.balance {
        if pa.balance < pb.balance { a } else { b }
    } else if pa.last != pb.last {
        match (pa.last, pb.last) {
            (Some(Side::Black), _) | (_, Some(Side::White)) => a,
            _ => b,
        }
    } else if pa.last == Some(Side::White) {
        b
    } else {
        a
    };
    let black = if white == a { b } else { a };
    let runs = |e: Entrant, side: Side| past[e].last == Some(side) && past[e].run >= 2;
    let fits = past[white].balance < 2
        && past[black].balance > -2
        && !runs(white, Side::White)
        && !runs(black, Side::Black);
    fits.then_some((white, black))
}

/// The round of `pairs` with colours, and `bye`. In the first round the colours alternate
/// down the board (the top seed White on board 1, Black on board 2, …).
fn finish(
    pairs: Vec<(Entrant, Entrant)>,
    bye: Option<Entrant>,
    past: &[Past],
    first_round: bool,
) -> Round {
    let pairings = pairs
        .into_iter()
        .enumerate()
        .map(|(board, (a, b))| {
            let (white, black) = if first_round {
                if board % 2 == 0 { (a, b) } else { (b, a) }
            } else {
                colours(a, b, past).unwrap_or_else(|| {
                    // Colours given way: the one with fewer whites still has White.
                    if past[a].balance <= past[b].balance {
                        (a, b)
                    } else {
                        (b, a)
                    }
                })
            };
            Pairing::new(white, black)
        })
        .collect();
    Round { pairings, bye }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::Outcome;
    use crate::tournament::standings::standings;

    fn seeds(n: usize) -> Vec<Seed> {
        // Entrant i is rated 2000 - 10 i: seed order is index order.
        (0..n)
            .map(|entrant| Seed {
                entrant,
                rating: 2000.0 - 10.0 * entrant as f64,
            })
            .collect()
    }

    fn boards(round: &Round) -> Vec<(Entrant, Entrant)> {
        round.pairings.iter().map(|p| (p.white, p.black)).collect()
    }

    #[test]
    fn round_one_pairs_the_top_half_with_the_bottom_half_colours_alternating() {
        let round = pair(&seeds(8), &[], &Scoring::default());
        assert_eq!(boards(&round), [(0, 4), (5, 1), (2, 6), (7, 3)]);
        assert_eq!(round.bye, None);
        let odd = pair(&seeds(7), &[], &Scoring::default());
        assert_eq!(odd.bye, Some(6), "the lowest seed sits out");
        assert_eq!(boards(&odd), [(0, 3), (4, 1), (2, 5)]);
    }

    /// After round 1 of eight (0, 5, 2, 7 won on boards 1-4: 0 beat 4, 5 beat 1, 2 beat 6,
    /// 7 beat 3), the winners {0, 2, 5, 7} and the losers {1, 3, 4, 6} are paired within
    /// their groups, top half against bottom half, colours evened out.
    #[test]
    fn round_two_pairs_within_score_groups() {
        let mut first = pair(&seeds(8), &[], &Scoring::default());
        for (pairing, winner) in first.pairings.iter_mut().zip([0, 5, 2, 7]) {
            let side = pairing.side_of(winner).unwrap();
            pairing.outcome = Some(Outcome::Won(side));
        }
        let second = pair(&seeds(8), &[first], &Scoring::default());
        // Winners by rating: 0, 2, 5, 7 → 0 v 5, 2 v 7. 0 had White, 5 White: equal
        // balance and last colour, so the higher-ranked 0 takes Black. 2 White, 7 White:
        // 2 takes Black. Losers: 1, 3, 4, 6 → 1 v 4, 3 v 6; 1 Black, 4 Black: 1 takes
        // White; 3 Black, 6 Black: 3 takes White.
        assert_eq!(boards(&second), [(5, 0), (7, 2), (1, 4), (3, 6)]);
    }

    #[test]
    fn the_bye_goes_to_the_lowest_that_has_not_had_one() {
        let scoring = Scoring::default();
        let mut rounds = vec![pair(&seeds(5), &[], &scoring)];
        assert_eq!(rounds[0].bye, Some(4));
        for pairing in &mut rounds[0].pairings {
            pairing.outcome = Some(Outcome::Drawn);
        }
        // All on 1 point but 4 on 2: the lowest in order that had no bye is 3.
        let second = pair(&seeds(5), &rounds, &scoring);
        assert_eq!(second.bye, Some(3));
    }

    /// A small xorshift, so that the property runs are the same every time.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Sixteen, fifteen and ten entrants, five rounds of random results (draws and defaults
    /// among them), many times: no repeat pairing, colours within two and never three alike
    /// running, at most one bye each, every entrant once a round, and at most one entrant
    /// floated out of each score group a round.
    #[test]
    fn swiss_rounds_keep_their_rules_over_random_results() {
        let scoring = Scoring::default();
        for n in [16, 15, 10] {
            for run in 0..40u64 {
                let mut state = (run + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                let entrants = seeds(n);
                let mut rounds: Vec<Round> = Vec::new();
                for _ in 0..5 {
                    let scores: Vec<u32> = {
                        let lines = standings(n, &rounds, &scoring);
                        let mut by = vec![0; n];
                        for line in lines {
                            by[line.entrant] = line.score;
                        }
                        by
                    };
                    let mut round = pair(&entrants, &rounds, &scoring);
                    let mut seen: Vec<Entrant> = round.bye.into_iter().collect();
                    let mut floats = 0;
                    let groups: HashSet<u32> = scores.iter().copied().collect();
                    for pairing in &round.pairings {
                        seen.extend([pairing.white, pairing.black]);
                        if scores[pairing.white] != scores[pairing.black] {
                            floats += 1;
                        }
                        for earlier in rounds.iter().flat_map(|r| &r.pairings) {
                            let same = [earlier.white, earlier.black];
                            assert!(
                                !(same.contains(&pairing.white) && same.contains(&pairing.black)),
                                "n {n} run {run}: {} and {} met again",
                                pairing.white,
                                pairing.black
                            );
                        }
                    }
                    seen.sort_unstable();
                    assert_eq!(seen, (0..n).collect::<Vec<_>>(), "everyone once");
                    assert!(
                        floats <= groups.len(),
                        "n {n} run {run}: {floats} floats for {} groups",
                        groups.len()
                    );
                    for pairing in &mut round.pairings {
                        pairing.outcome = Some(match next(&mut state) % 9 {
                            0..=3 => Outcome::Won(Side::White),
                            4..=6 => Outcome::Won(Side::Black),
                            7 => Outcome::Drawn,
                            _ => Outcome::Default(Some(Side::White)),
                        });
                    }
                    rounds.push(round);
                }
                for entrant in 0..n {
                    let mut balance = 0i32;
                    let mut byes = 0;
                    let mut colours = Vec::new();
                    for round in &rounds {
                        byes += usize::from(round.bye == Some(entrant));
                        for pairing in &round.pairings {
                            if let Some(side) = pairing.side_of(entrant) {
                                balance += if side == Side::White { 1 } else { -1 };
                                colours.push(side);
                                assert!(
                                    balance.abs() <= 2,
                                    "n {n} run {run}: {entrant}'s colours {balance}"
                                );
                            }
                        }
                    }
                    assert!(
                        !colours.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]),
                        "n {n} run {run}: {entrant} had {colours:?}"
                    );
                    assert!(byes <= 1);
                }
            }
        }
    }
}
