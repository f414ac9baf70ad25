//! Formation commitments through the C ABI: an arbiter commits each side to its formation
//! before the first move and opens the commitments at the end; anyone holding the record
//! checks them (the crate's `Commitment` documents the scheme).

use salpakan::commitment::{Commitment, Salt};
use salpakan::{Game, Side};

use crate::args::{arg_array, out_or_none, side_arg};
use crate::boundary::guard;
use crate::game::SalpakanGame;
use crate::handle::Handle;
use crate::result::{Failure, FfiResult, SalpakanResult};

/// Bytes in a formation commitment's salt (128 bits).
pub const SALPAKAN_SALT_BYTES: usize = 16;
/// Bytes in a formation commitment (a SHA-256 digest).
pub const SALPAKAN_COMMITMENT_BYTES: usize = 32;

/// The game, side and salt arguments of a call that records a commitment or a salt.
///
/// # Safety
/// `game` is NULL or a live handle not used elsewhere during the call; `salt` is NULL or
/// points to 16 readable bytes.
unsafe fn salted<'a>(
    game: *mut SalpakanGame,
    side: u8,
    salt: *const u8,
) -> FfiResult<(&'a mut Game, Side, Salt)> {
    // SAFETY: forwarded from the caller.
    let (game, salt) = unsafe {
        (
            SalpakanGame::borrow_mut(game, "game")?,
            arg_array::<u8, SALPAKAN_SALT_BYTES>(salt, "salt")?,
        )
    };
    Ok((
        &mut game.game,
        side_arg(side, "side")?,
        Salt::from_bytes(*salt),
    ))
}

/// Commits `side` to its formation with the secret `salt` (`SALPAKAN_SALT_BYTES` bytes from
/// the operating system's generator), before the first move: the commitment is recorded in
/// the game (the record's `WhiteCommitment` or `BlackCommitment` tag) and, unless
/// `commitment` is NULL, written there (`SALPAKAN_COMMITMENT_BYTES` bytes) to be published.
/// `NOT_VERIFIED` for a game made from a position (it has no formations to commit to).
///
/// # Safety
/// `game` is NULL or a live handle not used elsewhere during the call; `salt` is NULL or
/// points to 16 readable bytes; `commitment` is NULL or has room for 32 bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_commit(
    game: *mut SalpakanGame,
    side: u8,
    salt: *const u8,
    commitment: *mut u8,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let (game, side, salt) = unsafe { salted(game, side, salt) }?;
        let made = game
            .commit(side, &salt)
            .map_err(|e| Failure::of(e.kind(), e.to_string()))?;
        // SAFETY: the caller promises room for 32 bytes when not NULL.
        if let Some(out) =
            unsafe { out_or_none(commitment.cast::<[u8; SALPAKAN_COMMITMENT_BYTES]>()) }
        {
            out.write(*made.as_bytes());
        }
        Ok(())
    })
}

/// Opens `side`'s commitment at the end of the game: its `salt` is recorded (the record's
/// `WhiteSalt` or `BlackSalt` tag) beside the formation the record always carries. An
/// arbiter never opens the commitments of a game called off before its first move.
///
/// # Safety
/// `game` is NULL or a live handle not used elsewhere during the call; `salt` is NULL or
/// points to 16 readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_open_commitment(
    game: *mut SalpakanGame,
    side: u8,
    salt: *const u8,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let (game, side, salt) = unsafe { salted(game, side, salt) }?;
        game.open_commitment(side, &salt);
        Ok(())
    })
}

/// Checks the game's formation commitments: each side's formation and salt (the record's
/// `WhiteSalt` and `BlackSalt` tags) give the commitment its `WhiteCommitment` or
/// `BlackCommitment` tag says was published before the first move. With
/// `salpakan_game_from_record`, which refuses a record whose announcements the formations do
/// not give, this is the whole check of an arbiter's game. `NOT_VERIFIED` names, in
/// `salpakan_last_error()`, the tag missing or unreadable or the side whose commitment fails.
///
/// # Safety
/// `game` is NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_verify_commitments(
    game: *const SalpakanGame,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let game = unsafe { SalpakanGame::borrow(game, "game") }?;
        game.game
            .verify_commitments()
            .map_err(|e| Failure::of(e.kind(), e.to_string()))
    })
}

// The header's sizes are the crate's.
const _: () = assert!(SALPAKAN_SALT_BYTES == Salt::BYTES);
const _: () = assert!(SALPAKAN_COMMITMENT_BYTES == Commitment::BYTES);
