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
- Moves are :class:`~draughts._core.raw.RawMove` values (internal indices);
  :func:`~draughts._core.raw.apply` plays one on the bitboards, and
  ``tables(...).moves`` (a :class:`~draughts._core.raw.MoveMaker`) turns them
  into :class:`draughts.Move` objects, the only place that does.

:data:`BACKEND` names the generator in use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from draughts._core.geometry import Geometry
from draughts._core.pure import (
    Tables,
    board_moves,
    captures,
    find_step,
    has_step,
    legal_moves,
    moves_between,
    perft,
    steps,
)
from draughts._core.raw import MoveMaker, RawMove, apply

if TYPE_CHECKING:
    from draughts.variant import Variant

__all__ = [
    "BACKEND",
    "Geometry",
    "MoveMaker",
    "RawMove",
    "Tables",
    "apply",
    "board_moves",
    "captures",
    "find_step",
    "has_step",
    "legal_moves",
    "moves_between",
    "perft",
    "steps",
    "tables",
]

BACKEND = "pure"
"""Which generator runs: ``"pure"`` (this package's pure Python)."""


def tables(variant: Variant) -> Tables:
    """A new per-variant object of the backend for ``variant`` (callers keep
    it: see :func:`draughts._context.context`)."""
    return Tables(variant)
