//! Squares, ranks, sides, moves and their text forms.

use salpakan::{Bitboard, Direction, Move, ParseError, Rank, Side, Square};

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
    for bad in ["", "a", "a0", "a9", "j1", "A1", "e44", "1e", "e-"] {
        assert_eq!(
            bad.parse::<Square>(),
            Err(ParseError::Square(bad.into())),
            "{bad:?}"
        );
    }
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
    for bad in ["e3e4", "e3-", "-e4", "e3-e9", "z1-a1", "e3--e4"] {
        assert_eq!(
            bad.parse::<Move>(),
            Err(ParseError::Move(bad.into())),
            "{bad}"
        );
    }
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
