"""The batched environment: equal to single games played with the same actions."""

from __future__ import annotations

import numpy as np
import pytest

import salpakan


@pytest.mark.parametrize("threads", [1, 2])
def test_vecenv_equals_single_games(threads):
    env = salpakan.VecEnv(8, seed=5, observations=True, threads=threads, max_plies=150)
    observations, masks = env.reset()
    assert observations.shape == (8, *salpakan.OBSERVATION_SHAPE) and masks.shape == (8, 288)
    games = []
    for i in range(8):
        white, black, first, plies = env.episode_start(i)
        assert plies == 0
        games.append(salpakan.Game(white, black, first=first))
    episodes_ended = 0
    for step in range(400):
        for i, game in enumerate(games):
            side = game.side_to_move
            assert np.array_equal(observations[i], game.observation(side)), (step, i)
            assert np.array_equal(masks[i], game.legal_action_mask()), (step, i)
        actions = env.sample_actions()
        observations, rewards, terminations, truncations, masks = env.step(actions)
        for i, game in enumerate(games):
            mover = game.side_to_move
            report = game.play_action(int(actions[i]))
            status = report.status
            assert terminations[i] == (not status.ongoing)
            expected = 0.0 if status.winner is None else (1.0 if status.winner == mover else -1.0)
            assert rewards[i] == expected
            assert truncations[i] == (status.ongoing and game.ply >= 150)
            if terminations[i] or truncations[i]:
                episodes_ended += 1
                white, black, first, plies = env.episode_start(i)
                assert plies == 0
                games[i] = salpakan.Game(white, black, first=first)
    assert episodes_ended >= 8


def step_with_games(env, games, actions):
    """Steps ``env`` and plays the same actions in ``games`` (one per game of the batch), each
    restarted as its game's next episode when it ends; returns the masks."""
    _, _, terminations, truncations, masks = env.step(actions)
    for i, game in enumerate(games):
        game.play_action(int(actions[i]))
        if terminations[i] or truncations[i]:
            white, black, first, _ = env.episode_start(i)
            games[i] = salpakan.Game(white, black, first=first)
    return masks


def test_an_agent_chooses_in_the_batch_as_in_each_game():
    env = salpakan.VecEnv(6, seed=4)
    env.reset()
    games = [salpakan.Game(*env.episode_start(i)[:2], first=env.episode_start(i)[2]) for i in range(6)]
    for ply in range(60):
        choose = np.array([(i + ply) % 3 != 0 for i in range(6)])
        chosen = env.agent_actions(salpakan.Greedy(7), choose)
        assert chosen.dtype == np.int64 and chosen.shape == (6,)
        agent = salpakan.Greedy(7)  # the same agent, asked game by game in the same order
        for i, game in enumerate(games):
            expected = agent.choose_in(game, game.side_to_move).action if choose[i] else -1
            assert chosen[i] == expected, (ply, i)
        actions = np.where(choose, chosen, env.sample_actions())
        step_with_games(env, games, actions)
    with pytest.raises(salpakan.ArgumentError, match="5 choice flags for 6 games"):
        env.agent_actions(salpakan.Random(1), [True] * 5)
    with pytest.raises(salpakan.ArgumentError, match="Random, Greedy, Ismcts or Level"):
        env.agent_actions("greedy")
    with pytest.raises(salpakan.ArgumentError, match="trackers"):
        salpakan.VecEnv(2, observations=False).agent_actions(salpakan.Greedy(1))


def test_greedy_scores_in_the_batch_are_its_scores_in_each_game():
    env = salpakan.VecEnv(5, seed=8)
    _, masks = env.reset()
    starts = [env.episode_start(i) for i in range(5)]
    games = [salpakan.Game(white, black, first=first) for white, black, first, _ in starts]
    told_apart = 0
    for ply in range(80):
        choose = np.array([(i + ply) % 3 != 0 for i in range(5)])
        scores = env.greedy_scores(choose)
        assert scores.dtype == np.float32 and scores.shape == (5, salpakan.NUM_ACTIONS)
        chosen = env.agent_actions(salpakan.Greedy(2))
        for i, game in enumerate(games):
            if not choose[i]:
                assert (scores[i] == 0).all()
                continue
            own = salpakan.Greedy.scores(game.tracker(game.side_to_move))
            assert own.tobytes() == scores[i].tobytes(), (ply, i)
            assert (scores[i][~masks[i]] == 0).all()
            legal = scores[i][masks[i]]
            assert scores[i][chosen[i]] == pytest.approx(legal.max())  # Greedy plays a best one
            told_apart += legal.max() - legal.min() > 1.0
            # Not the tracker's turn: nothing to score.
            other = "black" if game.side_to_move == "white" else "white"
            assert (salpakan.Greedy.scores(game.tracker(other)) == 0).all()
        masks = step_with_games(env, games, chosen)
    assert told_apart > 50
    with pytest.raises(salpakan.ArgumentError, match="4 choice flags for 5 games"):
        env.greedy_scores([True] * 4)
    with pytest.raises(salpakan.ArgumentError, match="trackers"):
        salpakan.VecEnv(2, observations=False).greedy_scores()


def test_vecenv_without_observations_and_bad_actions():
    env = salpakan.VecEnv(4, seed=1, observations=False)
    observations, masks = env.reset()
    assert observations is None and masks.dtype == bool
    before = [env.episode_start(i) for i in range(4)]
    actions = env.sample_actions()
    bad = actions.copy()
    bad[2] = int(np.flatnonzero(~masks[2])[0])
    with pytest.raises(salpakan.IllegalMoveError, match="game 2"):
        env.step(bad)
    # Nothing was played.
    assert [env.episode_start(i)[3] for i in range(4)] == [b[3] for b in before]
    with pytest.raises(salpakan.ArgumentError):
        env.step(actions[:3])
    observations, rewards, terminations, truncations, masks = env.step(list(actions))
    assert observations is None and rewards.shape == (4,)
    assert [env.episode_start(i)[3] for i in range(4)] == [1, 1, 1, 1]


def test_returned_arrays_are_never_overwritten():
    env = salpakan.VecEnv(4, seed=2)
    kept = []
    observations, masks = env.reset()
    for _ in range(6):
        snapshot = (observations.copy(), masks.copy())
        kept.append(((observations, masks), snapshot))
        observations, _, _, _, masks = env.step(env.sample_actions())
    for (held, copied) in kept:
        assert np.array_equal(held[0], copied[0]) and np.array_equal(held[1], copied[1])


def test_vecenv_deals_by_a_formation_when_asked() -> None:
    from test_api import _flag_guarded_in_the_back_row

    env = salpakan.VecEnv(12, seed=2, max_plies=1, formation="classic")
    plain = salpakan.VecEnv(12, seed=2, max_plies=1)
    guarded_plain = 0
    for episode in range(3):
        for i in range(12):
            white, black, _, plies = env.episode_start(i)
            assert plies == 0
            assert _flag_guarded_in_the_back_row(white) and _flag_guarded_in_the_back_row(black)
            guarded_plain += sum(map(_flag_guarded_in_the_back_row, plain.episode_start(i)[:2]))
        # The cap of one ply ends every game: the step deals the next episodes.
        env.step(env.sample_actions())
        plain.step(plain.sample_actions())
    assert guarded_plain < 36, guarded_plain
    again = salpakan.VecEnv(12, seed=2, formation="classic")
    assert again.episode_start(5)[:2] == salpakan.VecEnv(12, seed=2, formation="CLASSIC").episode_start(5)[:2]
    with pytest.raises(salpakan.ArgumentError, match="wedge"):
        salpakan.VecEnv(4, formation="wedge")
