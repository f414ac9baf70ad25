"""Game of the Generals (Salpakan): the rules engine in Python.

A thin shell over the Rust crate ``salpakan``: exact rules, per-side views that never leak a
hidden rank, exact beliefs and posterior samples, observation tensors and action masks for
learning, the engine's agents (``Random``, ``Greedy``, ``Ismcts``, the ladder's ``Level``, and
``Learned``, a policy trained by PPO), and ``VecEnv``, a batch of games stepped in one call.
The PettingZoo and Gymnasium environments are in ``salpakan.pettingzoo`` and ``salpakan.gym``
(``pip install salpakan[pettingzoo]``).

Sides are ``0``/``"white"`` and ``1``/``"black"``; squares are indices ``(row - 1) * 9 + file``
(a1 = 0, i8 = 71) or names (``"e4"``); ranks are values 0 (Flag), 1 (Private) … 13 (5-Star
General), 14 (Spy); action ids are ``from * 4 + direction`` (0 up, 1 down, 2 left, 3 right),
0..288.
"""

from ._salpakan import (
    ARMY,
    NO_PIECE,
    NUM_ACTIONS,
    NUM_RANKS,
    NUM_SQUARES,
    OBSERVATION_SHAPE,
    OBSERVATION_VERSION,
    TEXT_FORMAT,
    Game,
    Greedy,
    Ismcts,
    Level,
    Move,
    PublicView,
    Random,
    Replay,
    Report,
    Setup,
    Status,
    Tracker,
    VecEnv,
    View,
    __version__,
    captures_flag,
    challenge,
    rank_code,
    rank_name,
    setup_zone,
)
from .errors import (
    ArgumentError,
    Error,
    CommitmentError,
    GameOverError,
    IllegalMoveError,
    ObserveError,
    SetupError,
    TextError,
)
from .learned import Learned

__all__ = [
    "ARMY",
    "NO_PIECE",
    "NUM_ACTIONS",
    "NUM_RANKS",
    "NUM_SQUARES",
    "OBSERVATION_SHAPE",
    "OBSERVATION_VERSION",
    "TEXT_FORMAT",
    "ArgumentError",
    "Error",
    "Game",
    "GameOverError",
    "Greedy",
    "IllegalMoveError",
    "Ismcts",
    "Learned",
    "CommitmentError",
    "Level",
    "Move",
    "ObserveError",
    "PublicView",
    "Random",
    "Replay",
    "Report",
    "Setup",
    "SetupError",
    "Status",
    "TextError",
    "Tracker",
    "VecEnv",
    "View",
    "__version__",
    "captures_flag",
    "challenge",
    "rank_code",
    "rank_name",
    "setup_zone",
]
