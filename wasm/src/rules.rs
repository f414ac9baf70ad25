//! The rules' facts the page and other callers need without a game: the challenge table and
//! whether a challenge removes a Flag, the ranks' codes and names, the army, the setup zones
//! and the sizes. Each comes from the crate; nothing here is a copy.

use js_sys::{Array, Object, Uint8Array};
use wasm_bindgen::prelude::*;

use salpakan::{Move, Observation, Rank, Setup, Square};

use crate::convert::{self, set};

/// The arbiter's answer, from the attacker's side, when a piece of rank `attacker` challenges
/// one of rank `defender` (rank numbers 0..15).
#[wasm_bindgen(unchecked_return_type = "Outcome")]
pub fn challenge(
    #[wasm_bindgen(unchecked_param_type = "number")] attacker: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] defender: JsValue,
) -> Result<JsValue, JsValue> {
    let (attacker, defender) = (convert::rank(&attacker)?, convert::rank(&defender)?);
    Ok(salpakan::challenge(attacker, defender).name().into())
}

/// Whether a piece of rank `attacker` challenging one of rank `defender` removes a Flag (the
/// defender's, or an attacking Flag that loses): the game is then over, won by the other
/// side. What a referee of a physical board asks after each challenge.
#[wasm_bindgen(js_name = capturesFlag)]
pub fn captures_flag(
    #[wasm_bindgen(unchecked_param_type = "number")] attacker: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] defender: JsValue,
) -> Result<bool, JsValue> {
    let (attacker, defender) = (convert::rank(&attacker)?, convert::rank(&defender)?);
    Ok(salpakan::captures_flag(attacker, defender))
}

/// The two-letter code of rank number `rank` (`"FL"`, `"PV"` … `"5G"`, `"SP"`).
#[wasm_bindgen(js_name = rankCode, unchecked_return_type = "RankCode")]
pub fn rank_code(
    #[wasm_bindgen(unchecked_param_type = "number")] rank: JsValue,
) -> Result<JsValue, JsValue> {
    Ok(convert::rank(&rank)?.code().into())
}

/// The English name of rank number `rank` (`"Flag"`, `"Private"` … `"Spy"`).
#[wasm_bindgen(js_name = rankName)]
pub fn rank_name(
    #[wasm_bindgen(unchecked_param_type = "number")] rank: JsValue,
) -> Result<String, JsValue> {
    Ok(convert::rank(&rank)?.name().to_owned())
}

/// The name of a square given by index (0..72) or name: `"a1"` … `"i8"`.
#[wasm_bindgen(js_name = squareName)]
pub fn square_name(
    #[wasm_bindgen(unchecked_param_type = "SquareInput")] square: JsValue,
) -> Result<String, JsValue> {
    Ok(convert::square(&square)?.to_string())
}

/// The index (`(row - 1) * 9 + file`: a1 = 0 … i8 = 71) of a square given by name or index.
#[wasm_bindgen(js_name = squareIndex)]
pub fn square_index(
    #[wasm_bindgen(unchecked_param_type = "SquareInput")] square: JsValue,
) -> Result<u8, JsValue> {
    Ok(convert::square(&square)?.index() as u8)
}

/// The squares (indices, ascending) of `side`'s setup zone of `rows` rows (3 by default).
#[wasm_bindgen(js_name = setupZone)]
pub fn setup_zone(
    #[wasm_bindgen(unchecked_param_type = "SideInput")] side: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number")] rows: Option<JsValue>,
) -> Result<Uint8Array, JsValue> {
    let side = convert::side(&side)?;
    let rules = convert::zone_rules(rows.as_ref())?;
    let squares: Vec<u8> = rules
        .setup_zone(side)
        .into_iter()
        .map(|square| square.index() as u8)
        .collect();
    Ok(Uint8Array::from(&squares[..]))
}

/// The observation tensor's shape, `[38, 8, 9]`.
#[wasm_bindgen(js_name = observationShape)]
pub fn observation_shape() -> Vec<u32> {
    Observation::SHAPE.iter().map(|&n| n as u32).collect()
}

/// The constants the package's entry exports by name (`NUM_SQUARES`, `NO_PIECE`,
/// `NUM_ACTIONS`, `NUM_RANKS`, `OBSERVATION_VERSION`, `TEXT_FORMAT`, `ARMY`), taken from the
/// crate.
#[wasm_bindgen(js_name = __constants, skip_typescript)]
pub fn constants() -> Object {
    let object = Object::new();
    set(&object, "NUM_SQUARES", Square::NUM as u32);
    set(&object, "NO_PIECE", Setup::EMPTY_CELL);
    set(&object, "NUM_ACTIONS", Move::NUM_ACTIONS as u32);
    set(&object, "NUM_RANKS", Rank::NUM as u32);
    set(&object, "OBSERVATION_VERSION", Observation::VERSION);
    set(&object, "TEXT_FORMAT", salpakan::text::TEXT_FORMAT);
    let army: Array = Rank::ARMY
        .iter()
        .map(|&rank| JsValue::from(rank as u8))
        .collect();
    set(&object, "ARMY", army);
    object
}
