//! The text formats through the C ABI: position text, view text and game records.

use std::ffi::{CStr, c_char};

use salpakan::text::TextError;
use salpakan::{Game, Position};

use crate::args::{out, side_arg, write_prefix};
use crate::boundary::guard;
use crate::game::SalpakanGame;
use crate::handle::Handle;
use crate::result::{Failure, FfiResult, SalpakanResult};

/// Writes `text` to a caller's buffer under the C ABI's buffer rules (the header's notes):
/// `*len` is the length without the NUL; if `capacity < *len + 1` only `*len` is written and the
/// result is `BUFFER_TOO_SMALL` (`buf` may then be NULL); otherwise the text is written
/// NUL-terminated. Every argument is checked before anything is written: a NULL `buf` with a
/// `capacity` large enough is `NULL_ARGUMENT`, with nothing written.
///
/// # Safety
/// `buf` is NULL or has room for `capacity` bytes; `len` is NULL or writable.
unsafe fn write_text(
    text: &str,
    buf: *mut c_char,
    capacity: usize,
    len: *mut usize,
) -> FfiResult<()> {
    // SAFETY: forwarded from the caller.
    let len = unsafe { out(len, "len") }?;
    let needed = text.len() + 1;
    if capacity < needed {
        len.write(text.len());
        return Err(Failure::new(
            SalpakanResult::BufferTooSmall,
            format!("`capacity` is {capacity}; the text needs {needed} bytes with its NUL"),
        ));
    }
    if buf.is_null() {
        return Err(Failure::new(
            SalpakanResult::NullArgument,
            format!("argument `buf` is NULL, and `capacity` is {capacity}"),
        ));
    }
    let mut bytes = Vec::with_capacity(needed);
    bytes.extend_from_slice(text.as_bytes());
    bytes.push(0);
    // SAFETY: non-null with room for `capacity >= text.len() + 1` bytes.
    unsafe { write_prefix(buf.cast::<u8>(), &bytes) };
    len.write(text.len());
    Ok(())
}

/// Writes a text made from the game to the caller's buffer (see [`write_text`]).
///
/// # Safety
/// `game` is NULL or a live handle; `buf` is NULL or has room for `capacity` bytes; `len` is
/// NULL or writable.
unsafe fn game_text(
    game: *const SalpakanGame,
    buf: *mut c_char,
    capacity: usize,
    len: *mut usize,
    text: impl FnOnce(&Game) -> FfiResult<String>,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let game = unsafe { SalpakanGame::borrow(game, "game") }?;
        let text = text(&game.game)?;
        // SAFETY: forwarded from the caller.
        unsafe { write_text(&text, buf, capacity, len) }
    })
}

/// Reads a NUL-terminated UTF-8 string from C.
///
/// # Safety
/// `text` is NULL or a NUL-terminated string.
unsafe fn read_text<'a>(text: *const c_char) -> FfiResult<&'a str> {
    if text.is_null() {
        return Err(Failure::null("text"));
    }
    // SAFETY: non-null and NUL-terminated (the caller's promise).
    let bytes = unsafe { CStr::from_ptr(text) };
    bytes.to_str().map_err(|e| {
        Failure::new(
            SalpakanResult::Parse,
            format!(
                "the text is not UTF-8: invalid byte at offset {}",
                e.valid_up_to()
            ),
        )
    })
}

/// Parses a C string into a game and hands the new handle to `*out`.
///
/// # Safety
/// `text` is NULL or a NUL-terminated string; `out` is NULL or writable.
unsafe fn game_from_text(
    text: *const c_char,
    handle: *mut *mut SalpakanGame,
    parse: impl FnOnce(&str) -> Result<Game, TextError>,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let handle = unsafe { out(handle, "out") }?;
        // SAFETY: forwarded from the caller.
        let text = unsafe { read_text(text) }?;
        let game = parse(text).map_err(|e| Failure::of(e.kind(), e.to_string()))?;
        SalpakanGame::from(game).hand_out(handle);
        Ok(())
    })
}

/// Writes the game's position text: one line with every rank, the side to move, any waiting
/// Flag, the counters, the rules and the status (the crate's `PositionText` documents the grammar). The buffer
/// rules of the header's notes: `*len` without the NUL; too small a `capacity` writes nothing and
/// returns `BUFFER_TOO_SMALL` (`buf` may be NULL when `capacity` is 0).
///
/// # Safety
/// `game` is NULL or a live handle; `buf` is NULL or has room for `capacity` bytes; `len` is
/// NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_to_text(
    game: *const SalpakanGame,
    buf: *mut c_char,
    capacity: usize,
    len: *mut usize,
) -> SalpakanResult {
    // SAFETY: forwarded from the caller.
    unsafe { game_text(game, buf, capacity, len, |g| Ok(g.position().to_string())) }
}

/// Creates a game from a position text; play continues exactly as it would have. The game has
/// no setups or history, so beliefs and samples are refused for it. `PARSE` with the line,
/// column and what was expected for malformed text.
///
/// # Safety
/// `text` is NULL or a NUL-terminated string; `out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_from_text(
    text: *const c_char,
    out: *mut *mut SalpakanGame,
) -> SalpakanResult {
    // SAFETY: forwarded from the caller.
    unsafe {
        game_from_text(text, out, |text| {
            text.parse::<Position>().map(Game::from_position)
        })
    }
}

/// Writes the position text as `side` sees it: enemy ranks as `XX`/`xx`, no hidden state such
/// as a waiting enemy Flag. Buffer rules as `salpakan_game_to_text`.
///
/// # Safety
/// As `salpakan_game_to_text`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_view_text(
    game: *const SalpakanGame,
    side: u8,
    buf: *mut c_char,
    capacity: usize,
    len: *mut usize,
) -> SalpakanResult {
    // SAFETY: forwarded from the caller.
    unsafe {
        game_text(game, buf, capacity, len, |g| {
            Ok(g.view(side_arg(side, "side")?).to_text().to_string())
        })
    }
}

/// Writes the position text as a spectator sees it: every piece hidden (`XX`/`xx`), no hidden
/// state. Buffer rules as `salpakan_game_to_text`.
///
/// # Safety
/// As `salpakan_game_to_text`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_public_view_text(
    game: *const SalpakanGame,
    buf: *mut c_char,
    capacity: usize,
    len: *mut usize,
) -> SalpakanResult {
    // SAFETY: forwarded from the caller.
    unsafe {
        game_text(game, buf, capacity, len, |g| {
            Ok(g.public_view().to_text().to_string())
        })
    }
}

/// Writes the game record: rules, both setups (or the start position), who moved first, every
/// move with its announcement and the result. Buffer rules as `salpakan_game_to_text`.
///
/// # Safety
/// As `salpakan_game_to_text`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_record(
    game: *const SalpakanGame,
    buf: *mut c_char,
    capacity: usize,
    len: *mut usize,
) -> SalpakanResult {
    // SAFETY: forwarded from the caller.
    unsafe { game_text(game, buf, capacity, len, |g| Ok(g.record())) }
}

/// Creates a game by replaying a record: the game, its history and so its beliefs are rebuilt
/// exactly. `PARSE` for malformed text, an illegal move, or a move whose announcement (or the
/// result) differs from the replay, naming the line and column.
///
/// # Safety
/// `text` is NULL or a NUL-terminated string; `out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_from_record(
    text: *const c_char,
    out: *mut *mut SalpakanGame,
) -> SalpakanResult {
    // SAFETY: forwarded from the caller.
    unsafe { game_from_text(text, out, Game::from_record) }
}
