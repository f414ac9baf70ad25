"""Game of the Generals as an OpenSpiel game: ``import salpakan.openspiel`` registers
``python_salpakan``.

    pip install ./python[openspiel]

    import pyspiel
    import salpakan.openspiel  # registers the game
    game = pyspiel.load_game("python_salpakan", {"max_plies": 1000})

Sequential, imperfect information, zero-sum, terminal reward +1/-1 (a draw, and reaching
``max_plies``, give 0 each); player 0 is White, player 1 Black. The setups are dealt by chance,
under the uniform prior the engine's beliefs are exact for: 42 chance nodes place the armies
(each piece of White's army in a fixed order on a square of White's setup zone chosen
uniformly among the free ones, then Black's), and one chance node picks the first mover.
After them a player's actions are exactly the engine's action ids (``from * 4 + direction``,
288 of them): ``legal_actions()`` is ``Game.legal_actions()``.

``state.salpakan_game`` is the underlying ``salpakan.Game`` once the setups are dealt.
``observation_tensor(p)`` is ``Game.observation(side)`` flattened; ``observation_string(p)``
the side's view text; ``information_state_string(p)`` the player's own placements, the first
mover and the public log; ``resample_from_infostate(p, sampler)`` draws the enemy's ranks
from the exact posterior (``Game.sample``), keeping ``p``'s information state.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import numpy as np
import pyspiel

from . import ARMY, NO_PIECE, NUM_ACTIONS, NUM_SQUARES, OBSERVATION_SHAPE, Game, Setup, setup_zone

SHORT_NAME = "python_salpakan"
DEFAULT_MAX_PLIES = 1000
SIDES = ("white", "black")
# Chance places the army (the package's ARMY, rank numbers in rank order) piece by piece.

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Game of the Generals (Salpakan)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"max_plies": DEFAULT_MAX_PLIES},
)


def _zone(side: int) -> list[int]:
    """The squares of `side`'s setup zone (official rules: three rows)."""
    return setup_zone(side)


class SalpakanGame(pyspiel.Game):
    """The game; `max_plies` (default 1000) ends a game in a draw."""

    def __init__(self, params: Optional[dict[str, Any]] = None) -> None:
        params = dict(params or {})
        self.max_plies = int(params.get("max_plies", DEFAULT_MAX_PLIES))
        if self.max_plies < 1:
            raise ValueError(f"max_plies must be at least 1, not {self.max_plies}")
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_SQUARES,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_plies,
        )
        super().__init__(_GAME_TYPE, info, {"max_plies": self.max_plies})

    def new_initial_state(self) -> "SalpakanState":
        return SalpakanState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "SalpakanObserver":
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return SalpakanObserver(perfect_recall)


class SalpakanState(pyspiel.State):
    """A state: the chance deals, then the engine's game."""

    def __init__(self, game: SalpakanGame) -> None:
        super().__init__(game)
        self._max_plies = game.max_plies
        self.placements: list[list[int]] = [[], []]  # squares of each side's army, in ARMY order
        self.first: Optional[int] = None
        self._game: Optional[Game] = None

    # The engine's game, once dealt.
    @property
    def salpakan_game(self) -> Optional[Game]:
        return self._game

    def _dealing(self) -> Optional[int]:
        """The side whose pieces chance is placing, 2 for the first mover, None once dealt."""
        for side in (0, 1):
            if len(self.placements[side]) < len(ARMY):
                return side
        return 2 if self.first is None else None

    def current_player(self) -> int:
        if self._game is None:
            return pyspiel.PlayerId.CHANCE
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return SIDES.index(self._game.side_to_move)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        side = self._dealing()
        if side == 2:
            return [(0, 0.5), (1, 0.5)]
        assert side is not None, "no chance node once dealt"
        free = [s for s in _zone(side) if s not in self.placements[side]]
        return [(s, 1.0 / len(free)) for s in free]

    def _legal_actions(self, player: int) -> list[int]:
        assert self._game is not None
        return [int(a) for a in self._game.legal_actions()]

    def _cells(self, side: int) -> list[int]:
        cells = [NO_PIECE] * NUM_SQUARES
        for rank, square in zip(ARMY, self.placements[side]):
            cells[square] = rank
        return cells

    def _apply_action(self, action: int) -> None:
        if self._game is not None:
            self._game.play_action(int(action))
            return
        side = self._dealing()
        if side == 2:
            self.first = int(action)
            white = Setup.from_cells("white", self._cells(0))
            black = Setup.from_cells("black", self._cells(1))
            self._game = Game(white, black, first=SIDES[self.first])
        else:
            assert side is not None and action in _zone(side) and action not in self.placements[side]
            self.placements[side].append(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            side = self._dealing()
            if side == 2:
                return f"first:{SIDES[action]}"
            return f"place:{SIDES[side]}:{action}"
        from . import Move

        return str(Move.from_action(int(action)))

    def is_terminal(self) -> bool:
        return self._game is not None and (not self._game.status.ongoing or self._game.ply >= self._max_plies)

    def returns(self) -> list[float]:
        if self._game is None or not self.is_terminal():
            return [0.0, 0.0]
        winner = self._game.status.winner
        if winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == "white" else [-1.0, 1.0]

    def information_state_string(self, player: Optional[int] = None) -> str:
        player = self.current_player() if player is None else player
        assert player in (0, 1), "an information state is a player's"
        own = " ".join(map(str, self.placements[player]))
        parts = [f"{SIDES[player]}", f"placed {own}"]
        if self.first is not None:
            parts.append(f"first {SIDES[self.first]}")
        if self._game is not None:
            log = [
                f"{r.move}{'/' + r.outcome if r.outcome else ''}" for r in self._game.history()
            ]
            parts.append("log " + " ".join(log))
            if self.is_terminal():
                parts.append(f"end {self._game.status}")
        return " | ".join(parts)

    def observation_string(self, player: Optional[int] = None) -> str:
        player = self.current_player() if player is None else player
        if self._game is None:
            return f"{SIDES[player]} placed {' '.join(map(str, self.placements[player]))}"
        return self._game.view(SIDES[player]).to_text()

    def observation_tensor(self, player: Optional[int] = None) -> list[float]:
        player = self.current_player() if player is None else player
        if self._game is None:
            return [0.0] * int(np.prod(OBSERVATION_SHAPE))
        return self._game.observation(SIDES[player]).reshape(-1).tolist()

    def resample_from_infostate(self, player: int, sampler: Callable[[], float]) -> "SalpakanState":
        """A state `player` cannot tell from this one: the enemy's ranks drawn from the exact
        posterior (``Game.sample``, seeded from `sampler`), the same information state."""
        clone = self.clone()
        if self._game is None:
            enemy = 1 - player
            # Before the deal ends, the enemy's placements so far are redrawn from the prior.
            rng = np.random.default_rng(int(sampler() * 2**63))
            squares = list(rng.permutation(_zone(enemy)))[: len(self.placements[enemy])]
            clone.placements[enemy] = [int(s) for s in squares]
            return clone
        seed = int(sampler() * 2**63)
        sample = self._game.sample(SIDES[player], seed)
        enemy = 1 - player
        setup = sample.setup(SIDES[enemy])
        assert setup is not None
        cells = setup.cells()
        # The enemy's placements in ARMY order, from the sampled formation.
        remaining = {rank: [s for s in range(NUM_SQUARES) if cells[s] == rank] for rank in set(ARMY)}
        clone.placements[enemy] = [remaining[rank].pop(0) for rank in ARMY]
        clone._game = sample
        return clone

    def __deepcopy__(self, memo: dict) -> "SalpakanState":
        other = SalpakanState.__new__(SalpakanState)
        pyspiel.State.__init__(other, self.get_game())
        other._max_plies = self._max_plies
        other.placements = [list(self.placements[0]), list(self.placements[1])]
        other.first = self.first
        other._game = self._game.clone() if self._game is not None else None
        return other

    def __str__(self) -> str:
        if self._game is None:
            placed = [len(self.placements[side]) for side in (0, 1)]
            return f"dealing: white {placed[0]}/{len(ARMY)}, black {placed[1]}/{len(ARMY)}"
        return self._game.to_text()


class SalpakanObserver:
    """The observer OpenSpiel's observation API reads: a player's observation tensor (the
    engine's 38 planes) and its view text."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(int(np.prod(OBSERVATION_SHAPE)), np.float32)
        self.dict = {"observation": self.tensor.reshape(OBSERVATION_SHAPE)}

    def set_from(self, state: SalpakanState, player: int) -> None:
        self.tensor[:] = state.observation_tensor(player)

    def string_from(self, state: SalpakanState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)


def deal(game: pyspiel.Game, rng: np.random.Generator) -> pyspiel.State:
    """A new state with every chance node played by ``rng``: both armies placed and the first
    mover drawn, so that the state waits for a player's action."""
    state = game.new_initial_state()
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=probs)))
    return state


def play_randomly(state: pyspiel.State, rng: np.random.Generator, plies: int) -> pyspiel.State:
    """Plays up to ``plies`` legal actions drawn uniformly by ``rng`` (fewer if the game ends)
    and returns the state; a mid-game position for tests and calibration."""
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


pyspiel.register_game(_GAME_TYPE, SalpakanGame)

__all__ = [
    "SHORT_NAME",
    "SalpakanGame",
    "SalpakanObserver",
    "SalpakanState",
    "deal",
    "play_randomly",
]
