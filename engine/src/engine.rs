//! The engine's side: what an engine knows, followed from its host's lines ([`Knowledge`]),
//! and an engine over any of the crate's agents ([`AgentEngine`], what `salpakan-engine`
//! runs), answering each host line with its own.

use std::io::{self, BufRead, Write};

use salpakan::{
    Agent, Bitboard, Bot, Formation, ObserveError, Report, Rules, Setup, Side, SplitMix64, Status,
    Tracker,
};

use crate::protocol::{EngineLine, HostLine, LineError, PROTOCOL, VERSION};

/// What an engine knows of the game in play, from its host's lines alone: its side, the
/// rules, who moves first, its own formation, and, once the game has started, its side's
/// [`Tracker`] (the enemy's squares, every public move and announcement, the exact
/// posterior over the enemy's ranks).
#[derive(Debug, Clone)]
pub struct Knowledge {
    side: Side,
    first: Side,
    rules: Rules,
    own: Option<Setup>,
    tracker: Option<Tracker>,
}

impl Knowledge {
    /// The knowledge of a `newgame`: the engine plays `side` under `rules`, `first` to move.
    #[must_use]
    pub fn new(side: Side, first: Side, rules: Rules) -> Knowledge {
        Knowledge {
            side,
            first,
            rules,
            own: None,
            tracker: None,
        }
    }

    /// The engine's side.
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The engine's formation, as it gave it.
    pub fn formation(&mut self, own: Setup) {
        self.own = Some(own);
    }

    /// `start`: the enemy's pieces stand on `enemy`.
    ///
    /// # Errors
    /// [`ObserveError`] before the engine's own formation, or for squares that cannot be the
    /// enemy's.
    pub fn start(&mut self, enemy: Bitboard) -> Result<(), ObserveError> {
        let own = self
            .own
            .as_ref()
            .ok_or_else(|| ObserveError::Start("no formation of this side yet".into()))?;
        self.tracker = Some(Tracker::new(own, enemy, self.first, self.rules)?);
        Ok(())
    }

    /// `ply`: a ply of either side, as announced.
    ///
    /// # Errors
    /// [`ObserveError`] before the start, or for a ply the knowledge cannot follow.
    pub fn ply(&mut self, report: &Report) -> Result<(), ObserveError> {
        match &mut self.tracker {
            Some(tracker) => tracker.observe(report),
            None => Err(ObserveError::Start("a ply before the start".into())),
        }
    }

    /// `over`: the game ended with `status`.
    pub fn over(&mut self, status: Status) {
        if let Some(tracker) = &mut self.tracker {
            let _ = tracker.observe_end(status);
        }
    }

    /// The side's tracker, once the game has started.
    #[must_use]
    pub fn tracker(&self) -> Option<&Tracker> {
        self.tracker.as_ref()
    }
}

/// An engine in this process: its answer lines to each line of its host.
pub trait Engine {
    /// The engine's answer to the host's `line`: none, one or several lines.
    fn answer(&mut self, line: &HostLine) -> Vec<EngineLine>;
}

/// An engine over one of the crate's agents (`random`, `greedy`, `ismcts`, `level-1` …
/// `level-8`): it deploys as the agent does and moves as it chooses from its side's
/// [`Tracker`]. Options: `seed` (its draws: each game's from it and the game's number) and
/// `budget` (ISMCTS's iterations a move; 0 its default).
pub struct AgentEngine {
    bot: Bot,
    deploy_by: Option<Formation>,
    seed: u64,
    budget: u32,
    games: u64,
    agent: Box<dyn Agent + Send>,
    knowledge: Option<Knowledge>,
}

impl AgentEngine {
    /// The engine of agent `word`, its draws seeded with `seed` (from the OS's generator
    /// where its formations must stay secret).
    ///
    /// # Errors
    /// The words the agents have, for any other.
    pub fn new(word: &str, seed: u64) -> Result<AgentEngine, String> {
        let bot: Bot = word.parse().map_err(|_| {
            format!("an agent is random, greedy, ismcts or level-1 … level-8, not {word:?}")
        })?;
        Ok(AgentEngine {
            bot,
            deploy_by: None,
            seed,
            budget: 0,
            games: 0,
            agent: bot.build(seed, 0),
            knowledge: None,
        })
    }

    /// The engine deploying by `formation` (a prior over where each rank stands) instead of
    /// as its agent does: what a benchmark pins.
    #[must_use]
    pub fn deploying_by(mut self, formation: Formation) -> AgentEngine {
        self.deploy_by = Some(formation);
        self
    }

    /// Follows a line into the knowledge; a line it cannot follow is said as `info`.
    fn follow(
        &mut self,
        step: impl FnOnce(&mut Knowledge) -> Result<(), ObserveError>,
    ) -> Vec<EngineLine> {
        match self.knowledge.as_mut().map(step) {
            Some(Ok(())) => Vec::new(),
            Some(Err(e)) => vec![EngineLine::Info(e.to_string())],
            None => vec![EngineLine::Info("no game: newgame first".into())],
        }
    }
}

impl Engine for AgentEngine {
    fn answer(&mut self, line: &HostLine) -> Vec<EngineLine> {
        match line {
            HostLine::Hello { version } => {
                let mut said = vec![
                    EngineLine::Id {
                        key: "name".into(),
                        value: format!("salpakan {}", self.bot.word()),
                    },
                    EngineLine::Id {
                        key: "author".into(),
                        value: "the salpakan crate".into(),
                    },
                    EngineLine::Option {
                        name: "seed".into(),
                        default: self.seed.to_string(),
                    },
                    EngineLine::Option {
                        name: "budget".into(),
                        default: self.budget.to_string(),
                    },
                ];
                if *version != VERSION {
                    said.push(EngineLine::Info(format!(
                        "this engine speaks {PROTOCOL} {VERSION}, not {version}"
                    )));
                }
                said.push(EngineLine::SepOk);
                said
            }
            HostLine::SetOption { name, value } => match (name.as_str(), value.parse::<u64>()) {
                ("seed", Ok(seed)) => {
                    self.seed = seed;
                    Vec::new()
                }
                ("budget", Ok(budget)) => {
                    self.budget = u32::try_from(budget).unwrap_or(u32::MAX);
                    Vec::new()
                }
                _ => vec![EngineLine::Info(format!("no option {name} {value}"))],
            },
            HostLine::NewGame { side, first, rules } => {
                self.games += 1;
                let seed = SplitMix64::new(self.seed ^ self.games.rotate_left(32)).next_u64();
                self.agent = self.bot.build(seed, self.budget);
                self.knowledge = Some(Knowledge::new(*side, *first, *rules));
                vec![EngineLine::Ready]
            }
            HostLine::Formation => {
                let Some(knowledge) = &mut self.knowledge else {
                    return vec![EngineLine::Info("formation before newgame".into())];
                };
                let seed = SplitMix64::new(self.seed ^ self.games).next_u64();
                let setup = match &self.deploy_by {
                    Some(formation) => Setup::sample_with(
                        knowledge.side(),
                        knowledge.rules(),
                        formation,
                        &mut SplitMix64::new(seed),
                    ),
                    None => self.agent.deploy(knowledge.side(), knowledge.rules(), seed),
                };
                knowledge.formation(setup.clone());
                vec![EngineLine::Formation(setup)]
            }
            HostLine::Start { enemy } => self.follow(|k| k.start(*enemy)),
            HostLine::Ply(report) => self.follow(|k| k.ply(report)),
            HostLine::Go { .. } => {
                let chosen = self
                    .knowledge
                    .as_ref()
                    .and_then(Knowledge::tracker)
                    .map(|tracker| self.agent.try_choose(tracker));
                match chosen {
                    Some(Ok(mv)) => vec![EngineLine::Move(mv)],
                    Some(Err(e)) => vec![EngineLine::Info(e.to_string()), EngineLine::Resign],
                    None => vec![EngineLine::Resign],
                }
            }
            HostLine::Over { status, .. } => {
                if let Some(knowledge) = &mut self.knowledge {
                    knowledge.over(*status);
                }
                Vec::new()
            }
            HostLine::Quit => Vec::new(),
        }
    }
}

/// Serves `engine` on `input` and `output` until `quit` or the end of the input: each line
/// read is answered (a line that is not the protocol's with an `info` saying why), each
/// answer flushed at once.
///
/// # Errors
/// The streams' errors.
pub fn serve(
    engine: &mut impl Engine,
    input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    for line in input.lines() {
        let line = line?;
        let answers = match line.parse::<HostLine>() {
            Ok(HostLine::Quit) => return Ok(()),
            Ok(host) => engine.answer(&host),
            Err(LineError::Shape) => vec![EngineLine::Info("a line too long or not ASCII".into())],
            Err(e) => vec![EngineLine::Info(e.to_string())],
        };
        for answer in answers {
            writeln!(output, "{answer}")?;
        }
        output.flush()?;
    }
    Ok(())
}
