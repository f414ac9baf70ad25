//! The game handle and the functions that create, query and play it.

use salpakan::{
    DeclaredEnd, Game, MoveError, MoveList, Observation, Orientation, Rules, Side, Square, ViewCell,
};

use crate::args::{
    arg_ref, move_arg, out, out_array, out_or_none, rules_arg, setup_arg, side_arg, write_prefix,
};
use crate::boundary::guard;
use crate::handle::Handle;
use crate::result::{Failure, FfiResult, SalpakanResult};
use crate::values::{
    SALPAKAN_MAX_PERFT_DEPTH, SALPAKAN_NO_PIECE, SALPAKAN_NO_SIDE, SALPAKAN_RANK_UNKNOWN,
    SalpakanCell, SalpakanMove, SalpakanReport, SalpakanRules, SalpakanStatus,
};

/// An opaque game handle: the arbiter's full game. Create it with `salpakan_game_new` and
/// release it with `salpakan_game_free`.
pub struct SalpakanGame {
    pub(crate) game: Game,
}

impl Handle for SalpakanGame {}

impl From<Game> for SalpakanGame {
    fn from(game: Game) -> SalpakanGame {
        SalpakanGame { game }
    }
}

/// A refused move, resignation or draw: `GAME_OVER` after the end, else `ILLEGAL_MOVE`.
pub(crate) fn move_failure(error: MoveError) -> Failure {
    Failure::of(error.kind(), error.to_string())
}

/// Creates a game and writes it to `*out`.
///
/// # Safety
/// `white` and `black` point to 72 readable bytes (or are NULL); `out` is NULL or writable.
unsafe fn new_game(
    white: *const u8,
    black: *const u8,
    first: u8,
    rules: Rules,
    handle: *mut *mut SalpakanGame,
) -> FfiResult<()> {
    // SAFETY: forwarded from the caller.
    let handle = unsafe { out(handle, "out") }?;
    let first = side_arg(first, "first")?;
    // SAFETY: forwarded from the caller.
    let white = unsafe { setup_arg(white, Side::White, rules, "white") }?;
    // SAFETY: forwarded from the caller.
    let black = unsafe { setup_arg(black, Side::Black, rules, "black") }?;
    let game =
        Game::new(white, black, first, rules).map_err(|e| Failure::of(e.kind(), e.to_string()))?;
    SalpakanGame::from(game).hand_out(handle);
    Ok(())
}

/// Creates a game under the official rules from White's and Black's setups (72 cells each,
/// indexed by square: a rank value or `SALPAKAN_NO_PIECE`) and the side that moves first.
/// Release it with `salpakan_game_free`.
///
/// Errors: `NULL_ARGUMENT`; `INVALID_ARGUMENT` for a side or cell value out of range;
/// `INVALID_SETUP` naming the rank, square or count at fault.
///
/// # Safety
/// `white` and `black` are NULL or point to 72 readable bytes; `out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_new(
    white: *const u8,
    black: *const u8,
    first: u8,
    out: *mut *mut SalpakanGame,
) -> SalpakanResult {
    // SAFETY: forwarded from the caller.
    guard(|| unsafe { new_game(white, black, first, Rules::OFFICIAL, out) })
}

/// As `salpakan_game_new`, with the rule options in `*rules`.
///
/// # Safety
/// As `salpakan_game_new`; `rules` is NULL or points to a `SalpakanRules`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_new_with_rules(
    white: *const u8,
    black: *const u8,
    first: u8,
    rules: *const SalpakanRules,
    out: *mut *mut SalpakanGame,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let rules = rules_arg(unsafe { arg_ref(rules, "rules") }?)?;
        // SAFETY: forwarded from the caller.
        unsafe { new_game(white, black, first, rules, out) }
    })
}

/// Releases a game. `NULL` is a no-op.
///
/// # Safety
/// `game` is NULL or a handle from this library not yet freed; it is not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_free(game: *mut SalpakanGame) {
    guard(|| {
        // SAFETY: forwarded from the caller.
        unsafe { SalpakanGame::free(game) };
        Ok(())
    });
}

/// A copy of the game (its own handle, to be freed), or NULL if `game` is NULL.
///
/// # Safety
/// `game` is NULL or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_clone(game: *const SalpakanGame) -> *mut SalpakanGame {
    let mut copy = std::ptr::null_mut();
    guard(|| {
        // SAFETY: forwarded from the caller.
        let game = unsafe { SalpakanGame::borrow(game, "game") }?;
        copy = SalpakanGame::from(game.game.clone()).into_raw();
        Ok(())
    });
    copy
}

/// Writes the side to move to `*side`.
///
/// # Safety
/// `game` is NULL or a live handle; `side` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_side_to_move(
    game: *const SalpakanGame,
    side: *mut u8,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let (game, side) = unsafe { (SalpakanGame::borrow(game, "game")?, out(side, "side")?) };
        side.write(game.game.side_to_move() as u8);
        Ok(())
    })
}

/// Writes the legal moves of the side to move to `moves` and their number to `*count`. If
/// `capacity` is smaller than the count, writes only `*count` and returns `BUFFER_TOO_SMALL`
/// (`SALPAKAN_MAX_MOVES` is always enough). `moves` may be NULL when `capacity` is 0. A
/// finished game has no legal moves. On success, the elements of `moves` past `*count` (up to
/// `capacity`) are unspecified: the fastest writer stores whole vectors.
///
/// # Safety
/// `game` is NULL or a live handle; `moves` is NULL or has room for `capacity` moves; `count`
/// is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_legal_moves(
    game: *const SalpakanGame,
    moves: *mut SalpakanMove,
    capacity: usize,
    count: *mut usize,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let (game, count) = unsafe { (SalpakanGame::borrow(game, "game")?, out(count, "count")?) };
        if moves.is_null() && capacity > 0 {
            return Err(Failure::null("moves"));
        }
        let position = game.game.position();
        let len = if capacity >= MoveList::CAPACITY {
            // Room for any position's moves: write them straight into the caller's buffer.
            // SAFETY: non-null (checked above, as `capacity > 0`) with room for `capacity >=
            // 84` moves (the caller's promise); a `SalpakanMove` is two bytes, `from` then
            // `to`, exactly a pair (checked at compile time in `values`), with alignment 1.
            let pairs = unsafe { &mut *moves.cast::<[[u8; 2]; MoveList::CAPACITY]>() };
            position.legal_move_pairs(pairs)
        } else {
            let len = position.count_legal_moves() as usize;
            if len > capacity {
                count.write(len);
                return Err(Failure::new(
                    SalpakanResult::BufferTooSmall,
                    format!(
                        "`capacity` is {capacity}, and there are {len} legal moves (SALPAKAN_MAX_MOVES = 84 is always enough)"
                    ),
                ));
            }
            let mut pairs = [[0u8; 2]; MoveList::CAPACITY];
            let len = position.legal_move_pairs(&mut pairs);
            if len > 0 {
                // SAFETY: non-null (checked above, as `capacity >= len > 0`) with room for
                // `capacity` moves; a `SalpakanMove` is exactly a pair (as above).
                unsafe { write_prefix(moves.cast::<[u8; 2]>(), &pairs[..len]) };
            }
            len
        };
        count.write(len);
        Ok(())
    })
}

/// Plays `move` for the side to move and, if `report` is not NULL, writes the arbiter's
/// announcement (never a rank). An illegal move returns `ILLEGAL_MOVE`, a move after the end
/// `GAME_OVER`, a square above 71 `INVALID_ARGUMENT`; the game is then unchanged.
///
/// # Safety
/// `game` is NULL or a live handle not used elsewhere during the call; `report` is NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_play(
    game: *mut SalpakanGame,
    mv: SalpakanMove,
    report: *mut SalpakanReport,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let game = unsafe { SalpakanGame::borrow_mut(game, "game") }?;
        let mv = move_arg(mv)?;
        let played = game.game.play(mv).map_err(move_failure)?;
        // SAFETY: forwarded from the caller (NULL means no report is wanted).
        if let Some(report) = unsafe { out_or_none(report) } {
            report.write(played.into());
        }
        Ok(())
    })
}

/// Writes the game's status to `*status`.
///
/// # Safety
/// `game` is NULL or a live handle; `status` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_status(
    game: *const SalpakanGame,
    status: *mut SalpakanStatus,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let (game, status) =
            unsafe { (SalpakanGame::borrow(game, "game")?, out(status, "status")?) };
        status.write(game.game.status().into());
        Ok(())
    })
}

/// `side` resigns; the other side wins. `GAME_OVER` if the game has ended.
///
/// # Safety
/// `game` is NULL or a live handle not used elsewhere during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_resign(game: *mut SalpakanGame, side: u8) -> SalpakanResult {
    // SAFETY: forwarded from the caller.
    unsafe { declare(game, side, |loser| DeclaredEnd::Resignation { loser }) }
}

/// `side`'s time ran out, as whoever keeps the clocks decides: the other side wins with
/// `SALPAKAN_REASON_TIME`. `GAME_OVER` if the game has ended.
///
/// # Safety
/// `game` is NULL or a live handle not used elsewhere during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_lose_on_time(
    game: *mut SalpakanGame,
    side: u8,
) -> SalpakanResult {
    // SAFETY: forwarded from the caller.
    unsafe { declare(game, side, |loser| DeclaredEnd::Time { loser }) }
}

/// `side` left the game and did not come back in time, as whoever keeps the seats decides:
/// the other side wins with `SALPAKAN_REASON_ABANDONED`. `GAME_OVER` if the game has ended.
///
/// # Safety
/// `game` is NULL or a live handle not used elsewhere during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_abandon(
    game: *mut SalpakanGame,
    side: u8,
) -> SalpakanResult {
    // SAFETY: forwarded from the caller.
    unsafe { declare(game, side, |loser| DeclaredEnd::Abandoned { loser }) }
}

/// Both sides left the game and neither came back in time, as whoever keeps the seats
/// decides: drawn with `SALPAKAN_REASON_ABANDONED_BY_BOTH`. `GAME_OVER` if the game has ended.
///
/// # Safety
/// `game` is NULL or a live handle not used elsewhere during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_abandon_by_both(game: *mut SalpakanGame) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let game = unsafe { SalpakanGame::borrow_mut(game, "game") }?;
        game.game
            .declare(DeclaredEnd::AbandonedByBoth)
            .map_err(move_failure)?;
        Ok(())
    })
}

/// Ends `game` with the end `make` gives for the losing `side`.
///
/// # Safety
/// `game` is NULL or a live handle not used elsewhere during the call.
unsafe fn declare(
    game: *mut SalpakanGame,
    side: u8,
    make: impl FnOnce(Side) -> DeclaredEnd,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let game = unsafe { SalpakanGame::borrow_mut(game, "game") }?;
        let loser = side_arg(side, "side")?;
        game.game.declare(make(loser)).map_err(move_failure)?;
        Ok(())
    })
}

/// Both sides agree to a draw. `GAME_OVER` if the game has ended.
///
/// # Safety
/// `game` is NULL or a live handle not used elsewhere during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_agree_draw(game: *mut SalpakanGame) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let game = unsafe { SalpakanGame::borrow_mut(game, "game") }?;
        game.game.agree_draw().map_err(move_failure)?;
        Ok(())
    })
}

/// Writes the board as `side` sees it to `cells` (72 cells indexed by square): its own pieces
/// with their ranks, enemy pieces with `SALPAKAN_RANK_UNKNOWN`, empty squares as
/// `{SALPAKAN_NO_SIDE, SALPAKAN_NO_PIECE}`.
///
/// # Safety
/// `game` is NULL or a live handle; `cells` is NULL or has room for 72 cells.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_view(
    game: *const SalpakanGame,
    side: u8,
    cells: *mut SalpakanCell,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let game = unsafe { SalpakanGame::borrow(game, "game") }?;
        let side = side_arg(side, "side")?;
        // SAFETY: forwarded from the caller.
        let cells = unsafe { out_array::<_, { Square::NUM }>(cells, "cells") }?;
        let view = game.game.view(side);
        let empty = SalpakanCell {
            side: SALPAKAN_NO_SIDE,
            rank: SALPAKAN_NO_PIECE,
        };
        cells.write(std::array::from_fn(|i| match view.cells()[i] {
            ViewCell::Empty => empty,
            ViewCell::Own { rank, .. } => SalpakanCell {
                side: side as u8,
                rank: rank as u8,
            },
            ViewCell::Enemy { .. } => SalpakanCell {
                side: side.other() as u8,
                rank: SALPAKAN_RANK_UNKNOWN,
            },
        }));
        Ok(())
    })
}

/// Writes the board as a spectator sees it to `cells` (72 cells indexed by square): every
/// piece with its side and `SALPAKAN_RANK_UNKNOWN`, empty squares as
/// `{SALPAKAN_NO_SIDE, SALPAKAN_NO_PIECE}`. Nothing in it depends on a hidden rank.
///
/// # Safety
/// `game` is NULL or a live handle; `cells` is NULL or has room for 72 cells.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_public_view(
    game: *const SalpakanGame,
    cells: *mut SalpakanCell,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let game = unsafe { SalpakanGame::borrow(game, "game") }?;
        // SAFETY: forwarded from the caller.
        let cells = unsafe { out_array::<_, { Square::NUM }>(cells, "cells") }?;
        let view = game.game.public_view();
        cells.write(std::array::from_fn(|i| match view.cells()[i] {
            None => SalpakanCell {
                side: SALPAKAN_NO_SIDE,
                rank: SALPAKAN_NO_PIECE,
            },
            Some(id) => SalpakanCell {
                side: id.side() as u8,
                rank: SALPAKAN_RANK_UNKNOWN,
            },
        }));
        Ok(())
    })
}

/// Writes perft of the current position at `depth` to `*nodes` (the rulebook: the number of
/// move sequences of that length; 0 for a finished game at depth 1 or more). A `depth` above
/// `SALPAKAN_MAX_PERFT_DEPTH` is `SALPAKAN_RESULT_INVALID_ARGUMENT`. Cost grows about 30-fold a
/// ply from the start position (docs/PERFORMANCE.md gives the times), so keep depths small.
///
/// # Safety
/// `game` is NULL or a live handle; `nodes` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_perft(
    game: *const SalpakanGame,
    depth: u32,
    nodes: *mut u64,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let (game, nodes) = unsafe { (SalpakanGame::borrow(game, "game")?, out(nodes, "nodes")?) };
        if depth > SALPAKAN_MAX_PERFT_DEPTH {
            return Err(Failure::invalid(format!(
                "`depth` is {depth}, above SALPAKAN_MAX_PERFT_DEPTH ({SALPAKAN_MAX_PERFT_DEPTH}); each ply costs about 30 times the last"
            )));
        }
        nodes.write(game.game.perft(depth));
        Ok(())
    })
}

/// Plays uniformly random legal moves (from `seed`) on a copy of the game until it ends or
/// `max_plies` plies were played, and writes the final status and the plies played. The game
/// itself is unchanged; the same arguments give the same result.
///
/// # Safety
/// `game` is NULL or a live handle; `status` and `plies` are NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_playout(
    game: *const SalpakanGame,
    seed: u64,
    max_plies: u32,
    status: *mut SalpakanStatus,
    plies: *mut u32,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let (game, status, plies) = unsafe {
            (
                SalpakanGame::borrow(game, "game")?,
                out(status, "status")?,
                out(plies, "plies")?,
            )
        };
        let playout = game.game.playout(seed, max_plies);
        status.write(playout.status.into());
        plies.write(playout.plies);
        Ok(())
    })
}

/// Writes the legal moves as a mask of action ids to `mask` (36 bytes): action id
/// `square * 4 + direction` (direction 0 up = towards row 8, 1 down, 2 left = towards file a,
/// 3 right), bit `id % 8` of byte `id / 8` set for each legal action. All zero once the game
/// has ended.
///
/// # Safety
/// `game` is NULL or a live handle; `mask` is NULL or has room for 36 bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_legal_action_mask(
    game: *const SalpakanGame,
    mask: *mut u8,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let (game, mask) = unsafe {
            (
                SalpakanGame::borrow(game, "game")?,
                out_array::<_, { salpakan::Move::NUM_ACTIONS / 8 }>(mask, "mask")?,
            )
        };
        mask.write(*game.game.legal_action_mask().bytes());
        Ok(())
    })
}

/// Writes beliefs by square (`rows`, or its error) to the caller's `probabilities`: 72 rows
/// of 15 doubles, square-major.
///
/// # Safety
/// `probabilities` is NULL or has room for 1,080 doubles.
pub(crate) unsafe fn write_beliefs(
    rows: Result<[[f64; salpakan::Rank::NUM]; Square::NUM], salpakan::ObserveError>,
    probabilities: *mut f64,
) -> FfiResult<()> {
    // SAFETY: forwarded from the caller.
    let out = unsafe {
        out_array::<_, { Square::NUM * salpakan::Rank::NUM }>(probabilities, "probabilities")
    }?;
    let rows = rows.map_err(|e| Failure::of(e.kind(), e.to_string()))?;
    out.write(
        rows.as_flattened()
            .try_into()
            .expect("72 rows of 15 probabilities"),
    );
    Ok(())
}

/// Writes `side`'s beliefs to `probabilities` (72 × 15 doubles): `probabilities[square * 15 +
/// rank]`. For an enemy piece, the exact probability that it has that rank given everything
/// `side` has seen, under uniformly random setups; for `side`'s own piece, 1 at its rank; for
/// an empty square, all 0.
///
/// # Safety
/// `game` is NULL or a live handle; `probabilities` is NULL or has room for 1080 doubles.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_beliefs(
    game: *const SalpakanGame,
    side: u8,
    probabilities: *mut f64,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let game = unsafe { SalpakanGame::borrow(game, "game") }?;
        let side = side_arg(side, "side")?;
        let rows = game
            .game
            .tracker(side)
            .and_then(|tracker| tracker.beliefs_by_square());
        // SAFETY: forwarded from the caller.
        unsafe { write_beliefs(rows, probabilities) }
    })
}

/// Writes `side`'s observation tensor to `out`: `SALPAKAN_OBSERVATION_LEN` floats,
/// `SALPAKAN_OBSERVATION_PLANES` planes of 8 rows × 9 files, row-major, with the viewer playing
/// "up" (row 0 is `side`'s home row). The planes are documented on the Rust type
/// `salpakan::Observation`: own ranks, enemy presence, the exact posterior of each enemy
/// piece's rank, the last move, waiting Flags, side to move and the move-limit count. It
/// depends only on what `side` may know. Buffer rules of the text functions: `*len` is the
/// number of floats; a capacity below it writes only `*len` and returns `BUFFER_TOO_SMALL`
/// (`out` may be NULL with capacity 0 to ask). A game started from a position text has no
/// history to observe: `INVALID_ARGUMENT`.
///
/// # Safety
/// `game` is NULL or a live handle; `out` is NULL or has room for `capacity` floats; `len` is
/// NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_observation(
    game: *const SalpakanGame,
    side: u8,
    out: *mut f32,
    capacity: usize,
    len: *mut usize,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let game = unsafe { SalpakanGame::borrow(game, "game") }?;
        let side = side_arg(side, "side")?;
        // SAFETY: forwarded from the caller.
        let len = unsafe { crate::args::out(len, "len") }?;
        let needed = Observation::LEN;
        if capacity < needed {
            len.write(needed);
            return Err(Failure::new(
                SalpakanResult::BufferTooSmall,
                format!(
                    "`capacity` is {capacity}; the observation has {needed} floats (SALPAKAN_OBSERVATION_LEN)"
                ),
            ));
        }
        // SAFETY: forwarded from the caller, who promised room for `capacity >= needed`.
        let tensor = unsafe { out_array::<_, { Observation::LEN }>(out, "out") }?;
        let observation = game
            .game
            .observation(side, Orientation::ViewerUp)
            .map_err(|e| Failure::of(e.kind(), e.to_string()))?;
        tensor.write(
            observation
                .as_slice()
                .try_into()
                .expect("an observation's length"),
        );
        len.write(needed);
        Ok(())
    })
}

/// Writes to `*out` a new game that `side` cannot tell from `game`: the same squares, the same
/// own ranks, the same public history, with the enemy's ranks drawn exactly from `side`'s
/// posterior (seeded: the same arguments give the same sample) and every piece of hidden state,
/// such as a waiting Flag, consistent with them. Free it with `salpakan_game_free`.
///
/// # Safety
/// `game` is NULL or a live handle; `out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn salpakan_game_sample(
    game: *const SalpakanGame,
    side: u8,
    seed: u64,
    out: *mut *mut SalpakanGame,
) -> SalpakanResult {
    guard(|| {
        // SAFETY: forwarded from the caller.
        let game = unsafe { SalpakanGame::borrow(game, "game") }?;
        let side = side_arg(side, "side")?;
        // SAFETY: forwarded from the caller.
        let handle = unsafe { crate::args::out(out, "out") }?;
        let sample = game
            .game
            .sample(side, seed)
            .map_err(|e| Failure::of(e.kind(), e.to_string()))?;
        SalpakanGame::from(sample).hand_out(handle);
        Ok(())
    })
}
