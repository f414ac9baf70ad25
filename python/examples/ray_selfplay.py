"""Self-play data generation spread over Ray workers: each worker steps its own ``VecEnv`` and
sends back rollouts (observations, masks, actions, rewards, ends) as numpy arrays; the driver
gathers them, as a distributed learner's trainer would.

    pip install ray
    python examples/ray_selfplay.py [--workers 2] [--envs 128] [--steps 32] [--seconds 10] [--address ADDRESS]

Without ``--address`` (or ``RAY_ADDRESS``) it starts a local cluster; with one it runs
unchanged on a real cluster (every worker needs the ``salpakan`` package). The actions are
uniformly random legal ones (``VecEnv.sample_actions``: where a policy would go). It prints
the steps per second gathered at the driver, and the bytes they took.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
import ray


@ray.remote
class Worker:
    """One actor with one VecEnv, for the whole run."""

    def __init__(self, envs: int, seed: int) -> None:
        import salpakan  # imported on the worker

        self.env = salpakan.VecEnv(envs, seed=seed, observations=True, threads=1)
        self.observations, self.masks = self.env.reset()

    def rollout(self, steps: int) -> dict:
        """`steps` steps of every game: arrays of shape [steps, envs, …]."""
        obs, masks, actions, rewards, ends = [], [], [], [], []
        for _ in range(steps):
            action = self.env.sample_actions()
            obs.append(self.observations)
            masks.append(self.masks)
            actions.append(action)
            self.observations, reward, terminated, truncated, self.masks = self.env.step(action)
            rewards.append(reward)
            ends.append(terminated | truncated)
        return {
            "observations": np.stack(obs),
            "masks": np.stack(masks),
            "actions": np.stack(actions),
            "rewards": np.stack(rewards),
            "ends": np.stack(ends),
        }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", default=os.environ.get("RAY_ADDRESS"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--envs", type=int, default=128, help="games per worker")
    parser.add_argument("--steps", type=int, default=32, help="steps per rollout")
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()

    ray.init(address=args.address, num_cpus=None if args.address else max(2, args.workers),
             include_dashboard=False, logging_level="ERROR")
    workers = [Worker.remote(args.envs, seed) for seed in range(args.workers)]
    ray.get([w.rollout.remote(1) for w in workers])  # started and warm
    pending = {w.rollout.remote(args.steps): w for w in workers}
    steps = size = batches = 0
    ended = 0
    started = time.perf_counter()
    while time.perf_counter() - started < args.seconds:
        [done], _ = ray.wait(list(pending), num_returns=1)
        worker = pending.pop(done)
        batch = ray.get(done)
        pending[worker.rollout.remote(args.steps)] = worker
        assert batch["masks"][np.arange(args.steps)[:, None], np.arange(args.envs)[None, :], batch["actions"]].all(), \
            "an illegal action in a rollout"
        steps += batch["actions"].size
        size += sum(a.nbytes for a in batch.values())
        ended += int(batch["ends"].sum())
        batches += 1
    elapsed = time.perf_counter() - started
    print(f"{args.workers} workers × {args.envs} games: {batches} rollouts, {steps} steps, "
          f"{ended} games ended in {elapsed:.1f} s: {steps / elapsed / 1e3:.1f} k steps/s gathered "
          f"({size / elapsed / 1e6:.0f} MB/s)")
    ray.shutdown()


if __name__ == "__main__":
    main()
