//! One side's formation, as the page arranges it before a game: a random one (drawn from a
//! secret seed unless a seed is given), one read from cells or text, and its cells.

use js_sys::Uint8Array;
use wasm_bindgen::prelude::*;

use crate::convert::{self, raise};

/// One side's formation: 21 pieces of the right ranks in its setup zone, always valid for
/// the rules it was made with. Call `free()` when done with it.
#[wasm_bindgen]
pub struct Setup {
    pub(crate) inner: salpakan::Setup,
}

#[wasm_bindgen]
impl Setup {
    /// A uniformly random formation for `side` with a setup zone of `setupRows` rows (3 by
    /// default). Without a `seed` it is drawn from 64 secret bits of `crypto.getRandomValues`:
    /// what a formation played against a person needs. With one, the same seed gives the same
    /// formation on every platform, so a seed is a key: use a small or fixed one only for
    /// tests and bots playing bots, and never one from `Math.random` or a clock.
    pub fn random(
        #[wasm_bindgen(unchecked_param_type = "SideInput")] side: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SeedInput")] seed: Option<JsValue>,
        #[wasm_bindgen(js_name = setupRows, unchecked_optional_param_type = "number")]
        setup_rows: Option<JsValue>,
    ) -> Result<Setup, JsValue> {
        let side = convert::side(&side)?;
        let rules = convert::zone_rules(setup_rows.as_ref())?;
        let seed = convert::seed_or_secret(seed.as_ref())?;
        Ok(Setup {
            inner: salpakan::Setup::random(side, rules, seed),
        })
    }

    /// The formation of `side` given as 72 cells by square (rank numbers 0 Flag … 14 Spy,
    /// `NO_PIECE` for an empty square), in an array or a typed array, checked against a zone
    /// of `setupRows` rows (3 by default).
    #[wasm_bindgen(js_name = fromCells)]
    pub fn from_cells(
        #[wasm_bindgen(unchecked_param_type = "SideInput")] side: JsValue,
        #[wasm_bindgen(unchecked_param_type = "CellsInput")] cells: JsValue,
        #[wasm_bindgen(js_name = setupRows, unchecked_optional_param_type = "number")]
        setup_rows: Option<JsValue>,
    ) -> Result<Setup, JsValue> {
        let side = convert::side(&side)?;
        let rules = convert::zone_rules(setup_rows.as_ref())?;
        convert::setup_from_cells(side, rules, &cells).map(|inner| Setup { inner })
    }

    /// A formation from its setup text (`"FL:a1 PV:b1 …"`, Black's codes in lower case).
    pub fn parse(text: &str) -> Result<Setup, JsValue> {
        text.parse().map(|inner| Setup { inner }).map_err(raise)
    }

    /// The side it belongs to.
    #[wasm_bindgen(getter, unchecked_return_type = "Side")]
    pub fn side(&self) -> JsValue {
        self.inner.side().word().into()
    }

    /// Its 72 cells by square: rank numbers, `NO_PIECE` (255) for an empty square.
    pub fn cells(&self) -> Uint8Array {
        Uint8Array::from(&self.inner.cell_values()[..])
    }

    /// Its setup text (`"FL:a1 PV:b1 …"`).
    #[wasm_bindgen(js_name = toString)]
    pub fn to_text(&self) -> String {
        self.inner.to_string()
    }
}
