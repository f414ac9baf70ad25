//! Playing moves: legality, challenges, turn order and every way a game ends (docs/RULES.md).

use crate::common::{game, mv, play_all, rules4, sq, start, with_fields};
use salpakan::bindings::ErrorKind;
use salpakan::{
    DrawReason, Game, Move, MoveError, Outcome, Position, Rank, Report, Rules, Setup, Side, Status,
    WinReason,
};

fn won(winner: Side, reason: WinReason) -> Status {
    Status::Won { winner, reason }
}

/// Official rules; White's pieces on rows 1-3 with e3 a Private and i3 a Private, Black's on
/// rows 6-8 with e6 a Private.
fn opening() -> Game {
    game(
        ("PV:e3 PV:i3 SG:e2", ""),
        ("PV:e6", ""),
        Side::White,
        Rules::default(),
    )
}

fn assert_rejected(game: &mut Game, text: &str, expected: MoveError) {
    let before = game.clone();
    assert_eq!(game.play(mv(text)), Err(expected), "{text}");
    assert_eq!(*game, before, "{text} changed the game");
}

/// The refusal of a step from `from` to `to`, which are not neighbours.
fn not_adjacent(from: &str, to: &str) -> MoveError {
    MoveError::NotAdjacent {
        from: sq(from),
        to: sq(to),
    }
}

/// `text` is refused in the opening with `expected`, and the game is unchanged: the
/// refusal's message.
fn refused_in_opening(text: &str, expected: MoveError) -> String {
    assert_rejected(&mut opening(), text, expected);
    expected.to_string()
}

#[test]
fn diagonal_moves_are_illegal() {
    let message = refused_in_opening("e3-f4", not_adjacent("e3", "f4"));
    assert_eq!(
        message,
        "e3 to f4 is not a move of one square forward, backward, left or right"
    );
}

#[test]
fn two_square_moves_are_illegal() {
    refused_in_opening("e3-e5", not_adjacent("e3", "e5"));
}

#[test]
fn a_move_to_the_same_square_is_illegal() {
    refused_in_opening("e3-e3", not_adjacent("e3", "e3"));
}

#[test]
fn moving_onto_an_own_piece_is_illegal() {
    let message = refused_in_opening(
        "e2-e3",
        MoveError::OwnPiece {
            to: sq("e3"),
            side: Side::White,
        },
    );
    assert_eq!(message, "e3 is occupied by White's own piece");
}

#[test]
fn moving_the_enemys_piece_is_illegal() {
    let message = refused_in_opening(
        "e6-e5",
        MoveError::NotYourPiece {
            square: sq("e6"),
            owner: Side::Black,
        },
    );
    assert_eq!(
        message,
        "the piece on e6 is Black's, and it is White's turn"
    );
}

#[test]
fn moving_from_an_empty_square_is_illegal() {
    refused_in_opening("e4-e5", MoveError::EmptySquare { square: sq("e4") });
}

#[test]
fn the_wrap_from_i3_to_a4_is_illegal() {
    let mut g = opening();
    assert_rejected(&mut g, "i3-a4", not_adjacent("i3", "a4"));
    assert!(
        !g.legal_moves()
            .iter()
            .any(|m| m.from == sq("i3") && m.to == sq("a4"))
    );
}

#[test]
fn moves_off_the_board_cannot_be_made() {
    let g = opening();
    for m in g.legal_moves().iter() {
        assert!(m.to.index() < 72 && m.direction().is_some(), "{m}");
    }
    // Edge pieces have no move past the edge: a1 can go nowhere left or down.
    assert!(salpakan::Move::step(sq("a1"), salpakan::Direction::Left).is_none());
    assert!(salpakan::Move::step(sq("a1"), salpakan::Direction::Down).is_none());
    assert!("a0-a1".parse::<salpakan::Move>().is_err());
}

#[test]
fn players_alternate_and_the_first_mover_is_chosen() {
    let mut g = game(("", ""), ("", ""), Side::Black, Rules::default());
    assert_eq!(g.side_to_move(), Side::Black);
    assert_rejected(
        &mut g,
        "a3-a4",
        MoveError::NotYourPiece {
            square: sq("a3"),
            owner: Side::White,
        },
    );
    play_all(&mut g, "a6-a5");
    assert_eq!(g.side_to_move(), Side::White);
    play_all(&mut g, "a3-a4");
    assert_eq!(g.side_to_move(), Side::Black);
}

#[test]
fn the_flag_moves_like_any_piece() {
    let g = game(("FL:a4", ""), ("", ""), Side::White, rules4());
    let moves = g.legal_moves();
    assert!(moves.contains(&mv("a4-a5")));
    assert!(moves.contains(&mv("a4-b4")));
}

/// A challenge on rules4 between White's `white` on e4 and Black's `black` on e5, `first`
/// attacking: the game after it, and the arbiter's report.
fn challenge(white: &str, black: &str, first: Side) -> (Game, Report) {
    let mut g = game(
        (&format!("{white}:e4"), ""),
        (&format!("{black}:e5"), ""),
        first,
        rules4(),
    );
    let attack = if first == Side::White {
        "e4xe5"
    } else {
        "e5xe4"
    };
    let report = g.play(mv(attack)).unwrap();
    (g, report)
}

/// What stands on e4 and e5 after a challenge there, and each side's pieces left.
fn after_challenge(g: &Game, e4: Option<(Side, Rank)>, e5: Option<(Side, Rank)>, pieces: [u32; 2]) {
    assert_eq!(g.position().piece_at(sq("e4")), e4);
    assert_eq!(g.position().piece_at(sq("e5")), e5);
    for side in Side::ALL {
        assert_eq!(g.position().occupied(side).len(), pieces[side.index()]);
    }
}

#[test]
fn a_won_challenge_removes_the_defender_and_takes_its_square() {
    let (g, report) = challenge("5G", "PV", Side::White);
    assert_eq!(report.outcome, Some(Outcome::Win));
    after_challenge(
        &g,
        None,
        Some((Side::White, Rank::FiveStarGeneral)),
        [21, 20],
    );
}

#[test]
fn a_lost_challenge_removes_the_attacker_and_keeps_the_defender() {
    let (g, report) = challenge("SG", "SP", Side::White);
    assert_eq!(report.outcome, Some(Outcome::Lose));
    after_challenge(&g, None, Some((Side::Black, Rank::Spy)), [20, 21]);
}

#[test]
fn a_tie_removes_both_pieces() {
    let (g, report) = challenge("PV", "PV", Side::White);
    assert_eq!(report.outcome, Some(Outcome::Tie));
    after_challenge(&g, None, None, [20, 20]);
    assert_eq!(report.status, Status::Ongoing);
}

#[test]
fn a_private_defending_beats_an_attacking_spy() {
    let (g, report) = challenge("SP", "PV", Side::White);
    assert_eq!(report.outcome, Some(Outcome::Lose));
    assert_eq!(
        g.position().piece_at(sq("e5")),
        Some((Side::Black, Rank::Private))
    );
}

#[test]
fn capturing_the_flag_wins() {
    let (_, report) = challenge("PV", "FL", Side::White);
    assert_eq!(report.outcome, Some(Outcome::Win));
    assert_eq!(report.status, won(Side::White, WinReason::FlagCaptured));
}

#[test]
fn a_flag_that_attacks_and_loses_loses_the_game() {
    let (_, report) = challenge("PV", "FL", Side::Black);
    assert_eq!(report.outcome, Some(Outcome::Lose));
    assert_eq!(report.status, won(Side::White, WinReason::FlagCaptured));
}

#[test]
fn a_flag_attacking_the_flag_wins_the_game() {
    let (g, report) = challenge("FL", "FL", Side::Black);
    assert_eq!(report.outcome, Some(Outcome::Win));
    assert_eq!(report.status, won(Side::Black, WinReason::FlagCaptured));
    assert_eq!(
        g.position().piece_at(sq("e4")),
        Some((Side::Black, Rank::Flag))
    );
}

/// White's Flag on a4 with a clear a-file; Black guards a8 from b8 unless `b8_empty`.
fn flag_run(b8_empty: bool, move_limit: u16) -> Game {
    let black_empty = if b8_empty {
        "a5 a6 a7 a8 b8"
    } else {
        "a5 a6 a7 a8"
    };
    game(
        ("FL:a4", ""),
        ("", black_empty),
        Side::White,
        Rules::new(4, move_limit).unwrap(),
    )
}

const FLAG_RUN: &str = "a4-a5 f6-f5 a5-a6 f5-f6 a6-a7 f6-f5";

/// White's Flag run to a8 beside Black's b8 (by the move limit `move_limit`): the game goes
/// on, Black to reply.
fn flag_waiting(move_limit: u16) -> Game {
    let mut g = flag_run(false, move_limit);
    play_all(&mut g, FLAG_RUN);
    let report = g.play(mv("a7-a8")).unwrap();
    assert_eq!(report.status, Status::Ongoing);
    g
}

#[test]
fn a_flag_reaching_the_far_end_with_no_enemy_beside_it_wins_at_once() {
    let mut g = flag_run(true, 0);
    // b7 is diagonal to a8: it does not count as beside the Flag.
    assert_eq!(
        g.position().piece_at(sq("b7")).map(|p| p.0),
        Some(Side::Black)
    );
    play_all(&mut g, FLAG_RUN);
    let report = g.play(mv("a7-a8")).unwrap();
    assert_eq!(report.status, won(Side::White, WinReason::FlagReachedEnd));
    assert!(g.legal_moves().is_empty());
}

#[test]
fn a_flag_reaching_the_far_end_beside_an_enemy_waits_one_move() {
    let mut g = flag_waiting(0);
    assert_eq!(g.position().waiting_flag(), Some(sq("a8")));
    assert_eq!(g.side_to_move(), Side::Black);
    // Black's reply does not touch the Flag: White wins when it is done.
    let report = g.play(mv("f5-f6")).unwrap();
    assert_eq!(report.status, won(Side::White, WinReason::FlagReachedEnd));
    assert_eq!(g.position().waiting_flag(), None);
}

#[test]
fn the_waiting_flag_can_be_captured_by_the_one_reply() {
    let mut g = flag_waiting(0);
    let report = g.play(mv("b8xa8")).unwrap();
    assert_eq!(report.outcome, Some(Outcome::Win));
    assert_eq!(report.status, won(Side::Black, WinReason::FlagCaptured));
}

#[test]
fn blacks_flag_waits_on_row_one_and_can_be_captured() {
    let mut g = game(("", "i1 i2 i3 i4"), ("FL:i5", ""), Side::Black, rules4());
    play_all(&mut g, "i5-i4 e3-e4 i4-i3 e4-e3 i3-i2 e3-e4");
    let report = g.play(mv("i2-i1")).unwrap();
    assert_eq!(
        report.status,
        Status::Ongoing,
        "h1 is White's: the Flag waits"
    );
    assert_eq!(g.position().waiting_flag(), Some(sq("i1")));
    let report = g.play(mv("h1xi1")).unwrap();
    assert_eq!(report.status, won(Side::White, WinReason::FlagCaptured));
}

#[test]
fn resignation_at_any_time_gives_the_other_side_the_win() {
    for resigner in Side::ALL {
        let mut g = opening();
        assert_eq!(g.side_to_move(), Side::White);
        let status = g.resign(resigner).unwrap();
        assert_eq!(status, won(resigner.other(), WinReason::Resignation));
        assert_eq!(g.status(), status);
        assert!(g.legal_moves().is_empty());
    }
}

#[test]
fn both_sides_may_agree_to_a_draw() {
    let mut g = opening();
    play_all(&mut g, "e3-e4");
    let status = g.agree_draw().unwrap();
    assert_eq!(
        status,
        Status::Drawn {
            reason: DrawReason::Agreement
        }
    );
    assert_eq!(g.status(), status);
}

#[test]
fn a_finished_game_refuses_moves_and_actions() {
    let mut g = opening();
    g.resign(Side::White).unwrap();
    let over = MoveError::GameOver { status: g.status() };
    assert_rejected(&mut g, "e3-e4", over);
    assert_eq!(
        over.to_string(),
        "the game is over (Black wins: resignation)"
    );
    let before = g.clone();
    assert_eq!(g.resign(Side::Black), Err(over));
    assert_eq!(g.agree_draw(), Err(over));
    assert_eq!(g, before);
    assert_eq!(g.perft(0), 1);
    assert_eq!(g.perft(1), 0);
    assert_eq!(g.perft(2), 0);
}

#[test]
fn the_move_limit_draws_after_that_many_plies_without_a_challenge() {
    let rules = Rules::new(3, 4).unwrap();
    let mut g = game(("5G:e3", ""), ("PV:e6", ""), Side::White, rules);
    // Ply 3 is a challenge: the count starts again.
    play_all(&mut g, "e3-e4 e6-e5");
    assert_eq!(g.position().plies_since_challenge(), 2);
    assert_eq!(g.play(mv("e4xe5")).unwrap().outcome, Some(Outcome::Win));
    assert_eq!(g.position().plies_since_challenge(), 0);
    play_all(&mut g, "a6-a5 a3-a4 a5-a6");
    assert_eq!(
        g.status(),
        Status::Ongoing,
        "three plies since the challenge"
    );
    let report = g.play(mv("a4-a3")).unwrap();
    assert_eq!(
        report.status,
        Status::Drawn {
            reason: DrawReason::MoveLimit
        }
    );
}

#[test]
fn without_a_move_limit_quiet_play_goes_on() {
    let mut g = opening();
    for _ in 0..20 {
        play_all(&mut g, "a3-a4 a6-a5 a4-a3 a5-a6");
    }
    assert_eq!(g.status(), Status::Ongoing);
    assert_eq!(g.position().plies_since_challenge(), 80);
}

#[test]
fn the_move_limit_waits_for_a_waiting_flag() {
    // The Flag arrives on ply 7, which reaches a limit of 7: the Flag's wait takes precedence.
    let mut g = flag_waiting(7);
    let report = g.play(mv("f5-f6")).unwrap();
    assert_eq!(report.status, won(Side::White, WinReason::FlagReachedEnd));

    // With a limit of 6 the draw comes first.
    let mut g = flag_run(false, 6);
    play_all(&mut g, FLAG_RUN);
    assert_eq!(
        g.status(),
        Status::Drawn {
            reason: DrawReason::MoveLimit
        }
    );
}

#[test]
fn history_records_every_report_in_order() {
    let mut g = game(("5G:e4", ""), ("PV:e5", ""), Side::White, rules4());
    play_all(&mut g, "e4xe5 a6-a5 e5-e4");
    let history = g.history();
    assert_eq!(history.len(), 3);
    assert_eq!(history[0].mv, mv("e4-e5"));
    assert_eq!(history[0].outcome, Some(Outcome::Win));
    assert_eq!(history[1].outcome, None);
    assert_eq!(g.position().ply(), 3);
}

#[test]
fn move_errors_do_not_depend_on_hidden_enemy_ranks() {
    // Two games that differ only in Black's hidden ranks on the same squares.
    let a = game(
        ("PV:e3", ""),
        ("PV:e6 5G:d6", ""),
        Side::White,
        Rules::default(),
    );
    let b = game(
        ("PV:e3", ""),
        ("5G:e6 PV:d6", ""),
        Side::White,
        Rules::default(),
    );
    assert_ne!(a.position(), b.position());
    for text in ["e6-e5", "e4-e5", "e3-e5", "e2-e3", "d6-d5", "e3-f4"] {
        let (mut a, mut b) = (a.clone(), b.clone());
        let ea = a.play(mv(text)).unwrap_err();
        let eb = b.play(mv(text)).unwrap_err();
        assert_eq!(ea, eb, "{text}");
        assert_eq!(ea.to_string(), eb.to_string(), "{text}");
    }
    assert_eq!(a.view(Side::White), b.view(Side::White));
    assert_eq!(
        a.view(Side::White).to_string(),
        b.view(Side::White).to_string()
    );
    assert_eq!(
        format!("{:?}", a.view(Side::White)),
        format!("{:?}", b.view(Side::White))
    );
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

/// The ends no move makes: a resignation, an agreed draw, and the three a server decides, a
/// loss on time, an abandonment and both sides leaving (a draw). Each ends the game at once for the other side (or drawn), adds
/// no ply, leaves every piece where it stood, and is refused once the game is over.
#[test]
fn declared_ends_end_the_game_without_a_move() {
    use salpakan::DeclaredEnd;
    let ends = [
        (
            DeclaredEnd::Resignation { loser: Side::White },
            won(Side::Black, WinReason::Resignation),
        ),
        (
            DeclaredEnd::Time { loser: Side::Black },
            won(Side::White, WinReason::Time),
        ),
        (
            DeclaredEnd::Abandoned { loser: Side::White },
            won(Side::Black, WinReason::Abandoned),
        ),
        (
            DeclaredEnd::Agreement,
            Status::Drawn {
                reason: DrawReason::Agreement,
            },
        ),
        (
            DeclaredEnd::AbandonedByBoth,
            Status::Drawn {
                reason: DrawReason::AbandonedByBoth,
            },
        ),
    ];
    for (end, status) in ends {
        let mut game = opening();
        game.play(mv("e3-e4")).unwrap();
        let before = game.position().clone().to_string();
        assert_eq!(game.declare(end), Ok(status));
        assert_eq!(game.status(), status);
        assert_eq!(end.status(), status);
        assert_eq!(salpakan::DeclaredEnd::of(status), Some(end));
        assert_eq!(game.history().len(), 1, "no ply is added");
        assert_eq!(
            game.position().to_string().split(' ').next(),
            before.split(' ').next()
        );
        assert!(game.legal_moves().is_empty());
        assert!(matches!(
            game.play(mv("e6-e5")),
            Err(MoveError::GameOver { .. })
        ));
        assert!(matches!(game.declare(end), Err(MoveError::GameOver { .. })));
        assert!(matches!(
            game.resign(Side::Black),
            Err(MoveError::GameOver { .. })
        ));
        // The record says it in its result, and reading it back ends the game the same way.
        let record = game.record();
        assert!(
            record.contains(&format!("[Result \"{}\"]", status.token())),
            "{record}"
        );
        assert_eq!(Game::from_record(&record).unwrap(), game);
    }
}
