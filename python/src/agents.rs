//! The engine's players. Each chooses from a `Tracker` only: what one side may know.

use pyo3::prelude::*;

use salpakan::Agent;

use crate::convert;
use crate::errors::{argument, observe_error};
use crate::game::Game;
use crate::knowledge::Tracker;
use crate::values::Move;

/// A `Tracker` for `side` in `game`, refusing a side not to move.
fn tracker_for(game: &Game, side: &Bound<'_, PyAny>) -> PyResult<salpakan::Tracker> {
    let side = convert::side(side)?;
    if game.inner.status().is_ongoing() && game.inner.side_to_move() != side {
        return Err(argument(format!(
            "it is {}'s turn, not {}'s",
            convert::side_name(side.other()),
            convert::side_name(side)
        )));
    }
    game.inner.tracker(side).map_err(observe_error)
}

/// `agent`'s move from `tracker`, the GIL released meanwhile.
fn choose(
    py: Python<'_>,
    agent: &mut (impl Agent + Send),
    tracker: &salpakan::Tracker,
) -> Option<Move> {
    py.detach(|| agent.choose(tracker))
        .map(|inner| Move { inner })
}

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

            /// The move this player chooses from `tracker`, or `None` if the game is over or
            /// it is not the tracker's side to move. The GIL is released while it thinks.
            fn choose(&mut self, py: Python<'_>, tracker: PyRef<'_, Tracker>) -> Option<Move> {
                choose(py, &mut self.inner, &tracker.inner)
            }

            /// As `choose`, for `side` in the arbiter's `game`: the agent is handed only what
            /// `side` may know. `None` once the game is over.
            fn choose_in(
                &mut self,
                py: Python<'_>,
                game: PyRef<'_, Game>,
                side: &Bound<'_, PyAny>,
            ) -> PyResult<Option<Move>> {
                let tracker = tracker_for(&game, side)?;
                Ok(choose(py, &mut self.inner, &tracker))
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
    }
}

agent_class! {
    /// Information-set Monte Carlo tree search over determinizations drawn from the exact
    /// posterior: `budget` iterations a move (0 for the default, 10,000), seeded.
    Ismcts {
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
