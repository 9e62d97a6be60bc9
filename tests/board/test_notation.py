"""Move notation: PDN 3.0 writing rules 8 and 9, and liberal reading."""

from __future__ import annotations

import pytest

import draughts
from draughts import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from draughts.variant import Notation

# Two captures by the king on 19 end on 47 with different pieces: over 13 to
# 2, over 11 to 16, ... (captures 13, 11, 32, 42) or over 13 to 8, over 12 to
# 21, ... (13, 12, 32, 42). Found by a search over random king positions and
# checked by hand on the diagram.
AMBIGUOUS = "W:WK19:B11,12,13,25,32,42"


def test_short_form_unless_ambiguous() -> None:
    board = draughts.Board(variant="english")
    assert [board.pdn(m) for m in board.legal_moves][:2] == ["9-13", "9-14"]
    # White man on 22 (c3) jumps 18 (d4) to 15 (e5): origin and destination.
    board = draughts.Board("W:W22:B18", variant="english")
    assert [board.pdn(m) for m in board.legal_moves] == ["22x15"]


def test_ambiguous_captures_are_written_in_full() -> None:
    board = draughts.Board(AMBIGUOUS)
    assert sorted(board.pdn(m) for m in board.legal_moves) == ["19x2x16x38x47", "19x8x21x38x47"]
    with pytest.raises(AmbiguousMoveError) as info:
        board.parse_pdn("19x47")
    assert len(info.value.candidates) == 2
    assert "19x2x16x38x47" in str(info.value) and board.fen() in str(info.value)


@pytest.mark.parametrize(
    ("text", "captured"),
    [
        ("19x2x16x38x47", {11, 13, 32, 42}),
        ("19x8x21x38x47", {12, 13, 32, 42}),
        ("19x2x47", {11, 13, 32, 42}),  # a partial route that decides
        ("19x21x47", {12, 13, 32, 42}),
        ("19x16x47", {11, 13, 32, 42}),
    ],
)
def test_full_and_partial_routes_choose(text: str, captured: set[int]) -> None:
    board = draughts.Board(AMBIGUOUS)
    assert set(board.parse_pdn(text).captures) == captured


def test_short_form_is_written_for_a_single_route() -> None:
    # The king takes 37 then 22 turning on 28: one move per landing square.
    board = draughts.Board("W:WK46:B37,22")
    assert [board.pdn(m) for m in board.legal_moves] == ["46x6", "46x11", "46x17"]
    move = board.parse_pdn("46x11")
    assert board.pdn(move, long=True) == "46x28x11"
    assert board.pdn(move, long=False) == "46x11"


@pytest.mark.parametrize(
    "text",
    [
        "32-28",
        "32x28",
        "32:28",
        "32 - 28",
        "032-028",
        "3228",
        "32-28!",
        "32-28?!",
        "32-28(!?)",
    ],
)
def test_liberal_reading(text: str) -> None:
    board = draughts.Board()
    assert board.parse_pdn(text) == draughts.Move(32, 28)


@pytest.mark.parametrize("text", ["c3-d4", "c3d4", "C3-D4", "c3:d4", "22-18"])
def test_algebraic_reading(text: str) -> None:
    board = draughts.Board(variant="russian")
    move = board.parse_pdn(text)
    assert board.pdn(move) == "c3-d4"


def test_russian_captures_use_a_colon() -> None:
    board = draughts.Board("W:Wc3:Bd4", variant="russian")
    [move] = board.legal_moves
    assert board.pdn(move) == "c3:e5"
    assert board.parse_pdn("c3xe5") == move


@pytest.mark.parametrize("text", ["", "hello", "32", "32-", "-28", "32--28", "1-0x", "32/28"])
def test_garbage_is_invalid(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        draughts.Board().parse_pdn(text)


def test_unknown_square_is_invalid() -> None:
    with pytest.raises(InvalidMoveError, match="no square '51'"):
        draughts.Board().parse_pdn("51-46")


def test_illegal_move_message_names_text_fen_and_alternatives() -> None:
    board = draughts.Board("W:W22,30:B18", variant="english")
    with pytest.raises(IllegalMoveError) as info:
        board.parse_pdn("30-26")
    message = str(info.value)
    assert "'30-26'" in message and board.fen() in message and "22x15" in message


def test_errors_are_value_errors() -> None:
    for error in (InvalidMoveError, IllegalMoveError, AmbiguousMoveError, draughts.InvalidFenError):
        assert issubclass(error, ValueError)


def test_variation_pdn_numbers_moves() -> None:
    board = draughts.Board(variant="english")
    moves = []
    for text in ("11-15", "23-19", "8-11"):
        moves.append(board.push_pdn(text))
    start = draughts.Board(variant="english")
    assert start.variation_pdn(moves) == "1. 11-15 23-19 2. 8-11"
    after_one = draughts.Board(variant="english")
    after_one.push(moves[0])
    assert after_one.variation_pdn(moves[1:]) == "1... 23-19 2. 8-11"
    with pytest.raises(IllegalMoveError):
        start.variation_pdn([moves[1]])


def test_a_complete_route_is_not_read_as_a_partial_one() -> None:
    # Found by the property tests: in dama-flying the white man on 20 can take
    # two pieces ending on 2 (route 20, 11, 2) or four (20, 11, 18, 9, 2). The
    # first one's full route is also a partial route of the second; a route
    # given completely must pick the move with exactly that route.
    board = draughts.Board("W:W20,22,29-32:B1,4-7,10,14-16", variant="dama-flying")
    assert sorted(board.pdn(m) for m in board.legal_moves) == ["20x11x18x9x2", "20x11x2"]
    assert len(board.parse_pdn("20x11x2").captures) == 2
    assert len(board.parse_pdn("20x11x18x9x2").captures) == 4
    with pytest.raises(AmbiguousMoveError):
        board.parse_pdn("20x2")


def test_intermediate_squares_off_the_route_are_illegal() -> None:
    board = draughts.Board("W:WK46:B37,22")
    with pytest.raises(IllegalMoveError):
        board.parse_pdn("46x45x11")


def test_a_two_square_route_that_is_a_whole_capture_names_it() -> None:
    # The Russian king on e3 takes f2 and lands on g1, or takes d2, b2, b4
    # and f2 and also ends on g1. "e3:g1" is the first one's complete route
    # and only the short form of the second: it names the first.
    board = draughts.Board("W:WKe3:BKb2,b4,d2,Kf2", variant="russian")
    single = board.find_move(23, 32, captures=(27,))
    assert sorted(board.pdn(m) for m in board.legal_moves) == ["e3:c1:a3:c5:g1", "e3:g1"]
    assert board.pdn(single) == board.pdn(single, long=True) == "e3:g1"
    for text in ("e3:g1", "e3xg1", "23x32"):
        parsed = board.parse_pdn(text)
        assert parsed == single and parsed.captures == (27,)
    assert len(board.parse_pdn("e3:c1:a3:c5:g1").captures) == 4
    assert len(board.parse_pdn("e3:a3:g1").captures) == 4  # a partial route


def test_a_game_with_such_a_capture_reads_back() -> None:
    import io

    from draughts import pdn

    board = draughts.Board("W:WKe3:BKb2,b4,d2,Kf2", variant="russian")
    single = board.find_move(23, 32, captures=(27,))
    board.push(single)
    text = str(pdn.Game.from_board(board))
    assert "1. e3:g1 *" in text
    game = pdn.read_game(io.StringIO(text))
    assert game is not None and game.errors == []
    assert list(game.mainline_moves()) == [single]


def test_a_circuit_reads_in_either_direction() -> None:
    # The king on e1 takes the four men around e3 and comes back to e1,
    # round either way: the same pieces, so one move, which keeps one route.
    board = draughts.Board("W:WKe1:Bd2,f2,d4,f4", variant="russian")
    [move] = board.legal_moves
    assert board.pdn(move, long=True) == "e1:g3:e5:c3:e1"
    assert board.parse_pdn("e1:g3:e5:c3:e1") == move
    assert board.parse_pdn("e1:c3:e5:g3:e1") == move
    with pytest.raises(IllegalMoveError):
        board.parse_pdn("e1:c3:g3:e5:e1")  # not a route: c3 to g3 jumps nothing


def _wide_board(notation: Notation) -> draughts.Variant:
    import attrs

    return attrs.evolve(
        draughts.variant.INTERNATIONAL,
        name=f"wide-{notation}",
        aliases=(),
        width=26,
        height=8,
        notation=notation,
        first_square_corner=0 if notation == "algebraic" else 2,
        men_rows=3,
    )


def test_squares_of_the_x_y_and_z_files_are_read() -> None:
    # 26 files: a to z. "x" is a file letter before a digit unless it comes
    # straight after one.
    board = draughts.Board("W:Wv2,w3,y1,Kx4:Bw5,y5", variant=_wide_board("algebraic"))
    texts = [board.pdn(m) for m in board.legal_moves]
    assert texts == ["x4xt8", "x4xu7", "x4xv6", "x4xz6"]
    assert [board.parse_pdn(text) for text in texts] == list(board.legal_moves)
    board = draughts.Board("W:Wv2,w3,y1,Kx6:B", variant=_wide_board("algebraic"))
    texts = [board.pdn(m) for m in board.legal_moves]
    assert {"w3-x4", "y1-x2", "y1-z2", "x6-z4", "x6-z8", "x6-w5"} <= set(texts)
    assert [board.parse_pdn(text) for text in texts] == list(board.legal_moves)
    x6, z8 = board.variant.parse_square("x6"), board.variant.parse_square("z8")
    for text in ("x6-z8", "x6z8", "X6 - Z8", f"{x6}-{z8}", "x6:z8", "x6xz8"):
        assert board.parse_pdn(text) == draughts.Move(x6, z8)
    assert board.parse_pdn("w3xx4") == board.parse_pdn("w3-x4")
    assert board.fen() == "W:Wv2,w3,Kx6,y1:B"
    assert draughts.Board(board.fen(), variant=board.variant) == board


def test_numeric_captures_on_a_board_with_an_x_file() -> None:
    board = draughts.Board("W:W40:B27", variant=_wide_board("numeric"))
    [move] = board.legal_moves
    assert board.pdn(move) == "40x15"
    assert board.parse_pdn("40x15") == board.parse_pdn("40 x 15") == move
