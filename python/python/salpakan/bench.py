"""Throughput of the Python package: ``python -m salpakan.bench [--seconds S]``.

Measures, each for a few seconds on this machine:

* ``VecEnv(256)`` stepping random legal actions (``VecEnv.sample_actions``) with the full
  observation tensor (belief planes included) and the masks, on 1 and 2 threads, and with
  ``observations=False`` (masks only);
* a single game from Python: ``legal_actions()`` then ``play_action()`` per ply;
* when ``open_spiel`` is installed, OpenSpiel's Python loop on ``phantom_ttt``
  (``apply_action`` + ``observation_tensor`` + ``legal_actions_mask`` per step), and the ratios.

Set ``OPENBLAS_NUM_THREADS=1`` on small machines: NumPy's BLAS threads otherwise spin on the
cores the environment's threads need.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import salpakan


def vecenv(num_envs: int, observations: bool, threads: int, seconds: float) -> float:
    env = salpakan.VecEnv(num_envs, seed=1, observations=observations, threads=threads)
    env.reset()
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(20):
            env.step(env.sample_actions())
        steps += 20 * num_envs
    return steps / (time.perf_counter() - start)


def single_game(seconds: float) -> float:
    game, plies, k, games = salpakan.Game(seed=0), 0, 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(1000):
            actions = game.legal_actions()
            report = game.play_action(actions[k % len(actions)])
            k += 7
            plies += 1
            if not report.status.ongoing:
                games += 1
                game = salpakan.Game(seed=games)
    return plies / (time.perf_counter() - start)


def open_spiel_phantom_ttt(seconds: float):
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("phantom_ttt")
    rng = np.random.default_rng(0)
    steps, start = 0, time.perf_counter()
    state = game.new_initial_state()
    while time.perf_counter() - start < seconds:
        for _ in range(1000):
            if state.is_terminal():
                state = game.new_initial_state()
            player = state.current_player()
            state.observation_tensor(player)
            mask = state.legal_actions_mask(player)
            legal = [a for a, ok in enumerate(mask) if ok]
            state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--envs", type=int, default=256, help="games in the VecEnv")
    args = parser.parse_args()
    s = args.seconds
    rows = []
    for threads in (1, 2):
        rate = vecenv(args.envs, True, threads, s)
        rows.append((f"VecEnv({args.envs}), observations + masks, {threads} thread(s)", rate))
    for threads in (1, 2):
        rate = vecenv(args.envs, False, threads, s)
        rows.append((f"VecEnv({args.envs}), masks only, {threads} thread(s)", rate))
    rows.append(("single game: legal_actions() + play_action()", single_game(s)))
    spiel = open_spiel_phantom_ttt(s)
    width = max(len(r[0]) for r in rows) + 2
    print(f"salpakan {salpakan.__version__}")
    for label, rate in rows:
        line = f"{label:<{width}} {rate / 1e3:>9.0f} k steps/s"
        if spiel:
            line += f"   {rate / spiel:5.2f}x OpenSpiel phantom_ttt"
        print(line)
    if spiel:
        print(f"{'OpenSpiel phantom_ttt (apply_action + observation_tensor + mask)':<{width}} "
              f"{spiel / 1e3:>9.0f} k steps/s")
    else:
        print("(open_spiel is not installed: no side-by-side figure)")


if __name__ == "__main__":
    main()
