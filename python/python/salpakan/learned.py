"""``Learned``: a policy learned by PPO, shipped with the package and played in NumPy alone.

It is a residual on ``Greedy`` (``salpakan.policy``'s network: a small MLP reads its own
``Tracker``'s observation and adjusts ``Greedy``'s score of each move), so it plays much like
``Greedy`` and has learned where to leave it. How strong: it beats ``Greedy`` narrowly (52% over
400 games, by a 200-ply move limit), beats ``Random`` almost always (95%), and loses to the
ladder's levels 4 and 5 (about a third), whose random moves find the Flag it learned ``Greedy``
never attacks: an exploiter for research, not a ladder level. How it was trained, and every
figure with the command that reproduces it, is in ``docs/PERFORMANCE.md`` ("A learned bot,
shipped"). It sees only what its tracker sees, like every agent here::

    >>> import salpakan
    >>> game = salpakan.Game(seed=1, move_limit=200)
    >>> bot = salpakan.Learned(seed=7)
    >>> move = bot.choose_in(game, game.side_to_move)
    >>> move in game.legal_moves()
    True

A policy trained by ``examples/ppo_jax.py`` (``--net mlp``, with or without ``--greedy-prior``)
plays the same way from its own weights file: ``Learned(weights="run/params.npz")``.
"""

from __future__ import annotations

import math
import os
from typing import Union

import numpy as np
import numpy.typing as npt

from . import policy
from ._salpakan import Game, Greedy, Move, Tracker
from .errors import ArgumentError

__all__ = ["Learned", "WEIGHTS", "DEFAULT_TEMPERATURE", "PRIOR_CLIP"]

#: The weights shipped with the package (the policy whose score ``docs/PERFORMANCE.md`` gives).
WEIGHTS = policy.SHIPPED
#: The temperature ``Learned`` plays at unless told: its logits are divided by it before the
#: draw (0 plays the most probable move). Sharper than the training policy's 1, it scores a
#: little higher against ``Greedy`` (``docs/PERFORMANCE.md``).
DEFAULT_TEMPERATURE = 0.5
#: ``Greedy``'s scores are clipped to this many material units (``salpakan.policy``).
PRIOR_CLIP = policy.PRIOR_CLIP


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
        self._params = policy.load(weights if weights is not None else WEIGHTS)
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
        x = tracker.observation().reshape(1, -1)
        mask = tracker.legal_action_mask()[None]
        scores = Greedy.scores(tracker)[None] if "greedy_prior" in self._params else None
        log_probs, _ = policy.forward(self._params, x, mask, scores)
        return log_probs[0].astype(np.float32)

    def choose(self, tracker: Tracker) -> Move:
        """A move for the side ``tracker`` follows, drawn at the agent's temperature."""
        log_probs = self.log_probs(tracker)
        legal = np.flatnonzero(log_probs > policy.MASKED / 2)
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
