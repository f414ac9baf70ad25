//! The small values and the shape of the public API: squares, ranks, sides, moves and
//! outcomes, their text forms, readable `Debug` and `Display` forms, one grammar for each
//! value printed and read, and the limits that keep every input bounded.

use crate::common::start;
use salpakan::text::ParseError;
use salpakan::{
    ActionMask, Bitboard, Direction, DrawReason, Game, Move, MoveList, Outcome, PieceId, Position,
    Rank, Report, Rules, Setup, Side, Square, Status, WinReason,
};
use std::fmt::Debug;
use std::str::FromStr;

#[test]
fn square_numbering_is_row_major_from_a1() {
    let cases = [("a1", 0), ("i1", 8), ("a2", 9), ("e4", 31), ("i8", 71)];
    for (name, index) in cases {
        let square: Square = name.parse().unwrap();
        assert_eq!(square.index(), index, "{name}");
        assert_eq!(Square::try_index(index).unwrap().to_string(), name);
    }
    for (i, square) in Square::ALL.iter().enumerate() {
        assert_eq!(square.index(), i);
        assert_eq!(square.to_string().parse::<Square>().unwrap(), *square);
        assert_eq!(
            square.index(),
            square.row() as usize * 9 + square.file() as usize
        );
    }
    assert_eq!(Square::try_index(72), None);
}

#[test]
fn bad_square_text_is_rejected_by_name() {
    refuses::<Square>(
        &["", "a", "a0", "a9", "j1", "A1", "e44", "1e", "e-"],
        ParseError::Square,
    );
}

#[test]
fn offsets_stop_at_every_edge_and_never_wrap() {
    for square in Square::ALL {
        for direction in Direction::ALL {
            let (df, dr) = direction.delta();
            let (f, r) = (
                square.file() as i32 + df as i32,
                square.row() as i32 + dr as i32,
            );
            let expected = ((0..9).contains(&f) && (0..8).contains(&r))
                .then(|| Square::try_index((r * 9 + f) as usize).unwrap());
            assert_eq!(square.offset(direction), expected, "{square} {direction:?}");
            let shifted = Bitboard::from_square(square).shift(direction);
            assert_eq!(shifted.first(), expected, "bitboard {square} {direction:?}");
        }
    }
    let i3: Square = "i3".parse().unwrap();
    assert_eq!(i3.offset(Direction::Right), None);
    assert_eq!(Move::step(i3, Direction::Right), None);
}

#[test]
fn rank_values_codes_and_counts_follow_the_rules() {
    let expected = [
        ("FL", 0, 1),
        ("PV", 1, 6),
        ("SG", 2, 1),
        ("2L", 3, 1),
        ("1L", 4, 1),
        ("CP", 5, 1),
        ("MJ", 6, 1),
        ("LC", 7, 1),
        ("CO", 8, 1),
        ("1G", 9, 1),
        ("2G", 10, 1),
        ("3G", 11, 1),
        ("4G", 12, 1),
        ("5G", 13, 1),
        ("SP", 14, 2),
    ];
    for (code, value, count) in expected {
        let rank: Rank = code.parse().unwrap();
        assert_eq!(rank.index(), value, "{code}");
        assert_eq!(rank.count(), count, "{code}");
        assert_eq!(rank.code(), code);
        assert_eq!(rank.to_string(), rank.name());
        assert_eq!(
            rank.name().parse::<Rank>().unwrap(),
            rank,
            "the name parses too"
        );
        assert_eq!(Rank::try_index(value), Some(rank));
        assert_eq!(
            Rank::parse_with_side(&code.to_lowercase()).unwrap(),
            (rank, Side::Black)
        );
    }
    assert_eq!(Rank::try_index(15), None);
    let total: usize = Rank::ALL.iter().map(|r| r.count() as usize).sum();
    assert_eq!(total, Rank::ARMY_SIZE);
    assert_eq!(Rank::ARMY_SIZE, 21);
    assert!("XX".parse::<Rank>().is_err());
    assert!("Pv".parse::<Rank>().is_err());
}

#[test]
fn moves_print_and_parse() {
    let mv: Move = "e3-e4".parse().unwrap();
    assert_eq!(mv.from.to_string(), "e3");
    assert_eq!(mv.to.to_string(), "e4");
    assert_eq!(mv.to_string(), "e3-e4");
    assert_eq!("e3xe4".parse::<Move>().unwrap(), mv);
    refuses::<Move>(
        &["e3e4", "e3-", "-e4", "e3-e9", "z1-a1", "e3--e4"],
        ParseError::Move,
    );
}

#[test]
fn sides_are_numbered_and_named() {
    assert_eq!(Side::White.index(), 0);
    assert_eq!(Side::Black.index(), 1);
    assert_eq!(Side::White.far_row(), 7);
    assert_eq!(Side::Black.far_row(), 0);
    assert_eq!("WHITE".parse::<Side>().unwrap(), Side::White);
    assert!("red".parse::<Side>().is_err());
}

fn game(seed: u64) -> Game {
    let rules = Rules::default();
    Game::dealt(Side::White, rules, seed)
}

/// Each of `bad` is refused with the error `error` makes of that text.
fn refuses<T>(bad: &[&str], error: fn(String) -> ParseError)
where
    T: FromStr<Err = ParseError> + Debug + PartialEq,
{
    for text in bad {
        assert_eq!(text.parse::<T>(), Err(error((*text).into())), "{text:?}");
    }
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
    assert_eq!(WinReason::NUM, 5);
    assert_eq!(DrawReason::ALL.len(), DrawReason::NUM);
    for (i, reason) in WinReason::ALL.into_iter().enumerate() {
        assert_eq!(reason.index(), i);
        assert_eq!(WinReason::try_index(i), Some(reason));
        assert_eq!(reason.to_string(), reason.name());
    }
    assert_eq!(WinReason::try_index(5), None);
    assert_eq!(DrawReason::MoveLimit.index(), 1);
    assert_eq!(DrawReason::MoveLimit as u8, 5, "the C value");
    assert_eq!(DrawReason::AbandonedByBoth as u8, 8, "the C value");
    assert_eq!(DrawReason::NUM, 3);
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
    assert_eq!(tokens.len(), 1 + 2 * WinReason::NUM + DrawReason::NUM);
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
fn a_status_and_an_outcome_are_read_back_from_their_words() {
    let mut all = vec![Status::Ongoing];
    for winner in Side::ALL {
        all.extend(WinReason::ALL.map(|reason| Status::Won { winner, reason }));
    }
    all.extend(DrawReason::ALL.map(|reason| Status::Drawn { reason }));
    for status in all {
        let words = (
            status.state_word(),
            status.winner().map(Side::word),
            status.reason_token(),
        );
        assert_eq!(Status::from_words(words.0, words.1, words.2), Ok(status));
    }
    for (state, winner, reason) in [
        ("ongoing", Some("white"), None),
        ("ongoing", None, Some("time")),
        ("won", None, Some("time")),
        ("won", Some("grey"), Some("time")),
        ("won", Some("white"), None),
        ("won", Some("white"), Some("agreement")),
        ("drawn", Some("white"), Some("agreement")),
        ("drawn", None, Some("time")),
        ("drawn", None, None),
        ("lost", None, None),
    ] {
        let err = Status::from_words(state, winner, reason).unwrap_err();
        assert!(
            matches!(err, ParseError::Status(_)),
            "{state} {winner:?} {reason:?}"
        );
    }
    for outcome in Outcome::ALL {
        assert_eq!(Outcome::from_word(outcome.name()), Ok(outcome));
    }
    for bad in ["", "Win", "draw", "winner"] {
        assert_eq!(
            Outcome::from_word(bad),
            Err(ParseError::Outcome(bad.into()))
        );
    }
    assert_eq!(
        ParseError::Outcome("x".into()).kind(),
        salpakan::bindings::ErrorKind::Argument
    );
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

#[test]
fn move_lists_compare_print_and_iterate() {
    let pos = *start().position();
    let list = pos.legal_moves();
    assert_eq!(list, pos.legal_moves());
    assert_ne!(list, MoveList::new());
    let debug = format!("{list:?}");
    assert!(debug.starts_with('[') && debug.contains(&format!("{:?}", list[0])));
    let by_ref: Vec<Move> = (&list).into_iter().copied().collect();
    assert_eq!(by_ref, list.to_vec());
    let mut iter = list.into_iter();
    assert_eq!(iter.size_hint(), (list.len(), Some(list.len())));
    assert_eq!(iter.len(), list.len());
    assert_eq!(iter.next(), Some(list[0]));
    assert_eq!(iter.size_hint(), (list.len() - 1, Some(list.len() - 1)));
    assert_eq!(iter.count(), list.len() - 1);
}

#[test]
fn outcomes_print_their_names() {
    let names: Vec<String> = Outcome::ALL.iter().map(|o| o.to_string()).collect();
    assert_eq!(names, ["win", "lose", "tie"]);
}

/// The words the bindings write for a status: its state, its winner, its reason's token.
#[test]
fn statuses_have_their_words() {
    let won = |winner, reason| Status::Won { winner, reason };
    let cases = [
        (Status::Ongoing, "ongoing", None, None),
        (
            won(Side::White, WinReason::FlagCaptured),
            "won",
            Some("white"),
            Some("flag-captured"),
        ),
        (
            won(Side::Black, WinReason::FlagReachedEnd),
            "won",
            Some("black"),
            Some("flag-reached-end"),
        ),
        (
            won(Side::Black, WinReason::Resignation),
            "won",
            Some("black"),
            Some("resignation"),
        ),
        (
            Status::Drawn {
                reason: DrawReason::Agreement,
            },
            "drawn",
            None,
            Some("agreement"),
        ),
        (
            Status::Drawn {
                reason: DrawReason::MoveLimit,
            },
            "drawn",
            None,
            Some("move-limit"),
        ),
        (
            Status::Drawn {
                reason: DrawReason::AbandonedByBoth,
            },
            "drawn",
            None,
            Some("abandoned"),
        ),
    ];
    for (status, state, winner, reason) in cases {
        assert_eq!(status.state_word(), state, "{status}");
        assert_eq!(status.winner().map(Side::word), winner, "{status}");
        assert_eq!(status.reason_token(), reason, "{status}");
        // The token is the words joined, as the position text and the record write it.
        let token = match (winner, reason) {
            (Some(w), Some(r)) => format!("{w}:{r}"),
            (None, Some(r)) => format!("draw:{r}"),
            _ => "-".to_owned(),
        };
        assert_eq!(status.token(), token);
        assert_eq!(token.parse::<Status>(), Ok(status));
    }
    // The win reasons' numbers are the C ABI's, with room for the draw reasons (4 and 5).
    let numbers: Vec<u8> = WinReason::ALL.iter().map(|&r| r as u8).collect();
    assert_eq!(numbers, [1, 2, 3, 6, 7]);
    for (i, reason) in WinReason::ALL.into_iter().enumerate() {
        assert_eq!(reason.index(), i);
        assert_eq!(WinReason::try_index(i), Some(reason));
    }
    assert_eq!(WinReason::try_index(5), None);
}
