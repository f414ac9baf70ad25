"""Matches between agents, dealt the one way every example and trainer deals them: agents by
name, formations by name, and the deals.

Game ``g`` of a match from ``seed`` is dealt from seed ``seed + g // 2``: each deal is played
twice with the sides swapped, and the first mover alternates between deals (as the Rust
tournament does). Each agent sees only its own side's tracker::

    >>> from salpakan import matches
    >>> matches.agent("level-3", seed=1)
    Level(3)
    >>> matches.play("greedy", "random", g=0, seed=5, move_limit=60)
    'win'
"""

from __future__ import annotations

import re
from typing import Any, List, Optional

from ._salpakan import Game, Greedy, Ismcts, Level, Random, Setup
from .errors import ArgumentError

__all__ = ["AGENTS", "EVALUATION_DEALS", "FORMATIONS", "agent", "deal", "level_range", "play", "setting"]

#: The names ``agent`` knows (``level-N`` for each level, ``learned@T`` at temperature T).
AGENTS = ("random", "greedy", "ismcts", "level-N", "learned", "learned@T")
#: The formations a match (or a training run) deals from: ``Setup.random``, or a named one.
FORMATIONS = ("random", "uniform", "classic")
#: The first deal of each opponent's evaluation games, before a run's seed is added: a run
#: is evaluated on games it never trained on.
EVALUATION_DEALS = {"random": 10_000, "greedy": 20_000} | {
    f"level-{n}": 30_000 + 1_000 * n for n in range(1, Level.COUNT + 1)
}


def agent(name: str, seed: int, budget: int = 0) -> Any:
    """The agent ``name`` stands for, seeded (``budget``: ``ismcts``'s iterations a move, 0
    its own). ``ArgumentError`` for a name it does not know."""
    if name == "random":
        return Random(seed)
    if name == "greedy":
        return Greedy(seed)
    if name == "ismcts":
        return Ismcts(seed, budget)
    if re.fullmatch(r"level-\d+", name):
        return Level(int(name.removeprefix("level-")), seed)
    if name == "learned" or name.startswith("learned@"):
        from .learned import Learned

        if name == "learned":
            return Learned(seed)
        try:
            temperature = float(name.removeprefix("learned@"))
        except ValueError:
            raise ArgumentError(f"agent {name!r}: learned@T takes a number T") from None
        return Learned(seed, temperature)
    raise ArgumentError(f"agent {name!r}: one of {', '.join(AGENTS)}")


def level_range(name: str) -> Optional[List[int]]:
    """The levels an opponent ``level-A..B`` draws from (A < B, both levels), else None."""
    match = re.fullmatch(r"level-(\d+)\.\.(\d+)", name)
    if not match:
        return None
    low, high = int(match.group(1)), int(match.group(2))
    if not 1 <= low < high <= Level.COUNT:
        return None
    return list(range(low, high + 1))


def deal(formation: str, side: str, seed: int) -> Setup:
    """One side's setup from ``formation`` (one of ``FORMATIONS``), seeded."""
    if formation == "random":
        return Setup.random(side, seed)
    return Setup.sample(side, formation, seed)


def setting(g: int, seed: int, formation: str = "random", move_limit: int = 0) -> Game:
    """Game ``g`` of a match from ``seed``: its deal (both sides from ``formation``) and its
    first mover, by the rules' ``move_limit`` (0: none)."""
    number = seed + g // 2
    first = "white" if (g // 2) % 2 == 0 else "black"
    if formation == "random":
        return Game(seed=number, first=first, move_limit=move_limit)
    white = deal(formation, "white", number * 2)
    black = deal(formation, "black", number * 2 + 1)
    return Game(white, black, first=first, move_limit=move_limit)


def play(
    a: str,
    b: str,
    g: int,
    seed: int,
    move_limit: int = 0,
    max_plies: int = 1000,
    formation: str = "random",
) -> str:
    """Game ``g`` of a match of agent ``a`` against ``b``: ``"win"``, ``"draw"`` or ``"loss"``
    for ``a``, who plays White in the even games (a game still going after ``max_plies`` is a
    draw)."""
    game = setting(g, seed, formation, move_limit)
    side_a = "white" if g % 2 == 0 else "black"
    side_b = "black" if side_a == "white" else "white"
    agents = {side_a: agent(a, seed * 7919 + 2 * g), side_b: agent(b, seed * 7919 + 2 * g + 1)}
    trackers = {side: game.tracker(side) for side in agents}
    while game.status.ongoing and game.ply < max_plies:
        side = game.side_to_move
        report = game.play(agents[side].choose(trackers[side]))
        for tracker in trackers.values():
            tracker.observe(report)
    winner = game.status.winner
    return "draw" if winner is None else ("win" if winner == side_a else "loss")
