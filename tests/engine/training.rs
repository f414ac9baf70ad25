//! What AI users build on: playouts, action ids and masks, Zobrist hashes, and the batch of
//! games for training (`VecEnv`): each of its games is the game the rules play, its outputs are
//! its side to move's, split steps equal whole ones, and bad actions change nothing.

use crate::common::{dealt, game, mv, play_all, rules4, start};
use salpakan::bindings::ErrorKind;
use salpakan::training::{StepError, StepOutputs, StepResult, VecEnv};
use salpakan::{
    Agent, Game, Greedy, Move, Observation, Orientation, Position, Rules, Setup, Side, SplitMix64,
    Square,
};

use std::collections::HashMap;

use proptest::prelude::*;

fn random_game(seed: u64) -> Game {
    let rules = Rules::default();
    dealt(rules, seed, seed.wrapping_mul(31) + 7, Side::White)
}

#[test]
fn action_ids_cover_every_step_exactly_once() {
    let mut seen = 0;
    for id in 0..Move::NUM_ACTIONS as u16 {
        if let Some(m) = Move::from_action(id) {
            assert_eq!(m.action(), Some(id));
            assert_eq!(m.from.index(), usize::from(id / 4));
            seen += 1;
        }
    }
    // 72 squares x 4 directions minus the steps off the board (8 + 8 rows, 9 + 9 files).
    assert_eq!(seen, 288 - 2 * 9 - 2 * 8);
    assert_eq!(Move::from_action(288), None);
    assert_eq!(mv("e3-e5").action(), None);
    // Direction numbering: 0 up, 1 down, 2 left, 3 right.
    let e3: Square = "e3".parse().unwrap();
    assert_eq!(mv("e3-e4").action(), Some(e3.index() as u16 * 4));
    assert_eq!(mv("e3-e2").action(), Some(e3.index() as u16 * 4 + 1));
    assert_eq!(mv("e3-d3").action(), Some(e3.index() as u16 * 4 + 2));
    assert_eq!(mv("e3-f3").action(), Some(e3.index() as u16 * 4 + 3));
}

#[test]
fn the_action_mask_is_exactly_the_legal_moves() {
    for seed in 0..20 {
        let mut g = random_game(seed);
        let mut rng = SplitMix64::new(seed);
        for _ in 0..60 {
            let mask = g.legal_action_mask();
            let moves = g.legal_moves();
            assert_eq!(mask.len(), moves.len());
            for m in moves.iter() {
                assert!(mask.contains(m.action().unwrap()), "{m}");
            }
            let from_mask: Vec<Move> = mask
                .iter()
                .map(|id| Move::from_action(id).unwrap())
                .collect();
            assert!(from_mask.iter().all(|m| moves.contains(m)));
            match g.position().random_move(&mut rng) {
                Some(m) => {
                    g.play(m).unwrap();
                }
                None => break,
            }
        }
        if !g.status().is_ongoing() {
            assert!(g.legal_action_mask().is_empty());
        }
    }
}

#[test]
fn playouts_repeat_for_a_seed_and_leave_the_game_unchanged() {
    let g = random_game(3);
    let before = g.clone();
    let a = g.playout(11, 100_000);
    assert_eq!(g, before);
    assert_eq!(a, g.playout(11, 100_000));
    assert!(
        !a.status.is_ongoing(),
        "random games end well before 100000 plies"
    );
    let distinct: std::collections::HashSet<u32> =
        (0..20).map(|s| g.playout(s, 100_000).plies).collect();
    assert!(distinct.len() > 10, "different seeds, different games");
}

#[test]
fn a_playout_stops_at_the_ply_cap() {
    let g = random_game(4);
    let p = g.playout(1, 5);
    assert_eq!(p.plies, 5);
    assert!(p.status.is_ongoing());
    assert_eq!(g.playout(1, 0).plies, 0);
}

#[test]
fn a_playout_replays_as_the_same_game_through_play() {
    // The playout's random choices, made again one by one with the same generator, give a
    // legal game that ends the same way.
    for seed in 0..10 {
        let g = random_game(seed);
        let p = g.playout(seed, 100_000);
        let mut replay = g.clone();
        let mut rng = SplitMix64::new(seed);
        while let Some(m) = replay.position().random_move(&mut rng) {
            replay.play(m).unwrap();
        }
        assert_eq!(replay.status(), p.status, "seed {seed}");
        assert_eq!(replay.history().len() as u32, p.plies, "seed {seed}");
    }
}

#[test]
fn random_moves_are_uniform_over_the_legal_moves() {
    let g = random_game(9);
    let moves = g.legal_moves();
    let mut rng = SplitMix64::new(1);
    let mut counts: HashMap<Move, u32> = HashMap::new();
    let draws = 40_000;
    for _ in 0..draws {
        *counts
            .entry(g.position().random_move(&mut rng).unwrap())
            .or_default() += 1;
    }
    assert_eq!(
        counts.len(),
        moves.len(),
        "every legal move is drawn, nothing else"
    );
    let expected = f64::from(draws) / moves.len() as f64;
    let chi2: f64 = counts
        .values()
        .map(|&c| (f64::from(c) - expected).powi(2) / expected)
        .sum();
    // 99.9% quantile of chi-square with (k - 1) degrees of freedom, k <= 84: well under 150.
    assert!(chi2 < 150.0, "chi-square {chi2} over {} moves", moves.len());
}

#[test]
fn hashes_follow_the_pieces_and_the_side_to_move() {
    let g = random_game(5);
    let h0 = g.position().hash();
    let mut a = g.clone();
    play_all(&mut a, "a3-a4");
    assert_ne!(a.position().hash(), h0);
    // Transpositions: the same pieces and side to move, reached two ways, hash alike.
    let mut g1 = game(("PV:a4 PV:i4", ""), ("", ""), Side::White, rules4());
    let mut g2 = g1.clone();
    play_all(&mut g1, "a4-a5 a6-a5 i4-i5");
    play_all(&mut g2, "i4-i5 a6-a5 a4-a5");
    assert_eq!(g1.position().hash(), g2.position().hash());
    for side in Side::ALL {
        assert_eq!(g1.position().occupied(side), g2.position().occupied(side));
    }
    let mut g3 = g1.clone();
    play_all(&mut g3, "b6-b5 i5-i4");
    assert_ne!(g3.position().hash(), g1.position().hash());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn random_move_and_mask_agree_with_the_list(seed in any::<u64>(), plies in 0usize..120) {
        let mut g = random_game(seed);
        let mut rng = SplitMix64::new(seed ^ 1);
        for _ in 0..plies {
            match g.position().random_move(&mut rng) {
                Some(m) => { g.play(m).unwrap(); }
                None => break,
            }
        }
        let moves = g.legal_moves();
        for _ in 0..20 {
            match g.position().random_move(&mut rng) {
                Some(m) => prop_assert!(moves.contains(&m)),
                None => prop_assert!(moves.is_empty()),
            }
        }
    }
}

const N: usize = 6;

struct Buffers {
    observations: Vec<f32>,
    masks: Vec<bool>,
    results: Vec<StepResult>,
}

impl Buffers {
    fn new(n: usize) -> Buffers {
        Buffers {
            observations: vec![-1.0; n * Observation::LEN],
            masks: vec![false; n * Move::NUM_ACTIONS],
            results: vec![StepResult::default(); n],
        }
    }

    fn out(&mut self) -> StepOutputs<'_> {
        StepOutputs {
            observations: Some(&mut self.observations),
            masks: &mut self.masks,
            results: &mut self.results,
        }
    }
}

/// A batch of `N` games with trackers (seed `seed`), reset into fresh buffers, and each of its
/// games as a `Game` of its own.
fn batch_and_games(seed: u64, rules: Rules) -> (VecEnv, Buffers, Vec<Game>) {
    let mut env = VecEnv::new(N, seed, rules, true, 0);
    let mut buffers = Buffers::new(N);
    env.reset(buffers.out());
    let games = (0..N).map(|i| episode_game(&env, i, rules)).collect();
    (env, buffers, games)
}

/// Each game of the batch, replayed through `Game`: the same moves give the same reports,
/// the outputs are the side to move's observation and legal actions, and a finished game
/// starts again from the setups the batch says.
#[test]
fn every_game_is_the_game_the_rules_play() {
    let rules = Rules::new(3, 40).unwrap();
    let mut env = VecEnv::new(N, 3, rules, true, 150);
    let mut buffers = Buffers::new(N);
    env.reset(buffers.out());
    let mut games: Vec<Game> = (0..N)
        .map(|i| {
            let (white, black, first, plies) = env.episode_start(i).unwrap();
            assert_eq!(plies, 0);
            Game::new(white.clone(), black.clone(), first, rules).unwrap()
        })
        .collect();
    let mut actions = [0i64; N];
    let (mut ends, mut cuts) = (0, 0);
    for _ in 0..400 {
        env.sample_actions(&mut actions);
        let moves = env.moves(&actions).unwrap();
        env.step(&moves, buffers.out());
        for (i, game) in games.iter_mut().enumerate() {
            let mover = game.side_to_move();
            let report = game.play(moves[i]).unwrap();
            let result = buffers.results[i];
            assert_eq!(result.terminated, !report.status.is_ongoing(), "game {i}");
            let reward = match report.status.winner() {
                Some(winner) if winner == mover => 1.0,
                Some(_) => -1.0,
                None => 0.0,
            };
            assert_eq!(result.reward, reward, "game {i}");
            assert_eq!(
                result.truncated,
                report.status.is_ongoing() && game.history().len() >= 150
            );
            if result.terminated || result.truncated {
                ends += usize::from(result.terminated);
                cuts += usize::from(result.truncated);
                let (white, black, first, plies) = env.episode_start(i).unwrap();
                assert_eq!(plies, 0, "a new episode");
                assert!(
                    game.setup(Side::White) != Some(white)
                        || game.setup(Side::Black) != Some(black),
                    "game {i}: the next episode starts from other setups"
                );
                *game = Game::new(white.clone(), black.clone(), first, rules).unwrap();
            }
            let side = game.side_to_move();
            let expected = game.observation(side, Orientation::ViewerUp).unwrap();
            let slot = &buffers.observations[i * Observation::LEN..(i + 1) * Observation::LEN];
            assert_eq!(slot, expected.as_slice(), "game {i}'s observation");
            let mask = game.legal_action_mask();
            for action in 0..Move::NUM_ACTIONS {
                assert_eq!(
                    buffers.masks[i * Move::NUM_ACTIONS + action],
                    mask.contains(action as u16)
                );
            }
        }
    }
    assert!(ends > 0 && cuts > 0, "{ends} games ended, {cuts} were cut");
}

/// Game `i`'s current episode as a game of its own, from its start.
fn episode_game(env: &VecEnv, i: usize, rules: Rules) -> Game {
    let (white, black, first, _) = env.episode_start(i).unwrap();
    Game::new(white.clone(), black.clone(), first, rules).unwrap()
}

/// A built-in agent asked through the batch chooses what it would choose in each game, handed
/// the side to move's tracker; games not chosen for get -1; and the refusals change nothing.
#[test]
fn an_agent_in_the_batch_chooses_as_in_each_game() {
    let rules = Rules::default();
    let (mut env, mut buffers, mut games) = batch_and_games(4, rules);
    let (mut chosen, mut random) = ([0i64; N], [0i64; N]);
    let mut challenges = 0;
    for ply in 0..120 {
        let flags: Vec<bool> = (0..N).map(|i| (i + ply) % 3 != 0).collect();
        let mut batch_agent = Greedy::new(7);
        env.agent_actions(&mut batch_agent, Some(&flags), &mut chosen)
            .unwrap();
        // The same agent, asked game by game in the same order through the game itself.
        let mut game_agent = Greedy::new(7);
        for (i, game) in games.iter().enumerate() {
            let expected = if flags[i] {
                let side = game.side_to_move();
                i64::from(game_agent.choose_in(game, side).unwrap().action().unwrap())
            } else {
                -1
            };
            assert_eq!(chosen[i], expected, "ply {ply}, game {i}");
        }
        env.sample_actions(&mut random);
        let actions: Vec<i64> = (0..N)
            .map(|i| if flags[i] { chosen[i] } else { random[i] })
            .collect();
        let moves = env.moves(&actions).expect("an agent's actions are legal");
        env.step(&moves, buffers.out());
        for (i, game) in games.iter_mut().enumerate() {
            challenges += usize::from(game.play(moves[i]).unwrap().outcome.is_some());
            let result = buffers.results[i];
            if result.terminated || result.truncated {
                *game = episode_game(&env, i, rules);
            }
        }
    }
    assert!(challenges > 20, "the agents met: {challenges} challenges");

    assert_eq!(
        env.agent_actions(&mut Greedy::new(1), Some(&[true; N - 1]), &mut chosen),
        Err(StepError::Choices {
            flags: N - 1,
            games: N
        })
    );
    let mut blind = VecEnv::new(N, 4, rules, false, 0);
    let err = blind
        .agent_actions(&mut Greedy::new(1), None, &mut chosen)
        .unwrap_err();
    assert_eq!(
        (err.clone(), err.kind()),
        (StepError::NoTrackers, ErrorKind::Argument)
    );
    blind.sample_actions(&mut random);
    assert!(blind.moves(&random).is_ok(), "a refusal changes nothing");
}

/// `Greedy`'s scores through the batch are those it gives each game's side to move, laid out
/// by action: the legal actions' scores, 0 elsewhere and in games not chosen; its own choice
/// is a highest-scored action; the refusals are those of `agent_actions`.
#[test]
fn greedy_scores_in_the_batch_are_its_scores_in_each_game() {
    let rules = Rules::default();
    let (mut env, mut buffers, mut games) = batch_and_games(9, rules);
    let mut scores = vec![0f32; N * Move::NUM_ACTIONS];
    let mut chosen = [0i64; N];
    let mut spread = 0;
    for ply in 0..150 {
        let flags: Vec<bool> = (0..N).map(|i| (i + ply) % 4 != 0).collect();
        env.greedy_scores(Some(&flags), &mut scores).unwrap();
        env.agent_actions(&mut Greedy::new(3), None, &mut chosen)
            .unwrap();
        for i in 0..N {
            let row = &scores[i * Move::NUM_ACTIONS..(i + 1) * Move::NUM_ACTIONS];
            let mask = &buffers.masks[i * Move::NUM_ACTIONS..(i + 1) * Move::NUM_ACTIONS];
            if !flags[i] {
                assert!(row.iter().all(|&s| s == 0.0), "ply {ply}, game {i}");
                continue;
            }
            // The same scores, asked of the game itself.
            let game = &games[i];
            let tracker = game.tracker(game.side_to_move()).unwrap();
            let mut expected = vec![0f32; Move::NUM_ACTIONS];
            for (mv, score) in Greedy::scores(&tracker) {
                expected[usize::from(mv.action().unwrap())] = score as f32;
            }
            assert_eq!(row, &expected[..], "ply {ply}, game {i}");
            for (&score, &legal) in row.iter().zip(mask) {
                assert!(legal || score == 0.0, "an illegal action scored, ply {ply}");
            }
            let legal: Vec<f32> = row
                .iter()
                .zip(mask)
                .filter(|&(_, &legal)| legal)
                .map(|(&s, _)| s)
                .collect();
            let best = legal.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let worst = legal.iter().copied().fold(f32::INFINITY, f32::min);
            spread += usize::from(best - worst > 1.0);
            let choice = usize::try_from(chosen[i]).unwrap();
            assert!(
                (row[choice] - best).abs() < 1e-4,
                "Greedy chose below its best"
            );
        }
        let moves = env.moves(&chosen).expect("Greedy's actions are legal");
        env.step(&moves, buffers.out());
        for (i, game) in games.iter_mut().enumerate() {
            game.play(moves[i]).unwrap();
            if buffers.results[i].terminated || buffers.results[i].truncated {
                *game = episode_game(&env, i, rules);
            }
        }
    }
    assert!(spread > 100, "scores told moves apart only {spread} times");
    assert_eq!(
        env.greedy_scores(Some(&[true; N - 1]), &mut scores),
        Err(StepError::Choices {
            flags: N - 1,
            games: N
        })
    );
    let blind = VecEnv::new(N, 4, rules, false, 0);
    assert_eq!(
        blind.greedy_scores(None, &mut scores),
        Err(StepError::NoTrackers)
    );
}

/// A step split into jobs (as threads run them) writes exactly what the whole step writes.
#[test]
fn split_steps_equal_whole_steps() {
    let rules = Rules::default();
    for parts in [2, 3, 4, N, 20] {
        let (mut whole, mut split) = (
            VecEnv::new(N, 9, rules, true, 0),
            VecEnv::new(N, 9, rules, true, 0),
        );
        let (mut a, mut b) = (Buffers::new(N), Buffers::new(N));
        whole.reset(a.out());
        split.restart_all();
        for job in split.jobs(None, b.out(), parts) {
            job.run();
        }
        let mut actions = [0i64; N];
        for _ in 0..60 {
            whole.sample_actions(&mut actions);
            let moves = whole.moves(&actions).unwrap();
            whole.step(&moves, a.out());
            let jobs = split.jobs(Some(&moves), b.out(), parts);
            assert!(jobs.len() <= parts);
            for job in jobs.into_iter().rev() {
                job.run();
            }
            assert_eq!(a.observations, b.observations, "{parts} parts");
            assert_eq!(a.masks, b.masks);
            assert_eq!(a.results, b.results);
        }
    }
}

/// Bad actions are refused before any game changes, naming the game.
#[test]
fn bad_actions_change_nothing() {
    let mut env = VecEnv::new(3, 1, Rules::default(), false, 0);
    let mut masks = vec![false; 3 * Move::NUM_ACTIONS];
    let mut results = vec![StepResult::default(); 3];
    fn out<'a>(masks: &'a mut [bool], results: &'a mut [StepResult]) -> StepOutputs<'a> {
        StepOutputs {
            observations: None,
            masks,
            results,
        }
    }
    env.reset(out(&mut masks, &mut results));
    let before = masks.clone();
    let mut actions = [0i64; 3];
    env.sample_actions(&mut actions);
    let err = env.moves(&actions[..2]).unwrap_err();
    assert_eq!(
        err,
        StepError::Count {
            actions: 2,
            games: 3
        }
    );
    assert_eq!(err.kind(), ErrorKind::Argument);
    for bad in [-1, 288, 1] {
        let mut wrong = actions;
        wrong[1] = bad;
        let err = env.moves(&wrong).unwrap_err();
        assert!(
            matches!(err, StepError::Illegal { game: 1, action, .. } if action == bad),
            "{err}"
        );
        assert_eq!(err.kind(), ErrorKind::IllegalMove);
        assert!(err.to_string().starts_with("game 1: action"));
    }
    assert_eq!(env.episode_start(0).unwrap().3, 0, "nothing was played");
    assert_eq!(masks, before);
    let moves = env.moves(&actions).unwrap();
    env.step(&moves, out(&mut masks, &mut results));
    assert_eq!(env.episode_start(0).unwrap().3, 1);
}

/// The same seed gives the same games; another seed other ones.
#[test]
fn the_seed_decides_the_games() {
    let start = |seed| {
        let env = VecEnv::new(4, seed, Rules::default(), false, 0);
        (0..4)
            .map(|i| env.episode_start(i).unwrap().0.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(start(5), start(5));
    assert_ne!(start(5), start(6));
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

/// Every game of a batch, and every episode of a game, starts from setups of its own, whatever
/// the seed's bits; `reset` starts every game's next episode; the accessors say what the batch
/// was made with.
#[test]
fn games_and_episodes_start_apart_and_reset_starts_the_next() {
    for seed in [0, 9, u64::MAX, 0x5555_5555_5555_5555] {
        for observations in [true, false] {
            let n = 24;
            let mut env = VecEnv::new(n, seed, Rules::default(), observations, 0);
            assert_eq!(
                (env.len(), env.is_empty(), env.observations()),
                (n, false, observations)
            );
            let mut seen = std::collections::HashSet::new();
            let mut tensors = vec![
                0.0f32;
                if observations {
                    n * Observation::LEN
                } else {
                    0
                }
            ];
            let mut masks = vec![false; n * Move::NUM_ACTIONS];
            let mut results = vec![StepResult::default(); n];
            for episode in 0..3 {
                for i in 0..n {
                    let (white, black, _, plies) = env.episode_start(i).unwrap();
                    assert_eq!(plies, 0);
                    assert!(
                        seen.insert((white.clone(), black.clone())),
                        "seed {seed:#x}, game {i}, episode {episode}: setups seen before"
                    );
                }
                env.reset(StepOutputs {
                    observations: observations.then_some(&mut tensors[..]),
                    masks: &mut masks,
                    results: &mut results,
                });
            }
        }
    }
    let empty = VecEnv::new(0, 1, Rules::default(), false, 0);
    assert!(empty.is_empty());
    assert_eq!(empty.len(), 0);
}

/// The Flag of `setup` on its side's back row with the squares beside it and in front of it
/// held by its own pieces: what `Formation::classic` guarantees.
fn guarded_in_the_back_row(setup: &Setup) -> bool {
    let flag = setup
        .pieces()
        .find(|(_, rank)| *rank == salpakan::Rank::Flag)
        .unwrap()
        .0;
    let (back, forward) = match setup.side() {
        Side::White => (0, 1),
        Side::Black => (7, 6),
    };
    let held = |row: u8, file: i8| {
        !(0..9).contains(&file)
            || setup
                .rank_at(Square::from_coords(file as u8, row).unwrap())
                .is_some()
    };
    let file = flag.file() as i8;
    flag.row() == back && held(back, file - 1) && held(back, file + 1) && held(forward, file)
}

/// A batch dealt by a formation deals every game and every episode by it, whether a game is
/// restarted by `reset` or by a step that ends it, on 3 and 4 setup rows; the same seed deals
/// the same games; a plain batch still deals uniformly (its Flag in the back row about a third
/// of the time).
#[test]
fn a_batch_dealt_by_a_formation_deals_every_episode_by_it() {
    let n = 16;
    for rules in [Rules::default(), rules4()] {
        let mut plain_back = 0;
        let mut plain_setups = 0;
        for formation in [Some(salpakan::Formation::classic()), None] {
            let made = || {
                let env = VecEnv::new(n, 11, rules, true, 1);
                match formation.clone() {
                    Some(f) => env.with_formation(f),
                    None => env,
                }
            };
            let (mut env, twin) = (made(), made());
            let starts = |env: &VecEnv| {
                (0..n)
                    .map(|i| env.episode_start(i).unwrap())
                    .map(|(w, b, first, plies)| (w.clone(), b.clone(), first, plies))
                    .collect::<Vec<_>>()
            };
            assert_eq!(starts(&env), starts(&twin), "the seed decides the deals");
            let mut tensors = vec![0.0f32; n * Observation::LEN];
            let mut masks = vec![false; n * Move::NUM_ACTIONS];
            let mut results = vec![StepResult::default(); n];
            let mut actions = vec![0i64; n];
            for episode in 0..4 {
                for (white, black, _, plies) in starts(&env) {
                    assert_eq!(plies, 0, "every game starts afresh");
                    for setup in [&white, &black] {
                        let guarded = guarded_in_the_back_row(setup);
                        if formation.is_some() {
                            assert!(guarded, "episode {episode}: {setup}");
                        } else {
                            plain_back += usize::from(setup.pieces().any(|(s, r)| {
                                r == salpakan::Rank::Flag && [0, 7].contains(&s.row())
                            }));
                            plain_setups += 1;
                        }
                    }
                }
                let out = StepOutputs {
                    observations: Some(&mut tensors),
                    masks: &mut masks,
                    results: &mut results,
                };
                if episode % 2 == 0 {
                    // One ply each: the cap of 1 ends every game and the step deals anew.
                    env.sample_actions(&mut actions);
                    let moves = env.moves(&actions).unwrap();
                    env.step(&moves, out);
                    assert!(results.iter().all(|r| r.truncated));
                } else {
                    env.reset(out);
                }
            }
        }
        // 128 uniform setups: a third in the back row is about 43; 20..=70 is far outside chance.
        assert_eq!(plain_setups, 8 * n);
        assert!(
            (20..=70).contains(&plain_back),
            "{plain_back} of {plain_setups}"
        );
    }
}

/// Each observation layout's tensors of one fixed game (both sides, both orientations, after
/// every ply of a seeded 60-ply game), as an FNV-1a digest of the floats' bits. A change to
/// the tensor changes the digest: raise `Observation::VERSION` and add its digest here (a
/// policy trained on one layout must never be fed another silently).
const OBSERVATION_DIGESTS: &[(u32, u64)] = &[(1, 0xb5a3_bafd_75cc_ed6d)];

#[test]
fn the_observation_layout_is_the_one_its_version_names() {
    let rules = Rules::new(3, 50).unwrap();
    let mut game = salpakan::Game::dealt(Side::White, rules, 17);
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..60 {
        for side in Side::ALL {
            for orientation in [
                salpakan::Orientation::ViewerUp,
                salpakan::Orientation::Board,
            ] {
                let observation = game.observation(side, orientation).unwrap();
                for value in observation.as_slice() {
                    for byte in value.to_bits().to_le_bytes() {
                        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
                    }
                }
            }
        }
        let moves = game.legal_moves();
        if moves.is_empty() || !game.status().is_ongoing() {
            break;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        game.play(moves[(state % moves.len() as u64) as usize])
            .unwrap();
    }
    let pinned = OBSERVATION_DIGESTS
        .iter()
        .find(|(version, _)| *version == salpakan::Observation::VERSION)
        .map(|(_, digest)| *digest);
    assert_eq!(
        Some(hash),
        pinned,
        "the observation tensor is not layout {}'s: raise Observation::VERSION and pin {hash:#x}",
        salpakan::Observation::VERSION
    );
}
