//! The arbiter's game and one side's view of it.

use numpy::{PyArray1, PyArray2, PyArray3};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use salpakan::{DeclaredEnd, Side, Square, ViewCell};

use crate::convert::{self, beliefs_array};
use crate::errors::raise;
use crate::handles::{Game, Report, Status, Tracker};
use crate::values::{Move, Setup, move_arg};

#[pymethods]
impl Game {
    /// A new game from two setups (`salpakan.Setup`s); a setup not given is drawn at random
    /// from `seed` (White's from `seed`, Black's from `seed + 1`).
    #[new]
    #[pyo3(signature = (white = None, black = None, *, first = None, setup_rows = 3, move_limit = 0, seed = 0))]
    fn new(
        white: Option<Setup>,
        black: Option<Setup>,
        first: Option<&Bound<'_, PyAny>>,
        setup_rows: i64,
        move_limit: i64,
        seed: u64,
    ) -> PyResult<Game> {
        let rules = convert::rules(setup_rows, move_limit)?;
        let first = first.map(convert::side).transpose()?.unwrap_or(Side::White);
        let white = white.map_or_else(
            || salpakan::Setup::dealt(Side::White, rules, seed),
            |s| s.inner,
        );
        let black = black.map_or_else(
            || salpakan::Setup::dealt(Side::Black, rules, seed),
            |s| s.inner,
        );
        salpakan::Game::new(white, black, first, rules)
            .map(Game::wrap)
            .map_err(raise)
    }

    /// A game from two setups given as 72 cells each, indexed by square (the C ABI's
    /// numbering: rank values 0 Flag … 14 Spy, 255 empty), as lists or NumPy arrays; `first`
    /// 0 (White) or 1 (Black).
    #[staticmethod]
    #[pyo3(signature = (white, black, first = None, setup_rows = 3, move_limit = 0))]
    fn from_cells(
        white: &Bound<'_, PyAny>,
        black: &Bound<'_, PyAny>,
        first: Option<&Bound<'_, PyAny>>,
        setup_rows: i64,
        move_limit: i64,
    ) -> PyResult<Game> {
        let rules = convert::rules(setup_rows, move_limit)?;
        let first = first.map(convert::side).transpose()?.unwrap_or(Side::White);
        let white = convert::setup_from_cells(Side::White, rules, white)?;
        let black = convert::setup_from_cells(Side::Black, rules, black)?;
        salpakan::Game::new(white, black, first, rules)
            .map(Game::wrap)
            .map_err(raise)
    }

    /// Reads a game record (as `record()` writes it) and replays it.
    #[staticmethod]
    fn from_record(text: &str) -> PyResult<Game> {
        salpakan::Game::from_record(text)
            .map(Game::wrap)
            .map_err(raise)
    }

    /// A game from a position text (as `to_text()` writes it). It has no setups or history,
    /// so beliefs, samples, trackers and observations are refused.
    #[staticmethod]
    fn from_text(text: &str) -> PyResult<Game> {
        let position: salpakan::Position = text.parse().map_err(raise)?;
        Ok(Game::wrap(salpakan::Game::from_position(position)))
    }

    /// The game record: tags, setups, every move; `Game.from_record` replays it.
    fn record(&self) -> String {
        self.inner.record()
    }

    /// Commits `side` to its formation with the secret `salt` (32 hexadecimal digits or 16
    /// bytes, from `secrets.token_bytes(16)`) before the first move; returns the commitment
    /// to publish, 64 hexadecimal digits. `CommitmentError` for a game made from a position.
    fn commit(&mut self, side: &Bound<'_, PyAny>, salt: &Bound<'_, PyAny>) -> PyResult<String> {
        let (side, salt) = (convert::side(side)?, convert::salt(salt)?);
        self.inner
            .commit(side, &salt)
            .map(|c| c.to_string())
            .map_err(raise)
    }

    /// `side`'s commitment as the record holds it (`None` without one).
    fn commitment(&self, side: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        Ok(self
            .inner
            .commitment(convert::side(side)?)
            .map(|c| c.to_string()))
    }

    /// Opens `side`'s commitment at the end: its salt goes into the record.
    fn open_commitment(
        &mut self,
        side: &Bound<'_, PyAny>,
        salt: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let (side, salt) = (convert::side(side)?, convert::salt(salt)?);
        self.inner.open_commitment(side, &salt);
        Ok(())
    }

    /// Checks the record's commitments: each side's formation and salt give the commitment
    /// published before the first move. With `Game.from_record` (which refuses a record whose
    /// announcements the formations do not give) this is the whole check of an arbiter's game.
    /// Raises `CommitmentError` naming the tag missing or the side whose commitment fails.
    fn verify_commitments(&self) -> PyResult<()> {
        self.inner.verify_commitments().map_err(raise)
    }

    /// The one-line position text of the current position (every rank shown).
    fn to_text(&self) -> String {
        self.inner.position().to_string()
    }

    /// The legal moves of the side to move (none once the game has ended).
    fn legal_moves(&self) -> Vec<Move> {
        crate::values::moves(&self.inner.legal_moves())
    }

    /// The legal moves as a NumPy `bool` array of 288 action ids (`from * 4 + direction`).
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        crate::convert::mask_array(py, &self.inner.legal_action_mask())
    }

    /// The legal moves' action ids, ascending, as a NumPy `int64` array.
    fn legal_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        crate::convert::actions_array(py, &self.inner.legal_action_mask())
    }

    /// Plays a move (a `Move` or its notation) and returns the arbiter's report.
    #[pyo3(name = "play")]
    fn play_move(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<Report> {
        let mv = move_arg(r#move)?;
        self.inner
            .play(mv)
            .map(|inner| Report { inner })
            .map_err(raise)
    }

    /// Plays the move with action id `action` and returns the report. An id in 0..288 whose
    /// step would leave the board is an illegal move like any other.
    fn play_action(&mut self, action: i64) -> PyResult<Report> {
        let mv = convert::action(action)?;
        self.inner
            .play(mv)
            .map(|inner| Report { inner })
            .map_err(raise)
    }

    /// `side` resigns; returns the new status.
    fn resign(&mut self, side: &Bound<'_, PyAny>) -> PyResult<Status> {
        self.declare(side, |loser| DeclaredEnd::Resignation { loser })
    }

    /// `side`'s time ran out (as whoever keeps the clocks decides): the other side wins, reason
    /// `"time"`; returns the new status.
    fn lose_on_time(&mut self, side: &Bound<'_, PyAny>) -> PyResult<Status> {
        self.declare(side, |loser| DeclaredEnd::Time { loser })
    }

    /// `side` left the game and did not come back in time (as whoever keeps the seats
    /// decides): the other side wins, reason `"abandoned"`; returns the new status.
    fn abandon(&mut self, side: &Bound<'_, PyAny>) -> PyResult<Status> {
        self.declare(side, |loser| DeclaredEnd::Abandoned { loser })
    }

    /// Both sides left the game and neither came back in time (as whoever keeps the seats
    /// decides): drawn, reason `"abandoned"`; returns the new status.
    fn abandon_by_both(&mut self) -> PyResult<Status> {
        self.inner
            .declare(DeclaredEnd::AbandonedByBoth)
            .map(|inner| Status { inner })
            .map_err(raise)
    }

    /// Both sides agree to a draw; returns the new status.
    fn agree_draw(&mut self) -> PyResult<Status> {
        self.inner
            .agree_draw()
            .map(|inner| Status { inner })
            .map_err(raise)
    }

    /// The game's status.
    #[getter]
    fn status(&self) -> Status {
        Status {
            inner: self.inner.status(),
        }
    }

    /// `"white"` or `"black"`.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        self.inner.side_to_move().word()
    }

    /// `"white"` or `"black"`.
    #[getter]
    fn first_mover(&self) -> &'static str {
        self.inner.first_mover().word()
    }

    /// Plies played.
    #[getter]
    fn ply(&self) -> usize {
        self.inner.history().len()
    }

    /// The rows of each side's setup zone (3 or 4).
    #[getter]
    fn setup_rows(&self) -> u8 {
        self.inner.rules().setup_rows()
    }

    /// The move limit in plies without a challenge (0 for none).
    #[getter]
    fn move_limit(&self) -> u16 {
        self.inner.rules().move_limit().unwrap_or(0)
    }

    /// Every ply's report, in order.
    fn history(&self) -> Vec<Report> {
        self.inner
            .history()
            .iter()
            .map(|&inner| Report { inner })
            .collect()
    }

    /// `side`'s setup as the game started (`None` for a game from a position text).
    fn setup(&self, side: &Bound<'_, PyAny>) -> PyResult<Option<Setup>> {
        let side = convert::side(side)?;
        Ok(self.inner.setup(side).map(|s| Setup { inner: s.clone() }))
    }

    /// The game as `side` sees it: its own ranks, the enemy's squares, the public history.
    fn view(&self, side: &Bound<'_, PyAny>) -> PyResult<View> {
        Ok(View {
            inner: self.inner.view(convert::side(side)?),
        })
    }

    /// The game as a spectator sees it: where each side's pieces stand, no rank, the side to
    /// move and the status.
    fn public_view(&self) -> PublicView {
        PublicView {
            inner: self.inner.public_view(),
        }
    }

    /// `side`'s exact beliefs as a NumPy `float64` array of shape `(72, 15)`:
    /// `[square, rank]` is the probability that the piece on `square` has `rank` (rank values
    /// 0 Flag … 14 Spy). An enemy piece's row is its exact posterior given what `side` has
    /// seen; an own piece's row is 1 at its rank; an empty square's row is 0.
    fn beliefs<'py>(
        &self,
        py: Python<'py>,
        side: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let side = convert::side(side)?;
        let tracker = self.inner.tracker(side).map_err(raise)?;
        beliefs_array(py, &tracker)
    }

    /// `side`'s observation tensor: a NumPy `float32` array of shape `(38, 8, 9)`, the
    /// planes documented in the crate (own ranks, enemy presence, the exact posterior of each
    /// enemy piece, last move, waiting Flags, side to move, the move-limit count). With
    /// `viewer_up` (the default) row 0 is `side`'s home row.
    #[pyo3(signature = (side, viewer_up = true))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        side: &Bound<'_, PyAny>,
        viewer_up: bool,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let side = convert::side(side)?;
        let observation = self
            .inner
            .observation(side, convert::orientation(viewer_up))
            .map_err(raise)?;
        convert::observation_array(py, &observation)
    }

    /// A game `side` cannot tell from this one: the enemy's ranks drawn from `side`'s exact
    /// posterior with `seed`, the same history replayed.
    fn sample(&self, py: Python<'_>, side: &Bound<'_, PyAny>, seed: u64) -> PyResult<Game> {
        let side = convert::side(side)?;
        let game = &self.inner;
        py.detach(|| game.sample(side, seed))
            .map(Game::wrap)
            .map_err(raise)
    }

    /// What `side` knows, as a client would hold it: a `Tracker` at this point of the game.
    fn tracker(&self, side: &Bound<'_, PyAny>) -> PyResult<Tracker> {
        let side = convert::side(side)?;
        self.inner.tracker(side).map(Tracker::wrap).map_err(raise)
    }

    /// The number of move sequences of `depth` plies (the GIL is released meanwhile).
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let game = &self.inner;
        py.detach(|| game.perft(depth))
    }

    /// Plays uniformly random moves on a copy until the game ends or `max_plies` plies:
    /// returns `(status, plies)`. The game itself is unchanged.
    #[pyo3(signature = (seed, max_plies = 100_000))]
    fn playout(&self, py: Python<'_>, seed: u64, max_plies: u32) -> (Status, u32) {
        let game = &self.inner;
        let result = py.detach(|| game.playout(seed, max_plies));
        (
            Status {
                inner: result.status,
            },
            result.plies,
        )
    }

    /// An independent copy.
    fn clone(&self) -> Game {
        Clone::clone(self)
    }

    fn __copy__(&self) -> Game {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyDict>) -> Game {
        Clone::clone(self)
    }

    /// Pickles through the record (or the position text for a game started from one).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let game = &slf.borrow().inner;
        if game.setup(Side::White).is_some() {
            Ok((slf.get_type().getattr("from_record")?, (game.record(),)))
        } else {
            Ok((
                slf.get_type().getattr("from_text")?,
                (game.position().to_string(),),
            ))
        }
    }

    fn __repr__(&self) -> String {
        let position = self.inner.position();
        let mut board = String::new();
        for row in (0..Square::ROWS).rev() {
            board.push_str(&format!("{} ", row + 1));
            for file in 0..Square::FILES {
                let square = Square::from_coords(file, row).expect("on the board");
                let cell = match position.piece_at(square) {
                    Some((Side::White, rank)) => rank.code().to_string(),
                    Some((Side::Black, rank)) => rank.code().to_ascii_lowercase(),
                    None => ".".to_string(),
                };
                board.push_str(&format!(" {cell:<2}"));
            }
            board.push('\n');
        }
        board.push_str("   a  b  c  d  e  f  g  h  i\n");
        format!(
            "<salpakan.Game ply {}, {} to move, {}>\n{board}",
            self.inner.history().len(),
            self.inner.side_to_move().word(),
            self.inner.status()
        )
    }
}

impl Game {
    /// Ends the game with the end `make` gives for the losing `side`; the new status.
    fn declare(
        &mut self,
        side: &Bound<'_, PyAny>,
        make: impl FnOnce(Side) -> DeclaredEnd,
    ) -> PyResult<Status> {
        let loser = convert::side(side)?;
        self.inner
            .declare(make(loser))
            .map(|inner| Status { inner })
            .map_err(raise)
    }
}

/// One side's view: its own pieces with their ranks, the enemy's pieces with no rank, the
/// side to move, the history and the status. `str(view)` draws the board as that side sees it.
#[pyclass(module = "salpakan", frozen)]
pub(crate) struct View {
    pub(crate) inner: salpakan::View,
}

#[pymethods]
impl View {
    /// The viewing side.
    #[getter]
    fn side(&self) -> &'static str {
        self.inner.side().word()
    }

    /// The 72 cells by square: `None` (empty), `("own", rank)` or `("enemy", None)`.
    fn cells(&self) -> Vec<Option<(&'static str, Option<u8>)>> {
        self.inner
            .cells()
            .iter()
            .map(|cell| match cell {
                ViewCell::Empty => None,
                ViewCell::Own { rank, .. } => Some(("own", Some(*rank as u8))),
                ViewCell::Enemy { .. } => Some(("enemy", None)),
            })
            .collect()
    }

    /// The view text (one line: the board with enemy ranks hidden, and the public state).
    fn to_text(&self) -> String {
        self.inner.to_text().to_string()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "<salpakan.View of {}>\n{}",
            self.inner.side().word(),
            self.inner
        )
    }
}

/// The game as a spectator sees it: every piece's side and no rank, the side to move, the
/// status. `str(view)` draws the board (White's pieces `XX`, Black's `xx`).
#[pyclass(module = "salpakan", frozen)]
pub(crate) struct PublicView {
    pub(crate) inner: salpakan::PublicView,
}

#[pymethods]
impl PublicView {
    /// The 72 cells by square: `None` (empty) or the side whose piece stands there.
    fn cells(&self) -> Vec<Option<&'static str>> {
        self.inner
            .cells()
            .iter()
            .map(|cell| cell.map(|id| id.side().word()))
            .collect()
    }

    /// The side to move.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        self.inner.side_to_move().word()
    }

    /// Plies played.
    #[getter]
    fn ply(&self) -> u32 {
        self.inner.ply()
    }

    /// The game's status.
    #[getter]
    fn status(&self) -> Status {
        Status {
            inner: self.inner.status(),
        }
    }

    /// The view text: the position text with every piece hidden (`XX` White, `xx` Black).
    fn to_text(&self) -> String {
        self.inner.to_text().to_string()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<salpakan.PublicView>\n{}", self.inner)
    }
}
