//! The C ABI's side of the benches: a game handed to it by its setups, and a random game
//! played through its functions alone.

use salpakan::{Game, Side, SplitMix64};
use salpakan_capi::{
    SALPAKAN_MAX_MOVES, SALPAKAN_NO_PIECE, SalpakanGame, SalpakanMove, salpakan_game_clone,
    salpakan_game_free, salpakan_game_legal_moves, salpakan_game_new, salpakan_game_play,
};

/// A C ABI game of `game`'s two setups, White first (free it with `salpakan_game_free`).
pub fn c_game(game: &Game) -> *mut SalpakanGame {
    let cells = |side| {
        let mut cells = [SALPAKAN_NO_PIECE; 72];
        for (square, rank) in game.setup(side).expect("a game from setups").pieces() {
            cells[square.index()] = rank as u8;
        }
        cells
    };
    let (white, black) = (cells(Side::White), cells(Side::Black));
    let mut handle: *mut SalpakanGame = std::ptr::null_mut();
    // SAFETY: 72-byte setups and a valid out-pointer.
    unsafe { salpakan_game_new(white.as_ptr(), black.as_ptr(), 0, &mut handle) };
    assert!(!handle.is_null(), "the C ABI takes the setups");
    handle
}

/// Plays a copy of `handle`'s game by random moves (seed `seed`) through the C functions
/// only, to its end or 20,000 plies; the plies played.
///
/// # Safety
/// `handle` is a live game.
pub unsafe fn random_plies(handle: *const SalpakanGame, seed: u64) -> u64 {
    let mut rng = SplitMix64::new(seed);
    let mut moves = [SalpakanMove { from: 0, to: 0 }; SALPAKAN_MAX_MOVES];
    let mut plies = 0;
    // SAFETY: `handle` is a live game (the caller's promise); the copy is freed once, and the
    // buffers have the sizes passed.
    unsafe {
        let copy = salpakan_game_clone(handle);
        loop {
            let mut count = 0;
            salpakan_game_legal_moves(copy, moves.as_mut_ptr(), moves.len(), &mut count);
            if count == 0 || plies == 20_000 {
                break;
            }
            let mv = moves[rng.below(count as u64) as usize];
            salpakan_game_play(copy, mv, std::ptr::null_mut());
            plies += 1;
        }
        salpakan_game_free(copy);
    }
    plies
}
