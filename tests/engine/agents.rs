//! Agents see only a tracker: their moves are legal, their choices do not depend on hidden
//! enemy ranks, and the searching players beat the random one.

use crate::common::dealt;
use salpakan::{Agent, Game, Greedy, Ismcts, Level, Random, Rules, Side, SplitMix64};

fn new_game(seed: u64) -> Game {
    let rules = Rules::default();
    dealt(rules, seed, seed + 1000, Side::ALL[(seed % 2) as usize])
}

/// Plays a game between two agents (White's first) through trackers fed only by reports;
/// returns the finished (or capped) game.
fn play(game: &mut Game, agents: &mut [Box<dyn Agent>; 2], max_plies: usize) {
    let mut trackers = [
        game.tracker(Side::White).unwrap(),
        game.tracker(Side::Black).unwrap(),
    ];
    while game.status().is_ongoing() && game.history().len() < max_plies {
        let side = game.side_to_move();
        let other = side.other();
        assert_eq!(agents[other.index()].choose(&trackers[other.index()]), None);
        let mv = agents[side.index()]
            .choose(&trackers[side.index()])
            .expect("a move while the game goes on");
        let report = game.play(mv).expect("agents play legal moves");
        for tracker in &mut trackers {
            tracker.observe(&report).unwrap();
        }
    }
    for (side, agent) in Side::ALL.into_iter().zip(agents.iter_mut()) {
        if !game.status().is_ongoing() {
            assert_eq!(
                agent.choose(&trackers[side.index()]),
                None,
                "no move after the end"
            );
        }
    }
}

/// The score (wins 1, draws ½) of `strong` against `Random` over `games` seeded games, sides
/// alternated.
fn score_against_random(games: u64, strong: impl Fn(u64) -> Box<dyn Agent>) -> f64 {
    let mut score = 0.0;
    for seed in 0..games {
        let mut game = new_game(seed);
        let strong_side = Side::ALL[(seed / 2 % 2) as usize];
        let mut agents: [Box<dyn Agent>; 2] = match strong_side {
            Side::White => [strong(seed), Box::new(Random::new(seed))],
            Side::Black => [Box::new(Random::new(seed)), strong(seed)],
        };
        play(&mut game, &mut agents, 2000);
        score += match game.status().winner() {
            Some(winner) if winner == strong_side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    score / games as f64
}

#[test]
fn greedy_beats_random() {
    let rate = score_against_random(40, |seed| Box::new(Greedy::new(seed)));
    assert!(rate >= 0.95, "greedy scored {rate:.2} against random");
}

#[test]
fn ismcts_beats_random_on_a_small_budget() {
    // 400 iterations a move (about a millisecond): 19 of 20 in the tournament example.
    let rate = score_against_random(12, |seed| Box::new(Ismcts::new(seed, 400)));
    assert!(rate >= 0.8, "ismcts scored {rate:.2} against random");
}

#[test]
fn ismcts_is_reproducible_and_plays_legal_moves() {
    let moves = |seed: u64| {
        let mut game = new_game(3);
        let mut agents: [Box<dyn Agent>; 2] = [
            Box::new(Ismcts::new(seed, 150)),
            Box::new(Ismcts::new(seed + 1, 150)),
        ];
        play(&mut game, &mut agents, 60);
        game.history().to_vec()
    };
    let first = moves(5);
    assert_eq!(first.len(), 60.min(first.len()));
    assert_eq!(first, moves(5), "the same seed plays the same game");
    assert_ne!(first, moves(6), "another seed searches differently");
    assert_eq!(Ismcts::new(0, 0).budget(), Ismcts::DEFAULT_BUDGET);
    assert_eq!(Ismcts::new(0, 77).budget(), 77);
}

/// White's Flag walks up the open a-file (Black left a5-a8 and b5-b8 empty) while Black
/// shuffles far away; with the Flag on a7, Greedy and Ismcts must take the win on a8 (no enemy beside
/// it), and must not step the Flag onto a far-row square an enemy guards.
#[test]
fn agents_win_by_an_unguarded_arrival_and_only_then() {
    let rules = Rules::new(4, 0).unwrap();
    for guard in [false, true] {
        let black_empty = if guard {
            "a5 a6 a7 a8 b5 b6 b7"
        } else {
            "a5 a6 a7 a8 b5 b6 b7 b8"
        };
        let mut game = crate::common::game(("FL:a4", ""), ("", black_empty), Side::White, rules);
        let mut shuffle = None;
        for white in ["a4-a5", "a5-a6", "a6-a7"] {
            game.play(white.parse().unwrap()).unwrap();
            let back = shuffle
                .map(|last: salpakan::Move| salpakan::Move::new(last.to, last.from))
                .filter(|mv| game.position().is_legal(*mv));
            let black = back.unwrap_or_else(|| {
                game.legal_moves()
                    .into_iter()
                    .find(|mv| mv.from.file() == 8)
                    .unwrap()
            });
            shuffle = Some(black);
            game.play(black).unwrap();
        }
        let mut agents: [Box<dyn Agent>; 2] =
            [Box::new(Greedy::new(0)), Box::new(Ismcts::new(0, 500))];
        for agent in &mut agents {
            let chosen = agent.choose(&game.tracker(Side::White).unwrap()).unwrap();
            if guard {
                assert_ne!(chosen.to_string(), "a7-a8", "b8 guards a8");
            } else {
                assert_eq!(chosen.to_string(), "a7-a8");
                let report = game.clone().play(chosen).unwrap();
                assert_eq!(report.status.winner(), Some(Side::White));
            }
        }
    }
}

#[test]
fn choices_ignore_unobserved_enemy_ranks() {
    let mut compared = 0;
    for seed in 0..20u64 {
        let mut game = new_game(seed);
        let mut rng = SplitMix64::new(seed);
        for _ in 0..(30 + 3 * seed as usize) {
            if !game.status().is_ongoing() {
                break;
            }
            let mv = game.position().random_move(&mut rng).unwrap();
            game.play(mv).unwrap();
        }
        if !game.status().is_ongoing() {
            continue;
        }
        let viewer = game.side_to_move();
        let Some(other) = crate::common::with_swapped_enemy_ranks(&game, viewer.other()) else {
            continue;
        };
        let (a, b) = (
            game.tracker(viewer).unwrap(),
            other.tracker(viewer).unwrap(),
        );
        assert_eq!(a, b, "the viewer cannot tell the games apart");
        // Greedy's scores of every move, a learner's feature, bit for bit.
        let bits = |me: &salpakan::Tracker| Greedy::action_scores(me).map(f32::to_bits);
        assert_eq!(bits(&a), bits(&b));
        for agent_seed in 0..3 {
            assert_eq!(
                Greedy::new(agent_seed).choose(&a),
                Greedy::new(agent_seed).choose(&b)
            );
            assert_eq!(
                Random::new(agent_seed).choose(&a),
                Random::new(agent_seed).choose(&b)
            );
            assert_eq!(
                Ismcts::new(agent_seed, 100).choose(&a),
                Ismcts::new(agent_seed, 100).choose(&b)
            );
        }
        // Every level of the ladder (the prior's sums included) on a few of them.
        if compared < 3 {
            for level in 1..=i64::from(Level::COUNT) {
                assert_eq!(
                    Level::new(level, seed).unwrap().choose(&a),
                    Level::new(level, seed).unwrap().choose(&b),
                    "level {level}"
                );
            }
        }
        compared += 1;
    }
    assert!(compared >= 8, "{compared}");
}
