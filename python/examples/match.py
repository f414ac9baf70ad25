"""Two of the package's agents play a match from Python, dealt as the tournament deals them.

    python examples/match.py learned greedy [--games 400] [--move-limit 200] [--seed 0]

Agents: ``random``, ``greedy``, ``ismcts``, ``level-N`` (1-8), ``learned`` (``salpakan.Learned``,
the shipped policy) and ``learned@T`` (at temperature T), dealt by ``salpakan.matches``: game
``g`` from seed ``seed + g // 2`` (``Setup.random``); each deal is played twice with the sides
swapped, and the first mover alternates between deals. Each agent sees only its side's tracker. A game still
going after ``--max-plies`` plies counts as a draw. Prints the first agent's W/D/L, its score
with the 95% interval and the verdict (``salpakan.evaluation``).
"""

from __future__ import annotations

import argparse
import time

import salpakan
from salpakan import evaluation, matches


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
            matches.agent(name, 0)
        except (ValueError, salpakan.Error) as e:
            parser.error(str(e))
    if args.games < 1:
        parser.error("--games must be at least 1")
    started = time.perf_counter()
    results = {"win": 0, "draw": 0, "loss": 0}
    for g in range(args.games):
        results[matches.play(args.a, args.b, g, args.seed, args.move_limit, args.max_plies)] += 1
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
