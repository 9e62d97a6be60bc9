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
    """Move text that is not a move at all (syntax error, unknown square).

    >>> import draughts
    >>> draughts.Board().parse_pdn("32/28")
    Traceback (most recent call last):
    ...
    draughts.errors.InvalidMoveError: not a move: '32/28' in W:W31-50:B1-20
    """


class IllegalMoveError(ValueError):
    """A well-formed move that is not legal in the position.

    >>> import draughts
    >>> try:
    ...     draughts.Board("W:W22,30:B18", variant="english").parse_pdn("30-26")
    ... except draughts.IllegalMoveError as error:
    ...     print(error)
    illegal move '30-26' in W:W22,30:B18: capture is mandatory: 22x15
    """


class AmbiguousMoveError(ValueError):
    """Move text that matches more than one legal move.

    Its ``candidates`` attribute holds the matching moves.

    >>> import draughts
    >>> board = draughts.Board("W:WK19:B11,12,13,25,32,42")
    >>> try:
    ...     board.parse_pdn("19x47")
    ... except draughts.AmbiguousMoveError as error:
    ...     print(len(error.candidates))
    2
    """

    def __init__(self, message: str, candidates: tuple[object, ...] = ()) -> None:
        super().__init__(message)
        self.candidates = candidates


class InvalidFenError(ValueError):
    """A FEN that cannot describe a position of the variant.

    >>> import draughts
    >>> draughts.Board("W:W31,31:B1")
    Traceback (most recent call last):
    ...
    draughts.errors.InvalidFenError: square 31 is listed twice in 'W:W31,31:B1'
    """
