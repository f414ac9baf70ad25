//! Conversions between Python values and the engine's: sides, ranks, squares, rules, cells.

use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyString;

use salpakan::{Rank, Rules, Setup, Side, Square, Status};

use crate::errors::{argument, setup_error};

/// An empty cell in the C ABI's numbering, which `Game.from_cells` takes.
pub(crate) const NO_PIECE: u8 = 255;

/// A side from `0`/`1` or `"white"`/`"black"`.
pub(crate) fn side(value: &Bound<'_, PyAny>) -> PyResult<Side> {
    if let Ok(text) = value.cast::<PyString>() {
        return match text.to_cow()?.to_ascii_lowercase().as_str() {
            "white" | "w" => Ok(Side::White),
            "black" | "b" => Ok(Side::Black),
            other => Err(argument(format!(
                "side {other:?}: it must be \"white\" or \"black\" (or 0 or 1)"
            ))),
        };
    }
    let index: i64 = value
        .extract()
        .map_err(|_| argument("a side is 0 (White), 1 (Black), \"white\" or \"black\""))?;
    usize::try_from(index)
        .ok()
        .and_then(Side::try_index)
        .ok_or_else(|| argument(format!("side {index}: it must be 0 (White) or 1 (Black)")))
}

/// A side as the package writes it: `"white"` or `"black"`.
pub(crate) fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// A square from its index (0..72) or its name (`"e4"`).
pub(crate) fn square(value: &Bound<'_, PyAny>) -> PyResult<Square> {
    if let Ok(text) = value.cast::<PyString>() {
        let text = text.to_cow()?;
        return text
            .parse()
            .map_err(|e| argument(format!("square {text:?}: {e}")));
    }
    let index: i64 = value
        .extract()
        .map_err(|_| argument("a square is an index 0..72 or a name such as \"e4\""))?;
    usize::try_from(index)
        .ok()
        .and_then(Square::try_index)
        .ok_or_else(|| argument(format!("square {index}: it must be 0..72")))
}

/// Rules from the setup zone's rows and the move limit (0 for none).
pub(crate) fn rules(setup_rows: u8, move_limit: u16) -> PyResult<Rules> {
    Rules::new(setup_rows, move_limit).map_err(argument)
}

/// A setup from 72 cells indexed by square (rank values 0..15, 255 empty), any sequence of
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
    if values.len() != Square::NUM {
        return Err(argument(format!(
            "{} cells: a setup has one per square, 72",
            values.len()
        )));
    }
    let mut grid = [None; Square::NUM];
    for (square, &value) in Square::ALL.into_iter().zip(&values) {
        grid[square.index()] = match value {
            255 => None,
            v => Some(
                usize::try_from(v)
                    .ok()
                    .and_then(Rank::try_index)
                    .ok_or_else(|| {
                        argument(format!(
                            "cell {square} holds {v}: a rank is 0..15, an empty square 255"
                        ))
                    })?,
            ),
        };
    }
    Setup::from_cells(side, rules, &grid).map_err(setup_error)
}

/// A status's three words: `"ongoing"`/`"won"`/`"drawn"`, the winner, the reason.
pub(crate) fn status_words(
    status: Status,
) -> (&'static str, Option<&'static str>, Option<&'static str>) {
    match status {
        Status::Ongoing => ("ongoing", None, None),
        Status::Won { winner, reason } => ("won", Some(side_name(winner)), Some(reason.token())),
        Status::Drawn { reason } => ("drawn", None, Some(reason.token())),
    }
}

/// An action mask as a NumPy `bool` array of 288.
pub(crate) fn mask_array<'py>(
    py: Python<'py>,
    mask: &salpakan::ActionMask,
) -> Bound<'py, PyArray1<bool>> {
    let array = PyArray1::<bool>::zeros(py, salpakan::Move::NUM_ACTIONS, false);
    // SAFETY: the array was just made here and nothing else refers to it.
    if let Ok(slots) = unsafe { array.as_slice_mut() } {
        fill_mask(mask, slots);
    }
    array
}

/// Writes `mask` into 288 `bool`s, one per action id.
pub(crate) fn fill_mask(mask: &salpakan::ActionMask, slots: &mut [bool]) {
    // Eight slots per byte of the mask, without a branch per action.
    for (slots, &byte) in slots.chunks_exact_mut(8).zip(mask.bytes()) {
        for (bit, slot) in slots.iter_mut().enumerate() {
            *slot = byte >> bit & 1 != 0;
        }
    }
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
