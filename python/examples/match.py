"""Two of the package's agents play a match from Python, dealt as the tournament deals them.

    python examples/match.py learned greedy [--games 400] [--move-limit 200] [--seed 0]

Agents: ``random``, ``greedy``, ``ismcts``, ``level-N`` (1-8), ``learned`` (``salpakan.Learned``,
the shipped policy) and ``learned@T`` (at temperature T). Game ``g`` is dealt from seed
``seed + g // 2`` (``Setup.random``); each deal is played twice with the sides swapped, and the
first mover alternates between deals. Each agent sees only its side's tracker. A game still
going after ``--max-plies`` plies counts as a draw. Prints the first agent's W/D/L, its score
with the 95% interval and the verdict (``salpakan.evaluation``).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import salpakan
from salpakan import evaluation


def make(name: str, seed: int) -> Any:
    """The agent a name stands for, seeded."""
    if name == "random":
        return salpakan.Random(seed)
    if name == "greedy":
        return salpakan.Greedy(seed)
    if name == "ismcts":
        return salpakan.Ismcts(seed)
    if name.startswith("level-"):
        return salpakan.Level(int(name.removeprefix("level-")), seed)
    if name == "learned":
        return salpakan.Learned(seed)
    if name.startswith("learned@"):
        return salpakan.Learned(seed, float(name.removeprefix("learned@")))
    raise ValueError(f"agent {name!r}: random, greedy, ismcts, level-N, learned or learned@T")


def play(a: str, b: str, g: int, seed: int, move_limit: int, max_plies: int) -> str:
    """Game ``g`` of the match: ``"win"``, ``"draw"`` or ``"loss"`` for ``a``."""
    deal = seed + g // 2
    first = "white" if (g // 2) % 2 == 0 else "black"
    game = salpakan.Game(seed=deal, first=first, move_limit=move_limit)
    side_a = "white" if g % 2 == 0 else "black"
    side_b = "black" if side_a == "white" else "white"
    agents = {side_a: make(a, seed * 7919 + 2 * g), side_b: make(b, seed * 7919 + 2 * g + 1)}
    trackers = {side: game.tracker(side) for side in agents}
    while game.status.ongoing and game.ply < max_plies:
        side = game.side_to_move
        report = game.play(agents[side].choose(trackers[side]))
        for tracker in trackers.values():
            tracker.observe(report)
    winner = game.status.winner
    return "draw" if winner is None else ("win" if winner == side_a else "loss")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--move-limit", type=int, default=200, help="the rules' limit (0: none)")
    parser.add_argument("--max-plies", type=int, default=1000)
    args = parser.parse_args()
    for name in (args.a, args.b):
        try:
            make(name, 0)
        except (ValueError, salpakan.Error) as e:
            parser.error(str(e))
    if args.games < 1:
        parser.error("--games must be at least 1")
    started = time.perf_counter()
    results = {"win": 0, "draw": 0, "loss": 0}
    for g in range(args.games):
        results[play(args.a, args.b, g, args.seed, args.move_limit, args.max_plies)] += 1
    w, d, l = results["win"], results["draw"], results["loss"]
    point, low, high = evaluation.score(w, d, l)
    seconds = time.perf_counter() - started
    print(
        f"{args.a} vs {args.b}, {args.games} games (move limit {args.move_limit}): "
        f"W/D/L {w}/{d}/{l}, score {point:.1%} [{low:.1%}, {high:.1%}], {seconds:.0f} s"
    )
    print(evaluation.verdict(args.a, args.b, w, d, l))


if __name__ == "__main__":
    main()
