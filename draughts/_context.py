"""What a :class:`~draughts.Board` needs about its variant, made once per
variant and shared: the core's tables, the FEN codec, the draw-rule tracker
and the Zobrist keys.

A board holds one reference to its :class:`VariantContext`, so copying a board
copies one reference. :func:`context` keeps the contexts of the presets for
good, and of other variants only those used most recently
(:data:`CONTEXTS_KEPT`): an older one is made again when needed, so a program
that builds variants in a loop does not keep them all alive (a context holds
up to a few hundred kilobytes of tables). A context pickles as its variant and
is rebuilt on the other side.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import TYPE_CHECKING

from draughts import _core
from draughts._core import zobrist
from draughts._draw_rules import Tracker
from draughts._fen import FenCodec

if TYPE_CHECKING:
    from draughts.variant import Variant

CONTEXTS_KEPT = 16
"""How many contexts of variants other than the presets :func:`context` keeps."""

_PRESETS: dict[Variant, VariantContext | None] = {}
"""The presets (see :func:`keep_for_good`), with their contexts once made."""


class VariantContext:
    """One variant's shared machinery. Its attributes are read by
    :meth:`Board.push <draughts.Board.push>` on every move, hence the slots."""

    __slots__ = (
        "bits",
        "core",
        "crown_and_continue",
        "crowning_squares",
        "fen",
        "keys",
        "king_limit",
        "promotion",
        "square_keys",
        "tracker",
        "variant",
    )

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.core = core = _core.tables(variant)
        """The core's per-variant tables (geometry and generator state)."""
        self.fen = FenCodec(core)
        self.tracker = Tracker(core, self.fen.start_piece_count)
        self.keys = zobrist.keys(len(core.square_of_index))
        self.square_keys = zobrist.SquareKeys(self.keys, core.index_of_square)
        # push() looks a move's squares up here: a square off the board is a
        # KeyError, cheaper than testing the range of every square first.
        self.bits = {
            square: core.bit_of_square[square] for square in range(1, core.square_count + 1)
        }
        self.promotion = core.promotion_mask
        self.crown_and_continue = core.crown_and_continue
        self.crowning_squares = core.crowning_squares
        self.king_limit = variant.king_move_limit or 0

    def __reduce__(self) -> tuple[object, tuple[Variant]]:
        return (context, (self.variant,))


def keep_for_good(variants: Iterable[Variant]) -> None:
    """Keep the contexts of ``variants`` (the presets) once made."""
    _PRESETS.update(dict.fromkeys(variants))


def context(variant: Variant) -> VariantContext:
    """The shared context of ``variant``."""
    if variant not in _PRESETS:
        return _recent(variant)
    found = _PRESETS[variant]
    if found is None:
        found = _PRESETS[variant] = VariantContext(variant)
    return found


@functools.lru_cache(maxsize=CONTEXTS_KEPT)
def _recent(variant: Variant) -> VariantContext:
    return VariantContext(variant)
