"""The move generator in pure Python: the oracle any other backend of
:mod:`draughts._core` is tested against."""

from draughts._core.pure.movegen import (
    board_moves,
    captures,
    find_step,
    has_step,
    legal_moves,
    moves_between,
    steps,
)
from draughts._core.pure.perft import perft
from draughts._core.pure.tables import Tables

__all__ = [
    "Tables",
    "board_moves",
    "captures",
    "find_step",
    "has_step",
    "legal_moves",
    "moves_between",
    "perft",
    "steps",
]
