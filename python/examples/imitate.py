"""Imitation: a policy learns a built-in agent's moves over ``VecEnv``, then PPO takes over.

    pip install ./python[jax]
    python examples/imitate.py [--teacher greedy] [--steps 2000000] [--out DIR]

The network is the package's (``salpakan.policy``, trained through ``salpakan.training``), the
one ``ppo_jax.py`` trains, in the same weights file, so a run here is a starting point for PPO:
``python examples/ppo_jax.py --init DIR/params.npz --opponent greedy``. Learning a
strong move from the game's end alone is slow (PPO against ``Greedy`` learns to stall); a
policy that already plays like its teacher has wins to learn from.

Every game of the batch is played by the teacher on both sides (``VecEnv.agent_actions``: each
side sees only its own tracker) or, from ``--mix`` of the way on, half the plies by the policy
itself, sampled (DAgger: the teacher still names the move to learn in the positions the policy
leads to). With ``--greedy-prior B`` the policy is ``ppo_jax.py``'s residual on ``Greedy``'s
move scores (a learned scale starting at B): it learns where the teacher departs from
``Greedy``. Each decision is a sample: the observation, the mask, the teacher's move, and the
game's result for the side that moved (+1, -1, 0 for a draw or the ply cap), which the value
head learns. A rollout's samples are used for ``--epochs`` passes of minibatches and then
dropped, so memory stays that of one rollout. "Steps" counts samples.

Every ``--eval-every`` samples and at the end it scores the policy, sampling from its
distribution, against ``Random`` and ``Greedy`` (and the teacher if it is a level), as
``ppo_jax.py`` does; with ``--out DIR`` it writes ``DIR/curve.csv`` and ``DIR/params.npz``.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

import jax
import jax.numpy as jnp

import salpakan
from salpakan import training

TEACHERS = ("greedy",) + tuple(f"level-{n}" for n in range(1, salpakan.Level.COUNT + 1))


@dataclasses.dataclass(frozen=True)
class Config(training.TrainerConfig):
    """Everything a run depends on (the fields every trainer shares, then imitation's own)."""

    teacher: str = "greedy"
    mix: float = 0.5

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.teacher not in TEACHERS:
            raise ValueError(f"teacher {self.teacher!r}: choose one of {', '.join(TEACHERS)}")
        if not 0.0 <= self.mix <= 1.0:
            raise ValueError(f"mix must lie in [0, 1], not {self.mix}")


def imitation_loss(params, batch, value_weight):
    """Cross-entropy to the teacher's move plus the value's squared error; and the accuracy."""
    log_probs, values = training.network(params, batch["obs"], batch["mask"], batch.get("scores"))
    chosen = jnp.take_along_axis(log_probs, batch["action"][:, None], axis=1)[:, 0]
    policy_loss = -chosen.mean()
    value_loss = 0.5 * jnp.mean((values - batch["result"]) ** 2)
    accuracy = jnp.mean(jnp.argmax(log_probs, axis=1) == batch["action"])
    return policy_loss + value_weight * value_loss, (policy_loss, value_loss, accuracy)


def make_update(config: Config) -> Callable:
    def update(params, opt_state, batch, learning_rate):
        grads, aux = jax.grad(imitation_loss, has_aux=True)(params, batch, config.value)
        params, opt_state, _ = training.adam_update(
            params, grads, opt_state, learning_rate, config.max_grad_norm
        )
        return params, opt_state, aux

    return jax.jit(update)


class Teacher:
    """Steps a ``VecEnv`` with the teacher's moves (and the policy's, DAgger-style), keeping
    each game's samples until its result is known."""

    def __init__(self, config: Config):
        self.config = config
        self.env = config.vec_env()
        self.obs, self.mask = self.env.reset()
        self.agent = training.opponent_agent(config.teacher, config.seed)
        self.rng = np.random.default_rng(config.seed)
        self.key = jax.random.PRNGKey(config.seed)
        n = config.envs
        # Per game: its samples so far this episode (rows of `pending`) and their movers' parity.
        self.waiting: List[List[Tuple[np.ndarray, np.ndarray, int, int]]] = [[] for _ in range(n)]
        self.ply = np.zeros(n, np.int64)
        self.games = 0

    def collect(self, params, dagger: bool) -> Dict[str, np.ndarray]:
        """One rollout: the samples of every game that ended in it, with their results."""
        n = self.config.envs
        prior = "greedy_prior" in params
        done: List[Tuple[np.ndarray, np.ndarray, int, float, Optional[np.ndarray]]] = []
        for _ in range(self.config.rollout):
            obs = self.obs.reshape(n, training.OBSERVATION_LEN)
            scores = self.env.greedy_scores() if prior else None
            teacher = self.env.agent_actions(self.agent)
            played = teacher
            if dagger:
                self.key, key = jax.random.split(self.key)
                own = training.act(params, obs, self.mask, key, scores)[0]
                played = np.where(self.rng.random(n) < 0.5, np.asarray(own, np.int64), teacher)
            for i in range(n):
                row = scores[i].copy() if prior else None
                sample = (obs[i].astype(np.float16), self.mask[i].copy(), int(teacher[i]), 0, row)
                self.waiting[i].append(sample)
            self.obs, reward, terminated, truncated, self.mask = self.env.step(played)
            for i in np.flatnonzero(terminated | truncated):
                # The result for the side that just moved; the sides alternate back from it.
                last = float(reward[i]) if terminated[i] else 0.0
                samples = self.waiting[i]
                for k, (o, m, a, _, c) in enumerate(samples):
                    sign = 1.0 if (len(samples) - 1 - k) % 2 == 0 else -1.0
                    done.append((o, m, a, sign * last, c))
                self.waiting[i] = []
                self.games += 1
        if not done:
            return {}
        data = {
            "obs": np.stack([d[0] for d in done]).astype(np.float32),
            "mask": np.stack([d[1] for d in done]),
            "action": np.array([d[2] for d in done], np.int64),
            "result": np.array([d[3] for d in done], np.float32),
        }
        if prior:
            data["scores"] = np.stack([d[4] for d in done])
        return data


def train(
    config: Config,
    eval_every: int = 0,
    eval_games: int = 400,
    log: Callable[[str], None] = print,
    out: Optional[Path] = None,
) -> Tuple[training.Params, List[Dict[str, float]]]:
    """Learns the teacher's moves for ``config.steps`` samples; returns the parameters and the
    log rows."""
    params = training.init_params(
        jax.random.PRNGKey(config.seed), config.hidden, config.net, config.greedy_prior
    )
    opt_state = training.adam_init(params)
    update = make_update(config)
    teacher = Teacher(config)
    rng = np.random.default_rng(config.seed + 1)
    steps, evaluating = 0, 0.0
    started = time.perf_counter()
    history: List[Dict[str, float]] = []
    next_eval = eval_every
    while steps < config.steps:
        lr = config.learning_rate * (1.0 - steps / config.steps)
        data = teacher.collect(params, dagger=steps >= config.mix * config.steps)
        if not data:
            continue
        count = len(data["action"])
        steps += count
        stats = []
        size = min(config.minibatch, count)
        for _ in range(config.epochs):
            order = rng.permutation(count)
            for start in range(0, count - size + 1, size):
                pick = order[start : start + size]
                batch = {name: values[pick] for name, values in data.items()}
                params, opt_state, aux = update(params, opt_state, batch, lr)
                stats.append(aux)
        policy_loss, value_loss, accuracy = (float(np.mean([s[j] for s in stats])) for j in range(3))
        elapsed = time.perf_counter() - started - evaluating
        row = {
            "steps": steps,
            "seconds": elapsed,
            "policy_loss": policy_loss,
            "value_loss": value_loss,
            "accuracy": accuracy,
        }
        history.append(row)
        log(
            f"{steps:9d} samples {elapsed:7.1f} s {steps / elapsed / 1e3:5.1f} k/s  "
            f"cross-entropy {policy_loss:.4f} value {value_loss:.4f} "
            f"teacher's move first {accuracy:.1%}  games {teacher.games}"
        )
        if eval_every and (steps >= next_eval or steps >= config.steps):
            next_eval += eval_every
            against = [("random", "eval"), ("greedy", "greedy")]
            if config.teacher.startswith("level-"):
                against.append((config.teacher, "target"))
            for opponent, column in against:
                evaluation_started = time.perf_counter()
                point, low, high, line = training.scored(
                    params, opponent, eval_games, config.seed, config.formation
                )
                evaluating += time.perf_counter() - evaluation_started
                row.update({f"{column}_score": point, f"{column}_low": low, f"{column}_high": high})
                log(f"  {line}")
            if out is not None:
                training.write_curve(out / "curve.csv", history, ("accuracy",))
                training.save_params(out / "params.npz", params)
    return params, history


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    training.add_config_arguments(parser, Config)
    parser.add_argument("--eval-every", type=int, default=1_000_000)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    config = training.parse_config(parser, args, Config)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    print(f"{config}\njax {jax.__version__} on {jax.devices()[0].platform}, {os.cpu_count()} CPUs")
    params, history = train(config, args.eval_every, args.eval_games, out=args.out)
    if args.out:
        training.write_curve(args.out / "curve.csv", history, ("accuracy",))
        training.save_params(args.out / "params.npz", params)


if __name__ == "__main__":
    main()
