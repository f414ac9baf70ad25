//! The C ABI's tracker fed a byte string: a game made from a seed, a tracker of one of its
//! sides, then calls in sequence: the arbiter's real plies (each must be taken in while the
//! tracker has only ever taken real ones), reports made of arbitrary bytes (refused ones must
//! change nothing: the beliefs, the status, the side to move), legal moves with any capacity,
//! and an agent's choice from the tracker (always one of its legal moves). Never a crash,
//! never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use salpakan_capi::*;

#[path = "../shared/bytes.rs"]
mod bytes;
use bytes::Bytes;

/// What a refused call must leave as it was.
unsafe fn seen(tracker: *const SalpakanTracker) -> (Vec<u64>, SalpakanStatus, u8) {
    let mut p = vec![0f64; 72 * 15];
    let mut status = SalpakanStatus::default();
    let mut side = 0;
    // SAFETY: a live handle and outputs of the documented sizes.
    unsafe {
        let _ = salpakan_tracker_beliefs(tracker, p.as_mut_ptr());
        assert_eq!(
            salpakan_tracker_status(tracker, &mut status),
            SalpakanResult::Ok
        );
        assert_eq!(
            salpakan_tracker_side_to_move(tracker, &mut side),
            SalpakanResult::Ok
        );
    }
    (p.iter().map(|x| x.to_bits()).collect(), status, side)
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let seed = bytes.u64();
    let side = bytes.byte() % 2;
    let rules = SalpakanRules {
        setup_rows: 3,
        move_limit: 200,
    };
    let (mut white, mut black) = ([0u8; 72], [0u8; 72]);
    // SAFETY: every handle is live until freed at the end, every buffer has the size passed,
    // every out-pointer is valid.
    unsafe {
        assert_eq!(
            salpakan_random_setup(0, 3, seed, white.as_mut_ptr()),
            SalpakanResult::Ok
        );
        assert_eq!(
            salpakan_random_setup(1, 3, !seed, black.as_mut_ptr()),
            SalpakanResult::Ok
        );
        let mut game = std::ptr::null_mut();
        assert_eq!(
            salpakan_game_new_with_rules(white.as_ptr(), black.as_ptr(), 0, &rules, &mut game),
            SalpakanResult::Ok
        );
        let mut view = [SalpakanCell { side: 0, rank: 0 }; 72];
        assert_eq!(
            salpakan_game_view(game, side, view.as_mut_ptr()),
            SalpakanResult::Ok
        );
        let enemy = view.map(|c| u8::from(c.side == 1 - side));
        let own = if side == 0 { white } else { black };
        let mut tracker = std::ptr::null_mut();
        assert_eq!(
            salpakan_tracker_new(own.as_ptr(), side, enemy.as_ptr(), 0, &rules, &mut tracker),
            SalpakanResult::Ok
        );
        let mut agent = std::ptr::null_mut();
        assert_eq!(
            salpakan_agent_new(SALPAKAN_AGENT_GREEDY, seed, 0, &mut agent),
            SalpakanResult::Ok
        );
        // Whether the tracker took in a report the arbiter did not make.
        let mut strayed = false;
        let mut ops = 0;
        while let Some(op) = bytes.next() {
            ops += 1;
            if ops > 400 {
                break;
            }
            match op % 4 {
                0 => {
                    let mut moves = [SalpakanMove { from: 0, to: 0 }; 84];
                    let mut count = 0usize;
                    assert_eq!(
                        salpakan_game_legal_moves(game, moves.as_mut_ptr(), 84, &mut count),
                        SalpakanResult::Ok
                    );
                    if count == 0 {
                        continue;
                    }
                    let mv = moves[usize::from(bytes.byte()) % count];
                    let mut report = SalpakanReport::default();
                    assert_eq!(
                        salpakan_game_play(game, mv, &mut report),
                        SalpakanResult::Ok
                    );
                    let took = salpakan_tracker_observe(tracker, mv, &report);
                    if !strayed {
                        assert_eq!(took, SalpakanResult::Ok, "a real ply is taken in");
                    }
                }
                1 => {
                    let mv = SalpakanMove {
                        from: bytes.byte(),
                        to: bytes.byte(),
                    };
                    let report = SalpakanReport {
                        challenge: bytes.byte() % 3,
                        outcome: bytes.byte(),
                        status: SalpakanStatus {
                            state: bytes.byte() % 4,
                            winner: bytes.byte(),
                            reason: bytes.byte() % 10,
                        },
                    };
                    let before = seen(tracker);
                    match salpakan_tracker_observe(tracker, mv, &report) {
                        SalpakanResult::Ok => strayed = true,
                        refused => {
                            assert!(
                                matches!(
                                    refused,
                                    SalpakanResult::InvalidArgument | SalpakanResult::GameOver
                                ),
                                "{mv:?} {report:?}: {refused:?}"
                            );
                            assert_eq!(seen(tracker), before, "a refused report changed nothing");
                        }
                    }
                }
                2 => {
                    let capacity = usize::from(bytes.byte() % 90);
                    let mut moves = vec![SalpakanMove { from: 0, to: 0 }; capacity];
                    let mut count = 0usize;
                    let ptr = if capacity == 0 {
                        std::ptr::null_mut()
                    } else {
                        moves.as_mut_ptr()
                    };
                    match salpakan_tracker_legal_moves(tracker, ptr, capacity, &mut count) {
                        SalpakanResult::Ok => assert!(count <= capacity),
                        SalpakanResult::BufferTooSmall => assert!(count > capacity),
                        other => panic!("legal moves: {other:?}"),
                    }
                }
                _ => {
                    let mut mv = SalpakanMove { from: 0, to: 0 };
                    if salpakan_agent_choose_tracked(agent, tracker, &mut mv) == SalpakanResult::Ok
                    {
                        let mut moves = [SalpakanMove { from: 0, to: 0 }; 84];
                        let mut count = 0usize;
                        assert_eq!(
                            salpakan_tracker_legal_moves(
                                tracker,
                                moves.as_mut_ptr(),
                                84,
                                &mut count
                            ),
                            SalpakanResult::Ok
                        );
                        assert!(
                            moves[..count].contains(&mv),
                            "the agent's move is legal for its side"
                        );
                    }
                }
            }
        }
        salpakan_agent_free(agent);
        salpakan_tracker_free(tracker);
        salpakan_game_free(game);
    }
});
