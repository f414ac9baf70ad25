//! The npm package's WebAssembly module: a thin shell over the crate's API for JavaScript,
//! as `capi/` is for C. It converts values and errors; every rule stays in the crate.
//!
//! Sides are `"white"`/`"black"` (or 0/1), squares their names (`"e4"`) or indices, moves
//! their notation (`"e3-e4"`) or `{from, to}`. Errors are thrown as `Error`s carrying the
//! engine's message.

use js_sys::{Array, Float32Array, Float64Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;

use salpakan::{
    Agent, Move, Observation, Orientation, Rank, Rules, Setup, Side, Square, Status, ViewCell,
};

/// A JavaScript `Error` with `message`.
fn error(message: impl ToString) -> JsError {
    JsError::new(&message.to_string())
}

/// Sets `key` of `object` to `value`.
fn set(object: &Object, key: &str, value: impl Into<JsValue>) {
    // Setting a property of a plain object never fails.
    let _ = Reflect::set(object, &JsValue::from_str(key), &value.into());
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// A side from `"white"`/`"black"` or 0/1.
fn side_arg(value: &JsValue) -> Result<Side, JsError> {
    if let Some(text) = value.as_string() {
        return match text.to_ascii_lowercase().as_str() {
            "white" => Ok(Side::White),
            "black" => Ok(Side::Black),
            _ => Err(error(format!(
                "side {text:?}: it must be \"white\" or \"black\""
            ))),
        };
    }
    match value.as_f64() {
        Some(0.0) => Ok(Side::White),
        Some(1.0) => Ok(Side::Black),
        _ => Err(error("a side is \"white\", \"black\", 0 or 1")),
    }
}

/// A square from its name or index.
fn square_arg(value: &JsValue) -> Result<Square, JsError> {
    if let Some(text) = value.as_string() {
        return text
            .parse()
            .map_err(|e| error(format!("square {text:?}: {e}")));
    }
    value
        .as_f64()
        .filter(|v| v.fract() == 0.0 && *v >= 0.0)
        .and_then(|v| Square::try_index(v as usize))
        .ok_or_else(|| error("a square is a name such as \"e4\" or an index 0..72"))
}

/// A move from its notation or `{from, to}`.
fn move_arg(value: &JsValue) -> Result<Move, JsError> {
    if let Some(text) = value.as_string() {
        return text.parse().map_err(error);
    }
    if value.is_object() {
        let from =
            Reflect::get(value, &JsValue::from_str("from")).map_err(|_| error("no `from`"))?;
        let to = Reflect::get(value, &JsValue::from_str("to")).map_err(|_| error("no `to`"))?;
        return Ok(Move::new(square_arg(&from)?, square_arg(&to)?));
    }
    Err(error(
        "a move is its notation, such as \"e3-e4\", or {from, to}",
    ))
}

/// `{state, winner, reason}` with the package's words.
fn status_object(status: Status) -> Object {
    let object = Object::new();
    let (state, winner, reason) = match status {
        Status::Ongoing => ("ongoing", None, None),
        Status::Won { winner, reason } => ("won", Some(side_name(winner)), Some(reason.token())),
        Status::Drawn { reason } => ("drawn", None, Some(reason.token())),
    };
    set(&object, "state", state);
    set(
        &object,
        "winner",
        winner.map_or(JsValue::NULL, JsValue::from_str),
    );
    set(
        &object,
        "reason",
        reason.map_or(JsValue::NULL, JsValue::from_str),
    );
    object
}

/// `{move, challenge, outcome, status}` for a report.
fn report_object(report: salpakan::Report) -> Object {
    let object = Object::new();
    set(&object, "move", report.mv.to_string());
    set(&object, "challenge", report.outcome.is_some());
    set(
        &object,
        "outcome",
        report
            .outcome
            .map_or(JsValue::NULL, |o| JsValue::from_str(o.name())),
    );
    set(&object, "status", status_object(report.status));
    object
}

/// A setup from 72 cells (rank values 0..15, 255 empty).
fn setup_from_cells(side: Side, rules: Rules, cells: &JsValue) -> Result<Setup, JsError> {
    let values: Vec<f64> = Array::from(cells)
        .iter()
        .filter_map(|v| v.as_f64())
        .collect();
    if values.len() != Square::NUM {
        return Err(error(format!(
            "{} cells: a setup has one per square, 72",
            values.len()
        )));
    }
    let mut grid = [None; Square::NUM];
    for (square, &value) in Square::ALL.into_iter().zip(&values) {
        grid[square.index()] = if value == 255.0 {
            None
        } else {
            Some(
                Some(value)
                    .filter(|v| v.fract() == 0.0 && *v >= 0.0)
                    .and_then(|v| Rank::try_index(v as usize))
                    .ok_or_else(|| {
                        error(format!(
                            "cell {square} holds {value}: a rank is 0..15, an empty square 255"
                        ))
                    })?,
            )
        };
    }
    Setup::from_cells(side, rules, &grid).map_err(error)
}

/// The arbiter's game: every rank, the history, the status. Call `free()` when done with it
/// (JavaScript's garbage collector does not see the WebAssembly memory it holds).
#[wasm_bindgen]
pub struct Game {
    inner: salpakan::Game,
}

#[wasm_bindgen]
impl Game {
    /// A new game with random setups drawn from `seed` (White's from `seed`, Black's from
    /// `seed + 1`), `first` to move (`"white"` by default), under the official rules or with a
    /// 4-row setup zone (`setupRows`) and a move limit (`moveLimit`, 0 for none).
    #[wasm_bindgen(constructor)]
    pub fn new(
        seed: Option<f64>,
        first: Option<String>,
        setup_rows: Option<u8>,
        move_limit: Option<u16>,
    ) -> Result<Game, JsError> {
        let rules = Rules::new(setup_rows.unwrap_or(3), move_limit.unwrap_or(0)).map_err(error)?;
        let first = match first {
            Some(text) => side_arg(&JsValue::from_str(&text))?,
            None => Side::White,
        };
        let seed = seed.unwrap_or(0.0) as u64;
        let white = Setup::random(Side::White, rules, seed);
        let black = Setup::random(Side::Black, rules, seed.wrapping_add(1));
        salpakan::Game::new(white, black, first, rules)
            .map(|inner| Game { inner })
            .map_err(error)
    }

    /// A game from two setups as 72 cells each by square (the C ABI's numbering: rank values
    /// 0 Flag … 14 Spy, 255 empty), `first` 0 (White) or 1 (Black).
    #[wasm_bindgen(js_name = fromCells)]
    pub fn from_cells(
        white: JsValue,
        black: JsValue,
        first: JsValue,
        setup_rows: Option<u8>,
        move_limit: Option<u16>,
    ) -> Result<Game, JsError> {
        let rules = Rules::new(setup_rows.unwrap_or(3), move_limit.unwrap_or(0)).map_err(error)?;
        let first = if first.is_undefined() || first.is_null() {
            Side::White
        } else {
            side_arg(&first)?
        };
        let white = setup_from_cells(Side::White, rules, &white)?;
        let black = setup_from_cells(Side::Black, rules, &black)?;
        salpakan::Game::new(white, black, first, rules)
            .map(|inner| Game { inner })
            .map_err(error)
    }

    /// A game from two setup texts (`"FL:a1 PV:b1 …"`, Black's codes in lower case).
    #[wasm_bindgen(js_name = fromSetups)]
    pub fn from_setups(
        white: &str,
        black: &str,
        first: JsValue,
        setup_rows: Option<u8>,
        move_limit: Option<u16>,
    ) -> Result<Game, JsError> {
        let rules = Rules::new(setup_rows.unwrap_or(3), move_limit.unwrap_or(0)).map_err(error)?;
        let first = if first.is_undefined() || first.is_null() {
            Side::White
        } else {
            side_arg(&first)?
        };
        let white: Setup = white.parse().map_err(error)?;
        let black: Setup = black.parse().map_err(error)?;
        salpakan::Game::new(white, black, first, rules)
            .map(|inner| Game { inner })
            .map_err(error)
    }

    /// Reads a game record and replays it.
    #[wasm_bindgen(js_name = fromRecord)]
    pub fn from_record(text: &str) -> Result<Game, JsError> {
        salpakan::Game::from_record(text)
            .map(|inner| Game { inner })
            .map_err(error)
    }

    /// A game from a position text (no setups or history: no beliefs, samples or agents).
    #[wasm_bindgen(js_name = fromText)]
    pub fn from_text(text: &str) -> Result<Game, JsError> {
        let position: salpakan::Position = text.parse().map_err(error)?;
        Ok(Game {
            inner: salpakan::Game::from_position(position),
        })
    }

    /// The legal moves in notation (`"e3-e4"`); none once the game has ended.
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&self) -> Vec<String> {
        self.inner
            .legal_moves()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// The legal moves from `square` (a name or index), in notation.
    #[wasm_bindgen(js_name = legalMovesFrom)]
    pub fn legal_moves_from(&self, square: JsValue) -> Result<Vec<String>, JsError> {
        let square = square_arg(&square)?;
        Ok(self
            .inner
            .legal_moves()
            .iter()
            .filter(|mv| mv.from == square)
            .map(ToString::to_string)
            .collect())
    }

    /// Plays a move (`"e3-e4"` or `{from, to}`): `{move, challenge, outcome, status}`, with
    /// `outcome` `null`, `"win"`, `"lose"` or `"tie"` (the attacker's).
    pub fn play(&mut self, mv: JsValue) -> Result<Object, JsError> {
        let mv = move_arg(&mv)?;
        self.inner.play(mv).map(report_object).map_err(error)
    }

    /// Plays the move with action id `action` (`from * 4 + direction`).
    #[wasm_bindgen(js_name = playAction)]
    pub fn play_action(&mut self, action: u16) -> Result<Object, JsError> {
        let mv = Move::from_action(action)
            .ok_or_else(|| error(format!("action {action}: no move has this id")))?;
        self.inner.play(mv).map(report_object).map_err(error)
    }

    /// `side` resigns; returns the status.
    pub fn resign(&mut self, side: JsValue) -> Result<Object, JsError> {
        let side = side_arg(&side)?;
        self.inner.resign(side).map(status_object).map_err(error)
    }

    /// Both sides agree to a draw; returns the status.
    #[wasm_bindgen(js_name = agreeDraw)]
    pub fn agree_draw(&mut self) -> Result<Object, JsError> {
        self.inner.agree_draw().map(status_object).map_err(error)
    }

    /// `{state, winner, reason}`: `"ongoing"`/`"won"`/`"drawn"`, `"white"`/`"black"`/`null`,
    /// `null` or `"flag-captured"`, `"flag-reached-end"`, `"resignation"`, `"agreement"`,
    /// `"move-limit"`.
    #[wasm_bindgen(getter)]
    pub fn status(&self) -> Object {
        status_object(self.inner.status())
    }

    /// `"white"` or `"black"`.
    #[wasm_bindgen(getter, js_name = sideToMove)]
    pub fn side_to_move(&self) -> String {
        side_name(self.inner.side_to_move()).to_string()
    }

    /// Plies played.
    #[wasm_bindgen(getter)]
    pub fn ply(&self) -> usize {
        self.inner.history().len()
    }

    /// Every ply: `[{move, challenge, outcome, status}]`.
    pub fn history(&self) -> Array {
        self.inner
            .history()
            .iter()
            .map(|&r| JsValue::from(report_object(r)))
            .collect()
    }

    /// The game as `side` sees it: `{side, sideToMove, cells, text}`, `cells` 72 entries by
    /// square, each `null`, `{owner: "own", rank, code}` or `{owner: "enemy"}`; `text` the
    /// board drawn as that side sees it. It holds no enemy rank.
    pub fn view(&self, side: JsValue) -> Result<Object, JsError> {
        let side = side_arg(&side)?;
        let view = self.inner.view(side);
        let cells: Array = view
            .cells()
            .iter()
            .map(|cell| match cell {
                ViewCell::Empty => JsValue::NULL,
                ViewCell::Own { rank, .. } => {
                    let object = Object::new();
                    set(&object, "owner", "own");
                    set(&object, "rank", *rank as u8);
                    set(&object, "code", rank.code());
                    set(&object, "name", rank.name());
                    object.into()
                }
                ViewCell::Enemy { .. } => {
                    let object = Object::new();
                    set(&object, "owner", "enemy");
                    object.into()
                }
            })
            .collect();
        let object = Object::new();
        set(&object, "side", side_name(side));
        set(&object, "sideToMove", side_name(view.side_to_move()));
        set(&object, "cells", cells);
        set(&object, "text", view.to_string());
        Ok(object)
    }

    /// `side`'s exact beliefs, `Float64Array` of 72 × 15: `[square * 15 + rank]`.
    pub fn beliefs(&self, side: JsValue) -> Result<Float64Array, JsError> {
        let side = side_arg(&side)?;
        let rows = self
            .inner
            .tracker(side)
            .and_then(|tracker| tracker.beliefs_by_square())
            .map_err(error)?;
        Ok(Float64Array::from(rows.as_flattened()))
    }

    /// `side`'s observation tensor, `Float32Array` of 38 × 8 × 9 (the crate's planes, the
    /// viewer playing "up").
    pub fn observation(&self, side: JsValue) -> Result<Float32Array, JsError> {
        let side = side_arg(&side)?;
        let observation = self
            .inner
            .observation(side, Orientation::ViewerUp)
            .map_err(error)?;
        Ok(Float32Array::from(observation.as_slice()))
    }

    /// The legal moves as a `Uint8Array` of 288 (1 legal), action id `from * 4 + direction`.
    #[wasm_bindgen(js_name = legalActionMask)]
    pub fn legal_action_mask(&self) -> Uint8Array {
        let mask = self.inner.legal_action_mask();
        let bytes: Vec<u8> = (0..Move::NUM_ACTIONS as u16)
            .map(|a| u8::from(mask.contains(a)))
            .collect();
        Uint8Array::from(&bytes[..])
    }

    /// A game `side` cannot tell from this one, the enemy's ranks drawn from its exact
    /// posterior with `seed`.
    pub fn sample(&self, side: JsValue, seed: f64) -> Result<Game, JsError> {
        let side = side_arg(&side)?;
        self.inner
            .sample(side, seed as u64)
            .map(|inner| Game { inner })
            .map_err(error)
    }

    /// The game record.
    pub fn record(&self) -> String {
        self.inner.record()
    }

    /// The position text.
    #[wasm_bindgen(js_name = toText)]
    pub fn to_text(&self) -> String {
        self.inner.position().to_string()
    }

    /// The rank on `square` whoever owns it (the arbiter's knowledge: for the final board).
    #[wasm_bindgen(js_name = pieceAt)]
    pub fn piece_at(&self, square: JsValue) -> Result<JsValue, JsError> {
        let square = square_arg(&square)?;
        Ok(match self.inner.position().piece_at(square) {
            None => JsValue::NULL,
            Some((side, rank)) => {
                let object = Object::new();
                set(&object, "side", side_name(side));
                set(&object, "rank", rank as u8);
                set(&object, "code", rank.code());
                set(&object, "name", rank.name());
                object.into()
            }
        })
    }

    /// A copy (free it too).
    #[wasm_bindgen(js_name = clone)]
    pub fn duplicate(&self) -> Game {
        Game {
            inner: self.inner.clone(),
        }
    }

    /// `perft(depth)`: the number of move sequences of `depth` plies.
    pub fn perft(&self, depth: u32) -> f64 {
        self.inner.perft(depth) as f64
    }
}

/// An engine player: `"random"`, `"greedy"` or `"ismcts"` (with `budget` iterations a move,
/// 0 for its default), seeded. It is handed only the chosen side's information.
#[wasm_bindgen]
pub struct Player {
    inner: Box<dyn Agent>,
}

#[wasm_bindgen]
impl Player {
    /// A player of `kind` (`"random"`, `"greedy"`, `"ismcts"`).
    #[wasm_bindgen(constructor)]
    pub fn new(kind: &str, seed: Option<f64>, budget: Option<u32>) -> Result<Player, JsError> {
        let seed = seed.unwrap_or(0.0) as u64;
        let inner: Box<dyn Agent> = match kind {
            "random" => Box::new(salpakan::Random::new(seed)),
            "greedy" => Box::new(salpakan::Greedy::new(seed)),
            "ismcts" => Box::new(salpakan::Ismcts::new(seed, budget.unwrap_or(0))),
            other => {
                return Err(error(format!(
                    "player {other:?}: it must be \"random\", \"greedy\" or \"ismcts\""
                )));
            }
        };
        Ok(Player { inner })
    }

    /// The move this player chooses for `side` in `game` (`"e3-e4"`), seeing only what
    /// `side` may know. An error if `side` is not to move or the game is over.
    pub fn choose(&mut self, game: &Game, side: JsValue) -> Result<String, JsError> {
        choose_with(self.inner.as_mut(), game, side)
    }
}

/// Chooses `side`'s move in `game` with `agent`, handing it only that side's information.
fn choose_with(agent: &mut dyn Agent, game: &Game, side: JsValue) -> Result<String, JsError> {
    let side = side_arg(&side)?;
    if !game.inner.status().is_ongoing() {
        return Err(error(format!("the game is over ({})", game.inner.status())));
    }
    if game.inner.side_to_move() != side {
        return Err(error(format!(
            "it is {}'s turn, not {}'s",
            side_name(side.other()),
            side_name(side)
        )));
    }
    let tracker = game.inner.tracker(side).map_err(error)?;
    agent
        .choose(&tracker)
        .map(|mv| mv.to_string())
        .ok_or_else(|| error("no move to choose"))
}

/// A uniformly random legal move, seeded.
#[wasm_bindgen]
pub struct Random {
    inner: salpakan::Random,
}

#[wasm_bindgen]
impl Random {
    /// A random player seeded with `seed`.
    #[wasm_bindgen(constructor)]
    pub fn new(seed: Option<f64>) -> Random {
        Random {
            inner: salpakan::Random::new(seed.unwrap_or(0.0) as u64),
        }
    }

    /// Its move for `side` in `game` (`"e3-e4"`).
    pub fn choose(&mut self, game: &Game, side: JsValue) -> Result<String, JsError> {
        choose_with(&mut self.inner, game, side)
    }
}

/// One ply of look-ahead on the exact posterior; `seed` breaks ties.
#[wasm_bindgen]
pub struct Greedy {
    inner: salpakan::Greedy,
}

#[wasm_bindgen]
impl Greedy {
    /// A greedy player seeded with `seed`.
    #[wasm_bindgen(constructor)]
    pub fn new(seed: Option<f64>) -> Greedy {
        Greedy {
            inner: salpakan::Greedy::new(seed.unwrap_or(0.0) as u64),
        }
    }

    /// Its move for `side` in `game` (`"e3-e4"`).
    pub fn choose(&mut self, game: &Game, side: JsValue) -> Result<String, JsError> {
        choose_with(&mut self.inner, game, side)
    }
}

/// Information-set Monte Carlo tree search: `budget` iterations a move (0 for the default,
/// 10,000), seeded.
#[wasm_bindgen]
pub struct Ismcts {
    inner: salpakan::Ismcts,
}

#[wasm_bindgen]
impl Ismcts {
    /// A search player seeded with `seed`, `budget` iterations a move.
    #[wasm_bindgen(constructor)]
    pub fn new(seed: Option<f64>, budget: Option<u32>) -> Ismcts {
        Ismcts {
            inner: salpakan::Ismcts::new(seed.unwrap_or(0.0) as u64, budget.unwrap_or(0)),
        }
    }

    /// Its move for `side` in `game` (`"e3-e4"`).
    pub fn choose(&mut self, game: &Game, side: JsValue) -> Result<String, JsError> {
        choose_with(&mut self.inner, game, side)
    }
}

/// The arbiter's answer when a piece of rank `attacker` challenges one of rank `defender`.
#[wasm_bindgen]
pub fn challenge(attacker: u8, defender: u8) -> Result<String, JsError> {
    let rank = |v: u8| {
        Rank::try_index(usize::from(v)).ok_or_else(|| error(format!("rank {v}: it must be 0..15")))
    };
    Ok(salpakan::challenge(rank(attacker)?, rank(defender)?)
        .name()
        .to_string())
}

/// The observation tensor's shape, `[38, 8, 9]`.
#[wasm_bindgen(js_name = observationShape)]
pub fn observation_shape() -> Vec<u32> {
    Observation::SHAPE.iter().map(|&n| n as u32).collect()
}
