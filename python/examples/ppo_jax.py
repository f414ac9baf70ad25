"""PPO that learns Salpakan from the observation tensor and the action masks, over ``VecEnv``.

    pip install ./python[jax]
    python examples/ppo_jax.py [--steps 3000000] [--seed 0] [--opponent random] [--out DIR]
        [--formation random|uniform|classic] [--cap-reward R] [--init DIR/params.npz]
        [--move-limit N] [--material M] [--greedy-prior B]

A CleanRL-style PPO (clipped objective, GAE, advantage normalisation, value loss, entropy bonus,
global-norm clipping, linear learning-rate decay) in JAX, with no per-game Python objects: one
``salpakan.VecEnv`` steps every game of the batch, the policy reads its 38 × 8 × 9 observation
tensor flattened, and illegal actions get a logit of -1e9 from the mask, so they are never
sampled (the ``VecEnv`` would raise ``IllegalMoveError`` if one were).

In each game the learner holds one side, drawn anew for every game; the other side is the
opponent: ``random`` (``VecEnv.sample_actions``, uniform over the legal moves), ``greedy``
(``VecEnv.agent_actions`` with ``Greedy``, which sees only its side's tracker), ``mixed``
(Greedy or Random, drawn anew for every game), ``self`` (the current policy, sampled, not
trained on), ``level-N`` (``salpakan.Level(N)``, also through ``agent_actions``: a budgeted
best response to that level) or ``level-A..B`` (a level from A to B, drawn anew for each game:
``level-4..6`` is ``Greedy`` with 25, 10 and 0% of its moves random, so the learner cannot count
on the one opponent's habits). "Steps" counts the learner's own decisions: each is one training
sample. The reward is the game's end: +1 won, -1 lost, 0 for a draw, and ``--cap-reward`` (0
unless given) for a game cut at the ply cap: below 0, stalling to the cap is worth less than a
draw. ``--move-limit N`` plays by the rules' optional limit (a game with N plies without a
challenge is drawn), and that draw too is worth ``--cap-reward`` in training. ``--material M``
adds a potential-based reward for material (M times the learner's pieces on the board less the
enemy's, over 21: both counts are public), which guides learning without changing which policy
is best. ``--greedy-prior B`` makes the policy a residual on ``Greedy``: its logits add a
learned scale (starting at B) times ``Greedy``'s score of each move (``VecEnv.greedy_scores``,
from the learner's own tracker), so it starts as a softened ``Greedy`` and learns where to leave
it. ``--formation`` deals both sides of every game (training and evaluation) from
``Setup.random`` (``random``, the default) or a named formation (``classic``: as the levels
deploy). ``--init`` starts from a saved ``params.npz`` (a curriculum: from the policy trained
against ``Random``, say) instead of fresh weights; ``--seconds`` stops training after that much
time (evaluations left out). ``--net conv`` swaps the MLP for three 3 × 3 convolutions of
``--hidden`` channels over the 8 × 9 board (two residual) with dense heads.

Every ``--eval-every`` steps (and at the end) it plays ``--eval-games`` fresh games against
``Random`` (and ``Greedy`` with ``--eval-greedy``, and a ``level-N`` opponent itself) and prints
the score with its 95% interval (``salpakan.training.scored``); ``--greedy-games`` games against
``Greedy`` at the end, and ``--target-games`` against a ``level-N`` opponent. With ``--out DIR``
it writes ``DIR/curve.csv`` (steps, seconds, score and interval) and ``DIR/params.npz`` (at each
evaluation and at the end).

What every trainer shares (the network, which ``salpakan.Learned`` plays too, the weights file,
Adam, the evaluation deals) is the package's (``salpakan.policy``, ``salpakan.training``,
``salpakan.matches``); this example holds PPO itself (``python/tests/test_ppo.py`` runs a
short smoke through it).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

import jax
import jax.numpy as jnp

import salpakan
from salpakan.matches import EVALUATION_DEALS, deal, level_range
from salpakan.policy import ACTIONS, OBSERVATION_LEN, PRIOR_CLIP
from salpakan.training import (
    Params,
    TrainerConfig,
    act,
    adam_init,
    adam_update,
    add_config_arguments,
    best,
    evaluate,
    init_params,
    load_params,
    network,
    opponent_agent,
    parse_config,
    save_params,
    scored,
    write_curve,
)

OPPONENTS = ("random", "greedy", "mixed", "self") + tuple(
    f"level-{n}" for n in range(1, salpakan.Level.COUNT + 1)
)


@dataclasses.dataclass(frozen=True)
class Config(TrainerConfig):
    """Everything a run depends on (the fields every trainer shares, then PPO's own)."""

    steps: int = 3_000_000
    learning_rate: float = 5e-4
    epochs: int = 4
    max_grad_norm: float = 0.5
    anneal: bool = True
    gamma: float = 0.995
    gae_lambda: float = 0.95
    clip: float = 0.2
    entropy: float = 0.01
    opponent: str = "random"
    cap_reward: float = 0.0
    init: str = ""
    seconds: float = 0.0
    move_limit: int = 0
    material: float = 0.0

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.opponent not in OPPONENTS and level_range(self.opponent) is None:
            raise ValueError(
                f"opponent {self.opponent!r}: choose one of {', '.join(OPPONENTS)} or level-A..B"
            )
        if not -1.0 <= self.cap_reward <= 1.0:
            raise ValueError(f"cap_reward must lie in [-1, 1], not {self.cap_reward}")
        if self.seconds < 0:
            raise ValueError(f"seconds must be at least 0, not {self.seconds}")
        if not 0 <= self.move_limit <= 65_535:
            raise ValueError(f"move_limit must lie in [0, 65535], not {self.move_limit}")
        if not 0.0 <= self.material <= 1.0:
            raise ValueError(f"material must lie in [0, 1], not {self.material}")
        if not 0.0 <= self.gamma <= 1.0 or not 0.0 <= self.gae_lambda <= 1.0:
            raise ValueError("gamma and gae_lambda must lie in [0, 1]")


def ppo_loss(params: Params, batch: Dict[str, jax.Array], config: Config):
    log_probs, values = network(params, batch["obs"], batch["mask"], batch.get("scores"))
    new_log_prob = jnp.take_along_axis(log_probs, batch["action"][:, None], axis=1)[:, 0]
    ratio = jnp.exp(new_log_prob - batch["log_prob"])
    advantage = batch["advantage"]
    advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
    policy_loss = jnp.maximum(
        -advantage * ratio, -advantage * jnp.clip(ratio, 1 - config.clip, 1 + config.clip)
    ).mean()
    value_loss = 0.5 * jnp.mean((values - batch["return"]) ** 2)
    probs = jnp.exp(log_probs)
    entropy = -jnp.sum(jnp.where(batch["mask"], probs * log_probs, 0.0), axis=1).mean()
    loss = policy_loss + config.value * value_loss - config.entropy * entropy
    approx_kl = jnp.mean((ratio - 1) - jnp.log(ratio))
    return loss, (policy_loss, value_loss, entropy, approx_kl)


def make_update(config: Config) -> Callable:
    def update(params, opt_state, batch, learning_rate):
        grads, aux = jax.grad(ppo_loss, has_aux=True)(params, batch, config)
        params, opt_state, norm = adam_update(
            params, grads, opt_state, learning_rate, config.max_grad_norm
        )
        return params, opt_state, aux + (norm,)

    return jax.jit(update)


# --- rollouts ----------------------------------------------------------------------------------


@dataclasses.dataclass
class Rollout:
    """``rollout`` VecEnv steps of every game: the learner's rows are marked in ``learner``."""

    obs: np.ndarray  # [T, N, 2736] float32
    mask: np.ndarray  # [T, N, 288] bool
    action: np.ndarray  # [T, N] int64
    log_prob: np.ndarray  # [T, N] float32
    value: np.ndarray  # [T, N] float32
    reward: np.ndarray  # [T, N] float32, for the side that moved
    ended: np.ndarray  # [T, N] bool: the game ended with this step
    learner: np.ndarray  # [T, N] bool: the learner moved
    last_value: np.ndarray  # [N]: the value of the learner's next decision, where it is to move
    last_learner: np.ndarray  # [N] bool: the learner is to move after the rollout
    # [T, N] bool: the game was cut at the ply cap or drawn by the move limit here
    capped: Optional[np.ndarray] = None
    # [N]: the material balance after the rollout for the learner (see ``balance``)
    last_balance: Optional[np.ndarray] = None
    scores: Optional[np.ndarray] = None  # [T, N, 288] float32: Greedy's, with its prior


class Collector:
    """Steps a ``VecEnv``: the learner on one side of each game, the opponent on the other."""

    def __init__(self, config: Config):
        self.config = config
        self.env = config.vec_env(move_limit=config.move_limit)
        self.obs, self.mask = self.env.reset()
        self.rng = np.random.default_rng(config.seed)
        self.key = jax.random.PRNGKey(config.seed)
        # Whether the learner is the side to move, per game; drawn anew for each new game.
        self.learner_to_move = self.rng.random(config.envs) < 0.5
        # The built-in agent and whether it plays a game (for "mixed": drawn anew for each
        # new game; Random plays the others).
        self.levels = level_range(config.opponent)
        if self.levels:
            # One agent per level; each game's level drawn anew when a game starts.
            self.level_agents = [salpakan.Level(n, config.seed * 100 + n) for n in self.levels]
            self.game_level = self.rng.integers(len(self.levels), size=config.envs)
        self.agent = None if self.levels else opponent_agent(config.opponent, config.seed)
        if config.opponent == "mixed":
            self.agent_game = self.rng.random(config.envs) < 0.5
        else:
            self.agent_game = np.full(config.envs, self.agent is not None or bool(self.levels))
        self.games: List[float] = []  # the learner's result of each finished game

    def _split(self) -> jax.Array:
        self.key, key = jax.random.split(self.key)
        return key

    def _scores(self) -> np.ndarray:
        """``Greedy``'s scores where the policy moves (every row against itself)."""
        if self.config.opponent == "self":
            return self.env.greedy_scores()
        return self.env.greedy_scores(self.learner_to_move)

    def _opponent_actions(self) -> np.ndarray:
        """The built-in opponent's action in each game (only the rows where it is to move
        are used): Random's from the env's own generator, an agent's from its tracker."""
        if self.config.opponent == "random":
            return self.env.sample_actions()
        by_agent = ~self.learner_to_move & self.agent_game
        if self.levels:
            chosen = np.zeros(self.config.envs, np.int64)
            for k, agent in enumerate(self.level_agents):
                rows = by_agent & (self.game_level == k)
                if rows.any():
                    chosen = np.where(rows, self.env.agent_actions(agent, rows), chosen)
            return chosen
        chosen = self.env.agent_actions(self.agent, by_agent)
        if self.config.opponent == "mixed":
            chosen = np.where(by_agent, chosen, self.env.sample_actions())
        return chosen

    def collect(self, params: Params) -> Rollout:
        t_len, n = self.config.rollout, self.config.envs
        r = Rollout(
            obs=np.empty((t_len, n, OBSERVATION_LEN), np.float32),
            mask=np.empty((t_len, n, ACTIONS), bool),
            action=np.empty((t_len, n), np.int64),
            log_prob=np.empty((t_len, n), np.float32),
            value=np.empty((t_len, n), np.float32),
            reward=np.empty((t_len, n), np.float32),
            ended=np.empty((t_len, n), bool),
            learner=np.empty((t_len, n), bool),
            last_value=np.zeros(n, np.float32),
            last_learner=np.zeros(n, bool),
            capped=np.empty((t_len, n), bool),
        )
        prior = "greedy_prior" in params
        if prior:
            r.scores = np.zeros((t_len, n, ACTIONS), np.float32)
        for t in range(t_len):
            obs = self.obs.reshape(n, OBSERVATION_LEN)
            scores = self._scores() if prior else None
            actions, log_probs, values = act(params, obs, self.mask, self._split(), scores)
            if prior:
                r.scores[t] = scores
            actions = np.asarray(actions, dtype=np.int64)
            if self.config.opponent != "self":
                actions = np.where(self.learner_to_move, actions, self._opponent_actions())
            r.obs[t], r.mask[t], r.action[t] = obs, self.mask, actions
            r.log_prob[t], r.value[t] = np.asarray(log_probs), np.asarray(values)
            r.learner[t] = self.learner_to_move
            self.obs, reward, terminated, truncated, self.mask = self.env.step(actions)
            ended = terminated | truncated
            r.reward[t], r.ended[t] = reward, ended
            # Drawn: cut at the cap, or ended with no winner (the move limit).
            drawn = (truncated & ~terminated) | (terminated & (reward == 0))
            r.capped[t] = drawn
            for i in np.flatnonzero(ended):
                if drawn[i]:
                    self.games.append(0.0)  # a draw, whatever it is worth in training
                else:
                    self.games.append(
                        float(reward[i]) if self.learner_to_move[i] else -float(reward[i])
                    )
            fresh = self.rng.random(n) < 0.5
            self.learner_to_move = np.where(ended, fresh, ~self.learner_to_move)
            if self.config.opponent == "mixed":
                self.agent_game = np.where(ended, self.rng.random(n) < 0.5, self.agent_game)
            if self.levels:
                fresh_level = self.rng.integers(len(self.levels), size=n)
                self.game_level = np.where(ended, fresh_level, self.game_level)
        _, _, values = act(
            params,
            self.obs.reshape(n, OBSERVATION_LEN),
            self.mask,
            self._split(),
            self._scores() if prior else None,
        )
        r.last_value = np.asarray(values)
        r.last_learner = self.learner_to_move.copy()
        mover_balance = balance(self.obs.reshape(n, OBSERVATION_LEN))
        r.last_balance = np.where(r.last_learner, mover_balance, -mover_balance)
        return r


def balance(obs: np.ndarray) -> np.ndarray:
    """The material balance for the viewer of each observation: its pieces on the board less
    the enemy's (planes 0-14 and 15), over 21. Both counts are public (every removal is), so
    the opponent's observation gives the same number with the sign turned."""
    planes = obs.reshape(obs.shape[:-1] + (salpakan.OBSERVATION_SHAPE[0], -1))
    own = planes[..., :15, :].sum(axis=(-2, -1))
    enemy = planes[..., 15, :].sum(axis=-1)
    return ((own - enemy) / 21.0).astype(np.float32)


def advantages(
    r: Rollout, gamma: float, lam: float, cap_reward: float = 0.0, material: float = 0.0
) -> Tuple[np.ndarray, np.ndarray]:
    """GAE over each game's learner decisions, the opponent's plies folded into the transition.

    Walks the rollout backwards with one carry per game. The reward of a learner decision is
    the game's end if it comes before the learner's next decision: its own winning or losing
    move, or the opponent's move after it (with the sign turned). Where the opponent is to move
    after the rollout, the learner's last value stands in for the next one. A game cut at the
    ply cap or drawn by the move limit ends there for the learner with ``cap_reward``.

    ``material`` shapes the reward by a potential (Ng, Harada and Russell 1999), which leaves
    the best policy unchanged: Φ = ``material`` × the learner's material balance (``balance``)
    at each of its decisions and 0 once the game is over, and each decision earns
    γ·Φ(next decision) − Φ(this one) besides the game's end. After the rollout the balance
    then on the board stands in for the next decision's.
    """
    t_len, n = r.reward.shape
    adv = np.zeros((t_len, n), np.float32)
    next_value = np.where(r.last_learner, r.last_value, 0.0).astype(np.float32)
    if not r.last_learner.all():
        # Opponent to move at the end: bootstrap from the learner's latest value in the rollout.
        latest = np.where(r.learner, np.arange(t_len)[:, None], -1).max(axis=0)
        has = (latest >= 0) & ~r.last_learner
        next_value[has] = r.value[latest[has], np.flatnonzero(has)]
    next_adv = np.zeros(n, np.float32)
    phi = np.zeros((t_len, n), np.float32)
    next_phi = np.zeros(n, np.float32)
    if material:
        mover = balance(r.obs)
        phi = material * np.where(r.learner, mover, -mover)
        next_phi = material * r.last_balance
    alive = np.ones(n, np.float32)  # 0 once the game ended before the next learner decision
    pending = np.zeros(n, np.float32)  # the end's reward, for the learner
    for t in range(t_len - 1, -1, -1):
        mine = r.learner[t]
        ended = r.ended[t]
        reward = np.where(mine, r.reward[t], -r.reward[t])
        if r.capped is not None:
            reward = np.where(r.capped[t], cap_reward, reward)
        pending = np.where(ended, reward, pending)
        alive = np.where(ended, 0.0, alive)
        shaping = gamma * next_phi * alive - phi[t]
        delta = pending + shaping + gamma * next_value * alive - r.value[t]
        a = delta + gamma * lam * alive * next_adv
        adv[t] = np.where(mine, a, 0.0)
        next_value = np.where(mine, r.value[t], next_value)
        next_phi = np.where(mine, phi[t], next_phi)
        next_adv = np.where(mine, a, next_adv)
        alive = np.where(mine, 1.0, alive)
        pending = np.where(mine, 0.0, pending)
    return adv, adv + r.value


# --- the training loop ---------------------------------------------------------------------------


def train(
    config: Config,
    eval_every: int = 0,
    eval_games: int = 400,
    log: Callable[[str], None] = print,
    out: Optional[Path] = None,
    eval_greedy: bool = False,
) -> Tuple[Params, List[Dict[str, float]]]:
    """Runs PPO for ``config.steps`` learner decisions; returns the parameters and the log rows."""
    key = jax.random.PRNGKey(config.seed)
    if config.init:
        params = load_params(config.init, config.hidden, config.net, config.greedy_prior)
    else:
        params = init_params(key, config.hidden, config.net, config.greedy_prior)
    opt_state = adam_init(params)
    update = make_update(config)
    collector = Collector(config)
    rng = np.random.default_rng(config.seed + 1)
    steps = 0
    started = time.perf_counter()
    evaluating = 0.0  # seconds spent in evaluation, left out of the training speed
    collecting = 0.0  # seconds spent stepping games and choosing actions
    history: List[Dict[str, float]] = []
    next_eval = eval_every
    while steps < config.steps and not (
        config.seconds and time.perf_counter() - started - evaluating >= config.seconds
    ):
        fraction = 1.0 - steps / config.steps
        lr = config.learning_rate * (fraction if config.anneal else 1.0)
        collect_started = time.perf_counter()
        rollout = collector.collect(params)
        collecting += time.perf_counter() - collect_started
        adv, ret = advantages(
            rollout, config.gamma, config.gae_lambda, config.cap_reward, config.material
        )
        rows = np.flatnonzero(rollout.learner.reshape(-1))
        steps += len(rows)
        data = {
            "obs": rollout.obs.reshape(-1, OBSERVATION_LEN)[rows],
            "mask": rollout.mask.reshape(-1, ACTIONS)[rows],
            "action": rollout.action.reshape(-1)[rows],
            "log_prob": rollout.log_prob.reshape(-1)[rows],
            "advantage": adv.reshape(-1)[rows],
            "return": ret.reshape(-1)[rows],
        }
        if rollout.scores is not None:
            data["scores"] = rollout.scores.reshape(-1, ACTIONS)[rows]
        stats = []
        size = min(config.minibatch, len(rows))
        for _ in range(config.epochs):
            order = rng.permutation(len(rows))
            for start in range(0, len(rows) - size + 1, size):
                pick = order[start : start + size]
                batch = {name: values[pick] for name, values in data.items()}
                params, opt_state, aux = update(params, opt_state, batch, lr)
                stats.append(aux)
        policy_loss, value_loss, entropy, kl, norm = (
            float(np.mean([s[j] for s in stats])) for j in range(5)
        )
        elapsed = time.perf_counter() - started - evaluating
        recent = collector.games[-400:]
        row = {
            "steps": steps,
            "seconds": elapsed,
            "collect_seconds": collecting,
            "policy_loss": policy_loss,
            "value_loss": value_loss,
            "entropy": entropy,
            "approx_kl": kl,
            "grad_norm": norm,
            "train_score": (sum(recent) / len(recent) + 1) / 2 if recent else float("nan"),
        }
        history.append(row)
        log(
            f"{steps:9d} steps {elapsed:7.1f} s ({collecting / elapsed:.0%} collecting) "
            f"{steps / elapsed / 1e3:5.1f} k/s  "
            f"policy {policy_loss:+.4f} value {value_loss:.4f} entropy {entropy:.3f} "
            f"kl {kl:.4f}  training games: {len(collector.games)}, last 400 score "
            f"{row['train_score']:.3f}"
        )
        out_of_time = config.seconds and elapsed >= config.seconds
        if eval_every and (steps >= next_eval or steps >= config.steps or out_of_time):
            next_eval += eval_every
            # The curve's columns: eval_* against Random, greedy_* against Greedy, target_*
            # against a level trained against.
            against = [("random", "eval")]
            if eval_greedy:
                against.append(("greedy", "greedy"))
            if config.opponent.startswith("level-") and config.opponent in EVALUATION_DEALS:
                against.append((config.opponent, "target"))
            for opponent, column in against:
                evaluation_started = time.perf_counter()
                point, low, high, line = scored(
                    params, opponent, eval_games, config.seed, config.formation, config.move_limit
                )
                evaluating += time.perf_counter() - evaluation_started
                row.update(
                    {
                        f"{column}_score": point,
                        f"{column}_low": low,
                        f"{column}_high": high,
                    }
                )
                log(f"  {line}")
            if out is not None:
                write_curve(out / "curve.csv", history)
                save_params(out / "params.npz", params)
    return params, history


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_config_arguments(parser, Config)
    parser.add_argument("--eval-every", type=int, default=500_000)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--greedy-games", type=int, default=400)
    parser.add_argument(
        "--target-games", type=int, default=400, help="games against a level-N opponent at the end"
    )
    parser.add_argument(
        "--eval-greedy", action="store_true", help="play Greedy too at every evaluation"
    )
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    config = parse_config(parser, args, Config)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    print(f"{config}\njax {jax.__version__} on {jax.devices()[0].platform}, {os.cpu_count()} CPUs")
    params, history = train(
        config, args.eval_every, args.eval_games, out=args.out, eval_greedy=args.eval_greedy
    )
    rules = (config.seed, config.formation, config.move_limit)
    if args.greedy_games:
        print(scored(params, "greedy", args.greedy_games, *rules)[3])
    if args.target_games and config.opponent.startswith("level-") and config.opponent in EVALUATION_DEALS:
        print(scored(params, config.opponent, args.target_games, *rules)[3])
    if args.out:
        write_curve(args.out / "curve.csv", history)
        save_params(args.out / "params.npz", params)


if __name__ == "__main__":
    main()
