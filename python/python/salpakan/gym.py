"""A Gymnasium single-agent environment: one side of Game of the Generals against a built-in
opponent, registered as ``"Salpakan-v0"``.

``gymnasium.make("salpakan.gym:Salpakan-v0", opponent="greedy")`` (Gymnasium imports this module
first), or ``gymnasium.make("Salpakan-v0", …)`` once it is imported. The opponent is ``"random"``,
``"greedy"`` or ``"ismcts"`` (with ``budget`` iterations a move, 0 for its default); it sees
only its side's information, as every engine agent does. ``side`` is ``"white"``, ``"black"``
or ``"random"`` (drawn each episode). The observation is the agent's tensor (``float32``,
``(38, 8, 9)``, values in [0, 1]); the action an action id (0..288). The legal actions are in
``info["action_mask"]`` and from ``env.action_masks()`` (the convention of maskable policy
learners). Rewards: +1 for a win, -1 for a loss, 0 otherwise. An illegal action ends the
episode with -1 (``info["illegal"]`` is True). A game cut at ``max_plies`` plies is truncated.
``render_mode="ansi"`` returns the board as the agent sees it.

Needs ``gymnasium`` (``pip install salpakan[pettingzoo]`` or ``salpakan[gymnasium]``).
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from . import (
    NUM_ACTIONS,
    OBSERVATION_SHAPE,
    Game,
    Greedy,
    IllegalMoveError,
    Ismcts,
    Random,
    _episodes,
)

__all__ = ["SalpakanEnv"]

_OPPONENTS = {"random": Random, "greedy": Greedy, "ismcts": Ismcts}


class SalpakanEnv(gymnasium.Env):
    """One side against a built-in opponent (see the module's docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 2}

    def __init__(
        self,
        opponent: str = "greedy",
        side: str = "random",
        budget: int = 0,
        setup_rows: int = 3,
        move_limit: int = 0,
        max_plies: int = 2000,
        render_mode: str | None = None,
    ):
        if opponent not in _OPPONENTS:
            raise ValueError(f"opponent {opponent!r}: choose one of {sorted(_OPPONENTS)}")
        if side not in ("white", "black", "random"):
            raise ValueError(f"side {side!r}: choose 'white', 'black' or 'random'")
        _episodes.check_render_mode(render_mode, self.metadata)
        self.opponent_name = opponent
        self.side_choice = side
        self.budget = budget
        self.setup_rows = setup_rows
        self.move_limit = move_limit
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.observation_space = spaces.Box(
            low=0.0, high=1.0, shape=OBSERVATION_SHAPE, dtype=np.float32
        )
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.game: Game | None = None
        self.side = "white"
        self._opponent = None

    def _make_opponent(self, seed: int):
        kind = _OPPONENTS[self.opponent_name]
        return kind(seed, self.budget) if kind is Ismcts else kind(seed)

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as 288 booleans."""
        return self.game.legal_action_mask()

    def _info(self, **extra):
        info = {"action_mask": self.game.legal_action_mask()}
        info.update(extra)
        return info

    def _opponent_moves(self):
        other = "black" if self.side == "white" else "white"
        while self.game.status.ongoing and self.game.side_to_move == other:
            move = self._opponent.choose_in(self.game, other)
            self.game.play(move)

    def _reward(self) -> float:
        status = self.game.status
        if status.winner is None:
            return 0.0
        return 1.0 if status.winner == self.side else -1.0

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.game = _episodes.deal(self.np_random, self.setup_rows, self.move_limit)
        if self.side_choice == "random":
            self.side = "white" if self.np_random.integers(0, 2) == 0 else "black"
        else:
            self.side = self.side_choice
        self._opponent = self._make_opponent(int(self.np_random.integers(0, 2**63 - 1)))
        self._opponent_moves()
        return self.game.observation(self.side), self._info()

    def step(self, action):
        try:
            self.game.play_action(int(action))
        except IllegalMoveError:
            observation = self.game.observation(self.side)
            return observation, -1.0, True, False, self._info(illegal=True)
        self._opponent_moves()
        terminated = not self.game.status.ongoing
        truncated = _episodes.cut(self.game, self.max_plies)
        observation = self.game.observation(self.side)
        return observation, self._reward(), terminated, truncated, self._info(illegal=False)

    def render(self):
        if self.render_mode is None or self.game is None:
            return None
        return str(self.game.view(self.side))


gymnasium.register(id="Salpakan-v0", entry_point="salpakan.gym:SalpakanEnv")
