"""Self-play with the batched environment: the loop a trainer runs, with no training.

    python examples/selfplay_vecenv.py [--envs 256] [--seconds 10] [--threads 2] [--no-observations]

Every game of the batch plays uniformly random legal actions (``VecEnv.sample_actions``; a
policy would read ``observations`` and ``masks`` instead). Once a second it prints the steps
per second, the games finished and how they ended.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import salpakan


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-observations", action="store_true")
    args = parser.parse_args()

    env = salpakan.VecEnv(
        args.envs, seed=args.seed, observations=not args.no_observations, threads=args.threads
    )
    observations, masks = env.reset()
    start = last = time.perf_counter()
    steps = steps_at_last = 0
    wins = draws = truncated = 0
    while time.perf_counter() - start < args.seconds:
        actions = env.sample_actions()  # a policy would use `observations` and `masks`
        observations, rewards, terminations, truncations, masks = env.step(actions)
        steps += args.envs
        wins += int(np.count_nonzero(terminations & (rewards != 0)))
        draws += int(np.count_nonzero(terminations & (rewards == 0)))
        truncated += int(np.count_nonzero(truncations))
        now = time.perf_counter()
        if now - last >= 1.0:
            rate = (steps - steps_at_last) / (now - last)
            print(
                f"{now - start:5.1f} s  {rate / 1e3:7.0f} k steps/s  games ended: "
                f"{wins} won, {draws} drawn, {truncated} cut at the ply cap",
                flush=True,
            )
            last, steps_at_last = now, steps
    elapsed = time.perf_counter() - start
    print(f"{steps} steps in {elapsed:.1f} s: {steps / elapsed / 1e3:.0f} k steps/s")


if __name__ == "__main__":
    main()
