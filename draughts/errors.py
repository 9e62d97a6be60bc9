"""The exceptions the library raises. All are :class:`ValueError` subclasses.

>>> import draughts
>>> issubclass(draughts.IllegalMoveError, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "AmbiguousMoveError",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
]


class InvalidMoveError(ValueError):
    """Move text that is not a move at all (syntax error, unknown square)."""


class IllegalMoveError(ValueError):
    """A well-formed move that is not legal in the position."""


class AmbiguousMoveError(ValueError):
    """Move text that matches more than one legal move.

    :attr:`candidates` holds the matching moves.
    """

    def __init__(self, message: str, candidates: tuple[object, ...] = ()) -> None:
        super().__init__(message)
        self.candidates = candidates


class InvalidFenError(ValueError):
    """A FEN that cannot describe a position of the variant."""
