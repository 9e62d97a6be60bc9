"""Moves as action indices: a fixed index space per variant.

With ``n`` playing squares numbered 1 to ``n``, the action space has
``2 * n * n`` indices (:func:`action_space_size`) in two blocks:

- ``(a - 1) * n + (b - 1)``, the *move block*: the move from square ``a`` to
  square ``b``. Nearly every move has an index here, the same in every
  position;
- ``n * n + k``, the *extra block*: the legal moves that share an origin and
  a destination with another and capture other pieces (two routes of a king
  round a block of pieces, a Turkish man's loop). Among the moves of one
  (origin, destination) pair, ranked by their sorted captured squares, the
  first takes the pair's index in the move block; the others, ranked over
  the whole position by (origin, destination, sorted captured squares),
  take ``k = 0, 1, ...``.

With ``perspective=True`` the squares are numbered as the side to move sees
them: for Black, on the board turned half a turn, as
:func:`~draughts.ml.encode` shows it with ``perspective=True``; so one
network plays both sides with the same outputs. The extra block is then
ranked with the turned numbers too.

Why this scheme: a policy network sees one fixed output per (origin,
destination) pair, the same pair in every position, which is what a move
means to a player and what a network learns best; the extra block costs
little, and only positions that need it use it. It is a bijection on each
position's legal moves: the library's identity of a move is its origin,
destination and set of captured squares, and within one pair the sets are
distinct and ranked. A whole move is one action, so an environment step is
one move of the game and a game record gives one index per move; the
alternative, a capture chain as a sequence of single jumps (one action per
jump, as OpenSpiel's checkers does), would make a move several steps, and
two routes that capture the same set (one move for the rules) different
sequences. The extra block holds ``n * n`` moves, so a position would need
more than ``n * n`` legal moves beyond the first of each pair to overflow it
(:class:`ValueError`). In random games of the presets, at most three moves
were seen to share a pair (Turkish); in random set-ups, eight (a Frisian
king with eight routes to one square: seven extra moves).

>>> import draughts
>>> board = draughts.Board("W:WKh8:Ba7,d5,e7,f7,g6,h7", variant="turkish")
>>> [(board.pdn(m), move_to_index(board, m)) for m in board.legal_moves][:3]
[('h8xh6xa6xa8', 448), ('h8xh5xa5xa8', 4096), ('h8xe8', 452)]
>>> index_to_move(board, 4096).captures  # the second route from h8 to a8
(16, 28, 9)
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

from draughts import _core
from draughts.board import Board
from draughts.errors import IllegalMoveError
from draughts.move import Move
from draughts.piece import WHITE
from draughts.variant import Variant, find_variant

__all__ = [
    "action_space_size",
    "index_to_move",
    "legal_indices",
    "legal_mask",
    "move_to_index",
]


@functools.lru_cache(maxsize=64)
def _squares(variant: Variant) -> int:
    return int(_core.tables(variant).square_count)


def action_space_size(variant: Variant | str | int) -> int:
    """The number of action indices of ``variant``: ``2 * n * n`` for ``n``
    playing squares (see the module's documentation).

    >>> action_space_size("international"), action_space_size("english")
    (5000, 2048)
    """
    n = _squares(find_variant(variant))
    return 2 * n * n


@functools.lru_cache(maxsize=64)
def turned_squares(variant: Variant) -> tuple[int, ...] | None:
    """Square ``n``'s number seen from the other side (the board turned half
    a turn, as :func:`~draughts.ml.encode` turns it), at index ``n``; None
    where turning does not map the playing squares onto themselves."""
    geometry = _core.tables(variant)
    count, stride = geometry.square_count, geometry.stride
    height, width = variant.height, variant.width
    at: dict[tuple[int, int], int] = {}
    for square in range(1, count + 1):
        at[divmod(geometry.index_of_square[square], stride)] = square
    turned = [0]
    for square in range(1, count + 1):
        row, col = divmod(geometry.index_of_square[square], stride)
        other = at.get((height - 1 - row, width - 1 - col))
        if other is None:
            return None
        turned.append(other)
    return tuple(turned)


Frame = tuple[int, ...] | None
"""How squares are numbered for the index: None as they are, else a table
from each square to its number on the turned board."""


def _frame(board: Board, perspective: bool) -> Frame:
    if not perspective or board.turn == WHITE:
        return None
    turned = turned_squares(board.variant)
    if turned is None:
        raise ValueError(
            f"the {board.variant.name} board does not map onto itself turned half a turn: "
            "its action index has no perspective"
        )
    return turned


def _key(move: Move, frame: Frame = None) -> tuple[int, ...]:
    if frame is None:
        return tuple(sorted(move.captures))
    return tuple(sorted(frame[square] for square in move.captures))


def _pair(move: Move, n: int, frame: Frame) -> int:
    """The move-block index of the move's (origin, destination) pair."""
    if frame is None:
        return (move.from_square - 1) * n + move.to_square - 1
    return (frame[move.from_square] - 1) * n + frame[move.to_square] - 1


def legal_indices(board: Board, *, perspective: bool = False) -> list[int]:
    """The action index of each legal move, in the order of
    :attr:`Board.legal_moves <draughts.Board.legal_moves>`; with
    ``perspective=True``, of the moves as the side to move sees them (see
    the module's documentation).

    >>> import draughts
    >>> board = draughts.Board(variant="english")  # Black to move
    >>> legal_indices(board)
    [268, 269, 301, 302, 334, 335, 367]
    >>> legal_indices(board, perspective=True)
    [755, 754, 722, 721, 689, 688, 656]

    :raises ValueError: if the position has more moves that share an origin
        and a destination than the extra block holds.
    """
    return indexed(board, perspective)[1]


def indexed(board: Board, perspective: bool = False) -> tuple[list[Move], list[int]]:
    """The legal moves and their action indices, in the board's order."""
    moves = list(board.legal_moves)
    n = _squares(board.variant)
    frame = _frame(board, perspective)
    base = [_pair(m, n, frame) for m in moves]
    if len(set(base)) == len(base):
        return moves, base
    groups: dict[int, list[int]] = {}
    for i, b in enumerate(base):
        groups.setdefault(b, []).append(i)
    extras: list[tuple[int, tuple[int, ...], int]] = []
    for b, members in groups.items():
        if len(members) > 1:
            members.sort(key=lambda i: _key(moves[i], frame))
            extras += [(b, _key(moves[i], frame), i) for i in members[1:]]
    if len(extras) > n * n:
        raise ValueError(
            f"{len(extras)} legal moves share an origin and a destination with another in "
            f"{board.fen()} ({board.variant.name}): the extra block holds {n * n}"
        )
    extras.sort()
    for k, (_, _, i) in enumerate(extras):
        base[i] = n * n + k
    return moves, base


def legal_mask(
    board: Board, *, perspective: bool = False, out: npt.NDArray[np.bool_] | None = None
) -> npt.NDArray[np.bool_]:
    """A boolean array of :func:`action_space_size`, true exactly at the
    indices of the legal moves (written into ``out`` when given;
    ``perspective`` as for :func:`legal_indices`).

    >>> import draughts
    >>> mask = legal_mask(draughts.Board(variant="english"))
    >>> mask.shape, int(mask.sum())
    ((2048,), 7)
    """
    size = action_space_size(board.variant)
    if out is None:
        out = np.zeros(size, dtype=np.bool_)
    elif out.shape != (size,) or out.dtype != np.bool_:
        raise ValueError(
            f"out must be a bool array of shape ({size},), not {out.dtype} {out.shape}"
        )
    else:
        out[:] = False
    out[legal_indices(board, perspective=perspective)] = True
    return out


def move_to_index(board: Board, move: Move, *, perspective: bool = False) -> int:
    """The action index of the legal ``move`` (``perspective`` as for
    :func:`legal_indices`).

    >>> import draughts
    >>> board = draughts.Board(variant="english")
    >>> move = board.parse_pdn("11-15")
    >>> move_to_index(board, move), move_to_index(board, move, perspective=True)
    (334, 689)

    :raises IllegalMoveError: if ``move`` is not legal on ``board``.
    """
    try:
        between = board.moves_between(move.from_square, move.to_square)
    except ValueError:
        between = []
    if move not in between:
        raise IllegalMoveError(f"{move!r} is not legal in {board.fen()} ({board.variant.name})")
    n = _squares(board.variant)
    frame = _frame(board, perspective)
    if len(between) == 1 or _key(move, frame) == min(_key(m, frame) for m in between):
        return _pair(move, n, frame)
    moves, indices = indexed(board, perspective)
    return indices[moves.index(move)]


def index_to_move(board: Board, index: int, *, perspective: bool = False) -> Move:
    """The legal move with action index ``index`` (the inverse of
    :func:`move_to_index`, with the same ``perspective``).

    >>> import draughts
    >>> board = draughts.Board(variant="english")
    >>> index_to_move(board, 334), index_to_move(board, 689, perspective=True)
    (Move(11, 15), Move(11, 15))

    :raises IllegalMoveError: if no legal move has that index.
    :raises ValueError: if ``index`` is out of range.
    """
    n = _squares(board.variant)
    size = 2 * n * n
    if not 0 <= index < size:
        raise ValueError(f"action {index!r} is outside 0..{size - 1} ({board.variant.name})")
    index = int(index)
    frame = _frame(board, perspective)
    if index < n * n:
        origin, destination = (square + 1 for square in divmod(index, n))
        if frame is not None:  # turning twice gives the square back
            origin, destination = frame[origin], frame[destination]
        between = board.moves_between(origin, destination)
        if between:
            return min(between, key=lambda m: _key(m, frame))
        where = f"{origin} to {destination}"
    else:
        moves, indices = indexed(board, perspective)
        if index in indices:
            return moves[indices.index(index)]
        where = f"extra move {index - n * n}"
    raise IllegalMoveError(
        f"action {index} ({where}) is not a legal move in {board.fen()} ({board.variant.name})"
    )
