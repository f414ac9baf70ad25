//! The arbiter's game and the arbiter's table.

use js_sys::{Array, Float32Array, Float64Array, Object, Uint8Array};
use wasm_bindgen::prelude::*;

use salpakan::{DeclaredEnd, Move, Orientation, Rules, Setup, Side, ViewCell};

use crate::convert::{self, raise, rank_object, report_object, set, side_or_white, status_object};

/// The arbiter's game: every rank, the history, the status. Call `free()` when done with it
/// (JavaScript's garbage collector does not see the WebAssembly memory it holds).
#[wasm_bindgen]
pub struct Game {
    pub(crate) inner: salpakan::Game,
}

impl From<salpakan::Game> for Game {
    fn from(inner: salpakan::Game) -> Game {
        Game { inner }
    }
}

/// The first mover (White when not given) and the rules (official when not given) of the
/// constructors' optional arguments.
fn options(
    first: Option<JsValue>,
    setup_rows: Option<JsValue>,
    move_limit: Option<JsValue>,
) -> Result<(Side, Rules), JsValue> {
    let none = JsValue::UNDEFINED;
    let rules = convert::rules(
        setup_rows.as_ref().unwrap_or(&none),
        move_limit.as_ref().unwrap_or(&none),
    )?;
    Ok((side_or_white(first.as_ref().unwrap_or(&none))?, rules))
}

/// A side's view as the package hands it out (the `View` declaration).
pub(crate) fn view_object(view: &salpakan::View) -> JsValue {
    let cells: Array = view
        .cells()
        .iter()
        .map(|cell| match cell {
            ViewCell::Empty => JsValue::NULL,
            ViewCell::Own { rank, .. } => rank_object(("owner", "own"), *rank),
            ViewCell::Enemy { .. } => {
                let object = Object::new();
                set(&object, "owner", "enemy");
                object.into()
            }
        })
        .collect();
    let object = Object::new();
    set(&object, "side", view.side().word());
    set(&object, "sideToMove", view.side_to_move().word());
    set(&object, "cells", cells);
    set(&object, "text", view.to_string());
    object.into()
}

/// A spectator's view as the package hands it out (the `PublicView` declaration).
pub(crate) fn public_view_object(view: &salpakan::PublicView) -> JsValue {
    let cells: Array = view
        .cells()
        .iter()
        .map(|cell| cell.map_or(JsValue::NULL, |id| id.side().word().into()))
        .collect();
    let object = Object::new();
    set(&object, "sideToMove", view.side_to_move().word());
    set(&object, "ply", view.ply());
    set(&object, "status", status_object(view.status()));
    set(&object, "cells", cells);
    set(&object, "text", view.to_text().to_string());
    object.into()
}

/// A new game from two setups.
fn start(white: Setup, black: Setup, first: Side, rules: Rules) -> Result<Game, JsValue> {
    salpakan::Game::new(white, black, first, rules)
        .map(Game::from)
        .map_err(raise)
}

#[wasm_bindgen]
impl Game {
    /// A new game with random setups drawn from `seed` (White's from `seed`, Black's from
    /// `seed + 1`; 0 by default), `first` to move (White by default), under the official rules
    /// or with a 4-row setup zone (`setupRows`) and a move limit (`moveLimit`, 0 for none).
    /// For reproducible games (tests, bots against bots): a seed is a key, so a person's
    /// formation comes from `Setup.random(side)` (a secret seed) and `Game.fromCells`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "SeedInput")] seed: Option<JsValue>,
        #[wasm_bindgen(unchecked_optional_param_type = "SideInput")] first: Option<JsValue>,
        #[wasm_bindgen(js_name = setupRows, unchecked_optional_param_type = "number")]
        setup_rows: Option<JsValue>,
        #[wasm_bindgen(js_name = moveLimit, unchecked_optional_param_type = "number")]
        move_limit: Option<JsValue>,
    ) -> Result<Game, JsValue> {
        let (first, rules) = options(first, setup_rows, move_limit)?;
        let seed = convert::seed(&seed.unwrap_or(JsValue::UNDEFINED))?;
        let [white, black] = Side::ALL.map(|side| Setup::dealt(side, rules, seed));
        start(white, black, first, rules)
    }

    /// A game from two setups as 72 cells each by square (the C ABI's numbering: rank numbers
    /// 0 Flag … 14 Spy, 255 empty), `first` to move (White by default).
    #[wasm_bindgen(js_name = fromCells)]
    pub fn from_cells(
        #[wasm_bindgen(unchecked_param_type = "CellsInput")] white: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CellsInput")] black: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SideInput")] first: Option<JsValue>,
        #[wasm_bindgen(js_name = setupRows, unchecked_optional_param_type = "number")]
        setup_rows: Option<JsValue>,
        #[wasm_bindgen(js_name = moveLimit, unchecked_optional_param_type = "number")]
        move_limit: Option<JsValue>,
    ) -> Result<Game, JsValue> {
        let (first, rules) = options(first, setup_rows, move_limit)?;
        let white = convert::setup_from_cells(Side::White, rules, &white)?;
        let black = convert::setup_from_cells(Side::Black, rules, &black)?;
        start(white, black, first, rules)
    }

    /// A game from two setup texts (`"FL:a1 PV:b1 …"`, Black's codes in lower case).
    #[wasm_bindgen(js_name = fromSetups)]
    pub fn from_setups(
        white: &str,
        black: &str,
        #[wasm_bindgen(unchecked_optional_param_type = "SideInput")] first: Option<JsValue>,
        #[wasm_bindgen(js_name = setupRows, unchecked_optional_param_type = "number")]
        setup_rows: Option<JsValue>,
        #[wasm_bindgen(js_name = moveLimit, unchecked_optional_param_type = "number")]
        move_limit: Option<JsValue>,
    ) -> Result<Game, JsValue> {
        let (first, rules) = options(first, setup_rows, move_limit)?;
        let white: Setup = white.parse().map_err(raise)?;
        let black: Setup = black.parse().map_err(raise)?;
        start(white, black, first, rules)
    }

    /// Reads a game record and replays it.
    #[wasm_bindgen(js_name = fromRecord)]
    pub fn from_record(text: &str) -> Result<Game, JsValue> {
        salpakan::Game::from_record(text)
            .map(Game::from)
            .map_err(raise)
    }

    /// A game from a position text (no setups or history: no beliefs, samples or agents).
    #[wasm_bindgen(js_name = fromText)]
    pub fn from_text(text: &str) -> Result<Game, JsValue> {
        let position: salpakan::Position = text.parse().map_err(raise)?;
        Ok(salpakan::Game::from_position(position).into())
    }

    /// The legal moves in notation (`"e3-e4"`); none once the game has ended.
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&self) -> Vec<String> {
        convert::move_texts(&self.inner.legal_moves(), None)
    }

    /// The legal moves from `square` (a name or index), in notation.
    #[wasm_bindgen(js_name = legalMovesFrom)]
    pub fn legal_moves_from(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SquareInput")] square: JsValue,
    ) -> Result<Vec<String>, JsValue> {
        let square = convert::square(&square)?;
        Ok(convert::move_texts(&self.inner.legal_moves(), Some(square)))
    }

    /// Plays a move (`"e3-e4"` or `{from, to}`) and returns the arbiter's report.
    #[wasm_bindgen(unchecked_return_type = "Report")]
    pub fn play(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "MoveInput")] mv: JsValue,
    ) -> Result<JsValue, JsValue> {
        let mv = convert::move_arg(&mv)?;
        self.inner.play(mv).map(report_object).map_err(raise)
    }

    /// Plays the move with action id `action` (`from * 4 + direction`, 0..288); an id whose
    /// step leaves the board is an illegal move.
    #[wasm_bindgen(js_name = playAction, unchecked_return_type = "Report")]
    pub fn play_action(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] action: JsValue,
    ) -> Result<JsValue, JsValue> {
        let mv = convert::action(&action)?;
        self.inner.play(mv).map(report_object).map_err(raise)
    }

    /// `side` resigns; returns the status.
    #[wasm_bindgen(unchecked_return_type = "Status")]
    pub fn resign(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "SideInput")] side: JsValue,
    ) -> Result<JsValue, JsValue> {
        self.declare(&side, |loser| DeclaredEnd::Resignation { loser })
    }

    /// `side`'s time ran out (as whoever keeps the clocks decides): the other side wins,
    /// reason `"time"`; returns the status.
    #[wasm_bindgen(js_name = loseOnTime, unchecked_return_type = "Status")]
    pub fn lose_on_time(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "SideInput")] side: JsValue,
    ) -> Result<JsValue, JsValue> {
        self.declare(&side, |loser| DeclaredEnd::Time { loser })
    }

    /// `side` left the game and did not come back in time (as whoever keeps the seats
    /// decides): the other side wins, reason `"abandoned"`; returns the status.
    #[wasm_bindgen(unchecked_return_type = "Status")]
    pub fn abandon(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "SideInput")] side: JsValue,
    ) -> Result<JsValue, JsValue> {
        self.declare(&side, |loser| DeclaredEnd::Abandoned { loser })
    }

    /// Both sides left the game and neither came back in time (as whoever keeps the seats
    /// decides): drawn, reason `"abandoned"`; returns the status.
    #[wasm_bindgen(js_name = abandonByBoth, unchecked_return_type = "Status")]
    pub fn abandon_by_both(&mut self) -> Result<JsValue, JsValue> {
        self.inner
            .declare(DeclaredEnd::AbandonedByBoth)
            .map(status_object)
            .map_err(raise)
    }

    /// Both sides agree to a draw; returns the status.
    #[wasm_bindgen(js_name = agreeDraw, unchecked_return_type = "Status")]
    pub fn agree_draw(&mut self) -> Result<JsValue, JsValue> {
        self.inner.agree_draw().map(status_object).map_err(raise)
    }

    /// The game's status.
    #[wasm_bindgen(getter, unchecked_return_type = "Status")]
    pub fn status(&self) -> JsValue {
        status_object(self.inner.status())
    }

    /// The side to move.
    #[wasm_bindgen(getter, js_name = sideToMove, unchecked_return_type = "Side")]
    pub fn side_to_move(&self) -> JsValue {
        self.inner.side_to_move().word().into()
    }

    /// Plies played.
    #[wasm_bindgen(getter)]
    pub fn ply(&self) -> usize {
        self.inner.history().len()
    }

    /// Every ply's report.
    #[wasm_bindgen(unchecked_return_type = "Report[]")]
    pub fn history(&self) -> Array {
        self.inner
            .history()
            .iter()
            .map(|&r| report_object(r))
            .collect()
    }

    /// The game as `side` sees it: its own ranks, where the enemy's pieces stand (no rank), the
    /// side to move, and the board drawn as that side sees it.
    #[wasm_bindgen(unchecked_return_type = "View")]
    pub fn view(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SideInput")] side: JsValue,
    ) -> Result<JsValue, JsValue> {
        let side = convert::side(&side)?;
        Ok(view_object(&self.inner.view(side)))
    }

    /// The game as a spectator sees it: where each side's pieces stand, no rank, the side to
    /// move, and the board drawn with every piece hidden.
    #[wasm_bindgen(js_name = publicView, unchecked_return_type = "PublicView")]
    pub fn public_view(&self) -> JsValue {
        public_view_object(&self.inner.public_view())
    }

    /// `side`'s exact beliefs, 72 × 15 probabilities: `[square * 15 + rank]`.
    pub fn beliefs(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SideInput")] side: JsValue,
    ) -> Result<Float64Array, JsValue> {
        let side = convert::side(&side)?;
        let rows = self
            .inner
            .tracker(side)
            .and_then(|tracker| tracker.beliefs_by_square())
            .map_err(raise)?;
        Ok(Float64Array::from(rows.as_flattened()))
    }

    /// `side`'s observation tensor, 38 × 8 × 9 floats (the crate's planes, the viewer playing
    /// "up").
    pub fn observation(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SideInput")] side: JsValue,
    ) -> Result<Float32Array, JsValue> {
        let side = convert::side(&side)?;
        let observation = self
            .inner
            .observation(side, Orientation::ViewerUp)
            .map_err(raise)?;
        Ok(Float32Array::from(observation.as_slice()))
    }

    /// The legal moves as 288 bytes, 1 for a legal action id (`from * 4 + direction`).
    #[wasm_bindgen(js_name = legalActionMask)]
    pub fn legal_action_mask(&self) -> Uint8Array {
        let mask = self.inner.legal_action_mask();
        let bytes: [u8; Move::NUM_ACTIONS] =
            core::array::from_fn(|a| u8::from(mask.contains(a as u16)));
        Uint8Array::from(&bytes[..])
    }

    /// A game `side` cannot tell from this one, the enemy's ranks drawn from its exact
    /// posterior with `seed` (free it too).
    pub fn sample(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SideInput")] side: JsValue,
        #[wasm_bindgen(unchecked_param_type = "SeedInput")] seed: JsValue,
    ) -> Result<Game, JsValue> {
        let side = convert::side(&side)?;
        let seed = convert::seed(&seed)?;
        self.inner.sample(side, seed).map(Game::from).map_err(raise)
    }

    /// The game record.
    pub fn record(&self) -> String {
        self.inner.record()
    }

    /// Commits `side` to its formation with the secret `salt` (32 hexadecimal digits, from
    /// `crypto.getRandomValues`) before the first move; returns the commitment to publish
    /// (64 hexadecimal digits). Throws `"commitment"` for a game made from a position.
    pub fn commit(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "SideInput")] side: JsValue,
        salt: &str,
    ) -> Result<String, JsValue> {
        let side = convert::side(&side)?;
        let salt: salpakan::commitment::Salt = salt.parse().map_err(raise)?;
        self.inner
            .commit(side, &salt)
            .map(|c| c.to_string())
            .map_err(raise)
    }

    /// `side`'s commitment as the record holds it (`undefined` without one).
    pub fn commitment(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SideInput")] side: JsValue,
    ) -> Result<Option<String>, JsValue> {
        let side = convert::side(&side)?;
        Ok(self.inner.commitment(side).map(|c| c.to_string()))
    }

    /// Opens `side`'s commitment at the end: its salt goes into the record.
    #[wasm_bindgen(js_name = openCommitment)]
    pub fn open_commitment(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "SideInput")] side: JsValue,
        salt: &str,
    ) -> Result<(), JsValue> {
        let side = convert::side(&side)?;
        let salt: salpakan::commitment::Salt = salt.parse().map_err(raise)?;
        self.inner.open_commitment(side, &salt);
        Ok(())
    }

    /// Checks the record's commitments: each side's formation and salt give the commitment
    /// published before the first move (with `Game.fromRecord`, which refuses announcements
    /// the formations do not give, the whole check of an arbiter's game). Throws
    /// `"commitment"` naming the tag missing or the side whose commitment fails.
    #[wasm_bindgen(js_name = verifyCommitments)]
    pub fn verify_commitments(&self) -> Result<(), JsValue> {
        self.inner.verify_commitments().map_err(raise)
    }

    /// The position text.
    #[wasm_bindgen(js_name = toText)]
    pub fn to_text(&self) -> String {
        self.inner.position().to_string()
    }

    /// The piece on `square` whoever owns it, with its rank: the arbiter's knowledge, for
    /// the final board. `null` for an empty square.
    #[wasm_bindgen(js_name = pieceAt, unchecked_return_type = "Piece | null")]
    pub fn piece_at(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SquareInput")] square: JsValue,
    ) -> Result<JsValue, JsValue> {
        let square = convert::square(&square)?;
        Ok(match self.inner.position().piece_at(square) {
            None => JsValue::NULL,
            Some((side, rank)) => rank_object(("side", side.word()), rank),
        })
    }

    /// A copy (free it too).
    #[wasm_bindgen(js_name = clone)]
    pub fn cloned(&self) -> Game {
        self.inner.clone().into()
    }

    /// The number of move sequences of `depth` plies.
    pub fn perft(&self, depth: u32) -> f64 {
        self.inner.perft(depth) as f64
    }
}

impl Game {
    /// Ends the game with the end `make` gives for the losing `side`; the status.
    fn declare(
        &mut self,
        side: &JsValue,
        make: impl FnOnce(Side) -> DeclaredEnd,
    ) -> Result<JsValue, JsValue> {
        let loser = convert::side(side)?;
        self.inner
            .declare(make(loser))
            .map(status_object)
            .map_err(raise)
    }
}
