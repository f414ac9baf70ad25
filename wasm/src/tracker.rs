//! A seat's knowledge when the arbiter is elsewhere (the arbiter server): the crate's
//! `Tracker`, fed the arbiter's announcements, with the legal moves and exact beliefs of
//! that seat alone.

use js_sys::Float64Array;
use wasm_bindgen::prelude::*;

use salpakan::{Bitboard, Rules, Side};

use crate::convert::{self, raise, report_arg, status_arg, status_object};

/// What one side knows: its own formation, the squares the enemy's pieces started on, and
/// every announcement since. Call `free()` when done with it.
#[wasm_bindgen]
pub struct Tracker {
    inner: salpakan::Tracker,
}

#[wasm_bindgen]
impl Tracker {
    /// The tracker of `side`, whose formation is `own` (72 cells, as `Game.fromCells` takes
    /// them), whose enemy's pieces start on `enemy` (21 squares, names or indices), with
    /// `first` to move (White by default) under the official rules or `setupRows` and
    /// `moveLimit`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "SideInput")] side: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CellsInput")] own: JsValue,
        #[wasm_bindgen(unchecked_param_type = "SquareInput[] | Uint8Array")] enemy: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SideInput")] first: Option<JsValue>,
        #[wasm_bindgen(js_name = setupRows, unchecked_optional_param_type = "number")]
        setup_rows: Option<JsValue>,
        #[wasm_bindgen(js_name = moveLimit, unchecked_optional_param_type = "number")]
        move_limit: Option<JsValue>,
    ) -> Result<Tracker, JsValue> {
        let none = JsValue::UNDEFINED;
        let side = convert::side(&side)?;
        let rules: Rules = convert::rules(
            setup_rows.as_ref().unwrap_or(&none),
            move_limit.as_ref().unwrap_or(&none),
        )?;
        let first = convert::side_or_white(first.as_ref().unwrap_or(&none))?;
        let own = convert::setup_from_cells(side, rules, &own)?;
        let enemy = convert::list_arg(
            &enemy,
            "enemy is the squares of the enemy's pieces, in an array or a typed array",
        )?;
        let mut squares = Bitboard::EMPTY;
        for square in enemy.iter() {
            squares = squares.with(convert::square(&square)?);
        }
        salpakan::Tracker::new(&own, squares, first, rules)
            .map(|inner| Tracker { inner })
            .map_err(raise)
    }

    /// Takes in one ply as the arbiter announced it: `{move, outcome, status}` (a server's
    /// `ply` event, or a `Report`). Refused (`"observe"`) if it cannot follow what came before.
    pub fn observe(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "ReportInput")] report: JsValue,
    ) -> Result<(), JsValue> {
        let report = report_arg(&report)?;
        self.inner.observe(&report).map_err(raise)
    }

    /// Takes in an end no move made (resignation, agreement, time, abandonment):
    /// `{state, winner, reason}`.
    #[wasm_bindgen(js_name = observeEnd)]
    pub fn observe_end(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Status")] status: JsValue,
    ) -> Result<(), JsValue> {
        let status = status_arg(&status)?;
        self.inner.observe_end(status).map_err(raise)
    }

    /// The tracking side.
    #[wasm_bindgen(getter, unchecked_return_type = "Side")]
    pub fn side(&self) -> JsValue {
        self.inner.side().word().into()
    }

    /// The side to move.
    #[wasm_bindgen(getter, js_name = sideToMove, unchecked_return_type = "Side")]
    pub fn side_to_move(&self) -> JsValue {
        self.inner.side_to_move().word().into()
    }

    /// The status as announced.
    #[wasm_bindgen(getter, unchecked_return_type = "Status")]
    pub fn status(&self) -> JsValue {
        status_object(self.inner.status())
    }

    /// Plies played.
    #[wasm_bindgen(getter)]
    pub fn ply(&self) -> usize {
        self.inner.history().len()
    }

    /// The legal moves of the side to move, in notation (the tracking side's, on its turn).
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

    /// Where the tracking side's pieces stand now: 72 cells, the rank number or 255.
    #[wasm_bindgen(js_name = ownCells)]
    pub fn own_cells(&self) -> Vec<u8> {
        salpakan::Square::ALL
            .map(|square| {
                self.inner
                    .own_rank(square)
                    .map_or(salpakan::Setup::EMPTY_CELL, |rank| rank as u8)
            })
            .to_vec()
    }

    /// Where the enemy's pieces stand now: their square indices.
    #[wasm_bindgen(js_name = enemySquares)]
    pub fn enemy_squares(&self) -> Vec<u8> {
        let enemy: Side = self.inner.side().other();
        self.inner
            .occupied(enemy)
            .map(|s| s.index() as u8)
            .collect()
    }

    /// The exact beliefs, 72 × 15 probabilities: `[square * 15 + rank]` (the `Game.beliefs`
    /// layout).
    pub fn beliefs(&self) -> Result<Float64Array, JsValue> {
        let rows = self.inner.beliefs_by_square().map_err(raise)?;
        Ok(Float64Array::from(rows.as_flattened()))
    }
}
