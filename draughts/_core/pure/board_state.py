"""The pure backend's :class:`BoardState`: a :class:`draughts.Board`'s
mutable state in slots, with no methods of its own.

The native backend's ``BoardState`` holds the same attributes in C and adds
``push`` and ``pop`` written in C; where this class is the base,
:class:`~draughts.Board` plays moves with its own Python ``push`` and
``pop``. The attributes are Board's to read and write:

- ``_ctx``: the variant's :class:`~draughts._context.VariantContext`;
- ``_men``, ``_kings``: ``[white, black]`` bitboards over the padded grid;
- ``_turn``: 0 (White) or 1 (Black) to move;
- ``_key``: the position's Zobrist key, or None until first needed;
- ``_stack``: one undo record per move played (:data:`UNDO_FIELDS`);
  ``move_stack``: the moves;
- ``_quiet_from``, ``_starts``, ``_kmoves``: the draw rules' counts;
- ``_legal``: the cached legal moves, or None.

>>> state = BoardState()
>>> state._turn = 0
>>> state._turn
0
"""

from __future__ import annotations

STATE_NAMES = (
    "_ctx",
    "_men",
    "_kings",
    "_turn",
    "_key",
    "_stack",
    "move_stack",
    "_quiet_from",
    "_starts",
    "_kmoves",
    "_legal",
)
"""The attributes of a board's state, in the order a board is rebuilt from
them (its context first: the native state reads the variant from it)."""


UNDO_FIELDS = (
    "white_men",
    "black_men",
    "white_kings",
    "black_kings",
    "turn",
    "key",
    "quiet_from",
    "starts",
    "kmoves",
)
"""The fields of an undo record (one per move in ``_stack``), in order: the
state before the move (bitboards, side to move, Zobrist key, the draw
rules' counts). The native core names the same fields in ``board_state.c``
(its ``UNDO_`` constants, published as ``_native.UNDO_FIELDS``, which a
test compares with these). A record is a plain tuple, not a NamedTuple:
making a NamedTuple costs about five times as much as a tuple (about 570 ns
against 110 on this machine under load, ``timeit`` of both), which the
pure ``push`` would pay on every move; the fields are read by these names'
indices, such as :data:`UNDO_KEY`."""
UNDO_KEY = UNDO_FIELDS.index("key")
"""Where an undo record holds the Zobrist key of the position before the move."""

UndoRecord = tuple[
    int, int, int, int, int, int, int, tuple[int | None, ...], tuple[int, int, int, int]
]
"""The type of an undo record (see :data:`UNDO_FIELDS`)."""


class BoardState:
    """A board's state, in slots (see the module's docstring)."""

    __slots__ = STATE_NAMES
