"""``salpakan.Learned``: the shipped policy plays legal moves from its tracker alone, the same
moves for a seed, and refuses what it cannot do by name."""

from __future__ import annotations

import math

import numpy as np
import pytest

import salpakan
from salpakan import learned


def positions(seed: int, plies: int, move_limit: int = 200):
    """Games of Greedy against Random, yielded before each of ``plies`` plies."""
    game = salpakan.Game(seed=seed, move_limit=move_limit)
    agents = {"white": salpakan.Greedy(seed), "black": salpakan.Random(seed)}
    while game.status.ongoing and game.ply < plies:
        yield game
        game.play(agents[game.side_to_move].choose_in(game, game.side_to_move))


def test_the_shipped_weights_are_a_residual_on_greedy():
    bot = salpakan.Learned()
    assert learned.WEIGHTS.is_file() and learned.WEIGHTS.stat().st_size < 4_000_000
    assert bot.temperature == learned.DEFAULT_TEMPERATURE and repr(bot) == "Learned(temperature=0.5)"
    with np.load(learned.WEIGHTS) as saved:
        assert saved["w1"].shape == (int(np.prod(salpakan.OBSERVATION_SHAPE)), 128)
        assert float(saved["greedy_prior"]) > 0


def test_moves_are_legal_and_probabilities_sum_to_one_along_games():
    bot = salpakan.Learned(seed=3)
    seen = 0
    for game in positions(4, 160):
        side = game.side_to_move
        tracker = game.tracker(side)
        log_probs = bot.log_probs(tracker)
        mask = tracker.legal_action_mask()
        assert log_probs.shape == (salpakan.NUM_ACTIONS,) and log_probs.dtype == np.float32
        assert math.isclose(float(np.exp(log_probs[mask].astype(np.float64)).sum()), 1.0, rel_tol=1e-4)
        assert np.all(log_probs[~mask] < -1e8)
        assert bot.choose(tracker) in game.legal_moves()
        seen += 1
    assert seen > 100


def test_the_same_seed_plays_the_same_moves_and_zero_temperature_the_likeliest():
    a, b, c = salpakan.Learned(seed=9), salpakan.Learned(seed=9), salpakan.Learned(seed=10)
    sharp = salpakan.Learned(seed=1, temperature=0)
    differ = 0
    for game in positions(5, 120):
        side = game.side_to_move
        move = a.choose_in(game, side)
        assert move == b.choose(game.tracker(side))
        differ += move != c.choose_in(game, side)
        likeliest = int(np.argmax(sharp.log_probs(game.tracker(side))))
        assert sharp.choose_in(game, side) == salpakan.Move.from_action(likeliest)
    assert differ > 0


def test_the_policy_is_not_greedy_alone():
    """The network moves the policy away from softmax(scale x Greedy's scores): trained
    weights, not the prior alone."""
    bot = salpakan.Learned()
    with np.load(learned.WEIGHTS) as saved:
        scale = float(saved["greedy_prior"])
    gaps = []
    for game in positions(6, 80):
        tracker = game.tracker(game.side_to_move)
        mask = tracker.legal_action_mask()
        prior = scale * np.clip(salpakan.Greedy.scores(tracker), -10, 10)
        prior = np.where(mask, prior, -1e9)
        prior = prior - prior.max()
        prior = prior - np.log(np.exp(prior).sum())
        gaps.append(float(np.abs(bot.log_probs(tracker)[mask] - prior[mask]).max()))
    assert max(gaps) > 0.5


def test_choices_ignore_unobserved_enemy_ranks():
    """The same history with the enemy's hidden ranks drawn anew (``Game.sample``): the same
    probabilities bit for bit and the same moves for the same seed."""
    for game in positions(7, 140):
        side = game.side_to_move
        if game.ply % 10:
            continue
        twin = game.sample(side, game.ply + 1)
        assert twin.setup(side) == game.setup(side)
        mine, theirs = game.tracker(side), twin.tracker(side)
        assert salpakan.Learned().log_probs(mine).tobytes() == salpakan.Learned().log_probs(theirs).tobytes()
        assert salpakan.Learned(seed=2).choose(mine) == salpakan.Learned(seed=2).choose(theirs)


def test_refusals_name_what_was_wrong(tmp_path):
    game = salpakan.Game(seed=1)
    bot = salpakan.Learned()
    other = "black" if game.side_to_move == "white" else "white"
    with pytest.raises(salpakan.ArgumentError, match="turn"):
        bot.choose_in(game, other)
    for bad in (-0.5, float("nan"), float("inf"), "hot"):
        with pytest.raises(salpakan.ArgumentError, match="temperature"):
            salpakan.Learned(temperature=bad)
    for bad in (-1, 2**64, 1.5):
        with pytest.raises(salpakan.ArgumentError, match="seed"):
            salpakan.Learned(seed=bad)
    with pytest.raises(salpakan.ArgumentError, match="do not read"):
        salpakan.Learned(weights=tmp_path / "missing.npz")
    conv = tmp_path / "conv.npz"
    np.savez(conv, c1=np.zeros((3, 3, 38, 8), np.float32))
    with pytest.raises(salpakan.ArgumentError, match="not a policy of --net mlp"):
        salpakan.Learned(weights=conv)
    with np.load(learned.WEIGHTS) as saved:
        arrays = {k: saved[k] for k in saved.files}
    arrays["wp"] = arrays["wp"][:, :100]
    cut = tmp_path / "cut.npz"
    np.savez(cut, **arrays)
    with pytest.raises(salpakan.ArgumentError, match="shapes"):
        salpakan.Learned(weights=cut)
    over = salpakan.Game(seed=2)
    over.resign("white")
    with pytest.raises(salpakan.ArgumentError, match="over"):
        bot.choose_in(over, over.side_to_move)


def test_the_module_example_runs():
    import doctest

    assert doctest.testmod(learned, raise_on_error=True).attempted >= 4
