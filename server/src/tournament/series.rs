//! A series between two entrants: a race to `target` points (win 2, draw 1, as the
//! tournament scores), colours alternating each game and the side that moves first
//! alternating every two, so that each entrant has each colour, and moves first, as often as
//! the other within every four games. It ends when an entrant has reached the target and
//! leads; after `max_games` without that, the leader wins, or it is drawn.

use salpakan::Side;

use super::{Outcome, Scoring};

/// A race to `target` points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Series {
    /// The points that win it.
    pub target: u32,
    /// The most games it runs to.
    pub max_games: u32,
}

/// One game of a series: which entrant of the two (0 or 1) plays White, and which side
/// moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SeriesGame {
    /// 0 for the series' first entrant, 1 for the second.
    pub white: usize,
    /// The side that moves first.
    pub first: Side,
}

/// Where a series stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SeriesState {
    /// Game number `next` (from 0) is to be played; the points so far.
    Playing {
        /// The next game's number.
        next: u32,
        /// Each entrant's points.
        points: [u32; 2],
    },
    /// Over: won by entrant 0 or 1, or drawn (`None`), with the points.
    Over {
        /// The winner.
        winner: Option<usize>,
        /// Each entrant's points.
        points: [u32; 2],
    },
}

impl Series {
    /// Game `k` (from 0): the first entrant White in even games; White moves first in games
    /// 0, 1, 4, 5, …, Black in 2, 3, 6, 7, ….
    #[must_use]
    pub fn game(k: u32) -> SeriesGame {
        SeriesGame {
            white: (k % 2) as usize,
            first: if (k / 2).is_multiple_of(2) {
                Side::White
            } else {
                Side::Black
            },
        }
    }

    /// Where the series stands after `outcomes` (game `k`'s outcome is `outcomes[k]`, with
    /// colours as [`Series::game`] gives them).
    #[must_use]
    pub fn state(&self, outcomes: &[Outcome], scoring: &Scoring) -> SeriesState {
        let mut points = [0_u32; 2];
        for (k, outcome) in outcomes.iter().enumerate() {
            let white = Series::game(k as u32).white;
            points[white] += scoring.points(*outcome, Side::White).0;
            points[1 - white] += scoring.points(*outcome, Side::Black).0;
            let leader = match points[0].cmp(&points[1]) {
                core::cmp::Ordering::Greater => Some(0),
                core::cmp::Ordering::Less => Some(1),
                core::cmp::Ordering::Equal => None,
            };
            let reached = points.iter().any(|&p| p >= self.target);
            if (reached && leader.is_some()) || k + 1 >= self.max_games as usize {
                return SeriesState::Over {
                    winner: leader,
                    points,
                };
            }
        }
        SeriesState::Playing {
            next: outcomes.len() as u32,
            points,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_and_first_moves_alternate_evenly() {
        let games: Vec<(usize, Side)> = (0..4)
            .map(|k| {
                let g = Series::game(k);
                (g.white, g.first)
            })
            .collect();
        assert_eq!(
            games,
            [
                (0, Side::White),
                (1, Side::White),
                (0, Side::Black),
                (1, Side::Black)
            ]
        );
        // Entrant 0 moves first in games 0 (White, White first) and 3 (Black, Black first).
    }

    #[test]
    fn a_race_to_four_by_hand() {
        let series = Series {
            target: 4,
            max_games: 12,
        };
        let scoring = Scoring::default();
        // Game 0: entrant 0 (White) wins: 2-0. Game 1: entrant 1 (White) wins: 2-2.
        // Game 2: drawn: 3-3. Game 3: entrant 1 is White and loses: 5-3, over.
        let outcomes = [
            Outcome::Won(Side::White),
            Outcome::Won(Side::White),
            Outcome::Drawn,
            Outcome::Won(Side::Black),
        ];
        assert_eq!(
            series.state(&outcomes[..3], &scoring),
            SeriesState::Playing {
                next: 3,
                points: [3, 3]
            }
        );
        assert_eq!(
            series.state(&outcomes, &scoring),
            SeriesState::Over {
                winner: Some(0),
                points: [5, 3]
            }
        );
        // 3-3 then a draw: 4-4 reaches the target with nobody ahead: it goes on.
        let level = [outcomes[0], outcomes[1], Outcome::Drawn, Outcome::Drawn];
        assert_eq!(
            series.state(&level, &scoring),
            SeriesState::Playing {
                next: 4,
                points: [4, 4]
            }
        );
        let capped = Series {
            target: 4,
            max_games: 4,
        };
        assert_eq!(
            capped.state(&level, &scoring),
            SeriesState::Over {
                winner: None,
                points: [4, 4]
            }
        );
    }
}
