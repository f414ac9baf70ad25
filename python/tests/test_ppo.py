"""The JAX PPO example (``python/examples/ppo_jax.py``): a smoke run and the parts it rests on.

No strength is asserted here (a 50 k-step run learns little); the learning figures are in the
README, from 3 M-step runs. Skipped without JAX unless ``SALPAKAN_REQUIRE_JAX=1``.
"""

from __future__ import annotations

import importlib.util
from dataclasses import replace as dataclasses_replace
import math
import os
import sys
from pathlib import Path

import numpy as np
import pytest

if os.environ.get("SALPAKAN_REQUIRE_JAX") == "1":
    import jax  # noqa: F401  (fails the run if missing)
else:
    jax = pytest.importorskip("jax")

from salpakan import matches, policy, training  # noqa: E402  (after JAX is known to be there)

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "ppo_jax.py"


@pytest.fixture(scope="module")
def ppo():
    spec = importlib.util.spec_from_file_location("ppo_jax", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules["ppo_jax"] = module
    spec.loader.exec_module(module)
    return module


def small(ppo, **changes):
    fields = dict(steps=50_000, envs=64, rollout=64, hidden=64, minibatch=512)
    fields.update(changes)
    return ppo.Config(**fields)


def first_rollout(ppo, config):
    params = training.init_params(jax.random.PRNGKey(config.seed), config.hidden)
    return ppo.Collector(config).collect(params)


def test_smoke_run_has_finite_losses(ppo):
    lines = []
    params, history = ppo.train(small(ppo), log=lines.append)
    assert history[-1]["steps"] >= 50_000
    assert len(lines) == len(history) >= 10
    for row in history:
        for name in ("policy_loss", "value_loss", "entropy", "approx_kl", "grad_norm"):
            assert math.isfinite(row[name]), (name, row)
    assert all(np.isfinite(np.asarray(v)).all() for v in params.values())


@pytest.mark.parametrize("opponent", ["random", "greedy", "mixed", "self", "level-2", "level-1..3"])
def test_every_action_taken_is_legal(ppo, opponent):
    # The VecEnv raises IllegalMoveError on an illegal action; this also checks each row.
    config = small(ppo, seed=3, opponent=opponent)
    collector = ppo.Collector(config)
    params = training.init_params(jax.random.PRNGKey(3), config.hidden)
    for _ in range(3):
        r = collector.collect(params)
        taken = np.take_along_axis(r.mask, r.action[..., None], axis=2)[..., 0]
        assert taken.all()
        assert r.learner.any() and (~r.learner).any()
    assert collector.games, "no game finished in 192 plies of 64 games"


def test_a_level_range_draws_each_games_level_and_keeps_it_to_the_end(ppo):
    assert matches.level_range("level-4..6") == [4, 5, 6]
    for bad in ("level-6..4", "level-0..3", "level-4..9", "level-4..4", "level-4.6", "greedy"):
        assert matches.level_range(bad) is None
    config = small(ppo, seed=5, opponent="level-1..3")
    collector = ppo.Collector(config)
    assert [agent.level for agent in collector.level_agents] == [1, 2, 3]
    assert set(collector.game_level.tolist()) == {0, 1, 2}
    params = training.init_params(jax.random.PRNGKey(5), config.hidden)
    before = collector.game_level.copy()
    r = collector.collect(params)
    # A game that did not end keeps its level; the finished ones draw again.
    going = ~r.ended.any(axis=0)
    assert going.any() and (collector.game_level[going] == before[going]).all()
    assert set(collector.game_level.tolist()) <= {0, 1, 2}


def test_same_seed_gives_the_same_first_rollout(ppo):
    a = first_rollout(ppo, small(ppo, seed=11))
    b = first_rollout(ppo, small(ppo, seed=11))
    for name in ("obs", "mask", "action", "log_prob", "value", "reward", "ended", "learner"):
        assert getattr(a, name).tobytes() == getattr(b, name).tobytes(), name
    c = first_rollout(ppo, small(ppo, seed=12))
    assert a.obs.tobytes() != c.obs.tobytes()
    assert a.action.tobytes() != c.action.tobytes()


def reference_advantages(r, gamma, lam):
    """GAE game by game from lists of the learner's decisions: the same definition, written
    the plain way, to check the vectorised walk."""
    t_len, n = r.reward.shape
    adv = np.zeros((t_len, n))
    for i in range(n):
        decisions = []  # [t, reward, ended before the next decision]
        for t in range(t_len):
            if r.learner[t, i]:
                decisions.append([t, 0.0, False])
            if r.ended[t, i] and decisions and not decisions[-1][2]:
                reward = r.reward[t, i] if r.learner[t, i] else -r.reward[t, i]
                decisions[-1][1], decisions[-1][2] = reward, True
        if r.last_learner[i]:
            bootstrap = r.last_value[i]
        else:
            bootstrap = r.value[decisions[-1][0], i] if decisions else 0.0
        following = 0.0
        for k in range(len(decisions) - 1, -1, -1):
            t, reward, ended = decisions[k]
            if ended:
                next_value, alive = 0.0, 0.0
            else:
                next_value = (
                    r.value[decisions[k + 1][0], i] if k + 1 < len(decisions) else bootstrap
                )
                alive = 1.0
            delta = reward + gamma * next_value * alive - r.value[t, i]
            following = delta + gamma * lam * alive * following
            adv[t, i] = following
    return adv


def test_advantages_match_the_plain_definition(ppo):
    config = small(ppo, seed=5, envs=32, rollout=256)
    r = first_rollout(ppo, config)
    assert r.ended.any()
    # Values that are not all alike, so that a wrong index shows.
    r.value = np.random.default_rng(0).normal(size=r.value.shape).astype(np.float32)
    r.last_value = np.random.default_rng(1).normal(size=r.last_value.shape).astype(np.float32)
    adv, ret = ppo.advantages(r, 0.99, 0.9)
    expected = reference_advantages(r, 0.99, 0.9)
    np.testing.assert_allclose(adv, expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(ret[r.learner], (adv + r.value)[r.learner])
    assert (adv[~r.learner] == 0).all()


def one_game(ppo, learner, ended, value, last_value, last_learner, **more):
    """A rollout of one game from the lists of each ply's flags and values: no observation
    (unless ``more`` gives one), every move allowed, action 0 with log-probability 0."""
    plies = len(learner)

    def column(values, dtype):
        return np.array(values, dtype).reshape(plies, 1)

    fields = dict(
        obs=np.zeros((plies, 1, policy.OBSERVATION_LEN), np.float32),
        mask=np.ones((plies, 1, policy.ACTIONS), bool),
        action=np.zeros((plies, 1), np.int64),
        log_prob=np.zeros((plies, 1), np.float32),
        value=column(value, np.float32),
        reward=np.zeros((plies, 1), np.float32),
        ended=column(ended, bool),
        learner=column(learner, bool),
        last_value=np.array([last_value], np.float32),
        last_learner=np.array([last_learner]),
    )
    fields.update(more)
    return ppo.Rollout(**fields)


def test_a_loss_is_scored_on_the_learners_last_decision(ppo):
    # One game: the learner moves (t=0), then the opponent's move ends the game, won by it.
    r = one_game(
        ppo, [True, False], [False, True], [0.25, 0.5], 0.75, True,
        reward=np.array([[0.0], [1.0]], np.float32),
    )
    adv, _ = ppo.advantages(r, 0.99, 0.95)
    assert adv[0, 0] == pytest.approx(-1.0 - 0.25)
    assert adv[1, 0] == 0.0


def test_evaluation_counts_every_game(ppo):
    params = training.init_params(jax.random.PRNGKey(0), 64)
    first = training.evaluate(params, "random", 4, seed=1, max_plies=200)
    assert sum(first) == 4
    assert training.evaluate(params, "random", 4, seed=1, max_plies=200) == first
    assert sum(training.evaluate(params, "greedy", 2, seed=1, max_plies=200)) == 2


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"opponent": "ismcts"}, "opponent 'ismcts'"),
        ({"envs": 0}, "envs"),
        ({"gamma": 1.5}, "gamma"),
        ({"opponent": "level-9"}, "opponent 'level-9'"),
        ({"opponent": "level-6..4"}, "opponent 'level-6..4'"),
        ({"opponent": "level-4..9"}, "opponent 'level-4..9'"),
        ({"formation": "wedge"}, "formation 'wedge'"),
        ({"cap_reward": -2.0}, "cap_reward"),
        ({"seconds": -1.0}, "seconds"),
        ({"net": "resnet"}, "net 'resnet'"),
        ({"move_limit": -1}, "move_limit"),
        ({"material": 2.0}, "material"),
        ({"greedy_prior": -1.0}, "greedy_prior"),
    ],
)
def test_a_bad_config_is_refused_by_name(ppo, changes, words):
    with pytest.raises(ValueError, match=words):
        small(ppo, **changes)


def test_the_cap_ends_a_game_with_the_cap_reward_for_the_learner(ppo):
    # One game: the learner moves (t=0), the opponent's move reaches the cap (t=1, no winner),
    # the learner's next decision starts a new game (t=2).
    r = one_game(
        ppo, [True, False, True], [False, True, False], [0.25, 0.5, 0.125], 0.75, False,
        capped=np.array([[False], [True], [False]]),
    )
    adv, _ = ppo.advantages(r, 0.99, 0.95, cap_reward=-0.5)
    assert adv[0, 0] == pytest.approx(-0.5 - 0.25)  # no bootstrap across the cap
    plain, _ = ppo.advantages(r, 0.99, 0.95)
    assert plain[0, 0] == pytest.approx(0.0 - 0.25)  # a draw by default


def observation_with(ppo, own: int, enemy: int) -> np.ndarray:
    """An observation with ``own`` pieces of the viewer's (Privates) and ``enemy`` of the
    enemy's on the board, nothing else."""
    planes = np.zeros((38, 72), np.float32)
    planes[13, :own] = 1.0  # a Private each
    planes[15, 72 - enemy :] = 1.0
    return planes.reshape(-1)


def test_the_material_potential_shapes_each_decision_and_telescopes(ppo):
    # One game seen from the learner: decisions at t=0 (even material), t=2 (after the
    # opponent lost a piece at t=1: +1/21) and t=4 (a piece of the learner's lost at t=3:
    # even), then its move at t=4 wins. The observation at t is the mover's, (own, enemy).
    balances = [(21, 21), (21, 21), (21, 20), (20, 20), (20, 20)]
    obs = np.stack([observation_with(ppo, o, e) for o, e in balances])[:, None, :]
    r = one_game(
        ppo, [True, False, True, False, True], [False] * 4 + [True], [0.0] * 5, 0.0, True,
        obs=obs,
        reward=np.array([[0.0], [0.0], [0.0], [0.0], [1.0]], np.float32),
        capped=np.zeros((5, 1), bool),
        last_balance=np.zeros(1, np.float32),
    )
    gamma, m = 0.9, 0.5
    adv, _ = ppo.advantages(r, gamma, 0.0, material=m)  # lambda 0: one-step advantages
    assert adv[0, 0] == pytest.approx(gamma * m / 21 - 0.0)  # the capture gained
    assert adv[2, 0] == pytest.approx(gamma * 0.0 - m / 21)  # the piece lost
    assert adv[4, 0] == pytest.approx(1.0 + 0.0 - 0.0)  # the end: Φ is 0 after it
    plain, _ = ppo.advantages(r, gamma, 0.0)
    assert plain[0, 0] == 0.0 and plain[2, 0] == 0.0 and plain[4, 0] == 1.0
    # With gamma 1 the shaping telescopes: the returns of the first decision agree.
    shaped, _ = ppo.advantages(r, 1.0, 1.0, material=m)
    unshaped, _ = ppo.advantages(r, 1.0, 1.0)
    assert shaped[0, 0] == pytest.approx(unshaped[0, 0])


def test_balance_is_the_same_number_from_either_side(ppo):
    config = small(ppo, seed=4, envs=16, rollout=200)
    r = first_rollout(ppo, config)
    b = ppo.balance(r.obs)
    assert b.shape == r.reward.shape and b.min() >= -1 and b.max() <= 1
    # Along a game the mover alternates, so consecutive balances are opposite unless a
    # challenge removed something or the game restarted.
    assert (b != 0).any(), "no piece was ever removed in 200 plies of 16 games"
    for i in range(config.envs):
        for t in range(1, 200):
            if not r.ended[t - 1, i] and not r.obs[t, i].reshape(38, 72)[33].any():
                assert b[t, i] == pytest.approx(-b[t - 1, i]), (t, i)


def test_a_move_limit_draw_trains_on_the_cap_reward_and_counts_as_a_draw(ppo):
    config = small(ppo, seed=6, envs=16, move_limit=2, cap_reward=-0.5)
    collector = ppo.Collector(config)
    rollout = collector.collect(training.init_params(jax.random.PRNGKey(6), config.hidden))
    drawn = rollout.capped & rollout.ended
    assert drawn.any(), "two quiet plies never drew a game"
    assert (rollout.reward[rollout.capped] == 0).all()
    assert 0.0 in collector.games


def test_evaluation_plays_by_the_run_s_move_limit(ppo):
    params = training.init_params(jax.random.PRNGKey(0), 64)
    # Two plies without a challenge end every game at its start.
    assert training.evaluate(params, "random", 4, seed=1, move_limit=2) == (0, 4, 0)
    w, d, l = training.evaluate(params, "random", 4, seed=1)
    assert w + l > 0, "without the limit some game is decided"


def test_capped_games_train_on_the_cap_reward_but_count_as_draws(ppo):
    config = small(ppo, seed=2, envs=8, max_plies=3, cap_reward=-1.0)
    collector = ppo.Collector(config)
    rollout = collector.collect(training.init_params(jax.random.PRNGKey(2), config.hidden))
    assert rollout.capped.any() and (rollout.capped <= rollout.ended).all()
    assert collector.games and set(collector.games) == {0.0}


def test_a_run_deals_by_its_formation_and_plays_a_level(ppo):
    config = small(ppo, seed=4, envs=8, formation="classic", opponent="level-1")
    collector = ppo.Collector(config)
    for i in range(8):
        white, black, _, _ = collector.env.episode_start(i)
        assert white.cells().index(0) < 9 and black.cells().index(0) >= 63  # back rows
    params = training.init_params(jax.random.PRNGKey(4), 64)
    games = training.evaluate(params, "level-1", 4, seed=3, max_plies=200, formation="classic")
    assert sum(games) == 4
    assert training.evaluate(params, "level-1", 4, seed=3, max_plies=200, formation="classic") == games
    setups = [matches.deal("classic", side, 5) for side in ("white", "black")]
    assert setups[0].cells().index(0) < 9 and setups[1].cells().index(0) >= 63


def test_a_run_starts_from_saved_weights_and_stops_on_time(ppo, tmp_path):
    params = training.init_params(jax.random.PRNGKey(99), 64)
    training.save_params(tmp_path / "params.npz", params)
    loaded = training.load_params(str(tmp_path / "params.npz"), 64)
    assert all(np.array_equal(loaded[k], params[k]) for k in params)
    with pytest.raises(ValueError, match="hidden 32"):
        training.load_params(str(tmp_path / "params.npz"), 32)
    # With no learning, a run ends with the weights it started from: the saved ones.
    config = small(ppo, seed=8, learning_rate=0.0, init=str(tmp_path / "params.npz"), seconds=0.001)
    trained, history = ppo.train(config, log=lambda _: None)
    assert len(history) == 1  # the time budget ends the run after its first update
    assert all(np.array_equal(trained[k], params[k]) for k in params)
    fresh, _ = ppo.train(dataclasses_replace(config, init=""), log=lambda _: None)
    assert not np.array_equal(fresh["w1"], params["w1"])


def test_the_convolutional_network_plays_legal_moves_and_saves(ppo, tmp_path):
    config = small(ppo, seed=6, net="conv", hidden=8, envs=8)
    params = training.init_params(jax.random.PRNGKey(6), 8, "conv")
    assert params["c1"].shape == (3, 3, 38, 8) and params["wp"].shape == (8 * 72, policy.ACTIONS)
    r = ppo.Collector(config).collect(params)
    taken = np.take_along_axis(r.mask, r.action[..., None], axis=2)[..., 0]
    assert taken.all() and np.isfinite(r.value).all()
    # The board's layout matters to it: moving a piece's plane changes the logits.
    obs = r.obs[0][:1]
    shifted = np.roll(obs.reshape(1, 38, 8, 9), 1, axis=3).reshape(1, -1)
    a, _ = training.network(params, obs, np.ones((1, policy.ACTIONS), bool))
    b, _ = training.network(params, shifted, np.ones((1, policy.ACTIONS), bool))
    assert not np.allclose(np.asarray(a), np.asarray(b))
    training.save_params(tmp_path / "conv.npz", params)
    loaded = training.load_params(str(tmp_path / "conv.npz"), 8, "conv")
    assert all(np.array_equal(loaded[k], params[k]) for k in params)
    with pytest.raises(ValueError, match="net mlp"):
        training.load_params(str(tmp_path / "conv.npz"), 8)
    _, history = ppo.train(dataclasses_replace(config, steps=2_000), log=lambda _: None)
    assert all(np.isfinite(row["policy_loss"]) for row in history)


def test_a_residual_on_greedy_starts_as_greedy_softened_and_learns_its_scale(ppo, tmp_path):
    config = small(ppo, seed=9, envs=16, greedy_prior=4.0, opponent="greedy")
    params = training.init_params(jax.random.PRNGKey(9), 64, "mlp", 4.0)
    r = ppo.Collector(config).collect(params)
    assert r.scores is not None and r.scores.shape == r.mask.shape
    # Greedy's scores are taken where the learner moves, none where the opponent does.
    assert (r.scores[~r.learner] == 0).all() and (r.scores[r.learner] != 0).any()
    assert (r.scores[~r.mask] == 0).all()
    # With the network's own logits zero, the policy is softmax(scale × clipped scores).
    flat = {k: (v * 0 if k in ("wp", "bp") else v) for k, v in params.items()}
    rows = np.flatnonzero(r.learner[0])
    obs, mask, scores = r.obs[0][rows], r.mask[0][rows], r.scores[0][rows]
    log_probs, _ = training.network(flat, obs, mask, scores)
    logits = np.where(mask, 4.0 * np.clip(scores, -policy.PRIOR_CLIP, policy.PRIOR_CLIP), -np.inf)
    top = logits.max(1, keepdims=True)
    expected = logits - top - np.log(np.exp(logits - top).sum(1, keepdims=True))
    np.testing.assert_allclose(np.asarray(log_probs)[mask], expected[mask], rtol=1e-4, atol=1e-4)
    # Its most probable move is one Greedy scores best.
    chosen = np.asarray(training.best(flat, obs, mask, scores))
    best_score = np.where(mask, scores, -np.inf).max(1)
    assert (scores[np.arange(len(rows)), chosen] == best_score).all()
    # The scale is a parameter: training moves it, saving and loading keep it.
    trained, _ = ppo.train(dataclasses_replace(config, steps=3_000), log=lambda _: None)
    assert float(trained["greedy_prior"]) != 4.0
    training.save_params(tmp_path / "residual.npz", trained)
    loaded = training.load_params(str(tmp_path / "residual.npz"), 64)
    assert float(loaded["greedy_prior"]) == float(trained["greedy_prior"])
    # A plain saved policy gains the scale when a residual run starts from it.
    training.save_params(tmp_path / "plain.npz", training.init_params(jax.random.PRNGKey(1), 64))
    assert "greedy_prior" not in training.load_params(str(tmp_path / "plain.npz"), 64)
    started = training.load_params(str(tmp_path / "plain.npz"), 64, "mlp", 2.5)
    assert float(started["greedy_prior"]) == 2.5
    # Evaluation plays it with its scores too.
    assert sum(training.evaluate(trained, "random", 2, seed=1, max_plies=100)) == 2


def test_the_shipped_policy_is_this_network_and_a_run_can_start_from_it(ppo):
    """``salpakan.Learned`` plays NumPy's forward pass of the weights ppo_jax.py saved: the
    same log-probabilities as ``network`` along a game, and ``--init`` reads the file."""
    import salpakan
    from salpakan import learned

    params = training.load_params(str(learned.WEIGHTS), 128)
    assert "greedy_prior" in params
    bot = salpakan.Learned()
    game = salpakan.Game(seed=11, move_limit=200)
    agent = salpakan.Greedy(11)
    checked = 0
    while game.status.ongoing and game.ply < 60:
        tracker = game.tracker(game.side_to_move)
        mask = tracker.legal_action_mask()
        expected, _ = training.network(
            params,
            tracker.observation().reshape(1, -1),
            mask[None],
            salpakan.Greedy.scores(tracker)[None],
        )
        np.testing.assert_allclose(bot.log_probs(tracker)[mask], np.asarray(expected)[0][mask], atol=2e-4)
        checked += 1
        game.play(agent.choose_in(game, game.side_to_move))
    assert checked == 60


def test_the_network_is_one_definition_run_by_numpy_and_by_jax():
    """``salpakan.policy.forward`` is the MLP both ``Learned`` (NumPy) and the trainers (JAX,
    through ``salpakan.training.network``) run: the same numbers from either."""
    params = training.init_params(jax.random.PRNGKey(3), 32, greedy_prior=2.0)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((5, policy.OBSERVATION_LEN)).astype(np.float32)
    masks = rng.random((5, policy.ACTIONS)) < 0.3
    masks[:, 0] = True
    scores = rng.uniform(-20, 20, (5, policy.ACTIONS)).astype(np.float32)
    jax_log_probs, jax_values = training.network(params, x, masks, scores)
    numpy_params = {name: np.asarray(value) for name, value in params.items()}
    log_probs, values = policy.forward(numpy_params, x, masks, scores)
    assert np.allclose(np.asarray(jax_log_probs)[masks], log_probs[masks], atol=1e-5)
    assert np.allclose(np.asarray(jax_values), values, atol=1e-5)
