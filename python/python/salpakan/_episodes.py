"""What the Gymnasium and PettingZoo environments share: their options checked, each
episode's game dealt from the environment's generator, and the ply cap."""

from __future__ import annotations

import numpy as np

from . import Game


def check_render_mode(render_mode: str | None, metadata: dict) -> None:
    """Refuses, by name, a render mode the environment does not offer (only ``"ansi"``)."""
    if render_mode is not None and render_mode not in metadata["render_modes"]:
        raise ValueError(f"render_mode {render_mode!r}: only 'ansi' is offered")


def deal(rng: np.random.Generator, setup_rows: int, move_limit: int) -> Game:
    """A new game: both formations dealt from a seed drawn from ``rng``, then the first mover
    drawn from it."""
    seed = int(rng.integers(0, 2**63 - 1))
    first = "white" if rng.integers(0, 2) == 0 else "black"
    return Game(seed=seed, first=first, setup_rows=setup_rows, move_limit=move_limit)


def cut(game: Game, max_plies: int) -> bool:
    """Whether an ongoing game has reached the cap of ``max_plies`` plies (0: no cap)."""
    return bool(max_plies) and game.status.ongoing and game.ply >= max_plies
