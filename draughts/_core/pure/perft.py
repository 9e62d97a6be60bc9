"""Perft: count the move sequences from a position, on raw bitboards.

It walks the tree with plain ints instead of pushing moves on a board, so
none of the board's bookkeeping (position keys, draw counts, move objects)
slows it down, and counts the last ply's moves without playing them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from draughts._core.pure.movegen import legal_moves
from draughts._core.raw import apply

if TYPE_CHECKING:
    from draughts._core.pure.tables import Tables


def perft(t: Tables, depth: int, c: int, m0: int, m1: int, k0: int, k1: int,
          keep_duplicates: bool = False) -> int:
    """Leaf count at ``depth`` (at least 1). With ``keep_duplicates`` routes
    that capture the same pieces in another order count apart, as some
    published tables count them (the tests check both conventions). It does
    not track the Frisian king-move limit: the published Frisian tables stop
    before it can matter."""
    if c == 0:
        moves = legal_moves(t, 0, m0, k0, m1, k1, keep_duplicates=keep_duplicates)
    else:
        moves = legal_moves(t, 1, m1, k1, m0, k0, keep_duplicates=keep_duplicates)
    if depth == 1:
        return len(moves)
    depth -= 1
    return sum(perft(t, depth, 1 - c, *apply(move, c, m0, m1, k0, k1),
                     keep_duplicates=keep_duplicates)
               for move in moves)
