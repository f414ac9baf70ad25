"""An engine of the Salpakan engine protocol (docs/ENGINES.md) in Python: the package's agents
choosing from what a player may know, on standard input and output, for any host.

    cargo run --release -p salpakan-engine --bin salpakan-host -- \\
        --white 'python3 python/examples/sep_engine.py greedy' --black agent:level-2 --games 2

It keeps its side's Tracker from the host's lines alone (its own formation, the enemy's
squares, each ply's public move and announcement) and asks the agent for a move on `go`. Its
formations are drawn from 64 bits of the operating system's generator, never a clock.
"""

from __future__ import annotations

import os
import sys

import salpakan

AGENTS = {"random": salpakan.Random, "greedy": salpakan.Greedy}


def status_of(token: str) -> salpakan.Status:
    """The status a status text names: `-`, `white:flag-captured`, `draw:move-limit`, ..."""
    if token == "-":
        return salpakan.Status("ongoing")
    who, _, reason = token.partition(":")
    if who == "draw":
        return salpakan.Status("drawn", None, reason)
    return salpakan.Status("won", who, reason)


class Engine:
    """One engine: the agent, and the game in play as this side knows it."""

    def __init__(self, agent: str, seed: int) -> None:
        self.name = agent
        self.seed = seed
        self.agent = AGENTS[agent](seed)
        self.games = 0
        self.side = "white"
        self.first = "white"
        self.rows = 3
        self.limit = 0
        self.own: salpakan.Setup | None = None
        self.tracker: salpakan.Tracker | None = None

    def answer(self, words: list[str]) -> list[str]:
        """The lines that answer the host's line `words`."""
        command, args = words[0], words[1:]
        if command == "sep":
            return [f"id name python {self.name}", "id author the salpakan examples", "sepok"]
        if command == "newgame":
            self.side, self.first = args[0], args[1]
            self.rows, self.limit = int(args[2]), int(args[3])
            self.games += 1
            self.tracker = None
            return ["ready"]
        if command == "formation":
            seed = (self.seed + self.games * 0x9E3779B97F4A7C15) % 2**64
            self.own = salpakan.Setup.random(self.side, seed, setup_rows=self.rows)
            return [f"formation {self.own}"]
        if command == "start" and self.own is not None:
            self.tracker = salpakan.Tracker(self.own, args, self.first, self.rows, self.limit)
            return []
        if command == "ply" and self.tracker is not None:
            outcome = args[1] if "x" in args[0] else None
            self.tracker.observe(salpakan.Report(args[0], outcome, status_of(args[-1])))
            return []
        if command == "go" and self.tracker is not None:
            return [f"move {self.agent.choose(self.tracker)}"]
        if command == "go":
            return ["resign"]
        return []


def main(argv: list[str]) -> int:
    agent = argv[0] if argv else "greedy"
    if agent not in AGENTS:
        print(f"usage: sep_engine.py [{'|'.join(AGENTS)}]", file=sys.stderr)
        return 2
    engine = Engine(agent, int.from_bytes(os.urandom(8), "little"))
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "quit":
            return 0
        try:
            said = engine.answer(words)
        except Exception as e:  # a line it cannot follow: said, and the game goes on
            said = [f"info {type(e).__name__}: {e}".replace("\n", " ")[:1000]]
        for out in said:
            print(out, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
