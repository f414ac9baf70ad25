//! salpakan-bench v1: a frozen evaluation of any engine of the protocol, so that a number
//! measured today compares with one measured next month. Everything is pinned:
//!
//! - **the opponents**: the crate's `random` and `level-1` … `level-8`, as this release
//!   builds them (the bench names the crate's version in its table);
//! - **the deals**: game `k` of a pairing (from 0) gives the opponent seed `1_000_003 · (k +
//!   1)` and the engine `setoption seed k` (if it lists a `seed` option); the engine plays
//!   White in even games, Black in odd ones; White moves first in games 0, 1, 4, 5, …, Black in
//!   2, 3, 6, 7, …;
//! - **the formation priors**: each pairing is played twice, the opponent deploying
//!   uniformly at random (`uniform`) and as people do (`people`, the crate's classic
//!   formation), both reported;
//! - **the rules**: three setup rows, a draw after 200 plies without a challenge;
//! - **the budget**: the engine's time a move (`--move-ms`, 10 s by default; its own
//!   iterations are its own option); the opponents' budgets are their levels';
//! - **the games**: 20 a pairing and prior by default;
//! - **the table**: each pairing's wins, draws, losses, forfeits, the score (a win 1, a draw
//!   ½) and its 95% Wilson interval ([`salpakan_evaluation::Score`]).
//!
//! The same engine with the same seeds gives the same table twice (tested with the crate's
//! own engine).

use std::fmt::Write as _;

use salpakan::{Bot, Formation, Rules, Side, Status};
use salpakan_evaluation::Score;

use crate::engine::AgentEngine;
use crate::host::{Limits, Match, Seat};

/// The bench's name and version, the first line of its table.
pub const BENCH: &str = "salpakan-bench v1";

/// How the opponent deploys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prior {
    /// Uniformly at random.
    Uniform,
    /// As people do: the crate's classic formation.
    People,
}

impl Prior {
    /// Both priors, as the bench reports them.
    pub const ALL: [Prior; 2] = [Prior::Uniform, Prior::People];

    /// `uniform` or `people`.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Prior::Uniform => "uniform",
            Prior::People => "people",
        }
    }

    fn formation(self) -> Formation {
        match self {
            Prior::Uniform => Formation::uniform(),
            Prior::People => Formation::classic(),
        }
    }
}

/// What a run plays: the pinned defaults, or fewer for a quick look (a table says what it
/// played).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    /// The opponents.
    pub opponents: Vec<Bot>,
    /// The priors.
    pub priors: Vec<Prior>,
    /// Games a pairing and prior.
    pub games: u32,
    /// The engine's time a move, in milliseconds.
    pub move_ms: u64,
}

impl Default for Spec {
    /// v1's: random and the eight levels, both priors, 20 games, 10 s a move.
    fn default() -> Spec {
        let mut opponents = vec![Bot::Agent(salpakan::AgentKind::Random)];
        opponents.extend((1..=salpakan::Level::COUNT).map(Bot::Level));
        Spec {
            opponents,
            priors: Prior::ALL.to_vec(),
            games: 20,
            move_ms: 10_000,
        }
    }
}

/// One line of the table: the engine's results against one opponent under one prior.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    /// The opponent.
    pub opponent: Bot,
    /// How it deployed.
    pub prior: Prior,
    /// The engine's wins, draws and losses.
    pub score: Score,
    /// Of the losses, those by the engine's fault (a forfeit).
    pub forfeits: u32,
}

/// The seat of game `k` for `prior` against `opponent`.
fn opponent(opponent: Bot, prior: Prior, k: u32) -> Seat {
    let seed = 1_000_003 * (u64::from(k) + 1);
    let engine = AgentEngine::new(opponent.word(), seed)
        .unwrap_or_else(|_| unreachable!("a bot's word names an agent"))
        .deploying_by(prior.formation());
    Seat::in_process(engine)
}

/// Runs `spec` against the engine in `seat`, saying each finished pairing to `progress`.
pub fn run(seat: &mut Seat, spec: &Spec, mut progress: impl FnMut(&Line)) -> Vec<Line> {
    let limits = Limits {
        mv: std::time::Duration::from_millis(spec.move_ms),
        ..Limits::default()
    };
    let rules = Rules::new(3, 200).unwrap_or_default();
    let mut lines = Vec::new();
    for &bot in &spec.opponents {
        for &prior in &spec.priors {
            let (mut won, mut drawn, mut lost, mut forfeits) = (0, 0, 0, 0);
            for k in 0..spec.games {
                let mut other = opponent(bot, prior, k);
                seat.set_option("seed", &k.to_string());
                let engine_side = if k % 2 == 0 { Side::White } else { Side::Black };
                let first = if (k / 2) % 2 == 0 {
                    Side::White
                } else {
                    Side::Black
                };
                let game = Match::default().rules(rules).first(first).limits(limits);
                let played = match engine_side {
                    Side::White => game.play([&mut *seat, &mut other]),
                    Side::Black => game.play([&mut other, &mut *seat]),
                };
                match played.status {
                    Status::Won { winner, .. } if winner == engine_side => won += 1,
                    Status::Won { .. } => {
                        lost += 1;
                        if played.forfeit.is_some_and(|(s, _)| s == engine_side) {
                            forfeits += 1;
                        }
                    }
                    Status::Drawn { .. } | Status::Ongoing => drawn += 1,
                }
            }
            let line = Line {
                opponent: bot,
                prior,
                score: Score::new(won, drawn, lost),
                forfeits,
            };
            progress(&line);
            lines.push(line);
        }
    }
    lines
}

/// The table a result reports: what was played, then a line a pairing and prior.
#[must_use]
pub fn table(engine: &str, spec: &Spec, lines: &[Line]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{BENCH} (salpakan {}): {engine}; {} games a pairing and prior, {} ms a move, \
         rules 3 rows, 200-ply move limit",
        env!("CARGO_PKG_VERSION"),
        spec.games,
        spec.move_ms
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "| opponent | prior | won | drawn | lost | forfeits | score | 95% interval |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|");
    for line in lines {
        let (low, high) = line.score.interval();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {:.1}% | {:.1}–{:.1}% |",
            line.opponent.word(),
            line.prior.word(),
            line.score.wins,
            line.score.draws,
            line.score.losses,
            line.forfeits,
            100.0 * line.score.mean(),
            100.0 * low,
            100.0 * high
        );
    }
    out
}
