//! The engine's errors as the package's exceptions (defined in `salpakan/errors.py`, so that
//! the value errors can also be `ValueError`s).

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

/// The package's exception classes, by name.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind {
    /// A move or action the rules refuse.
    IllegalMove,
    /// A move or action after the end of the game.
    GameOver,
    /// A setup that breaks the rules.
    Setup,
    /// A text (record, position, move, setup) that does not read.
    Text,
    /// Reports a tracker cannot follow, or beliefs with no fitting assignment.
    Observe,
    /// An argument out of range.
    Argument,
}

impl Kind {
    fn class_name(self) -> &'static str {
        match self {
            Kind::IllegalMove => "IllegalMoveError",
            Kind::GameOver => "GameOverError",
            Kind::Setup => "SetupError",
            Kind::Text => "TextError",
            Kind::Observe => "ObserveError",
            Kind::Argument => "ArgumentError",
        }
    }
}

static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

/// A Python exception of `kind` with the engine's `message`.
pub(crate) fn error(kind: Kind, message: impl ToString) -> PyErr {
    let message = message.to_string();
    Python::attach(|py| {
        let class = ERRORS
            .get_or_try_init(py, || py.import("salpakan.errors").map(|m| m.unbind()))
            .and_then(|module| module.bind(py).getattr(kind.class_name()))
            .and_then(|class| class.cast_into::<PyType>().map_err(PyErr::from));
        match class {
            Ok(class) => PyErr::from_type(class, message),
            Err(_) => PyRuntimeError::new_err(message),
        }
    })
}

/// A move error as `IllegalMoveError` or `GameOverError`.
pub(crate) fn move_error(e: salpakan::MoveError) -> PyErr {
    match e {
        salpakan::MoveError::GameOver { .. } => error(Kind::GameOver, e),
        _ => error(Kind::IllegalMove, e),
    }
}

/// A setup error as `SetupError`.
pub(crate) fn setup_error(e: salpakan::SetupError) -> PyErr {
    error(Kind::Setup, e)
}

/// A text error as `TextError`.
pub(crate) fn text_error(e: salpakan::TextError) -> PyErr {
    error(Kind::Text, e)
}

/// An observation error as `ObserveError` (or `GameOverError` for a report after the end).
pub(crate) fn observe_error(e: salpakan::ObserveError) -> PyErr {
    match e {
        salpakan::ObserveError::GameOver { .. } => error(Kind::GameOver, e),
        _ => error(Kind::Observe, e),
    }
}

/// A bad argument as `ArgumentError`.
pub(crate) fn argument(message: impl ToString) -> PyErr {
    error(Kind::Argument, message)
}
