//! `Replay`: a finished game replayed as each side knew it.

use js_sys::{Float64Array, Object};
use wasm_bindgen::prelude::*;

use crate::convert::{self, integer_arg, raise, set};
use crate::game::{Game, public_view_object, view_object};

/// A game replayed as each side knew it: at every ply (after `ply` plies: 0 is the start,
/// `plies` the end) each side's view and exact beliefs; each challenge's odds as the attacker
/// saw them just before it attacked; each side's luck. Call `free()` when done with it.
#[wasm_bindgen]
pub struct Replay {
    inner: salpakan::Replay,
}

/// A ply from a JavaScript number: a count, so a negative one or a fraction is refused.
fn count(value: &JsValue) -> Result<usize, JsValue> {
    let ply = integer_arg(value, "a ply is a whole number")?;
    usize::try_from(ply).map_err(|_| convert::argument(format!("ply {ply} is not in the game")))
}

#[wasm_bindgen]
impl Replay {
    /// The replay of `game` (with its formations: not one made from a position text).
    #[wasm_bindgen(constructor)]
    pub fn new(game: &Game) -> Result<Replay, JsValue> {
        salpakan::Replay::new(&game.inner)
            .map(|inner| Replay { inner })
            .map_err(raise)
    }

    /// The replay of the game a record's text gives (`Game.record()`, a server's
    /// `/api/games/{id}/record`).
    #[wasm_bindgen(js_name = fromRecord)]
    pub fn from_record(text: &str) -> Result<Replay, JsValue> {
        salpakan::Replay::from_record(text)
            .map(|inner| Replay { inner })
            .map_err(raise)
    }

    /// The number of plies played.
    #[wasm_bindgen(getter)]
    pub fn plies(&self) -> usize {
        self.inner.plies()
    }

    /// The whole game as it ended (with both formations).
    #[wasm_bindgen(getter)]
    pub fn game(&self) -> Game {
        Game::from(self.inner.game().clone())
    }

    /// `side`'s exact beliefs after `ply` plies, 72 × 15 probabilities: `[square * 15 + rank]`
    /// (as `Game.beliefs`).
    pub fn beliefs(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] ply: JsValue,
        #[wasm_bindgen(unchecked_param_type = "SideInput")] side: JsValue,
    ) -> Result<Float64Array, JsValue> {
        let (ply, side) = (count(&ply)?, convert::side(&side)?);
        let rows = self.inner.beliefs_by_square(ply, side).map_err(raise)?;
        Ok(Float64Array::from(rows.as_flattened()))
    }

    /// The `ply`-th ply's odds (1-based), if it was a challenge: `{attacker, rank, win, tie,
    /// lose, outcome}`, the attacker's chances from its beliefs just before; `null` for a
    /// plain move.
    #[wasm_bindgen(unchecked_return_type = "Odds | null")]
    pub fn odds(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] ply: JsValue,
    ) -> Result<JsValue, JsValue> {
        let Some(odds) = self.inner.challenge(count(&ply)?).map_err(raise)? else {
            return Ok(JsValue::NULL);
        };
        let object = Object::new();
        set(&object, "attacker", odds.attacker.word());
        set(&object, "rank", odds.rank as u8);
        set(&object, "win", odds.win);
        set(&object, "tie", odds.tie);
        set(&object, "lose", odds.lose);
        set(&object, "outcome", odds.outcome.name());
        Ok(object.into())
    }

    /// `side`'s luck: `{challenges, score, expected, luck}` (a win scores 1, a tie ½, a loss
    /// 0; `luck` is `score - expected`).
    #[wasm_bindgen(unchecked_return_type = "Luck")]
    pub fn luck(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SideInput")] side: JsValue,
    ) -> Result<JsValue, JsValue> {
        let luck = self.inner.luck(convert::side(&side)?);
        let object = Object::new();
        set(&object, "challenges", luck.challenges);
        set(&object, "score", luck.score);
        set(&object, "expected", luck.expected);
        set(&object, "luck", luck.luck());
        Ok(object.into())
    }

    /// `side`'s view after `ply` plies.
    #[wasm_bindgen(unchecked_return_type = "View")]
    pub fn view(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] ply: JsValue,
        #[wasm_bindgen(unchecked_param_type = "SideInput")] side: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (ply, side) = (count(&ply)?, convert::side(&side)?);
        let view = self.inner.view(ply, side).map_err(raise)?;
        Ok(view_object(&view))
    }

    /// A spectator's view after `ply` plies.
    #[wasm_bindgen(js_name = publicView, unchecked_return_type = "PublicView")]
    pub fn public_view(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] ply: JsValue,
    ) -> Result<JsValue, JsValue> {
        let view = self.inner.public_view(count(&ply)?).map_err(raise)?;
        Ok(public_view_object(&view))
    }
}
