"""The native backend of :mod:`draughts._core`: the same functions as
:mod:`draughts._core.pure`, in C11 (``_native.c`` and the files beside it).

:class:`Tables` is the pure generator's :class:`~draughts._core.pure.Tables`
with the native tables loaded beside it, so that a function the native core
does not cover for a board finds everything the pure one needs. The native
core holds boards of at most :data:`MAX_SQUARES` playing squares (every
preset, and every dark-square board up to 16x16); for a bigger board its
functions pass their arguments on to the pure generator unchanged.

Importing this package raises :class:`ModuleNotFoundError` when the
extension was not built (no C compiler at install time) or cannot load
(CPython 3.12 and later refuse it in a subinterpreter: its types are static).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from draughts._core import pure, zobrist
from draughts._core.geometry import REVERSE

try:
    from draughts._core.native import _native
except ImportError as error:  # not built: a ModuleNotFoundError, as for any absent module
    raise ModuleNotFoundError(
        f"the native core cannot be imported ({error}): it was not built (no C compiler at"
        " install time), or this interpreter refuses it (a subinterpreter)",
        name="draughts._core.native._native",
    ) from error
from draughts._core.native._native import (
    MAX_SQUARES,
    BoardState,
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
from draughts._core.raw import CAPTURES_KEPT, RawMove
from draughts._options import CaptureRule
from draughts.move import Move

if TYPE_CHECKING:
    from draughts.variant import Variant

__all__ = [
    "MAX_SQUARES",
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

_native.set_pure(pure.FUNCTIONS)

# The order of draughts._core.native.core.h's RULE_ constants.
_RULE_CODES = {
    CaptureRule.MOST_PIECES: 0,
    CaptureRule.MOST_VALUE: 1,
    CaptureRule.WITH_KING: 2,
    CaptureRule.MOST_KINGS: 3,
    CaptureRule.KINGS_FIRST: 4,
}


class RuleSwitches(NamedTuple):
    """The rule switches ``Core._load`` reads, each by its name (``load.c``'s
    ``SWITCHES`` table maps the names to the C ``Rules`` struct's fields).
    All but ``padded`` are the :class:`~draughts._core.geometry.Geometry`
    attributes of the same name."""

    flying_kings: bool
    removal_at_end: bool
    reverse_in_capture: bool
    crown_and_stop: bool
    crown_and_continue: bool
    men_capture_kings: bool
    lands_directly_behind: bool
    stops_behind_king: bool
    must_land_to_continue: bool
    majority_only: bool
    padded: bool
    """Whether the native squares are the padded grid's own indices."""


class Tables(_native.Core, pure.Tables):
    """A variant's geometry with the native generator's tables (and the pure
    generator's, for boards the native core does not hold)."""

    def __init__(self, variant: Variant) -> None:
        pure.Tables.__init__(self, variant)
        if self.square_count <= MAX_SQUARES:  # else the pure generator runs
            self._load(*_table_data(self))

    def __reduce__(self) -> tuple[type[Tables], tuple[Variant]]:
        return (Tables, (self.variant,))


def _table_data(t: pure.Tables) -> tuple[object, ...]:
    """The arguments of ``Core._load``: the geometry in the native core's
    squares. Where the padded grid has at most 128 indices those are the
    indices themselves (padding included, as squares with no number), so
    that a step is one shift of the bitboard; else the playing squares in
    ascending order of internal index."""
    padded = len(t.square_of_index) <= MAX_SQUARES
    if padded:
        squares = list(range(len(t.square_of_index)))
    else:
        squares = sorted(i for i, number in enumerate(t.square_of_index) if number)
    # Where the squares are the indices, the rays are taken as they are
    # (mapping each square cost a tenth of building an 8x8 variant's tables).
    compact = {index: n for n, index in enumerate(squares)}
    if padded:
        rays: list[Any] = [t.rays[index] for index in squares]
    else:
        rays = [[[compact[i] for i in ray] for ray in t.rays[index]] for index in squares]
    dirs = (
        *t.man_move_dirs,
        *t.man_capture_dirs,
        t.king_move_dirs,
        t.king_capture_dirs,
        REVERSE,
        t.shift,
    )
    promotion = [[compact[i] for i in squares if mask >> i & 1] for mask in t.promotion_mask]
    count = len(squares) if padded else t.square_count
    switches = RuleSwitches(
        flying_kings=t.flying_kings,
        removal_at_end=t.removal_at_end,
        reverse_in_capture=t.reverse_in_capture,
        crown_and_stop=t.crown_and_stop,
        crown_and_continue=t.crown_and_continue,
        men_capture_kings=t.men_capture_kings,
        lands_directly_behind=t.lands_directly_behind,
        stops_behind_king=t.stops_behind_king,
        must_land_to_continue=t.must_land_to_continue,
        majority_only=t.majority_only,
        padded=padded,
    )
    keys = zobrist.keys(len(t.square_of_index))
    steps = t.moves.steps
    step_moves: list[Move] = [
        steps[index << 16 | to] for index in squares for ray in t.rays[index] for to in ray
    ]
    return (
        count,
        len(t.square_of_index),
        squares,
        [t.square_of_index[i] for i in squares],
        rays,
        dirs,
        promotion,
        switches,
        [_RULE_CODES[rule] for rule in t.precedence],
        t.man_value,
        t.king_value,
        [[values[i] for i in squares] for values in keys.men],
        [[values[i] for i in squares] for values in keys.kings],
        keys.black_to_move,
        step_moves,
        Move,
        RawMove,
        CAPTURES_KEPT,
    )
