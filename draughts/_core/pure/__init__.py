"""The move generator in pure Python: the oracle any other backend of
:mod:`draughts._core` is tested against."""

from collections.abc import Callable

from draughts._core.contract import FUNCTION_NAMES
from draughts._core.pure.board_state import STATE_NAMES, BoardState
from draughts._core.pure.keyed import apply_keyed, position_key, undo_keyed
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
    "FUNCTIONS",
    "STATE_NAMES",
    "BoardState",
    "Tables",
    "apply_keyed",
    "board_moves",
    "captures",
    "find_step",
    "has_step",
    "legal_moves",
    "moves_between",
    "perft",
    "position_key",
    "steps",
    "undo_keyed",
]

FUNCTIONS: dict[str, Callable[..., object]] = {name: globals()[name] for name in FUNCTION_NAMES}
"""The contract's functions by name (:data:`draughts._core.contract.FUNCTION_NAMES`):
what the native core passes a board it does not hold on to, and what the
tests put in :mod:`draughts._core` to run on the pure generator."""
