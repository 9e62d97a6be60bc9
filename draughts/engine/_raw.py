"""Raw positions and moves for the search of :mod:`draughts.engine.search`.

A raw position is ``(turn, white men, black men, white kings, black kings)``,
one bitboard per colour and kind over the variant's grid; moves are the raw
moves of :mod:`draughts._core`. These helpers reach move generation only
through the names the core exports, whichever backend is loaded.
:mod:`draughts.engine.search` imports them all, so they are also found
there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from draughts import _core
from draughts._core import RawMove, Tables
from draughts.piece import BLACK, KING, MAN, WHITE, Color, PieceKind

if TYPE_CHECKING:
    from collections.abc import Callable

    from draughts.board import Board

Position = tuple[int, int, int, int, int]
"""``(turn, white men, black men, white kings, black kings)``."""


def raw_position(board: Board, t: Tables) -> Position:
    """``board`` as a raw :data:`Position`: the side to move and one
    bitboard (over ``t``'s grid) per colour and kind."""

    def mask(color: Color, kind: PieceKind) -> int:
        bits = 0
        for square in board.pieces(kind, color):
            bits |= t.bit_of_square[square]
        return bits

    return (
        int(board.turn),
        mask(WHITE, MAN),
        mask(BLACK, MAN),
        mask(WHITE, KING),
        mask(BLACK, KING),
    )


def play(pos: Position, move: RawMove) -> Position:
    """The position after ``move``."""
    c = pos[0]
    return (1 - c, *_core.apply(move, c, pos[1], pos[2], pos[3], pos[4]))


def _for_mover(
    generate: Callable[[Tables, int, int, int, int, int], list[RawMove]], t: Tables, pos: Position
) -> list[RawMove]:
    """``generate``'s moves for the side to move of ``pos``, given as the
    core takes them: the mover's men and kings, then the other side's."""
    c, m0, m1, k0, k1 = pos
    if c == 0:
        return generate(t, 0, m0, k0, m1, k1)
    return generate(t, 1, m1, k1, m0, k0)


def legal(t: Tables, pos: Position) -> list[RawMove]:
    """The legal raw moves of ``pos``."""
    return _for_mover(_core.legal_moves, t, pos)


def _can_step(t: Tables, pos: Position) -> bool:
    """Whether the side to move has a non-capturing move."""
    c, m0, m1, k0, k1 = pos
    occupied = m0 | m1 | k0 | k1
    return _core.has_step(t, c, *((m0, k0) if c == 0 else (m1, k1)), occupied)


def _captures(t: Tables, pos: Position) -> list[RawMove]:
    return _for_mover(_core.captures, t, pos)


def _threatened(t: Tables, pos: Position) -> bool:
    """Whether the opponent of the side to move would have a capture if it
    were to move."""
    c, m0, m1, k0, k1 = pos
    if c == 0:
        return bool(_core.captures(t, 1, m1, k1, m0, k0))
    return bool(_core.captures(t, 0, m0, k0, m1, k1))


def _taken(move: RawMove) -> int:
    return -len(move[3])
