"""The action index: a bijection on each position's legal moves."""

from __future__ import annotations

import contextlib
import functools
import random
from collections import Counter

import pytest

np = pytest.importorskip("numpy", reason="draughts.ml needs NumPy (the ml extra)")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import draughts  # noqa: E402
from draughts import KING, MAN, VARIANTS, Board, Color, IllegalMoveError, Piece  # noqa: E402
from draughts.ml import (  # noqa: E402
    action_space_size,
    encode,
    index_to_move,
    legal_indices,
    legal_mask,
    move_to_index,
)
from tests.ml.helpers import custom_variants, random_positions  # noqa: E402


def check_bijection(board: Board) -> None:
    """Every legal move has one index in range, no two share one, the
    inverse gives the move back, and the mask marks exactly those; with
    either numbering (``perspective``)."""
    size = action_space_size(board.variant)
    moves = list(board.legal_moves)
    for perspective in (False, True):
        indices = legal_indices(board, perspective=perspective)
        assert len(set(indices)) == len(moves) == len(indices)
        for move, index in zip(moves, indices, strict=True):
            assert 0 <= index < size
            assert move_to_index(board, move, perspective=perspective) == index
            back = index_to_move(board, index, perspective=perspective)
            assert back == move
            assert set(back.captures) == set(move.captures)
        mask = legal_mask(board, perspective=perspective)
        assert mask.shape == (size,)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(indices)


@functools.cache
def turned_squares(variant: draughts.Variant) -> dict[int, int]:
    """Each square and the square at its cell on the board turned half a
    turn, found through the observation's cells (not the library's table)."""
    cells = variant.width * variant.height
    count = cells if variant.all_squares else cells // 2
    cell_of = {}
    for square in range(1, count + 1):
        board = Board.empty(variant=variant)
        board.set_piece_at(square, Piece(KING, Color.WHITE))
        cell_of[square] = int(np.flatnonzero(encode(board)[1])[0])
    square_at = {cell: square for square, cell in cell_of.items()}
    return {square: square_at[cells - 1 - cell] for square, cell in cell_of.items()}


def mirrored(board: Board) -> Board:
    """The position with the colours swapped and the board turned half a
    turn, the other side to move: the same game seen from the other side."""
    turned = turned_squares(board.variant)
    other = Board.empty(variant=board.variant)
    for square, piece in board.piece_map().items():
        other.set_piece_at(turned[square], Piece(piece.kind, Color(1 - piece.color)))
    other.turn = Color(1 - board.turn)
    return other


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_perspective_numbers_the_mirrored_position(variant: draughts.Variant) -> None:
    """Black's moves numbered from Black's side are White's moves in the
    mirrored position numbered as they are."""
    boards = [b for b in random_positions(variant, games=2, seed=21) if b.turn == Color.BLACK]
    for board in boards[::7]:
        fresh = Board(board.fen(), variant=variant)  # no history: no frozen king
        seen = sorted(legal_indices(fresh, perspective=True))
        assert seen == sorted(legal_indices(mirrored(fresh)))


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_presets(variant: draughts.Variant) -> None:
    for board in random_positions(variant, games=4, seed=11):
        check_bijection(board)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_presets_many_games(variant: draughts.Variant) -> None:
    for board in random_positions(variant, games=300, seed=12):
        check_bijection(board)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=custom_variants(), seed=st.integers(0, 1000))
def test_custom_variants(variant: draughts.Variant, seed: int) -> None:
    for board in random_positions(variant, games=1, seed=seed, plies=150):
        check_bijection(board)


def test_routes_that_share_origin_and_destination() -> None:
    # A Turkish king with two routes from h8 to a8 that take different men.
    board = Board("W:WKh8:Ba7,d5,e7,f7,g6,h7", variant="turkish")
    ends = [m for m in board.legal_moves if board.pdn(m, long=False) == "h8xa8"]
    assert len(ends) == 2 and set(ends[0].captures) != set(ends[1].captures)
    indices = sorted(move_to_index(board, m) for m in ends)
    n = 64
    pair = (ends[0].from_square - 1) * n + ends[0].to_square - 1
    assert indices == [pair, n * n]  # the pair's index, then the first extra one
    check_bijection(board)


def test_eight_routes_between_two_squares() -> None:
    # A Frisian king with eight capture routes from 5 to one square.
    board = Board("W:WK5:B2,4,8-9,14,17,27,30,34,36-37,43-45", variant="frisian")
    pairs = Counter((m.from_square, m.to_square) for m in board.legal_moves)
    assert max(pairs.values()) == 8
    check_bijection(board)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_random_placements(variant: draughts.Variant) -> None:
    """Kings of the side to move among many men of the other: long capture
    routes, many of them between the same two squares."""
    rng = random.Random(variant.name)
    cells = variant.width * variant.height
    count = cells if variant.all_squares else cells // 2
    for _ in range(60):
        board = Board.empty(variant=variant)
        squares = rng.sample(range(1, count + 1), rng.randint(4, count // 2))
        kings = rng.randint(1, 3)
        for square in squares[:kings]:
            board.set_piece_at(square, Piece(KING, board.turn))
        for square in squares[kings:]:
            with contextlib.suppress(ValueError):  # a man on its crowning row
                board.set_piece_at(square, Piece(MAN, Color(1 - board.turn)))
        check_bijection(board)


def test_route_order_does_not_matter() -> None:
    board = Board("W:WK47:B9,12,33", variant="international")
    move = index_to_move(board, 2320)
    reordered = draughts.Move(47, 21, captures=tuple(reversed(move.captures)))
    assert move_to_index(board, reordered) == 2320


def test_bad_actions() -> None:
    board = Board(variant="english")
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        index_to_move(board, 0)
    with pytest.raises(ValueError, match=r"outside 0\.\.2047"):
        index_to_move(board, 2048)
    with pytest.raises(ValueError, match="outside"):
        index_to_move(board, -1)
    with pytest.raises(IllegalMoveError, match="not legal"):
        move_to_index(board, draughts.Move(21, 17))
    with pytest.raises(IllegalMoveError, match="not legal"):
        move_to_index(board, draughts.Move(99, 17))
    with pytest.raises(ValueError, match="shape"):
        legal_mask(board, out=np.zeros(3, dtype=bool))


def test_every_index_of_the_space_is_either_legal_or_refused() -> None:
    board = Board("W:WK47:B9,12,33", variant="international")
    legal = set(legal_indices(board))
    for index in range(action_space_size(board.variant)):
        if index in legal:
            assert move_to_index(board, index_to_move(board, index)) == index
        else:
            with pytest.raises(IllegalMoveError):
                index_to_move(board, index)


def test_sizes() -> None:
    assert action_space_size("international") == 2 * 50 * 50
    assert action_space_size("turkish") == 2 * 64 * 64
    assert action_space_size("canadian") == 2 * 72 * 72
