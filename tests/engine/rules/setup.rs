//! Setup validation, its error messages, and seeded random setups.

use crate::common::{pieces, sq};
use salpakan::{Game, Rank, Rules, RulesError, Setup, SetupError, Side, Square};

/// A valid White formation for the 3-row zone: rows 1-2 full, a3-c3.
const WHITE: &str = "FL:a1 PV:b1 PV:c1 PV:d1 PV:e1 PV:f1 PV:g1 SG:h1 2L:i1 1L:a2 CP:b2 MJ:c2 \
                     LC:d2 CO:e2 1G:f2 2G:g2 3G:h2 4G:i2 5G:a3 SP:b3 SP:c3";

fn white_pieces() -> Vec<(Square, Rank)> {
    pieces(WHITE)
}

/// White's formation `p` (the 3-row zone) is refused with `expected`, which reads `message`.
fn refused(p: Vec<(Square, Rank)>, expected: SetupError, message: &str) {
    let err = Setup::new(Side::White, Rules::default(), p).unwrap_err();
    assert_eq!(err, expected);
    assert_eq!(err.to_string(), message);
}

#[test]
fn a_full_army_in_the_zone_is_accepted() {
    let setup = Setup::new(Side::White, Rules::default(), white_pieces()).unwrap();
    assert_eq!(setup.pieces().count(), 21);
    assert_eq!(setup.rank_at(sq("a1")), Some(Rank::Flag));
    assert_eq!(setup.rank_at(sq("d3")), None);
    let again = Setup::from_cells(Side::White, Rules::default(), setup.cells()).unwrap();
    assert_eq!(again, setup);
}

#[test]
fn an_over_counted_rank_is_named_with_its_count() {
    let mut p = white_pieces();
    p.retain(|(_, r)| *r != Rank::FiveStarGeneral);
    p.push((sq("a3"), Rank::Private));
    refused(
        p,
        SetupError::TooMany {
            rank: Rank::Private,
            expected: 6,
            found: 7,
        },
        "too many of rank PV (Private): 7 placed, an army has 6",
    );
}

#[test]
fn an_under_counted_rank_is_named_with_its_count() {
    let mut p = white_pieces();
    p.retain(|(s, _)| *s != sq("c3"));
    refused(
        p,
        SetupError::TooFew {
            rank: Rank::Spy,
            expected: 2,
            found: 1,
        },
        "too few of rank SP (Spy): 1 placed, an army has 2",
    );
}

#[test]
fn a_second_flag_is_too_many_flags() {
    let mut p = white_pieces();
    p.retain(|(s, _)| *s != sq("c3"));
    p.push((sq("c3"), Rank::Flag));
    refused(
        p,
        SetupError::TooMany {
            rank: Rank::Flag,
            expected: 1,
            found: 2,
        },
        "too many of rank FL (Flag): 2 placed, an army has 1",
    );
}

#[test]
fn a_piece_outside_the_zone_is_named_by_square() {
    let mut p = white_pieces();
    p[0].0 = sq("a4");
    refused(
        p.clone(),
        SetupError::OutsideZone {
            side: Side::White,
            square: sq("a4"),
            rows: 3,
        },
        "square a4 is outside White's setup zone (rows 1-3)",
    );
    // The 4-row zone (the whole half) accepts it.
    assert!(Setup::new(Side::White, Rules::new(4, 0).unwrap(), p).is_ok());
}

#[test]
fn blacks_zone_is_rows_six_to_eight() {
    let rules = Rules::default();
    let flipped: Vec<_> = white_pieces()
        .into_iter()
        .map(|(s, r)| (Square::from_coords(s.file(), 7 - s.row()).unwrap(), r))
        .collect();
    assert!(Setup::new(Side::Black, rules, flipped.clone()).is_ok());
    let err = Setup::new(Side::White, rules, flipped).unwrap_err();
    assert!(matches!(
        err,
        SetupError::OutsideZone {
            side: Side::White,
            ..
        }
    ));
    let err = Setup::new(Side::Black, rules, white_pieces()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "square a1 is outside Black's setup zone (rows 6-8)"
    );
}

#[test]
fn two_pieces_on_one_square_are_rejected() {
    let mut p = white_pieces();
    p[1].0 = sq("a1");
    let err = Setup::new(Side::White, Rules::default(), p).unwrap_err();
    assert_eq!(err, SetupError::SquareTaken { square: sq("a1") });
    assert_eq!(err.to_string(), "two pieces on square a1");
}

#[test]
fn a_game_checks_each_setup_is_for_its_side_and_fits_the_zone() {
    let rules = Rules::default();
    let white = Setup::random(Side::White, rules, 1);
    let black = Setup::random(Side::Black, rules, 2);
    let err = Game::new(black.clone(), white.clone(), Side::White, rules).unwrap_err();
    assert_eq!(
        err,
        SetupError::WrongSide {
            expected: Side::White,
            found: Side::Black
        }
    );

    let rules4 = Rules::new(4, 0).unwrap();
    let mut p = white_pieces();
    p[0].0 = sq("e4");
    let wide = Setup::new(Side::White, rules4, p).unwrap();
    let err = Game::new(wide, black, Side::White, rules).unwrap_err();
    assert_eq!(
        err,
        SetupError::OutsideZone {
            side: Side::White,
            square: sq("e4"),
            rows: 3
        }
    );
}

#[test]
fn rules_accept_only_three_or_four_setup_rows() {
    for rows in [0, 1, 2, 5, 8, 255] {
        assert_eq!(
            Rules::new(rows, 0),
            Err(RulesError::SetupRows(i64::from(rows)))
        );
    }
    assert_eq!(Rules::new(3, 0).unwrap(), Rules::default());
    assert_eq!(Rules::new(4, 9).unwrap().move_limit(), Some(9));
}

#[test]
fn random_setups_are_valid_for_both_sides_and_zones() {
    for rows in [3, 4] {
        let rules = Rules::new(rows, 0).unwrap();
        for side in Side::ALL {
            for seed in 0..200 {
                let setup = Setup::random(side, rules, seed);
                let again = Setup::new(side, rules, setup.pieces());
                assert_eq!(again.as_ref(), Ok(&setup), "{side} rows {rows} seed {seed}");
            }
        }
    }
}

#[test]
fn random_setups_depend_only_on_the_seed() {
    let rules = Rules::default();
    assert_eq!(
        Setup::random(Side::White, rules, 9),
        Setup::random(Side::White, rules, 9)
    );
    let distinct: std::collections::HashSet<_> = (0..50)
        .map(|seed| Setup::random(Side::White, rules, seed))
        .collect();
    assert_eq!(distinct.len(), 50);
}

#[test]
fn random_setup_is_the_same_on_every_platform() {
    // Fixed output of the documented algorithm (SplitMix64, Fisher-Yates, army in rank order).
    // If this changes, every stored seed changes meaning.
    let setup = Setup::random(Side::White, Rules::default(), 2024);
    let text: Vec<String> = setup
        .pieces()
        .map(|(s, r)| format!("{}:{s}", r.code()))
        .collect();
    assert_eq!(text.join(" "), GOLDEN);
}

/// Cross-checked with an independent implementation of the documented algorithm.
const GOLDEN: &str = "FL:a1 LC:b1 5G:d1 PV:e1 PV:f1 PV:g1 MJ:i1 CO:a2 CP:b2 SP:c2 2G:e2 PV:f2 SG:g2 \
                      3G:i2 1L:a3 PV:c3 1G:d3 PV:e3 SP:f3 4G:g3 2L:i3";

/// `Setup::from_cells` (which checks the cells without a branch per cell) gives exactly what
/// `Setup::new` gives for the same pieces in square order: the same setup, or the same first
/// error. The cells start from a random valid formation of either zone and get a few random
/// edits (a rank changed, a piece moved anywhere, a piece added or removed), so that every
/// kind of error and valid formations all occur.
#[test]
fn from_cells_agrees_with_new_on_random_edits() {
    let mut rng = salpakan::SplitMix64::new(31);
    let mut outcomes = std::collections::BTreeSet::new();
    for round in 0..4000u64 {
        let side = Side::ALL[(round % 2) as usize];
        let rules = Rules::new(3 + (round / 2 % 2) as u8, 0).unwrap();
        let other_rules = Rules::new(7 - rules.setup_rows(), 0).unwrap();
        let mut cells = *Setup::random(side, rules, round).cells();
        for _ in 0..rng.below(3) {
            let square = rng.below(72) as usize;
            cells[square] = match rng.below(3) {
                0 => None,
                _ => Some(Rank::ALL[rng.below(15) as usize]),
            };
        }
        for check in [rules, other_rules] {
            let pieces: Vec<(Square, Rank)> = Square::ALL
                .into_iter()
                .filter_map(|square| cells[square.index()].map(|rank| (square, rank)))
                .collect();
            let expected = Setup::new(side, check, pieces);
            let found = Setup::from_cells(side, check, &cells);
            assert_eq!(found, expected, "round {round}");
            if let Ok(setup) = &found {
                assert_eq!(setup.occupied().len(), 21);
                assert!(setup.pieces().all(|(s, r)| cells[s.index()] == Some(r)));
            }
            outcomes.insert(match found {
                Ok(_) => "ok",
                Err(SetupError::OutsideZone { .. }) => "outside",
                Err(SetupError::TooMany { .. }) => "too many",
                Err(SetupError::TooFew { .. }) => "too few",
                Err(_) => "other",
            });
        }
    }
    assert_eq!(
        outcomes.into_iter().collect::<Vec<_>>(),
        ["ok", "outside", "too few", "too many"]
    );
}
