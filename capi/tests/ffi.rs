//! The C ABI called from Rust: its answers equal the Rust API's for the same game.

#[path = "../../tests/engine/common.rs"]
mod common;

use salpakan::{Agent, Game, Greedy, Ismcts, Move, Random, Rules, Side, SplitMix64, Status};
use salpakan_capi::*;

/// A C handle for `game`: its setups, with its history played through the C ABI.
fn handle_of(game: &Game) -> *mut SalpakanGame {
    let (white, black) = (cells(game, Side::White), cells(game, Side::Black));
    let mut handle = std::ptr::null_mut();
    let first = game.first_mover().index() as u8;
    // SAFETY: two 72-byte arrays and a valid out-pointer.
    let result = unsafe { salpakan_game_new(white.as_ptr(), black.as_ptr(), first, &mut handle) };
    assert_eq!(result, SalpakanResult::Ok);
    for report in game.history() {
        let mut out = std::mem::MaybeUninit::<SalpakanReport>::uninit();
        // SAFETY: a live handle and a writable report.
        let result = unsafe { salpakan_game_play(handle, report.mv.into(), out.as_mut_ptr()) };
        assert_eq!(result, SalpakanResult::Ok);
    }
    handle
}

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
    let game = Game::dealt(Side::White, rules, seed);
    let (white, black) = (cells(&game, Side::White), cells(&game, Side::Black));
    let mut handle = std::ptr::null_mut();
    // SAFETY: two 72-byte arrays and a valid out-pointer.
    let result = unsafe { salpakan_game_new(white.as_ptr(), black.as_ptr(), 0, &mut handle) };
    assert_eq!(result, SalpakanResult::Ok);
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
        assert_eq!(result, SalpakanResult::Ok);
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
            SalpakanResult::Ok
        );
        assert_eq!(report, SalpakanReport::from(rust_report));
    }
    // SAFETY: the handle made above, freed once.
    unsafe { salpakan_game_free(handle) };
}

#[test]
fn c_agents_choose_as_the_rust_agents_and_ignore_hidden_ranks() {
    let mut compared = 0;
    for seed in 0..12u64 {
        let (mut game, handle) = both(seed);
        // SAFETY: a handle from `both`, not used again.
        unsafe { salpakan_game_free(handle) };
        let mut rng = SplitMix64::new(seed);
        for _ in 0..(20 + 4 * seed) {
            if let Some(mv) = game.position().random_move(&mut rng) {
                game.play(mv).unwrap();
            }
        }
        if !game.status().is_ongoing() {
            continue;
        }
        let side = game.side_to_move();
        let Some(other) = common::with_swapped_enemy_ranks(&game, side.other()) else {
            continue;
        };
        let tracker = game.tracker(side).unwrap();
        let handles = [handle_of(&game), handle_of(&other)];
        let rust: [Box<dyn Agent>; 3] = [
            Box::new(Random::new(seed)),
            Box::new(Greedy::new(seed)),
            Box::new(Ismcts::new(seed, 60)),
        ];
        for (kind, mut agent) in [
            SALPAKAN_AGENT_RANDOM,
            SALPAKAN_AGENT_GREEDY,
            SALPAKAN_AGENT_ISMCTS,
        ]
        .into_iter()
        .zip(rust)
        {
            let expected: Move = agent.choose(&tracker).unwrap();
            for &h in &handles {
                let mut c_agent = std::ptr::null_mut();
                let mut out = SalpakanMove { from: 99, to: 99 };
                // SAFETY: live handles and writable outputs; the agent is freed once.
                unsafe {
                    assert_eq!(
                        salpakan_agent_new(kind, seed, 60, &mut c_agent),
                        SalpakanResult::Ok
                    );
                    assert_eq!(
                        salpakan_agent_choose(c_agent, h, side.index() as u8, &mut out),
                        SalpakanResult::Ok
                    );
                    salpakan_agent_free(c_agent);
                }
                assert_eq!(
                    out,
                    SalpakanMove::from(expected),
                    "kind {kind}, seed {seed}"
                );
            }
        }
        for h in handles {
            // SAFETY: live handles, freed once.
            unsafe { salpakan_game_free(h) };
        }
        compared += 1;
    }
    assert!(compared >= 6, "{compared}");
}

/// The two ends only a server decides come through the C ABI with their own reasons: a
/// record ended on time or by abandonment reads back with `SALPAKAN_REASON_TIME` or
/// `SALPAKAN_REASON_ABANDONED`, and the game is over.
#[test]
fn records_ended_on_time_or_by_abandonment_read_with_their_reasons() {
    use salpakan::DeclaredEnd;
    for (end, reason, winner) in [
        (
            DeclaredEnd::Time { loser: Side::White },
            SALPAKAN_REASON_TIME,
            SALPAKAN_BLACK,
        ),
        (
            DeclaredEnd::Abandoned { loser: Side::Black },
            SALPAKAN_REASON_ABANDONED,
            SALPAKAN_WHITE,
        ),
    ] {
        let rules = Rules::default();
        let mut game = Game::dealt(Side::White, rules, 3);
        game.play(game.legal_moves()[0]).unwrap();
        game.declare(end).unwrap();
        let record = std::ffi::CString::new(game.record()).unwrap();
        let mut handle = std::ptr::null_mut();
        let mut status = SalpakanStatus {
            state: 9,
            winner: 9,
            reason: 9,
        };
        // SAFETY: a NUL-terminated record, valid out-pointers, the handle freed once.
        unsafe {
            assert_eq!(
                salpakan_game_from_record(record.as_ptr(), &mut handle),
                SalpakanResult::Ok
            );
            assert_eq!(
                salpakan_game_status(handle, &mut status),
                SalpakanResult::Ok
            );
            assert_eq!(
                salpakan_game_resign(handle, SALPAKAN_WHITE),
                SalpakanResult::GameOver
            );
            salpakan_game_free(handle);
        }
        assert_eq!(
            status,
            SalpakanStatus {
                state: SALPAKAN_STATE_WON,
                winner,
                reason,
            }
        );
    }
}

/// A record written through the C ABI says its text format first, `SALPAKAN_TEXT_FORMAT`; one
/// of a newer format is refused as a text error whose message says it is newer, and a record
/// from before the tag (format 1) reads.
#[test]
fn a_record_says_its_text_format_and_a_newer_one_is_refused_as_newer() {
    let (_, handle) = both(11);
    let mut buf = vec![0 as std::ffi::c_char; 1 << 16];
    let mut len = 0;
    // SAFETY: a live handle, a buffer of the size passed, valid out-pointers; freed once.
    let record = unsafe {
        assert_eq!(
            salpakan_game_record(handle, buf.as_mut_ptr(), buf.len(), &mut len),
            SalpakanResult::Ok
        );
        salpakan_game_free(handle);
        std::ffi::CStr::from_ptr(buf.as_ptr())
            .to_str()
            .unwrap()
            .to_owned()
    };
    let line = format!("[Format \"{SALPAKAN_TEXT_FORMAT}\"]\n");
    assert!(record.starts_with(&line), "{record}");
    let read = |text: &str| {
        let text = std::ffi::CString::new(text).unwrap();
        let mut handle = std::ptr::null_mut();
        // SAFETY: a NUL-terminated record and a valid out-pointer; the error read on the
        // thread that made it before another call clears it; the handle freed once.
        unsafe {
            let result = salpakan_game_from_record(text.as_ptr(), &mut handle);
            let error = salpakan_last_error();
            let message = if error.is_null() {
                String::new()
            } else {
                std::ffi::CStr::from_ptr(error)
                    .to_string_lossy()
                    .into_owned()
            };
            salpakan_game_free(handle);
            (result, message)
        }
    };
    assert_eq!(read(&record).0, SalpakanResult::Ok);
    assert_eq!(read(&record[line.len()..]).0, SalpakanResult::Ok);
    let newer = format!(
        "[Format \"{}\"]\n{}",
        SALPAKAN_TEXT_FORMAT + 1,
        &record[line.len()..]
    );
    let (result, message) = read(&newer);
    assert_eq!(result, SalpakanResult::Parse);
    assert!(message.contains("from a later release"), "{message}");
}
