"""The online bot example's choices that matter to its opponent: a fresh secret formation on
every run unless a seed is given, and what it tells its user."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import salpakan

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "online_bot.py"


@pytest.fixture(scope="module")
def online_bot():
    spec = importlib.util.spec_from_file_location("online_bot", EXAMPLE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def formation(online_bot, argv: list[str]) -> salpakan.Setup:
    """The formation a run with these arguments plays (a seat of White)."""
    args = online_bot.arguments(["http://127.0.0.1:1", *argv])
    seat = online_bot.Seat(args.seed)
    seat.side = "white"
    return seat.formation()


def test_two_runs_play_different_formations_unless_a_seed_is_given(online_bot) -> None:
    runs = [formation(online_bot, ["--create"]) for _ in range(20)]
    assert len({str(setup) for setup in runs}) == 20
    fixed = [formation(online_bot, ["--create", "--seed", "5"]) for _ in range(2)]
    assert fixed[0] == fixed[1] == salpakan.Setup.random("white", 5)


def test_the_result_says_whether_this_bot_won(online_bot) -> None:
    won = {"status": {"state": "won", "winner": "black", "reason": "flag-captured"}, "you": "black"}
    lost = {**won, "you": "white"}
    drawn = {"status": {"state": "drawn", "winner": None, "reason": "move-limit"}, "you": "white"}
    assert online_bot.result_line(won).startswith("result: this bot won (black)")
    assert online_bot.result_line(lost).startswith("result: this bot lost (white)")
    assert online_bot.result_line(drawn) == "result: a draw, by move-limit"
    aborted = {"t": "aborted", "v": 2, "reason": "setup-time", "side": "white", "you": "black"}
    assert online_bot.result_line(aborted) == "result: none, the game was aborted by white (setup-time)"


def test_an_aborted_game_ends_the_bots_play(online_bot) -> None:
    seat = online_bot.Seat(7)
    state = {"t": "state", "v": 0, "side": "white", "phase": "setup", "view": None, "rules": {"setup_rows": 3, "move_limit": 0}}
    assert seat.follow(state)["t"] == "setup"
    assert seat.follow({"t": "aborted", "v": 1, "reason": "abort", "side": "black"}) is None
    assert seat.over is not None and seat.over["reason"] == "abort"
    assert seat.my_move(lambda tracker: None) is None


def test_the_help_shows_every_default(online_bot, capsys) -> None:
    with pytest.raises(SystemExit):
        online_bot.arguments(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "(default: level-5)" in text and "(default: greedy)" in text


def test_an_unknown_agent_is_refused_by_name_and_every_package_agent_is_taken(online_bot, capsys) -> None:
    for name in ("level-3", "learned@0.5", "ismcts"):
        assert online_bot.arguments(["http://x", "--create", "--agent", name]).agent == name
    with pytest.raises(SystemExit):
        online_bot.arguments(["http://x", "--create", "--agent", "level-12"])
    assert "level 12: it must be 1 to 8" in capsys.readouterr().err
