//! The engine's errors as the package's exceptions (defined in `salpakan/errors.py`, so that
//! the value errors can also be `ValueError`s). The exception class is chosen by the error's
//! kind alone (`salpakan::bindings::ErrorKind`), as the C ABI chooses its result code and the npm
//! package its error's `kind`.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

use salpakan::bindings::{EngineError, ErrorKind};

/// The package's exception class for errors of `kind`.
fn class_name(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::Argument => "ArgumentError",
        ErrorKind::Setup => "SetupError",
        ErrorKind::IllegalMove => "IllegalMoveError",
        ErrorKind::GameOver => "GameOverError",
        ErrorKind::Text => "TextError",
        ErrorKind::Observe => "ObserveError",
        ErrorKind::Commitment => "CommitmentError",
    }
}

static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

/// A Python exception of `kind` with the engine's `message`.
pub(crate) fn error(kind: ErrorKind, message: impl ToString) -> PyErr {
    let message = message.to_string();
    Python::attach(|py| {
        let class = ERRORS
            .get_or_try_init(py, || py.import("salpakan.errors").map(|m| m.unbind()))
            .and_then(|module| module.bind(py).getattr(class_name(kind)))
            .and_then(|class| class.cast_into::<PyType>().map_err(PyErr::from));
        match class {
            Ok(class) => PyErr::from_type(class, message),
            Err(_) => PyRuntimeError::new_err(message),
        }
    })
}

/// An engine error as the exception of its kind.
pub(crate) fn raise(e: impl EngineError) -> PyErr {
    error(e.kind(), e)
}

/// A bad argument the package itself refuses (a value of the wrong Python type), as
/// `ArgumentError`.
pub(crate) fn argument(message: impl ToString) -> PyErr {
    error(ErrorKind::Argument, message)
}
