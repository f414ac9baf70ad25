//! Property tests over random setups and random games.

use crate::common::{dealt, naive_moves};
use salpakan::{Game, Move, Outcome, Rules, Setup, Side, SplitMix64, Square};

use proptest::prelude::*;

fn random_game(white: u64, black: u64, rows: u8, black_first: bool, limit: u16) -> Game {
    let rules = Rules::new(rows, limit).unwrap();
    let first = if black_first {
        Side::Black
    } else {
        Side::White
    };
    dealt(rules, white, black, first)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_invariant(
        white in any::<u64>(),
        black in any::<u64>(),
        rows in 3u8..=4,
        black_first in any::<bool>(),
        seed in any::<u64>(),
        limit in prop_oneof![Just(0u16), 5u16..60],
    ) {
        let mut game = random_game(white, black, rows, black_first, limit);
        let mut rng = SplitMix64::new(seed);
        for _ in 0..400 {
            let pos = *game.position();
            let mut fast: Vec<Move> = game.legal_moves().to_vec();
            fast.sort();
            prop_assert_eq!(&fast, &naive_moves(&pos));
            prop_assert_eq!(pos.count_legal_moves() as usize, fast.len());
            if !game.status().is_ongoing() {
                prop_assert!(fast.is_empty());
                break;
            }
            // A side always has a legal move.
            prop_assert!(!fast.is_empty());

            // A random, usually illegal, move: rejected without a change, or accepted exactly
            // when it is in the legal list.
            let from = Square::try_index(rng.below(72) as usize).unwrap();
            let to = Square::try_index(rng.below(72) as usize).unwrap();
            let random = Move::new(from, to);
            let mut trial = game.clone();
            match trial.play(random) {
                Ok(_) => prop_assert!(fast.contains(&random)),
                Err(_) => {
                    prop_assert!(!fast.contains(&random));
                    prop_assert_eq!(&trial, &game);
                }
            }

            let mv = fast[rng.below(fast.len() as u64) as usize];
            let us = pos.side_to_move();
            let counts = |g: &Game| Side::ALL.map(|s| g.position().occupied(s).len());
            let before = counts(&game);
            let mover_rank = pos.piece_at(mv.from).unwrap().1;
            let report = game.play(mv).unwrap();
            let after = counts(&game);
            let (ours, theirs) = (us.index(), us.other().index());
            let (lost_ours, lost_theirs) = match report.outcome {
                None => (0, 0),
                Some(Outcome::Win) => (0, 1),
                Some(Outcome::Lose) => (1, 0),
                Some(Outcome::Tie) => (1, 1),
            };
            // Piece counts never grow, and only the pieces in a challenge are removed.
            prop_assert_eq!(after[ours], before[ours] - lost_ours);
            prop_assert_eq!(after[theirs], before[theirs] - lost_theirs);
            prop_assert_eq!(report.outcome.is_some(), pos.occupied(us.other()).has(mv.to));
            // No own piece is ever captured: the mover's own pieces other than the mover stay.
            let others = pos.occupied(us).without(mv.from);
            prop_assert_eq!(game.position().occupied(us) & others, others);
            if report.outcome == Some(Outcome::Win) || report.outcome.is_none() {
                prop_assert_eq!(game.position().piece_at(mv.to), Some((us, mover_rank)));
            }
            prop_assert_eq!(report.status, game.status());
            prop_assert_eq!(game.side_to_move(), us.other());
        }
    }

    #[test]
    fn random_setups_are_always_valid(seed in any::<u64>(), rows in 3u8..=4, black in any::<bool>()) {
        let rules = Rules::new(rows, 0).unwrap();
        let side = if black { Side::Black } else { Side::White };
        let setup = Setup::random(side, rules, seed);
        prop_assert_eq!(Setup::new(side, rules, setup.pieces()), Ok(setup.clone()));
        prop_assert!((setup.occupied() & !rules.setup_zone(side)).is_empty());
    }

    #[test]
    fn arbitrary_setups_are_validated_without_panicking(
        placements in proptest::collection::vec((0usize..72, 0usize..15), 0..30),
        rows in 3u8..=4,
    ) {
        let rules = Rules::new(rows, 0).unwrap();
        let pieces: Vec<_> = placements
            .iter()
            .map(|&(s, r)| (Square::try_index(s).unwrap(), salpakan::Rank::try_index(r).unwrap()))
            .collect();
        if let Err(err) = Setup::new(Side::White, rules, pieces) {
            prop_assert!(!err.to_string().is_empty());
        }
    }
}
