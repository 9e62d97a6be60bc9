"""Moves as action indices: a fixed index space per variant.

With ``n`` playing squares numbered 1 to ``n``, a move from square ``a`` to
square ``b`` has the index::

    slot * n * n + (a - 1) * n + (b - 1)

``slot`` is 0 for nearly every move. It tells apart the legal moves that
share an origin and a destination and capture different pieces (two routes of
a king round a block of pieces, a Turkish man's loop): those moves, ranked by
their sorted captured squares, take slots 0, 1, ... in that order. There are
:data:`SLOTS` slots, so :func:`action_space_size` is ``SLOTS * n * n``.

Why this scheme: a policy network sees one fixed output per (origin,
destination) pair, the same pair in every position, which is what a move
means to a player and what a network learns best; the slots cost nothing
until a position needs them. It is a bijection on each position's legal
moves: the library's identity of a move is its origin, destination and set
of captured squares, and within one (origin, destination) pair the sets are
distinct and ranked. A whole move is one action, so an environment step is
one move of the game and a game record gives one index per move; the
alternative, a capture chain as a sequence of single jumps (one action per
jump), would make a move several steps, and two routes that capture the same
set (one move for the rules) different sequences.

>>> import draughts
>>> board = draughts.Board("W:WK47:B9,12,33", variant="international")
>>> [(board.pdn(m), move_to_index(board, m)) for m in board.legal_moves]
[('47x17', 2316), ('47x21', 2320), ('47x26', 2325)]
>>> index_to_move(board, 2320)
Move(47, 21, captures=(33, 9, 12), path=(47, 20, 3, 21))
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

from draughts import _core
from draughts.board import Board
from draughts.errors import IllegalMoveError
from draughts.move import Move
from draughts.variant import Variant, find_variant

__all__ = [
    "SLOTS",
    "action_space_size",
    "index_to_move",
    "legal_indices",
    "legal_mask",
    "move_to_index",
]

SLOTS = 8
"""How many legal moves may share an origin and a destination. In random
games of every preset the most seen is 3 (Turkish); a position with more
raises :class:`ValueError` rather than give two moves one index.

>>> SLOTS
8
"""


@functools.lru_cache(maxsize=64)
def _squares(variant: Variant) -> int:
    return int(_core.tables(variant).square_count)


def action_space_size(variant: Variant | str | int) -> int:
    """The number of action indices of ``variant``: ``SLOTS * n * n`` for
    ``n`` playing squares.

    >>> action_space_size("international"), action_space_size("english")
    (20000, 8192)
    """
    n = _squares(find_variant(variant))
    return SLOTS * n * n


def _key(move: Move) -> tuple[int, ...]:
    return tuple(sorted(move.captures))


def legal_indices(board: Board) -> list[int]:
    """The action index of each legal move, in the order of
    :attr:`Board.legal_moves <draughts.Board.legal_moves>`.

    >>> import draughts
    >>> legal_indices(draughts.Board(variant="english"))
    [268, 269, 301, 302, 334, 335, 367]

    :raises ValueError: if more than :data:`SLOTS` legal moves share an
        origin and a destination.
    """
    return indexed(board)[1]


def indexed(board: Board) -> tuple[list[Move], list[int]]:
    """The legal moves and their action indices, in the board's order."""
    moves = list(board.legal_moves)
    n = _squares(board.variant)
    base = [(m.from_square - 1) * n + m.to_square - 1 for m in moves]
    if len(set(base)) == len(base):
        return moves, base
    groups: dict[int, list[int]] = {}
    for i, b in enumerate(base):
        groups.setdefault(b, []).append(i)
    for b, members in groups.items():
        if len(members) == 1:
            continue
        if len(members) > SLOTS:
            raise ValueError(
                f"{len(members)} legal moves from {moves[members[0]].from_square} to "
                f"{moves[members[0]].to_square} in {board.fen()} ({board.variant.name}): "
                f"the action index has {SLOTS} slots"
            )
        members.sort(key=lambda i: _key(moves[i]))
        for slot, i in enumerate(members):
            base[i] = b + slot * n * n
    return moves, base


def legal_mask(board: Board, *, out: npt.NDArray[np.bool_] | None = None) -> npt.NDArray[np.bool_]:
    """A boolean array of :func:`action_space_size`, true exactly at the
    indices of the legal moves (written into ``out`` when given).

    >>> import draughts
    >>> mask = legal_mask(draughts.Board(variant="english"))
    >>> mask.shape, int(mask.sum())
    ((8192,), 7)
    """
    size = action_space_size(board.variant)
    if out is None:
        out = np.zeros(size, dtype=np.bool_)
    elif out.shape != (size,) or out.dtype != np.bool_:
        raise ValueError(f"out must be a bool array of shape ({size},), not {out.dtype} {out.shape}")
    else:
        out[:] = False
    out[legal_indices(board)] = True
    return out


def move_to_index(board: Board, move: Move) -> int:
    """The action index of the legal ``move``.

    >>> import draughts
    >>> board = draughts.Board(variant="english")
    >>> move_to_index(board, board.parse_pdn("11-15"))
    334

    :raises IllegalMoveError: if ``move`` is not legal on ``board``.
    """
    n = _squares(board.variant)
    try:
        between = board.moves_between(move.from_square, move.to_square)
    except ValueError:
        between = []
    if move not in between:
        raise IllegalMoveError(f"{move!r} is not legal in {board.fen()} ({board.variant.name})")
    slot = sorted(_key(m) for m in between).index(_key(move)) if len(between) > 1 else 0
    if slot >= SLOTS:
        raise ValueError(
            f"{len(between)} legal moves from {move.from_square} to {move.to_square} in "
            f"{board.fen()} ({board.variant.name}): the action index has {SLOTS} slots"
        )
    return slot * n * n + (move.from_square - 1) * n + move.to_square - 1


def index_to_move(board: Board, index: int) -> Move:
    """The legal move with action index ``index`` (the inverse of
    :func:`move_to_index`).

    >>> import draughts
    >>> index_to_move(draughts.Board(variant="english"), 334)
    Move(11, 15)

    :raises IllegalMoveError: if no legal move has that index.
    :raises ValueError: if ``index`` is out of range.
    """
    n = _squares(board.variant)
    size = SLOTS * n * n
    if not 0 <= index < size:
        raise ValueError(f"action {index!r} is outside 0..{size - 1} ({board.variant.name})")
    slot, rest = divmod(int(index), n * n)
    origin, destination = divmod(rest, n)
    between = board.moves_between(origin + 1, destination + 1)
    if slot < len(between):
        if len(between) > 1:
            between.sort(key=_key)
        return between[slot]
    raise IllegalMoveError(
        f"action {index} ({origin + 1} to {destination + 1}, slot {slot}) is not a legal move "
        f"in {board.fen()} ({board.variant.name})"
    )
