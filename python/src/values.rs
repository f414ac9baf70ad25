//! Moves, setups and the arbiter's table.

use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::convert;
use crate::errors::{argument, raise};

/// A move from one square to a neighbouring one. `str(move)` is its notation (`"e3-e4"`);
/// `Move.parse("e3-e4")` reads it back. Squares are indices `(row - 1) * 9 + file` (a1 = 0,
/// i8 = 71).
#[pyclass(module = "salpakan", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Move {
    pub(crate) inner: salpakan::Move,
}

#[pymethods]
impl Move {
    /// A move between two squares, each an index or a name (`Move("e3", "e4")`).
    #[new]
    fn new(from_square: &Bound<'_, PyAny>, to_square: &Bound<'_, PyAny>) -> PyResult<Move> {
        Ok(Move {
            inner: salpakan::Move::new(convert::square(from_square)?, convert::square(to_square)?),
        })
    }

    /// Reads a move's notation, `"e3-e4"` (or `"e3xe4"`).
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Move> {
        text.parse().map(|inner| Move { inner }).map_err(raise)
    }

    /// The move with action id `action` (`from * 4 + direction`, 0..288).
    #[staticmethod]
    fn from_action(action: i64) -> PyResult<Move> {
        convert::action(action).map(|inner| Move { inner })
    }

    /// The square the piece leaves (an index).
    #[getter(from_square)]
    fn square_left(&self) -> usize {
        self.inner.from.index()
    }

    /// The square the piece enters (an index).
    #[getter(to_square)]
    fn square_entered(&self) -> usize {
        self.inner.to.index()
    }

    /// The action id (`from * 4 + direction`), or `None` if the squares are not neighbours.
    #[getter]
    fn action(&self) -> Option<u16> {
        self.inner.action()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.inner)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let parse = slf.get_type().getattr("parse")?;
        Ok((parse, (slf.get().inner.to_string(),)))
    }
}

/// The engine's moves as the package's.
pub(crate) fn moves(list: &[salpakan::Move]) -> Vec<Move> {
    list.iter().map(|&inner| Move { inner }).collect()
}

/// A move from a `Move` or its notation.
pub(crate) fn move_arg(value: &Bound<'_, PyAny>) -> PyResult<salpakan::Move> {
    if let Ok(mv) = value.cast::<Move>() {
        return Ok(mv.get().inner);
    }
    if let Ok(text) = value.cast::<PyString>() {
        return Move::parse(&text.to_cow()?).map(|m| m.inner);
    }
    Err(argument(
        "a move is a salpakan.Move or its notation, such as \"e3-e4\"",
    ))
}

/// One side's formation: 21 pieces in its setup zone.
#[pyclass(module = "salpakan", frozen, eq, from_py_object)]
#[derive(Clone, PartialEq)]
pub(crate) struct Setup {
    pub(crate) inner: salpakan::Setup,
}

#[pymethods]
impl Setup {
    /// A uniformly random valid setup for `side`. Without a `seed` it is drawn from 64 secret
    /// bits of the operating system's generator (Python's `secrets`): what a formation played
    /// against a person needs. With one, the same seed gives the same setup on every
    /// platform, so a seed is a key: use a small or fixed one only for tests and bots playing
    /// bots.
    #[staticmethod]
    #[pyo3(signature = (side, seed = None, setup_rows = 3))]
    fn random(
        py: Python<'_>,
        side: &Bound<'_, PyAny>,
        seed: Option<u64>,
        setup_rows: i64,
    ) -> PyResult<Setup> {
        let rules = convert::rules(setup_rows, 0)?;
        let seed = convert::seed_or_secret(py, seed)?;
        Ok(Setup {
            inner: salpakan::Setup::random(convert::side(side)?, rules, seed),
        })
    }

    /// A setup for `side` drawn from a named formation: `"classic"` (the guarded Flag in the
    /// back row, Spies forward, as people deploy; what the levels deploy by) or `"uniform"`
    /// (every setup equally likely), either tempered by a power after `^` (`"classic^0.5"`:
    /// the same leanings, weaker; `Formation::tempered`). The seed works as for `random`:
    /// without one, 64 secret bits of the operating system's generator.
    #[staticmethod]
    #[pyo3(signature = (side, formation, seed = None, setup_rows = 3))]
    fn sample(
        py: Python<'_>,
        side: &Bound<'_, PyAny>,
        formation: &str,
        seed: Option<u64>,
        setup_rows: i64,
    ) -> PyResult<Setup> {
        let rules = convert::rules(setup_rows, 0)?;
        let side = convert::side(side)?;
        let formation: salpakan::Formation = formation.parse().map_err(raise)?;
        let seed = convert::seed_or_secret(py, seed)?;
        let mut rng = salpakan::SplitMix64::new(seed);
        Ok(Setup {
            inner: salpakan::Setup::sample_with(side, rules, &formation, &mut rng),
        })
    }

    /// A setup from 72 cells indexed by square: rank values (0 Flag … 14 Spy), 255 empty.
    #[staticmethod]
    #[pyo3(signature = (side, cells, setup_rows = 3))]
    fn from_cells(
        side: &Bound<'_, PyAny>,
        cells: &Bound<'_, PyAny>,
        setup_rows: i64,
    ) -> PyResult<Setup> {
        let rules = convert::rules(setup_rows, 0)?;
        Ok(Setup {
            inner: convert::setup_from_cells(convert::side(side)?, rules, cells)?,
        })
    }

    /// Reads a setup text, `"FL:a1 PV:b1 …"` (White's codes upper case, Black's lower case).
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Setup> {
        text.parse().map(|inner| Setup { inner }).map_err(raise)
    }

    /// `"white"` or `"black"`.
    #[getter]
    fn side(&self) -> &'static str {
        self.inner.side().word()
    }

    /// The 72 cells indexed by square: rank values, 255 for an empty square.
    fn cells(&self) -> Vec<u16> {
        // u16, not u8: PyO3 makes a `Vec<u8>` a `bytes`, and this is a list of integers.
        self.inner.cell_values().map(u16::from).to_vec()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Setup.parse('{}')", self.inner)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let parse = slf.get_type().getattr("parse")?;
        Ok((parse, (slf.get().inner.to_string(),)))
    }
}

/// The arbiter's answer when a piece of rank `attacker` challenges one of rank `defender`
/// (rank values 0..15): `"win"`, `"lose"` or `"tie"`.
#[pyfunction]
pub(crate) fn challenge(attacker: i64, defender: i64) -> PyResult<&'static str> {
    Ok(salpakan::challenge(convert::rank(attacker)?, convert::rank(defender)?).name())
}

/// Whether a piece of rank `attacker` challenging one of rank `defender` removes a Flag (the
/// defender's, or an attacking Flag that loses): the game is then over.
#[pyfunction]
pub(crate) fn captures_flag(attacker: i64, defender: i64) -> PyResult<bool> {
    Ok(salpakan::captures_flag(
        convert::rank(attacker)?,
        convert::rank(defender)?,
    ))
}

/// The squares (indices, ascending) of `side`'s setup zone of `setup_rows` rows (3 or 4).
#[pyfunction]
#[pyo3(signature = (side, setup_rows = 3))]
pub(crate) fn setup_zone(side: &Bound<'_, PyAny>, setup_rows: i64) -> PyResult<Vec<usize>> {
    let rules = convert::rules(setup_rows, 0)?;
    Ok(rules
        .setup_zone(convert::side(side)?)
        .into_iter()
        .map(|square| square.index())
        .collect())
}

/// The name of the rank with value `rank` (`"Flag"`, `"Private"`, … `"Spy"`).
#[pyfunction]
pub(crate) fn rank_name(rank: i64) -> PyResult<&'static str> {
    convert::rank(rank).map(salpakan::Rank::name)
}

/// The two-letter code of the rank with value `rank` (`"FL"`, `"PV"`, … `"SP"`).
#[pyfunction]
pub(crate) fn rank_code(rank: i64) -> PyResult<&'static str> {
    convert::rank(rank).map(salpakan::Rank::code)
}
