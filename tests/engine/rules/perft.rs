//! Perft of several positions, compared with a naive generator written here (no bitboards, no
//! bulk counting).

use crate::common::{dealt, naive_moves, naive_perft};
use salpakan::{Game, Position, Rules, Side, SplitMix64};

fn start(seed: u64, rows: u8, first: Side) -> Game {
    let rules = Rules::new(rows, 0).unwrap();
    dealt(rules, seed, seed ^ 0xdead_beef, first)
}

/// A position after `plies` random legal moves (stopping early if the game ends).
fn midgame(seed: u64, rows: u8, plies: usize) -> Position {
    let mut game = start(seed, rows, Side::White);
    let mut rng = SplitMix64::new(seed);
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len() as u64) as usize];
        game.play(mv).unwrap();
    }
    *game.position()
}

#[test]
fn perft_zero_is_one_and_perft_one_is_the_move_count() {
    let pos = midgame(3, 4, 40);
    assert_eq!(pos.perft(0), 1);
    assert_eq!(pos.perft(1), pos.legal_moves().len() as u64);
    assert_eq!(pos.perft(1), naive_moves(&pos).len() as u64);
}

#[test]
fn start_positions_match_the_naive_generator_at_depth_three() {
    for (seed, rows, first) in [
        (1, 3, Side::White),
        (2, 4, Side::Black),
        (3, 3, Side::Black),
    ] {
        let game = start(seed, rows, first);
        let pos = game.position();
        assert_eq!(pos.perft(3), naive_perft(pos, 3), "seed {seed} rows {rows}");
    }
}

#[test]
fn midgame_positions_with_challenges_match_the_naive_generator() {
    let mut with_contact = 0;
    for seed in 0..6 {
        let pos = midgame(seed, 4, 60);
        let fast = pos.perft(3);
        assert_eq!(fast, naive_perft(&pos, 3), "seed {seed}");
        if pos.occupied_all().len() < 42 {
            with_contact += 1;
        }
    }
    assert!(
        with_contact >= 3,
        "most of these positions have seen challenges"
    );
}

#[test]
fn one_position_matches_at_depth_four() {
    let pos = midgame(11, 4, 30);
    assert_eq!(pos.perft(4), naive_perft(&pos, 4));
}

#[test]
fn perft_depth_is_capped() {
    assert_eq!(Position::MAX_PERFT_DEPTH, 32);
    // A finished game: every depth from 1 on is 0, the cap included, without recursing.
    let mut g = crate::common::start();
    g.resign(Side::White).unwrap();
    for depth in [1, 2, Position::MAX_PERFT_DEPTH, u32::MAX] {
        assert_eq!(g.perft(depth), 0);
    }
    assert_eq!(g.perft(0), 1);
}
