"""sb3-contrib's MaskablePPO on the Gymnasium environment, unchanged: the first thing to try.

    pip install ./python[gymnasium] sb3-contrib
    python examples/maskable_ppo_gym.py [--steps 100000] [--opponent random] [--games 100]

``Salpakan-v0`` gives the observation tensor and ``env.action_masks()``, which is all
``MaskablePPO`` needs. This trains its default MLP policy against a built-in opponent, then
plays ``--games`` games against it with the masks and prints the score with its 95% interval.
sb3-contrib brings torch (from PyPI, the CUDA build: a 2.8 GB download, about 5.4 GB
installed). Learning is slow this way (one game at a time: 1,361 steps a second on 2 cores,
against 17 k for ``examples/ppo_jax.py`` over ``VecEnv``). The default 100 k steps took 73 s
and scored 55% ± 9.8 against ``Random`` over 100 games: not yet distinguishable from 50%.
"""

from __future__ import annotations

import argparse
import time

import gymnasium
from sb3_contrib import MaskablePPO

import salpakan.gym  # noqa: F401  (registers Salpakan-v0)
from salpakan import evaluation


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=100_000)
    parser.add_argument("--opponent", default="random", choices=["random", "greedy"])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = gymnasium.make("Salpakan-v0", opponent=args.opponent, max_plies=1000)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0)
    started = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    seconds = time.perf_counter() - started
    print(f"trained {args.steps} steps in {seconds:.0f} s ({args.steps / seconds:.0f} steps/s)")

    wins = draws = losses = 0
    for game in range(args.games):
        observation, info = env.reset(seed=10_000 + game)
        reward, done = 0.0, False
        while not done:
            action, _ = model.predict(observation, action_masks=info["action_mask"])
            observation, reward, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
            assert not info.get("illegal"), "a masked policy took an illegal action"
        wins += reward > 0
        draws += reward == 0
        losses += reward < 0
    point, low, high = evaluation.score(wins, draws, losses)
    print(
        f"against {args.opponent}: {args.games} games, W/D/L {wins}/{draws}/{losses}, "
        f"score {point:.1%} [{low:.1%}, {high:.1%}]"
    )


if __name__ == "__main__":
    main()
