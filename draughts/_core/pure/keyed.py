"""Playing a raw move and taking it back with the position's Zobrist key:
the oracle of the native core's ``apply_keyed`` and ``undo_keyed``.

Keys are those of :mod:`draughts._core.zobrist` for the board's internal
indices, so a key worked out here equals :meth:`draughts.Board.position_key`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from draughts._core import zobrist
from draughts._core.raw import RawMove, apply

if TYPE_CHECKING:
    from draughts._core.geometry import Geometry

Keyed = tuple[int, int, int, int, int]
"""White men, black men, white kings, black kings and the key."""


def position_key(t: Geometry, color: int, m0: int, m1: int, k0: int, k1: int) -> int:
    """The key of a position, from scratch.

    >>> from draughts._context import context
    >>> from draughts.variant import ENGLISH
    >>> t = context(ENGLISH).core
    >>> position_key(t, 0, 0, 0, 0, 0), position_key(t, 1, 0, 0, 0, 0) != 0
    (0, True)
    """
    return zobrist.keys(len(t.square_of_index)).of(color, (m0, m1), (k0, k1))


def apply_keyed(
    t: Geometry, move: RawMove, color: int, m0: int, m1: int, k0: int, k1: int, key: int
) -> Keyed:
    """The bitboards and key after ``color`` plays ``move``: :func:`apply`
    and the key's change (the side to move, the piece moved or crowned, the
    pieces taken)."""
    keys = zobrist.keys(len(t.square_of_index))
    opp_men, opp_kings = (m1, k1) if color == 0 else (m0, k0)
    key ^= keys.black_to_move
    for square in move.captured:
        if opp_kings >> square & 1:
            key ^= keys.kings[1 - color][square]
        elif opp_men >> square & 1:
            key ^= keys.men[1 - color][square]
    own_men = m0 if color == 0 else m1
    mover = keys.men if own_men >> move.origin & 1 else keys.kings
    key ^= mover[color][move.origin]
    landed = keys.men if own_men >> move.origin & 1 and not move.crowned else keys.kings
    key ^= landed[color][move.destination]
    return (*apply(move, color, m0, m1, k0, k1), key)


def undo_keyed(
    t: Geometry,
    move: RawMove,
    color: int,
    m0: int,
    m1: int,
    k0: int,
    k1: int,
    captured_kings: int,
    key: int,
) -> Keyed:
    """The bitboards and key before ``color`` played ``move``, from those
    after it; ``captured_kings`` are the captured squares that held kings."""
    keys = zobrist.keys(len(t.square_of_index))
    men, kings = [m0, m1], [k0, k1]
    o = 1 - color
    origin, dest = 1 << move.origin, 1 << move.destination
    key ^= keys.black_to_move
    if move.crowned:
        kings[color] &= ~dest
        men[color] |= origin
        key ^= keys.kings[color][move.destination] ^ keys.men[color][move.origin]
    elif men[color] & dest:
        men[color] = (men[color] & ~dest) | origin
        key ^= keys.men[color][move.destination] ^ keys.men[color][move.origin]
    else:
        kings[color] = (kings[color] & ~dest) | origin
        key ^= keys.kings[color][move.destination] ^ keys.kings[color][move.origin]
    for square in move.captured:
        if captured_kings >> square & 1:
            kings[o] |= 1 << square
            key ^= keys.kings[o][square]
        else:
            men[o] |= 1 << square
            key ^= keys.men[o][square]
    return men[0], men[1], kings[0], kings[1], key
