"""What the JAX trainers share (``examples/ppo_jax.py``, ``examples/imitate.py``): the
policy's parameters made fresh or loaded, the network (``salpakan.policy``'s MLP, or a
convolutional one) with its sampling, Adam with global-norm clipping, a policy's evaluation
against a built-in agent on the deals ``salpakan.matches`` makes, the trainers' shared config
checks and flags, and the curve a run writes. It needs JAX (``pip install ./python[jax]``);
the rest of the package does not::

    >>> import jax
    >>> from salpakan import training
    >>> params = training.init_params(jax.random.PRNGKey(0), hidden=16)
    >>> sorted(params) == sorted(training.policy.shapes(16, residual=False))
    True
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import math
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

import jax
import jax.numpy as jnp

from . import evaluation, matches, policy
from ._salpakan import OBSERVATION_SHAPE, Greedy, Random, VecEnv

__all__ = [
    "NETS",
    "Params",
    "TrainerConfig",
    "act",
    "adam_init",
    "adam_update",
    "add_config_arguments",
    "best",
    "evaluate",
    "init_params",
    "load_params",
    "network",
    "opponent_agent",
    "parse_config",
    "save_params",
    "scored",
    "write_curve",
]

OBSERVATION_LEN = policy.OBSERVATION_LEN
ACTIONS = policy.ACTIONS
MASKED = policy.MASKED
PRIOR_CLIP = policy.PRIOR_CLIP
#: The networks a trainer builds: ``salpakan.policy``'s MLP, or three 3 × 3 convolutions.
NETS = ("mlp", "conv")

Params = Dict[str, jax.Array]


# --- a trainer's config: the checks and flags every trainer shares ---------------------------


@dataclasses.dataclass(frozen=True)
class TrainerConfig:
    """The fields and checks every trainer's config shares; a trainer subclasses it, adds its
    own fields and may change a default. The same config and seed give the same run."""

    steps: int = 2_000_000
    seed: int = 0
    envs: int = 256
    rollout: int = 64  # VecEnv steps per rollout
    hidden: int = 128
    learning_rate: float = 1e-3
    epochs: int = 2
    minibatch: int = 1024
    value: float = 0.5
    max_grad_norm: float = 1.0
    max_plies: int = 1000
    formation: str = "random"
    net: str = "mlp"
    greedy_prior: float = 0.0

    def __post_init__(self) -> None:
        """Refuses, by name, an unknown network or formation, a ``greedy_prior`` scale outside
        [0, 100], and a count below 1."""
        if not 0.0 <= self.greedy_prior <= 100.0:
            raise ValueError(f"greedy_prior must lie in [0, 100], not {self.greedy_prior}")
        if self.net not in NETS:
            raise ValueError(f"net {self.net!r}: choose one of {', '.join(NETS)}")
        if self.formation not in matches.FORMATIONS:
            raise ValueError(
                f"formation {self.formation!r}: choose one of {', '.join(matches.FORMATIONS)}"
            )
        for name in ("steps", "envs", "rollout", "hidden", "epochs", "minibatch", "max_plies"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)}")

    def vec_env(self, **options: Any) -> VecEnv:
        """The run's batch of games: ``envs`` of them, seeded by ``seed``, cut at ``max_plies``,
        dealt by ``formation``; ``options`` are ``VecEnv``'s others (``move_limit=``)."""
        formation = None if self.formation == "random" else self.formation
        return VecEnv(
            self.envs, seed=self.seed, max_plies=self.max_plies, formation=formation, **options
        )


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


# --- the network: salpakan.policy's MLP, or a convolutional one ------------------------------


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
    planes, rows, files = OBSERVATION_SHAPE
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
    planes, rows, files = OBSERVATION_SHAPE
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
    """Saved parameters (a weights file written by a run, ``salpakan.policy``'s format for the
    MLP), checked against ``hidden`` and ``net``. A policy saved with ``Greedy``'s prior keeps
    its learned scale; ``greedy_prior`` adds one (at that value) to a policy saved without, as
    the start of a residual."""
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


def opponent_agent(name: str, seed: int) -> Any:
    """The built-in agent a named opponent plays by (``None`` for ``random`` and ``self``,
    which the trainer plays itself)."""
    if name in ("greedy", "mixed"):
        return Greedy(seed)
    if name.startswith("level-"):
        return matches.agent(name, seed)
    return None


def network(
    params: Params, observations: jax.Array, masks: jax.Array, scores: Optional[jax.Array] = None
) -> Tuple[jax.Array, jax.Array]:
    """Masked log-probabilities of the 288 actions and the value, for a batch.

    With a ``greedy_prior`` in ``params``, the policy is a residual on ``Greedy``: its logits
    are the network's plus that learned scale times ``scores`` (``VecEnv.greedy_scores`` or
    ``Greedy.scores`` of each row's tracker) clipped to ±``PRIOR_CLIP``, so a fresh network
    plays like ``Greedy`` made softer, and training learns where to leave it."""
    if "c1" not in params:
        # The MLP is salpakan.policy's, the one Learned plays: written once, run here in JAX.
        return policy.forward(params, observations, masks, scores, xp=jnp)
    h = conv_body(params, observations)
    logits = h @ params["wp"] + params["bp"]
    hv = jax.nn.relu(h @ params["wh"] + params["bh"])
    values = (hv @ params["wv"] + params["bv"])[:, 0]
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


# --- evaluation: fresh games against a built-in agent --------------------------------------


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

    Game ``g`` is dealt as ``salpakan.matches.setting`` deals it (by ``formation``): each deal
    is played twice with the sides swapped, and the first mover alternates, as in the
    tournament. Games are played by the rules' ``move_limit`` (0: none), as a run trains by
    them: the observation shows the plies since the last challenge against it. The opponent
    sees its own tracker only; the policy sees its tracker's observation and mask. All games
    advance together, one batched forward a ply.
    """
    rows = []
    for g in range(games):
        game = matches.setting(g, seed, formation, move_limit)
        me = "white" if g % 2 == 0 else "black"
        them = "black" if me == "white" else "white"
        rows.append(
            {
                "game": game,
                "me": me,
                "mine": game.tracker(me),
                "theirs": game.tracker(them),
                "agent": opponent_agent(opponent, seed * 7919 + g) or Random(seed * 7919 + g),
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
                    scores[i] = Greedy.scores(rows[i]["mine"])
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
        seed=matches.EVALUATION_DEALS[opponent] + seed,
        formation=formation,
        move_limit=move_limit,
    )
    point, low, high = evaluation.score(w, d, l)
    line = (
        f"against {opponent.capitalize()} over {games} games: W/D/L {w}/{d}/{l}, "
        f"score {point:.1%} [{low:.1%}, {high:.1%}]"
    )
    return point, low, high, line


# --- what a run writes ----------------------------------------------------------------------


def save_params(path: Path, params: Params) -> None:
    """Writes ``params`` as a weights file (``salpakan.policy.save``)."""
    policy.save(path, params)


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
