//! What AI users build on: playouts, action ids and masks, Zobrist hashes.

mod common;

use std::collections::HashMap;

use common::{game, mv, play_all, rules4};
use proptest::prelude::*;
use salpakan::{Game, Move, Rules, Setup, Side, SplitMix64, Square};

fn random_game(seed: u64) -> Game {
    let rules = Rules::default();
    Game::new(
        Setup::random(Side::White, rules, seed),
        Setup::random(Side::Black, rules, seed.wrapping_mul(31) + 7),
        Side::White,
        rules,
    )
    .unwrap()
}

#[test]
fn action_ids_cover_every_step_exactly_once() {
    let mut seen = 0;
    for id in 0..Move::NUM_ACTIONS as u16 {
        if let Some(m) = Move::from_action(id) {
            assert_eq!(m.action(), Some(id));
            assert_eq!(m.from.index(), usize::from(id / 4));
            seen += 1;
        }
    }
    // 72 squares x 4 directions minus the steps off the board (8 + 8 rows, 9 + 9 files).
    assert_eq!(seen, 288 - 2 * 9 - 2 * 8);
    assert_eq!(Move::from_action(288), None);
    assert_eq!(mv("e3-e5").action(), None);
    // Direction numbering: 0 up, 1 down, 2 left, 3 right.
    let e3: Square = "e3".parse().unwrap();
    assert_eq!(mv("e3-e4").action(), Some(e3.index() as u16 * 4));
    assert_eq!(mv("e3-e2").action(), Some(e3.index() as u16 * 4 + 1));
    assert_eq!(mv("e3-d3").action(), Some(e3.index() as u16 * 4 + 2));
    assert_eq!(mv("e3-f3").action(), Some(e3.index() as u16 * 4 + 3));
}

#[test]
fn the_action_mask_is_exactly_the_legal_moves() {
    for seed in 0..20 {
        let mut g = random_game(seed);
        let mut rng = SplitMix64::new(seed);
        for _ in 0..60 {
            let mask = g.legal_action_mask();
            let moves = g.legal_moves();
            assert_eq!(mask.len(), moves.len());
            for m in moves.iter() {
                assert!(mask.contains(m.action().unwrap()), "{m}");
            }
            let from_mask: Vec<Move> = mask
                .iter()
                .map(|id| Move::from_action(id).unwrap())
                .collect();
            assert!(from_mask.iter().all(|m| moves.contains(m)));
            match g.position().random_move(&mut rng) {
                Some(m) => {
                    g.play(m).unwrap();
                }
                None => break,
            }
        }
        if !g.status().is_ongoing() {
            assert!(g.legal_action_mask().is_empty());
        }
    }
}

#[test]
fn playouts_repeat_for_a_seed_and_leave_the_game_unchanged() {
    let g = random_game(3);
    let before = g.clone();
    let a = g.playout(11, 100_000);
    assert_eq!(g, before);
    assert_eq!(a, g.playout(11, 100_000));
    assert!(
        !a.status.is_ongoing(),
        "random games end well before 100000 plies"
    );
    let distinct: std::collections::HashSet<u32> =
        (0..20).map(|s| g.playout(s, 100_000).plies).collect();
    assert!(distinct.len() > 10, "different seeds, different games");
}

#[test]
fn a_playout_stops_at_the_ply_cap() {
    let g = random_game(4);
    let p = g.playout(1, 5);
    assert_eq!(p.plies, 5);
    assert!(p.status.is_ongoing());
    assert_eq!(g.playout(1, 0).plies, 0);
}

#[test]
fn a_playout_replays_as_the_same_game_through_play() {
    // The playout's random choices, made again one by one with the same generator, give a
    // legal game that ends the same way.
    for seed in 0..10 {
        let g = random_game(seed);
        let p = g.playout(seed, 100_000);
        let mut replay = g.clone();
        let mut rng = SplitMix64::new(seed);
        while let Some(m) = replay.position().random_move(&mut rng) {
            replay.play(m).unwrap();
        }
        assert_eq!(replay.status(), p.status, "seed {seed}");
        assert_eq!(replay.history().len() as u32, p.plies, "seed {seed}");
    }
}

#[test]
fn random_moves_are_uniform_over_the_legal_moves() {
    let g = random_game(9);
    let moves = g.legal_moves();
    let mut rng = SplitMix64::new(1);
    let mut counts: HashMap<Move, u32> = HashMap::new();
    let draws = 40_000;
    for _ in 0..draws {
        *counts
            .entry(g.position().random_move(&mut rng).unwrap())
            .or_default() += 1;
    }
    assert_eq!(
        counts.len(),
        moves.len(),
        "every legal move is drawn, nothing else"
    );
    let expected = f64::from(draws) / moves.len() as f64;
    let chi2: f64 = counts
        .values()
        .map(|&c| (f64::from(c) - expected).powi(2) / expected)
        .sum();
    // 99.9% quantile of chi-square with (k - 1) degrees of freedom, k <= 84: well under 150.
    assert!(chi2 < 150.0, "chi-square {chi2} over {} moves", moves.len());
}

#[test]
fn hashes_follow_the_pieces_and_the_side_to_move() {
    let g = random_game(5);
    let h0 = g.position().hash();
    let mut a = g.clone();
    play_all(&mut a, "a3-a4");
    assert_ne!(a.position().hash(), h0);
    // Transpositions: the same pieces and side to move, reached two ways, hash alike.
    let mut g1 = game(("PV:a4 PV:i4", ""), ("", ""), Side::White, rules4());
    let mut g2 = g1.clone();
    play_all(&mut g1, "a4-a5 a6-a5 i4-i5");
    play_all(&mut g2, "i4-i5 a6-a5 a4-a5");
    assert_eq!(g1.position().hash(), g2.position().hash());
    for side in Side::ALL {
        assert_eq!(g1.position().occupied(side), g2.position().occupied(side));
    }
    let mut g3 = g1.clone();
    play_all(&mut g3, "b6-b5 i5-i4");
    assert_ne!(g3.position().hash(), g1.position().hash());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn random_move_and_mask_agree_with_the_list(seed in any::<u64>(), plies in 0usize..120) {
        let mut g = random_game(seed);
        let mut rng = SplitMix64::new(seed ^ 1);
        for _ in 0..plies {
            match g.position().random_move(&mut rng) {
                Some(m) => { g.play(m).unwrap(); }
                None => break,
            }
        }
        let moves = g.legal_moves();
        for _ in 0..20 {
            match g.position().random_move(&mut rng) {
                Some(m) => prop_assert!(moves.contains(&m)),
                None => prop_assert!(moves.is_empty()),
            }
        }
    }
}
