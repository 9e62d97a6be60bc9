"""The move-generation core: ints in, ints out.

This package is the one layer that a compiled backend replaces. Everything
above it (:class:`draughts.Board`, :mod:`draughts.pdn`, :mod:`draughts.engine`)
reaches move generation only through the names exported here:

- :func:`tables` builds a variant's per-variant object: its
  :class:`~draughts._core.geometry.Geometry` (numbering, rays, masks, rule
  switches) with whatever the backend keeps beside it. Build it once per
  variant and pass it first to every function below.
- Positions are four bitboards over that geometry's padded grid (men and
  kings of each colour) and the colour to move (0 White, 1 Black); the
  functions take them as ``color, own_men, own_kings, opp_men, opp_kings``,
  perft as ``color, white_men, black_men, white_kings, black_kings``.
- :class:`BoardState` is the base class of :class:`draughts.Board`: its
  mutable state (:data:`STATE_NAMES`). The native one also plays and takes
  back moves (``push`` and ``pop`` in C; the PDN reader's own native module,
  :mod:`draughts.pdn._native`, plays its plain lines with them, and checks
  whole games on the move generator, through the core's C API); the pure
  one leaves that to Board's Python methods.
- Moves are :class:`~draughts._core.raw.RawMove` values (internal indices);
  :func:`~draughts._core.raw.apply` plays one on the bitboards, and
  ``tables(...).moves`` (a :class:`~draughts._core.raw.MoveMaker`) turns them
  into :class:`draughts.Move` objects, the only place that does.

:data:`BACKEND` names the generator in use: the native one
(:mod:`draughts._core.native`, C11) when it was built and
``DRAUGHTS_PURE`` is not set to ``1``, else the pure-Python one
(:mod:`draughts._core.pure`), which is also the native one's oracle in the
tests. Both give the same answers to the same calls.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from draughts._core.geometry import Geometry
from draughts._core.pure.board_state import STATE_NAMES, UNDO_FIELDS, UNDO_KEY, UndoRecord
from draughts._core.raw import MoveMaker, RawMove, apply

if os.environ.get("DRAUGHTS_PURE", "") == "1":
    _native_loaded = False
else:
    try:
        from draughts._core.native import (
            BoardState,
            Tables,
            apply_keyed,
            board_moves,
            captures,
            find_step,
            has_step,
            legal_moves,
            moves_between,
            perft,
            position_key,
            steps,
            undo_keyed,
        )

        _native_loaded = True
    except ImportError:  # not built: no C compiler when it was installed
        _native_loaded = False
if not _native_loaded:
    from draughts._core.pure import (  # type: ignore[assignment]
        BoardState,
        Tables,
        apply_keyed,
        board_moves,
        captures,
        find_step,
        has_step,
        legal_moves,
        moves_between,
        perft,
        position_key,
        steps,
        undo_keyed,
    )

if TYPE_CHECKING:
    from draughts._core import native as _native_backend
    from draughts._core import pure as _pure_backend
    from draughts._core.contract import Backend
    from draughts.variant import Variant

    # mypy holds both backends to the one contract (the tests hold their
    # parameters to it at run time: tests/core/test_contract.py).
    _pure_checked: Backend = _pure_backend
    _native_checked: Backend = _native_backend

__all__ = [
    "BACKEND",
    "STATE_IN_C",
    "STATE_NAMES",
    "UNDO_FIELDS",
    "UNDO_KEY",
    "BoardState",
    "Geometry",
    "MoveMaker",
    "RawMove",
    "Tables",
    "UndoRecord",
    "apply",
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
    "tables",
    "undo_keyed",
]

BACKEND = "native" if _native_loaded else "pure"
"""Which generator runs: ``"native"`` (C11) or ``"pure"`` (pure Python)."""
STATE_IN_C = _native_loaded
"""Whether :class:`BoardState` has ``push`` and ``pop`` of its own (in C)."""


def tables(variant: Variant) -> Tables:
    """A new per-variant object of the backend for ``variant`` (callers keep
    it: see :func:`draughts._context.context`)."""
    return Tables(variant)
