"""The learned policy's network and its weights file, written once for every user: the
shipped ``salpakan.Learned`` plays it with NumPy, and the JAX trainers
(``salpakan.training``, ``examples/ppo_jax.py``, ``examples/imitate.py``) train the same
function with ``jax.numpy`` passed as ``xp``.

The network is a two-layer tanh MLP over the flattened 38 × 8 × 9 observation with a policy
head (288 logits) and a value head; as a *residual* on ``Greedy`` (a ``greedy_prior`` scale in
the weights) its logits add that learned scale times ``Greedy``'s score of each move, clipped to
±``PRIOR_CLIP``. Illegal actions get a logit of ``MASKED``::

    >>> import numpy as np
    >>> from salpakan import policy
    >>> weights = policy.load(policy.SHIPPED)
    >>> sorted(weights)
    ['b1', 'b2', 'bp', 'bv', 'greedy_prior', 'w1', 'w2', 'wp', 'wv']
    >>> x = np.zeros((1, policy.OBSERVATION_LEN), np.float32)
    >>> mask = np.ones((1, policy.ACTIONS), bool)
    >>> log_probs, values = policy.forward(weights, x, mask, np.zeros((1, policy.ACTIONS), np.float32))
    >>> log_probs.shape, values.shape
    ((1, 288), (1,))

The weights file is NumPy's ``.npz`` of those arrays, by name: ``w1`` (observation × hidden),
``b1``, ``w2`` (hidden × hidden), ``b2``, ``wp`` (hidden × 288), ``bp``, ``wv`` (hidden × 1),
``bv``, and for a residual ``greedy_prior`` (a scalar). ``load`` checks every name and shape.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any, Dict, Mapping, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

from ._salpakan import NUM_ACTIONS, OBSERVATION_SHAPE
from .errors import ArgumentError

__all__ = [
    "ACTIONS",
    "MASKED",
    "OBSERVATION_LEN",
    "PRIOR_CLIP",
    "SHIPPED",
    "forward",
    "load",
    "save",
    "shapes",
]

#: The observation's length, flattened (38 × 8 × 9).
OBSERVATION_LEN = int(np.prod(OBSERVATION_SHAPE))
#: The actions, one logit each.
ACTIONS = NUM_ACTIONS
#: The logit of an illegal action.
MASKED = -1e9
#: ``Greedy``'s scores are material units, and 1,000 for a won game: clipped to this many.
PRIOR_CLIP = 10.0
#: The weights shipped with the package (``salpakan.Learned``'s).
SHIPPED = Path(__file__).with_name("learned.npz")

Weights = Mapping[str, Any]
PathLike = Union[str, "os.PathLike[str]"]


def shapes(hidden: int, residual: bool) -> Dict[str, Tuple[int, ...]]:
    """Every array of an MLP policy of ``hidden`` units, by name, with its shape."""
    expected: Dict[str, Tuple[int, ...]] = {
        "w1": (OBSERVATION_LEN, hidden),
        "b1": (hidden,),
        "w2": (hidden, hidden),
        "b2": (hidden,),
        "wp": (hidden, ACTIONS),
        "bp": (ACTIONS,),
        "wv": (hidden, 1),
        "bv": (1,),
    }
    if residual:
        expected["greedy_prior"] = ()
    return expected


def forward(
    weights: Weights,
    observations: Any,
    masks: Any,
    scores: Optional[Any] = None,
    xp: Any = np,
) -> Tuple[Any, Any]:
    """Masked log-probabilities of the 288 actions ([batch, 288]) and the values ([batch]) of
    a batch of flattened observations, with ``xp`` the array module (``numpy``, or
    ``jax.numpy`` to train it). ``scores`` (``Greedy``'s, [batch, 288]) is read only by a
    residual policy."""
    h = xp.tanh(observations @ weights["w1"] + weights["b1"])
    h = xp.tanh(h @ weights["w2"] + weights["b2"])
    logits = h @ weights["wp"] + weights["bp"]
    values = (h @ weights["wv"] + weights["bv"])[:, 0]
    if "greedy_prior" in weights:
        logits = logits + weights["greedy_prior"] * xp.clip(scores, -PRIOR_CLIP, PRIOR_CLIP)
    logits = xp.where(masks, logits, MASKED)
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_probs = shifted - xp.log(xp.exp(shifted).sum(axis=-1, keepdims=True))
    return log_probs, values


@functools.lru_cache(maxsize=8)
def _read(path: str) -> Dict[str, npt.NDArray[np.float32]]:
    try:
        with np.load(path) as saved:
            arrays = {name: np.asarray(saved[name], np.float32) for name in saved.files}
    except (OSError, ValueError) as e:
        raise ArgumentError(f"weights {path!r} do not read: {e}") from None
    if "w1" not in arrays:
        raise ArgumentError(
            f"weights {path!r}: not a policy of --net mlp (arrays: {', '.join(sorted(arrays))})"
        )
    expected = shapes(arrays["w1"].shape[-1], "greedy_prior" in arrays)
    found = {name: value.shape for name, value in arrays.items()}
    if found != expected:
        raise ArgumentError(f"weights {path!r}: shapes {found}, expected {expected}")
    for value in arrays.values():
        value.setflags(write=False)
    return arrays


def load(path: PathLike) -> Dict[str, npt.NDArray[np.float32]]:
    """The arrays of a weights file (read-only float32, half-precision files widened), each
    name and shape checked: ``ArgumentError`` naming what is wrong otherwise."""
    return _read(os.fspath(path))


def save(path: PathLike, weights: Weights, half: bool = False) -> None:
    """Writes ``weights`` (NumPy or JAX arrays) as a weights file; ``half`` keeps float16, as
    the shipped file does."""
    kind = np.float16 if half else np.float32
    np.savez(os.fspath(path), **{name: np.asarray(value, kind) for name, value in weights.items()})
