//! The tracker through the C ABI: a program playing one side of a game arbitrated elsewhere
//! keeps its side's knowledge from its own formation, the enemy's squares and the reports
//! alone. Its agent's moves and beliefs equal those of the same agent asked through the
//! arbiter's game, for a game and its twin (other enemy ranks) alike; bad values are refused
//! and change nothing.

use std::ptr::null_mut;

use salpakan::{Game, Rules, Side};
use salpakan_capi::*;

const OFFICIAL: SalpakanRules = SalpakanRules {
    setup_rows: 3,
    move_limit: 200,
};

fn setup(side: u8, seed: u64) -> [u8; 72] {
    let mut cells = [0u8; 72];
    // SAFETY: 72 bytes.
    assert_eq!(
        unsafe { salpakan_random_setup(side, 3, seed, cells.as_mut_ptr()) },
        SalpakanResult::Ok
    );
    cells
}

/// The enemy's squares as `salpakan_tracker_new` takes them, from `side`'s view.
fn enemy_of(game: *const SalpakanGame, side: u8) -> [u8; 72] {
    let mut view = [SalpakanCell { side: 0, rank: 0 }; 72];
    // SAFETY: a live handle and room for 72 cells.
    assert_eq!(
        unsafe { salpakan_game_view(game, side, view.as_mut_ptr()) },
        SalpakanResult::Ok
    );
    view.map(|cell| u8::from(cell.side == 1 - side))
}

fn tracker(own: &[u8; 72], side: u8, enemy: &[u8; 72]) -> (SalpakanResult, *mut SalpakanTracker) {
    let mut out = null_mut();
    // SAFETY: 72-byte arrays, rules and an out-pointer.
    let result = unsafe {
        salpakan_tracker_new(
            own.as_ptr(),
            side,
            enemy.as_ptr(),
            SALPAKAN_WHITE,
            &OFFICIAL,
            &mut out,
        )
    };
    (result, out)
}

/// Plays a whole game: each side's agent (level 3, seeded) chooses from its tracker; the
/// arbiter's game plays the move and the report goes to both trackers. Returns every move,
/// and each side's beliefs after every ply.
fn played(white: [u8; 72], black: [u8; 72]) -> (Vec<(u8, u8)>, Vec<Vec<f64>>) {
    let game = new_game(&white, &black);
    let own = [white, black];
    let seats: Vec<*mut SalpakanTracker> = (0..2u8)
        .map(|side| {
            let (result, t) = tracker(&own[side as usize], side, &enemy_of(game, side));
            assert_eq!(result, SalpakanResult::Ok);
            t
        })
        .collect();
    let agents: Vec<*mut SalpakanAgent> = (0..2u64)
        .map(|i| {
            let mut agent = null_mut();
            // SAFETY: an out-pointer.
            assert_eq!(
                unsafe { salpakan_agent_new_level(3, 40 + i, &mut agent) },
                SalpakanResult::Ok
            );
            agent
        })
        .collect();
    let (mut moves, mut beliefs) = (Vec::new(), Vec::new());
    loop {
        let mut status = SalpakanStatus::default();
        let mut side = 0u8;
        // SAFETY: live handles and writable outputs throughout.
        unsafe {
            assert_eq!(salpakan_game_status(game, &mut status), SalpakanResult::Ok);
            if status.state != SALPAKAN_STATE_ONGOING || moves.len() >= 400 {
                break;
            }
            assert_eq!(
                salpakan_game_side_to_move(game, &mut side),
                SalpakanResult::Ok
            );
            let mut seen = 0u8;
            assert_eq!(
                salpakan_tracker_side_to_move(seats[side as usize], &mut seen),
                SalpakanResult::Ok
            );
            assert_eq!(seen, side, "the tracker knows whose move it is");
            let mut mv = SalpakanMove { from: 0, to: 0 };
            assert_eq!(
                salpakan_agent_choose_tracked(agents[side as usize], seats[side as usize], &mut mv),
                SalpakanResult::Ok
            );
            let (mut legal, mut count) = ([SalpakanMove { from: 0, to: 0 }; 84], 0usize);
            assert_eq!(
                salpakan_tracker_legal_moves(
                    seats[side as usize],
                    legal.as_mut_ptr(),
                    84,
                    &mut count
                ),
                SalpakanResult::Ok
            );
            assert!(legal[..count].contains(&mv), "a legal move");
            let mut report = SalpakanReport {
                challenge: 0,
                outcome: 0,
                status,
            };
            assert_eq!(
                salpakan_game_play(game, mv, &mut report),
                SalpakanResult::Ok
            );
            for &seat in &seats {
                assert_eq!(
                    salpakan_tracker_observe(seat, mv, &report),
                    SalpakanResult::Ok
                );
            }
            let mut p = vec![0.0f64; 72 * 15];
            assert_eq!(
                salpakan_tracker_beliefs(seats[0], p.as_mut_ptr()),
                SalpakanResult::Ok
            );
            beliefs.push(p);
            moves.push((mv.from, mv.to));
        }
    }
    // SAFETY: handles from this library, freed once.
    unsafe {
        for seat in seats {
            salpakan_tracker_free(seat);
        }
        for agent in agents {
            salpakan_agent_free(agent);
        }
        salpakan_game_free(game);
    }
    (moves, beliefs)
}

#[test]
fn a_seat_plays_from_its_tracker_and_cannot_tell_a_game_from_its_twin() {
    let (white, black) = (setup(0, 11), setup(1, 12));
    let (moves, beliefs) = played(white, black);
    assert!(moves.len() >= 10, "{} plies", moves.len());
    // The same game in Rust: a twin of White's (other Black ranks, the same history).
    let rules = Rules::new(3, 200).unwrap();
    let mut game = Game::new(
        salpakan::Setup::from_cell_values(Side::White, rules, &white).unwrap(),
        salpakan::Setup::from_cell_values(Side::Black, rules, &black).unwrap(),
        Side::White,
        rules,
    )
    .unwrap();
    for &(from, to) in &moves {
        let mv = salpakan::Move::new(
            salpakan::Square::try_index(from.into()).unwrap(),
            salpakan::Square::try_index(to.into()).unwrap(),
        );
        game.play(mv).unwrap();
    }
    let twin = (1..100)
        .map(|s| game.sample(Side::White, s).unwrap())
        .find(|t| t.setup(Side::Black) != game.setup(Side::Black))
        .expect("a twin");
    let mut twin_black = [SALPAKAN_NO_PIECE; 72];
    for (square, rank) in twin.setup(Side::Black).unwrap().pieces() {
        twin_black[square.index()] = rank as u8;
    }
    // White's tracker in the twin: the same moves are legal and chosen only if the history
    // is the same; the twin's history is, by construction, so White's beliefs must be too.
    let game_c = new_game(&white, &twin_black);
    let (result, seat) = tracker(&white, 0, &enemy_of(game_c, 0));
    assert_eq!(result, SalpakanResult::Ok);
    for (i, &(from, to)) in moves.iter().enumerate() {
        let mv = SalpakanMove { from, to };
        let mut report = SalpakanReport::default();
        let mut p = vec![0.0f64; 72 * 15];
        // SAFETY: live handles, writable outputs.
        unsafe {
            assert_eq!(
                salpakan_game_play(game_c, mv, &mut report),
                SalpakanResult::Ok
            );
            assert_eq!(
                salpakan_tracker_observe(seat, mv, &report),
                SalpakanResult::Ok
            );
            assert_eq!(
                salpakan_tracker_beliefs(seat, p.as_mut_ptr()),
                SalpakanResult::Ok
            );
        }
        assert_eq!(
            p,
            beliefs[i],
            "White's beliefs after ply {} differ in the twin",
            i + 1
        );
    }
    // SAFETY: handles freed once.
    unsafe {
        salpakan_tracker_free(seat);
        salpakan_game_free(game_c);
    }
}

#[test]
fn a_tracker_refuses_bad_values_and_changes_nothing() {
    let (white, black) = (setup(0, 1), setup(1, 2));
    let game = new_game(&white, &black);
    let enemy = enemy_of(game, 0);
    let mut two = enemy;
    two[71] = 2;
    assert_eq!(tracker(&white, 0, &two).0, SalpakanResult::InvalidArgument);
    let mut fewer = enemy;
    let at = fewer.iter().position(|&b| b == 1).unwrap();
    fewer[at] = 0;
    assert_eq!(
        tracker(&white, 0, &fewer).0,
        SalpakanResult::InvalidArgument
    );
    assert_eq!(
        tracker(&white, 2, &enemy).0,
        SalpakanResult::InvalidArgument
    );
    assert_eq!(
        tracker(&black, 0, &enemy).0,
        SalpakanResult::InvalidSetup,
        "Black's formation as White's"
    );
    let (result, seat) = tracker(&white, 0, &enemy);
    assert_eq!(result, SalpakanResult::Ok);
    let ongoing = SalpakanStatus {
        state: SALPAKAN_STATE_ONGOING,
        winner: SALPAKAN_NO_SIDE,
        reason: 0,
    };
    let before = {
        let mut p = vec![0.0f64; 72 * 15];
        // SAFETY: a live handle, room for 1,080 doubles.
        unsafe { salpakan_tracker_beliefs(seat, p.as_mut_ptr()) };
        p
    };
    let none = SalpakanStatus {
        state: 7,
        winner: 0,
        reason: 0,
    };
    // A move from `from` to `to` and its report: a challenge or not, its outcome, its status.
    let case = |(from, to): (u8, u8), challenge: u8, outcome: u8, status: SalpakanStatus| {
        let report = SalpakanReport {
            challenge,
            outcome,
            status,
        };
        (SalpakanMove { from, to }, report)
    };
    for (mv, report) in [
        // A challenge with no outcome, an outcome of a plain move, an outcome out of range, a
        // status that is none, a move off the board, a move of no piece.
        case((22, 31), 1, 255, ongoing),
        case((22, 31), 0, 0, ongoing),
        case((22, 31), 1, 3, ongoing),
        case((22, 31), 0, 255, none),
        case((72, 31), 0, 255, ongoing),
        case((40, 41), 0, 255, ongoing),
    ] {
        // SAFETY: a live handle and a readable report.
        let result = unsafe { salpakan_tracker_observe(seat, mv, &report) };
        assert_eq!(result, SalpakanResult::InvalidArgument, "{mv:?} {report:?}");
        let mut p = vec![0.0f64; 72 * 15];
        // SAFETY: as above.
        unsafe { salpakan_tracker_beliefs(seat, p.as_mut_ptr()) };
        assert_eq!(p, before, "a refused report changed nothing");
    }
    // SAFETY: null handles and pointers are refused, not dereferenced.
    unsafe {
        assert_eq!(
            salpakan_tracker_observe(null_mut(), SalpakanMove { from: 22, to: 31 }, null_mut()),
            SalpakanResult::NullArgument
        );
        assert_eq!(
            salpakan_tracker_beliefs(seat, null_mut()),
            SalpakanResult::NullArgument
        );
        salpakan_tracker_free(null_mut());
        salpakan_tracker_free(seat);
        salpakan_game_free(game);
    }
}

/// A new game of the official rules from the formations `white` and `black`, White first.
fn new_game(white: &[u8; 72], black: &[u8; 72]) -> *mut SalpakanGame {
    let mut game = null_mut();
    // SAFETY: two setups, rules and an out-pointer.
    unsafe {
        assert_eq!(
            salpakan_game_new_with_rules(
                white.as_ptr(),
                black.as_ptr(),
                SALPAKAN_WHITE,
                &OFFICIAL,
                &mut game
            ),
            SalpakanResult::Ok
        );
    }
    game
}
