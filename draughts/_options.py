"""The rule options a :class:`~draughts.Variant` is made of: directions,
capture precedence, promotion and removal (exported by :mod:`draughts.variant`).

They live apart from the :class:`~draughts.Variant` class so that the
geometry of :mod:`draughts._core` can read them without importing the board
layer.
"""

from __future__ import annotations

import enum

__all__ = ["CaptureRule", "Directions", "Promotion", "Removal"]


class Directions(enum.IntFlag):
    """Sets of directions, seen from the side that moves.

    On boards that use only the dark squares an orthogonal step goes two
    columns sideways or two rows forward (to the next dark square on that line),
    as in Frisian draughts; on boards that use every square (Turkish) it goes to
    the neighbouring square.

    >>> Directions.DIAGONAL == Directions.DIAGONAL_FORWARD | Directions.DIAGONAL_BACKWARD
    True
    """

    NONE = 0
    DIAGONAL_FORWARD = enum.auto()
    DIAGONAL_BACKWARD = enum.auto()
    ORTHOGONAL_FORWARD = enum.auto()
    ORTHOGONAL_BACKWARD = enum.auto()
    ORTHOGONAL_SIDEWAYS = enum.auto()
    DIAGONAL = DIAGONAL_FORWARD | DIAGONAL_BACKWARD
    ORTHOGONAL = ORTHOGONAL_FORWARD | ORTHOGONAL_BACKWARD | ORTHOGONAL_SIDEWAYS
    ALL = DIAGONAL | ORTHOGONAL


class CaptureRule(enum.Enum):
    """One criterion of the capture precedence, applied in order.

    A variant's :attr:`Variant.capture_precedence` lists these; among the
    capture sequences available, only those best on the first criterion stay,
    then only those best on the second among them, and so on. An empty list is
    free choice.

    >>> from draughts.variant import ITALIAN
    >>> [rule.name for rule in ITALIAN.capture_precedence]
    ['MOST_PIECES', 'WITH_KING', 'MOST_KINGS', 'KINGS_FIRST']
    """

    MOST_PIECES = "most-pieces"
    """Capture the largest number of pieces (a king counts as one)."""
    MOST_VALUE = "most-value"
    """Capture the largest value, men and kings weighted by
    :attr:`Variant.man_value` and :attr:`Variant.king_value` (Frisian)."""
    WITH_KING = "with-king"
    """Capture with a king rather than a man."""
    MOST_KINGS = "most-kings"
    """Capture the largest number of kings."""
    KINGS_FIRST = "kings-first"
    """Capture kings as early in the sequence as possible (Italian)."""


class Promotion(enum.Enum):
    """What a man does when it reaches the far row in the middle of a capture.

    >>> Promotion.PASSES.value
    'passes'
    """

    ENDS_MOVE = "ends-move"
    """It is crowned and the move ends there, even if it could jump on."""
    CONTINUES_AS_KING = "continues-as-king"
    """It is crowned at once and goes on capturing as a king (Russian)."""
    PASSES = "passes"
    """It goes on capturing as a man, and is crowned only if the move ends on
    the far row (International, Brazilian, Pool)."""


class Removal(enum.Enum):
    """When captured pieces leave the board.

    >>> Removal.AT_END.value
    'at-end'
    """

    AT_END = "at-end"
    """After the whole sequence: a jumped piece still blocks the way and cannot
    be jumped twice ("Turkish strike")."""
    IMMEDIATE = "immediate"
    """As soon as it is jumped: its square is free for the rest of the move."""
