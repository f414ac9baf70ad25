"""How strong an agent is, as a reviewer accepts it: each pairing's score with a 95% interval
(Wilson's, extended to draws, so that a few games claim little), Bradley-Terry Elo ratings
anchored at one agent (``Random``), and a verdict ("A beats B") only over at least
``GAMES_FOR_A_VERDICT`` games with the interval clear of 50%. These are the crate's own
(the workspace's ``salpakan-evaluation`` crate), the same as the Rust tournament's
(``evaluation/examples/tournament.rs``); ``evaluation/tests/data/evaluation.txt`` holds both to
one table.

    >>> from salpakan.evaluation import score, verdict
    >>> mean, low, high = score(30, 0, 10)
    >>> round(mean, 2), round(low, 2), round(high, 2)
    (0.75, 0.6, 0.86)
    >>> score(0, 0, 4)[2] > 0.48   # four losses: up to 49%, not 0 ± 0
    True
    >>> verdict("ismcts", "greedy", 30, 0, 10)
    'ismcts vs greedy: 40 games, fewer than 400: no verdict'
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ._salpakan import GAMES_FOR_A_VERDICT, evaluation_elo, evaluation_score, evaluation_verdict

__all__ = ["GAMES_FOR_A_VERDICT", "elo", "score", "verdict"]


def score(wins: int, draws: int, losses: int) -> tuple[float, float, float]:
    """``(mean, low, high)``: the score (a draw counts half) and its 95% interval."""
    return evaluation_score(wins, draws, losses)


def verdict(a: str, b: str, wins: int, draws: int, losses: int) -> str:
    """What the pairing's result says (``wins`` are ``a``'s)."""
    return evaluation_verdict(a, b, wins, draws, losses)


def elo(points: Sequence[Sequence[float]], games: Sequence[Sequence[float]]) -> tuple[np.ndarray, np.ndarray]:
    """Bradley-Terry maximum-likelihood Elo ratings, agent 0 anchored at 0, and their standard
    errors. ``points[i][j]`` is what ``i`` scored against ``j`` (a draw counts half) over
    ``games[i][j]`` games. One virtual draw per pairing keeps a sweep finite."""
    to_lists = lambda m: [[float(v) for v in row] for row in m]  # noqa: E731 - numpy arrays too
    ratings, errors = evaluation_elo(to_lists(points), to_lists(games))
    return np.asarray(ratings), np.asarray(errors)
