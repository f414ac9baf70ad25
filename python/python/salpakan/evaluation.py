"""How strong an agent is, as a reviewer accepts it: each pairing's score with a 95% interval,
Bradley-Terry Elo ratings anchored at one agent (``Random``), and a verdict ("A beats B") only
over at least ``GAMES_FOR_A_VERDICT`` games with the interval clear of 50%. The same rules as
the Rust tournament (``examples/tournament.rs``).

    >>> from salpakan.evaluation import score, verdict
    >>> mean, half = score(30, 0, 10)
    >>> round(mean, 2), round(half, 2)
    (0.75, 0.14)
    >>> verdict("ismcts", "greedy", 30, 0, 10)
    'ismcts vs greedy: 40 games, fewer than 400: no verdict'
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

GAMES_FOR_A_VERDICT = 400
ELO = 400.0 / math.log(10.0)


def score(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """The score (a draw counts half) and the half-width of its 95% interval (a normal
    approximation over the games)."""
    n = wins + draws + losses
    if n == 0:
        return 0.0, 0.0
    mean = (wins + draws / 2) / n
    variance = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean**2) / max(1, n - 1)
    return mean, 1.96 * math.sqrt(variance / n)


def verdict(a: str, b: str, wins: int, draws: int, losses: int) -> str:
    """What the pairing's result says (`wins` are `a`'s)."""
    n = wins + draws + losses
    if n < GAMES_FOR_A_VERDICT:
        return f"{a} vs {b}: {n} games, fewer than {GAMES_FOR_A_VERDICT}: no verdict"
    mean, half = score(wins, draws, losses)
    if mean - half > 0.5:
        return f"{a} beats {b} ({n} games)"
    if mean + half < 0.5:
        return f"{b} beats {a} ({n} games)"
    return f"{a} vs {b}: no significant difference over {n} games"


def elo(points: Sequence[Sequence[float]], games: Sequence[Sequence[float]]) -> tuple[np.ndarray, np.ndarray]:
    """Bradley-Terry maximum-likelihood Elo ratings, agent 0 anchored at 0, and their standard
    errors. `points[i][j]` is what `i` scored against `j` (a draw counts half) over
    `games[i][j]` games. One virtual draw per pairing keeps a sweep finite."""
    s = np.asarray(points, float) + 0.5
    n = np.asarray(games, float) + 1.0
    k = len(s)
    np.fill_diagonal(s, 0.0)
    np.fill_diagonal(n, 0.0)
    theta = np.zeros(k)
    free = np.arange(1, k)
    information = np.eye(k - 1)
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j]: i beats j
        gradient = (s - n * p).sum(axis=1)
        w = n * p * (1 - p)
        hessian = w - np.diag(w.sum(axis=1))
        information = -hessian[np.ix_(free, free)]
        step = np.linalg.solve(information, gradient[free])
        theta[free] += step
        if np.abs(step).max() < 1e-10:
            break
    errors = np.zeros(k)
    if k > 1:
        errors[free] = np.sqrt(np.diag(np.linalg.inv(information)))
    return theta * ELO, errors * ELO
