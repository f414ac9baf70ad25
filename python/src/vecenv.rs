//! A batch of games stepped together from NumPy arrays, for self-play training: a shell over
//! the crate's `VecEnv`, which does all the stepping. This module holds only what Python
//! needs: the arrays (reused when nobody else holds them), the GIL released while the games
//! are stepped, and the threads that share a step.

use numpy::{PyArray1, PyArray2, PyArray4, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;

use salpakan::training::{StepOutputs, StepResult};
use salpakan::{Move, Observation};

use crate::convert;
use crate::errors::{argument, raise};

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
/// With `formation="classic"` (or `"uniform"`, or either tempered: `"classic^0.5"`) both
/// sides of every game are dealt from that formation (`Setup.sample`) instead of
/// `Setup.random`: opponents such as the levels then meet a learner from the formation they
/// deploy by themselves.
///
/// With `observations=False` only the masks are made (and `observations` is `None`). With
/// `threads` above 1 the games are split between that many threads for each step that makes
/// observations (a step with masks only is too short to share). The GIL is released while
/// the games are stepped.
#[pyclass(module = "salpakan")]
pub(crate) struct VecEnv {
    inner: salpakan::training::VecEnv,
    threads: usize,
    /// The worker threads besides the caller's when `threads` is above 1, kept for the
    /// env's lifetime (threads made afresh each step lose their per-thread buffers).
    workers: Option<rayon::ThreadPool>,
    /// Output arrays made by earlier steps, reused once Python holds no other reference to
    /// them (so a returned array is never written again while anyone can see it).
    pool: Vec<Outputs>,
    /// Each game's result of the last step.
    results: Vec<StepResult>,
}

/// A step's observation and mask arrays, as the pool keeps them.
type Outputs = (Option<Py<PyArray4<f32>>>, Py<PyArray2<bool>>);

/// The arrays a step returns besides the rewards and flags.
type Arrays<'py> = (
    Option<Bound<'py, PyArray4<f32>>>,
    Bound<'py, PyArray2<bool>>,
);

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
    #[pyo3(signature = (num_envs, seed = 0, observations = true, threads = 1, setup_rows = 3, move_limit = 0, max_plies = 2000, formation = None))]
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments
    fn new(
        num_envs: usize,
        seed: u64,
        observations: bool,
        threads: usize,
        setup_rows: i64,
        move_limit: i64,
        max_plies: u32,
        formation: Option<&str>,
    ) -> PyResult<VecEnv> {
        if num_envs == 0 {
            return Err(argument("num_envs must be at least 1"));
        }
        let rules = convert::rules(setup_rows, move_limit)?;
        let formation = formation
            .map(str::parse::<salpakan::Formation>)
            .transpose()
            .map_err(raise)?;
        let workers = if threads > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    // The calling thread works too: `threads - 1` more.
                    .num_threads(threads - 1)
                    .build()
                    .map_err(|e| argument(format!("cannot start {threads} threads: {e}")))?,
            )
        } else {
            None
        };
        let inner = salpakan::training::VecEnv::new(num_envs, seed, rules, observations, max_plies);
        Ok(VecEnv {
            inner: match formation {
                Some(formation) => inner.with_formation(formation),
                None => inner,
            },
            threads: threads.max(1),
            workers,
            pool: Vec::new(),
            results: vec![StepResult::default(); num_envs],
        })
    }

    /// The number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.inner.len()
    }

    /// Whether observations are made.
    #[getter]
    fn observations(&self) -> bool {
        self.inner.observations()
    }

    /// Starts every game afresh (the next episode of each) and returns `(observations,
    /// action_masks)`.
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<Arrays<'py>> {
        self.inner.restart_all();
        let (observations, masks) = self.outputs(py);
        self.run(py, None, &observations, &masks)?;
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
        let moves = self.inner.moves(actions).map_err(raise)?;
        let (observations, masks) = self.outputs(py);
        self.run(py, Some(&moves), &observations, &masks)?;
        let results = &self.results;
        Ok((
            observations,
            PyArray1::from_iter(py, results.iter().map(|r| r.reward)),
            PyArray1::from_iter(py, results.iter().map(|r| r.terminated)),
            PyArray1::from_iter(py, results.iter().map(|r| r.truncated)),
            masks,
        ))
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
        let (white, black, first, plies) = self.inner.episode_start(index).ok_or_else(|| {
            argument(format!(
                "game {index}: there are {} games",
                self.inner.len()
            ))
        })?;
        let setup = |inner: &salpakan::Setup| crate::values::Setup {
            inner: inner.clone(),
        };
        Ok((setup(white), setup(black), first.word(), plies))
    }

    /// A uniformly random legal action for every game (`int64`, one per game), drawn from the
    /// env's own generator (seeded from `seed`): a baseline opponent, or a benchmark's policy.
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut actions = vec![0i64; self.inner.len()];
        self.inner.sample_actions(&mut actions);
        PyArray1::from_vec(py, actions)
    }

    /// `agent`'s action (`int64`) for the side to move in every game, or only where `choose`
    /// (a sequence of `bool`s, one per game) is true, and -1 elsewhere: a built-in opponent
    /// (`Random`, `Greedy` or `Ismcts`) at the env's speed, handed only the side to move's
    /// tracker. Needs an env that makes observations (its trackers); raises `ArgumentError`
    /// otherwise, or for another agent or a `choose` of the wrong length. The GIL is released
    /// while the agent chooses.
    #[pyo3(signature = (agent, choose = None))]
    fn agent_actions<'py>(
        &mut self,
        py: Python<'py>,
        agent: &Bound<'py, PyAny>,
        choose: Option<Vec<bool>>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let mut actions = vec![0i64; self.inner.len()];
        let env = &self.inner;
        crate::agents::with_agent(agent, |agent| {
            py.detach(|| env.agent_actions(agent, choose.as_deref(), &mut actions))
        })?
        .map_err(raise)?;
        Ok(PyArray1::from_vec(py, actions))
    }

    /// `Greedy`'s score of every action for the side to move in every game, or only where
    /// `choose` is true (`float32`, shape `(num_envs, NUM_ACTIONS)`): material units (a Private
    /// 1, a Spy 6, a won game 1,000), 0 for an illegal action (the mask tells them apart) and
    /// for a game not chosen. `Greedy` plays a highest-scored action. A feature or a prior
    /// for a learner; from the side to move's tracker only. Raises `ArgumentError` as
    /// `agent_actions` does. The GIL is released while it scores.
    #[pyo3(signature = (choose = None))]
    fn greedy_scores<'py>(
        &self,
        py: Python<'py>,
        choose: Option<Vec<bool>>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let n = self.inner.len();
        let mut scores = vec![0f32; n * Move::NUM_ACTIONS];
        let env = &self.inner;
        py.detach(|| env.greedy_scores(choose.as_deref(), &mut scores))
            .map_err(raise)?;
        let scores = numpy::ndarray::Array2::from_shape_vec((n, Move::NUM_ACTIONS), scores)
            .map_err(|e| argument(e.to_string()))?;
        Ok(PyArray2::from_owned_array(py, scores))
    }

    fn __repr__(&self) -> String {
        format!(
            "<salpakan.VecEnv {} games, observations {}, {} threads>",
            self.inner.len(),
            self.inner.observations(),
            self.threads
        )
    }
}

impl VecEnv {
    /// Output arrays for a step: an earlier step's that nobody else holds any more (fresh
    /// memory costs a page fault per 4 KB, most of a step's time with observations), else new
    /// ones. Every element is written by the step.
    fn outputs<'py>(&mut self, py: Python<'py>) -> Arrays<'py> {
        // Held only by the pool: a count of 1 (the pool's reference).
        let free = self.pool.iter().position(|(observations, masks)| {
            unshared(py, masks) && observations.as_ref().is_none_or(|o| unshared(py, o))
        });
        if let Some(i) = free {
            let (observations, masks) = &self.pool[i];
            return (
                observations.as_ref().map(|o| o.bind(py).clone()),
                masks.bind(py).clone(),
            );
        }
        let n = self.inner.len();
        let [planes, rows, files] = Observation::SHAPE;
        let observations = self
            .inner
            .observations()
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

    /// Steps every game (with `moves`) or writes the current outputs (with `None`) into the
    /// arrays, over the threads, the GIL released; each game's result goes to `results`.
    fn run<'py>(
        &mut self,
        py: Python<'py>,
        moves: Option<&[Move]>,
        observations: &Option<Bound<'py, PyArray4<f32>>>,
        masks: &Bound<'py, PyArray2<bool>>,
    ) -> PyResult<()> {
        // SAFETY: the arrays come from `outputs`: made for this step or held by the pool alone
        // (reference count 1), so no Python code can see them while they are written here.
        let observations = match observations {
            Some(array) => Some(unsafe { array.as_slice_mut()? }),
            None => None,
        };
        // SAFETY: as above.
        let masks = unsafe { masks.as_slice_mut()? };
        let out = StepOutputs {
            observations,
            masks,
            results: &mut self.results,
        };
        // A step with masks only is too short to share (about 40 us for 256 games): handing
        // it to a second thread made it slower, so it stays on this one.
        let parts = if self.inner.observations() {
            self.threads
        } else {
            1
        };
        let (inner, workers) = (&mut self.inner, self.workers.as_ref());
        py.detach(|| {
            let jobs = inner.jobs(moves, out, parts);
            match workers {
                Some(pool) if jobs.len() > 1 => pool.in_place_scope(|scope| {
                    let mut jobs = jobs.into_iter();
                    let first = jobs.next();
                    for job in jobs {
                        scope.spawn(|_| job.run());
                    }
                    // The first share on this thread, the others on the workers.
                    if let Some(job) = first {
                        job.run();
                    }
                }),
                _ => jobs.into_iter().for_each(salpakan::training::Job::run),
            }
        });
        Ok(())
    }
}
