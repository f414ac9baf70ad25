//! What one side may know: the client-side tracker and beliefs as arrays.

use numpy::{PyArray1, PyArray2, PyArray3};
use pyo3::prelude::*;

use salpakan::Bitboard;

use crate::convert::{self, beliefs_array};
use crate::errors::raise;
use crate::handles::{Game, Report, Status, Tracker};
use crate::values::{Move, Setup};

#[pymethods]
impl Tracker {
    /// A tracker for the side of `own` (a `Setup`), whose enemy's pieces start on
    /// `enemy_squares` (21 squares, indices or names), `first` to move.
    #[new]
    #[pyo3(signature = (own, enemy_squares, first = None, setup_rows = 3, move_limit = 0))]
    fn new(
        own: Setup,
        enemy_squares: &Bound<'_, PyAny>,
        first: Option<&Bound<'_, PyAny>>,
        setup_rows: i64,
        move_limit: i64,
    ) -> PyResult<Tracker> {
        let rules = convert::rules(setup_rows, move_limit)?;
        let first = first
            .map(convert::side)
            .transpose()?
            .unwrap_or(salpakan::Side::White);
        let mut squares = Bitboard::EMPTY;
        for item in enemy_squares.try_iter()? {
            squares = squares.with(convert::square(&item?)?);
        }
        salpakan::Tracker::new(&own.inner, squares, first, rules)
            .map(Tracker::wrap)
            .map_err(raise)
    }

    /// Takes in one report of the public log (a `Report`, as `Game.play` returns it).
    fn observe(&mut self, report: Report) -> PyResult<()> {
        self.inner.observe(&report.inner).map_err(raise)
    }

    /// Takes in an end no move made: a resignation, an agreed draw, a loss on time or an
    /// abandonment.
    fn observe_end(&mut self, status: Status) -> PyResult<()> {
        self.inner.observe_end(status.inner).map_err(raise)
    }

    /// The tracking side, `"white"` or `"black"`.
    #[getter]
    fn side(&self) -> &'static str {
        self.inner.side().word()
    }

    /// `"white"` or `"black"`.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        self.inner.side_to_move().word()
    }

    /// The status as observed.
    #[getter]
    fn status(&self) -> Status {
        Status {
            inner: self.inner.status(),
        }
    }

    /// Plies observed.
    #[getter]
    fn ply(&self) -> usize {
        self.inner.history().len()
    }

    /// The side to move's legal moves (they depend only on the squares, which are public).
    fn legal_moves(&self) -> Vec<Move> {
        crate::values::moves(&self.inner.legal_moves())
    }

    /// The legal moves as a NumPy `bool` array of 288 action ids.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        crate::convert::mask_array(py, &self.inner.legal_action_mask())
    }

    /// The legal moves' action ids, ascending, as a NumPy `int64` array.
    fn legal_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        crate::convert::actions_array(py, &self.inner.legal_action_mask())
    }

    /// The exact beliefs as `Game.beliefs` gives them: `float64`, shape `(72, 15)`.
    fn beliefs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        beliefs_array(py, &self.inner)
    }

    /// The observation tensor as `Game.observation` gives it: `float32`, shape `(38, 8, 9)`.
    #[pyo3(signature = (viewer_up = true))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        viewer_up: bool,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let observation = self
            .inner
            .observation(convert::orientation(viewer_up))
            .map_err(raise)?;
        convert::observation_array(py, &observation)
    }

    /// A complete game this side cannot tell from the real one, drawn from its exact
    /// posterior with `seed`: the very game `Game.sample(side, seed)` gives the arbiter.
    fn sample(&self, py: Python<'_>, seed: u64) -> PyResult<Game> {
        let tracker = &self.inner;
        py.detach(|| tracker.sample(seed))
            .map(Game::wrap)
            .map_err(raise)
    }

    /// The rank of one of the tracking side's own pieces by square, or `None`.
    fn own_rank_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<u8>> {
        let square = convert::square(square)?;
        Ok(self.inner.own_rank(square).map(|rank| rank as u8))
    }

    fn clone(&self) -> Tracker {
        Clone::clone(self)
    }

    fn __repr__(&self) -> String {
        format!(
            "<salpakan.Tracker of {}, ply {}, {}>",
            self.inner.side().word(),
            self.inner.history().len(),
            self.inner.status()
        )
    }
}
