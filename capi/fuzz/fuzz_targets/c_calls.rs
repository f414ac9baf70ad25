//! The C ABI's calls in sequence: a byte string decoded into calls on up to four games (create,
//! clone, free, play, resign, agree, list, view, beliefs, sample, texts, records, perft,
//! playouts, masks, with arguments good and bad). After every call that fails, the game it was
//! made on must be exactly as before (its record and position text unchanged), and outputs must
//! be untouched but for the documented length or count. Never a crash, never a panic.
#![no_main]

use std::ffi::c_char;

use libfuzzer_sys::fuzz_target;
use salpakan_capi::*;

/// The game's record and position text: everything a failed call must leave as it was.
unsafe fn state(game: *const SalpakanGame) -> (Vec<u8>, Vec<u8>) {
    let mut out = (Vec::new(), Vec::new());
    for (f, slot) in [
        (
            salpakan_game_record as unsafe extern "C" fn(_, _, _, _) -> _,
            &mut out.0,
        ),
        (salpakan_game_to_text, &mut out.1),
    ] {
        let mut len = 0usize;
        // SAFETY: a live handle; a size query, then a buffer of the size it asked for.
        unsafe {
            assert_eq!(
                f(game, std::ptr::null_mut(), 0, &mut len),
                SalpakanResult::BufferTooSmall
            );
            let mut buf = vec![0 as c_char; len + 1];
            assert_eq!(
                f(game, buf.as_mut_ptr(), buf.len(), &mut len),
                SalpakanResult::Ok
            );
            *slot = buf.iter().map(|&c| c as u8).collect();
        }
    }
    out
}

#[path = "../shared/bytes.rs"]
mod bytes;
use bytes::Bytes;

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let mut games: Vec<*mut SalpakanGame> = Vec::new();
    // SAFETY: every handle in `games` is live (freed ones are removed), every buffer has the
    // size passed, and every out-pointer is valid or NULL on purpose.
    unsafe {
        while let Some(op) = bytes.next() {
            if games.is_empty() || op % 23 == 0 {
                if games.len() < 4 {
                    let (mut white, mut black) = ([0u8; 72], [0u8; 72]);
                    let seed = bytes.u64();
                    let rows = 3 + (seed & 1) as u8;
                    assert_eq!(
                        salpakan_random_setup(0, rows, seed, white.as_mut_ptr()),
                        SalpakanResult::Ok
                    );
                    assert_eq!(
                        salpakan_random_setup(1, rows, !seed, black.as_mut_ptr()),
                        SalpakanResult::Ok
                    );
                    let rules = SalpakanRules {
                        setup_rows: rows,
                        move_limit: (seed >> 8) as u16 % 64,
                    };
                    let mut game = std::ptr::null_mut();
                    let first = bytes.next().unwrap_or(0) % 3; // 2 is invalid
                    let result = salpakan_game_new_with_rules(
                        white.as_ptr(),
                        black.as_ptr(),
                        first,
                        &rules,
                        &mut game,
                    );
                    assert_eq!(result == SalpakanResult::Ok, first < 2);
                    assert_eq!(game.is_null(), first >= 2, "out written only on OK");
                    if !game.is_null() {
                        games.push(game);
                    }
                }
                continue;
            }
            let index = usize::from(bytes.next().unwrap_or(0)) % games.len();
            let game = games[index];
            let before = state(game);
            let arg = bytes.next().unwrap_or(0);
            let result = match op % 16 {
                0 => {
                    let mut moves = [SalpakanMove { from: 0, to: 0 }; SALPAKAN_MAX_MOVES];
                    let mut count = 0usize;
                    let r = salpakan_game_legal_moves(
                        game,
                        moves.as_mut_ptr(),
                        moves.len(),
                        &mut count,
                    );
                    if r == SalpakanResult::Ok && count > 0 {
                        let mv = moves[usize::from(arg) % count];
                        assert_eq!(
                            salpakan_game_play(game, mv, std::ptr::null_mut()),
                            SalpakanResult::Ok
                        );
                        continue;
                    }
                    r
                }
                1 => {
                    // Any move at all, legal or not, with squares that may be off the board.
                    let mv = SalpakanMove {
                        from: arg % 80,
                        to: bytes.next().unwrap_or(0) % 80,
                    };
                    let mut report = SalpakanReport {
                        challenge: 9,
                        outcome: 9,
                        status: SalpakanStatus {
                            state: 9,
                            winner: 9,
                            reason: 9,
                        },
                    };
                    let r = salpakan_game_play(game, mv, &mut report);
                    if r != SalpakanResult::Ok {
                        assert_eq!(report.challenge, 9, "no report on failure");
                    }
                    r
                }
                2 => salpakan_game_resign(game, arg % 3),
                3 => salpakan_game_agree_draw(if arg % 5 == 0 {
                    std::ptr::null_mut()
                } else {
                    game
                }),
                4 => {
                    let mut cells = [SalpakanCell { rank: 7, side: 7 }; 72];
                    let r = salpakan_game_view(game, arg % 3, cells.as_mut_ptr());
                    if r != SalpakanResult::Ok {
                        assert!(
                            cells.iter().all(|c| c.side == 7 && c.rank == 7),
                            "nothing written on failure"
                        );
                    }
                    r
                }
                5 => {
                    let mut p = [-1.0f64; 72 * 15];
                    let r = salpakan_game_beliefs(game, arg % 3, p.as_mut_ptr());
                    if r != SalpakanResult::Ok {
                        assert!(p.iter().all(|&x| x == -1.0));
                    }
                    r
                }
                6 => {
                    let mut out = std::ptr::null_mut();
                    let r = salpakan_game_sample(game, arg % 3, bytes.u64(), &mut out);
                    assert_eq!(out.is_null(), r != SalpakanResult::Ok);
                    if !out.is_null() {
                        salpakan_game_free(out);
                    }
                    r
                }
                7 => {
                    let mut nodes = 77u64;
                    let depth = u32::from(arg % 4) + if arg > 250 { 40 } else { 0 };
                    let r = salpakan_game_perft(game, depth, &mut nodes);
                    if r != SalpakanResult::Ok {
                        assert_eq!(nodes, 77);
                    }
                    r
                }
                8 => {
                    let (mut status, mut plies) = (SalpakanStatus::default(), 0u32);
                    salpakan_game_playout(
                        game,
                        bytes.u64(),
                        u32::from(arg) * 10,
                        &mut status,
                        &mut plies,
                    )
                }
                9 => {
                    let mut mask = [0u8; SALPAKAN_ACTION_MASK_BYTES];
                    salpakan_game_legal_action_mask(game, mask.as_mut_ptr())
                }
                10 => {
                    // A text function with a buffer too small, NULL, or big enough.
                    let capacity = usize::from(arg) * 8;
                    let mut buf = vec![0x55 as c_char; capacity];
                    let mut len = 12345usize;
                    let ptr = if arg % 7 == 0 {
                        std::ptr::null_mut()
                    } else {
                        buf.as_mut_ptr()
                    };
                    let r = salpakan_game_view_text(game, arg % 2, ptr, capacity, &mut len);
                    match r {
                        SalpakanResult::Ok | SalpakanResult::BufferTooSmall => {
                            assert_ne!(len, 12345)
                        }
                        _ => assert_eq!(len, 12345, "nothing written"),
                    }
                    if r != SalpakanResult::Ok && !ptr.is_null() {
                        assert!(buf.iter().all(|&c| c == 0x55), "no text written on failure");
                    }
                    r
                }
                11 => {
                    let copy = salpakan_game_clone(game);
                    assert!(!copy.is_null());
                    assert_eq!(state(copy), before);
                    if games.len() < 4 {
                        games.push(copy);
                    } else {
                        salpakan_game_free(copy);
                    }
                    continue;
                }
                12 if games.len() > 1 => {
                    salpakan_game_free(games.swap_remove(index));
                    continue;
                }
                13 => {
                    // Read the game back from its own texts: the same state.
                    let (record, text) = &before;
                    let mut back = std::ptr::null_mut();
                    assert_eq!(
                        salpakan_game_from_record(record.as_ptr().cast(), &mut back),
                        SalpakanResult::Ok
                    );
                    assert_eq!(state(back).0, *record);
                    salpakan_game_free(back);
                    assert_eq!(
                        salpakan_game_from_text(text.as_ptr().cast(), &mut back),
                        SalpakanResult::Ok
                    );
                    assert_eq!(state(back).1, *text);
                    salpakan_game_free(back);
                    continue;
                }
                14 => {
                    let mut moves = [SalpakanMove { from: 9, to: 9 }; 4];
                    let mut count = 777usize;
                    let r = salpakan_game_legal_moves(
                        game,
                        moves.as_mut_ptr(),
                        usize::from(arg % 5),
                        &mut count,
                    );
                    if r == SalpakanResult::BufferTooSmall {
                        assert!(count > usize::from(arg % 5));
                        assert!(moves.iter().all(|m| m.from == 9), "no move written");
                    }
                    r
                }
                _ => {
                    let mut side = 9u8;
                    let mut status = SalpakanStatus {
                        state: 9,
                        winner: 9,
                        reason: 9,
                    };
                    assert_eq!(
                        salpakan_game_side_to_move(game, &mut side),
                        SalpakanResult::Ok
                    );
                    assert_eq!(salpakan_game_status(game, &mut status), SalpakanResult::Ok);
                    assert!(side < 2 && status.state < 3);
                    continue;
                }
            };
            if result != SalpakanResult::Ok {
                assert!(!salpakan_last_error().is_null(), "a failure has a message");
                assert_eq!(
                    state(game),
                    before,
                    "a failed call (op {}) left the game as it was",
                    op % 16
                );
            }
        }
        for game in games {
            salpakan_game_free(game);
        }
    }
});
