"""The cross-binding table (tests/data/bindings.txt at the repository's root) through the
Python package: every row is accepted or refused as the table says, with the exception class
of the row's error kind. The crate decides the table (tests/bindings.rs); the C ABI and the
npm package run the same rows."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import salpakan

TABLE = Path(__file__).resolve().parents[2] / "tests" / "data" / "bindings.txt"

KINDS = {
    salpakan.ArgumentError: "argument",
    salpakan.SetupError: "setup",
    salpakan.IllegalMoveError: "illegal-move",
    salpakan.GameOverError: "game-over",
    salpakan.TextError: "text",
    salpakan.ObserveError: "observe",
    salpakan.CommitmentError: "commitment",
}
SALTS = ("000102030405060708090a0b0c0d0e0f", "101112131415161718191a1b1c1d1e1f")
AGENTS = {"random": lambda: salpakan.Random(1), "greedy": lambda: salpakan.Greedy(1),
          "ismcts": lambda: salpakan.Ismcts(1, 100)}


def rows():
    for number, line in enumerate(TABLE.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        call, expect = line.split(" -> ")
        op, *words = call.split()
        yield pytest.param(op, words, expect.strip(), id=f"line {number}: {call}")


def fixture(**kwargs):
    return salpakan.Game(seed=1, **kwargs)


def text(value, own):
    return own if value == "@fixture" else value


def run(op, words):
    args = [json.loads(w) for w in words] if op not in ("cells", "typed-cells") else words
    game = fixture()
    if op == "first":
        fixture(first=args[0])
    elif op == "move":
        game.play(salpakan.Move(args[0], args[1]))
    elif op == "notation":
        game.play(args[0])
    elif op == "action":
        game.play_action(args[0])
    elif op in ("cells", "typed-cells"):
        cells = list(game.setup("white").cells())
        for word in args:
            key, value = word.split("=")
            if key == "len":
                n = int(value)
                cells = (cells + [255] * n)[:n]
            else:
                square = (int(key[1]) - 1) * 9 + "abcdefghi".index(key[0])
                cells[square] = json.loads(value)
        if op == "typed-cells":
            bytes_only = all(isinstance(v, int) and 0 <= v <= 255 for v in cells)
            cells = np.array(cells, dtype=np.uint8 if bytes_only else np.float64)
        salpakan.Game.from_cells(cells, game.setup("black").cells())
    elif op == "rules":
        fixture(setup_rows=args[0], move_limit=args[1])
    elif op == "challenge":
        salpakan.challenge(args[0], args[1])
    elif op == "agent":
        agent = AGENTS[args[0]]()
        if args[1] == "turn":
            agent.choose_in(game, "white")
        elif args[1] == "other":
            agent.choose_in(game, "black")
        elif args[1] == "over":
            game.resign("white")
            agent.choose_in(game, "black")
        else:
            agent.choose_in(salpakan.Game.from_text(game.to_text()), "white")
    elif op == "after-end":
        game.resign("white")
        {"play": lambda: game.play("e3-e4"), "resign": lambda: game.resign("black"),
         "draw": game.agree_draw, "time": lambda: game.lose_on_time("black"),
         "abandoned": lambda: game.abandon("black"), "both-left": game.abandon_by_both}[args[0]]()
    elif op == "both-left":
        status = game.abandon_by_both()
        assert status == game.status and (status.state, status.winner, status.reason) == ("drawn", None, "abandoned")
    elif op == "end":
        end = {"time": game.lose_on_time, "abandoned": game.abandon}[args[0]]
        status = end(args[1])
        assert status == game.status and status.reason == args[0] and status.winner is not None
    elif op == "commit":
        assert len(game.commit(args[0], args[1])) == 64
    elif op == "verify":
        if args[0] in ("@committed", "@forged"):
            for side, salt in zip(("white", "black"), SALTS):
                game.commit(side, salt)
                game.open_commitment(side, bytes.fromhex(salt))
            record = game.record()
            if args[0] == "@forged":
                record = record.replace('[BlackSalt "10', '[BlackSalt "00')
        else:
            record = text(args[0], game.record())
        salpakan.Game.from_record(record).verify_commitments()
    elif op == "record":
        salpakan.Game.from_record(text(args[0], game.record()))
    elif op == "position":
        salpakan.Game.from_text(text(args[0], game.to_text()))
    elif op == "beliefs":
        if args[0] == "from-text":
            salpakan.Game.from_text(game.to_text()).beliefs("white")
        else:
            game.beliefs(args[0])
    elif op == "replay":
        if args[0] == "@position":
            record = salpakan.Game.from_text(game.to_text()).record()
        else:
            record = text(args[0], game.record())
        salpakan.Replay.from_record(record)
    elif op in ("replay-beliefs", "replay-odds"):
        game.play("e3-e4")
        replay = salpakan.Replay(game)
        if op == "replay-odds":
            assert replay.odds(args[0]) is None
        else:
            beliefs = replay.beliefs(args[0], args[1])
            assert beliefs.shape == (72, 15)
    else:
        raise AssertionError(f"unknown operation {op}")


@pytest.mark.parametrize("op, words, expect", list(rows()))
def test_the_package_accepts_and_refuses_the_row_as_the_table_says(op, words, expect):
    try:
        run(op, words)
        got = "ok"
    except salpakan.Error as error:
        got = next(kind for cls, kind in KINDS.items() if isinstance(error, cls))
    assert got == expect


def test_the_table_has_every_kind():
    kinds = {expect for _, _, expect in (p.values for p in rows())}
    assert kinds == {"ok", *KINDS.values()}
