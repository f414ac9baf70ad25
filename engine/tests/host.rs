//! The host: what it sends an engine depends on that side's knowledge only (twin games give
//! the same bytes), and every fault of an engine is a documented result, in time: an illegal
//! move, a line the protocol does not have or said before it was asked, no answer, a
//! formation the rules refuse or cannot be read, an engine that closes its output or floods
//! it; and every engine, however it failed, is sent its `over`.

use std::time::{Duration, Instant};

use salpakan::{Game, Rules, Setup, Side, Status, WinReason};
use salpakan_engine::engine::{AgentEngine, Engine};
use salpakan_engine::host::{Limits, Match, Seat, conformance};
use salpakan_engine::{EngineLine, Forfeit, HostLine};

/// Short limits: a fault is found in well under a second.
fn short() -> Limits {
    Limits {
        hello: Duration::from_millis(400),
        formation: Duration::from_millis(400),
        mv: Duration::from_millis(400),
    }
}

/// An engine replaying `game` for `side`: its formation, then its moves in order; it resigns
/// when the game has no more of its moves.
struct Scripted {
    game: Game,
    side: Side,
    seen: usize,
}

impl Engine for Scripted {
    fn answer(&mut self, line: &HostLine) -> Vec<EngineLine> {
        match line {
            HostLine::Hello { .. } => vec![
                EngineLine::Id {
                    key: "name".into(),
                    value: "scripted".into(),
                },
                EngineLine::SepOk,
            ],
            HostLine::NewGame { .. } => vec![EngineLine::Ready],
            HostLine::Formation => {
                vec![EngineLine::Formation(
                    self.game.setup(self.side).unwrap().clone(),
                )]
            }
            HostLine::Ply(_) => {
                self.seen += 1;
                Vec::new()
            }
            HostLine::Go { .. } => match self.game.history().get(self.seen) {
                Some(report) => vec![EngineLine::Move(report.mv)],
                None => vec![EngineLine::Resign],
            },
            _ => Vec::new(),
        }
    }
}

/// Plays `game` through the host with scripted engines: what each side was sent, and how it
/// went.
fn replayed(game: &Game) -> ([Vec<String>; 2], salpakan_engine::host::Played) {
    let mut seats = Side::ALL.map(|side| {
        Seat::in_process(Scripted {
            game: game.clone(),
            side,
            seen: 0,
        })
    });
    let [w, b] = &mut seats;
    let played = Match::default()
        .rules(game.rules())
        .first(game.first_mover())
        .play([w, b]);
    (seats.map(|s| s.sent().to_vec()), played)
}

/// A game and its twin for `side` (the same public history, other enemy ranks) give `side`'s
/// engine the same bytes, line for line, to the end.
#[test]
fn what_an_engine_is_sent_depends_on_its_side_s_knowledge_only() {
    let rules = Rules::new(3, 200).unwrap();
    for seed in 0..6_u64 {
        let mut game = Game::dealt(Side::ALL[(seed % 2) as usize], rules, seed + 20);
        let mut agent = salpakan::Random::new(seed);
        use salpakan::Agent;
        for _ in 0..(seed * 9) {
            if !game.status().is_ongoing() {
                break;
            }
            let mv = agent.choose_in(&game, game.side_to_move()).unwrap();
            game.play(mv).unwrap();
        }
        for side in Side::ALL {
            let twin = (0..50)
                .map(|s| game.sample(side, s).unwrap())
                .find(|t| t.setup(side.other()) != game.setup(side.other()))
                .expect("a twin with other enemy ranks");
            let (sent, played) = replayed(&game);
            let (twin_sent, twin_played) = replayed(&twin);
            assert_eq!(
                sent[side.index()],
                twin_sent[side.index()],
                "seed {seed}, {side}"
            );
            assert_ne!(played.record, twin_played.record, "the games differ");
            assert_eq!(played.plies, game.history().len());
            assert!(sent[side.index()].iter().any(|l| l.starts_with("start ")));
        }
    }
}

/// A shell engine that introduces itself, gets ready, gives `formation` and answers `go`
/// with `go_answer` (a shell command's output).
fn shell_engine(formation: &str, go_answer: &str) -> String {
    format!(
        "while read -r line; do case \"$line\" in \
         'sep '*) echo 'id name shell'; echo sepok ;; \
         newgame*) echo ready ;; \
         formation) echo 'formation {formation}' ;; \
         go*) {go_answer} ;; \
         quit) exit 0 ;; esac; done"
    )
}

/// Plays the shell engine `command` as White against the crate's random agent.
fn against_random(command: &str) -> (salpakan_engine::host::Played, Duration, Vec<String>) {
    let mut white = Seat::spawn(command).expect("sh runs");
    let mut black = Seat::in_process(AgentEngine::new("random", 5).unwrap());
    let started = Instant::now();
    let played = Match::default()
        .limits(short())
        .play([&mut white, &mut black]);
    let took = started.elapsed();
    (played, took, black.sent().to_vec())
}

fn white_setup() -> String {
    Setup::random(Side::White, Rules::default(), 3).to_string()
}

#[test]
fn an_illegal_move_loses_and_says_so() {
    let (played, _, black_sent) =
        against_random(&shell_engine(&white_setup(), "echo 'move a1-i8'"));
    assert_eq!(played.forfeit, Some((Side::White, Forfeit::IllegalMove)));
    assert_eq!(
        played.status,
        Status::Won {
            winner: Side::Black,
            reason: WinReason::Resignation
        }
    );
    assert!(played.why.unwrap().contains("a1"));
    assert!(played.record.is_some(), "the game had started");
    assert_eq!(
        black_sent.last().unwrap(),
        "over black:resignation illegal-move"
    );
}

#[test]
fn a_line_that_is_not_the_protocol_s_loses() {
    let (played, _, _) = against_random(&shell_engine(&white_setup(), "echo 'bestmove a3-a4'"));
    assert_eq!(played.forfeit, Some((Side::White, Forfeit::BadLine)));
    assert!(played.why.unwrap().contains("bestmove"));
}

#[test]
fn no_move_in_time_loses_on_time_and_the_host_does_not_wait() {
    let (played, took, black_sent) = against_random(&shell_engine(&white_setup(), "sleep 5"));
    assert_eq!(played.forfeit, Some((Side::White, Forfeit::Timeout)));
    assert_eq!(
        played.status,
        Status::Won {
            winner: Side::Black,
            reason: WinReason::Time
        }
    );
    assert!(took < Duration::from_secs(4), "the host waited {took:?}");
    assert_eq!(black_sent.last().unwrap(), "over black:time timeout");
}

#[test]
fn a_formation_the_rules_refuse_loses_before_the_start() {
    let black = Setup::random(Side::Black, Rules::default(), 3).to_string();
    let (played, _, black_sent) = against_random(&shell_engine(&black, "echo resign"));
    assert_eq!(played.forfeit, Some((Side::White, Forfeit::BadFormation)));
    assert!(played.record.is_none(), "no game started");
    assert!(!black_sent.iter().any(|l| l.starts_with("start")));
    assert_eq!(
        black_sent.last().unwrap(),
        "over black:resignation bad-formation"
    );
}

#[test]
fn an_engine_that_exits_or_floods_loses_at_once() {
    let (played, took, _) = against_random("read -r line; exit 0");
    assert_eq!(played.forfeit, Some((Side::White, Forfeit::BadLine)));
    assert!(played.why.unwrap().contains("closed"));
    assert!(took < Duration::from_secs(2));
    // A line without end, far past the longest allowed: refused without reading it all.
    let (played, took, _) = against_random("head -c 100000000 /dev/zero | tr '\\0' 'x'");
    assert_eq!(played.forfeit, Some((Side::White, Forfeit::BadLine)));
    assert!(took < Duration::from_secs(4));
    // Silence: no introduction.
    let (played, _, _) = against_random("sleep 5");
    assert_eq!(played.forfeit, Some((Side::White, Forfeit::Timeout)));
}

#[test]
fn the_conformance_checks_pass_a_good_engine_and_name_a_bad_one_s_fault() {
    let good = env!("CARGO_BIN_EXE_salpakan-engine").to_owned() + " --agent greedy --seed 4";
    let checks = conformance(&good, Limits::default());
    assert_eq!(checks.len(), 4);
    for (what, result) in &checks {
        assert_eq!(result, &Ok(()), "{what}");
    }
    let bad = shell_engine(&white_setup(), "echo 'move a1-i8'");
    let checks = conformance(&bad, short());
    let failed: Vec<&str> = checks
        .iter()
        .filter(|c| c.1.is_err())
        .map(|c| c.0)
        .collect();
    assert_eq!(
        failed,
        [
            "plays a whole game as White",
            "plays a whole game as Black, in the same process"
        ]
    );
    assert!(
        checks[1]
            .1
            .as_ref()
            .unwrap_err()
            .starts_with("illegal-move")
    );
}

#[test]
fn the_engine_program_plays_a_whole_game_through_its_pipes() {
    let engine = env!("CARGO_BIN_EXE_salpakan-engine");
    let mut white = Seat::spawn(&format!("{engine} --agent level-2 --seed 1")).unwrap();
    let mut black = Seat::spawn(&format!("{engine} --agent random --seed 2")).unwrap();
    let played = Match::default().play([&mut white, &mut black]);
    assert!(played.forfeit.is_none(), "{played:?}");
    assert!(!played.status.is_ongoing());
    assert_eq!(white.name(), Some("salpakan level-2"));
    let record = Game::from_record(played.record.as_deref().unwrap()).expect("a record");
    assert_eq!(record.status(), played.status);
    assert!(white.quit() && black.quit(), "both exit when told");
}

/// A scratch folder for engine scripts and what they log.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("salpakan-host-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An executable shell script `name` in `dir` with `body`; its path.
fn script(dir: &std::path::Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_str().unwrap().to_owned()
}

#[test]
fn a_line_said_before_it_was_asked_is_a_bad_line() {
    // It answers `start` (which wants no answer) with a move: the host asks for its move
    // later, and the move said before the `go` is out of place, whatever it is.
    let mut seat = Seat::spawn(
        &shell_engine(&white_setup(), "echo 'move a3-a4'")
            .replace("quit)", "start*) echo 'move a3-a4' ;; quit)"),
    )
    .unwrap();
    let rules = Rules::default();
    let setup = seat
        .new_game((Side::White, Side::White, rules), &short())
        .unwrap();
    assert_eq!(setup.side(), Side::White);
    seat.start(Setup::random(Side::Black, rules, 9).occupied());
    std::thread::sleep(Duration::from_millis(200));
    let fault = seat.go(None, short().mv).unwrap_err();
    assert_eq!(fault.forfeit(), Forfeit::BadLine, "{fault}");
    assert!(fault.to_string().contains("before it was asked"), "{fault}");
}

#[test]
fn a_formation_that_cannot_be_read_is_a_bad_formation() {
    let twenty: Vec<String> = white_setup()
        .split(' ')
        .skip(1)
        .map(str::to_owned)
        .collect();
    assert_eq!(twenty.len(), 20);
    let (played, _, black_sent) = against_random(&shell_engine(&twenty.join(" "), "echo resign"));
    assert_eq!(
        played.forfeit,
        Some((Side::White, Forfeit::BadFormation)),
        "{played:?}"
    );
    assert!(played.record.is_none(), "no game started");
    assert_eq!(
        black_sent.last().unwrap(),
        "over black:resignation bad-formation"
    );
}

#[test]
fn an_engine_that_closes_its_output_loses_at_once_for_a_bad_line() {
    let dir = scratch("closer");
    let log = dir.join("heard.txt");
    let closer = script(
        &dir,
        "closer.sh",
        &format!(
            "read -r line; echo 'id name closer'; echo sepok; exec 1>&-\n\
             while read -r line; do echo \"$line\" >> {}; done",
            log.display()
        ),
    );
    let limits = Limits {
        hello: Duration::from_secs(5),
        ..short()
    };
    let mut white = Seat::spawn(&closer).unwrap();
    let mut black = Seat::in_process(AgentEngine::new("random", 5).unwrap());
    let started = Instant::now();
    let played = Match::default()
        .limits(limits)
        .play([&mut white, &mut black]);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        played.forfeit,
        Some((Side::White, Forfeit::BadLine)),
        "{played:?}"
    );
    assert!(played.why.unwrap().contains("closed"));
    drop(white);
    let heard = std::fs::read_to_string(&log).unwrap();
    assert!(heard.contains("over black:resignation bad-line"), "{heard}");
}

#[test]
fn a_silent_engine_and_a_flooding_one_still_receive_their_over() {
    let dir = scratch("over");
    let silent_log = dir.join("silent.txt");
    let flood_log = dir.join("flood.txt");
    let silent = script(
        &dir,
        "silent.sh",
        &format!(
            "while read -r line; do echo \"$line\" >> {}; done",
            silent_log.display()
        ),
    );
    let flood = script(
        &dir,
        "flood.sh",
        &format!(
            "read -r line; head -c 50000000 /dev/zero | tr '\\0' 'x'; echo\n\
             while read -r line; do echo \"$line\" >> {}; done",
            flood_log.display()
        ),
    );
    for (engine, log, forfeit) in [
        (silent, silent_log, "over black:time timeout"),
        (flood, flood_log, "over black:resignation bad-line"),
    ] {
        let mut white = Seat::spawn(&engine).unwrap();
        let mut black = Seat::in_process(AgentEngine::new("random", 5).unwrap());
        let started = Instant::now();
        Match::default()
            .limits(short())
            .play([&mut white, &mut black]);
        assert!(started.elapsed() < Duration::from_secs(2), "{engine}");
        drop(white);
        let heard = std::fs::read_to_string(&log).unwrap_or_default();
        assert!(
            heard.lines().any(|l| l == forfeit),
            "{engine} heard {heard:?}"
        );
    }
}
