//! A tournament's progress: its rounds as the pairing and standings rules read them, the
//! next round paired when it is due, its games in play and to make, and its end.

use std::cmp::Reverse;

use salpakan::Side;

use super::event::{ToMake, Tournament};
use super::rows::{Board, ResultWords, RoundRow, Status, row_of};
use super::series::{Series, SeriesState};
use super::settings::Kind;
use super::standings::{Standing, standings};
use super::swiss::{self, Seed};
use super::{Entrant, Outcome, Pairing, Round, Scoring, arena};

impl Tournament {
    /// The rounds as the pairing and standings rules read them.
    #[must_use]
    pub(crate) fn plain_rounds(&self) -> Vec<Round> {
        self.rounds
            .iter()
            .filter(|r| r.paired_ms > 0)
            .map(|r| Round {
                pairings: r
                    .boards
                    .iter()
                    .map(|b| Pairing {
                        white: b.white,
                        black: b.black,
                        outcome: b.result.map(ResultWords::outcome),
                    })
                    .collect(),
                bye: r.bye,
            })
            .collect()
    }

    /// The standings now.
    #[must_use]
    pub fn standings(&self) -> Vec<Standing> {
        standings(
            self.entrants.len(),
            &self.plain_rounds(),
            &Scoring::default(),
        )
    }

    /// When an arena ends (milliseconds since the Unix epoch; 0 before its start).
    #[must_use]
    pub(crate) fn arena_end(&self) -> u64 {
        self.started_ms
            .map_or(0, |s| s + u64::from(self.settings.minutes) * 60_000)
    }

    fn busy(&self) -> Vec<bool> {
        let mut busy = vec![false; self.entrants.len()];
        for round in &self.rounds {
            for b in round
                .boards
                .iter()
                .filter(|b| b.result.is_none() && round.paired_ms > 0)
            {
                busy[b.white] = true;
                busy[b.black] = true;
            }
        }
        busy
    }

    /// Pairs what is due at `now_ms`, when running and not paused: the next round once the
    /// last is decided (an arena: whoever is free), each board of a withdrawn entrant decided
    /// at once as a default to its opponent. Returns the boards whose games are to be made.
    pub fn pair(&mut self, now_ms: u64) -> Vec<ToMake> {
        if self.status != Status::Running || self.paused {
            return Vec::new();
        }
        let cutoff_ms = now_ms + self.settings.round_ms;
        let scoring = Scoring::default();
        let plain = self.plain_rounds();
        let all_decided = plain
            .iter()
            .all(|r| r.pairings.iter().all(|p| p.outcome.is_some()));
        let next: Option<RoundRow> = match self.settings.kind {
            Kind::Arena => {
                if now_ms >= self.arena_end() {
                    None
                } else {
                    let busy = self.busy();
                    let waiting: Vec<arena::Waiting> = (0..self.entrants.len())
                        .filter(|&e| !busy[e] && !self.entrants[e].withdrawn)
                        .map(|e| self.arena_waiting(e, &plain))
                        .collect();
                    let (pairings, _) = arena::pair(&waiting);
                    (!pairings.is_empty()).then(|| {
                        row_of(
                            &Round {
                                pairings,
                                bye: None,
                            },
                            Side::White,
                            now_ms,
                        )
                    })
                }
            }
            _ if !all_decided => None,
            Kind::Swiss => (plain.len() < self.settings.rounds as usize).then(|| {
                let seeds: Vec<Seed> = (0..self.entrants.len())
                    .filter(|&e| !self.entrants[e].withdrawn)
                    .map(|e| Seed {
                        entrant: e,
                        rating: self.entrants[e].rating,
                    })
                    .collect();
                row_of(&swiss::pair(&seeds, &plain, &scoring), Side::White, now_ms)
            }),
            Kind::RoundRobin => {
                if let Some(r) = self.rounds.iter().position(|r| r.paired_ms == 0) {
                    self.rounds[r].paired_ms = now_ms;
                    self.rounds[r].cutoff_ms = cutoff_ms;
                    return self.open_round(r, now_ms);
                }
                None
            }
            Kind::Series => match self.series_state(&plain) {
                SeriesState::Playing { next, .. } => {
                    let g = Series::game(next);
                    let (white, black) = if g.white == 0 { (0, 1) } else { (1, 0) };
                    Some(row_of(
                        &Round {
                            pairings: vec![Pairing::new(white, black)],
                            bye: None,
                        },
                        g.first,
                        now_ms,
                    ))
                }
                SeriesState::Over { .. } => None,
            },
        };
        let Some(mut row) = next else {
            return Vec::new();
        };
        if row.boards.is_empty() && row.bye.is_none() {
            return Vec::new();
        }
        row.cutoff_ms = cutoff_ms;
        self.rounds.push(row);
        let r = self.rounds.len() - 1;
        self.open_round(r, now_ms)
    }

    /// Round `r` is paired: logs it, decides the boards of withdrawn entrants, returns the
    /// boards to make.
    fn open_round(&mut self, r: usize, now_ms: u64) -> Vec<ToMake> {
        let mut make = Vec::new();
        let mut words = Vec::new();
        for (i, b) in self.rounds[r].boards.clone().iter().enumerate() {
            words.push(format!(
                "{} v {}",
                self.entrants[b.white].name, self.entrants[b.black].name
            ));
            let gone = [b.white, b.black].map(|e| self.entrants[e].withdrawn);
            if gone[0] || gone[1] {
                let present = match gone {
                    [true, false] => Some(Side::Black),
                    [false, true] => Some(Side::White),
                    _ => None,
                };
                self.game_ended((r, i), ResultWords::Default { present }, now_ms);
            } else {
                make.push(ToMake { round: r, board: i });
            }
        }
        if let Some(bye) = self.rounds[r].bye {
            words.push(format!("bye {}", self.entrants[bye].name));
        }
        let detail = format!("round {}: {}", r + 1, words.join(", "));
        self.note(now_ms, "server", "paired", detail);
        make
    }

    fn arena_waiting(&self, e: Entrant, plain: &[Round]) -> arena::Waiting {
        let scoring = Scoring::default();
        let (mut score, mut balance, mut last) = (0, 0, None);
        for p in plain.iter().flat_map(|r| &r.pairings) {
            let Some(side) = p.side_of(e) else { continue };
            balance += if side == Side::White { 1 } else { -1 };
            last = Some(p.of(side.other()));
            if let Some(outcome) = p.outcome {
                score += scoring.points(outcome, side).0;
            }
        }
        arena::Waiting {
            entrant: e,
            score,
            rating: self.entrants[e].rating,
            balance,
            last,
        }
    }

    /// Ends it at `now_ms` if every round is played (an arena: its time is up and every game
    /// decided; a series: decided). Returns whether it ended now.
    pub(crate) fn finish_if_done(&mut self, now_ms: u64) -> bool {
        if self.status != Status::Running || self.paused {
            return false;
        }
        let plain = self.plain_rounds();
        let decided = plain
            .iter()
            .all(|r| r.pairings.iter().all(|p| p.outcome.is_some()));
        if !decided {
            return false;
        }
        let done = match self.settings.kind {
            Kind::Swiss => plain.len() >= self.settings.rounds as usize,
            Kind::RoundRobin => self.rounds.iter().all(|r| r.paired_ms > 0),
            Kind::Arena => now_ms >= self.arena_end(),
            Kind::Series => matches!(self.series_state(&plain), SeriesState::Over { .. }),
        };
        if !done {
            return false;
        }
        self.status = Status::Finished;
        self.finished_ms = Some(now_ms);
        let top: Vec<String> = self
            .standings()
            .iter()
            .filter(|s| s.place == 1)
            .map(|s| self.entrants[s.entrant].name.clone())
            .collect();
        self.note(
            now_ms,
            "server",
            "finished",
            format!("won by {}", top.join(", ")),
        );
        true
    }

    /// Where a series stands after the decided games of `plain`.
    fn series_state(&self, plain: &[Round]) -> SeriesState {
        let series = Series {
            target: self.settings.target,
            max_games: self.settings.rounds,
        };
        let outcomes: Vec<Outcome> = plain
            .iter()
            .filter_map(|r| r.pairings.first().and_then(|p| p.outcome))
            .collect();
        series.state(&outcomes, &Scoring::default())
    }

    /// Every game of it, with its round and board.
    pub fn games(&self) -> impl Iterator<Item = ((usize, usize), &Board)> {
        self.rounds.iter().enumerate().flat_map(|(r, round)| {
            round
                .boards
                .iter()
                .enumerate()
                .map(move |(i, b)| ((r, i), b))
        })
    }

    /// The boards of rounds under way whose games are still to be made (a round robin's
    /// later rounds wait until they are paired).
    #[must_use]
    pub(crate) fn unmade(&self) -> Vec<ToMake> {
        self.games()
            .filter(|&((round, _), b)| {
                self.rounds[round].paired_ms > 0 && b.game.is_none() && b.result.is_none()
            })
            .map(|((round, board), _)| ToMake { round, board })
            .collect()
    }

    /// The boards in play with a game made, with their round and board.
    #[must_use]
    pub fn in_play(&self) -> Vec<((usize, usize), String)> {
        self.games()
            .filter(|(_, b)| b.result.is_none())
            .filter_map(|(at, b)| b.game.clone().map(|g| (at, g)))
            .collect()
    }

    /// Entrants ordered best first, as its list shows the leaders.
    #[must_use]
    pub(crate) fn leaders(&self, n: usize) -> Vec<String> {
        let mut s = self.standings();
        s.sort_by_key(|s| (s.place, Reverse(s.score)));
        s.into_iter()
            .take(n)
            .map(|s| self.entrants[s.entrant].name.clone())
            .collect()
    }
}
