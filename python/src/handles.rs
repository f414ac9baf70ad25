//! The package's classes that refer to one another, declared apart from their methods: a
//! `Game` hands out `Tracker`s and `Report`s, a `Tracker` hands out sampled `Game`s. Each
//! class's methods live in the module named after it (`game`, `knowledge`, `report`), which
//! imports these declarations and nothing of the others.

use pyo3::prelude::*;

/// A game's status: `state` is `"ongoing"`, `"won"` or `"drawn"`; `winner` `"white"`,
/// `"black"` or `None`; `reason` `None` or one of `"flag-captured"`, `"flag-reached-end"`,
/// `"resignation"`, `"agreement"`, `"move-limit"`. `str(status)` reads as a sentence.
#[pyclass(module = "salpakan", frozen, eq, from_py_object)]
#[derive(Clone, Copy, PartialEq)]
pub(crate) struct Status {
    pub(crate) inner: salpakan::Status,
}

/// What a move did, as the arbiter announces it: `move`, `challenge` (whether it was one),
/// `outcome` (`None`, or the attacker's `"win"`, `"lose"` or `"tie"`) and the `status`
/// after it. It never holds a rank.
#[pyclass(module = "salpakan", frozen, eq, from_py_object)]
#[derive(Clone, Copy, PartialEq)]
pub(crate) struct Report {
    pub(crate) inner: salpakan::Report,
}

/// The game as the arbiter holds it: every rank, the history, the status.
///
/// Sides are `0`/`"white"` and `1`/`"black"`. Moves are `salpakan.Move`s or their notation
/// (`"e3-e4"`). Errors are `salpakan.Error`s: `IllegalMoveError`, `GameOverError`,
/// `SetupError`, `TextError`, `ObserveError`, `ArgumentError`.
#[pyclass(module = "salpakan")]
#[derive(Clone)]
pub(crate) struct Game {
    pub(crate) inner: salpakan::Game,
}

impl Game {
    pub(crate) fn wrap(inner: salpakan::Game) -> Game {
        Game { inner }
    }
}

/// A client's knowledge of a game: its own setup, where the enemy's pieces started, and the
/// public reports since. It knows its legal moves, exact beliefs, samples and observation
/// without the arbiter. `Game.tracker(side)` gives the one a server would hold.
#[pyclass(module = "salpakan")]
#[derive(Clone)]
pub(crate) struct Tracker {
    pub(crate) inner: salpakan::Tracker,
}

impl Tracker {
    pub(crate) fn wrap(inner: salpakan::Tracker) -> Tracker {
        Tracker { inner }
    }
}
