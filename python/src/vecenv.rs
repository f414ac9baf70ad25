//! A batch of games stepped together from NumPy arrays, for self-play training.

use numpy::{PyArray1, PyArray2, PyArray4, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;

use salpakan::{
    Move, Observation, Orientation, Position, Rules, Setup, Side, SplitMix64, Status, Tracker,
};

use crate::convert;
use crate::errors::{argument, error};

/// One game of the batch.
struct Env {
    /// The setups and the first mover this episode started from.
    start: (Setup, Setup, Side),
    position: Position,
    /// Both sides' trackers, kept only when observations are asked for.
    trackers: Option<[Tracker; 2]>,
    /// Plies played in this episode.
    plies: u32,
}

/// Where one env writes its part of a step's outputs.
struct Out<'a> {
    observation: Option<&'a mut [f32]>,
    mask: &'a mut [bool],
}

/// One thread's share of a step: a run of envs and their parts of the outputs.
struct Chunk<'a> {
    /// The index of the first env.
    start: usize,
    envs: &'a mut [Env],
    masks: &'a mut [bool],
    results: &'a mut [(f32, bool, bool)],
    observations: Option<&'a mut [f32]>,
}

/// The batch's settings, shared by every env.
#[derive(Clone, Copy)]
struct Settings {
    seed: u64,
    rules: Rules,
    observations: bool,
    max_plies: u32,
}

impl Settings {
    /// A new game for env `index`'s `episode`: setups and first mover drawn from the seed.
    fn new_env(&self, index: usize, episode: u64) -> Env {
        let mut rng = SplitMix64::new(
            self.seed
                ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ episode.rotate_left(32),
        );
        let white = Setup::random(Side::White, self.rules, rng.next_u64());
        let black = Setup::random(Side::Black, self.rules, rng.next_u64());
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
        }
    }
}

impl Env {
    /// Writes the side to move's observation and the legal-action mask.
    fn write(&self, out: Out<'_>) {
        convert::fill_mask(&self.position.legal_action_mask(), out.mask);
        if let (Some(observation), Some(trackers)) = (out.observation, &self.trackers) {
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

    /// Plays `mv` (legal, checked by the caller): the mover's reward, whether the game ended,
    /// whether it was cut at the ply cap.
    fn play(&mut self, mv: Move, max_plies: u32) -> (f32, bool, bool) {
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
            Status::Ongoing => (0.0, false, max_plies > 0 && self.plies >= max_plies),
            Status::Won { winner, .. } => (if winner == mover { 1.0 } else { -1.0 }, true, false),
            Status::Drawn { .. } => (0.0, true, false),
        }
    }
}

/// `num_envs` games stepped together: `step(actions)` plays one action in every game and
/// returns NumPy arrays, with no Python loop per game.
///
/// Each game is seen from its side to move: `observations[i]` (shape `(38, 8, 9)`, the
/// crate's documented planes, the viewer playing "up") and `action_masks[i]` (288 `bool`s) are
/// for the side that plays next in game `i`. `rewards[i]` is for the side that just moved in
/// game `i`: +1 if its move won the game, -1 if it lost it, 0 otherwise (a draw included).
/// A game that ends (`terminations[i]`) or reaches `max_plies` plies (`truncations[i]`) is
/// replaced at once by a new one with setups and first mover drawn from `seed`, the env index
/// and the episode number; the observation and mask returned for it are the new game's.
///
/// With `observations=False` only the masks are made (and `observations` is `None`). With
/// `threads` above 1 the games are split between that many threads for each step. The GIL is
/// released while the games are stepped.
#[pyclass(module = "salpakan")]
pub(crate) struct VecEnv {
    envs: Vec<Env>,
    episodes: Vec<u64>,
    settings: Settings,
    threads: usize,
    /// The worker threads besides the caller's when `threads` is above 1, kept for the
    /// env's lifetime.
    workers: Option<rayon::ThreadPool>,
    rng: SplitMix64,
    /// Output arrays made by earlier steps, reused once Python holds no other reference to
    /// them (so a returned array is never written again while anyone can see it).
    pool: Vec<Outputs>,
}

/// A step's observation and mask arrays, as the pool keeps them.
type Outputs = (Option<Py<PyArray4<f32>>>, Py<PyArray2<bool>>);

/// Whether only the pool holds `array` (its reference count is 1).
fn unshared<T>(_py: Python<'_>, array: &Py<T>) -> bool {
    // SAFETY: `array` is a live object and the GIL is held (`_py`).
    unsafe { pyo3::ffi::Py_REFCNT(array.as_ptr()) == 1 }
}

/// How many earlier steps' output arrays are kept for reuse.
const POOL: usize = 3;

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (num_envs, seed = 0, observations = true, threads = 1, setup_rows = 3, move_limit = 0, max_plies = 2000))]
    fn new(
        num_envs: usize,
        seed: u64,
        observations: bool,
        threads: usize,
        setup_rows: i64,
        move_limit: i64,
        max_plies: u32,
    ) -> PyResult<VecEnv> {
        if num_envs == 0 {
            return Err(argument("num_envs must be at least 1"));
        }
        let settings = Settings {
            seed,
            rules: convert::rules(setup_rows, move_limit)?,
            observations,
            max_plies,
        };
        Ok(VecEnv {
            envs: (0..num_envs).map(|i| settings.new_env(i, 0)).collect(),
            episodes: vec![0; num_envs],
            settings,
            threads: threads.max(1),
            workers: if threads > 1 {
                Some(
                    rayon::ThreadPoolBuilder::new()
                        // The calling thread works too: `threads - 1` more.
                        .num_threads(threads - 1)
                        .build()
                        .map_err(|e| argument(format!("cannot start {threads} threads: {e}")))?,
                )
            } else {
                None
            },
            rng: SplitMix64::new(seed ^ 0xA5A5_A5A5_A5A5_A5A5),
            pool: Vec::new(),
        })
    }

    /// The number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.envs.len()
    }

    /// Whether observations are made.
    #[getter]
    fn observations(&self) -> bool {
        self.settings.observations
    }

    /// Starts every game afresh (the next episode of each) and returns `(observations,
    /// action_masks)`.
    #[allow(clippy::type_complexity)]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
    ) -> PyResult<(
        Option<Bound<'py, PyArray4<f32>>>,
        Bound<'py, PyArray2<bool>>,
    )> {
        let settings = self.settings;
        for (i, (env, episode)) in self.envs.iter_mut().zip(&mut self.episodes).enumerate() {
            *episode += 1;
            *env = settings.new_env(i, *episode);
        }
        let (observations, masks) = self.outputs(py);
        self.run(py, &observations, &masks, None, |_, _| (0.0, false, false))?;
        Ok((observations, masks))
    }

    /// Plays `actions[i]` (an action id, `from * 4 + direction`) in game `i` for every game and
    /// returns `(observations, rewards, terminations, truncations, action_masks)`. Every
    /// action is checked before any game changes: an illegal one raises `IllegalMoveError`
    /// naming the game, and nothing is played.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Option<Bound<'py, PyArray4<f32>>>,
        Bound<'py, PyArray1<f32>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray2<bool>>,
    )> {
        // An int64 NumPy array is read in place; anything else (a list, another dtype) is
        // converted.
        let array = actions.extract::<PyReadonlyArray1<'py, i64>>().ok();
        let converted: Vec<i64>;
        let actions: &[i64] = match &array {
            Some(array) => array.as_slice()?,
            None => {
                converted = actions
                    .try_iter()?
                    .map(|a| a?.extract::<i64>())
                    .collect::<PyResult<_>>()
                    .map_err(|_| {
                        argument("actions must be a sequence of integers, one per game")
                    })?;
                &converted
            }
        };
        if actions.len() != self.envs.len() {
            return Err(argument(format!(
                "{} actions for {} games",
                actions.len(),
                self.envs.len()
            )));
        }
        let mut moves = Vec::with_capacity(actions.len());
        for (i, (&action, env)) in actions.iter().zip(&self.envs).enumerate() {
            let mv = u16::try_from(action).ok().and_then(Move::from_action);
            match mv {
                Some(mv) if env.position.is_legal(mv) => moves.push(mv),
                _ => {
                    return Err(error(
                        salpakan::ErrorKind::IllegalMove,
                        format!(
                            "game {i}: action {action} is not a legal move for {}",
                            env.position.side_to_move().word()
                        ),
                    ));
                }
            }
        }
        let n = self.envs.len();
        let rewards = PyArray1::<f32>::zeros(py, n, false);
        let terminations = PyArray1::<bool>::zeros(py, n, false);
        let truncations = PyArray1::<bool>::zeros(py, n, false);
        let (observations, masks) = self.outputs(py);
        {
            // SAFETY: the arrays were just made here and are not shared with Python yet.
            let (r, te, tr) = unsafe {
                (
                    rewards.as_slice_mut()?,
                    terminations.as_slice_mut()?,
                    truncations.as_slice_mut()?,
                )
            };
            let mut results = vec![(0.0f32, false, false); n];
            self.run(py, &observations, &masks, Some(&mut results), |env, i| {
                env.play(moves[i], u32::MAX)
            })?;
            for (i, &(reward, ended, _)) in results.iter().enumerate() {
                r[i] = reward;
                te[i] = ended;
                tr[i] = !ended
                    && self.settings.max_plies > 0
                    && self.envs[i].plies >= self.settings.max_plies;
            }
            // Finished games start again; their outputs are the new games'.
            let settings = self.settings;
            let done: Vec<usize> = (0..n).filter(|&i| te[i] || tr[i]).collect();
            if !done.is_empty() {
                for &i in &done {
                    self.episodes[i] += 1;
                    self.envs[i] = settings.new_env(i, self.episodes[i]);
                }
                self.write_some(&observations, &masks, &done)?;
            }
        }
        Ok((observations, rewards, terminations, truncations, masks))
    }

    /// The game `index` is playing now, as a `Game` replayable by hand: `(white, black,
    /// first)`, its setups and first mover (`Game(white, black, first=first)` starts it), and
    /// the plies played since.
    fn episode_start(
        &self,
        index: usize,
    ) -> PyResult<(
        crate::values::Setup,
        crate::values::Setup,
        &'static str,
        u32,
    )> {
        let env = self.envs.get(index).ok_or_else(|| {
            argument(format!("game {index}: there are {} games", self.envs.len()))
        })?;
        let (white, black, first) = &env.start;
        Ok((
            crate::values::Setup {
                inner: white.clone(),
            },
            crate::values::Setup {
                inner: black.clone(),
            },
            first.word(),
            env.plies,
        ))
    }

    /// A uniformly random legal action for every game (`int64`, one per game), drawn from the
    /// env's own generator (seeded from `seed`): a baseline opponent, or a benchmark's policy.
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let rng = &mut self.rng;
        PyArray1::from_iter(
            py,
            self.envs.iter().map(|env| {
                env.position
                    .random_move(rng)
                    .and_then(Move::action)
                    .map_or(-1, i64::from)
            }),
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "<salpakan.VecEnv {} games, observations {}, {} threads>",
            self.envs.len(),
            self.settings.observations,
            self.threads
        )
    }
}

impl VecEnv {
    /// Output arrays for a step: an earlier step's that nobody else holds any more (fresh
    /// memory costs a page fault per 4 KB, most of a step's time with observations), else new
    /// ones. Every element is written by the step.
    #[allow(clippy::type_complexity)]
    fn outputs<'py>(
        &mut self,
        py: Python<'py>,
    ) -> (
        Option<Bound<'py, PyArray4<f32>>>,
        Bound<'py, PyArray2<bool>>,
    ) {
        // Held only by the pool: a count of 1 (the pool's reference).
        let free = self.pool.iter().position(|(observations, masks)| {
            unshared(py, masks) && observations.as_ref().is_none_or(|o| unshared(py, o))
        });
        let (observations, masks) = match free {
            Some(i) => {
                let (observations, masks) = &self.pool[i];
                (
                    observations.as_ref().map(|o| o.bind(py).clone()),
                    masks.bind(py).clone(),
                )
            }
            None => {
                let n = self.envs.len();
                let [planes, rows, files] = Observation::SHAPE;
                let observations = self
                    .settings
                    .observations
                    .then(|| PyArray4::<f32>::zeros(py, [n, planes, rows, files], false));
                let masks = PyArray2::<bool>::zeros(py, [n, Move::NUM_ACTIONS], false);
                if self.pool.len() >= POOL {
                    self.pool.remove(0);
                }
                self.pool.push((
                    observations.as_ref().map(|o| o.clone().unbind()),
                    masks.clone().unbind(),
                ));
                (observations, masks)
            }
        };
        (observations, masks)
    }

    /// Runs `act` on every env (over the threads, the GIL released), then writes each env's
    /// observation and mask; each env's result goes to `results`.
    fn run<'py>(
        &mut self,
        py: Python<'py>,
        observations: &Option<Bound<'py, PyArray4<f32>>>,
        masks: &Bound<'py, PyArray2<bool>>,
        results: Option<&mut Vec<(f32, bool, bool)>>,
        act: impl Fn(&mut Env, usize) -> (f32, bool, bool) + Sync,
    ) -> PyResult<()> {
        let n = self.envs.len();
        // SAFETY: the arrays were just made by `outputs` and are not shared with Python yet.
        let observation_slice = match observations {
            Some(array) => Some(unsafe { array.as_slice_mut()? }),
            None => None,
        };
        // SAFETY: as above.
        let mask_slice = unsafe { masks.as_slice_mut()? };
        let mut local = vec![(0.0f32, false, false); n];
        let results = results.unwrap_or(&mut local);
        let threads = self.threads.min(n);
        let envs = &mut self.envs;
        let workers = self.workers.as_ref();
        py.detach(|| {
            let size = n.div_ceil(threads);
            let mut chunks = Vec::with_capacity(threads);
            let (mut envs, mut masks, mut results) = (&mut envs[..], mask_slice, &mut results[..]);
            let mut observations = observation_slice;
            let mut start = 0;
            while !envs.is_empty() {
                let take = size.min(envs.len());
                let (e, rest_e) = envs.split_at_mut(take);
                let (m, rest_m) = masks.split_at_mut(take * Move::NUM_ACTIONS);
                let (r, rest_r) = results.split_at_mut(take);
                let o = match observations.take() {
                    Some(all) => {
                        let (o, rest_o) = all.split_at_mut(take * Observation::LEN);
                        observations = Some(rest_o);
                        Some(o)
                    }
                    None => None,
                };
                chunks.push(Chunk {
                    start,
                    envs: e,
                    masks: m,
                    results: r,
                    observations: o,
                });
                (envs, masks, results) = (rest_e, rest_m, rest_r);
                start += take;
            }
            let job = |chunk: Chunk<'_>| {
                let Chunk {
                    start,
                    envs,
                    masks,
                    results,
                    mut observations,
                } = chunk;
                for (k, env) in envs.iter_mut().enumerate() {
                    results[k] = act(env, start + k);
                    let observation = observations
                        .as_deref_mut()
                        .map(|o| &mut o[k * Observation::LEN..(k + 1) * Observation::LEN]);
                    env.write(Out {
                        observation,
                        mask: &mut masks[k * Move::NUM_ACTIONS..(k + 1) * Move::NUM_ACTIONS],
                    });
                }
            };
            match workers {
                Some(pool) if chunks.len() > 1 => pool.in_place_scope(|scope| {
                    let mut chunks = chunks.into_iter();
                    let first = chunks.next();
                    for chunk in chunks {
                        scope.spawn(|_| job(chunk));
                    }
                    // The first share on this thread, the others on the workers.
                    if let Some(chunk) = first {
                        job(chunk);
                    }
                }),
                _ => chunks.into_iter().for_each(job),
            }
        });
        Ok(())
    }

    /// Writes the outputs of the envs `which` only (after a reset of finished games).
    fn write_some<'py>(
        &self,
        observations: &Option<Bound<'py, PyArray4<f32>>>,
        masks: &Bound<'py, PyArray2<bool>>,
        which: &[usize],
    ) -> PyResult<()> {
        // SAFETY: the arrays were made by `outputs` for this step and are not shared yet.
        let mut observation_slice = match observations {
            Some(array) => Some(unsafe { array.as_slice_mut()? }),
            None => None,
        };
        // SAFETY: as above.
        let mask_slice = unsafe { masks.as_slice_mut()? };
        for &i in which {
            let observation = observation_slice
                .as_deref_mut()
                .map(|o| &mut o[i * Observation::LEN..(i + 1) * Observation::LEN]);
            self.envs[i].write(Out {
                observation,
                mask: &mut mask_slice[i * Move::NUM_ACTIONS..(i + 1) * Move::NUM_ACTIONS],
            });
        }
        Ok(())
    }
}
