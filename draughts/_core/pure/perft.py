"""Perft: count the move sequences from a position, on raw bitboards.

It walks the tree with plain ints instead of pushing moves on a
:class:`~draughts.Board`, so none of the board's bookkeeping (position keys,
draw counts, move objects) slows it down.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from draughts._core.pure import movegen as _movegen

if TYPE_CHECKING:
    from draughts._core.geometry import Tables
    from draughts.board import Board

__all__ = ["perft"]


def perft(board: Board, depth: int) -> int:
    """The number of move sequences of length ``depth`` from the position
    (routes that capture the same pieces count once).

    >>> from draughts import Board
    >>> perft(Board(variant="english"), 3)
    302
    """
    if depth < 0:
        raise ValueError(f"perft depth must be at least 0, not {depth}")
    if depth == 0:
        return 1
    return _perft(board._t, depth, board._turn, board._men[0], board._men[1],
                  board._kings[0], board._kings[1])


def _perft(t: Tables, depth: int, c: int, m0: int, m1: int, k0: int, k1: int,
           keep_duplicates: bool = False) -> int:
    """Leaf count at ``depth`` (at least 1). With ``keep_duplicates`` routes
    that capture the same pieces in another order count apart, as some
    published tables count them (the tests check both conventions). It does
    not track the Frisian king-move limit: published Frisian tables stop
    before it can matter (research notes §4.2)."""
    if c == 0:
        moves = _movegen.legal_moves(t, 0, m0, k0, m1, k1, keep_duplicates=keep_duplicates)
    else:
        moves = _movegen.legal_moves(t, 1, m1, k1, m0, k0, keep_duplicates=keep_duplicates)
    if depth == 1:
        return len(moves)
    total = 0
    depth -= 1
    for origin, to, captured, _caps, _path, crowned in moves:
        a, b = 1 << origin, 1 << to
        if c == 0:
            if m0 & a:
                nm0, nk0 = (m0 ^ a, k0 | b) if crowned else ((m0 ^ a) | b, k0)
            else:
                nm0, nk0 = m0, (k0 & ~a) | b
            total += _perft(t, depth, 1, nm0, m1 & ~captured, nk0, k1 & ~captured,
                            keep_duplicates)
        else:
            if m1 & a:
                nm1, nk1 = (m1 ^ a, k1 | b) if crowned else ((m1 ^ a) | b, k1)
            else:
                nm1, nk1 = m1, (k1 & ~a) | b
            total += _perft(t, depth, 0, m0 & ~captured, nm1, k0 & ~captured, nk1,
                            keep_duplicates)
    return total
