//! Conversions between Python values and the engine's, through the crate's vocabulary (the
//! same readers and words the C ABI and the npm package use): sides, squares, ranks, actions,
//! rules, setup cells, statuses, and the NumPy arrays of masks and observations.

use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyString;

use salpakan::{Move, Rank, Rules, Setup, Side, Square, Status};

use crate::errors::{argument, raise};

/// An integer argument, or `ArgumentError` naming what it stands for.
fn integer(value: &Bound<'_, PyAny>, what: &str) -> PyResult<i64> {
    value
        .extract()
        .map_err(|_| argument(format!("{what}, not {}", type_name(value))))
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "an object".into(), |name| format!("a {name}"))
}

/// A side from `0`/`1` or its word (`"white"`, `"black"`, `"w"`, `"b"`, any case).
pub(crate) fn side(value: &Bound<'_, PyAny>) -> PyResult<Side> {
    if let Ok(text) = value.cast::<PyString>() {
        return text.to_cow()?.parse().map_err(raise);
    }
    Side::from_number(integer(value, "a side is 0, 1, \"white\" or \"black\"")?).map_err(raise)
}

/// A formation commitment's salt from 32 hexadecimal digits or 16 bytes.
pub(crate) fn salt(value: &Bound<'_, PyAny>) -> PyResult<salpakan::commitment::Salt> {
    if let Ok(text) = value.cast::<PyString>() {
        return text.to_cow()?.parse().map_err(raise);
    }
    let bytes: Vec<u8> = value.extract().map_err(|_| {
        argument(format!(
            "a salt is 32 hexadecimal digits or 16 bytes, not {}",
            type_name(value)
        ))
    })?;
    let bytes: [u8; salpakan::commitment::Salt::BYTES] = bytes
        .try_into()
        .map_err(|b: Vec<u8>| argument(format!("a salt is 16 bytes, not {}", b.len())))?;
    Ok(salpakan::commitment::Salt::from_bytes(bytes))
}

/// A square from its index (0..72) or its name (`"e4"`).
pub(crate) fn square(value: &Bound<'_, PyAny>) -> PyResult<Square> {
    if let Ok(text) = value.cast::<PyString>() {
        return text.to_cow()?.parse().map_err(raise);
    }
    Square::from_number(integer(
        value,
        "a square is an index 0..72 or a name such as \"e4\"",
    )?)
    .map_err(raise)
}

/// A rank from its number (0 Flag … 14 Spy).
pub(crate) fn rank(value: i64) -> PyResult<Rank> {
    Rank::from_number(value).map_err(raise)
}

/// The move with action id `value`.
pub(crate) fn action(value: i64) -> PyResult<Move> {
    Move::from_action_number(value).map_err(raise)
}

/// `seed` if given, else 64 secret bits from the operating system's generator, through
/// Python's `secrets`: what a formation played against a person needs.
pub(crate) fn seed_or_secret(py: Python<'_>, seed: Option<u64>) -> PyResult<u64> {
    match seed {
        Some(seed) => Ok(seed),
        None => py
            .import("secrets")?
            .call_method1("randbits", (64,))?
            .extract(),
    }
}

/// Rules from the setup zone's rows and the move limit (0 for none).
pub(crate) fn rules(setup_rows: i64, move_limit: i64) -> PyResult<Rules> {
    Rules::from_numbers(setup_rows, move_limit).map_err(raise)
}

/// A setup from 72 cells indexed by square (rank numbers 0..15, 255 empty), any sequence of
/// integers, a NumPy array included.
pub(crate) fn setup_from_cells(
    side: Side,
    rules: Rules,
    cells: &Bound<'_, PyAny>,
) -> PyResult<Setup> {
    let values: Vec<i64> = cells
        .try_iter()?
        .map(|item| item?.extract::<i64>())
        .collect::<PyResult<_>>()
        .map_err(|_| argument("cells must be a sequence of 72 integers"))?;
    Setup::from_cell_values(side, rules, &values).map_err(raise)
}

/// A status's three words: `"ongoing"`/`"won"`/`"drawn"`, the winner, the reason.
pub(crate) fn status_words(
    status: Status,
) -> (&'static str, Option<&'static str>, Option<&'static str>) {
    (
        status.state_word(),
        status.winner().map(Side::word),
        status.reason_token(),
    )
}

/// An action mask as a NumPy `bool` array of 288.
pub(crate) fn mask_array<'py>(
    py: Python<'py>,
    mask: &salpakan::ActionMask,
) -> Bound<'py, PyArray1<bool>> {
    let array = PyArray1::<bool>::zeros(py, salpakan::Move::NUM_ACTIONS, false);
    // SAFETY: the array was just made here and nothing else refers to it.
    if let Ok(slots) = unsafe { array.as_slice_mut() } {
        mask.write_bools(slots);
    }
    array
}

/// The actions of a mask, ascending, as a NumPy `int64` array.
pub(crate) fn actions_array<'py>(
    py: Python<'py>,
    mask: &salpakan::ActionMask,
) -> Bound<'py, PyArray1<i64>> {
    let mut actions = [0i64; salpakan::MoveList::CAPACITY];
    let mut len = 0;
    for (slot, action) in actions.iter_mut().zip(mask.iter()) {
        *slot = i64::from(action);
        len += 1;
    }
    PyArray1::from_slice(py, &actions[..len])
}

/// Viewer-up (row 0 is the viewer's home row) or the board's own numbering.
pub(crate) fn orientation(viewer_up: bool) -> salpakan::Orientation {
    if viewer_up {
        salpakan::Orientation::ViewerUp
    } else {
        salpakan::Orientation::Board
    }
}

/// An observation as a NumPy `float32` array of shape `(38, 8, 9)`.
pub(crate) fn observation_array<'py>(
    py: Python<'py>,
    observation: &salpakan::Observation,
) -> PyResult<Bound<'py, PyArray3<f32>>> {
    PyArray1::from_slice(py, observation.as_slice()).reshape(salpakan::Observation::SHAPE)
}

/// A tracker's beliefs by square (`Tracker::beliefs_by_square`) as a NumPy `float64` array
/// of shape `(72, 15)`, counted with the GIL released.
pub(crate) fn beliefs_array<'py>(
    py: Python<'py>,
    tracker: &salpakan::Tracker,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let rows = py.detach(|| tracker.beliefs_by_square()).map_err(raise)?;
    PyArray1::from_slice(py, rows.as_flattened()).reshape([Square::NUM, Rank::NUM])
}
