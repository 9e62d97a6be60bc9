"""FEN reading and writing (PDN 3.0 FEN grammar, rules-research.md §2)."""

from __future__ import annotations

import pytest

import draughts
from draughts import InvalidFenError


def fen_of(text: str, variant: str = "international") -> str:
    return draughts.Board(text, variant=variant).fen()


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("W:W31-50:B1-20", "W:W31-50:B1-20"),
        ("W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1-20", "W:W31-50:B1-20"),
        ("w:w31-50:b1-20", "W:W31-50:B1-20"),  # lower case
        ("W:B1-20:W31-50", "W:W31-50:B1-20"),  # colour order free
        ("W:W31-50:B1-20.", "W:W31-50:B1-20"),  # legacy trailing dot (Millett 1995)
        ("W:W031,32:B01", "W:W31-32:B1"),  # leading zeros
        ("W:W31-50:B1-20:H0:F1", "W:W31-50:B1-20"),  # lidraughts counters
        ("B:WK4,30:BK27,22", "B:WK4,30:B22,K27"),
        ("W:WK31-33:B1", "W:WK31,K32,K33:B1"),  # K before a range crowns all of it
        ("B::", "B:W:B"),  # empty position (PDN null-move example)
        ("W:W:B1", "W:W:B1"),
        (" W:W31-50:B1-20 ", "W:W31-50:B1-20"),
    ],
)
def test_reading_forms(text: str, canonical: str) -> None:
    assert fen_of(text) == canonical


def test_unknown_side_is_the_first_player() -> None:
    assert draughts.Board("?:W29,13,11:B22,4,2", variant="english").turn == draughts.BLACK


def test_algebraic_fen() -> None:
    board = draughts.Board("W:WKd2:Bf6,c5,e5,e3", variant="russian")
    assert board.fen() == "W:WKd2:Bc5,e3,e5,f6"
    assert board.piece_at(board.variant.parse_square("d2")) == draughts.Piece(
        draughts.KING, draughts.WHITE
    )
    # Numeric squares on an algebraic board use its numeric numbering.
    assert (
        draughts.Board("W:W21-32:B1-12", variant="russian").fen()
        == draughts.find_variant("russian").starting_fen
    )


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "empty"),
        ("X:W31:B1", "must start with W, B or ?"),
        ("W:W51:B1", "not a square of the international board"),
        ("W:W0:B1", "not a square"),
        ("W:W31-60:B1", "off the international board"),
        ("W:W1-1000000:B1", "off the international board"),
        ("W:W31,31:B1", "listed twice"),
        ("W:W31:B31", "listed twice"),
        ("W:W3:B40", "would have been crowned"),  # a white man on Black's back row
        ("W:W31:B48", "would have been crowned"),
        ("W:W31-50,26-30:B1-20", "more than the 20"),
        ("W:W31:W32", "listed twice"),
        ("B:B:W31:B1", "listed twice"),  # lidraughts' doubled prefix, seen in the wild
        ("W:W31:BG12", "ghost piece"),
        ("W:W31:X12", "unknown fen field"),
        ("W:W31,,32:B1", "empty square"),
        ("W:W35-31:B1", "descending range"),
        ("W:Wz9:B1", "not a square"),
    ],
)
def test_invalid_fens_name_the_problem(text: str, problem: str) -> None:
    with pytest.raises(InvalidFenError, match=problem):
        draughts.Board(text)


def test_invalid_fen_message_quotes_the_fen() -> None:
    with pytest.raises(InvalidFenError, match=r"'W:W51:B1'"):
        draughts.Board("W:W51:B1")


def test_a_million_squares_is_rejected_quickly() -> None:
    import time

    start = time.perf_counter()
    with pytest.raises(InvalidFenError):
        draughts.Board("W:W" + ",".join(str(i) for i in range(1, 1_000_001)) + ":B1")
    # Not a timing assertion on speed as such: the error must come from the
    # first off-board square, not after building a huge position.
    assert time.perf_counter() - start < 30


def test_set_fen_clears_history() -> None:
    board = draughts.Board()
    board.push_pdn("32-28")
    board.set_fen("W:W31-50:B1-20")
    assert board.move_stack == []
    with pytest.raises(IndexError):
        board.pop()


def test_lidraughts_tv_positions() -> None:
    """73 FENs from the lidraughts TV feed, 30 of them malformed in the wild
    (doubled prefix, ghost pieces): each is read or rejected with
    InvalidFenError, nothing else."""
    import json

    from tests.conftest import shared_path

    path = shared_path("positions/international/lidraughts_tv_positions.json")
    read = rejected = 0
    for fen in json.loads(path.read_text())["positions"]:
        try:
            board = draughts.Board(fen)
        except InvalidFenError:
            rejected += 1
            continue
        read += 1
        assert draughts.Board(board.fen()) == board
    assert read + rejected == 73
    assert rejected == 30


@pytest.mark.parametrize("name", ["mobydam_2-move_ballots.fen", "mobydam_3-move_ballots.fen"])
def test_ballot_files(name: str) -> None:
    from tests.conftest import shared_path

    lines = shared_path(f"positions/international/{name}").read_text().split()
    assert lines
    for fen in lines:
        board = draughts.Board(fen)
        assert draughts.Board(board.fen()) == board
        assert board.legal_moves.count() > 0


def _algebraic_canadian(start_fen: str | None = None) -> draughts.Variant:
    # 12 files, a to l: the k-file's names begin with the king marker's letter.
    import attrs

    return attrs.evolve(
        draughts.variant.CANADIAN,
        name="canadian-algebraic",
        aliases=(),
        notation="algebraic",
        first_square_corner=0,
        start_fen=start_fen,
    )


def test_squares_of_the_k_file_are_not_kings() -> None:
    variant = _algebraic_canadian(start_fen="W:WK1:BK72")
    assert (variant.square_name(36), variant.square_name(7)) == ("k7", "a11")
    board = draughts.Board("W:W36:BK72", variant=variant)
    assert board.fen() == "W:Wk7:BKk1"
    again = draughts.Board(board.fen(), variant=variant)
    assert again == board and again.fen() == "W:Wk7:BKk1"
    assert again.piece_at(36) == draughts.Piece(draughts.MAN, draughts.WHITE)


def test_the_start_position_of_a_wide_algebraic_board_reads() -> None:
    variant = _algebraic_canadian()
    board = draughts.Board(variant=variant)
    assert len(board.pieces(draughts.WHITE)) == len(board.pieces(draughts.BLACK)) == 30
    assert "k1,k3,k5" in board.fen()
    assert draughts.Board(board.fen(), variant=variant).fen() == board.fen()


@pytest.mark.parametrize(
    ("item", "square", "kind"),
    [
        ("k7", "k7", draughts.MAN),  # a lower-case k before a digit: the k-file
        ("Kk7", "k7", draughts.KING),
        ("kk7", "k7", draughts.KING),
        ("KK7", "k7", draughts.KING),
        ("K7", "a11", draughts.KING),  # the capital K is the king marker: square 7
        ("Ka11", "a11", draughts.KING),
        ("ka11", "a11", draughts.KING),
        ("a11", "a11", draughts.MAN),
        ("7", "a11", draughts.MAN),
    ],
)
def test_the_king_marker_on_a_board_with_a_k_file(
    item: str, square: str, kind: draughts.PieceKind
) -> None:
    variant = _algebraic_canadian()
    board = draughts.Board(f"w:w{item}:b", variant=variant)
    assert board.piece_map() == {variant.parse_square(square): draughts.Piece(kind, draughts.WHITE)}


def test_a_lower_case_king_on_a_k_file_board_is_explained() -> None:
    with pytest.raises(InvalidFenError, match=r"'k45' is not a square.*capital K: K45"):
        draughts.Board("W:Wk45:B", variant=_algebraic_canadian())
    with pytest.raises(InvalidFenError, match="'k1-5' is not a square"):
        draughts.Board("W:Wk1-5:B", variant=_algebraic_canadian())
    assert draughts.Board("W:WK1-2:B", variant=_algebraic_canadian()).fen() == "W:WKb12,Kd12:B"


@pytest.mark.parametrize(
    ("text", "variant", "canonical"),
    [
        # Boards without a k-file read a lower-case king marker as before.
        ("w:wk22:bk1-2", "russian", "W:WKc3:BKb8,Kd8"),
        ("w:wka1:b", "russian", "W:WKa1:B"),
        ("w:wk31:b", "international", "W:WK31:B"),
        # So does a numeric board with a k-file: its squares are numbers.
        ("w:wk7:b", "canadian", "W:WK7:B"),
        ("w:wkk1:b", "canadian", "W:WK72:B"),
    ],
)
def test_a_lower_case_king_marker_elsewhere(text: str, variant: str, canonical: str) -> None:
    assert fen_of(text, variant) == canonical
