//! A finished game replayed as each side knew it: `salpakan.Replay`.

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use salpakan::{Rank, Square};

use crate::convert;
use crate::errors::{argument, raise};
use crate::game::{PublicView, View};
use crate::handles::{Game, Tracker};

/// A game replayed as each side knew it: at every ply (after `ply` plies: 0 is the start,
/// `plies` the end) each side's view, tracker and exact beliefs; each challenge's odds as the
/// attacker saw them just before it attacked; each side's luck.
#[pyclass(module = "salpakan", frozen)]
pub(crate) struct Replay {
    inner: salpakan::Replay,
}

impl Replay {
    /// `ply` as a ply of this replay: 0 to `plies`.
    fn ply(&self, ply: i64) -> PyResult<usize> {
        usize::try_from(ply)
            .ok()
            .filter(|&p| p <= self.inner.plies())
            .ok_or_else(|| {
                argument(format!(
                    "ply {ply} is not in the game (it has {} plies)",
                    self.inner.plies()
                ))
            })
    }
}

impl Replay {
    /// The odds of the `ply`-th ply, refusing a ply the game does not have.
    fn odds_of(&self, ply: i64) -> PyResult<Option<salpakan::Odds>> {
        let ply = usize::try_from(ply).map_err(|_| {
            argument(format!(
                "ply {ply} is not in the game (it has {} plies)",
                self.inner.plies()
            ))
        })?;
        self.inner.challenge(ply).map_err(raise)
    }
}

#[pymethods]
impl Replay {
    /// The replay of `game` (with its formations: not one made from a position).
    #[new]
    fn new(py: Python<'_>, game: &Game) -> PyResult<Replay> {
        let game = game.inner.clone();
        py.detach(|| salpakan::Replay::new(&game))
            .map(|inner| Replay { inner })
            .map_err(raise)
    }

    /// The replay of the game a record's text gives (`Game.record()`, a server's
    /// `/api/games/{id}/record`).
    #[staticmethod]
    fn from_record(py: Python<'_>, text: &str) -> PyResult<Replay> {
        py.detach(|| salpakan::Replay::from_record(text))
            .map(|inner| Replay { inner })
            .map_err(raise)
    }

    /// The number of plies played.
    #[getter]
    fn plies(&self) -> usize {
        self.inner.plies()
    }

    /// The whole game as it ended.
    #[getter]
    fn game(&self) -> Game {
        Game::wrap(self.inner.game().clone())
    }

    /// `side`'s exact beliefs after `ply` plies: a NumPy `float64` array of shape `(72, 15)`,
    /// as `Game.beliefs` gives it.
    fn beliefs<'py>(
        &self,
        py: Python<'py>,
        ply: i64,
        side: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let (ply, side) = (self.ply(ply)?, convert::side(side)?);
        let rows = py
            .detach(|| self.inner.beliefs_by_square(ply, side))
            .map_err(raise)?;
        PyArray1::from_slice(py, rows.as_flattened()).reshape([Square::NUM, Rank::NUM])
    }

    /// The `ply`-th ply's odds (1-based), if it was a challenge: the attacker's
    /// `(win, tie, lose)` probabilities from its beliefs just before; `None` for a plain move.
    fn odds(&self, ply: i64) -> PyResult<Option<(f64, f64, f64)>> {
        Ok(self.odds_of(ply)?.map(|o| (o.win, o.tie, o.lose)))
    }

    /// The `ply`-th ply's challenge (1-based) as a dict: `attacker` (`"white"`/`"black"`),
    /// `rank` (the attacker's), `win`, `tie`, `lose`, `outcome` (`"win"`, `"tie"`, `"lose"`);
    /// `None` for a plain move.
    fn challenge<'py>(&self, py: Python<'py>, ply: i64) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(o) = self.odds_of(ply)? else {
            return Ok(None);
        };
        let dict = PyDict::new(py);
        dict.set_item("attacker", o.attacker.word())?;
        dict.set_item("rank", o.rank as u8)?;
        dict.set_item("win", o.win)?;
        dict.set_item("tie", o.tie)?;
        dict.set_item("lose", o.lose)?;
        dict.set_item("outcome", o.outcome.name())?;
        Ok(Some(dict))
    }

    /// `side`'s luck: a dict of `challenges`, `score` (a win 1, a tie 0.5, a loss 0),
    /// `expected` (what its beliefs expected) and `luck` (`score - expected`).
    fn luck<'py>(&self, py: Python<'py>, side: &Bound<'_, PyAny>) -> PyResult<Bound<'py, PyDict>> {
        let luck = self.inner.luck(convert::side(side)?);
        let dict = PyDict::new(py);
        dict.set_item("challenges", luck.challenges)?;
        dict.set_item("score", luck.score)?;
        dict.set_item("expected", luck.expected)?;
        dict.set_item("luck", luck.luck())?;
        Ok(dict)
    }

    /// `side`'s view after `ply` plies.
    fn view(&self, ply: i64, side: &Bound<'_, PyAny>) -> PyResult<View> {
        let (ply, side) = (self.ply(ply)?, convert::side(side)?);
        let inner = self.inner.view(ply, side).map_err(raise)?;
        Ok(View { inner })
    }

    /// A spectator's view after `ply` plies.
    fn public_view(&self, ply: i64) -> PyResult<PublicView> {
        let inner = self.inner.public_view(self.ply(ply)?).map_err(raise)?;
        Ok(PublicView { inner })
    }

    /// `side`'s tracker after `ply` plies.
    fn tracker(&self, ply: i64, side: &Bound<'_, PyAny>) -> PyResult<Tracker> {
        let (ply, side) = (self.ply(ply)?, convert::side(side)?);
        self.inner
            .tracker(ply, side)
            .map(Tracker::wrap)
            .map_err(raise)
    }

    fn __repr__(&self) -> String {
        format!(
            "<salpakan.Replay of {} plies: {}>",
            self.inner.plies(),
            self.inner.game().status()
        )
    }
}
