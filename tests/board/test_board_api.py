"""The board API of issue 22: ``pieces`` kind first (the side-first order
deprecated), ``is_promotion``, ``mirror``, ``status``/``is_valid``, and one
rule for piece counts (what the board makes, its FEN reads back)."""

from __future__ import annotations

import random
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts
from draughts import BLACK, KING, MAN, VARIANTS, WHITE, Board, Color, Piece, PieceKind
from draughts.board import Status
from draughts.variant import Promotion

NAMES = [variant.name for variant in VARIANTS]


def playout(variant: str, seed: int, plies: int) -> list[Board]:
    """The positions of a random game (copies, without history)."""
    chooser = random.Random(seed)
    board = Board(variant=variant)
    seen = [board.copy(stack=False)]
    while len(seen) < plies and not board.is_game_over():
        board.push(chooser.choice(list(board.legal_moves)))
        seen.append(board.copy(stack=False))
    return seen


# -- pieces ------------------------------------------------------------------------


def test_pieces_kind_first_by_keyword_or_one_side() -> None:
    board = Board("W:WK46,31:B1,K5", variant="international")
    assert board.pieces(KING, WHITE) == board.pieces(kind=KING, color=WHITE) == (46,)
    assert board.pieces(MAN, BLACK) == board.pieces(MAN, color=BLACK) == (1,)
    assert board.pieces(WHITE) == board.pieces(color=WHITE) == (31, 46)
    assert board.pieces(KING) == board.pieces(kind=KING) == (5, 46)
    assert board.pieces() == (1, 5, 31, 46)


def test_the_old_order_answers_the_same_with_a_warning() -> None:
    board = Board("W:WK46,31:B1,K5", variant="international")
    with pytest.warns(DeprecationWarning, match=r"pieces\(kind, color\)"):
        assert board.pieces(WHITE, KING) == (46,)
    # Plain ints were read side first: they still are, with a warning.
    with pytest.warns(DeprecationWarning, match="plain ints"):
        assert board.pieces(1, 0) == (1,)  # type: ignore[arg-type]
    with pytest.warns(DeprecationWarning, match="plain ints"):
        assert board.pieces(0) == (31, 46)  # type: ignore[arg-type]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        board.pieces(KING, WHITE), board.pieces(WHITE), board.pieces(color=BLACK, kind=MAN)


@pytest.mark.parametrize(
    ("args", "keywords"),
    [
        ((KING, KING), {}),
        ((WHITE, BLACK), {}),
        ((KING, WHITE, MAN), {}),
        ((KING,), {"kind": MAN}),
        ((WHITE,), {"color": BLACK}),
        ((MAN,), {"kind": MAN}),
    ],
)
def test_pieces_refuses_what_it_cannot_read(args: tuple[object, ...], keywords: dict) -> None:
    with pytest.raises(TypeError, match="pieces"):
        Board().pieces(*args, **keywords)  # type: ignore[arg-type]


# -- is_promotion ------------------------------------------------------------------


def crowns_by_the_rules(board: Board, move: draughts.Move) -> bool:
    """Whether ``move`` crowns, from its path and the variant's rule alone."""
    if board.piece_at(move.from_square) != Piece(MAN, board.turn):
        return False
    row = 0 if board.turn == BLACK else board.variant.height - 1
    on_row = [board.variant.coordinates(square)[0] == row for square in move.path[1:]]
    if board.variant.promotion is Promotion.CONTINUES_AS_KING:
        return any(on_row)
    return on_row[-1]


@pytest.mark.parametrize("variant", NAMES)
def test_is_promotion_follows_the_rules_in_random_games(variant: str) -> None:
    crowned = 0
    for seed in range(3):
        for board in playout(variant, seed, 200):
            for move in board.legal_moves:
                expected = crowns_by_the_rules(board, move)
                assert board.is_promotion(move) == expected, (board.fen(), move)
                crowned += expected
    assert crowned > 0 or variant == "breakthrough"


def test_is_promotion_leaves_the_board_as_it_was_and_refuses_illegal_moves() -> None:
    board = Board("W:W6,24:B20", variant="english")
    fen, key = board.fen(), board.position_key
    assert [board.is_promotion(m) for m in board.legal_moves] == [True, True, False]
    assert board.fen() == fen and board.position_key == key and board.move_stack == []
    with pytest.raises(draughts.IllegalMoveError, match="not a legal move"):
        board.is_promotion(draughts.Move(24, 15))


# -- mirror ------------------------------------------------------------------------


def turned(board: Board, square: int) -> int:
    row, column = board.variant.coordinates(square)
    found = board.variant.square_at(
        board.variant.height - 1 - row, board.variant.width - 1 - column
    )
    assert found is not None
    return found


@pytest.mark.parametrize("variant", NAMES)
def test_the_mirror_has_the_mirrored_moves(variant: str) -> None:
    for board in playout(variant, 7, 120)[::7]:
        mirror = board.mirror()
        assert mirror.mirror() == board and mirror.turn == board.turn.opponent
        for square, piece in board.piece_map().items():
            assert mirror.piece_at(turned(board, square)) == Piece(piece.kind, piece.color.opponent)
        assert len(mirror.piece_map()) == len(board.piece_map())
        assert sorted(tuple(turned(board, s) for s in m.path) for m in board.legal_moves) == sorted(
            m.path for m in mirror.legal_moves
        )
        assert draughts.perft(mirror, 2) == draughts.perft(board, 2)


# -- status and is_valid -----------------------------------------------------------


def test_status_of_made_and_handled_positions() -> None:
    assert Board(variant="frisian").status() is Status.VALID and Board().is_valid()
    empty = Board.empty(variant="english")
    assert empty.status() == Status.EMPTY and not empty.is_valid()
    empty.set_piece_at(15, Piece(KING, WHITE))
    assert empty.is_valid()
    # What the board refuses to make, a position set by hand (as a pickle
    # or a subclass could) is reported.
    crowded = Board(variant="english")
    crowded._men[0] |= crowded._ctx.core.bit_of_square[17]  # a 13th white man
    assert crowded.status() == Status.TOO_MANY_WHITE and not crowded.is_valid()
    late = Board("W:W20:B5", variant="english")
    late._men[1] = late._ctx.core.bit_of_square[30]  # a black man on its crowning row
    assert late.status() == Status.MAN_ON_CROWNING_ROW and not late.is_valid()


# -- One rule for piece counts ------------------------------------------------------


def test_a_piece_more_than_a_side_starts_with_is_refused() -> None:
    board = Board(variant="frysk")  # five men each
    start = board.fen()
    empty = next(s for s in range(1, 51) if board.piece_at(s) is None)
    with pytest.raises(ValueError, match="already has 5 pieces, as many as a side starts with"):
        board.set_piece_at(empty, Piece(KING, WHITE))
    assert board.fen() == start
    own = board.pieces(WHITE)[0]
    board.set_piece_at(own, Piece(KING, WHITE))  # a piece for a piece: allowed
    assert board.pieces(KING, WHITE) == (own,)
    with pytest.raises(draughts.InvalidFenError, match="more than the 5 a side starts with"):
        Board("W:WK1,K2,K3,K4,K5,K6:B30", variant="frysk")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(NAMES),
    edits=st.lists(
        st.tuples(
            st.integers(1, 200),
            st.sampled_from([None, *(Piece(k, c) for k in PieceKind for c in Color)]),
        ),
        max_size=60,
    ),
    turn=st.sampled_from(list(Color)),
    start=st.booleans(),
)
def test_every_position_the_board_makes_reads_back_from_its_fen(
    variant: str, edits: list[tuple[int, Piece | None]], turn: Color, start: bool
) -> None:
    board = Board(variant=variant) if start else Board.empty(variant=variant)
    count = board._ctx.core.square_count
    for number, piece in edits:
        square = 1 + (number - 1) % count
        try:
            board.set_piece_at(square, piece)
        except ValueError as error:
            assert "crowned" in str(error) or "starts with" in str(error)
        board.turn = turn
        assert Board(board.fen(), variant=variant) == board, (variant, board.fen())
