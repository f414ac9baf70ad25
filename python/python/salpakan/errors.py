"""The package's exceptions. Every error the engine raises is a ``salpakan.Error``; the ones
about a bad value (an illegal move, a bad setup, a text that does not read, a bad argument) are
also ``ValueError``s."""


class Error(Exception):
    """Any error raised by the engine; its message is the engine's."""


class IllegalMoveError(Error, ValueError):
    """A move or action the rules refuse (the message names the square and why)."""


class GameOverError(Error):
    """A move, action or report after the end of the game."""


class SetupError(Error, ValueError):
    """A setup that breaks the rules (the message names the square, rank or count)."""


class TextError(Error, ValueError):
    """A record, position text, setup text or move that does not read (line and column)."""


class ObserveError(Error, ValueError):
    """Reports a tracker cannot follow, or a game with no history to observe."""


class CommitmentError(Error, ValueError):
    """A record whose formations and salts do not give its formation commitments, or that has
    none (the message names the tag missing or the side whose commitment fails)."""


class ArgumentError(Error, ValueError):
    """An argument out of range: a side, square, rank, action or size."""


__all__ = [
    "Error",
    "IllegalMoveError",
    "GameOverError",
    "SetupError",
    "TextError",
    "ObserveError",
    "CommitmentError",
    "ArgumentError",
]
