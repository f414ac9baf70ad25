//! Bounded, exact behaviour on hostile or odd input: states no game can reach are refused by
//! the position text, counters never wrap, perft depth is capped, and the small public items
//! an outside mutation run found untested each have a test that pins them.

mod common;

use common::{game, mv, rules4, sq};
use salpakan::{
    ErrorKind, Game, Move, MoveError, MoveList, ObserveError, Outcome, PieceId, Position, Rank,
    Report, Rules, Setup, Side, SplitMix64, Status, Tracker, WinReason,
};

fn start() -> Game {
    let rules = Rules::default();
    Game::new(
        Setup::random(Side::White, rules, 1),
        Setup::random(Side::Black, rules, 2),
        Side::White,
        rules,
    )
    .unwrap()
}

/// The start position's text with its last seven fields (side to move onwards) replaced.
fn with_fields(fields: &str) -> String {
    let text = start().position().to_string();
    let board = text.split(' ').next().unwrap();
    format!("{board} {fields}")
}

#[test]
fn a_text_whose_counters_no_game_reaches_is_refused() {
    // Ongoing, with the plies since the last challenge at the move limit: the last move would
    // have drawn the game.
    let err = with_fields("w - 5 5 3 5 -")
        .parse::<Position>()
        .unwrap_err();
    assert!(err.expected.contains("draw:move-limit"), "{err}");
    // One below the limit goes on.
    assert!(with_fields("w - 4 5 3 5 -").parse::<Position>().is_ok());
    // Over the limit, or more quiet plies than plies: never.
    let err = with_fields("w - 6 9 3 5 -")
        .parse::<Position>()
        .unwrap_err();
    assert!(err.expected.contains("move limit"), "{err}");
    let err = with_fields("w - 5 0 3 0 -")
        .parse::<Position>()
        .unwrap_err();
    assert!(err.expected.contains("plies played"), "{err}");
    // A draw by the limit needs the limit reached.
    let err = with_fields("w - 3 5 3 5 draw:move-limit")
        .parse::<Position>()
        .unwrap_err();
    assert!(err.expected.contains("draw:move-limit"), "{err}");
    assert!(
        with_fields("w - 5 5 3 5 draw:move-limit")
            .parse::<Position>()
            .is_ok()
    );
}

#[test]
fn a_text_whose_status_does_not_fit_the_flags_is_refused() {
    // The start position has both Flags on their home sides.
    for status in ["white:flag-reached-end", "black:flag-reached-end"] {
        let err = with_fields(&format!("w - 0 9 3 0 {status}"))
            .parse::<Position>()
            .unwrap_err();
        assert!(err.expected.contains("far row"), "{status}: {err}");
    }
    for status in ["white:flag-captured", "black:flag-captured"] {
        let err = with_fields(&format!("w - 0 9 3 0 {status}"))
            .parse::<Position>()
            .unwrap_err();
        assert!(err.expected.contains("Flag gone"), "{status}: {err}");
    }
    for status in ["white:resignation", "draw:agreement", "-"] {
        assert!(
            with_fields(&format!("w - 0 9 3 0 {status}"))
                .parse::<Position>()
                .is_ok(),
            "{status}"
        );
    }
}

#[test]
fn every_reachable_end_still_parses() {
    // Random games to their end, with and without a move limit: the end position's text (and
    // every text before it) reads back, so the new checks refuse nothing a game reaches.
    let mut ends = std::collections::BTreeSet::new();
    for seed in 0..200u64 {
        let rules = Rules::new(3 + (seed % 2) as u8, if seed % 3 == 0 { 30 } else { 0 }).unwrap();
        let mut g = Game::new(
            Setup::random(Side::White, rules, seed),
            Setup::random(Side::Black, rules, seed + 500),
            Side::ALL[(seed % 2) as usize],
            rules,
        )
        .unwrap();
        let mut rng = SplitMix64::new(seed);
        while g.status().is_ongoing() {
            let mv = g.position().random_move(&mut rng).unwrap();
            g.play(mv).unwrap();
            let text = g.position().to_string();
            assert_eq!(text.parse::<Position>().unwrap(), *g.position(), "{text}");
        }
        ends.insert(g.status().token());
    }
    assert!(ends.len() >= 4, "several kinds of end: {ends:?}");
}

#[test]
fn a_move_the_ply_counter_cannot_count_is_refused() {
    // One ply below the counter's limit: the move is played and counted.
    let mut pos: Position = with_fields("w - 0 4294967294 3 0 -").parse().unwrap();
    let mv = pos.legal_moves()[0];
    pos.play(mv).unwrap();
    assert_eq!(pos.ply(), u32::MAX);
    assert_eq!(pos.to_string().parse::<Position>().unwrap(), pos);
    // At the limit every move is refused, saying why, and nothing changes.
    let before = pos;
    for mv in pos.legal_moves() {
        let err = pos.play(mv).unwrap_err();
        assert_eq!(err, MoveError::PlyLimit);
        assert_eq!(err.kind(), ErrorKind::IllegalMove);
        assert!(err.to_string().contains("4294967295 plies"), "{err}");
        assert!(!pos.is_legal(mv));
        assert_eq!(pos, before);
    }
    // The same through a game made from the text, and its record.
    let mut game = Game::from_position(pos);
    let mv = game.legal_moves()[0];
    assert_eq!(game.play(mv), Err(MoveError::PlyLimit));
    assert_eq!(game.history().len(), 0);
}

#[test]
fn perft_depth_is_capped() {
    assert_eq!(Position::MAX_PERFT_DEPTH, 32);
    // A finished game: every depth from 1 on is 0, the cap included, without recursing.
    let mut g = start();
    g.resign(Side::White).unwrap();
    for depth in [1, 2, Position::MAX_PERFT_DEPTH, u32::MAX] {
        assert_eq!(g.perft(depth), 0);
    }
    assert_eq!(g.perft(0), 1);
}

#[test]
fn the_hash_is_pinned() {
    // The documented promise: the same hash on every platform and every run. The value is the
    // current implementation's; a change of keys would change it (and every stored hash).
    let g = start();
    let mut pos = *g.position();
    let before = pos.hash();
    assert_eq!(before, 0x9f4b_bbf2_4e98_233f, "start position");
    pos.play(pos.legal_moves()[0]).unwrap();
    assert_ne!(pos.hash(), before);
    // Side to move is part of the hash: the same squares with the other side to move differ.
    let text = g.position().to_string().replacen(" w ", " b ", 1);
    let black_to_move: Position = text.parse().unwrap();
    assert_ne!(black_to_move.hash(), before);
}

#[test]
fn position_accessors_and_legality() {
    let rules = Rules::new(3, 40).unwrap();
    let pos = Position::new(
        &Setup::random(Side::White, rules, 3),
        &Setup::random(Side::Black, rules, 4),
        Side::White,
        rules,
    )
    .unwrap();
    assert_eq!(pos.move_limit(), Some(40));
    assert_eq!(start().position().move_limit(), None);
    let legal = pos.legal_moves()[0];
    assert!(pos.is_legal(legal));
    let diagonal = Move::new(legal.from, sq("e5"));
    assert!(!pos.is_legal(diagonal));
    assert!(
        !pos.is_legal(Move::new(sq("e5"), sq("e6"))),
        "an empty square"
    );
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

#[test]
fn a_tracker_knows_its_pieces() {
    let rules = rules4();
    let mut g = game(("5G:e4", ""), ("PV:e5", ""), Side::White, rules);
    let white = g.setup(Side::White).unwrap().clone();
    let black_squares = g.setup(Side::Black).unwrap().occupied();
    let mut tracker = Tracker::new(&white, black_squares, Side::White, rules).unwrap();
    // Own pieces: their ranks; enemy pieces: their starts.
    let own = tracker.piece_at(sq("e4")).unwrap();
    assert_eq!(own.side(), Side::White);
    assert_eq!(tracker.own_rank(own.number()), Some(Rank::FiveStarGeneral));
    let enemy = tracker.piece_at(sq("e5")).unwrap();
    assert_eq!(enemy.side(), Side::Black);
    assert_eq!(tracker.enemy_start(enemy.number()), Some(sq("e5")));
    assert_eq!(tracker.enemy_square(enemy.number()), Some(sq("e5")));
    assert_eq!(tracker.own_rank(21), None);
    assert_eq!(tracker.enemy_start(21), None);
    // After the 5G takes the Private, the piece on e5 is ours; the enemy piece is gone.
    let report = g.play(mv("e4-e5")).unwrap();
    tracker.observe(&report).unwrap();
    assert_eq!(tracker.piece_at(sq("e5")), Some(own));
    assert_eq!(tracker.enemy_square(enemy.number()), None);
    assert_eq!(tracker.enemy_start(enemy.number()), Some(sq("e5")));
    assert_eq!(PieceId::new(Side::Black, enemy.number()), Some(enemy));
}

#[test]
fn a_tracker_names_the_ply_of_a_bad_report_and_ends_only_by_an_end() {
    let rules = rules4();
    let mut g = game(("5G:e4", ""), ("PV:e5", ""), Side::White, rules);
    let white = g.setup(Side::White).unwrap().clone();
    let black_squares = g.setup(Side::Black).unwrap().occupied();
    let mut tracker = Tracker::new(&white, black_squares, Side::White, rules).unwrap();
    for _ in 0..2 {
        let quiet = g
            .legal_moves()
            .into_iter()
            .find(|m| {
                m.from != sq("e4") && m.from != sq("e5") && m.to != sq("e4") && m.to != sq("e5")
            })
            .unwrap();
        g.play(quiet).unwrap();
    }
    for report in g.history() {
        tracker.observe(report).unwrap();
    }
    // Ply 3: a move from an empty square.
    let bad = Report {
        mv: mv("a1-a2"),
        outcome: None,
        status: Status::Ongoing,
    };
    match tracker.observe(&bad) {
        Err(ObserveError::IllegalMove { ply, .. }) => assert_eq!(ply, 3),
        other => panic!("{other:?}"),
    }
    let bad = Report {
        mv: mv("e4-e5"),
        outcome: None,
        status: Status::Ongoing,
    };
    match tracker.observe(&bad) {
        Err(ObserveError::Inconsistent { ply, .. }) => assert_eq!(ply, 3),
        other => panic!("{other:?}"),
    }
    // A status that is not a resignation or an agreement is no end.
    let won = Status::Won {
        winner: Side::White,
        reason: WinReason::FlagCaptured,
    };
    assert_eq!(
        tracker.observe_end(won),
        Err(ObserveError::NotAnEnd { status: won })
    );
    assert!(tracker.status().is_ongoing());
    // A resignation ends it; nothing is taken in after that.
    let resigned = g.resign(Side::Black).unwrap();
    tracker.observe_end(resigned).unwrap();
    assert_eq!(tracker.status(), resigned);
    assert!(matches!(
        tracker.observe_end(resigned),
        Err(ObserveError::GameOver { .. })
    ));
    let next = Report {
        mv: mv("e4-e5"),
        outcome: Some(Outcome::Win),
        status: Status::Ongoing,
    };
    assert!(matches!(
        tracker.observe(&next),
        Err(ObserveError::GameOver { .. })
    ));
    // An agreed draw ends a tracker too.
    let mut g2 = start();
    let mut t2 = g2.tracker(Side::Black).unwrap();
    let drawn = g2.agree_draw().unwrap();
    t2.observe_end(drawn).unwrap();
    assert_eq!(t2.status(), drawn);
    assert_eq!(g2.tracker(Side::Black).unwrap(), t2);
}
