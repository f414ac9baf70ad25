//! The engine's players. Each chooses from a `Tracker` only: what one side may know.

use pyo3::prelude::*;

use salpakan::Agent;

use crate::convert;
use crate::errors::raise;
use crate::handles::{Game, Tracker};
use crate::values::Move;

/// A Python class over the engine's agent of the same name: its constructor and any methods
/// of its own as given, then the two ways to ask it for a move, the same for every agent.
macro_rules! agent_class {
    ($(#[$doc:meta])* $name:ident { $($methods:tt)* }) => {
        $(#[$doc])*
        #[pyclass(module = "salpakan")]
        pub(crate) struct $name {
            inner: salpakan::$name,
        }

        #[pymethods]
        impl $name {
            $($methods)*

            /// The move this player chooses from `tracker`. Raises `GameOverError` once the
            /// game is over and `ArgumentError` when it is not the tracker's side to move.
            /// The GIL is released while it thinks.
            fn choose(&mut self, py: Python<'_>, tracker: PyRef<'_, Tracker>) -> PyResult<Move> {
                let (agent, tracker) = (&mut self.inner, &tracker.inner);
                py.detach(|| agent.try_choose(tracker))
                    .map(|inner| Move { inner })
                    .map_err(raise)
            }

            /// As `choose`, for `side` in the arbiter's `game`: the agent is handed only what
            /// `side` may know. Raises as `choose` does, and `ObserveError` for a game made
            /// from a position text (it has no history to follow).
            fn choose_in(
                &mut self,
                py: Python<'_>,
                game: PyRef<'_, Game>,
                side: &Bound<'_, PyAny>,
            ) -> PyResult<Move> {
                let side = convert::side(side)?;
                let (agent, game) = (&mut self.inner, &game.inner);
                py.detach(|| agent.choose_in(game, side))
                    .map(|inner| Move { inner })
                    .map_err(raise)
            }
        }
    };
}

agent_class! {
    /// Plays a uniformly random legal move, seeded.
    Random {
        #[new]
        #[pyo3(signature = (seed = 0))]
        fn new(seed: u64) -> Random {
            Random {
                inner: salpakan::Random::new(seed),
            }
        }
    }
}

agent_class! {
    /// One ply of look-ahead on the exact posterior; `seed` breaks ties.
    Greedy {
        #[new]
        #[pyo3(signature = (seed = 0))]
        fn new(seed: u64) -> Greedy {
            Greedy {
                inner: salpakan::Greedy::new(seed),
            }
        }

        /// The score `Greedy` gives each action of the tracker's side (`float32`, one per
        /// action id): material units (a Private 1, a Spy 6, a won game 1,000), 0 for an
        /// illegal action and all 0 when it is not the tracker's turn. `Greedy` plays a
        /// highest-scored action. `VecEnv.greedy_scores` gives them for a whole batch.
        #[staticmethod]
        fn scores<'py>(
            py: Python<'py>,
            tracker: PyRef<'_, Tracker>,
        ) -> Bound<'py, numpy::PyArray1<f32>> {
            let tracker = &tracker.inner;
            let row = py.detach(|| salpakan::Greedy::action_scores(tracker));
            numpy::PyArray1::from_slice(py, &row)
        }
    }
}

agent_class! {
    /// Information-set Monte Carlo tree search over determinizations drawn from the exact
    /// posterior: `budget` iterations a move (0 for `Ismcts.DEFAULT_BUDGET`, 10,000), seeded.
    Ismcts {
        /// The iterations a move when `budget` is 0 (the crate's `Ismcts::DEFAULT_BUDGET`).
        #[classattr]
        const DEFAULT_BUDGET: u32 = salpakan::Ismcts::DEFAULT_BUDGET;

        #[new]
        #[pyo3(signature = (seed = 0, budget = 0))]
        fn new(seed: u64, budget: u32) -> Ismcts {
            Ismcts {
                inner: salpakan::Ismcts::new(seed, budget),
            }
        }

        /// Iterations a move.
        #[getter]
        fn budget(&self) -> u32 {
            self.inner.budget()
        }
    }
}

agent_class! {
    /// A bot of the ladder: `level` 1 (a beginner) to `Level.COUNT` (8, the strongest),
    /// seeded; ratings in the repository's docs/PERFORMANCE.md. `ArgumentError` for a level
    /// out of range.
    Level {
        /// The number of levels (the crate's `Level::COUNT`).
        #[classattr]
        const COUNT: u8 = salpakan::Level::COUNT;

        #[new]
        #[pyo3(signature = (level, seed = 0))]
        fn new(level: i64, seed: u64) -> PyResult<Level> {
            salpakan::Level::new(level, seed)
                .map(|inner| Level { inner })
                .map_err(raise)
        }

        /// Its level, 1 to 8.
        #[getter]
        fn level(&self) -> u8 {
            self.inner.level()
        }

        fn __repr__(&self) -> String {
            format!("Level({})", self.inner.level())
        }
    }
}

/// Runs `f` on the engine agent inside `agent` (a `Random`, `Greedy`, `Ismcts` or `Level`), borrowed
/// mutably; `ArgumentError` for anything else.
pub(crate) fn with_agent<R>(
    agent: &Bound<'_, PyAny>,
    f: impl FnOnce(&mut (dyn salpakan::Agent + Send)) -> R,
) -> PyResult<R> {
    if let Ok(mut a) = agent.extract::<PyRefMut<'_, Random>>() {
        return Ok(f(&mut a.inner));
    }
    if let Ok(mut a) = agent.extract::<PyRefMut<'_, Greedy>>() {
        return Ok(f(&mut a.inner));
    }
    if let Ok(mut a) = agent.extract::<PyRefMut<'_, Ismcts>>() {
        return Ok(f(&mut a.inner));
    }
    if let Ok(mut a) = agent.extract::<PyRefMut<'_, Level>>() {
        return Ok(f(&mut a.inner));
    }
    Err(crate::errors::argument(
        "agent must be a salpakan.Random, Greedy, Ismcts or Level",
    ))
}
