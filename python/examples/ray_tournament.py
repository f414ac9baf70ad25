"""The agents' round robin spread over a Ray cluster: one task per game, results gathered.

    pip install ray
    python examples/ray_tournament.py [--address ADDRESS] [--games 20] [--budget 3000]

Without ``--address`` (or ``RAY_ADDRESS``) it starts a local cluster on this machine; with one
it runs unchanged on a real cluster (every worker needs the ``salpakan`` package installed).
Each task plays one game between two agents from seeded setups, each agent seeing only its
side's tracker, and returns the result. The driver prints each pairing's W/D/L and score with
its 95% interval, a verdict ("A beats B" only over at least 400 games), and Bradley-Terry Elo
ratings anchored at ``random`` (``salpakan.evaluation``, the rules of the Rust tournament).
"""

from __future__ import annotations

import argparse
import itertools
import os
import time

import ray

import salpakan
from salpakan import evaluation

AGENTS = ("random", "greedy", "ismcts")


@ray.remote
def play(white: str, black: str, seed: int, budget: int) -> tuple:
    """One game: returns (white, black, winner or None, plies, seconds)."""
    import salpakan as engine  # imported on the worker

    def make(kind: str, agent_seed: int):
        if kind == "random":
            return engine.Random(agent_seed)
        if kind == "greedy":
            return engine.Greedy(agent_seed)
        return engine.Ismcts(agent_seed, budget)

    started = time.perf_counter()
    game = engine.Game(seed=seed, first="white" if seed % 2 == 0 else "black")
    players = {"white": make(white, seed), "black": make(black, seed + 1)}
    trackers = {side: game.tracker(side) for side in players}
    while game.status.ongoing and game.ply < 1000:
        side = game.side_to_move
        report = game.play(players[side].choose(trackers[side]))
        for tracker in trackers.values():
            tracker.observe(report)
    return white, black, game.status.winner, game.ply, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", default=os.environ.get("RAY_ADDRESS"))
    parser.add_argument("--games", type=int, default=20, help="games per ordered pairing")
    parser.add_argument("--budget", type=int, default=3000, help="Ismcts iterations a move")
    args = parser.parse_args()

    ray.init(address=args.address, include_dashboard=False, log_to_driver=False)
    resources = ray.cluster_resources()
    print(f"Ray cluster: {int(resources.get('CPU', 0))} CPUs on {len(ray.nodes())} node(s)")
    tasks = [
        play.remote(white, black, seed, args.budget)
        for white, black in itertools.permutations(AGENTS, 2)
        for seed in range(args.games)
    ]
    score = {(a, b): [0, 0, 0] for a, b in itertools.combinations(AGENTS, 2)}
    started = time.perf_counter()
    pending, done = tasks, 0
    while pending:
        ready, pending = ray.wait(pending, num_returns=min(len(pending), 8))
        for white, black, winner, plies, seconds in ray.get(ready):
            done += 1
            a, b = (white, black) if (white, black) in score else (black, white)
            if winner is None:
                score[(a, b)][1] += 1
            elif (winner == "white") == (white == a):
                score[(a, b)][0] += 1
            else:
                score[(a, b)][2] += 1
        print(f"\r{done}/{len(tasks)} games, {time.perf_counter() - started:.0f} s", end="")
    print()
    print(f"{'pairing':<22} {'W':>4} {'D':>4} {'L':>4}  score (95% interval)")
    points = [[0.0] * len(AGENTS) for _ in AGENTS]
    games = [[0.0] * len(AGENTS) for _ in AGENTS]
    for (a, b), (w, d, l) in score.items():
        mean, low, high = evaluation.score(w, d, l)
        print(f"{a + ' vs ' + b:<22} {w:>4} {d:>4} {l:>4}  {100 * mean:5.1f}% [{100 * low:.1f}, {100 * high:.1f}]")
        i, j = AGENTS.index(a), AGENTS.index(b)
        points[i][j], points[j][i] = w + d / 2, l + d / 2
        games[i][j] = games[j][i] = w + d + l
    print()
    for (a, b), (w, d, l) in score.items():
        print(evaluation.verdict(a, b, w, d, l))
    ratings, errors = evaluation.elo(points, games)
    print(f"\n{'agent':<10} Elo (95% interval), {AGENTS[0]} anchored at 0")
    for name, rating, error in zip(AGENTS, ratings, errors):
        interval = "(anchor)" if error == 0 else f"[{rating - 1.96 * error:.0f}, {rating + 1.96 * error:.0f}]"
        print(f"{name:<10} {rating:6.0f} {interval}")
    ray.shutdown()


if __name__ == "__main__":
    main()
