"""A dataset's positions in compact form, and their observations in NumPy.

:class:`draughts.ml.Dataset` keeps a position as a byte per playing square
(what stands there: 0 empty, 1 a white man, 2 a white king, 3 a black man, 4
a black king), Black to move, the values of the rule planes (one number
each: those planes are constant) and the king-move counts of variants with a
king-move limit: 45 bytes a position in English draughts where its
observation takes 2,048 (and 71 against 4,000 in International draughts).
Writing the observations of a whole corpus at once cost more than reading
it: 5 of the 5.7 seconds of the OCA's 1,158,096 English positions went into
the first writes of 2.26 GB of memory (2026-12-05).

A byte per square, not bitboards, because the observations are made from
it with one gather through the square's cell: no bits to unpack, and a row
reads as the board. The colours stay White's and Black's and the board is
not turned: the observation turns it (with ``perspective``) as
:func:`~draughts.ml.encode` does, so that a row is the position whatever the
view.

Here the positions are read from boards' states (the reader's rows) and
from observations (self-play's), and expanded in NumPy where the C
expansion (``expand`` in ``draughts/ml/_native/ml_dataset.c``) does not run.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from draughts.ml.encoding import Layout, Observation, State

Compact = tuple[
    npt.NDArray[np.uint8], npt.NDArray[np.bool_], npt.NDArray[np.float32], npt.NDArray[np.uint8]
]
"""Rows of compact positions: pieces ``(n, squares)``, Black to move
``(n,)``, rule values ``(n, rule planes)``, king moves ``(n, 2, 2)`` (per
colour, White first: the square of the king it moved in a row, 0 for none,
and how many times)."""


def empty(lay: Layout, count: int) -> Compact:
    """``count`` rows of zeros (no piece, White to move, no rule count)."""
    return (
        np.zeros((count, len(lay.bits)), dtype=np.uint8),
        np.zeros(count, dtype=np.bool_),
        np.zeros((count, lay.rule_planes), dtype=np.float32),
        np.zeros((count, 2, 2), dtype=np.uint8),
    )


def from_states(lay: Layout, states: Sequence[State]) -> Compact:
    """The compact rows of ``states``, read with no viewer
    (:meth:`Layout.state` with ``viewer=None``: the colours White's and
    Black's)."""
    count = len(states)
    raw = np.frombuffer(b"".join(s[0] for s in states), dtype=np.uint8)
    bits = np.unpackbits(raw.reshape(count, 4, lay.nbytes), axis=2, bitorder="little")
    # (boards, 4 kinds, squares): the kinds in the state's order, White's men
    # and kings then Black's, are the codes 1 to 4.
    kinds = bits[:, :, lay.bits]
    pieces = (kinds * np.arange(1, 5, dtype=np.uint8)[None, :, None]).sum(axis=1, dtype=np.uint8)
    black = np.fromiter((s[1] for s in states), dtype=np.bool_, count=count)
    values = np.array([s[3] for s in states], dtype=np.float32).reshape(count, lay.rule_planes)
    kings = np.zeros((count, 2, 2), dtype=np.uint8)
    for i, state in enumerate(states):
        for colour, square, value in state[4]:
            kings[i, colour] = (square, round(value * lay.king_limit))
    return pieces, black, values, kings


def from_observations(lay: Layout, observations: Observation, perspective: bool) -> Compact:
    """The compact rows of observations made with ``perspective`` (the
    inverse of :func:`expand`)."""
    count = len(observations)
    hw = lay.height * lay.width
    flat = observations.reshape(count, lay.shape[0], hw)
    black = flat[:, 4, 0] > 0
    turned = black & perspective
    cells = np.where(turned[:, None], lay.turned_cells, lay.cells)  # (rows, squares)
    rows = np.arange(count)[:, None]
    pieces = np.zeros((count, len(lay.bits)), dtype=np.uint8)
    for plane in range(4):
        code = np.where(turned, (plane ^ 2) + 1, plane + 1).astype(np.uint8)
        pieces += (flat[rows, plane, cells] > 0).astype(np.uint8) * code[:, None]
    values = flat[:, 6 : 6 + lay.rule_planes, 0].copy()
    kings = np.zeros((count, 2, 2), dtype=np.uint8)
    if lay.king_limit:
        square_of_cell = np.zeros(hw, dtype=np.intp)
        square_of_cell[lay.cells] = np.arange(1, len(lay.bits) + 1)
        for plane in range(2):
            found = flat[:, 6 + lay.rule_planes + plane]  # (rows, cells)
            cell = found.argmax(axis=1)
            value = found[np.arange(count), cell]
            colour = plane ^ turned.astype(np.intp)
            square = square_of_cell[np.where(turned, hw - 1 - cell, cell)]
            moved = value > 0
            kings[moved, colour[moved], 0] = square[moved]
            kings[moved, colour[moved], 1] = np.rint(value[moved] * lay.king_limit)
    return pieces, black, values, kings


def expand(lay: Layout, perspective: bool, rows: Compact, out: Observation) -> None:
    """Write the observations of compact ``rows`` into ``out``, of shape
    ``(len(rows[0]), *lay.shape)``: the planes :func:`~draughts.ml.encode`
    gives, in a handful of NumPy operations for all the rows."""
    pieces, black, values, kings = rows
    count = len(pieces)
    hw = lay.height * lay.width
    flat = out.reshape(count, lay.shape[0], hw)
    flat[...] = 0.0
    turned = black & perspective
    cells = np.where(turned[:, None], lay.turned_cells, lay.cells)  # (rows, squares)
    row, square = np.nonzero((pieces >= 1) & (pieces <= 4))
    plane = pieces[row, square].astype(np.intp) - 1
    flat[row, np.where(turned[row], plane ^ 2, plane), cells[row, square]] = 1.0
    flat[:, 4] = black[:, None]
    flat[np.arange(count)[:, None], 5, cells] = 1.0
    flat[:, 6 : 6 + lay.rule_planes] = values[:, :, None]
    if lay.king_limit:
        count_squares = len(lay.bits)
        for colour in range(2):
            square_of, moves = kings[:, colour, 0].astype(np.intp), kings[:, colour, 1]
            moved = np.flatnonzero((moves > 0) & (square_of >= 1) & (square_of <= count_squares))
            cell = cells[moved, square_of[moved] - 1]
            plane_of = 6 + lay.rule_planes + (colour ^ turned[moved].astype(np.intp))
            # The value as encode() makes it: the count over the limit in
            # double precision, then rounded to float32.
            flat[moved, plane_of, cell] = (moves[moved] / lay.king_limit).astype(np.float32)
