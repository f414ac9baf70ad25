//! A batch of games stepped together for self-play training: each game seen from its side to
//! move through that side's [`Tracker`], stepped by action ids, restarted when it ends. The
//! Python package's `VecEnv` is a shell over this type; so is any other binding's.
//!
//! Nothing here spawns a thread: [`VecEnv::jobs`] splits a step into runs of games that a
//! caller may run on threads of its own (the Python package runs them on a pool).

use std::sync::Arc;

use thiserror::Error;

use crate::agents::{Agent, Greedy};
use crate::error_kind::{ErrorKind, engine_error};
use crate::knowledge::Formation;
use crate::knowledge::{Observation, Orientation, Tracker};
use crate::movegen::Move;
use crate::position::Position;
use crate::rng::SplitMix64;
use crate::rules::Rules;
use crate::setup::Setup;
use crate::side::Side;
use crate::status::Status;

/// What one step did to one game, for the side that just moved in it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StepResult {
    /// +1 if the move won the game, -1 if it lost it, 0 otherwise (a draw included).
    pub reward: f32,
    /// Whether the game ended (and was replaced by a new one).
    pub terminated: bool,
    /// Whether the game reached the batch's ply cap while going on (and was replaced).
    pub truncated: bool,
}

/// Where a step or a reset writes, for a run of games (each slice holds that many games'
/// worth, in order).
#[derive(Debug)]
pub struct StepOutputs<'a> {
    /// [`Observation::LEN`] floats a game: its side to move's observation, the viewer playing
    /// "up". `None` when the batch makes no observations.
    pub observations: Option<&'a mut [f32]>,
    /// [`Move::NUM_ACTIONS`] `bool`s a game: its legal actions.
    pub masks: &'a mut [bool],
    /// One a game (a reset writes the default).
    pub results: &'a mut [StepResult],
}

/// Actions that cannot all be played: nothing was played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StepError {
    /// Not one action per game.
    #[error("{actions} actions for {games} games")]
    Count {
        /// The actions given.
        actions: usize,
        /// The games of the batch.
        games: usize,
    },
    /// An action that is not a legal move in its game.
    #[error("game {game}: action {action} is not a legal move for {side}")]
    Illegal {
        /// The game's index.
        game: usize,
        /// The action given.
        action: i64,
        /// The side to move there.
        side: Side,
    },
    /// An agent was asked to move in a batch that keeps no trackers (made without
    /// observations): an agent sees a game only through its side's tracker.
    #[error("an agent needs the trackers of a batch that makes observations")]
    NoTrackers,
    /// Not one choice flag a game.
    #[error("{flags} choice flags for {games} games")]
    Choices {
        /// The flags given.
        flags: usize,
        /// The games of the batch.
        games: usize,
    },
}

impl StepError {
    /// Its kind: [`ErrorKind::IllegalMove`] for an illegal action, else
    /// [`ErrorKind::Argument`].
    #[must_use]
    pub const fn kind(&self) -> ErrorKind {
        match self {
            StepError::Count { .. } | StepError::NoTrackers | StepError::Choices { .. } => {
                ErrorKind::Argument
            }
            StepError::Illegal { .. } => ErrorKind::IllegalMove,
        }
    }
}

engine_error!(StepError);

/// One game of the batch.
#[derive(Debug, Clone)]
struct Env {
    /// The setups and the first mover this episode started from.
    start: (Setup, Setup, Side),
    position: Position,
    /// Both sides' trackers, kept only when observations are made.
    trackers: Option<[Tracker; 2]>,
    /// Plies played in this episode.
    plies: u32,
    /// This episode's number (the first is 1).
    episode: u64,
}

/// The batch's settings, shared by every game.
#[derive(Debug, Clone)]
struct Settings {
    seed: u64,
    rules: Rules,
    observations: bool,
    max_plies: u32,
    /// The formation both sides are dealt from; `None` for [`Setup::random`].
    formation: Option<Arc<Formation>>,
}

impl Settings {
    /// Game `index`'s `episode`: setups and first mover drawn from the seed.
    fn new_env(&self, index: usize, episode: u64) -> Env {
        let mut rng = SplitMix64::new(
            self.seed
                ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ episode.rotate_left(32),
        );
        let deal = |side: Side, seed: u64| match &self.formation {
            None => Setup::random(side, self.rules, seed),
            Some(formation) => {
                Setup::sample_with(side, self.rules, formation, &mut SplitMix64::new(seed))
            }
        };
        let white = deal(Side::White, rng.next_u64());
        let black = deal(Side::Black, rng.next_u64());
        let first = Side::ALL[rng.below(2) as usize];
        let position =
            Position::new(&white, &black, first, self.rules).expect("random setups are valid");
        let trackers = self.observations.then(|| {
            let tracker = |own: &Setup, enemy: &Setup| {
                Tracker::new(own, enemy.occupied(), first, self.rules).expect("setups of one game")
            };
            [tracker(&white, &black), tracker(&black, &white)]
        });
        Env {
            start: (white, black, first),
            position,
            trackers,
            plies: 0,
            episode,
        }
    }
}

impl Env {
    /// Plays `mv` (legal, checked by [`VecEnv::moves`]) and reports it for the mover.
    fn play(&mut self, mv: Move, max_plies: u32) -> StepResult {
        let mover = self.position.side_to_move();
        let report = self.position.play_unchecked(mv);
        if let Some(trackers) = &mut self.trackers {
            for tracker in trackers {
                // The reports of a real game always fit; a tracker that refused one would
                // only leave its beliefs behind.
                let _ = tracker.observe(&report);
            }
        }
        self.plies += 1;
        match report.status {
            Status::Ongoing => StepResult {
                truncated: max_plies > 0 && self.plies >= max_plies,
                ..StepResult::default()
            },
            Status::Won { winner, .. } => StepResult {
                reward: if winner == mover { 1.0 } else { -1.0 },
                terminated: true,
                truncated: false,
            },
            Status::Drawn { .. } => StepResult {
                terminated: true,
                ..StepResult::default()
            },
        }
    }

    /// Writes the side to move's observation (if asked) and the legal-action mask.
    fn write(&self, observation: Option<&mut [f32]>, mask: &mut [bool]) {
        self.position.legal_action_mask().write_bools(mask);
        if let (Some(observation), Some(trackers)) = (observation, &self.trackers) {
            let tracker = &trackers[self.position.side_to_move().index()];
            let slot: &mut [f32; Observation::LEN] =
                observation.try_into().expect("one observation's length");
            if tracker
                .write_observation(Orientation::ViewerUp, slot)
                .is_err()
            {
                // Impossible for the reports of a real game; an all-zero tensor says so.
                slot.fill(0.0);
            }
        }
    }
}

/// `len` games stepped together: [`VecEnv::step`] plays one action in every game and writes
/// each game's next observation, mask and result. A game that ends or reaches the ply cap is
/// replaced at once by a new one with setups and first mover drawn from the seed, the game's
/// index and its episode number, and the outputs written for it are the new game's.
///
/// # Examples
/// ```
/// use salpakan::{Move, Observation, Rules};
/// use salpakan::training::{StepOutputs, StepResult, VecEnv};
///
/// let mut env = VecEnv::new(4, 7, Rules::default(), true, 0);
/// let mut observations = vec![0.0f32; 4 * Observation::LEN];
/// let mut masks = vec![false; 4 * Move::NUM_ACTIONS];
/// let mut results = [StepResult::default(); 4];
/// let mut actions = [0i64; 4];
/// for _ in 0..10 {
///     env.sample_actions(&mut actions);
///     let moves = env.moves(&actions)?;
///     env.step(&moves, StepOutputs {
///         observations: Some(&mut observations),
///         masks: &mut masks,
///         results: &mut results,
///     });
/// }
/// assert!(masks.iter().any(|&legal| legal));
/// # Ok::<_, salpakan::training::StepError>(())
/// ```
#[derive(Debug, Clone)]
pub struct VecEnv {
    envs: Vec<Env>,
    settings: Settings,
    rng: SplitMix64,
}

impl VecEnv {
    /// A batch of `len` games drawn from `seed` under `rules`, making observations if
    /// `observations` is set (masks always), each cut after `max_plies` plies (0 for no cap).
    #[must_use]
    pub fn new(len: usize, seed: u64, rules: Rules, observations: bool, max_plies: u32) -> VecEnv {
        let settings = Settings {
            seed,
            rules,
            observations,
            max_plies,
            formation: None,
        };
        VecEnv {
            envs: (0..len).map(|i| settings.new_env(i, 0)).collect(),
            settings,
            rng: SplitMix64::new(seed ^ 0xA5A5_A5A5_A5A5_A5A5),
        }
    }

    /// The same batch with both sides of every game dealt from `formation` (by
    /// [`Setup::sample_with`]) instead of [`Setup::random`]: every game starts afresh from its
    /// first episode, and each later episode is dealt the same way. A learner then meets
    /// opponents that deploy as people do, such as the levels (which deploy by
    /// [`Formation::classic`]). [`Formation::uniform`] deals the same distribution as
    /// [`Setup::random`], but not the same setups for a seed.
    ///
    /// # Examples
    /// ```
    /// use salpakan::{Formation, Rank, Rules, Side};
    /// use salpakan::training::VecEnv;
    ///
    /// let env = VecEnv::new(8, 3, Rules::default(), true, 0).with_formation(Formation::classic());
    /// for game in 0..env.len() {
    ///     let (white, _, _, plies) = env.episode_start(game).unwrap();
    ///     let flag = white.pieces().find(|(_, rank)| *rank == Rank::Flag).unwrap().0;
    ///     assert_eq!((flag.row(), plies), (0, 0)); // the classic Flag stays in the back row
    /// }
    /// ```
    #[must_use]
    pub fn with_formation(mut self, formation: Formation) -> VecEnv {
        self.settings.formation = Some(Arc::new(formation));
        for (i, env) in self.envs.iter_mut().enumerate() {
            *env = self.settings.new_env(i, 0);
        }
        self
    }

    /// The number of games.
    #[must_use]
    pub fn len(&self) -> usize {
        self.envs.len()
    }

    /// Whether the batch has no games.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.envs.is_empty()
    }

    /// Whether observations are made.
    #[must_use]
    pub fn observations(&self) -> bool {
        self.settings.observations
    }

    /// The moves of one action a game (`from * 4 + direction`), every one checked before any
    /// game changes.
    ///
    /// # Errors
    /// [`StepError::Count`] unless there is one action a game; [`StepError::Illegal`] naming
    /// the first game whose action is not one of its legal moves.
    pub fn moves(&self, actions: &[i64]) -> Result<Vec<Move>, StepError> {
        if actions.len() != self.envs.len() {
            return Err(StepError::Count {
                actions: actions.len(),
                games: self.envs.len(),
            });
        }
        actions
            .iter()
            .zip(&self.envs)
            .enumerate()
            .map(|(game, (&action, env))| {
                Move::from_action_number(action)
                    .ok()
                    .filter(|&mv| env.position.is_legal(mv))
                    .ok_or(StepError::Illegal {
                        game,
                        action,
                        side: env.position.side_to_move(),
                    })
            })
            .collect()
    }

    /// Plays `moves[i]` (from [`VecEnv::moves`]) in game `i` for every game, and writes the
    /// outputs, on this thread.
    pub fn step(&mut self, moves: &[Move], out: StepOutputs<'_>) {
        for job in self.jobs(Some(moves), out, 1) {
            job.run();
        }
    }

    /// Starts every game afresh (its next episode) and writes the outputs, on this thread.
    pub fn reset(&mut self, out: StepOutputs<'_>) {
        self.restart_all();
        for job in self.jobs(None, out, 1) {
            job.run();
        }
    }

    /// Starts every game afresh (its next episode); [`VecEnv::jobs`] with no moves then writes
    /// the new games' outputs.
    pub fn restart_all(&mut self) {
        for (i, env) in self.envs.iter_mut().enumerate() {
            *env = self.settings.new_env(i, env.episode + 1);
        }
    }

    /// A step (with `moves`, from [`VecEnv::moves`]) or a write of the current outputs (with
    /// `None`) split into at most `parts` runs of games of about equal length, each with its
    /// share of `out`: run each [`Job`] on any thread; together they do what
    /// [`VecEnv::step`] does.
    ///
    /// # Panics
    /// If `moves` or `out` do not hold one game's worth for every game.
    pub fn jobs<'a>(
        &'a mut self,
        moves: Option<&'a [Move]>,
        out: StepOutputs<'a>,
        parts: usize,
    ) -> Vec<Job<'a>> {
        let n = self.envs.len();
        assert!(moves.is_none_or(|m| m.len() == n), "one move a game");
        assert_eq!(out.masks.len(), n * Move::NUM_ACTIONS, "one mask a game");
        assert_eq!(out.results.len(), n, "one result a game");
        if let Some(observations) = &out.observations {
            assert_eq!(
                observations.len(),
                n * Observation::LEN,
                "one observation a game"
            );
        }
        let size = n.div_ceil(parts.max(1)).max(1);
        let mut observations = out
            .observations
            .map(|o| o.chunks_mut(size * Observation::LEN));
        let mut moves = moves.map(|m| m.chunks(size));
        let settings = &self.settings;
        self.envs
            .chunks_mut(size)
            .zip(out.masks.chunks_mut(size * Move::NUM_ACTIONS))
            .zip(out.results.chunks_mut(size))
            .enumerate()
            .map(|(k, ((envs, masks), results))| Job {
                start: k * size,
                envs,
                moves: moves.as_mut().and_then(Iterator::next),
                out: StepOutputs {
                    observations: observations.as_mut().and_then(Iterator::next),
                    masks,
                    results,
                },
                settings,
            })
            .collect()
    }

    /// The setups and the first mover game `index` started its current episode from (a
    /// [`crate::Game`] made from them replays it), and the plies played since; `None` past the
    /// last game.
    #[must_use]
    pub fn episode_start(&self, index: usize) -> Option<(&Setup, &Setup, Side, u32)> {
        self.envs.get(index).map(|env| {
            let (white, black, first) = &env.start;
            (white, black, *first, env.plies)
        })
    }

    /// `agent`'s action for the side to move in every game where `choose` is set (all games
    /// with `None`), and -1 elsewhere: a built-in opponent for a learner, at the batch's
    /// speed. The agent is handed only the side to move's [`Tracker`], as in a real game;
    /// one agent serves every game (its own state, such as a generator, runs on across them).
    ///
    /// # Errors
    /// [`StepError::NoTrackers`] for a batch made without observations, and
    /// [`StepError::Choices`] unless `choose` has one flag a game.
    ///
    /// # Panics
    /// If `out` does not hold one action a game.
    ///
    /// # Examples
    /// ```
    /// use salpakan::{Greedy, Rules};
    /// use salpakan::training::VecEnv;
    ///
    /// let mut env = VecEnv::new(3, 5, Rules::default(), true, 0);
    /// let (mut greedy, mut random) = ([0i64; 3], [0i64; 3]);
    /// env.agent_actions(&mut Greedy::new(1), Some(&[true, false, true]), &mut greedy)?;
    /// env.sample_actions(&mut random);
    /// assert!(greedy[0] >= 0 && greedy[1] == -1 && greedy[2] >= 0);
    /// let actions = [greedy[0], random[1], greedy[2]];
    /// let moves = env.moves(&actions)?; // every one legal
    /// # assert_eq!(moves.len(), 3);
    /// # Ok::<_, salpakan::training::StepError>(())
    /// ```
    pub fn agent_actions<A: Agent + ?Sized>(
        &self,
        agent: &mut A,
        choose: Option<&[bool]>,
        out: &mut [i64],
    ) -> Result<(), StepError> {
        assert_eq!(out.len(), self.envs.len(), "one action a game");
        for (slot, tracker) in out.iter_mut().zip(self.chosen_trackers(choose)?) {
            *slot = tracker
                .and_then(|tracker| agent.choose(tracker))
                .and_then(Move::action)
                .map_or(-1, i64::from);
        }
        Ok(())
    }

    /// [`Greedy::scores`] for the side to move of every game (of those flagged in `choose`,
    /// all with `None`), laid out by action id: [`Move::NUM_ACTIONS`] floats a game, each legal
    /// action's score and 0 for the illegal ones (the mask tells them apart) and for a game
    /// not chosen. A learner can take `Greedy`'s judgement as a feature or a prior.
    ///
    /// # Errors
    /// As [`VecEnv::agent_actions`].
    ///
    /// # Panics
    /// If `out` does not hold [`Move::NUM_ACTIONS`] floats a game.
    ///
    /// # Examples
    /// ```
    /// use salpakan::{Agent, Greedy, Move, Rules};
    /// use salpakan::training::VecEnv;
    ///
    /// let env = VecEnv::new(2, 5, Rules::default(), true, 0);
    /// let mut scores = vec![0f32; 2 * Move::NUM_ACTIONS];
    /// env.greedy_scores(Some(&[true, false]), &mut scores)?;
    /// let mut chosen = [0i64; 2];
    /// env.agent_actions(&mut Greedy::new(1), None, &mut chosen)?;
    /// let first = &scores[..Move::NUM_ACTIONS];
    /// let best = first.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    /// # assert!(best > 0.0); // the opening's moves towards the enemy score a little
    /// assert_eq!(first[chosen[0] as usize], best); // Greedy plays a best-scored move
    /// assert!(scores[Move::NUM_ACTIONS..].iter().all(|&s| s == 0.0)); // not chosen
    /// # Ok::<_, salpakan::training::StepError>(())
    /// ```
    pub fn greedy_scores(&self, choose: Option<&[bool]>, out: &mut [f32]) -> Result<(), StepError> {
        assert_eq!(
            out.len(),
            self.envs.len() * Move::NUM_ACTIONS,
            "one row of action scores a game"
        );
        let rows = out.chunks_exact_mut(Move::NUM_ACTIONS);
        for (row, tracker) in rows.zip(self.chosen_trackers(choose)?) {
            match tracker {
                Some(tracker) => row.copy_from_slice(&Greedy::action_scores(tracker)),
                None => row.fill(0.0),
            }
        }
        Ok(())
    }

    /// The side to move's tracker of every game flagged in `choose` (all with `None`), `None`
    /// for the others: what a built-in agent may look at.
    fn chosen_trackers<'a>(
        &'a self,
        choose: Option<&'a [bool]>,
    ) -> Result<impl Iterator<Item = Option<&'a Tracker>> + 'a, StepError> {
        if let Some(flags) = choose
            && flags.len() != self.envs.len()
        {
            return Err(StepError::Choices {
                flags: flags.len(),
                games: self.envs.len(),
            });
        }
        if !self.settings.observations {
            return Err(StepError::NoTrackers);
        }
        Ok(self.envs.iter().enumerate().map(move |(i, env)| {
            let wanted = choose.is_none_or(|flags| flags[i]);
            env.trackers
                .as_ref()
                .filter(|_| wanted)
                .map(|trackers| &trackers[env.position.side_to_move().index()])
        }))
    }

    /// A uniformly random legal action for every game (-1 for a game with none), drawn from
    /// the batch's own generator (seeded from its seed): a baseline opponent, or a
    /// benchmark's policy.
    ///
    /// # Panics
    /// If `out` does not hold one action a game.
    pub fn sample_actions(&mut self, out: &mut [i64]) {
        assert_eq!(out.len(), self.envs.len(), "one action a game");
        let rng = &mut self.rng;
        for (slot, env) in out.iter_mut().zip(&self.envs) {
            *slot = env
                .position
                .random_move(rng)
                .and_then(Move::action)
                .map_or(-1, i64::from);
        }
    }
}

/// A run of a batch's games and their share of a step's outputs: [`Job::run`] does that
/// share of the step, on whatever thread runs it.
#[derive(Debug)]
pub struct Job<'a> {
    /// The index of the first game.
    start: usize,
    envs: &'a mut [Env],
    moves: Option<&'a [Move]>,
    out: StepOutputs<'a>,
    settings: &'a Settings,
}

impl Job<'_> {
    /// Plays each game's move (if the job has moves), restarts the games that ended, and
    /// writes every game's outputs.
    pub fn run(self) {
        let Job {
            start,
            envs,
            moves,
            out,
            settings,
        } = self;
        let StepOutputs {
            mut observations,
            masks,
            results,
        } = out;
        for (k, env) in envs.iter_mut().enumerate() {
            let result = match moves {
                Some(moves) => env.play(moves[k], settings.max_plies),
                None => StepResult::default(),
            };
            if result.terminated || result.truncated {
                *env = settings.new_env(start + k, env.episode + 1);
            }
            results[k] = result;
            let observation = observations
                .as_deref_mut()
                .map(|o| &mut o[k * Observation::LEN..(k + 1) * Observation::LEN]);
            env.write(
                observation,
                &mut masks[k * Move::NUM_ACTIONS..(k + 1) * Move::NUM_ACTIONS],
            );
        }
    }
}
