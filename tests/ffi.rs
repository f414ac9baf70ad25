//! The C ABI called from Rust: its answers equal the Rust API's for the same game.

use salpakan::ffi::*;
use salpakan::{Game, Rules, Setup, Side, Status};

fn cells(game: &Game, side: Side) -> [u8; 72] {
    let mut cells = [SALPAKAN_NO_PIECE; 72];
    for (square, rank) in game.setup(side).expect("a game from setups").pieces() {
        cells[square.index()] = rank as u8;
    }
    cells
}

/// The same game as a Rust value and as a C handle.
fn both(seed: u64) -> (Game, *mut SalpakanGame) {
    let rules = Rules::default();
    let game = Game::new(
        Setup::random(Side::White, rules, seed),
        Setup::random(Side::Black, rules, seed + 1),
        Side::White,
        rules,
    )
    .unwrap();
    let (white, black) = (cells(&game, Side::White), cells(&game, Side::Black));
    let mut handle = std::ptr::null_mut();
    // SAFETY: two 72-byte arrays and a valid out-pointer.
    let result = unsafe { salpakan_game_new(white.as_ptr(), black.as_ptr(), 0, &mut handle) };
    assert_eq!(result, SALPAKAN_RESULT_OK);
    (game, handle)
}

#[test]
fn playouts_through_c_equal_the_rust_playouts() {
    for seed in 0..20 {
        let (game, handle) = both(seed);
        let mut status = SalpakanStatus {
            state: 9,
            winner: 9,
            reason: 9,
        };
        let mut plies = 0;
        // SAFETY: a live handle and valid out-pointers.
        let result =
            unsafe { salpakan_game_playout(handle, seed, 100_000, &mut status, &mut plies) };
        assert_eq!(result, SALPAKAN_RESULT_OK);
        let expected = game.playout(seed, 100_000);
        assert_eq!(plies, expected.plies);
        assert_eq!(status, SalpakanStatus::from(expected.status));
        assert!(!matches!(expected.status, Status::Ongoing));
        // SAFETY: the handle made above, freed once.
        unsafe { salpakan_game_free(handle) };
    }
}

#[test]
fn legal_moves_and_masks_through_c_equal_the_rust_ones() {
    let (mut game, handle) = both(77);
    let mut rng = salpakan::SplitMix64::new(3);
    for _ in 0..200 {
        let mut moves = [SalpakanMove { from: 0, to: 0 }; SALPAKAN_MAX_MOVES];
        let mut count = 0;
        let mut mask = [0u8; SALPAKAN_ACTION_MASK_BYTES];
        // SAFETY: a live handle and buffers of the sizes passed.
        unsafe {
            salpakan_game_legal_moves(handle, moves.as_mut_ptr(), moves.len(), &mut count);
            salpakan_game_legal_action_mask(handle, mask.as_mut_ptr());
        }
        let rust = game.legal_moves();
        assert_eq!(count, rust.len());
        for (c, r) in moves.iter().zip(rust.iter()) {
            assert_eq!(
                (usize::from(c.from), usize::from(c.to)),
                (r.from.index(), r.to.index())
            );
        }
        assert_eq!(&mask, game.legal_action_mask().bytes());
        let Some(mv) = game.position().random_move(&mut rng) else {
            break;
        };
        let rust_report = game.play(mv).unwrap();
        let mut report = SalpakanReport {
            challenge: 9,
            outcome: 9,
            status: SalpakanStatus {
                state: 9,
                winner: 9,
                reason: 9,
            },
        };
        let c_move = SalpakanMove {
            from: mv.from.index() as u8,
            to: mv.to.index() as u8,
        };
        // SAFETY: a live handle and a valid report pointer.
        assert_eq!(
            unsafe { salpakan_game_play(handle, c_move, &mut report) },
            SALPAKAN_RESULT_OK
        );
        assert_eq!(report, SalpakanReport::from(rust_report));
    }
    // SAFETY: the handle made above, freed once.
    unsafe { salpakan_game_free(handle) };
}
