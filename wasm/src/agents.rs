//! The engine's players: one class each (as in the Python package), each handed only the
//! chosen side's information.

use wasm_bindgen::prelude::*;

use salpakan::Agent;

use crate::convert::{self, raise};
use crate::game::Game;

/// The move `agent` chooses for `side` in `game`, in notation: it is handed only `side`'s
/// tracker. The crate decides every refusal (`"game-over"` after the end, `"argument"` out of
/// turn, `"observe"` for a game made from a position text).
fn choose(agent: &mut dyn Agent, game: &Game, side: &JsValue) -> Result<String, JsValue> {
    let side = convert::side(side)?;
    agent
        .choose_in(&game.inner, side)
        .map(|mv| mv.to_string())
        .map_err(raise)
}

/// A JavaScript class over the engine's agent of the same name: a constructor from a seed
/// (and a budget where the agent has one), and `choose(game, side)`. The class's doc comes as
/// a plain string: wasm-bindgen would copy a doc comment passed through a macro as a raw
/// string literal, quotes and all, into the TypeScript declarations.
macro_rules! agent_class {
    ($name:ident, $doc:literal $(, $budget:ident)?) => {
        #[doc = $doc]
        #[wasm_bindgen]
        pub struct $name {
            inner: salpakan::$name,
        }

        #[wasm_bindgen]
        impl $name {
            #[doc = "A player whose draws are seeded with `seed` (0 by default)."]
            #[wasm_bindgen(constructor)]
            pub fn new(
                #[wasm_bindgen(unchecked_optional_param_type = "SeedInput")] seed: Option<JsValue>,
                $(#[wasm_bindgen(unchecked_optional_param_type = "number")] $budget: Option<u32>,)?
            ) -> Result<$name, JsValue> {
                let seed = convert::seed(seed.as_ref().unwrap_or(&JsValue::UNDEFINED))?;
                Ok($name {
                    inner: salpakan::$name::new(seed $(, $budget.unwrap_or(0))?),
                })
            }
        }

        choose_method!($name);
    };
}

/// `choose(game, side)` on a class whose `inner` is one of the engine's agents.
macro_rules! choose_method {
    ($name:ident) => {
        #[wasm_bindgen]
        impl $name {
            #[doc = "Its move for `side` in `game` (`\"e3-e4\"`), seeing only what `side` may know. Throws a `\"game-over\"` error once the game has ended, an `\"argument\"` error when it is the other side's move."]
            pub fn choose(
                &mut self,
                game: &Game,
                #[wasm_bindgen(unchecked_param_type = "SideInput")] side: JsValue,
            ) -> Result<String, JsValue> {
                choose(&mut self.inner, game, &side)
            }
        }
    };
}

agent_class!(Random, "A uniformly random legal move, seeded.");

agent_class!(
    Greedy,
    "One ply of look-ahead on the exact posterior; `seed` breaks ties."
);

agent_class!(
    Ismcts,
    "Information-set Monte Carlo tree search: `budget` iterations a move (0 or none for `Ismcts.defaultBudget()`, 10,000), seeded.",
    budget
);

#[wasm_bindgen]
impl Ismcts {
    /// Iterations a move.
    #[wasm_bindgen(getter)]
    pub fn budget(&self) -> u32 {
        self.inner.budget()
    }

    /// The iterations a move when `budget` is 0 or not given (the crate's
    /// `Ismcts::DEFAULT_BUDGET`).
    #[wasm_bindgen(js_name = defaultBudget)]
    pub fn default_budget() -> u32 {
        salpakan::Ismcts::DEFAULT_BUDGET
    }
}

/// A bot of the ladder: `level` 1 (a beginner) to `Level.count()` (8, the strongest),
/// seeded; its rating is in the repository's docs/PERFORMANCE.md.
#[wasm_bindgen]
pub struct Level {
    inner: salpakan::Level,
}

#[wasm_bindgen]
impl Level {
    /// The bot of `level`, its draws seeded with `seed` (0 by default). Throws an
    /// `"argument"` error for a level outside 1 to 8.
    #[wasm_bindgen(constructor)]
    pub fn new(
        level: f64,
        #[wasm_bindgen(unchecked_optional_param_type = "SeedInput")] seed: Option<JsValue>,
    ) -> Result<Level, JsValue> {
        let seed = convert::seed(seed.as_ref().unwrap_or(&JsValue::UNDEFINED))?;
        // A fraction or a number past i64 is no level: the crate refuses it by its value.
        let level = if level.fract() == 0.0 && level.abs() < 1e15 {
            level as i64
        } else {
            i64::MIN
        };
        salpakan::Level::new(level, seed)
            .map(|inner| Level { inner })
            .map_err(raise)
    }

    /// Its level, 1 to 8.
    #[wasm_bindgen(getter)]
    pub fn level(&self) -> u8 {
        self.inner.level()
    }

    /// The number of levels (the crate's `Level::COUNT`).
    pub fn count() -> u8 {
        salpakan::Level::COUNT
    }
}

choose_method!(Level);
