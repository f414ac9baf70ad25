"""The evaluation rules: intervals, verdicts only over 400 games, Bradley-Terry Elo."""

import math

import numpy as np

from salpakan.evaluation import GAMES_FOR_A_VERDICT, elo, score, verdict


def test_the_score_counts_draws_half_and_its_interval_shrinks_with_games():
    assert score(1, 2, 1) == (0.5, score(1, 2, 1)[1])
    small = score(30, 0, 10)
    large = score(300, 0, 100)
    assert small[0] == large[0] == 0.75
    assert math.isclose(large[1] * math.sqrt(10), small[1], rel_tol=0.05)
    assert score(0, 0, 0) == (0.0, 0.0)


def test_a_verdict_needs_400_games_and_an_interval_clear_of_half():
    assert "no verdict" in verdict("a", "b", 399, 0, 0)
    assert verdict("a", "b", 300, 0, 100) == "a beats b (400 games)"
    assert verdict("a", "b", 100, 0, 300) == "b beats a (400 games)"
    assert "no significant difference" in verdict("a", "b", 205, 0, 195)
    assert GAMES_FOR_A_VERDICT == 400


def test_elo_is_anchored_and_a_75_percent_score_is_about_191_points():
    points = [[0, 100], [300, 0]]
    games = [[0, 400], [400, 0]]
    ratings, errors = elo(points, games)
    assert ratings[0] == 0 and errors[0] == 0
    assert abs(ratings[1] - 400 * math.log10(300.5 / 100.5)) < 0.5  # the one-pairing MLE
    assert 0 < errors[1] < 40
    # Three agents in order, and a sweep stays finite.
    three = elo([[0, 0, 0], [20, 0, 5], [20, 15, 0]], [[0, 20, 20], [20, 0, 20], [20, 20, 0]])[0]
    assert three[0] == 0 < three[1] < three[2] < np.inf
