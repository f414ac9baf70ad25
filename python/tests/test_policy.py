"""The package's policy network and weights file (``salpakan.policy``) and the way matches are
dealt (``salpakan.matches``): what ``Learned``, the examples and the trainers share."""

from __future__ import annotations

import numpy as np
import pytest

import salpakan
from salpakan import matches, policy


def test_the_shipped_weights_read_as_a_residual_mlp_of_128_units():
    weights = policy.load(policy.SHIPPED)
    assert {name: w.shape for name, w in weights.items()} == policy.shapes(128, residual=True)
    assert all(w.dtype == np.float32 and not w.flags.writeable for w in weights.values())


def test_a_weights_file_round_trips_and_a_wrong_one_is_refused_by_name(tmp_path):
    rng = np.random.default_rng(1)
    weights = {name: rng.standard_normal(shape).astype(np.float32) for name, shape in policy.shapes(8, False).items()}
    path = tmp_path / "params.npz"
    policy.save(path, weights)
    back = policy.load(path)
    assert all(np.array_equal(back[name], weights[name]) for name in weights)
    half = tmp_path / "half.npz"
    policy.save(half, weights, half=True)
    assert np.allclose(policy.load(half)["w1"], weights["w1"], atol=1e-2)
    wrong = dict(weights, w2=np.zeros((8, 9), np.float32))
    np.savez(tmp_path / "wrong.npz", **wrong)
    with pytest.raises(salpakan.ArgumentError, match="shapes"):
        policy.load(tmp_path / "wrong.npz")
    np.savez(tmp_path / "conv.npz", c1=np.zeros(3, np.float32))
    with pytest.raises(salpakan.ArgumentError, match="not a policy of --net mlp"):
        policy.load(tmp_path / "conv.npz")
    with pytest.raises(salpakan.ArgumentError, match="do not read"):
        policy.load(tmp_path / "missing.npz")


def test_the_network_gives_a_distribution_over_the_legal_actions_only():
    weights = policy.load(policy.SHIPPED)
    game = salpakan.Game(seed=3)
    tracker = game.tracker(game.side_to_move)
    x = tracker.observation().reshape(1, -1)
    mask = tracker.legal_action_mask()[None]
    scores = salpakan.Greedy.scores(tracker)[None]
    log_probs, values = policy.forward(weights, x, mask, scores)
    p = np.exp(log_probs[0].astype(np.float64))
    assert abs(p.sum() - 1) < 1e-5 and np.all(p[~mask[0]] < 1e-30)
    assert values.shape == (1,) and np.isfinite(values[0])
    # The residual reads Greedy's scores: other scores, another policy.
    other, _ = policy.forward(weights, x, mask, -scores)
    assert np.abs(other - log_probs)[mask].max() > 0.1


def test_matches_name_every_agent_and_refuse_an_unknown_one():
    assert isinstance(matches.agent("random", 1), salpakan.Random)
    assert isinstance(matches.agent("greedy", 1), salpakan.Greedy)
    assert isinstance(matches.agent("ismcts", 1, budget=50), salpakan.Ismcts)
    assert matches.agent("level-4", 1).level == 4
    assert matches.agent("learned@0.25", 1).temperature == 0.25
    for bad in ("level-9", "learned@hot", "alphazero"):
        with pytest.raises(salpakan.Error):
            matches.agent(bad, 1)
    assert matches.level_range("level-4..6") == [4, 5, 6]
    assert matches.level_range("level-6..4") is None and matches.level_range("level-0..2") is None


def test_a_match_plays_each_deal_twice_with_the_sides_swapped():
    games = [matches.setting(g, seed=11) for g in range(4)]
    assert games[0].setup("white").cells() == games[1].setup("white").cells()
    assert games[0].setup("white").cells() != games[2].setup("white").cells()
    assert [g.side_to_move for g in games] == ["white", "white", "black", "black"]
    classic = matches.setting(0, seed=11, formation="classic", move_limit=50)
    assert classic.move_limit == 50
    assert matches.play("greedy", "random", 0, seed=2, move_limit=80) in ("win", "draw", "loss")


@pytest.mark.parametrize("module", ["policy", "matches", "training"])
def test_the_shared_modules_examples_run_as_written(module):
    import doctest
    import importlib

    if module == "training":
        pytest.importorskip("jax")
    found = doctest.testmod(importlib.import_module(f"salpakan.{module}"))
    assert found.attempted > 0 and found.failed == 0
