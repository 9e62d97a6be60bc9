"""Positions as NumPy arrays: :func:`encode` and :func:`encode_batch`.

An observation is a stack of planes of the variant's board, ``(planes,
height, width)`` of ``float32``, row 0 at the top as :func:`str` of a board
draws it (Black's side, White at the bottom) and column 0 on the left:

- ``white men``, ``white kings``, ``black men``, ``black kings``: 1 where such
  a piece stands (with ``perspective=True``: the side to move's men and
  kings, then the opponent's, and the board turned half a turn when Black is
  to move, so that the side to move always plays up the array);
- ``black to move``: 1 everywhere when Black is to move (kept with
  ``perspective=True``, so that the two sides' positions stay apart);
- ``squares``: 1 on the variant's playing squares (the dark squares; every
  square in Turkish draughts);
- ``repetition`` (variants with a repetition rule): how many times the
  position has now occurred, over the rule's limit (1/3 on a first time);
- one plane per counting draw rule of the variant, in
  :attr:`Variant.draw_rules <draughts.Variant.draw_rules>` order: 0 while its
  material is not on the board, else ``(count + 1) / (count + limit + 2)``
  with the count of :meth:`Board.draw_rule_counts
  <draughts.Board.draw_rule_counts>`: a count of 0 still shows, the value
  grows with the count, is 1/2 when the count reaches the limit and stays
  below 1 (a claimable rule's count may pass its limit);
- ``white king moves``, ``black king moves`` (variants with
  :attr:`Variant.king_move_limit <draughts.Variant.king_move_limit>`,
  Frisian): on the square of the king a side has moved in a row, the number
  of those moves over the limit (with ``perspective=True``, the side to
  move's plane first).

Every value lies between 0 and 1. Two positions that differ in their
pieces, the side to move or the rule state above get different arrays.
What the arrays cannot show is the rest of the game's history: which
earlier positions may repeat later.

>>> import draughts, draughts.ml
>>> board = draughts.Board(variant="english")
>>> draughts.ml.plane_names("english")
('white men', 'white kings', 'black men', 'black kings', 'black to move', 'squares', \
'repetition', 'forty-move-rule')
>>> x = draughts.ml.encode(board)
>>> x.shape, x.dtype
((8, 8, 8), dtype('float32'))
>>> int(x[0].sum()), int(x[2].sum()), float(x[4, 0, 0])
(12, 12, 1.0)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from draughts import _core
from draughts.board import Board
from draughts.piece import BLACK, WHITE, Color
from draughts.variant import Variant, find_variant

__all__ = ["encode", "encode_batch", "observation_shape", "plane_names"]

Observation = npt.NDArray[np.float32]


State = tuple[bytes, bool, bool, tuple[float, ...], tuple[tuple[int, int, float], ...]]
"""What an observation is made of, read from a board in Python: the four
bitboards as bytes (the viewer's men and kings first), Black to move, turned,
the rule planes' values, the king-move cells (plane, square, value)."""


class Layout:
    """What the encoding needs about one variant, built once per variant.

    Observations are made in two halves: :meth:`state` reads what a board
    holds (a few microseconds of Python per board) and :meth:`fill` writes
    the planes of many boards with a handful of NumPy operations, whatever
    their number: one board at a time, the NumPy calls' overhead would cost
    about 50 us per board, 5 times the whole batched cost (OCA corpus rows,
    2026-12-04).
    """

    def __init__(self, variant: Variant) -> None:
        geometry = _core.tables(variant)
        self.variant = variant
        self.height, self.width = height, width = variant.height, variant.width
        count = geometry.square_count
        # Square n's internal bit, and its cell (row * width + column) in the
        # array, row 0 at the top, as seen by White and by Black (turned).
        self.bits = np.array(
            [geometry.index_of_square[n] for n in range(1, count + 1)], dtype=np.intp
        )
        rows, cols = np.divmod(self.bits, geometry.stride)
        self.cells = (height - 1 - rows) * width + cols
        self.turned_cells = height * width - 1 - self.cells
        self.nbytes = (int(self.bits.max()) + 8) // 8
        self.cell_of_square = np.zeros(count + 1, dtype=np.intp)
        self.cell_of_square[1:] = self.cells
        names = ["white men", "white kings", "black men", "black kings", "black to move"]
        names.append("squares")
        rules = variant.draw_rules
        self.repetition = next((r for r in rules if r.is_repetition), None)
        if self.repetition is not None:
            names.append("repetition")
        self.limits = tuple(r.limit for r in rules if not r.is_repetition)
        names += [r.termination.value for r in rules if not r.is_repetition]
        self.king_limit = variant.king_move_limit or 0
        if self.king_limit:
            names += ["white king moves", "black king moves"]
        self.names = tuple(names)
        self.shape = (len(names), height, width)
        self.rule_planes = len(names) - 6 - (2 if self.king_limit else 0)
        squares = np.zeros(height * width, dtype=np.float32)
        squares[self.cells] = 1.0
        self.squares = squares.reshape(height, width)

    def state(self, board: Board, viewer: Color | None) -> State:
        """What ``board`` shows ``viewer`` (None: White at the bottom,
        colours absolute), as :meth:`fill` takes it."""
        # The bitboards are the board's state attributes (draughts._core's
        # STATE_NAMES); reading them skips making a list of squares per
        # piece kind, which took most of the time.
        men, kings = board._men, board._kings
        first = 1 if viewer == BLACK else 0
        n = self.nbytes
        raw = b"".join(
            mask.to_bytes(n, "little")
            for mask in (men[first], kings[first], men[1 - first], kings[1 - first])
        )
        values: list[float] = []
        if self.repetition is not None:
            values.append(_occurrences(board, self.repetition.limit) / self.repetition.limit)
        for (_, count), limit in zip(board.draw_rule_counts(), self.limits, strict=True):
            values.append(0.0 if count is None else (count + 1) / (count + limit + 2))
        kings_moved: list[tuple[int, int, float]] = []
        if self.king_limit:
            # The board counts a side's king moves from its last move on (a
            # set-up starts every count at 0), so the king followed stands on
            # the destination of that side's last move.
            for plane, color in enumerate((BLACK, WHITE) if first else (WHITE, BLACK)):
                moves = board.king_moves(color)
                if moves:
                    last = board.move_stack[-2 if board.turn == color else -1]
                    kings_moved.append((plane, last.to_square, moves / self.king_limit))
        return raw, board.turn == BLACK, viewer == BLACK, tuple(values), tuple(kings_moved)

    def fill(self, states: Sequence[State], out: Observation) -> None:
        """Write the planes of ``states`` into ``out``, of shape
        ``(len(states), *shape)``."""
        count = len(states)
        flat = out.reshape(count, self.shape[0], self.height * self.width)
        flat[...] = 0.0
        raw = np.frombuffer(b"".join(s[0] for s in states), dtype=np.uint8)
        bits = np.unpackbits(raw.reshape(count, 4, self.nbytes), axis=2, bitorder="little")
        pieces = bits[:, :, self.bits]  # (boards, 4, squares)
        turned = np.fromiter((s[2] for s in states), dtype=np.bool_, count=count)
        cells = np.where(turned[:, None], self.turned_cells, self.cells)  # (boards, squares)
        rows = np.arange(count)[:, None, None]
        flat[rows, np.arange(4)[None, :, None], cells[:, None, :]] = pieces
        out[:, 4] = np.fromiter((s[1] for s in states), dtype=np.float32, count=count)[
            :, None, None
        ]
        out[:, 5] = np.where(turned[:, None, None], self.squares[::-1, ::-1], self.squares)
        if self.rule_planes:
            values = np.array([s[3] for s in states], dtype=np.float32)
            out[:, 6 : 6 + self.rule_planes] = values[:, :, None, None]
        if self.king_limit:
            base = 6 + self.rule_planes
            for i, state in enumerate(states):
                for plane, square, value in state[4]:
                    cell = self.cell_of_square[square]
                    if state[2]:
                        cell = self.height * self.width - 1 - cell
                    flat[i, base + plane, cell] = value


def _occurrences(board: Board, limit: int) -> int:
    """How many times the position has occurred (at most ``limit``)."""
    seen = 1
    while seen < limit and board.is_repetition(seen + 1):
        seen += 1
    return seen


@functools.lru_cache(maxsize=64)
def layout(variant: Variant) -> Layout:
    """The :class:`Layout` of ``variant`` (kept for the 64 used last)."""
    return Layout(variant)


def plane_names(variant: Variant | str | int) -> tuple[str, ...]:
    """The names of the planes of ``variant``'s observations, in order (see
    the module's documentation; with ``perspective=True`` the colours read
    "side to move" and "opponent").

    >>> plane_names("frisian")[-3:]
    ('seven-move-rule', 'white king moves', 'black king moves')
    """
    return layout(find_variant(variant)).names


def observation_shape(variant: Variant | str | int) -> tuple[int, int, int]:
    """The shape of one observation of ``variant``: ``(planes, height, width)``.

    >>> observation_shape("international")
    (10, 10, 10)
    """
    shape = layout(find_variant(variant)).shape
    return (shape[0], shape[1], shape[2])


def _viewer(board: Board, perspective: bool, viewer: Color | None) -> Color | None:
    if viewer is not None:
        return viewer
    return board.turn if perspective else None


def encode(board: Board, *, perspective: bool = False, viewer: Color | None = None) -> Observation:
    """The planes of ``board`` as a new ``float32`` array of
    :func:`observation_shape` (see the module's documentation).

    ``perspective=True`` shows the board as the side to move sees it;
    ``viewer`` as that colour sees it, whoever is to move (what a two-player
    environment shows the player who waits).

    >>> import draughts
    >>> board = draughts.Board("W:W28:BK5", variant="international")
    >>> x = encode(board)
    >>> x[0].nonzero(), x[3].nonzero()  # a white man on 28, a black king on 5
    ((array([5]), array([4])), (array([0]), array([9])))
    >>> y = encode(board, perspective=True)  # White to move: nothing turns
    >>> bool((x == y).all())
    True
    >>> z = encode(board, viewer=draughts.BLACK)  # Black's men and kings first
    >>> z[1].nonzero()  # the black king on 5, turned half a turn
    (array([9]), array([0]))
    """
    lay = layout(board.variant)
    out = np.empty((1, *lay.shape), dtype=np.float32)
    lay.fill([lay.state(board, _viewer(board, perspective, viewer))], out)
    result: Observation = out[0]
    return result


def encode_batch(
    boards: Sequence[Board], *, perspective: bool = False, out: Observation | None = None
) -> Observation:
    """The planes of boards of one variant, stacked: shape ``(len(boards),
    planes, height, width)``; written into ``out`` when given.

    >>> import draughts
    >>> encode_batch([draughts.Board(), draughts.Board()]).shape
    (2, 10, 10, 10)

    :raises ValueError: for boards of different variants, an empty sequence,
        or an ``out`` of the wrong shape or type.
    """
    if not boards:
        raise ValueError("encode_batch needs at least one board")
    variant = boards[0].variant
    lay = layout(variant)
    shape = (len(boards), *lay.shape)
    if out is None:
        out = np.empty(shape, dtype=np.float32)
    elif out.shape != shape or out.dtype != np.float32:
        raise ValueError(
            f"out must be a float32 array of shape {shape}, not {out.dtype} {out.shape}"
        )
    if _core.BACKEND == "native":
        # The C encoder reads the boards' state itself: about 1 us a board
        # against 10 us for the Python reading below (benchmarks/ml.py).
        from draughts.ml._native_env import encoder

        native = encoder(variant, perspective)
        if native is not None and native.encode(list(boards), out, boards[0]._ctx) < 0:
            return out
    for i, board in enumerate(boards):
        if board.variant != variant:
            raise ValueError(
                f"board {i} plays {board.variant.name}, board 0 {variant.name}: "
                "encode_batch takes boards of one variant"
            )
    lay.fill([lay.state(b, b.turn if perspective else None) for b in boards], out)
    return out
