"""The replay of knowledge through the Python package: the same numbers as the crate (the
shared vectors of tests/data/replays.txt), and each ply's beliefs equal to those of the game
cut at that ply."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import salpakan

VECTORS = Path(__file__).resolve().parents[2] / "tests" / "data" / "replays.txt"


def games():
    """Each game of the vectors: its record and its lines by kind."""
    out = []
    for line in VECTORS.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        kind, rest = line.split(" ", 1)
        if kind == "record":
            out.append({"record": json.loads(rest), "odds": [], "luck": [], "beliefs": []})
        elif kind == "plies":
            out[-1]["plies"] = int(rest)
        else:
            out[-1][kind].append(rest.split())
    return out


GAMES = games()


def test_the_vectors_have_games_with_challenges():
    assert len(GAMES) >= 3
    assert sum(len(g["odds"]) for g in GAMES) >= 20


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g['plies']} plies")
def test_the_package_gives_the_crates_numbers(game):
    replay = salpakan.Replay.from_record(game["record"])
    assert replay.plies == game["plies"]
    challenges = {int(w[0]): w for w in game["odds"]}
    for ply in range(1, replay.plies + 1):
        odds = replay.odds(ply)
        if ply not in challenges:
            assert odds is None and replay.challenge(ply) is None
            continue
        want = [float(x) for x in challenges[ply][1:4]]
        assert odds == pytest.approx(want, abs=1e-9)
        assert replay.challenge(ply)["outcome"] == challenges[ply][4]
    for side, n, score, expected in game["luck"]:
        luck = replay.luck(side)
        assert luck["challenges"] == int(n)
        assert luck["score"] == pytest.approx(float(score), abs=1e-9)
        assert luck["expected"] == pytest.approx(float(expected), abs=1e-9)
        assert luck["luck"] == pytest.approx(float(score) - float(expected), abs=1e-9)
    weights = np.arange(1, 73, dtype=np.float64)
    for ply, side, *digest in game["beliefs"]:
        beliefs = replay.beliefs(int(ply), side)
        assert beliefs.shape == (72, 15) and beliefs.dtype == np.float64
        assert weights @ beliefs == pytest.approx([float(d) for d in digest], abs=1e-9)


def test_each_plys_beliefs_are_the_cut_games():
    record = GAMES[0]["record"]
    replay = salpakan.Replay.from_record(record)
    whole = salpakan.Game.from_record(record)
    cut = salpakan.Game.from_cells(whole.setup("white").cells(), whole.setup("black").cells(),
                                   first=whole.first_mover, move_limit=whole.move_limit)
    for ply, report in enumerate(whole.history(), 1):
        cut.play(report.move)
        if ply % 25 == 0:
            for side in ("white", "black"):
                assert np.array_equal(replay.beliefs(ply, side), cut.beliefs(side))
                assert str(replay.view(ply, side)) == str(cut.view(side))
    assert np.array_equal(replay.beliefs(replay.plies, "black"), whole.beliefs("black"))


def test_a_replay_refuses_what_it_cannot_show():
    replay = salpakan.Replay.from_record(GAMES[0]["record"])
    for call in (lambda: replay.beliefs(replay.plies + 1, "white"),
                 lambda: replay.beliefs(-1, "white"), lambda: replay.odds(0),
                 lambda: replay.odds(replay.plies + 1), lambda: replay.view(0, "red")):
        with pytest.raises(salpakan.ArgumentError):
            call()
    with pytest.raises(salpakan.TextError):
        salpakan.Replay.from_record("not a record")
