"""What a king sees from its square: the moves and first jumps along its
lines, remembered per arrangement of the pieces on those lines.

Walking a flying king's rays square by square costs about a microsecond
per king. The answer only depends on the king's square and on which squares
of its lines are occupied, and the same king on the same lines comes back
all the time (from one move to the next, in a search, in a perft tree), so
each answer is worked out once and then found with one dictionary look-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from draughts._core.raw import RawMove

if TYPE_CHECKING:
    from draughts._core.pure.tables import Tables

KingView = tuple[int, tuple[RawMove, ...], tuple[int, ...]]
"""What a king on one square can do, given the pieces on its lines:
``(jumpable, steps, step_ranks)``. ``jumpable`` holds the squares it would
capture on if they held enemy pieces (in each capture direction the first
piece, when the square behind it is empty), ``steps`` its non-capturing
moves as raw moves and ``step_ranks`` their places in square order (see
:class:`draughts._core.pure.tables.StepObjects`)."""
RAW_STEPS, STEP_RANKS = 1, 2
"""Where a :data:`KingView` keeps its steps as raw moves and as ranks."""

_KING_VIEWS_PER_SQUARE = 1024
"""How many views each square keeps before forgetting them all: a flying
king sees up to 2^17 arrangements of its lines on a 10x10 board, of which a
game or a search meets few."""


def new_king_view(t: Tables, origin: int, seen: int) -> KingView:
    """Work out, and remember in ``t.king_views``, the view of a king on
    ``origin`` where ``seen`` are the occupied squares of its lines."""
    ray_set = t.rays[origin]
    flying = t.flying_kings
    objects = t.step_objects
    made_raw, made_rank = objects.kings_raw[origin], objects.kings_ranks[origin]
    raws: list[RawMove] = []
    ranks: list[int] = []
    for d in t.king_move_dirs:
        for i, to in enumerate(ray_set[d]):
            if (seen >> to) & 1:
                break
            raws.append(made_raw[d][i])
            ranks.append(made_rank[d][i])
            if not flying:
                break
    jumpable = 0
    for d in t.king_capture_dirs:
        ray = ray_set[d]
        n = len(ray)
        i = 0
        if flying:
            while i < n and not (seen >> ray[i]) & 1:
                i += 1
        if i < n - 1 and (seen >> ray[i]) & 1 and not (seen >> ray[i + 1]) & 1:
            jumpable |= 1 << ray[i]
    views = t.king_views[origin]
    if len(views) >= _KING_VIEWS_PER_SQUARE:
        views.clear()
    view = views[seen] = (jumpable, tuple(raws), tuple(ranks))
    return view
