//! Replays the public rule vectors (`tests/data/games.txt`, a copy of the project's shared
//! vectors): every move, every announcement, every status, and the perft counts.

use crate::common::{naive_perft, pieces, status_text};
use salpakan::{Game, Rules, Setup, Side};

struct Vector {
    name: String,
    rules: Rules,
    white: String,
    black: String,
    first: Side,
    perft: Vec<(u32, u64)>,
    moves: Vec<(String, String, String)>,
}

fn parse_vectors() -> Vec<Vector> {
    let text = include_str!("../../data/games.txt");
    let mut out = Vec::new();
    let mut cur: Option<Vector> = None;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (head, rest) = line.split_once(' ').unwrap_or((line, ""));
        match head {
            "game" => {
                cur = Some(Vector {
                    name: rest.into(),
                    rules: Rules::default(),
                    white: String::new(),
                    black: String::new(),
                    first: Side::White,
                    perft: Vec::new(),
                    moves: Vec::new(),
                })
            }
            "end" => out.push(cur.take().expect("game before end")),
            _ => {
                let v = cur.as_mut().expect("inside a game");
                match head {
                    "rules" => {
                        let rows = rest
                            .strip_prefix("setup_rows=")
                            .expect("setup_rows")
                            .parse()
                            .unwrap();
                        v.rules = Rules::new(rows, 0).unwrap();
                    }
                    "white" => v.white = rest.into(),
                    "black" => v.black = rest.into(),
                    "first" => v.first = rest.parse().unwrap(),
                    "perft" => {
                        let (d, n) = rest.split_once(' ').unwrap();
                        v.perft.push((d.parse().unwrap(), n.parse().unwrap()));
                    }
                    _ => {
                        let (left, status) = line.split_once(" | ").expect("move line");
                        let (mv, announcement) = left.split_once(' ').unwrap();
                        v.moves
                            .push((mv.into(), announcement.into(), status.trim().into()));
                    }
                }
            }
        }
    }
    assert!(cur.is_none(), "unterminated game");
    out
}

fn start(v: &Vector) -> Game {
    Game::new(
        Setup::new(Side::White, v.rules, pieces(&v.white)).unwrap(),
        Setup::new(Side::Black, v.rules, pieces(&v.black)).unwrap(),
        v.first,
        v.rules,
    )
    .unwrap()
}

#[test]
fn every_vector_replays_with_its_announcements() {
    let vectors = parse_vectors();
    assert_eq!(vectors.len(), 8, "the shared file has eight games");
    for v in &vectors {
        let mut game = start(v);
        for (i, (text, announcement, status)) in v.moves.iter().enumerate() {
            let mv = text.parse().unwrap();
            let is_challenge = text.contains('x');
            let report = game
                .play(mv)
                .unwrap_or_else(|e| panic!("{}: move {} {text}: {e}", v.name, i + 1));
            let said = report.outcome.map_or("move", |o| o.name());
            assert_eq!(said, announcement, "{}: move {} {text}", v.name, i + 1);
            assert_eq!(report.outcome.is_some(), is_challenge, "{}: {text}", v.name);
            assert_eq!(&status_text(report.status), status, "{}: {text}", v.name);
        }
        assert!(!game.status().is_ongoing(), "{} ends", v.name);
        assert!(game.legal_moves().is_empty());
    }
}

#[test]
fn every_vector_start_has_the_published_perft() {
    for v in parse_vectors() {
        let game = start(&v);
        assert!(!v.perft.is_empty());
        for (depth, nodes) in &v.perft {
            assert_eq!(game.perft(*depth), *nodes, "{} perft {depth}", v.name);
        }
    }
}

#[test]
fn naive_generator_agrees_with_published_perft_at_depth_two() {
    for v in parse_vectors() {
        let game = start(&v);
        let (_, n2) = v.perft.iter().find(|(d, _)| *d == 2).unwrap();
        assert_eq!(naive_perft(game.position(), 2), *n2, "{}", v.name);
    }
}
