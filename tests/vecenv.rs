//! The batch of games for training (`VecEnv`): each game is the game the rules play, its
//! outputs are its side to move's, split steps equal whole ones, and bad actions change
//! nothing.

use salpakan::{
    ErrorKind, Game, Move, Observation, Orientation, Rules, StepError, StepOutputs, StepResult,
    VecEnv,
};

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
