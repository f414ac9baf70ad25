//! What a client can do on its own: two trackers fed only by the arbiter's reports know their
//! legal moves, action masks, beliefs, samples and observation tensors exactly as the arbiter's
//! `Game` gives them; and the observation tensor depends on the viewer's information alone.

use crate::common::{dealt, flag_forward_or_random, flag_race};
use salpakan::{Game, Observation, Orientation, Rank, Rules, Side, SplitMix64, Square, Tracker};

fn random_game(seed: u64, rules: Rules) -> Game {
    dealt(rules, seed, seed + 700, Side::ALL[(seed % 2) as usize])
}

/// A client's tracker: its own setup and where the enemy's pieces stand, nothing else.
fn client(game: &Game, side: Side) -> Tracker {
    Tracker::new(
        game.setup(side).unwrap(),
        game.setup(side.other()).unwrap().occupied(),
        game.first_mover(),
        game.rules(),
    )
    .unwrap()
}

#[test]
fn trackers_fed_by_reports_know_what_the_arbiter_gives() {
    let mut plies = 0;
    for seed in 0..24u64 {
        let rules = Rules::new(3 + (seed % 2) as u8, if seed % 3 == 0 { 60 } else { 0 }).unwrap();
        let mut game = random_game(seed, rules);
        let mut clients = [client(&game, Side::White), client(&game, Side::Black)];
        let mut rng = SplitMix64::new(seed);
        loop {
            // Every ninth ply, and every challenge (a new fact: the counts are made again).
            let check_beliefs = game.history().len().is_multiple_of(9)
                || !game.status().is_ongoing()
                || game.history().last().is_some_and(|r| r.outcome.is_some());
            for (side, tracker) in Side::ALL.into_iter().zip(&clients) {
                assert_eq!(tracker.legal_moves(), game.legal_moves(), "seed {seed}");
                assert_eq!(tracker.legal_action_mask(), game.legal_action_mask());
                assert_eq!(tracker.side_to_move(), game.side_to_move());
                for whose in Side::ALL {
                    assert_eq!(tracker.occupied(whose), game.position().occupied(whose));
                }
                for square in Square::ALL {
                    let own = game.position().piece_at(square).filter(|&(s, _)| s == side);
                    assert_eq!(tracker.own_rank(square), own.map(|(_, rank)| rank));
                }
                if check_beliefs {
                    assert_eq!(tracker.beliefs().unwrap(), game.beliefs(side).unwrap());
                    for orientation in [Orientation::ViewerUp, Orientation::Board] {
                        assert_eq!(
                            tracker.observation(orientation).unwrap(),
                            game.observation(side, orientation).unwrap()
                        );
                    }
                    let seed = seed ^ game.history().len() as u64;
                    assert_eq!(
                        tracker.sample(seed).unwrap(),
                        game.sample(side, seed).unwrap()
                    );
                }
            }
            if !game.status().is_ongoing() || game.history().len() > 600 {
                break;
            }
            let mv = game.position().random_move(&mut rng).unwrap();
            let report = game.play(mv).unwrap();
            plies += 1;
            for tracker in &mut clients {
                tracker.observe(&report).unwrap();
            }
        }
    }
    assert!(plies > 2000, "{plies} plies");
}

#[test]
fn a_clients_sample_replays_the_public_history_and_keeps_the_beliefs() {
    let mut game = random_game(5, Rules::default());
    let mut rng = SplitMix64::new(5);
    for _ in 0..120 {
        if !game.status().is_ongoing() {
            break;
        }
        let mv = game.position().random_move(&mut rng).unwrap();
        game.play(mv).unwrap();
    }
    let tracker = game.tracker(Side::White).unwrap();
    let beliefs = tracker.beliefs().unwrap();
    for seed in 0..20 {
        let sample = tracker.sample(seed).unwrap();
        assert_eq!(sample.history(), game.history());
        assert_eq!(sample.view(Side::White), game.view(Side::White));
        assert_eq!(sample.beliefs(Side::White).unwrap(), beliefs);
        assert_eq!(sample.legal_moves(), game.legal_moves());
    }
    // Beliefs of the other side are refused.
    let black = game.beliefs(Side::Black).unwrap();
    assert!(
        tracker
            .sample_from(&black, &mut SplitMix64::new(1))
            .is_err()
    );
}

/// Flag races (each Flag in front of a lane the enemy left open, some lanes guarded at the
/// end): a client's counters, its own waiting Flag and the enemy piece that may be one match
/// the arbiter's position at every ply.
#[test]
fn waiting_flags_counters_and_determinizations_match_the_arbiter() {
    let (mut waits, mut arrivals, mut determinized) = (0, 0, 0);
    for seed in 0..60u64 {
        let rules = Rules::new(4, [0, 10, 16][(seed % 3) as usize]).unwrap();
        let mut game = flag_race(
            seed % 3 == 0,
            seed % 4 == 0,
            Side::ALL[(seed % 2) as usize],
            rules,
        );
        let mut clients = [client(&game, Side::White), client(&game, Side::Black)];
        let mut rng = SplitMix64::new(seed);
        while game.status().is_ongoing() && game.history().len() < 300 {
            let mv = flag_forward_or_random(&game, &mut rng, 6);
            let report = game.play(mv).unwrap();
            for tracker in &mut clients {
                tracker.observe(&report).unwrap();
                assert_eq!(
                    tracker.plies_since_challenge(),
                    game.position().plies_since_challenge()
                );
            }
            match game.position().waiting_flag() {
                Some(square) => {
                    let owner = game.side_to_move().other();
                    assert_eq!(clients[owner.index()].own_waiting_flag(), Some(square));
                    assert_eq!(clients[owner.other().index()].enemy_arrived(), Some(square));
                    assert_eq!(clients[owner.other().index()].own_waiting_flag(), None);
                    waits += 1;
                }
                None => {
                    for tracker in &clients {
                        assert_eq!(tracker.own_waiting_flag(), None);
                    }
                }
            }
            // A determinization of the current position is the sampled game's position,
            // waiting Flags included.
            let ply = game.history().len();
            if ply.is_multiple_of(3) || game.position().waiting_flag().is_some() {
                for tracker in &clients {
                    let beliefs = tracker.beliefs().unwrap();
                    let seed = seed * 1000 + ply as u64;
                    let position = tracker
                        .sample_position(&beliefs, &mut SplitMix64::new(seed))
                        .unwrap();
                    let sample = tracker
                        .sample_from(&beliefs, &mut SplitMix64::new(seed))
                        .unwrap();
                    assert_eq!(&position, sample.position(), "seed {seed}");
                    determinized += 1;
                }
            }
            for tracker in &clients {
                if let Some(square) = tracker.enemy_arrived() {
                    // An enemy piece on its far row, next to one of ours.
                    let enemy = tracker.side().other();
                    assert_eq!(game.position().piece_at(square).map(|p| p.0), Some(enemy));
                    assert_eq!(square.row(), enemy.far_row());
                    arrivals += 1;
                }
            }
        }
    }
    assert!(
        waits >= 5 && arrivals >= waits && determinized >= 200,
        "{waits} waits, {arrivals} arrivals, {determinized} determinizations"
    );
    let game = random_game(1, Rules::default());
    let black = game.tracker(Side::Black).unwrap();
    let white_beliefs = game.beliefs(Side::White).unwrap();
    assert!(
        black
            .sample_position(&white_beliefs, &mut SplitMix64::new(1))
            .is_err(),
        "beliefs of the other side are refused"
    );
}

#[test]
fn samples_end_as_the_game_did() {
    for (seed, end) in [(1u64, "resign"), (2, "draw")] {
        let mut game = random_game(seed, Rules::default());
        let mut rng = SplitMix64::new(seed);
        for _ in 0..30 {
            let mv = game.position().random_move(&mut rng).unwrap();
            game.play(mv).unwrap();
        }
        let status = if end == "resign" {
            game.resign(Side::Black).unwrap()
        } else {
            game.agree_draw().unwrap()
        };
        for side in Side::ALL {
            let tracker = game.tracker(side).unwrap();
            assert_eq!(tracker.status(), status);
            let sample = tracker.sample(seed).unwrap();
            assert_eq!(sample.status(), status, "{end}");
            assert_eq!(sample.history(), game.history());
            assert!(tracker.legal_moves().is_empty());
            assert!(tracker.legal_action_mask().is_empty());
        }
    }
}

#[test]
fn observations_print_their_shape() {
    let game = random_game(3, Rules::default());
    let obs = game
        .observation(Side::White, Orientation::ViewerUp)
        .unwrap();
    let debug = format!("{obs:?}");
    assert!(
        debug.contains("Observation") && debug.contains("[38, 8, 9]"),
        "{debug}"
    );
    // Out of the shape, `get` is 0 and `plane` stays in bounds.
    assert_eq!(obs.get(Observation::PLANES, 0, 0), 0.0);
    assert_eq!(obs.get(0, 8, 0), 0.0);
    assert_eq!(obs.get(0, 0, 9), 0.0);
    assert_eq!(
        obs.plane(Observation::PLANES + 5),
        obs.plane(Observation::PLANES - 1)
    );
    // `get` and `plane` read the same floats as the slice.
    for (plane, row, file) in [(0, 0, 0), (15, 7, 8), (16, 3, 4), (37, 5, 2)] {
        let index = (plane * 8 + row) * 9 + file;
        assert_eq!(obs.get(plane, row, file), obs.as_slice()[index]);
        assert_eq!(obs.plane(plane)[row * 9 + file], obs.as_slice()[index]);
    }
    let mut buffer = [9.0f32; Observation::LEN];
    let tracker = game.tracker(Side::White).unwrap();
    tracker
        .write_observation(Orientation::ViewerUp, &mut buffer)
        .unwrap();
    assert_eq!(buffer.as_slice(), obs.as_slice(), "every float written");
}

#[test]
fn belief_planes_sum_to_one_on_each_enemy_piece_and_nowhere_else() {
    let mut game = random_game(9, Rules::default());
    let mut rng = SplitMix64::new(9);
    let mut checked = 0;
    while game.status().is_ongoing() && game.history().len() < 300 {
        if game.history().len().is_multiple_of(25) {
            for side in Side::ALL {
                let obs = game.observation(side, Orientation::ViewerUp).unwrap();
                for row in 0..Observation::ROWS {
                    for file in 0..Observation::FILES {
                        let total: f32 = (0..Rank::NUM)
                            .map(|r| obs.get(Observation::BELIEF + r, row, file))
                            .sum();
                        let enemy = obs.get(Observation::ENEMY, row, file);
                        let own: f32 = (0..Rank::NUM)
                            .map(|r| obs.get(Observation::OWN + r, row, file))
                            .sum();
                        if enemy == 1.0 {
                            assert!((total - 1.0).abs() < 1e-4, "{total}");
                            assert_eq!(own, 0.0);
                        } else {
                            assert_eq!(total, 0.0);
                        }
                    }
                }
                checked += 1;
            }
        }
        let mv = game.position().random_move(&mut rng).unwrap();
        game.play(mv).unwrap();
    }
    assert!(checked >= 4);
}

#[test]
fn the_tensor_is_laid_out_as_documented() {
    let game = random_game(2, Rules::new(3, 100).unwrap());
    let white = game.observation(Side::White, Orientation::Board).unwrap();
    let square = |name: &str| name.parse::<Square>().unwrap();
    // Board orientation: row 0 is row 1.
    let (_, rank) = game
        .position()
        .piece_at(square("a1"))
        .unwrap_or((Side::White, Rank::Flag));
    if game.position().piece_at(square("a1")).is_some() {
        assert_eq!(white.get(Observation::OWN + rank.index(), 0, 0), 1.0);
    }
    assert_eq!(white.plane(Observation::TO_MOVE).iter().sum::<f32>(), 72.0);
    assert_eq!(white.plane(Observation::QUIET).iter().sum::<f32>(), 0.0);
    // Viewer-up turns the board for Black: Black's home row (row 8) becomes row 0.
    let black_up = game
        .observation(Side::Black, Orientation::ViewerUp)
        .unwrap();
    let black_board = game.observation(Side::Black, Orientation::Board).unwrap();
    for plane in 0..Observation::PLANES {
        for row in 0..8 {
            for file in 0..9 {
                assert_eq!(
                    black_up.get(plane, row, file),
                    black_board.get(plane, 7 - row, 8 - file)
                );
            }
        }
    }
    let own_black_home: f32 = (0..9)
        .map(|f| (0..15).map(|r| black_up.get(r, 0, f)).sum::<f32>())
        .sum();
    assert!(
        own_black_home > 0.0,
        "Black's own pieces on row 0 when viewer-up"
    );
    assert_eq!(
        black_up.plane(Observation::TO_MOVE).iter().sum::<f32>(),
        0.0
    );
    assert_eq!(Observation::SHAPE, [Observation::PLANES, 8, 9]);
    // Three plain moves under a limit of 100: the count plane holds 3/100 everywhere.
    let mut later = game.clone();
    for _ in 0..3 {
        let mv = later.legal_moves()[0];
        assert!(later.play(mv).unwrap().outcome.is_none());
    }
    let obs = later.observation(Side::White, Orientation::Board).unwrap();
    assert!(
        obs.plane(Observation::QUIET)
            .iter()
            .all(|&q| (q - 0.03).abs() < 1e-6)
    );
    assert_eq!(Observation::LEN, black_up.as_slice().len());
}

#[test]
fn the_tensor_ignores_unobserved_enemy_ranks() {
    // Swap two enemy pieces that never fought: everything the viewer sees is the same, and so
    // is its tensor, float for float.
    let mut compared = 0;
    for seed in 0..30u64 {
        let mut game = random_game(seed, Rules::default());
        let mut rng = SplitMix64::new(seed);
        for _ in 0..(40 + seed as usize * 5) {
            if !game.status().is_ongoing() {
                break;
            }
            let mv = game.position().random_move(&mut rng).unwrap();
            game.play(mv).unwrap();
        }
        for viewer in Side::ALL {
            let enemy = viewer.other();
            let Some(other) = crate::common::with_swapped_enemy_ranks(&game, enemy) else {
                continue;
            };
            for orientation in [Orientation::ViewerUp, Orientation::Board] {
                assert_eq!(
                    game.observation(viewer, orientation).unwrap().as_slice(),
                    other.observation(viewer, orientation).unwrap().as_slice(),
                    "seed {seed}"
                );
            }
            compared += 1;
        }
    }
    assert!(compared > 20, "{compared}");
}

/// The tensor, square by square, from the tracker's public accessors and its beliefs: every
/// plane of `write_observation` checked against this plain reading, for both sides, both
/// orientations, and positions through whole games with a move limit.
#[test]
fn observations_match_a_square_by_square_reading() {
    let rules = Rules::new(3, 50).unwrap();
    let mut checked = 0;
    for seed in 0..6u64 {
        let mut game = random_game(seed, rules);
        let mut rng = SplitMix64::new(seed);
        loop {
            for side in Side::ALL {
                let tracker = game.tracker(side).unwrap();
                let beliefs = tracker.beliefs_by_square().unwrap();
                for orientation in [Orientation::ViewerUp, Orientation::Board] {
                    let obs = tracker.observation(orientation).unwrap();
                    let mut expected = vec![0.0f32; Observation::LEN];
                    let mut set = |plane: usize, square: Square, value: f32| {
                        let (mut row, mut file) = (square.row() as usize, square.file() as usize);
                        if orientation == Orientation::ViewerUp && side == Side::Black {
                            (row, file) = (7 - row, 8 - file);
                        }
                        expected[(plane * 8 + row) * 9 + file] = value;
                    };
                    for square in Square::ALL {
                        let Some(id) = tracker.piece_at(square) else {
                            continue;
                        };
                        if id.side() == side {
                            let rank = tracker.own_rank(square).unwrap();
                            set(Observation::OWN + rank.index(), square, 1.0);
                        } else {
                            set(Observation::ENEMY, square, 1.0);
                            for rank in Rank::ALL {
                                let p = beliefs[square.index()][rank.index()] as f32;
                                set(Observation::BELIEF + rank.index(), square, p);
                            }
                        }
                        if tracker.own_waiting_flag() == Some(square) {
                            set(Observation::OWN_WAITING, square, 1.0);
                        }
                        if tracker.enemy_arrived() == Some(square) {
                            set(Observation::ENEMY_ARRIVED, square, 1.0);
                        }
                    }
                    // The last move's start is empty now; its target may be too.
                    if let Some(last) = tracker.history().last() {
                        set(Observation::LAST_FROM, last.mv.from, 1.0);
                        set(Observation::LAST_TO, last.mv.to, 1.0);
                    }
                    let challenge = tracker
                        .history()
                        .last()
                        .is_some_and(|r| r.outcome.is_some());
                    let to_move = tracker.status().is_ongoing() && tracker.side_to_move() == side;
                    let quiet = f32::from(tracker.plies_since_challenge()) / 50.0;
                    for square in Square::ALL {
                        set(
                            Observation::LAST_CHALLENGE,
                            square,
                            f32::from(u8::from(challenge)),
                        );
                        set(Observation::TO_MOVE, square, f32::from(u8::from(to_move)));
                        set(Observation::QUIET, square, quiet);
                    }
                    assert_eq!(
                        obs.as_slice(),
                        expected.as_slice(),
                        "seed {seed}, ply {}",
                        game.history().len()
                    );
                    checked += 1;
                }
            }
            let Some(mv) = game.position().random_move(&mut rng) else {
                break;
            };
            game.play(mv).unwrap();
            if game.history().len().is_multiple_of(7) && game.history().len() > 60 {
                // Skip ahead: a sample of each game's positions is enough.
                for _ in 0..5 {
                    if let Some(mv) = game.position().random_move(&mut rng) {
                        game.play(mv).unwrap();
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}
