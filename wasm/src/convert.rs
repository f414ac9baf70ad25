//! Conversions between JavaScript values and the engine's, in one place: arguments read
//! through the crate's vocabulary, results built as the plain objects the TypeScript
//! declarations describe, and engine errors thrown as `SalpakanError`s of their kind.

use core::fmt::Display;

use js_sys::{Array, Error, Object, Reflect};
use wasm_bindgen::prelude::*;

use salpakan::bindings::{EngineError, ErrorKind};
use salpakan::{CellsError, Move, Rank, Report, Rules, Setup, Side, Square, Status};

/// A `SalpakanError` of `kind` with `message`.
pub(crate) fn error(kind: ErrorKind, message: impl Display) -> JsValue {
    let error = Error::new(&message.to_string());
    error.set_name("SalpakanError");
    set(&error, "kind", kind.name());
    error.into()
}

/// An engine error as the `SalpakanError` of its kind.
pub(crate) fn raise(e: impl EngineError) -> JsValue {
    error(e.kind(), e)
}

/// A value of the wrong JavaScript type, as an `"argument"` error.
pub(crate) fn argument(message: impl Display) -> JsValue {
    error(ErrorKind::Argument, message)
}

/// Sets `key` of `object` to `value`.
pub(crate) fn set(object: &Object, key: &str, value: impl Into<JsValue>) {
    // Setting a property of a plain object never fails.
    let _ = Reflect::set(object, &JsValue::from_str(key), &value.into());
}

/// A JavaScript number that is an integer, as one.
fn integer(value: &JsValue) -> Option<i64> {
    value
        .as_f64()
        .filter(|v| v.fract() == 0.0 && v.abs() < 9.0e15)
        .map(|v| v as i64)
}

/// An integer argument, or an `"argument"` error saying what it stands for.
pub(crate) fn integer_arg(value: &JsValue, what: &str) -> Result<i64, JsValue> {
    integer(value).ok_or_else(|| argument(format!("{what}, not {}", describe(value))))
}

/// How an error message shows a JavaScript value.
fn describe(value: &JsValue) -> String {
    match (value.as_f64(), value.as_string()) {
        (Some(number), _) => number.to_string(),
        (_, Some(text)) => format!("{text:?}"),
        _ if value.is_null() => "null".into(),
        _ if value.is_undefined() => "undefined".into(),
        _ => "an object".into(),
    }
}

/// A side from its word (any case, `w`/`b` too) or 0/1.
pub(crate) fn side(value: &JsValue) -> Result<Side, JsValue> {
    named_or_numbered(
        value,
        Side::from_number,
        "a side is \"white\", \"black\", 0 or 1",
    )
}

/// A side, White when not given.
pub(crate) fn side_or_white(value: &JsValue) -> Result<Side, JsValue> {
    if value.is_undefined() || value.is_null() {
        Ok(Side::White)
    } else {
        side(value)
    }
}

/// A square from its name or index.
pub(crate) fn square(value: &JsValue) -> Result<Square, JsValue> {
    named_or_numbered(
        value,
        Square::from_number,
        "a square is a name such as \"e4\" or an index 0..72",
    )
}

/// A value from its name (a string, parsed) or its number (`what` says what it may be).
fn named_or_numbered<T, E>(
    value: &JsValue,
    from_number: fn(i64) -> Result<T, E>,
    what: &str,
) -> Result<T, JsValue>
where
    T: std::str::FromStr,
    T::Err: EngineError,
    E: EngineError,
{
    if let Some(text) = value.as_string() {
        return text.parse().map_err(raise);
    }
    from_number(integer_arg(value, what)?).map_err(raise)
}

/// A rank from its number.
pub(crate) fn rank(value: &JsValue) -> Result<Rank, JsValue> {
    Rank::from_number(integer_arg(value, "a rank is a number 0..15")?).map_err(raise)
}

/// A move from its notation or `{from, to}`.
pub(crate) fn move_arg(value: &JsValue) -> Result<Move, JsValue> {
    if let Some(text) = value.as_string() {
        return text.parse().map_err(raise);
    }
    if value.is_object() {
        let end = |key: &str| Reflect::get(value, &JsValue::from_str(key)).unwrap_or_default();
        return Ok(Move::new(square(&end("from"))?, square(&end("to"))?));
    }
    Err(argument(
        "a move is its notation, such as \"e3-e4\", or {from, to}",
    ))
}

/// The move with action id `value`.
pub(crate) fn action(value: &JsValue) -> Result<Move, JsValue> {
    Move::from_action_number(integer_arg(value, "an action id is a number 0..288")?).map_err(raise)
}

/// Rules from the optional `setupRows` (3 by default) and `moveLimit` (0, none, by default).
pub(crate) fn rules(setup_rows: &JsValue, move_limit: &JsValue) -> Result<Rules, JsValue> {
    let number = |value: &JsValue, default: i64, what: &str| {
        if value.is_undefined() || value.is_null() {
            Ok(default)
        } else {
            integer_arg(value, what)
        }
    };
    Rules::from_numbers(
        number(setup_rows, 3, "setupRows is 3 or 4")?,
        number(move_limit, 0, "moveLimit is a number of plies")?,
    )
    .map_err(raise)
}

/// Rules with the optional `setupRows` (3 by default) and no move limit: what a formation or
/// a setup zone is checked against.
pub(crate) fn zone_rules(setup_rows: Option<&JsValue>) -> Result<Rules, JsValue> {
    rules(
        setup_rows.unwrap_or(&JsValue::UNDEFINED),
        &JsValue::UNDEFINED,
    )
}

/// A seed: a non-negative integer number (up to 2^53) or a `BigInt` below 2^64; 0 when not
/// given.
pub(crate) fn seed(value: &JsValue) -> Result<u64, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(0);
    }
    if value.is_bigint() {
        return u64::try_from(value.clone())
            .map_err(|_| argument("a BigInt seed is at least 0n and below 2n ** 64n (64 bits)"));
    }
    let seed = integer_arg(value, "a seed is a non-negative integer or a BigInt")?;
    u64::try_from(seed).map_err(|_| argument(format!("seed {seed}: it must not be negative")))
}

/// A seed from `value`, or, when none is given, 64 secret bits from the platform's
/// cryptographic generator (`crypto.getRandomValues`, in browsers, workers and Node.js).
pub(crate) fn seed_or_secret(value: Option<&JsValue>) -> Result<u64, JsValue> {
    match value {
        Some(value) if !value.is_undefined() && !value.is_null() => seed(value),
        _ => secret_seed(),
    }
}

/// 64 bits from `crypto.getRandomValues`.
pub(crate) fn secret_seed() -> Result<u64, JsValue> {
    let missing = || {
        error(
            ErrorKind::Argument,
            "no crypto.getRandomValues here to draw a secret seed: pass a seed",
        )
    };
    let crypto = Reflect::get(&js_sys::global(), &JsValue::from_str("crypto"))
        .ok()
        .filter(JsValue::is_object)
        .ok_or_else(missing)?;
    let fill: js_sys::Function = Reflect::get(&crypto, &JsValue::from_str("getRandomValues"))
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(missing)?;
    let bytes = js_sys::Uint8Array::new_with_length(8);
    fill.call1(&crypto, &bytes)?;
    let mut out = [0u8; 8];
    bytes.copy_to(&mut out);
    Ok(u64::from_le_bytes(out))
}

/// The elements of a plain array or a typed array (`Uint8Array` …), or `what` as an
/// `"argument"` error for anything else.
pub(crate) fn list_arg(value: &JsValue, what: &str) -> Result<Array, JsValue> {
    let typed = js_sys::ArrayBuffer::is_view(value) && !value.is_instance_of::<js_sys::DataView>();
    if Array::is_array(value) || typed {
        Ok(Array::from(value))
    } else {
        Err(argument(what))
    }
}

/// A setup from 72 cells (rank numbers 0..15, 255 empty).
pub(crate) fn setup_from_cells(
    side: Side,
    rules: Rules,
    cells: &JsValue,
) -> Result<Setup, JsValue> {
    let cells = list_arg(
        cells,
        "cells are 72 numbers, in an array or a typed array (Uint8Array …)",
    )?;
    let len = cells.length() as usize;
    if len != Square::NUM {
        return Err(raise(CellsError::Count(len)));
    }
    let mut values = [0i64; Square::NUM];
    for (i, slot) in values.iter_mut().enumerate() {
        let cell = cells.get(i as u32);
        *slot = integer(&cell).ok_or_else(|| {
            raise(CellsError::Cell {
                square: Square::ALL[i],
                value: describe(&cell),
            })
        })?;
    }
    Setup::from_cell_values(side, rules, &values).map_err(raise)
}

/// `{state, winner, reason}` with the crate's words.
pub(crate) fn status_object(status: Status) -> JsValue {
    let object = Object::new();
    set(&object, "state", status.state_word());
    set(
        &object,
        "winner",
        status
            .winner()
            .map_or(JsValue::NULL, |side| side.word().into()),
    );
    set(
        &object,
        "reason",
        status.reason_token().map_or(JsValue::NULL, JsValue::from),
    );
    object.into()
}

/// A word-valued property of `object`: its string, `None` for null or undefined.
fn word_of(object: &JsValue, key: &str) -> Result<Option<String>, JsValue> {
    let value = js_sys::Reflect::get(object, &JsValue::from_str(key))
        .map_err(|_| argument(format!("no {key} in the object")))?;
    if value.is_null() || value.is_undefined() {
        return Ok(None);
    }
    value
        .as_string()
        .map(Some)
        .ok_or_else(|| argument(format!("{key} must be a string or null")))
}

/// A status from `{state, winner, reason}` (the shape `status_object` writes and the arbiter
/// server sends).
pub(crate) fn status_arg(value: &JsValue) -> Result<Status, JsValue> {
    if !value.is_object() {
        return Err(argument("a status is {state, winner, reason}"));
    }
    let state = word_of(value, "state")?.ok_or_else(|| argument("a status has a state"))?;
    let winner = word_of(value, "winner")?;
    let reason = word_of(value, "reason")?;
    Status::from_words(&state, winner.as_deref(), reason.as_deref()).map_err(raise)
}

/// A report from `{move, outcome, status}` (the shape `report_object` writes and the arbiter
/// server's `ply` event has).
pub(crate) fn report_arg(value: &JsValue) -> Result<Report, JsValue> {
    if !value.is_object() {
        return Err(argument("a report is {move, outcome, status}"));
    }
    let get = |key: &str| {
        js_sys::Reflect::get(value, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
    };
    let mv = move_arg(&get("move"))?;
    let outcome = word_of(value, "outcome")?
        .map(|word| salpakan::Outcome::from_word(&word))
        .transpose()
        .map_err(raise)?;
    let status = status_arg(&get("status"))?;
    Ok(Report {
        mv,
        outcome,
        status,
    })
}

/// The moves of `moves` in notation, only those from `from` when it is given: what both the
/// game's and the tracker's `legalMoves` / `legalMovesFrom` return.
pub(crate) fn move_texts(moves: &salpakan::MoveList, from: Option<Square>) -> Vec<String> {
    moves
        .iter()
        .filter(|mv| from.is_none_or(|square| mv.from == square))
        .map(ToString::to_string)
        .collect()
}

/// `{move, challenge, outcome, status}` for a report.
pub(crate) fn report_object(report: Report) -> JsValue {
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
    object.into()
}

/// `{rank, code, name}` of a rank, with `extra` set first (the owner or the side).
pub(crate) fn rank_object(extra: (&str, &str), rank: Rank) -> JsValue {
    let object = Object::new();
    set(&object, extra.0, extra.1);
    set(&object, "rank", rank as u8);
    set(&object, "code", rank.code());
    set(&object, "name", rank.name());
    object.into()
}
