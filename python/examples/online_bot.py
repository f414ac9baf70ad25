"""Plays a seat of a salpakan-server game with one of the package's agents, or your own.

    pip install websockets
    python examples/online_bot.py http://127.0.0.1:8080 --game ID --token TOKEN [--agent greedy]
    python examples/online_bot.py http://127.0.0.1:8080 --create [--opponent ismcts] [--move-limit 100]

With --create it makes a game (against a server bot, or, with --opponent human, prints the
page link a friend opens to join) and plays the creator's seat. The bot sees only what its
seat receives: its own formation, the enemy's squares and the arbiter's announcements, which
it feeds to a `salpakan.Tracker`; it reconnects with `hello` if the socket drops. It prints
each ply and the result (whether this bot won), and exits 0 once the game is over.

Its formation and its agent's draws come from fresh secret seeds every run (64 bits of the
OS's generator each): an opponent must not be able to guess them. --seed makes a run
reproducible, for tests only.

Your own player is any function from a `salpakan.Tracker` to a move:

    import online_bot
    online_bot.run("http://127.0.0.1:8080", game, token, choose=lambda tracker: tracker.legal_moves()[0])
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import secrets
import sys
import time
import urllib.request
from typing import Any, Callable, Optional

import salpakan
from salpakan import matches

try:
    import websockets
except ImportError:  # pragma: no cover - said plainly to the user
    sys.exit("online_bot.py needs the websockets package: pip install websockets")

Choose = Callable[[salpakan.Tracker], salpakan.Move]

# The server closes a socket that sends more than 200 messages in 10 seconds; a fast bot
# paces itself below that.
BUDGET, WINDOW = 180, 10.0


class Pacer:
    """Waits before a send that would exceed BUDGET messages in any WINDOW seconds."""

    def __init__(self) -> None:
        self.sent: collections.deque[float] = collections.deque()

    async def wait(self) -> None:
        now = time.monotonic()
        while self.sent and now - self.sent[0] >= WINDOW:
            self.sent.popleft()
        if len(self.sent) >= BUDGET:
            await asyncio.sleep(WINDOW - (now - self.sent[0]))
            self.sent.popleft()
        self.sent.append(time.monotonic())


def post(url: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url.rstrip("/") + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request) as reply:
        return json.loads(reply.read())


# What the arbiter announces of a challenge, from the attacker's side.
OUTCOME_WORDS = {"win": "the attacker wins", "lose": "the attacker loses", "tie": "both pieces are removed"}


def agent(name: str, seed: int, budget: int) -> Choose:
    """The package's agent ``name`` (as ``salpakan.matches.agent`` names them), seeded."""
    return matches.agent(name, seed, budget).choose


class Seat:
    """One seat's knowledge, from the frames it receives."""

    def __init__(self, seed: Optional[int] = None) -> None:
        self.seed = seed  # None: the formation comes from a secret seed
        self.side: Optional[str] = None
        self.rules = {"setup_rows": 3, "move_limit": 0}
        self.setup: Optional[salpakan.Setup] = None
        self.tracker: Optional[salpakan.Tracker] = None
        self.v = 0
        self.over: Optional[dict[str, Any]] = None

    def formation(self) -> salpakan.Setup:
        assert self.side is not None
        if self.setup is None:
            self.setup = salpakan.Setup.random(self.side, self.seed, self.rules["setup_rows"])
        return self.setup

    def follow(self, frame: dict[str, Any]) -> Optional[dict[str, Any]]:
        """Takes one frame; returns the message to send, if any."""
        t = frame["t"]
        if "v" in frame and t != "state":
            if frame["v"] <= self.v:
                return None  # already followed (resent after a reconnect)
            self.v = frame["v"]
        if t == "state":
            self.side = frame["side"]
            if frame["phase"] == "aborted":
                self.over = {"t": "aborted", "reason": None, "side": None}
                return None
            self.rules = frame["rules"]
            if frame["phase"] == "setup" and frame["view"] is None:
                return {"t": "setup", "cells": self.formation().cells()}
            if frame["phase"] != "setup" and self.tracker is None and frame["v"] > 0:
                return {"t": "hello", "v": 0}  # replay the game from its first event
            return None
        if t == "start":
            enemy = "black" if self.side == "white" else "white"
            squares = [i for i, cell in enumerate(frame["view"]["cells"]) if cell and cell["side"] == enemy]
            self.tracker = salpakan.Tracker(
                self.formation(), squares, frame["first"], self.rules["setup_rows"], self.rules["move_limit"]
            )
        elif t == "ply":
            assert self.tracker is not None
            status = salpakan.Status(**frame["status"])
            self.tracker.observe(salpakan.Report(frame["move"], frame["outcome"], status))
            what = f"challenge: {OUTCOME_WORDS[frame['outcome']]}" if frame["challenge"] else "move"
            print(f"{frame['ply']:4d}. {frame['side']:5s} {frame['move']}  {what}")
        elif t == "over":
            self.over = frame
        elif t == "aborted":
            self.over = frame  # called off before the first ply: no result
        elif t == "error":
            print(f"refused: {frame['code']}: {frame['message']}", file=sys.stderr)
        return None

    def my_move(self, choose: Choose) -> Optional[dict[str, Any]]:
        tracker = self.tracker
        if self.over or tracker is None or not tracker.status.ongoing or tracker.side_to_move != self.side:
            return None
        return {"t": "move", "move": str(choose(tracker)), "ply": tracker.ply}


async def play(url: str, game: str, token: str, choose: Choose, seed: Optional[int] = None) -> dict[str, Any]:
    """Plays the seat of `token` in `game` to the end (its formation from `seed`, or from a
    secret seed when none is given); returns the `over` frame, with the seat's side added as
    `"you"`."""
    socket_url = url.replace("http", "ws", 1).rstrip("/") + f"/api/games/{game}/socket?token={token}"
    seat = Seat(seed)
    pacer = Pacer()
    while seat.over is None:
        try:
            async with websockets.connect(socket_url) as ws:
                if seat.v:
                    await pacer.wait()
                    await ws.send(json.dumps({"t": "hello", "v": seat.v}))
                async for text in ws:
                    frame = json.loads(text)
                    for message in (seat.follow(frame), seat.my_move(choose)):
                        if message is not None:
                            await pacer.wait()
                            await ws.send(json.dumps(message))
                    if seat.over is not None:
                        break
        except (OSError, websockets.ConnectionClosed) as e:
            if seat.over is None:
                print(f"reconnecting ({e})", file=sys.stderr)
                await asyncio.sleep(1)
    return {**seat.over, "you": seat.side}


def run(url: str, game: str, token: str, choose: Choose, seed: Optional[int] = None) -> dict[str, Any]:
    return asyncio.run(play(url, game, token, choose, seed))


def result_line(over: dict[str, Any]) -> str:
    """The end as this seat sees it: who won, and how (or that the game was aborted)."""
    if over.get("t") == "aborted":
        who = f" by {over['side']}" if over.get("side") else ""
        return f"result: none, the game was aborted{who} ({over.get('reason') or 'before its first ply'})"
    status, you = over["status"], over.get("you")
    if status["state"] == "drawn":
        return f"result: a draw, by {status['reason']}"
    verdict = "this bot won" if status["winner"] == you else "this bot lost"
    return f"result: {verdict} ({you}); {status['winner']} wins by {status['reason']}"


def arguments(argv: Optional[list[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the server, e.g. http://127.0.0.1:8080")
    parser.add_argument("--game", help="the game's id (with --token: play a seat you hold)")
    parser.add_argument("--token", help="your seat's token in that game")
    parser.add_argument("--create", action="store_true", help="make a game and play its creator's seat")
    parser.add_argument(
        "--opponent",
        default="level-5",
        help="with --create: human, or a server bot: level-1 … level-8, random, greedy, ismcts (default: %(default)s)",
    )
    parser.add_argument(
        "--move-limit",
        type=int,
        default=None,
        help="with --create: plies without a challenge that draw (default: the server's)",
    )
    parser.add_argument(
        "--agent",
        default="greedy",
        help="the package's agent this bot plays with: random, greedy, ismcts, level-N, learned or learned@T (default: %(default)s)",
    )
    parser.add_argument(
        "--budget", type=int, default=0, help="ismcts iterations a move (default: %(default)s, the agent's own)"
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="a fixed seed, for tests only (default: a fresh secret one each run)"
    )
    args = parser.parse_args(argv)
    if not args.create and not (args.game and args.token):
        parser.error("--game and --token, or --create")
    try:
        matches.agent(args.agent, 0)
    except salpakan.Error as e:
        parser.error(str(e))
    return args


def main() -> None:
    args = arguments()
    seed = args.seed if args.seed is not None else secrets.randbits(64)
    if args.create:
        body: dict[str, Any] = {"opponent": args.opponent}
        if args.move_limit:
            body["rules"] = {"move_limit": args.move_limit}
        created = post(args.url, "/api/games", body)
        game, token = created["game"], created["token"]
        print(f"game {game}: playing {created['side']} with {args.agent} against {args.opponent}")
        if created["invite"]:
            link = f"{args.url.rstrip('/')}/?join={game}&invite={created['invite']}"
            print(f"invite a friend: send them this page link: {link}")
    else:
        game, token = args.game, args.token
    # A server bot moves no sooner than the server's floor (half a second by default), so a
    # game of a few hundred plies takes minutes: it can be watched meanwhile.
    print(f"watch it in a browser: {args.url.rstrip('/')}/?watch={game} (a game takes a few minutes)")
    over = run(args.url, game, token, agent(args.agent, seed, args.budget), args.seed)
    print(result_line(over))


if __name__ == "__main__":
    main()
