"""The PettingZoo and Gymnasium environments pass their libraries' own checks."""

from __future__ import annotations

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

import salpakan.gym  # noqa: E402  (registers Salpakan-v0)
import salpakan.pettingzoo as salpakan_pettingzoo  # noqa: E402


def test_pettingzoo_api_test():
    from pettingzoo.test import api_test

    api_test(salpakan_pettingzoo.env(), num_cycles=300)


def test_pettingzoo_a_whole_game_and_its_rewards():
    env = salpakan_pettingzoo.env(render_mode="ansi")
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    totals = {"white": 0, "black": 0}
    for agent in env.agent_iter(max_iter=5000):
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
    assert sorted(totals.values()) in ([-1, 1], [0, 0])
    assert not env.unwrapped.game.status.ongoing or env.unwrapped.game.ply >= 2000
    assert "a  b  c" in env.unwrapped.render()


def test_gymnasium_check_env_and_a_game_against_greedy():
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("Salpakan-v0", opponent="greedy")
    check_env(env.unwrapped)
    observation, info = env.reset(seed=1)
    assert observation.shape == salpakan.OBSERVATION_SHAPE
    rng = np.random.default_rng(1)
    total, done = 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        total += reward
        done = terminated or truncated
    assert total in (-1.0, 0.0, 1.0)
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["illegal"]


def test_gymnasium_makes_it_by_its_module_name_without_an_import_first():
    # A fresh interpreter that never imported salpakan.gym: Gymnasium imports the module
    # named before the colon, which registers the environment.
    import subprocess
    import sys

    code = (
        "import gymnasium\n"
        "env = gymnasium.make('salpakan.gym:Salpakan-v0', opponent='random')\n"
        "observation, info = env.reset(seed=2)\n"
        "print(observation.shape, int(info['action_mask'].sum()) > 0)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "(38, 8, 9) True"
