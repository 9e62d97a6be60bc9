"""The Board API: pieces, push/pop, copies, equality, display."""

from __future__ import annotations

import pytest

import draughts
from draughts import BLACK, KING, MAN, WHITE, Move, Piece


def test_default_board_is_international_start() -> None:
    board = draughts.Board()
    assert board.variant is draughts.variant.INTERNATIONAL
    assert board.fen() == "W:W31-50:B1-20"
    assert board.turn == WHITE
    assert board.legal_moves.count() == 9


def test_variant_given_by_name_gametype_or_value() -> None:
    assert draughts.Board(variant="russian").variant.name == "russian"
    assert draughts.Board(variant=26).variant.name == "brazilian"
    assert draughts.Board(variant=draughts.variant.POOL).turn == BLACK


def test_pieces() -> None:
    board = draughts.Board("W:WK46,31:B1,K5", variant="international")
    assert board.piece_at(46) == Piece(KING, WHITE)
    assert board.piece_at(31) == Piece(MAN, WHITE)
    assert board.piece_at(5) == Piece(KING, BLACK)
    assert board.piece_at(30) is None
    assert board.pieces(WHITE) == (31, 46)
    assert board.pieces(KING, WHITE) == (46,)
    assert board.pieces(MAN, BLACK) == (1,)
    assert board.piece_map() == {
        1: Piece(MAN, BLACK),
        5: Piece(KING, BLACK),
        31: Piece(MAN, WHITE),
        46: Piece(KING, WHITE),
    }
    assert board.remove_piece_at(31) == Piece(MAN, WHITE)
    assert board.piece_at(31) is None
    board.set_piece_at(31, Piece(KING, BLACK))
    assert board.fen() == "W:WK46:B1,K5,K31"
    with pytest.raises(ValueError, match="crowned"):
        board.set_piece_at(2, Piece(MAN, WHITE))
    for bad in (0, 51, -1):
        with pytest.raises(ValueError):
            board.piece_at(bad)


def test_editing_invalidates_the_legal_moves() -> None:
    board = draughts.Board("W:W32:B1")
    assert board.legal_moves.count() == 2
    board.set_piece_at(28, Piece(MAN, BLACK))
    assert [board.pdn(m) for m in board.legal_moves] == ["32x23"]


def test_push_pop_peek() -> None:
    board = draughts.Board(variant="english")
    start = board.copy()
    first = board.push_pdn("11-15")
    assert board.peek() == first
    board.push_pdn("22-18")
    capture = board.push_pdn("15x22")
    assert capture.captures == (18,)
    assert board.piece_at(18) is None and board.piece_at(22) == Piece(MAN, BLACK)
    assert board.ply() == 3
    assert board.pop() == capture
    assert board.pop() == Move(22, 18)
    assert board.pop() == first
    assert board == start
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()


def test_push_checks_the_mover() -> None:
    board = draughts.Board(variant="english")
    with pytest.raises(draughts.IllegalMoveError, match="no black piece on 21"):
        board.push(Move(21, 17))
    with pytest.raises(draughts.IllegalMoveError):
        board.push(Move(99, 17))


def test_promotion_on_push() -> None:
    board = draughts.Board("W:W6:B40", variant="international")
    board.push_pdn("6-1")
    assert board.piece_at(1) == Piece(KING, WHITE)


def test_hand_made_move_without_route_crowns_in_russian() -> None:
    # d6:h6 in Russian crowns on f8 on the way; a Move built by hand without
    # its path still crowns because push looks the route up.
    board = draughts.Board("W:Wd6:Be7,g7", variant="russian")
    name = board.variant.parse_square
    board.push(Move(name("d6"), name("h6"), captures=(name("e7"), name("g7"))))
    assert board.piece_at(name("h6")) == Piece(KING, WHITE)


def test_king_returning_to_its_own_square() -> None:
    # The king on 7 can go round a loop, 7x34x43x16x7, taking 18, 39, 27 and
    # 11, and stop on the square it started from (found by a search over
    # random king positions); the same loop run the other way round is the
    # same move. It must still be on the board afterwards.
    board = draughts.Board("W:WK7:B11,18,27,39")
    [move] = [m for m in board.legal_moves if m.to_square == 7]
    assert move == draughts.Move(7, 7, captures=(11, 27, 39, 18))
    assert board.legal_moves.count() == 4
    assert board.pdn(move) == "7x7"
    board.push(move)
    assert board.fen() == "B:WK7:B"
    board.pop()
    assert board.fen() == "W:WK7:B11,18,27,39"


def test_frisian_king_moves_follow_one_king_per_side() -> None:
    # Each side's count follows the king that made its last quiet moves: it
    # starts again at 1 when another king moves, at 0 after a man move, and
    # the other side's count is left alone. pop() takes every step back.
    board = draughts.Board("W:WK36,K10,42,21:BK34,K30,44,20", variant="frisian")
    counts = []
    for text in ["10-4", "34-1", "4-31", "1-6", "36-41", "6-1", "21-16"]:
        board.push_pdn(text)
        counts.append((board.king_moves(WHITE), board.king_moves(BLACK)))
    assert counts == [(1, 0), (1, 1), (2, 1), (2, 2), (1, 2), (1, 3), (0, 3)]
    while board.move_stack:
        counts.pop()
        board.pop()
        assert (board.king_moves(WHITE), board.king_moves(BLACK)) == (
            counts[-1] if counts else (0, 0)
        )


def test_copy_and_equality() -> None:
    board = draughts.Board()
    board.push_pdn("32-28")
    copy = board.copy()
    assert copy == board and copy.move_stack == board.move_stack
    assert board.copy(stack=False).move_stack == []
    copy.push_pdn("19-23")
    assert copy != board
    assert draughts.Board(variant="english") != draughts.Board(variant="dama")
    with pytest.raises(TypeError):
        hash(board)


def test_turn_setter() -> None:
    board = draughts.Board("W:W32:B1")
    board.turn = BLACK
    assert [board.pdn(m) for m in board.legal_moves] == ["1-6", "1-7"]


def test_repr_and_diagrams() -> None:
    board = draughts.Board("B:WK29:B4", variant="english")
    assert repr(board) == "Board('B:WK29:B4', variant='english')"
    rows = str(board).splitlines()
    assert len(rows) == 8
    # Row 8 (top): squares 1-4 on b8, d8, f8, h8; the black man on h8.
    assert rows[0].split() == [".", ".", ".", "b"]
    assert rows[-1].split() == ["W", ".", ".", "."]
    assert "⛁" in board.unicode() and "⛂" in board.unicode()


def test_legal_move_view() -> None:
    board = draughts.Board(variant="english")
    moves = board.legal_moves
    assert Move(9, 13) in moves and Move(9, 12) not in moves
    assert "9-13" not in moves  # only Move objects are members
    assert len(moves) == moves.count() == 7
    assert bool(moves)
    assert repr(moves).startswith("<LegalMoveGenerator (9-13, 9-14")
    assert board.is_legal(Move(9, 13))
    assert not board.is_legal(Move(9, 18))
    empty = draughts.Board("W:W:B1")
    assert not empty.legal_moves


def test_find_move() -> None:
    board = draughts.Board("W:WK46:B37,22")
    assert board.find_move(46, 11).captures == (37, 22)
    with pytest.raises(draughts.IllegalMoveError):
        board.find_move(46, 45)
    amb = draughts.Board("W:WK19:B11,12,13,25,32,42")
    with pytest.raises(draughts.AmbiguousMoveError):
        amb.find_move(19, 47)
    assert amb.find_move(19, 47, captures=[13, 11, 32, 42]).path == (19, 2, 16, 38, 47)


def test_has_captures() -> None:
    assert draughts.Board("W:W32:B28").has_captures()
    assert not draughts.Board().has_captures()


def test_empty_and_clear() -> None:
    board = draughts.Board.empty(variant="english")
    assert board.fen() == "B:W:B"
    full = draughts.Board()
    full.push_pdn("32-28")
    full.clear()
    assert full.fen() == "W:W:B" and full.move_stack == []
