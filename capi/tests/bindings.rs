//! The cross-binding table (`tests/data/bindings.txt`) through the C ABI: every row the C
//! functions can express is accepted or refused as the table says, with the result code of
//! the row's error kind. The crate's own runner (`tests/bindings.rs`) checks the table
//! against the crate; this one holds the C library to it.

#[path = "../../tests/engine/table.rs"]
mod table;

use std::ptr::null_mut;

use salpakan::bindings::ErrorKind;
use salpakan_capi::*;
use serde_json::Value;

/// An argument the C ABI takes as a `uint8_t`, if the row's value is one.
fn byte(value: &Value) -> Option<u8> {
    value.as_u64().and_then(|v| u8::try_from(v).ok())
}

/// The fixture's setups as the C ABI makes them: White from seed 1, Black from seed 2.
fn fixture_cells() -> ([u8; 72], [u8; 72]) {
    let (mut white, mut black) = ([0u8; 72], [0u8; 72]);
    // SAFETY: two buffers of 72 bytes.
    unsafe {
        assert_eq!(
            salpakan_random_setup(0, 3, 1, white.as_mut_ptr()),
            SalpakanResult::Ok
        );
        assert_eq!(
            salpakan_random_setup(1, 3, 2, black.as_mut_ptr()),
            SalpakanResult::Ok
        );
    }
    (white, black)
}

/// A game handle freed when dropped.
struct Handle(*mut SalpakanGame);

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: a handle from this library, or NULL.
        unsafe { salpakan_game_free(self.0) }
    }
}

fn new_game(
    white: &[u8; 72],
    black: &[u8; 72],
    first: u8,
    rules: SalpakanRules,
) -> (SalpakanResult, Handle) {
    let mut game = null_mut();
    // SAFETY: 72-cell setups, a rules struct and an out-pointer.
    let result = unsafe {
        salpakan_game_new_with_rules(white.as_ptr(), black.as_ptr(), first, &rules, &mut game)
    };
    (result, Handle(game))
}

const OFFICIAL: SalpakanRules = SalpakanRules {
    setup_rows: 3,
    move_limit: 0,
};

fn fixture() -> Handle {
    let (white, black) = fixture_cells();
    let (result, game) = new_game(&white, &black, SALPAKAN_WHITE, OFFICIAL);
    assert_eq!(result, SalpakanResult::Ok);
    game
}

/// A game made from the fixture's position text.
fn from_text(game: &Handle) -> Handle {
    let mut buf = vec![0 as std::ffi::c_char; 1024];
    let (mut len, mut copy) = (0usize, null_mut());
    // SAFETY: a live handle, a buffer of its size, NUL-terminated text read back.
    unsafe {
        assert_eq!(
            salpakan_game_to_text(game.0, buf.as_mut_ptr(), buf.len(), &mut len),
            SalpakanResult::Ok
        );
        assert_eq!(
            salpakan_game_from_text(buf.as_ptr(), &mut copy),
            SalpakanResult::Ok
        );
    }
    Handle(copy)
}

/// What `read` says of `text`; a game it makes is freed.
fn read_back(
    text: &std::ffi::CStr,
    read: unsafe extern "C" fn(*const std::ffi::c_char, *mut *mut SalpakanGame) -> SalpakanResult,
) -> SalpakanResult {
    let mut copy = null_mut();
    // SAFETY: a NUL-terminated text and a place for the handle.
    let result = unsafe { read(text.as_ptr(), &mut copy) };
    drop(Handle(copy));
    result
}

/// A NUL-terminated copy of a text argument (`@fixture`: the fixture's own text by `write`).
fn text_arg(
    value: &Value,
    game: &Handle,
    write: unsafe extern "C" fn(
        *const SalpakanGame,
        *mut std::ffi::c_char,
        usize,
        *mut usize,
    ) -> SalpakanResult,
) -> std::ffi::CString {
    let text = value.as_str().expect("a string");
    if text != "@fixture" {
        return std::ffi::CString::new(text).expect("no NUL");
    }
    let mut buf = vec![0u8; 1 << 16];
    let mut len = 0usize;
    // SAFETY: a live handle and a buffer of its size.
    unsafe {
        assert_eq!(
            write(game.0, buf.as_mut_ptr().cast(), buf.len(), &mut len),
            SalpakanResult::Ok
        )
    };
    buf.truncate(len);
    std::ffi::CString::new(buf).expect("no NUL")
}

/// A salt's 16 bytes from 32 hexadecimal digits; `None` for anything else (the C ABI takes
/// bytes, not text).
fn salt_bytes(value: &Value) -> Option<[u8; 16]> {
    let text = value.as_str()?;
    if text.len() != 32 {
        return None;
    }
    let mut bytes = [0u8; 16];
    for (i, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(bytes)
}

/// The record a `verify` row names: `@committed` and `@forged` from the fixture with both
/// sides committed and opened through the C ABI.
fn committed_record(value: &Value, game: &Handle) -> std::ffi::CString {
    let word = value.as_str().expect("a string");
    if !matches!(word, "@committed" | "@forged") {
        return text_arg(value, game, salpakan_game_record);
    }
    let salts = [
        "000102030405060708090a0b0c0d0e0f",
        "101112131415161718191a1b1c1d1e1f",
    ]
    .map(|hex| salt_bytes(&Value::from(hex)).expect("a salt"));
    for (side, salt) in [SALPAKAN_WHITE, SALPAKAN_BLACK].into_iter().zip(&salts) {
        let mut commitment = [0u8; SALPAKAN_COMMITMENT_BYTES];
        // SAFETY: a live handle, 16 bytes of salt, room for 32 bytes.
        unsafe {
            assert_eq!(
                salpakan_game_commit(game.0, side, salt.as_ptr(), commitment.as_mut_ptr()),
                SalpakanResult::Ok
            );
            assert_eq!(
                salpakan_game_open_commitment(game.0, side, salt.as_ptr()),
                SalpakanResult::Ok
            );
        }
        assert_ne!(commitment, [0u8; 32], "the commitment was written");
    }
    let record = text_arg(&Value::from("@fixture"), game, salpakan_game_record);
    let record = record.to_str().expect("UTF-8");
    let record = if word == "@forged" {
        record.replace("[BlackSalt \"10", "[BlackSalt \"00")
    } else {
        record.to_owned()
    };
    std::ffi::CString::new(record).expect("no NUL")
}

/// The row's result through the C ABI, or `None` when it cannot express the row's arguments.
fn run(row: &table::Row) -> Option<SalpakanResult> {
    let game = fixture();
    // SAFETY: every handle is live for the call, every buffer has the size passed, every
    // out-pointer is valid.
    unsafe {
        Some(match row.op.as_str() {
            "first" => {
                let (white, black) = fixture_cells();
                new_game(&white, &black, byte(&row.arg(0))?, OFFICIAL).0
            }
            "move" => {
                let mv = SalpakanMove {
                    from: byte(&row.arg(0))?,
                    to: byte(&row.arg(1))?,
                };
                salpakan_game_play(game.0, mv, null_mut())
            }
            "notation" | "action" => return None,
            "cells" | "typed-cells" => {
                let (white, black) = fixture_cells();
                let cells = table::edited_cells(row, white);
                let cells: Vec<u8> = cells.iter().map(byte).collect::<Option<_>>()?;
                let white: [u8; 72] = cells.try_into().ok()?;
                new_game(&white, &black, SALPAKAN_WHITE, OFFICIAL).0
            }
            "rules" => {
                let (white, black) = fixture_cells();
                let rules = SalpakanRules {
                    setup_rows: byte(&row.arg(0))?,
                    move_limit: row.arg(1).as_u64().and_then(|v| u16::try_from(v).ok())?,
                };
                new_game(&white, &black, SALPAKAN_WHITE, rules).0
            }
            "challenge" => {
                let mut outcome = 0;
                salpakan_challenge(byte(&row.arg(0))?, byte(&row.arg(1))?, &mut outcome)
            }
            "agent" => {
                let kind = match row.arg(0).as_str()? {
                    "random" => SALPAKAN_AGENT_RANDOM,
                    "greedy" => SALPAKAN_AGENT_GREEDY,
                    _ => SALPAKAN_AGENT_ISMCTS,
                };
                let mut agent = null_mut();
                assert_eq!(
                    salpakan_agent_new(kind, 1, 100, &mut agent),
                    SalpakanResult::Ok
                );
                let mut mv = SalpakanMove { from: 0, to: 0 };
                let result = match row.arg(1).as_str()? {
                    "turn" => salpakan_agent_choose(agent, game.0, SALPAKAN_WHITE, &mut mv),
                    "other" => salpakan_agent_choose(agent, game.0, SALPAKAN_BLACK, &mut mv),
                    "over" => {
                        assert_eq!(
                            salpakan_game_resign(game.0, SALPAKAN_WHITE),
                            SalpakanResult::Ok
                        );
                        salpakan_agent_choose(agent, game.0, SALPAKAN_BLACK, &mut mv)
                    }
                    _ => salpakan_agent_choose(agent, from_text(&game).0, SALPAKAN_WHITE, &mut mv),
                };
                salpakan_agent_free(agent);
                result
            }
            "after-end" => {
                assert_eq!(
                    salpakan_game_resign(game.0, SALPAKAN_WHITE),
                    SalpakanResult::Ok
                );
                match row.arg(0).as_str()? {
                    "play" => {
                        salpakan_game_play(game.0, SalpakanMove { from: 22, to: 31 }, null_mut())
                    }
                    "resign" => salpakan_game_resign(game.0, SALPAKAN_BLACK),
                    "time" => salpakan_game_lose_on_time(game.0, SALPAKAN_BLACK),
                    "abandoned" => salpakan_game_abandon(game.0, SALPAKAN_BLACK),
                    "both-left" => salpakan_game_abandon_by_both(game.0),
                    _ => salpakan_game_agree_draw(game.0),
                }
            }
            "commit" => {
                let salt = salt_bytes(&row.arg(1))?;
                salpakan_game_commit(game.0, byte(&row.arg(0))?, salt.as_ptr(), null_mut())
            }
            "verify" => {
                let record = committed_record(&row.arg(0), &game);
                let mut copy = null_mut();
                match salpakan_game_from_record(record.as_ptr(), &mut copy) {
                    SalpakanResult::Ok => {
                        let copy = Handle(copy);
                        salpakan_game_verify_commitments(copy.0)
                    }
                    refused => refused,
                }
            }
            "record" => read_back(
                &text_arg(&row.arg(0), &game, salpakan_game_record),
                salpakan_game_from_record,
            ),
            "position" => read_back(
                &text_arg(&row.arg(0), &game, salpakan_game_to_text),
                salpakan_game_from_text,
            ),
            "both-left" => {
                let result = salpakan_game_abandon_by_both(game.0);
                let mut status = SalpakanStatus::default();
                assert_eq!(
                    salpakan_game_status(game.0, &mut status),
                    SalpakanResult::Ok
                );
                assert_eq!(
                    (status.state, status.reason),
                    (SALPAKAN_STATE_DRAWN, SALPAKAN_REASON_ABANDONED_BY_BOTH)
                );
                result
            }
            "end" => {
                let loser = byte(&row.arg(1))?;
                match row.arg(0).as_str()? {
                    "time" => salpakan_game_lose_on_time(game.0, loser),
                    _ => salpakan_game_abandon(game.0, loser),
                }
            }
            "beliefs" => {
                let mut p = vec![0.0f64; 72 * 15];
                match row.arg(0) {
                    Value::String(_) => {
                        salpakan_game_beliefs(from_text(&game).0, SALPAKAN_WHITE, p.as_mut_ptr())
                    }
                    value => salpakan_game_beliefs(game.0, byte(&value)?, p.as_mut_ptr()),
                }
            }
            // The replay of knowledge is not in the C ABI (docs/C.md says so).
            "replay" | "replay-beliefs" | "replay-odds" => return None,
            other => panic!("line {}: unknown operation {other}", row.line),
        })
    }
}

#[test]
fn the_c_abi_accepts_and_refuses_every_row_as_the_table_says() {
    let rows = table::rows();
    let (mut ran, mut wrong) = (0, Vec::new());
    for row in &rows {
        let Some(got) = run(row) else { continue };
        ran += 1;
        let expected = match row.expect.as_str() {
            "ok" => SalpakanResult::Ok,
            kind => SalpakanResult::from(kind.parse::<ErrorKind>().expect("a kind")),
        };
        if got != expected {
            wrong.push(format!(
                "line {}: {} {:?}: expected {} ({expected:?}), got {got:?}",
                row.line, row.op, row.words, row.expect
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The rows the C ABI cannot express are words, notation, action ids and numbers outside
    // its integer types; the rest all ran.
    assert!(
        ran >= 50,
        "only {ran} of {} rows ran through the C ABI",
        rows.len()
    );
}
