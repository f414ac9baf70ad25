//! The shape of the public API: readable `Debug` and `Display` forms, the text of each value
//! printed and read in one grammar, and the limits that keep every input bounded.

use salpakan::{
    ActionMask, Bitboard, DrawReason, Game, Move, Outcome, PieceId, Position, Report, Rules, Setup,
    Side, Square, Status, WinReason,
};

fn game(seed: u64) -> Game {
    let rules = Rules::default();
    Game::new(
        Setup::random(Side::White, rules, seed),
        Setup::random(Side::Black, rules, seed + 1),
        Side::White,
        rules,
    )
    .unwrap()
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

#[test]
fn debug_forms_are_readable() {
    assert_eq!(format!("{:?}", sq("e4")), "e4");
    assert_eq!(format!("{:?}", PieceId::new(Side::Black, 3).unwrap()), "B3");
    let bb = Bitboard::EMPTY.with(sq("a1")).with(sq("i8"));
    assert_eq!(
        format!("{bb:?}"),
        "Bitboard(........X/........./........./........./........./........./........./X........)"
    );
    let grid = format!("{bb:#?}");
    assert_eq!(grid.lines().count(), 10, "{grid}");
    assert!(grid.contains("\n    X........\n"));
    let setup = Setup::random(Side::White, Rules::default(), 4);
    assert!(format!("{setup:?}").contains(&setup.to_string()));
}

#[test]
fn every_enum_has_the_same_items() {
    assert_eq!(Side::NUM, 2);
    assert_eq!(Outcome::ALL, [Outcome::Win, Outcome::Lose, Outcome::Tie]);
    assert_eq!(WinReason::NUM, 3);
    assert_eq!(DrawReason::ALL.len(), DrawReason::NUM);
    for (i, reason) in WinReason::ALL.into_iter().enumerate() {
        assert_eq!(reason.index(), i);
        assert_eq!(WinReason::try_index(i), Some(reason));
        assert_eq!(reason.to_string(), reason.name());
    }
    assert_eq!(WinReason::try_index(3), None);
    assert_eq!(DrawReason::MoveLimit.index(), 1);
    assert_eq!(DrawReason::MoveLimit as u8, 5, "the C value");
    assert_eq!(Outcome::Tie.name(), "tie");
}

#[test]
fn a_status_has_one_text_grammar() {
    let mut all = vec![Status::Ongoing];
    for winner in Side::ALL {
        for reason in WinReason::ALL {
            all.push(Status::Won { winner, reason });
        }
    }
    for reason in DrawReason::ALL {
        all.push(Status::Drawn { reason });
    }
    let mut tokens = std::collections::BTreeSet::new();
    for status in all {
        let token = status.token();
        assert_eq!(token.parse::<Status>().unwrap(), status);
        assert!(tokens.insert(token));
    }
    assert_eq!(tokens.len(), 9);
    for bad in [
        "",
        "ongoing",
        "White:resignation",
        "draw:flag-captured",
        "white:",
        "draw",
    ] {
        assert!(bad.parse::<Status>().is_err(), "{bad:?}");
    }
}

#[test]
fn a_report_displays_its_announcement() {
    let mv: Move = "e4-e5".parse().unwrap();
    let plain = Report {
        mv,
        outcome: None,
        status: Status::Ongoing,
    };
    assert_eq!(plain.to_string(), "e4-e5");
    let won = Report {
        mv,
        outcome: Some(Outcome::Win),
        status: Status::Won {
            winner: Side::White,
            reason: WinReason::FlagCaptured,
        },
    };
    assert_eq!(won.to_string(), "e4-e5 win (White wins: flag captured)");
}

#[test]
fn a_move_is_written_and_read_with_its_board() {
    let mut challenges = 0;
    for seed in 0..20 {
        let mut g = game(seed * 7);
        let mut rng = salpakan::SplitMix64::new(seed);
        while g.status().is_ongoing() && g.history().len() < 300 {
            let pos = *g.position();
            for mv in pos.legal_moves() {
                let text = pos.move_text(mv);
                assert_eq!(pos.parse_move(&text).unwrap(), mv);
                let other = if text.contains('x') {
                    challenges += 1;
                    text.replace('x', "-")
                } else {
                    text.replace('-', "x")
                };
                assert!(pos.parse_move(&other).is_err(), "{other}");
            }
            let mv = pos.random_move(&mut rng).unwrap();
            g.play(mv).unwrap();
        }
    }
    assert!(challenges > 100, "challenges were written: {challenges}");
}

#[test]
fn position_text_converts_both_ways() {
    let g = game(3);
    let text = g.position().to_text();
    let back = Position::try_from(text).unwrap();
    assert_eq!(back, *g.position());
    let view = g.view(Side::White).to_text();
    assert!(
        Position::try_from(view).is_err(),
        "a view hides ranks: no position"
    );
}

#[test]
fn action_masks_and_bitboards_have_their_defaults_and_order() {
    assert!(ActionMask::default().is_empty());
    assert_eq!(ActionMask::default(), ActionMask::EMPTY);
    let a = Bitboard::EMPTY.with(sq("a1"));
    let b = Bitboard::EMPTY.with(sq("b1"));
    assert!(a < b && Bitboard::EMPTY < a);
    assert_eq!(Move::NUM_ACTIONS, 288);
    assert_eq!(salpakan::MoveList::CAPACITY, 84);
    assert_eq!((Square::FILES, Square::ROWS), (9, 8));
}

#[test]
fn tags_are_bounded_and_refused_visibly() {
    let mut g = game(5);
    assert!(g.set_tag("Event", "club night"));
    assert_eq!(g.tag("Event"), Some("club night"));
    assert!(!g.set_tag("Result", "x"), "the record's own tag");
    assert!(!g.set_tag("Bad Name", "x"));
    assert!(!g.set_tag("Long", &"x".repeat(Game::MAX_TAG_LEN + 1)));
    assert!(g.set_tag("Long", &"x".repeat(Game::MAX_TAG_LEN)));
    for i in 0..Game::MAX_TAGS {
        g.set_tag(&format!("T{i}"), "v");
    }
    assert_eq!(g.tags().count(), Game::MAX_TAGS);
    assert!(!g.set_tag("OneMore", "v"));
    assert!(
        g.set_tag("Event", "replaced"),
        "an existing tag can still change"
    );
    // The record holds them all and reads back.
    let back = Game::from_record(&g.record()).unwrap();
    assert_eq!(back, g);
    // One tag more than a game can hold is refused with its line.
    let record = g.record().replacen("[Result", "[Extra \"1\"]\n[Result", 1);
    let err = Game::from_record(&record).unwrap_err();
    assert!(err.expected.contains("at most"), "{err}");
    // A value one character too long is refused where it goes over.
    let mut short = game(5);
    short.set_tag("Long", &"y".repeat(Game::MAX_TAG_LEN));
    let record = short.record().replace(
        &"y".repeat(Game::MAX_TAG_LEN),
        &"y".repeat(Game::MAX_TAG_LEN + 1),
    );
    let err = Game::from_record(&record).unwrap_err();
    assert!(err.expected.contains("characters"), "{err}");
}
