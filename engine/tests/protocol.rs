//! The protocol's lines: every line the host or an engine can say is written and read back
//! the same, and lines that are not the protocol's are refused, naming what is wrong.

use salpakan::{Bitboard, DeclaredEnd, Game, Rules, Setup, Side, Status};
use salpakan_engine::{EngineLine, Forfeit, HostLine, LineError, MAX_LINE};

/// Every kind of host line, from a real game: its plies (moves and challenges), its end.
fn host_lines() -> Vec<HostLine> {
    let rules = Rules::new(3, 200).unwrap();
    let mut game = Game::dealt(Side::Black, rules, 11);
    let mut lines = vec![
        HostLine::Hello { version: 1 },
        HostLine::SetOption {
            name: "seed".into(),
            value: "42".into(),
        },
        HostLine::NewGame {
            side: Side::Black,
            first: Side::Black,
            rules,
        },
        HostLine::Formation,
        HostLine::Start {
            enemy: game.setup(Side::White).unwrap().occupied(),
        },
        HostLine::Go { clocks: None },
        HostLine::Go {
            clocks: Some((59_000, 61_500)),
        },
    ];
    let mut agent = salpakan::Random::new(3);
    use salpakan::Agent;
    while game.status().is_ongoing() && game.history().len() < 400 {
        let side = game.side_to_move();
        let mv = agent.choose_in(&game, side).unwrap();
        lines.push(HostLine::Ply(game.play(mv).unwrap()));
    }
    if game.status().is_ongoing() {
        game.declare(DeclaredEnd::Time { loser: Side::White })
            .unwrap();
    }
    for forfeit in [None, Some(Forfeit::IllegalMove), Some(Forfeit::Timeout)] {
        lines.push(HostLine::Over {
            status: game.status(),
            forfeit,
        });
    }
    lines.push(HostLine::Quit);
    lines
}

#[test]
fn every_host_line_reads_back_as_written() {
    let lines = host_lines();
    assert!(
        lines
            .iter()
            .any(|l| matches!(l, HostLine::Ply(r) if r.outcome.is_some())),
        "a challenge"
    );
    for line in lines {
        let text = line.to_string();
        assert!(text.len() <= MAX_LINE && !text.contains('\n'), "{text}");
        assert_eq!(text.parse::<HostLine>(), Ok(line.clone()), "{text}");
        assert_eq!(
            format!("{text}\r\n").parse::<HostLine>(),
            Ok(line),
            "CR LF ends too"
        );
    }
}

#[test]
fn every_engine_line_reads_back_as_written() {
    let setup = Setup::random(Side::White, Rules::default(), 5);
    let mv = Game::dealt(Side::White, Rules::default(), 5).legal_moves()[0];
    let lines = [
        EngineLine::Id {
            key: "name".into(),
            value: "Heneral 2.1 (beta)".into(),
        },
        EngineLine::Option {
            name: "depth".into(),
            default: "4".into(),
        },
        EngineLine::SepOk,
        EngineLine::Ready,
        EngineLine::Formation(setup),
        EngineLine::Move(mv),
        EngineLine::Resign,
        EngineLine::Info("depth 3 nodes 1200".into()),
    ];
    for line in lines {
        let text = line.to_string();
        assert_eq!(text.parse::<EngineLine>(), Ok(line), "{text}");
    }
}

#[test]
fn lines_that_are_not_the_protocol_s_are_refused_by_name() {
    for (text, why) in [
        ("hello", "unknown line \"hello\""),
        ("newgame white", "newgame"),
        ("newgame red white 3 200", "white or black"),
        ("newgame white white 5 200", "newgame"),
        ("ply e3-e4", "ply"),
        ("ply e3xe4 -", "ply"),
        ("ply e3-e4 - extra", "nothing more"),
        ("start z9", "start"),
        ("go 100", "go"),
        ("over white:nothing", "over"),
        ("over - cheating", "no forfeit"),
        ("sep one", "sep"),
    ] {
        let refused = text.parse::<HostLine>().unwrap_err();
        assert!(refused.to_string().contains(why), "{text}: {refused}");
    }
    for (text, why) in [
        ("move", "move"),
        ("move e3", "move"),
        ("formation FL:a1", "formation"),
        ("ready now", "nothing more"),
        ("bestmove e3-e4", "unknown line"),
        ("option depth", "a name and a default"),
    ] {
        let refused = text.parse::<EngineLine>().unwrap_err();
        assert!(refused.to_string().contains(why), "{text}: {refused}");
    }
    let long = format!("info {}", "x".repeat(MAX_LINE));
    assert_eq!(long.parse::<EngineLine>(), Err(LineError::Shape));
    assert_eq!(
        "info caf\u{e9}".parse::<EngineLine>(),
        Err(LineError::Shape)
    );
    assert_eq!(
        "info tab\there".parse::<EngineLine>(),
        Err(LineError::Shape)
    );
}

#[test]
fn a_start_line_names_the_enemy_s_squares_only() {
    let setup = Setup::random(Side::White, Rules::default(), 9);
    let line = HostLine::Start {
        enemy: setup.occupied(),
    };
    let text = line.to_string();
    assert_eq!(text.split(' ').count(), 22);
    for code in ["FL", "PV", "SP", "5G"] {
        assert!(!text.contains(code), "no rank in {text}");
    }
    let read: HostLine = text.parse().unwrap();
    assert_eq!(
        read,
        HostLine::Start {
            enemy: setup.occupied()
        }
    );
    assert_ne!(setup.occupied(), Bitboard::EMPTY);
    assert!(Status::Ongoing.token() == "-");
}
