"""The rules through Python: the public rule vectors replayed announcement by announcement,
perft, and views that hide every enemy rank."""

from __future__ import annotations

import pytest

import salpakan


REASONS = {
    "flag captured": "flag-captured",
    "flag reached the far end": "flag-reached-end",
    "resignation": "resignation",
    "agreement": "agreement",
    "move limit": "move-limit",
}


def status_of(text: str):
    """The vectors' status ("white wins, flag captured", "ongoing") as the package's words."""
    if text == "ongoing":
        return ("ongoing", None, None)
    if " wins, " in text:
        winner, reason = text.split(" wins, ")
        return ("won", winner, REASONS[reason])
    assert text.startswith("draw, "), text
    return ("drawn", None, REASONS[text[len("draw, "):]])


def words(status):
    return (status.state, status.winner, status.reason)


def game_of(vector) -> salpakan.Game:
    white = salpakan.Setup.parse(vector["white"])
    black = salpakan.Setup.parse(vector["black"].lower())
    return salpakan.Game(
        white,
        black,
        first=vector["first"],
        setup_rows=vector["rules"].get("setup_rows", 3),
        move_limit=vector["rules"].get("move_limit", 0),
    )


def test_every_vector_replays_with_its_announcements(vectors):
    plies = 0
    for vector in vectors:
        game = game_of(vector)
        for depth, nodes in vector["perft"]:
            assert game.perft(depth) == nodes, (vector["name"], depth)
        for move, announcement, status in vector["plies"]:
            report = game.play(move)
            expected = None if announcement == "move" else announcement
            assert report.outcome == expected, (vector["name"], move)
            assert report.challenge == (expected is not None)
            assert words(report.status) == status_of(status), (vector["name"], move)
            plies += 1
        assert not game.status.ongoing or vector["plies"][-1][2] == "ongoing"
    assert plies >= 40


def test_status_words(vectors):
    seen = set()
    for vector in vectors:
        game = game_of(vector)
        for move, _, _ in vector["plies"]:
            game.play(move)
        status = game.status
        seen.add((status.state, status.winner, status.reason))
        assert status.state in ("ongoing", "won", "drawn")
        if status.state == "won":
            assert status.winner in ("white", "black")
            assert status.reason in ("flag-captured", "flag-reached-end")
    assert ("won", "white", "flag-reached-end") in seen
    assert ("won", "black", "flag-captured") in seen
    game = salpakan.Game(seed=1)
    assert game.resign("white").reason == "resignation"
    assert game.status.winner == "black"
    game = salpakan.Game(seed=1)
    drawn = game.agree_draw()
    assert (drawn.state, drawn.winner, drawn.reason) == ("drawn", None, "agreement")


def test_move_limit_draw():
    game = salpakan.Game(seed=4, move_limit=6)
    while game.status.ongoing:
        quiet = [m for m in game.legal_moves() if game.view(game.side_to_move).cells()[m.to_square] is None]
        game.play(quiet[0] if quiet else game.legal_moves()[0])
    status = game.status
    assert status.state in ("drawn", "won")
    if status.state == "drawn":
        assert status.reason == "move-limit"


def test_views_hide_every_enemy_rank():
    game = salpakan.Game(seed=9)
    rng_moves = 0
    while game.status.ongoing and rng_moves < 60:
        game.play(game.legal_moves()[rng_moves % len(game.legal_moves())])
        rng_moves += 1
    for side in ("white", "black"):
        view = game.view(side)
        for cell in view.cells():
            if cell is not None and cell[0] == "enemy":
                assert cell[1] is None
        own_codes = {salpakan.rank_code(r) for r in range(15)}
        hidden = 0
        for line in str(view).splitlines():
            tokens = line.split()
            if not tokens or not tokens[0].isdigit():
                continue
            for token in tokens[1:]:
                # An own piece shows its code; an enemy piece only "xx".
                assert token.upper() in own_codes or token.lower() in (".", "xx"), token
                hidden += token.lower() == "xx"
        assert hidden == sum(1 for c in view.cells() if c is not None and c[0] == "enemy")


def test_the_public_view_shows_sides_and_no_rank_whatever_the_hidden_ranks():
    game = salpakan.Game(seed=9)
    agent = salpakan.Random(9)
    while game.status.ongoing and game.ply < 60:
        game.play(agent.choose_in(game, game.side_to_move))
    public = game.public_view()
    cells = public.cells()
    assert len(cells) == 72 and set(cells) <= {None, "white", "black"}
    for square, side in enumerate(cells):
        piece = game.view("white").cells()[square]
        assert (side is None) == (piece is None)
    assert public.side_to_move == game.side_to_move and public.ply == game.ply
    assert public.status == game.status
    codes = {salpakan.rank_code(r).lower() for r in range(15)}
    assert not any(token.lower() in codes for token in str(public).split())
    assert not any(code in public.to_text().lower().split() for code in codes)
    # Other hidden ranks for either side, the same history: the same public view.
    for side in ("white", "black"):
        twin = game.sample(side, 4).public_view()
        assert twin.cells() == cells
        assert twin.to_text() == public.to_text() and str(twin) == str(public)


def test_from_cells_and_cells_round_trip():
    white = salpakan.Setup.random("white", 5)
    black = salpakan.Setup.random(1, 6)
    game = salpakan.Game.from_cells(white.cells(), black.cells(), first=1)
    assert game.setup("white") == white and game.setup(1) == black
    assert game.side_to_move == "black"
    import numpy as np

    game2 = salpakan.Game.from_cells(np.array(white.cells()), np.array(black.cells(), dtype=np.uint8))
    assert game2.setup(0) == white
    assert salpakan.challenge(14, 13) == "win"
    assert salpakan.challenge(1, 14) == "win"
    assert salpakan.rank_name(0) == "Flag" and salpakan.rank_code(14) == "SP"


def test_moves_and_actions():
    move = salpakan.Move.parse("e3-e4")
    assert str(move) == "e3-e4"
    assert move == salpakan.Move("e3", "e4") == salpakan.Move(22, 31)
    assert (move.from_square, move.to_square) == (22, 31)
    assert salpakan.Move.from_action(move.action) == move
    assert hash(move) == hash(salpakan.Move.parse("e3-e4"))
    game = salpakan.Game(seed=2)
    mask = game.legal_action_mask()
    assert mask.dtype == bool and mask.shape == (salpakan.NUM_ACTIONS,)
    assert sorted(m.action for m in game.legal_moves()) == list(mask.nonzero()[0])
    action = game.legal_moves()[0].action
    report = game.play_action(action)
    assert report.move.action == action


def test_records_ended_on_time_or_by_abandonment_keep_their_reason():
    game = salpakan.Game(seed=3)
    game.play(game.legal_moves()[0])
    record = game.record()
    for token, winner, reason in [("black:time", "black", "time"), ("white:abandoned", "white", "abandoned")]:
        ended = salpakan.Game.from_record(record.replace('[Result "-"]', f'[Result "{token}"]'))
        assert (ended.status.state, ended.status.winner, ended.status.reason) == ("won", winner, reason)
        with pytest.raises(salpakan.GameOverError):
            ended.resign("white")
