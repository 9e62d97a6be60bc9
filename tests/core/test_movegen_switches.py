"""Move-generator switches tested directly on raw moves."""

from __future__ import annotations

from draughts._context import context
from draughts._core.pure import movegen as _movegen
from draughts._fen import parse_fen
from draughts.variant import FRISIAN, INTERNATIONAL, Variant


def _raw(
    fen: str, frozen_squares: tuple[int, ...] = (), variant: Variant = INTERNATIONAL
) -> set[tuple[int, int]]:
    """(from, to) of the legal moves of a position."""
    t = context(variant).core
    pos = parse_fen(context(variant).fen, fen)
    c = pos.turn
    frozen = 0
    for square in frozen_squares:
        frozen |= t.bit_of_square[square]
    moves = _movegen.legal_moves(
        t, c, pos.men[c], pos.kings[c], pos.men[1 - c], pos.kings[1 - c], frozen
    )
    number = t.square_of_index
    return {(number[m[0]], number[m[1]]) for m in moves}


def test_frozen_king_makes_no_step_but_others_do() -> None:
    # White king 46 in the corner has the long diagonal 41..5 (9 squares);
    # the man on 50 (bottom row, column 8) steps to 44 or 45.
    fen = "W:WK46,50:B1"
    free = _raw(fen)
    king_steps = {(46, s) for s in (41, 37, 32, 28, 23, 19, 14, 10, 5)}
    assert free == king_steps | {(50, 44), (50, 45)}
    frozen = _raw(fen, (46,))
    assert frozen == {(50, 44), (50, 45)}


def test_frozen_king_still_captures() -> None:
    # The king on 46 can take 37 landing on 32, 28, 23, 19, 14, 10 or 5; the
    # capture is compulsory and a frozen king keeps it.
    fen = "W:WK46,50:B37"
    assert _raw(fen, (46,)) == {(46, s) for s in (32, 28, 23, 19, 14, 10, 5)}


def test_frozen_frisian_king_keeps_its_orthogonal_capture() -> None:
    # Frisian: the king on 46 reaches 16 up the left column (46, 36, 26, 16)
    # and takes it, landing on 6; frozen or not, the capture stands, and with
    # nothing to capture a frozen king leaves only the man's steps.
    assert _raw("W:WK46,50:B16", (46,), FRISIAN) == {(46, 6)}
    assert _raw("W:WK46,50:B1", (46,), FRISIAN) == {(50, 44), (50, 45)}
