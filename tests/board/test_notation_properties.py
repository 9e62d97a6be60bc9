"""Properties of move text and FEN over random positions, not only those a
game from the start position reaches: every legal move's PDN reads back as
that move, in every preset (a flying king with free choice of capture
reaches positions no short playout does), and on boards of other sizes,
notations and numbering corners FEN and move text round trip.

The default run keeps each test to a few seconds; ``-m slow`` runs the same
properties on many more examples.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts
from draughts import _core
from draughts import variant as V
from draughts._context import context
from draughts.variant import Notation

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]
FAST = settings(max_examples=10, deadline=None, suppress_health_check=_QUIET)
SLOW = settings(max_examples=300, deadline=None, suppress_health_check=_QUIET)
PLIES = 6
OTHER_ROUTES = 2
"""How many of a position's capture routes that no legal move shows are read."""


def _variant_ids(variant: draughts.Variant) -> str:
    return variant.name


def check_notation(board: draughts.Board, other_routes: bool = True) -> None:
    """Every legal move reads back from what :meth:`Board.pdn` writes, short
    and long, and no two legal moves share a route (so the long form always
    tells them apart); every other route of a legal capture (its pieces in
    another order, which the move does not keep) reads as that move too."""
    moves = list(board.legal_moves)
    fen = board.fen()
    routes = [m.path for m in moves]
    assert len(set(routes)) == len(routes), fen
    for move in moves:
        for long in (None, True):
            text = board.pdn(move, long=long)
            assert board.parse_pdn(text) == move, (fen, move, text)
    if not other_routes:
        return
    variant = board.variant
    shown = set(routes)
    others = [
        (path, captures) for path, captures in every_capture_route(board) if path not in shown
    ]
    # A few per position: each reading searches the captures again.
    for path, captures in others[:: max(1, len(others) // OTHER_ROUTES)]:
        text = variant.capture_separator.join(variant.square_name(s) for s in path)
        move = draughts.Move(path[0], path[-1], captures)
        assert move in moves and board.parse_pdn(text) == move, (fen, text)


def every_capture_route(board: draughts.Board) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(path, captures) of every legal capture route, also those that take
    the same pieces as another in another order."""
    core = context(board.variant).core
    bits = core.bit_of_square
    number = core.square_of_index

    def mask(color: draughts.Color, kind: draughts.PieceKind) -> int:
        return sum(bits[square] for square in board.pieces(kind, color))

    mover, other = board.turn, board.turn.opponent
    men, kings = draughts.MAN, draughts.KING
    found = _core.captures(
        core,
        int(mover),
        mask(mover, men),
        mask(mover, kings),
        mask(other, men),
        mask(other, kings),
        True,
    )
    return [
        (tuple(number[i] for i in raw.path), tuple(number[i] for i in raw.captured))
        for raw in found
    ]


def _place(
    draw: st.DrawFn,
    board: draughts.Board,
    color: draughts.Color,
    squares: list[int],
    kinds: tuple[draughts.PieceKind, ...],
) -> None:
    """Pieces of ``color`` on ``squares``, each of a kind drawn from
    ``kinds``; a man on the row where it would be crowned is a king."""
    crowning = context(board.variant).core.crowning_squares[color]
    for square in squares:
        kind = draw(st.sampled_from(kinds), label="kind")
        board.set_piece_at(
            square, draughts.Piece(draughts.KING if square in crowning else kind, color)
        )


def _count(draw: st.DrawFn, low: int, high: int, label: str) -> int:
    # Evenly drawn: integers() favours its bounds.
    return draw(st.sampled_from(range(low, high + 1)), label=label)


@st.composite
def random_boards(draw: st.DrawFn, variant: draughts.Variant) -> draughts.Board:
    """Men and kings of both colours on random squares (men never on the row
    where they would be crowned, no side with more pieces than it starts
    with, at most 12 a side), either side to move."""
    limit = context(variant).fen.start_piece_count
    board = draughts.Board.empty(variant=variant)
    board.turn = draw(st.sampled_from((draughts.WHITE, draughts.BLACK)), label="turn")
    counts = [_count(draw, 0, min(limit, 12), "pieces") for _ in range(2)]
    squares = draw(st.permutations(variant.squares), label="squares")
    kinds = (draughts.MAN, draughts.KING)
    _place(draw, board, draughts.WHITE, squares[: counts[0]], kinds)
    _place(draw, board, draughts.BLACK, squares[counts[0] : sum(counts)], kinds)
    return board


@st.composite
def capture_boards(draw: st.DrawFn, variant: draughts.Variant) -> draughts.Board:
    """Positions where the side to move has many captures to choose from:
    up to 3 of its pieces against 6 to 12 others, mostly men, none of them
    on the edge of the board (where nothing can jump them)."""
    limit = context(variant).fen.start_piece_count
    board = draughts.Board.empty(variant=variant)
    mover = draw(st.sampled_from((draughts.WHITE, draughts.BLACK)), label="turn")
    board.turn = mover
    inside = [
        square
        for square in variant.squares
        if 0 < variant.coordinates(square)[0] < variant.height - 1
        and 0 < variant.coordinates(square)[1] < variant.width - 1
    ]
    other = _count(draw, min(limit, 6), min(limit, 12, len(inside)), "other pieces")
    taken = draw(st.permutations(inside), label="other squares")[:other]
    _place(draw, board, mover.opponent, taken, (draughts.MAN, draughts.MAN, draughts.KING))
    free = [square for square in variant.squares if square not in taken]
    own = _count(draw, 0, min(limit - 1, 3), "own pieces")
    mine = draw(st.permutations(free), label="own squares")[:own]
    _place(draw, board, mover, mine, (draughts.MAN, draughts.KING))
    return board


def playout(
    data: st.DataObject, board: draughts.Board, check: Callable[[draughts.Board], None]
) -> None:
    """``check`` the board and the boards along a short random game from it."""
    check(board)
    for _ in range(data.draw(st.integers(0, PLIES), label="plies")):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(data.draw(st.sampled_from(moves), label="move"))
        check(board)


def with_a_king_on_every_square(board: draughts.Board) -> None:
    """:func:`check_notation` on the board, and on it with one more king of
    the side to move on each empty square in turn: a flying king's captures
    are what make two moves share origin and destination, and sweeping it
    over the board finds them many times faster than random placement."""
    check_notation(board)
    mover = board.turn
    king = draughts.Piece(draughts.KING, mover)
    for square in board.variant.squares:
        if board.piece_at(square) is None:
            board.set_piece_at(square, king)
            check_notation(board, other_routes=False)
            board.remove_piece_at(square)


def _every_move_reads_back(variant: draughts.Variant, data: st.DataObject) -> None:
    with_a_king_on_every_square(data.draw(capture_boards(variant), label="capture board"))
    playout(data, data.draw(random_boards(variant), label="board"), check_notation)


@pytest.mark.parametrize("variant", draughts.VARIANTS, ids=_variant_ids)
@FAST
@given(data=st.data())
def test_every_legal_move_reads_back(variant: draughts.Variant, data: st.DataObject) -> None:
    _every_move_reads_back(variant, data)


@pytest.mark.slow
@pytest.mark.parametrize("variant", draughts.VARIANTS, ids=_variant_ids)
@SLOW
@given(data=st.data())
def test_every_legal_move_reads_back_many(variant: draughts.Variant, data: st.DataObject) -> None:
    _every_move_reads_back(variant, data)


# -- Other boards: sizes, notations, numbering corners ------------------------


@st.composite
def evolved_variants(draw: st.DrawFn) -> draughts.Variant:
    """A preset on another board: 6 to 14 files and rows (even), numeric or
    algebraic, square 1 (or a1) in any corner, inverted or not, with as
    many rows of men as leave two rows between the sides."""
    base = draw(st.sampled_from((V.INTERNATIONAL, V.RUSSIAN, V.ENGLISH)), label="base")
    width = draw(st.sampled_from((6, 8, 10, 12, 14)), label="width")
    height = draw(st.sampled_from((6, 8, 10, 12, 14)), label="height")
    notations: tuple[Notation, ...] = ("numeric", "algebraic")
    notation = draw(st.sampled_from(notations), label="notation")
    corner = draw(st.sampled_from((0, 1, 2, 3)), label="corner")
    inverted = draw(st.booleans(), label="inverted")
    men_rows = draw(st.integers(1, height // 2 - 1), label="men_rows")
    name = f"{base.name}-{width}x{height}-{notation[0]}{corner}{int(inverted)}-{men_rows}"
    return attrs.evolve(
        base,
        name=name,
        aliases=(),
        width=width,
        height=height,
        notation=notation,
        first_square_corner=corner,
        inverted=inverted,
        men_rows=men_rows,
    )


def check_fen_and_notation(board: draughts.Board) -> None:
    fen = board.fen()
    again = draughts.Board(fen, variant=board.variant)
    assert again.fen() == fen
    assert again.piece_map() == board.piece_map() and again.turn == board.turn, fen
    check_notation(board)


def _other_boards_round_trip(data: st.DataObject) -> None:
    variant = data.draw(evolved_variants(), label="variant")
    # The start position is read from the FEN the variant writes for it.
    start = draughts.Board(variant=variant)
    assert start.fen() == variant.starting_fen
    playout(data, start, check_fen_and_notation)
    playout(data, data.draw(random_boards(variant), label="board"), check_fen_and_notation)


@settings(FAST, max_examples=60)
@given(data=st.data())
def test_other_boards_round_trip(data: st.DataObject) -> None:
    _other_boards_round_trip(data)


@pytest.mark.slow
@settings(SLOW, max_examples=2000)
@given(data=st.data())
def test_other_boards_round_trip_many(data: st.DataObject) -> None:
    _other_boards_round_trip(data)
