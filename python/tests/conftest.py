"""Shared helpers: the public rule vectors of the repository."""

from __future__ import annotations

import pathlib

import pytest

VECTORS = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "games.txt"


def read_vectors():
    """The games of ``tests/data/games.txt``: name, rules, setups, first mover, perft lines and
    plies (move, outcome word, status text)."""
    games, game = [], None
    for raw in VECTORS.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("game "):
            game = {"name": line[5:], "rules": {}, "perft": [], "plies": []}
        elif line == "end":
            games.append(game)
            game = None
        elif line.startswith("rules"):
            for word in line.split()[1:]:
                key, value = word.split("=")
                game["rules"][key] = int(value)
        elif line.startswith("white ") or line.startswith("black "):
            side, pieces = line.split(" ", 1)
            game[side] = pieces
        elif line.startswith("first "):
            game["first"] = line.split()[1]
        elif line.startswith("perft "):
            _, depth, nodes = line.split()
            game["perft"].append((int(depth), int(nodes)))
        else:
            move_part, status = line.split("|")
            move, announcement = move_part.split()
            game["plies"].append((move, announcement, status.strip()))
    return games


@pytest.fixture(scope="session")
def vectors():
    games = read_vectors()
    assert len(games) >= 5
    return games
