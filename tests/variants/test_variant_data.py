"""Variant lookup and square numbering (PDN 3.0 GameType, rules-research.md §1.6, §2.3)."""

from __future__ import annotations

import attrs
import pytest

import draughts
from draughts.variant import BRAZILIAN, ENGLISH, INTERNATIONAL, RUSSIAN, find_variant


def test_find_variant_by_name_alias_and_gametype() -> None:
    assert find_variant("russian") is find_variant(25) is find_variant("25,W,8,8,A0,0")
    assert find_variant("American") is ENGLISH
    assert find_variant("checkers") is ENGLISH
    assert find_variant(20) is INTERNATIONAL
    assert find_variant(" 20,W,10,10,N2,0 ") is INTERNATIONAL
    assert find_variant(21) is ENGLISH  # not dama, which shares GameType 21
    assert find_variant(INTERNATIONAL) is INTERNATIONAL


def test_find_variant_with_other_geometry_builds_it() -> None:
    # Unified pool checkers: American pool rules in algebraic notation, White first.
    unified = find_variant("23,W,8,8,A0,0")
    assert unified.notation == "algebraic" and unified.first_color == draughts.WHITE
    assert unified.capture_precedence == find_variant("pool").capture_precedence
    assert unified.gametype_string == "23,W,8,8,A0,0"


@pytest.mark.parametrize("key", ["nonsense", 999, "20,X,10,10,N2,0", "20,W,10,10,S2,0"])
def test_unknown_variants_raise(key: str | int) -> None:
    with pytest.raises(ValueError):
        find_variant(key)


def test_gametype_strings_match_the_pdn_table() -> None:
    expected = {
        "international": "20,W,10,10,N2,0",
        "english": "21,B,8,8,N1,0",
        "pool": "23,B,8,8,N1,0",
        "russian": "25,W,8,8,A0,0",
        "brazilian": "26,W,8,8,A0,0",
        "canadian": "27,W,12,12,N2,0",
    }
    for name, gametype in expected.items():
        assert find_variant(name).gametype_string == gametype


@pytest.mark.parametrize(
    ("variant", "square", "row_col"),
    [
        # FMJD: 1-5 on Black's back row, 46 in White's bottom-left corner,
        # 5 and 46 the ends of the long diagonal.
        (INTERNATIONAL, 1, (9, 1)),
        (INTERNATIONAL, 5, (9, 9)),
        (INTERNATIONAL, 46, (0, 0)),
        (INTERNATIONAL, 50, (0, 8)),
        # English: 1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1 with White at the
        # bottom (Games-Checkers diagram, rules-research.md §2.3).
        (ENGLISH, 1, (7, 1)),
        (ENGLISH, 4, (7, 7)),
        (ENGLISH, 5, (6, 0)),
        (ENGLISH, 29, (0, 0)),
        (ENGLISH, 32, (0, 6)),
    ],
)
def test_numbering(variant: draughts.Variant, square: int, row_col: tuple[int, int]) -> None:
    assert variant.coordinates(square) == row_col
    assert variant.square_at(*row_col) == square


def test_algebraic_names() -> None:
    for variant in (RUSSIAN, BRAZILIAN):
        assert variant.square_name(variant.square_at(0, 0) or 0) == "a1"
        assert variant.square_name(variant.square_at(7, 7) or 0) == "h8"
        assert variant.parse_square("c3") == variant.square_at(2, 2)
    with pytest.raises(ValueError):
        RUSSIAN.parse_square("a2")  # a light square
    with pytest.raises(ValueError):
        RUSSIAN.parse_square("i9")


def test_light_squares_are_not_squares() -> None:
    assert INTERNATIONAL.square_at(0, 1) is None
    with pytest.raises(ValueError):
        INTERNATIONAL.square_at(10, 0)
    with pytest.raises(ValueError):
        INTERNATIONAL.square_name(51)


def test_start_positions() -> None:
    assert INTERNATIONAL.starting_fen == "W:W31-50:B1-20"
    assert ENGLISH.starting_fen == "B:W21-32:B1-12"
    assert find_variant("canadian").starting_fen == "W:W43-72:B1-30"
    assert RUSSIAN.starting_fen.startswith("W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,g1,g3,h2:B")


def test_custom_variant_just_works() -> None:
    # International rules on a 6x6 board: the published 6x6 perft (drop
    # duplicates, damforum t=2666 via rules-research.md §4.2) starts 5, 25, 106, 369.
    six = attrs.evolve(INTERNATIONAL, name="intl-6x6", width=6, height=6, men_rows=2)
    board = draughts.Board(variant=six)
    assert [draughts.perft(board, d) for d in range(1, 6)] == [5, 25, 106, 369, 1301]
    # Checkers rules on 6x6 (keep duplicates; no duplicates so early).
    six_checkers = attrs.evolve(ENGLISH, name="checkers-6x6", width=6, height=6, men_rows=2)
    board = draughts.Board(variant=six_checkers)
    assert [draughts.perft(board, d) for d in range(1, 6)] == [5, 25, 106, 369, 1271]


def test_algebraic_names_on_numeric_boards_are_seen_from_the_first_player() -> None:
    # PDN counts notation corners from the first player's side; lidraughts and
    # playstrategy write American checkers so: Black's first move c3-d4 is 11-15.
    board = draughts.Board(variant="english")
    assert board.parse_pdn("c3-d4") == draughts.Move(11, 15)
    # White moves first in international: a1 is White's corner, square 46.
    assert draughts.variant.INTERNATIONAL.parse_square("a1") == 46
