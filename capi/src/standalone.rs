//! Functions that need no game: errors, names, version, random setups and the arbiter.

use std::ffi::c_char;

use salpakan::{Rules, Setup, Square, challenge};

use crate::args::{out, out_array, rank_arg, side_arg};
use crate::boundary::{guard, last_error_ptr};
use crate::result::{Failure, SalpakanResult};
use crate::values::SALPAKAN_NO_PIECE;

/// A NUL-terminated message about the most recent call on this thread, if it failed (which
/// rank is over-counted, which square is outside the zone, which argument is NULL...), or NULL
/// if it succeeded. Every `salpakan_*` call clears it first, except three that leave it as it
/// was: `salpakan_last_error` itself, `salpakan_result_name` and `salpakan_version` (so a
/// failure's message can be read and its code named, in either order). The text stays valid
/// until the next call on this thread that clears it; do not free it.
#[unsafe(no_mangle)]
pub extern "C" fn salpakan_last_error() -> *const c_char {
    last_error_ptr()
}

/// The name of a result code (`"SALPAKAN_RESULT_OK"`, ...), or `"SALPAKAN_RESULT_UNKNOWN"` for a
/// number that is not one. A static string: do not free it. Leaves `salpakan_last_error` as it
/// was.
#[unsafe(no_mangle)]
pub extern "C" fn salpakan_result_name(result: u32) -> *const c_char {
    let name = SalpakanResult::from_code(result)
        .map_or("SALPAKAN_RESULT_UNKNOWN\0", SalpakanResult::name_with_nul);
    name.as_ptr().cast()
}

/// The library's version, `"MAJOR.MINOR.PATCH"`. A static string: do not free it. Leaves
/// `salpakan_last_error` as it was.
#[unsafe(no_mangle)]
pub extern "C" fn salpakan_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// Writes a uniformly random valid setup for `side` into `cells` (72 cells indexed by square:
/// a rank value or `SALPAKAN_NO_PIECE`), for a setup zone of `setup_rows` rows (3 or 4). The
/// same arguments give the same setup on every platform, so a seed is a key: a formation
/// played against a person needs a secret seed of 64 bits from the operating system's
/// generator (`getrandom(2)`, `/dev/urandom`, `BCryptGenRandom`), never a clock, a counter
/// or `rand()`. Small fixed seeds are for tests and bots playing bots.
///
/// # Safety
/// `cells` is NULL or has room for 72 bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_random_setup(
    side: u8,
    setup_rows: u8,
    seed: u64,
    cells: *mut u8,
) -> SalpakanResult {
    guard(|| {
        let side = side_arg(side, "side")?;
        let rules = Rules::new(setup_rows, 0)
            .map_err(|e| Failure::of(e.kind(), format!("argument `setup_rows`: {e}")))?;
        // SAFETY: forwarded from the caller.
        let cells = unsafe { out_array::<_, { Square::NUM }>(cells, "cells") }?;
        let setup = Setup::random(side, rules, seed);
        let mut values = [SALPAKAN_NO_PIECE; Square::NUM];
        for (square, rank) in setup.pieces() {
            values[square.index()] = rank as u8;
        }
        cells.write(values);
        Ok(())
    })
}

/// Writes the arbiter's outcome, from the attacker's side, of `attacker` challenging
/// `defender` (both rank values 0..14) to `*outcome`.
///
/// # Safety
/// `outcome` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_challenge(
    attacker: u8,
    defender: u8,
    outcome: *mut u8,
) -> SalpakanResult {
    guard(|| {
        let attacker = rank_arg(attacker, "attacker")?;
        let defender = rank_arg(defender, "defender")?;
        // SAFETY: forwarded from the caller.
        let outcome = unsafe { out(outcome, "outcome") }?;
        outcome.write(challenge(attacker, defender) as u8);
        Ok(())
    })
}
