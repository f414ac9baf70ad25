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
the score with its 95% interval (``salpakan.evaluation``); ``--greedy-games`` games against
``Greedy`` at the end, and ``--target-games`` against a ``level-N`` opponent. With ``--out DIR``
it writes ``DIR/curve.csv`` (steps, seconds, score and interval) and ``DIR/params.npz`` (at each
evaluation and at the end).

The functions are importable (``python/tests/test_ppo.py`` runs a short smoke through them).
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import math
import os
import re
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

import jax
import jax.numpy as jnp

import salpakan
from salpakan import evaluation, learned

OBSERVATION_LEN = int(np.prod(salpakan.OBSERVATION_SHAPE))
ACTIONS = salpakan.NUM_ACTIONS
MASKED = -1e9
OPPONENTS = ("random", "greedy", "mixed", "self") + tuple(
    f"level-{n}" for n in range(1, salpakan.Level.COUNT + 1)
)
FORMATIONS = ("random", "uniform", "classic")
NETS = ("mlp", "conv")

Params = Dict[str, jax.Array]


@dataclasses.dataclass(frozen=True)
class Config:
    """Everything a run depends on; the same config and seed give the same run."""

    steps: int = 3_000_000
    seed: int = 0
    envs: int = 256
    rollout: int = 64  # VecEnv steps per rollout (the learner moves in about half of them)
    hidden: int = 128
    learning_rate: float = 5e-4
    anneal: bool = True
    gamma: float = 0.995
    gae_lambda: float = 0.95
    clip: float = 0.2
    epochs: int = 4
    minibatch: int = 1024
    entropy: float = 0.01
    value: float = 0.5
    max_grad_norm: float = 0.5
    opponent: str = "random"
    max_plies: int = 1000
    cap_reward: float = 0.0
    formation: str = "random"
    init: str = ""
    seconds: float = 0.0
    net: str = "mlp"
    move_limit: int = 0
    material: float = 0.0
    greedy_prior: float = 0.0

    def __post_init__(self) -> None:
        if self.opponent not in OPPONENTS and level_range(self.opponent) is None:
            raise ValueError(
                f"opponent {self.opponent!r}: choose one of {', '.join(OPPONENTS)} or level-A..B"
            )
        check_common(self, ("steps", "envs", "rollout", "hidden", "epochs", "minibatch", "max_plies"))
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


def level_range(name: str) -> Optional[List[int]]:
    """The levels an opponent ``level-A..B`` draws from (A < B, both levels), else None."""
    match = re.fullmatch(r"level-(\d+)\.\.(\d+)", name)
    if not match:
        return None
    low, high = int(match.group(1)), int(match.group(2))
    if not 1 <= low < high <= salpakan.Level.COUNT:
        return None
    return list(range(low, high + 1))


def check_common(config: Any, positive: Tuple[str, ...]) -> None:
    """The checks a trainer's config shares with the others': a known network and formation,
    a ``greedy_prior`` scale in [0, 100], and each field named in ``positive`` at least 1."""
    if not 0.0 <= config.greedy_prior <= 100.0:
        raise ValueError(f"greedy_prior must lie in [0, 100], not {config.greedy_prior}")
    if config.net not in NETS:
        raise ValueError(f"net {config.net!r}: choose one of {', '.join(NETS)}")
    if config.formation not in FORMATIONS:
        raise ValueError(f"formation {config.formation!r}: choose one of {', '.join(FORMATIONS)}")
    for name in positive:
        if getattr(config, name) < 1:
            raise ValueError(f"{name} must be at least 1, not {getattr(config, name)}")


def add_config_arguments(parser: argparse.ArgumentParser, config_type: type) -> None:
    """A flag for each field of a config dataclass (``--field-name``), its default the field's."""
    defaults = config_type()
    for field in dataclasses.fields(config_type):
        name = "--" + field.name.replace("_", "-")
        default = getattr(defaults, field.name)
        if isinstance(default, bool):
            parser.add_argument(
                name, type=lambda s: s.lower() in ("1", "true", "yes"), default=default
            )
        else:
            parser.add_argument(name, type=type(default), default=default)


def parse_config(parser: argparse.ArgumentParser, args: argparse.Namespace, config_type: type):
    """The config the parsed flags make, or the parser's error naming what was refused."""
    try:
        return config_type(**{f.name: getattr(args, f.name) for f in dataclasses.fields(config_type)})
    except ValueError as e:
        parser.error(str(e))


# --- the network: an MLP with a policy head and a value head --------------------------------


def init_params(
    key: jax.Array, hidden: int, net: str = "mlp", greedy_prior: float = 0.0
) -> Params:
    """Orthogonal weights as in CleanRL (gain √2 for the body, 0.01 policy, 1 value): the MLP
    with two layers of ``hidden`` units, or (``net="conv"``) three 3 × 3 convolutions of
    ``hidden`` channels over the 8 × 9 board, the last two residual, then dense heads. With a
    ``greedy_prior`` above 0, a learned scale of ``Greedy``'s move scores starts there (see
    ``network``)."""
    params = init_conv(key, hidden) if net == "conv" else init_mlp(key, hidden)
    if greedy_prior:
        params["greedy_prior"] = jnp.asarray(greedy_prior, jnp.float32)
    return params


def init_mlp(key: jax.Array, hidden: int) -> Params:
    keys = jax.random.split(key, 4)
    orthogonal = jax.nn.initializers.orthogonal

    def layer(k: jax.Array, fan_in: int, fan_out: int, gain: float) -> Tuple[jax.Array, jax.Array]:
        return orthogonal(gain)(k, (fan_in, fan_out), jnp.float32), jnp.zeros(fan_out)

    params: Params = {}
    params["w1"], params["b1"] = layer(keys[0], OBSERVATION_LEN, hidden, math.sqrt(2))
    params["w2"], params["b2"] = layer(keys[1], hidden, hidden, math.sqrt(2))
    params["wp"], params["bp"] = layer(keys[2], hidden, ACTIONS, 0.01)
    params["wv"], params["bv"] = layer(keys[3], hidden, 1, 1.0)
    return params


def init_conv(key: jax.Array, channels: int) -> Params:
    keys = jax.random.split(key, 6)
    orthogonal = jax.nn.initializers.orthogonal
    planes, rows, files = salpakan.OBSERVATION_SHAPE
    flat = rows * files * channels
    params: Params = {}
    for k, (name, fan_in) in enumerate((("c1", planes), ("c2", channels), ("c3", channels))):
        # HWIO kernels; orthogonal over the flattened 3 × 3 × in inputs.
        w = orthogonal(math.sqrt(2))(keys[k], (9 * fan_in, channels), jnp.float32)
        params[name] = w.reshape(3, 3, fan_in, channels)
        params["b" + name] = jnp.zeros(channels)
    params["wp"] = orthogonal(0.01)(keys[3], (flat, ACTIONS), jnp.float32)
    params["bp"] = jnp.zeros(ACTIONS)
    params["wh"] = orthogonal(math.sqrt(2))(keys[4], (flat, 64), jnp.float32)
    params["bh"] = jnp.zeros(64)
    params["wv"] = orthogonal(1.0)(keys[5], (64, 1), jnp.float32)
    params["bv"] = jnp.zeros(1)
    return params


def conv_body(params: Params, observations: jax.Array) -> jax.Array:
    """The convolutions' output, flattened: [batch, 72 × channels]."""
    planes, rows, files = salpakan.OBSERVATION_SHAPE
    x = observations.reshape(-1, planes, rows, files).transpose(0, 2, 3, 1)  # NHWC

    def conv(x: jax.Array, name: str) -> jax.Array:
        y = jax.lax.conv_general_dilated(
            x, params[name], (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
        )
        return y + params["b" + name]

    h = jax.nn.relu(conv(x, "c1"))
    h = jax.nn.relu(h + conv(h, "c2"))
    h = jax.nn.relu(h + conv(h, "c3"))
    return h.reshape(h.shape[0], -1)


def load_params(
    path: str, hidden: int, net: str = "mlp", greedy_prior: Optional[float] = None
) -> Params:
    """Saved parameters (a ``params.npz`` written by a run), checked against ``hidden`` and
    ``net``. A policy saved with ``Greedy``'s prior keeps its learned scale; ``greedy_prior``
    adds one (at that value) to a policy saved without, as the start of a residual."""
    with np.load(path) as saved:
        params = {name: jnp.asarray(saved[name], jnp.float32) for name in saved.files}
    if greedy_prior and "greedy_prior" not in params:
        params["greedy_prior"] = jnp.asarray(greedy_prior, jnp.float32)
    model = init_params(jax.random.PRNGKey(0), hidden, net, 1.0 if "greedy_prior" in params else 0)
    expected = jax.tree_util.tree_map(jnp.shape, model)
    shapes = {name: value.shape for name, value in params.items()}
    if shapes != expected:
        raise ValueError(f"{path}: shapes {shapes} are not those of --net {net} --hidden {hidden}")
    return params


def opponent_agent(name: str, seed: int):
    """The built-in agent a named opponent plays by (``None`` for ``random``, ``self``)."""
    if name in ("greedy", "mixed"):
        return salpakan.Greedy(seed)
    if name.startswith("level-"):
        return salpakan.Level(int(name.removeprefix("level-")), seed)
    return None


def deal(formation: str, side: str, seed: int):
    """One side's setup for an evaluation game, from ``formation`` as the run deals them."""
    if formation == "random":
        return salpakan.Setup.random(side, seed)
    return salpakan.Setup.sample(side, formation, seed)


# Greedy's scores are material units, and 1,000 for a won game: clipped to this many units,
# the same clip salpakan.Learned plays a saved policy with.
PRIOR_CLIP = learned.PRIOR_CLIP


def network(
    params: Params, observations: jax.Array, masks: jax.Array, scores: Optional[jax.Array] = None
) -> Tuple[jax.Array, jax.Array]:
    """Masked log-probabilities of the 288 actions and the value, for a batch.

    With a ``greedy_prior`` in ``params``, the policy is a residual on ``Greedy``: its logits
    are the network's plus that learned scale times ``scores`` (``VecEnv.greedy_scores`` or
    ``Greedy.scores`` of each row's tracker) clipped to ±``PRIOR_CLIP``, so a fresh network
    plays like ``Greedy`` made softer, and training learns where to leave it."""
    if "c1" in params:
        h = conv_body(params, observations)
        logits = h @ params["wp"] + params["bp"]
        hv = jax.nn.relu(h @ params["wh"] + params["bh"])
        values = (hv @ params["wv"] + params["bv"])[:, 0]
    else:
        h = jnp.tanh(observations @ params["w1"] + params["b1"])
        h = jnp.tanh(h @ params["w2"] + params["b2"])
        logits = h @ params["wp"] + params["bp"]
        values = (h @ params["wv"] + params["bv"])[:, 0]
    if "greedy_prior" in params:
        logits = logits + params["greedy_prior"] * jnp.clip(scores, -PRIOR_CLIP, PRIOR_CLIP)
    return jax.nn.log_softmax(jnp.where(masks, logits, MASKED)), values


@jax.jit
def act(
    params: Params,
    observations: jax.Array,
    masks: jax.Array,
    key: jax.Array,
    scores: Optional[jax.Array] = None,
):
    """Samples an action per row by Gumbel-max over the masked logits.

    Returns the actions, their log-probabilities and the values."""
    log_probs, values = network(params, observations, masks, scores)
    gumbel = jax.random.gumbel(key, log_probs.shape)
    actions = jnp.argmax(jnp.where(masks, log_probs + gumbel, MASKED), axis=1)
    chosen = jnp.take_along_axis(log_probs, actions[:, None], axis=1)[:, 0]
    return actions, chosen, values


@jax.jit
def best(
    params: Params, observations: jax.Array, masks: jax.Array, scores: Optional[jax.Array] = None
) -> jax.Array:
    """The most probable legal action per row."""
    log_probs, _ = network(params, observations, masks, scores)
    return jnp.argmax(log_probs, axis=1)


# --- Adam with global-norm clipping, written out (no optimiser package needed) ---------------


def adam_init(params: Params) -> Dict[str, Any]:
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    return {"m": zeros, "v": zeros, "t": jnp.zeros((), jnp.int32)}


def adam_update(params, grads, state, learning_rate, max_norm, b1=0.9, b2=0.999, eps=1e-5):
    norm = jnp.sqrt(sum(jnp.sum(g * g) for g in jax.tree_util.tree_leaves(grads)))
    scale = jnp.minimum(1.0, max_norm / (norm + 1e-6))
    grads = jax.tree_util.tree_map(lambda g: g * scale, grads)
    t = state["t"] + 1
    m = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, state["m"], grads)
    v = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, state["v"], grads)
    correction = jnp.sqrt(1 - b2**t) / (1 - b1**t)
    params = jax.tree_util.tree_map(
        lambda p, m, v: p - learning_rate * correction * m / (jnp.sqrt(v) + eps), params, m, v
    )
    return params, {"m": m, "v": v, "t": t}, norm


# --- the PPO loss and one minibatch step -----------------------------------------------------


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
        self.env = salpakan.VecEnv(
            config.envs,
            seed=config.seed,
            max_plies=config.max_plies,
            move_limit=config.move_limit,
            formation=None if config.formation == "random" else config.formation,
        )
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


# --- evaluation: fresh games against a built-in agent, with salpakan.evaluation ---------------


def evaluate(
    params: Params,
    opponent: str,
    games: int,
    seed: int,
    max_plies: int = 1000,
    sample: bool = True,
    formation: str = "random",
    move_limit: int = 0,
) -> Tuple[int, int, int]:
    """W/D/L of the policy over ``games`` games against ``Random``, ``Greedy`` or a level.

    Game ``g`` is dealt from seed ``seed + g // 2`` (by ``formation``, as ``deal`` does): each
    deal is played twice with the sides swapped, and the first mover alternates, as in the
    tournament. Games are played by the rules' ``move_limit`` (0: none), as a run trains by
    them: the observation shows the plies since the last challenge against it. The opponent
    sees its own tracker only; the policy sees its tracker's observation and mask. All games
    advance together, one batched forward a ply.
    """
    rows = []
    for g in range(games):
        number = seed + g // 2
        first = "white" if (g // 2) % 2 == 0 else "black"
        if formation == "random":
            game = salpakan.Game(seed=number, first=first, move_limit=move_limit)
        else:
            white = deal(formation, "white", number * 2)
            black = deal(formation, "black", number * 2 + 1)
            game = salpakan.Game(white, black, first=first, move_limit=move_limit)
        me = "white" if g % 2 == 0 else "black"
        them = "black" if me == "white" else "white"
        rows.append(
            {
                "game": game,
                "me": me,
                "mine": game.tracker(me),
                "theirs": game.tracker(them),
                "agent": opponent_agent(opponent, seed * 7919 + g)
                or salpakan.Random(seed * 7919 + g),
            }
        )
    key = jax.random.PRNGKey(seed)
    obs = np.zeros((games, OBSERVATION_LEN), np.float32)
    masks = np.zeros((games, ACTIONS), bool)
    masks[:, 0] = True
    prior = "greedy_prior" in params
    scores = np.zeros((games, ACTIONS), np.float32) if prior else None
    while True:
        live = [
            i
            for i, row in enumerate(rows)
            if row["game"].status.ongoing and row["game"].ply < max_plies
        ]
        if not live:
            break
        mine = [i for i in live if rows[i]["game"].side_to_move == rows[i]["me"]]
        if mine:
            for i in mine:
                obs[i] = rows[i]["mine"].observation().reshape(-1)
                masks[i] = rows[i]["mine"].legal_action_mask()
                if prior:
                    scores[i] = salpakan.Greedy.scores(rows[i]["mine"])
            key, sub = jax.random.split(key)
            if sample:
                chosen = act(params, obs, masks, sub, scores)[0]
            else:
                chosen = best(params, obs, masks, scores)
            chosen = np.asarray(chosen)
        for i in live:
            row = rows[i]
            game = row["game"]
            if game.side_to_move == row["me"]:
                report = game.play_action(int(chosen[i]))
            else:
                report = game.play(row["agent"].choose(row["theirs"]))
            row["mine"].observe(report)
            row["theirs"].observe(report)
    wins = sum(1 for row in rows if row["game"].status.winner == row["me"])
    draws = sum(1 for row in rows if row["game"].status.winner is None)
    return wins, draws, games - wins - draws


# The first deal of each opponent's evaluation games, before the run's seed is added.
EVALUATION_DEALS = {"random": 10_000, "greedy": 20_000} | {
    f"level-{n}": 30_000 + 1_000 * n for n in range(1, salpakan.Level.COUNT + 1)
}


def scored(
    params: Params,
    opponent: str,
    games: int,
    seed: int,
    formation: str = "random",
    move_limit: int = 0,
) -> Tuple[float, float, float, str]:
    """The policy's score against ``opponent`` over ``games`` fresh games of run ``seed`` (by
    the rules' ``move_limit``), its 95% interval (low, high), and a line saying them with the
    W/D/L."""
    w, d, l = evaluate(
        params,
        opponent,
        games,
        seed=EVALUATION_DEALS[opponent] + seed,
        formation=formation,
        move_limit=move_limit,
    )
    point, low, high = evaluation.score(w, d, l)
    line = (
        f"against {opponent.capitalize()} over {games} games: W/D/L {w}/{d}/{l}, "
        f"score {point:.1%} [{low:.1%}, {high:.1%}]"
    )
    return point, low, high, line


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


def save_params(path: Path, params: Params) -> None:
    np.savez(path, **{k: np.asarray(v) for k, v in params.items()})


def write_curve(
    path: Path, history: List[Dict[str, float]], extra: Tuple[str, ...] = ("train_score",)
) -> None:
    """The evaluated rows of ``history`` as CSV: steps, seconds, each opponent's score and
    interval, and the ``extra`` columns."""
    fields = ["steps", "seconds", "eval_score", "eval_low", "eval_high"]
    for column in ("greedy", "target"):
        if any(f"{column}_score" in row for row in history):
            fields += [f"{column}_score", f"{column}_low", f"{column}_high"]
    fields += list(extra)
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(fields)
        for row in history:
            if "eval_score" in row:
                writer.writerow(
                    [f"{row[k]:.4f}" if isinstance(row[k], float) else row[k] for k in fields]
                )


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
