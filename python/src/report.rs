//! The arbiter's announcements: a move's report and a game's status.

use pyo3::prelude::*;

use crate::convert::status_words;
use crate::errors::raise;
use crate::handles::{Report, Status};
use crate::values::{Move, move_arg};

#[pymethods]
impl Status {
    /// The status its words describe, as the server's JSON gives them:
    /// `Status("won", "black", "time")`, `Status("ongoing")`.
    #[new]
    #[pyo3(signature = (state, winner=None, reason=None))]
    fn new(state: &str, winner: Option<&str>, reason: Option<&str>) -> PyResult<Status> {
        let inner = salpakan::Status::from_words(state, winner, reason).map_err(raise)?;
        Ok(Status { inner })
    }

    /// `"ongoing"`, `"won"` or `"drawn"`.
    #[getter]
    fn state(&self) -> &'static str {
        status_words(self.inner).0
    }

    /// `"white"`, `"black"`, or `None` unless won.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        status_words(self.inner).1
    }

    /// Why the game ended, or `None` while it goes on.
    #[getter]
    fn reason(&self) -> Option<&'static str> {
        status_words(self.inner).2
    }

    /// Whether the game goes on.
    #[getter]
    fn ongoing(&self) -> bool {
        self.inner.is_ongoing()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        let (state, winner, reason) = status_words(self.inner);
        let word = |w: Option<&str>| w.map_or("None".to_string(), |w| format!("'{w}'"));
        format!(
            "Status(state='{state}', winner={}, reason={})",
            word(winner),
            word(reason)
        )
    }
}

#[pymethods]
impl Report {
    /// A report as the arbiter announced it (a server's `ply` event): the move, the
    /// attacker's outcome (`"win"`, `"lose"`, `"tie"`, or `None` for a plain move) and the
    /// status after it. A tracker checks it when it observes it.
    #[new]
    #[pyo3(signature = (r#move, outcome, status))]
    fn new(r#move: &Bound<'_, PyAny>, outcome: Option<&str>, status: &Status) -> PyResult<Report> {
        let outcome = outcome
            .map(salpakan::Outcome::from_word)
            .transpose()
            .map_err(raise)?;
        Ok(Report {
            inner: salpakan::Report {
                mv: move_arg(r#move)?,
                outcome,
                status: status.inner,
            },
        })
    }

    /// The move played.
    #[getter]
    #[pyo3(name = "move")]
    fn mv(&self) -> Move {
        Move {
            inner: self.inner.mv,
        }
    }

    /// Whether the move was a challenge.
    #[getter]
    fn challenge(&self) -> bool {
        self.inner.outcome.is_some()
    }

    /// `None` for a plain move, else `"win"`, `"lose"` or `"tie"` (the attacker's).
    #[getter]
    fn outcome(&self) -> Option<&'static str> {
        self.inner.outcome.map(|o| o.name())
    }

    /// The status after the move.
    #[getter]
    fn status(&self) -> Status {
        Status {
            inner: self.inner.status,
        }
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Report(move='{}', outcome={}, status='{}')",
            self.inner.mv,
            self.inner
                .outcome
                .map_or("None".to_string(), |o| format!("'{}'", o.name())),
            self.inner.status
        )
    }
}
