"""The evaluation statistics against the shared table (evaluation/tests/data/evaluation.txt at the
repository's root), which the crate runs too: each score's interval, each verdict, each
Bradley-Terry fit; and what callers rely on besides."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import salpakan
from salpakan.evaluation import GAMES_FOR_A_VERDICT, elo, score, verdict

TABLE = Path(__file__).resolve().parents[2] / "evaluation" / "tests" / "data" / "evaluation.txt"


def rows() -> list[tuple[str, str, str]]:
    out = []
    for line in TABLE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            call, expected = line.split(" -> ")
            op, args = call.split(" ", 1)
            out.append((op, args, expected))
    return out


@pytest.mark.parametrize("op,args,expected", rows())
def test_every_row_of_the_shared_table_holds(op: str, args: str, expected: str) -> None:
    if op == "score":
        w, d, l = (int(v) for v in args.split())
        assert score(w, d, l) == pytest.approx([float(v) for v in expected.split()], abs=1e-6)
    elif op == "verdict":
        a, b, w, d, l = args.split()
        assert verdict(a, b, int(w), int(d), int(l)) == expected
    elif op == "elo":
        points, games = (json.loads(m) for m in args.split())
        ratings, errors = elo(np.asarray(points), games)
        want = [json.loads(m) for m in expected.split()]
        assert list(ratings) == pytest.approx(want[0], abs=1e-6)
        assert list(errors) == pytest.approx(want[1], abs=1e-6)
    else:
        pytest.fail(f"unknown operation {op}")


def test_the_table_has_every_kind_of_row() -> None:
    kinds = [op for op, _, _ in rows()]
    assert all(kinds.count(kind) >= 5 for kind in ("score", "verdict", "elo"))


def test_intervals_are_honest_at_small_numbers_and_shrink_with_games() -> None:
    mean, low, high = score(0, 0, 4)
    assert (mean, low) == (0.0, 0.0) and 0.48 < high < 0.5  # four losses: not 0 ± 0
    small, large = score(30, 0, 10), score(300, 0, 100)
    assert small[0] == large[0] == 0.75
    assert math.isclose((large[2] - large[1]) * math.sqrt(10), small[2] - small[1], rel_tol=0.1)
    assert score(0, 0, 0) == (0.0, 0.0, 1.0)
    assert GAMES_FOR_A_VERDICT == 400


def test_a_fit_refuses_what_is_not_two_square_matrices() -> None:
    with pytest.raises(salpakan.ArgumentError):
        elo([[0, 1], [1]], [[0, 1], [1, 0]])
    with pytest.raises(salpakan.ArgumentError):
        elo([[0, -1], [1, 0]], [[0, 1], [1, 0]])


def test_the_modules_examples_run() -> None:
    import doctest

    import salpakan.evaluation

    assert doctest.testmod(salpakan.evaluation).failed == 0
