"""``Learned``: a policy trained by PPO over ``VecEnv``, shipped with the package and played in
NumPy alone (no JAX, no network package).

It is a residual on ``Greedy``: a two-layer MLP (tanh, 128 units) reads the 38 × 8 × 9
observation of its own ``Tracker`` and adds its logits to a learned scale times ``Greedy``'s
score of each move (``Greedy.scores``, clipped to ±10 material units). It was trained for an
hour against ``Greedy`` by ``examples/ppo_jax.py`` (``--seed 0 --greedy-prior 10 --material 0.5
--move-limit 200 --cap-reward -1``) and plays by that move limit. It beats ``Greedy`` narrowly
(52% over 400 games) and loses to the weaker levels 4 and 5 (about a third), whose random moves
find the Flag it learned ``Greedy`` never attacks: an exploiter for research, not a ladder
level. The figures and the commands that reproduce them are in ``docs/PERFORMANCE.md``. It
sees only what its tracker sees, like every agent here::

    >>> import salpakan
    >>> game = salpakan.Game(seed=1, move_limit=200)
    >>> bot = salpakan.Learned(seed=7)
    >>> move = bot.choose_in(game, game.side_to_move)
    >>> move in game.legal_moves()
    True

A policy trained by ``ppo_jax.py`` (``--net mlp``, with or without ``--greedy-prior``) plays the
same way from its own ``params.npz``: ``Learned(weights="run/params.npz")``.
"""

from __future__ import annotations

import functools
import math
import os
from pathlib import Path
from typing import Dict, Optional, Union

import numpy as np
import numpy.typing as npt

from ._salpakan import NUM_ACTIONS, OBSERVATION_SHAPE, Game, Greedy, Move, Tracker
from .errors import ArgumentError

__all__ = ["Learned", "WEIGHTS", "DEFAULT_TEMPERATURE", "PRIOR_CLIP"]

#: The weights shipped with the package (the policy whose score ``docs/PERFORMANCE.md`` gives).
WEIGHTS = Path(__file__).with_name("learned.npz")
#: The temperature ``Learned`` plays at unless told: its logits are divided by it before the
#: draw (0 plays the most probable move). Sharper than the training policy's 1, it scores a
#: little higher against ``Greedy`` (``docs/PERFORMANCE.md``).
DEFAULT_TEMPERATURE = 0.5
#: ``Greedy``'s scores are material units, and 1,000 for a won game: clipped to this many.
PRIOR_CLIP = 10.0

_OBSERVATION_LEN = int(np.prod(OBSERVATION_SHAPE))
_MASKED = -1e9


@functools.lru_cache(maxsize=8)
def _load(path: str) -> Dict[str, npt.NDArray[np.float32]]:
    """The arrays of a weights file, checked for the MLP's names and shapes."""
    try:
        with np.load(path) as saved:
            arrays = {name: np.asarray(saved[name], np.float32) for name in saved.files}
    except (OSError, ValueError) as e:
        raise ArgumentError(f"weights {path!r} do not read: {e}") from None
    if "w1" not in arrays:
        raise ArgumentError(
            f"weights {path!r}: not a policy of --net mlp (arrays: {', '.join(sorted(arrays))})"
        )
    hidden = arrays["w1"].shape[-1]
    expected = {
        "w1": (_OBSERVATION_LEN, hidden),
        "b1": (hidden,),
        "w2": (hidden, hidden),
        "b2": (hidden,),
        "wp": (hidden, NUM_ACTIONS),
        "bp": (NUM_ACTIONS,),
        "wv": (hidden, 1),
        "bv": (1,),
    }
    if "greedy_prior" in arrays:
        expected["greedy_prior"] = ()
    shapes = {name: value.shape for name, value in arrays.items()}
    if shapes != expected:
        raise ArgumentError(f"weights {path!r}: shapes {shapes}, expected {expected}")
    for value in arrays.values():
        value.setflags(write=False)
    return arrays


class Learned:
    """The shipped learned policy (or one from ``weights``), as an agent: ``choose(tracker)``
    and ``choose_in(game, side)`` like ``Greedy`` and ``Level``.

    ``seed`` seeds its draws (the same seed and positions give the same moves);
    ``temperature`` (at least 0, finite) divides its logits before each draw, 0 playing the
    most probable move. A wrong temperature or a weights file that does not hold an MLP policy
    raises ``ArgumentError`` naming it.
    """

    def __init__(
        self,
        seed: int = 0,
        temperature: float = DEFAULT_TEMPERATURE,
        weights: Union[str, "os.PathLike[str]", None] = None,
    ) -> None:
        if not (isinstance(temperature, (int, float)) and math.isfinite(temperature)) or (
            temperature < 0
        ):
            raise ArgumentError(f"temperature must be a finite number at least 0, not {temperature!r}")
        if not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
            raise ArgumentError(f"seed must lie in [0, 2^64), not {seed}")
        self._params = _load(os.fspath(weights if weights is not None else WEIGHTS))
        self._temperature = float(temperature)
        self._rng = np.random.default_rng(seed)

    @property
    def temperature(self) -> float:
        """The temperature it plays at."""
        return self._temperature

    def __repr__(self) -> str:
        return f"Learned(temperature={self._temperature})"

    def log_probs(self, tracker: Tracker) -> npt.NDArray[np.float32]:
        """The policy's log-probability of each of the 288 actions at temperature 1 (about
        -1e9 for an illegal one), from ``tracker``'s observation, mask and ``Greedy``'s scores
        only. Raises ``ArgumentError`` when it is not the tracker's turn or the game is over."""
        if not tracker.status.ongoing:
            raise ArgumentError("the game is over: there is no move to choose")
        if tracker.side_to_move != tracker.side:
            raise ArgumentError(f"it is {tracker.side_to_move}'s turn, not {tracker.side}'s")
        p = self._params
        x = tracker.observation().reshape(-1)
        h = np.tanh(x @ p["w1"] + p["b1"])
        h = np.tanh(h @ p["w2"] + p["b2"])
        logits = h @ p["wp"] + p["bp"]
        if "greedy_prior" in p:
            scores = np.clip(Greedy.scores(tracker), -PRIOR_CLIP, PRIOR_CLIP)
            logits = logits + p["greedy_prior"] * scores
        logits = np.where(tracker.legal_action_mask(), logits, np.float32(_MASKED))
        shifted = logits - logits.max()
        return (shifted - np.log(np.exp(shifted).sum())).astype(np.float32)

    def choose(self, tracker: Tracker) -> Move:
        """A move for the side ``tracker`` follows, drawn at the agent's temperature."""
        log_probs = self.log_probs(tracker)
        legal = np.flatnonzero(log_probs > _MASKED / 2)
        if self._temperature == 0:
            action = int(legal[np.argmax(log_probs[legal])])
        else:
            z = log_probs[legal].astype(np.float64) / self._temperature
            z = np.exp(z - z.max())
            action = int(legal[self._rng.choice(len(legal), p=z / z.sum())])
        return Move.from_action(action)

    def choose_in(self, game: Game, side: Union[int, str]) -> Move:
        """``choose`` from ``side``'s tracker of ``game`` (it sees nothing else)."""
        return self.choose(game.tracker(side))
