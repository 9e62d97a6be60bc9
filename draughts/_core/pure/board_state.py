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
- ``_stack``: one undo record per move played; ``move_stack``: the moves;
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


class BoardState:
    """A board's state, in slots (see the module's docstring)."""

    __slots__ = STATE_NAMES
