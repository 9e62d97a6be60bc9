"""Rules of draughts (checkers, dama, dame) in their national variants.

>>> import draughts
>>> board = draughts.Board(variant="english")
>>> board.legal_moves.count()
7
>>> draughts.perft(board, 4)
1469
"""

from __future__ import annotations

from draughts._core import BACKEND as _BACKEND
from draughts.board import Board, LegalMoveGenerator, Status, perft
from draughts.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
)
from draughts.move import Move
from draughts.outcome import Outcome, Termination
from draughts.piece import BLACK, KING, MAN, WHITE, Color, Piece, PieceKind
from draughts.variant import VARIANTS, Variant, find_variant

__version__ = "0.1.0"

BACKEND: str = _BACKEND
"""Which move generator runs: ``"native"`` (the compiled C11 core, built at
install time where a C compiler exists) or ``"pure"`` (pure Python; forced
with the environment variable ``DRAUGHTS_PURE=1``). Both give the same
answers.

>>> draughts.BACKEND in ("native", "pure")
True
"""

__all__ = [
    "BACKEND",
    "BLACK",
    "KING",
    "MAN",
    "VARIANTS",
    "WHITE",
    "AmbiguousMoveError",
    "Board",
    "Color",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "LegalMoveGenerator",
    "Move",
    "Outcome",
    "Piece",
    "PieceKind",
    "Status",
    "Termination",
    "Variant",
    "find_variant",
    "perft",
]
