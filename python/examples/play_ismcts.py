"""An Ismcts agent plays Greedy from Python, each seeing only its own side.

    python examples/play_ismcts.py [--seed 1] [--budget 10000]

Prints each move with the arbiter's announcement, the board as the search's side sees it at
the end, and the result.
"""

from __future__ import annotations

import argparse
import time

import salpakan


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=int, default=0, help="iterations a move (0: default)")
    args = parser.parse_args()

    game = salpakan.Game(seed=args.seed)
    players = {"white": salpakan.Ismcts(args.seed, args.budget), "black": salpakan.Greedy(args.seed)}
    # Each side follows the game through its own tracker, fed only the arbiter's reports.
    trackers = {side: game.tracker(side) for side in players}
    thinking = 0.0
    while game.status.ongoing and game.ply < 1000:
        side = game.side_to_move
        started = time.perf_counter()
        move = players[side].choose(trackers[side])
        if side == "white":
            thinking += time.perf_counter() - started
        report = game.play(move)
        for tracker in trackers.values():
            tracker.observe(report)
        what = f"challenge: attacker {report.outcome}s" if report.challenge else "move"
        print(f"{game.ply:4d}. {side:5s} {move}  {what}")
    print()
    print(game.view("white"))
    print(f"\n{game.status} after {game.ply} plies; Ismcts (White) thought "
          f"{1000 * thinking / max(1, (game.ply + 1) // 2):.1f} ms a move")


if __name__ == "__main__":
    main()
