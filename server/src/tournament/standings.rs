//! The standings after some rounds: each entrant's score and tie-breaks, ordered, with
//! shared places where everything is equal.

use std::cmp::Reverse;

use salpakan::Side;

use super::{Entrant, Round, Scoring};

/// One entrant's line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Standing {
    /// The entrant.
    pub entrant: Entrant,
    /// Its place, from 1; entrants equal in score and every tie-break share one.
    pub place: usize,
    /// Its score.
    pub score: u32,
    /// Points scored in played games against the entrants tied with it on score.
    pub direct: u32,
    /// Points scored in played games: a default win loses to a played win here.
    pub played_points: u32,
    /// The sum of the scores of the opponents it met in played games.
    pub buchholz: u32,
    /// The sum, over its played games, of the points it earned times the opponent's score.
    pub sonneborn_berger: u32,
    /// Games played to an end (defaults, byes and voided games are not).
    pub played: u32,
    /// Wins in played games.
    pub wins: u32,
}

/// What one entrant did in one decided game: the opponent, the points, whether played.
struct Result {
    opponent: Entrant,
    points: u32,
    played: bool,
}

/// The standings of `entrants` entrants after `rounds`, best first (undecided games count for
/// nothing yet).
#[must_use]
pub fn standings(entrants: usize, rounds: &[Round], scoring: &Scoring) -> Vec<Standing> {
    let mut results: Vec<Vec<Result>> = (0..entrants).map(|_| Vec::new()).collect();
    let mut scores = vec![0_u32; entrants];
    for round in rounds {
        if let Some(bye) = round.bye {
            scores[bye] += scoring.bye;
        }
        for pairing in &round.pairings {
            let Some(outcome) = pairing.outcome else {
                continue;
            };
            for side in Side::ALL {
                let (points, played) = scoring.points(outcome, side);
                scores[pairing.of(side)] += points;
                results[pairing.of(side)].push(Result {
                    opponent: pairing.of(side.other()),
                    points,
                    played,
                });
            }
        }
    }
    let mut lines: Vec<Standing> = (0..entrants)
        .map(|entrant| {
            let played = results[entrant].iter().filter(|r| r.played);
            Standing {
                entrant,
                place: 0,
                score: scores[entrant],
                direct: results[entrant]
                    .iter()
                    .filter(|r| r.played && scores[r.opponent] == scores[entrant])
                    .map(|r| r.points)
                    .sum(),
                played_points: played.clone().map(|r| r.points).sum(),
                buchholz: played.clone().map(|r| scores[r.opponent]).sum(),
                sonneborn_berger: played.clone().map(|r| r.points * scores[r.opponent]).sum(),
                played: played.clone().count() as u32,
                wins: played.filter(|r| r.points == scoring.win).count() as u32,
            }
        })
        .collect();
    let key = |s: &Standing| {
        (
            Reverse(s.score),
            Reverse(s.direct),
            Reverse(s.played_points),
            Reverse(s.buchholz),
            Reverse(s.sonneborn_berger),
        )
    };
    lines.sort_by_key(|s| (key(s), s.entrant));
    for i in 0..lines.len() {
        lines[i].place = if i > 0 && key(&lines[i]) == key(&lines[i - 1]) {
            lines[i - 1].place
        } else {
            i + 1
        };
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{Outcome, Pairing};

    fn game(white: Entrant, black: Entrant, outcome: Outcome) -> Pairing {
        Pairing {
            white,
            black,
            outcome: Some(outcome),
        }
    }

    /// Four entrants, three rounds, worked by hand:
    /// - round 1: 0 beats 1, 2 draws 3;
    /// - round 2: 0 draws 2, 3 beats 1;
    /// - round 3: 1 beats 2, 0 and 3's game not started, 3 present: 3's default win.
    ///
    /// Scores: 0: 2+1+0 = 3; 1: 0+0+2 = 2; 2: 1+1+0 = 2; 3: 1+2+2 = 5.
    /// Places: 3 (5), 0 (3), then 1 and 2 tied on 2: their played game (1 beat 2) gives 1 a
    /// direct encounter of 2 against 2's 0.
    /// Buchholz (played games only): 3 met 2 and 1: 2+2 = 4; 0 met 1 and 2: 2+2 = 4;
    /// 1 met 0, 3, 2: 3+5+2 = 10; 2 met 3, 0, 1: 5+3+2 = 10.
    /// Sonneborn-Berger: 3: 1*2 (drew 2) + 2*2 (beat 1) = 6; 0: 2*2 (beat 1) + 1*2 (drew 2) = 6;
    /// 1: 2*2 (beat 2) = 4; 2: 1*5 + 1*3 = 8.
    #[test]
    fn a_worked_example_with_a_default() {
        let rounds = [
            Round {
                pairings: vec![
                    game(0, 1, Outcome::Won(Side::White)),
                    game(2, 3, Outcome::Drawn),
                ],
                bye: None,
            },
            Round {
                pairings: vec![
                    game(0, 2, Outcome::Drawn),
                    game(1, 3, Outcome::Won(Side::Black)),
                ],
                bye: None,
            },
            Round {
                pairings: vec![
                    game(1, 2, Outcome::Won(Side::White)),
                    game(0, 3, Outcome::Default(Some(Side::Black))),
                ],
                bye: None,
            },
        ];
        let lines = standings(4, &rounds, &Scoring::default());
        let table: Vec<(Entrant, usize, u32, u32, u32, u32, u32)> = lines
            .iter()
            .map(|s| {
                (
                    s.entrant,
                    s.place,
                    s.score,
                    s.direct,
                    s.buchholz,
                    s.sonneborn_berger,
                    s.played,
                )
            })
            .collect();
        assert_eq!(
            table,
            [
                (3, 1, 5, 0, 4, 6, 2),
                (0, 2, 3, 0, 4, 6, 2),
                (1, 3, 2, 2, 10, 4, 3),
                (2, 4, 2, 0, 10, 8, 3),
            ]
        );
    }

    #[test]
    fn a_default_win_loses_the_tie_break_to_a_played_win() {
        // 0 beats 2 over the board; 1's opponent 3 never came. Both score 2; 0's Buchholz
        // counts its opponent, 1's counts nothing.
        let rounds = [Round {
            pairings: vec![
                game(0, 2, Outcome::Won(Side::White)),
                game(3, 1, Outcome::Default(Some(Side::Black))),
            ],
            bye: None,
        }];
        let lines = standings(4, &rounds, &Scoring::default());
        assert_eq!(
            (lines[0].entrant, lines[0].score, lines[0].place),
            (0, 2, 1)
        );
        assert_eq!(
            (lines[1].entrant, lines[1].score, lines[1].place),
            (1, 2, 2)
        );
        assert_eq!(lines[1].played, 0);
    }

    #[test]
    fn a_bye_and_a_void_score_as_documented_and_equal_lines_share_a_place() {
        let rounds = [Round {
            pairings: vec![game(0, 1, Outcome::Void)],
            bye: Some(2),
        }];
        let lines = standings(3, &rounds, &Scoring::default());
        assert_eq!(
            (lines[0].entrant, lines[0].score, lines[0].buchholz),
            (2, 2, 0)
        );
        assert_eq!(
            lines
                .iter()
                .map(|s| (s.entrant, s.place, s.score))
                .collect::<Vec<_>>(),
            [(2, 1, 2), (0, 2, 0), (1, 2, 0)]
        );
    }
}
