"""A PettingZoo AEC environment for Game of the Generals, in the classic environments' style.

Agents ``"white"`` and ``"black"``. Each observation is a dict: ``"observation"``, the agent's
observation tensor (``float32``, shape ``(38, 8, 9)``, values in [0, 1], the agent playing
"up"; the planes are documented in the crate and docs/KNOWLEDGE.md), and ``"action_mask"`` (``int8``,
288 action ids ``from * 4 + direction``; all zero for the agent not to move). Rewards are +1
for the winner and -1 for the loser at the end, 0 otherwise. A game cut at ``max_plies`` plies
is truncated. ``render_mode="ansi"`` returns the board as each side sees it (enemy ranks
hidden). ``env()`` wraps ``raw_env`` as the classic environments are wrapped: an illegal move
ends the game with -1 for the player who made it.

Needs ``pettingzoo`` and ``gymnasium`` (``pip install salpakan[pettingzoo]``).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import NUM_ACTIONS, OBSERVATION_SHAPE, Game, IllegalMoveError, _episodes

__all__ = ["env", "raw_env"]


def env(**kwargs):
    """The wrapped environment (illegal moves end the game; out-of-range actions assert)."""
    environment = raw_env(**kwargs)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    environment = wrappers.OrderEnforcingWrapper(environment)
    return environment


class raw_env(AECEnv):
    """Game of the Generals as a two-player AEC environment (see the module's docstring)."""

    metadata = {
        "render_modes": ["ansi"],
        "name": "salpakan_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        setup_rows: int = 3,
        move_limit: int = 0,
        max_plies: int = 2000,
    ):
        super().__init__()
        _episodes.check_render_mode(render_mode, self.metadata)
        self.render_mode = render_mode
        self.setup_rows = setup_rows
        self.move_limit = move_limit
        self.max_plies = max_plies
        self.possible_agents = ["white", "black"]
        self.agents = self.possible_agents[:]
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low=0.0, high=1.0, shape=OBSERVATION_SHAPE, dtype=np.float32
                    ),
                    "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.game: Game | None = None
        self._rng = np.random.default_rng()

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        observation = self.game.observation(agent)
        if agent == self.agent_selection and self.game.status.ongoing:
            mask = self.game.legal_action_mask().astype(np.int8)
        else:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game = _episodes.deal(self._rng, self.setup_rows, self.move_limit)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.game.side_to_move

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0
        try:
            report = self.game.play_action(int(action))
        except IllegalMoveError as error:
            raise ValueError(f"{agent} played an illegal action {action}: {error}") from error
        self.rewards = dict.fromkeys(self.agents, 0)
        status = report.status
        if not status.ongoing:
            if status.winner is not None:
                loser = "black" if status.winner == "white" else "white"
                self.rewards[status.winner] = 1
                self.rewards[loser] = -1
            self.terminations = dict.fromkeys(self.agents, True)
        elif _episodes.cut(self.game, self.max_plies):
            self.truncations = dict.fromkeys(self.agents, True)
        for name in self.agents:
            self.infos[name] = {"report": report}
        self.agent_selection = self.game.side_to_move
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self):
        if self.render_mode is None:
            return None
        if self.game is None:
            return ""
        views = [str(self.game.view(side)) for side in self.possible_agents]
        return "\n\n".join(views)

    def close(self):
        pass
