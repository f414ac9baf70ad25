"""The imitation example (``python/examples/imitate.py``): its samples and its learning step.

No strength is asserted (the figures are in docs/PERFORMANCE.md); skipped without JAX unless
``SALPAKAN_REQUIRE_JAX=1``.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import numpy as np
import pytest

if os.environ.get("SALPAKAN_REQUIRE_JAX") == "1":
    import jax
else:
    jax = pytest.importorskip("jax")

import salpakan

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture(scope="module")
def imitate():
    sys.path.insert(0, str(EXAMPLES))
    spec = importlib.util.spec_from_file_location("imitate", EXAMPLES / "imitate.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["imitate"] = module
    spec.loader.exec_module(module)
    return module


def small(imitate, **changes):
    fields = dict(steps=20_000, envs=16, rollout=64, hidden=64, minibatch=256, max_plies=120)
    fields.update(changes)
    return imitate.Config(**fields)


def test_samples_are_the_teachers_moves_with_each_movers_result(imitate):
    config = small(imitate, seed=3)
    teacher = imitate.Teacher(config)
    # A twin batch played by a twin teacher: the moves it names are the samples' labels.
    twin = salpakan.VecEnv(16, seed=3, max_plies=120)
    twin.reset()  # as the teacher's batch: its games start at their next episode
    twin_agent = salpakan.Greedy(3)
    params = jax.tree_util.tree_map(np.asarray, imitate.training.init_params(jax.random.PRNGKey(0), 64))
    data = {}
    labels = []
    while not data:
        before = len(labels)
        data = teacher.collect(params, dagger=False)
        for _ in range(config.rollout):
            actions = twin.agent_actions(twin_agent)
            labels.append(actions)
            twin.step(actions)
        assert len(labels) == before + config.rollout
    n = len(data["action"])
    assert data["obs"].shape == (n, imitate.training.OBSERVATION_LEN) and n > 0
    # Every label is legal where it was taken, and one of the twin's moves.
    assert data["mask"][np.arange(n), data["action"]].all()
    assert set(data["action"].tolist()) <= set(np.concatenate(labels).tolist())
    # A decided game: results alternate in sign back from the last mover's, all ±1; a capped
    # game: all 0.
    assert set(np.unique(data["result"]).tolist()) <= {-1.0, 0.0, 1.0}
    assert teacher.games >= 1


def test_a_game_s_results_alternate_from_its_end(imitate):
    config = small(imitate, seed=5, envs=1, max_plies=1000, rollout=400)
    teacher = imitate.Teacher(config)
    params = imitate.training.init_params(jax.random.PRNGKey(0), 64)
    data = teacher.collect(params, dagger=False)
    while not data:
        data = teacher.collect(params, dagger=False)
    replayed = salpakan.VecEnv(1, seed=5, max_plies=1000)
    replayed.reset()
    white, black, first, _ = replayed.episode_start(0)
    game = salpakan.Game(white, black, first=first)
    trackers = {side: game.tracker(side) for side in ("white", "black")}
    replay = salpakan.Greedy(5)
    results = []
    while game.status.ongoing and len(results) < 1000:  # the batch's cap
        mover = game.side_to_move
        report = game.play(replay.choose(trackers[mover]))
        for tracker in trackers.values():
            tracker.observe(report)
        results.append(mover)
    winner = game.status.winner  # None for a draw or the cap
    expected = [0.0 if winner is None else (1.0 if m == winner else -1.0) for m in results]
    assert data["result"][: len(expected)].tolist() == expected


def test_the_update_learns_a_fixed_batch(imitate):
    config = small(imitate, seed=1)
    teacher = imitate.Teacher(config)
    params = imitate.training.init_params(jax.random.PRNGKey(1), 64)
    data = {}
    while not data:
        data = teacher.collect(params, dagger=False)
    batch = {k: v[:256] for k, v in data.items()}
    update = imitate.make_update(config)
    opt = imitate.training.adam_init(params)
    first = None
    for _ in range(60):
        params, opt, (policy_loss, _, accuracy) = update(params, opt, batch, 1e-3)
        first = float(policy_loss) if first is None else first
    assert float(policy_loss) < first / 2 and float(accuracy) > 0.5


def test_a_short_run_with_dagger(imitate, tmp_path):
    config = small(imitate, seed=2, mix=0.5)
    params, history = imitate.train(config, eval_every=20_000, eval_games=4, out=tmp_path, log=lambda _: None)
    assert history[-1]["steps"] >= 20_000
    assert (tmp_path / "params.npz").exists() and (tmp_path / "curve.csv").exists()
    loaded = imitate.training.load_params(str(tmp_path / "params.npz"), 64)
    assert all(np.array_equal(loaded[k], params[k]) for k in params)


def test_a_residual_learns_from_greedy_s_scores_of_the_teacher_s_positions(imitate, tmp_path):
    config = small(imitate, seed=4, greedy_prior=3.0, teacher="level-5")
    teacher = imitate.Teacher(config)
    params = imitate.training.init_params(jax.random.PRNGKey(4), 64, "mlp", 3.0)
    data = {}
    while not data:
        data = teacher.collect(params, dagger=True)
    n = len(data["action"])
    assert data["scores"].shape == (n, imitate.training.ACTIONS)
    # The scores are Greedy's of the position each sample was taken in: 0 where illegal, and
    # level 5 (Greedy but for its random tenth) plays a best-scored move most of the time.
    assert (data["scores"][~data["mask"]] == 0).all()
    best = np.where(data["mask"], data["scores"], -np.inf).max(axis=1)
    agrees = data["scores"][np.arange(n), data["action"]] == best
    assert agrees.mean() > 0.6
    quiet = lambda _: None  # noqa: E731
    params, _ = imitate.train(config, eval_every=20_000, eval_games=2, out=tmp_path, log=quiet)
    assert float(params["greedy_prior"]) != 3.0  # the scale learns too
    loaded = imitate.training.load_params(str(tmp_path / "params.npz"), 64)
    assert float(loaded["greedy_prior"]) == float(params["greedy_prior"])


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"teacher": "random"}, "teacher 'random'"),
        ({"mix": 2.0}, "mix"),
        ({"formation": "x"}, "formation 'x'"),
        ({"greedy_prior": -1.0}, "greedy_prior"),
    ],
)
def test_a_bad_config_is_refused_by_name(imitate, changes, words):
    with pytest.raises(ValueError, match=words):
        small(imitate, **changes)
