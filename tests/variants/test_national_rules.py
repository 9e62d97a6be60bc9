"""The special rules of the national variants, one position each.

Every expected move list below was worked out by hand from the rule book;
the comment above each case gives the reasoning. Squares are written in the
variant's own notation; on numeric boards the FEN reader also accepts ``a1``
style names, counted from the first player's bottom-left corner (so in Thai,
where Black starts, the diagrams are seen from Black's side; the king moves
tested there do not depend on which way is forward).
"""

from __future__ import annotations

import attrs
import pytest

import draughts
from draughts.variant import (
    CZECH,
    FRISIAN,
    INTERNATIONAL,
    ITALIAN,
    KILLER,
    PORTUGUESE,
    SPANISH,
    THAI,
    TURKISH,
    CaptureRule,
    Removal,
    Variant,
)

Key = tuple[int, int, frozenset[int]]


def _moves(variant: Variant, fen: str) -> set[Key]:
    board = draughts.Board(fen, variant=variant)
    return {(m.from_square, m.to_square, frozenset(m.captures)) for m in board.legal_moves}


def _key(variant: Variant, origin: str, dest: str, *captured: str) -> Key:
    sq = variant.parse_square
    return (sq(origin), sq(dest), frozenset(sq(c) for c in captured))


# -- Geometry -------------------------------------------------------------------


def test_italian_numbering() -> None:
    # FID: square 1 is Black's right-hand corner (White's top left), 32 is
    # White's single corner at the bottom right; a1 is not a playing square.
    assert ITALIAN.square_at(7, 0) == 1
    assert ITALIAN.square_at(0, 7) == 32
    assert ITALIAN.square_at(0, 0) is None
    assert ITALIAN.starting_fen == "W:W21-32:B1-12"


@pytest.mark.parametrize("variant", [SPANISH, PORTUGUESE], ids=lambda v: v.name)
def test_spanish_and_portuguese_numbering(variant: Variant) -> None:
    # GameType N1,1: square 1 at White's bottom right, counting right to left
    # and up; White starts on 1-12 (the Portuguese rules text, research §2.3).
    assert variant.square_at(0, 7) == 1
    assert variant.square_at(0, 1) == 4
    assert variant.square_at(7, 0) == 32
    assert variant.starting_fen == "W:W1-12:B21-32"


def test_thai_start_has_two_rows_of_men() -> None:
    board = draughts.Board(variant=THAI)
    assert len(list(board.pieces(draughts.WHITE))) == 8
    assert len(list(board.pieces(draughts.BLACK))) == 8
    # Black moves first (PDN GameType 31,B); its four front men have seven steps.
    assert board.turn == draughts.BLACK
    assert board.legal_moves.count() == 7


def test_turkish_start_and_orthogonal_men() -> None:
    board = draughts.Board(variant=TURKISH)
    assert len(list(board.pieces(draughts.WHITE))) == 16
    # Rows 2 and 3 are full: only the eight men of row 3 can step, forward.
    assert board.legal_moves.count() == 8
    # A lone man steps forward or sideways, never diagonally or backward.
    assert _moves(TURKISH, "W:Wd4:Bh7") == {
        _key(TURKISH, "d4", "d5"),
        _key(TURKISH, "d4", "c4"),
        _key(TURKISH, "d4", "e4"),
    }


# -- Frisian ----------------------------------------------------------------------
# Numbering: square n is in row (n-1)//5 from the top; the orthogonal neighbours
# of n on the same line are n-1/n+1 (same row) and n-10/n+10 (two rows away).


@pytest.mark.parametrize(
    ("fen", "dest"), [("W:W28:B18", "8"), ("W:W28:B27", "26"), ("W:W28:B38", "48")]
)
def test_frisian_man_captures_orthogonally(fen: str, dest: str) -> None:
    # Forward (18 is two rows up), sideways (27 is the next square left) and
    # backward (38 two rows down): the man jumps to the square beyond.
    black = fen.rsplit("B", 1)[1]
    assert _moves(FRISIAN, fen) == {_key(FRISIAN, "28", dest, black)}


def test_frisian_king_captures_orthogonally_at_a_distance() -> None:
    # 46, 36, 26, 16, 6 is the left column: the king flies up over 36 and 26.
    assert _moves(FRISIAN, "W:WK46:B16") == {_key(FRISIAN, "46", "6", "16")}


def test_frisian_two_men_outweigh_a_king() -> None:
    # 33x22x11 takes the men 28 and 17 (value 2 x 100), 35x15 the king on 25
    # (199): a king is worth less than two men.
    fen = "W:W33,35:B28,17,K25"
    assert _moves(FRISIAN, fen) == {_key(FRISIAN, "33", "11", "28", "17")}


def test_frisian_two_kings_outweigh_three_men() -> None:
    # 23x21x12 takes the kings 22 and 17 (2 x 199 = 398); 23x14x25x45 takes
    # the men 19, 20, 35 (300). With Wikipedia's "king = 1.5 men" both would
    # be worth 3 and both legal; the federation's rule makes the kings heavier.
    fen = "W:W26,23:BK17,K22,19,35,20,31"
    assert _moves(FRISIAN, fen) == {_key(FRISIAN, "23", "12", "22", "17")}


def test_frisian_three_kings_outweigh_five_men() -> None:
    # The man on 6 can take five men backwards, 6x8x17x26x37x48 over 7, 12,
    # 21, 31, 42 (500); the man on 38 takes three kings, 38x40x29x9 over 39,
    # 34, 19 (597). At 1.5 men a king, the five men (5) would beat 4.5.
    fen = "W:W38,6:BK19,K34,K39,25,12,21,7,31,42"
    assert _moves(FRISIAN, fen) == {_key(FRISIAN, "38", "9", "39", "34", "19")}


def test_frisian_king_captures_first_on_equal_value() -> None:
    # The man 33 can take 28 (to 22) and the king 50 can take 44 (to 39): one
    # man each, so the king must capture.
    assert _moves(FRISIAN, "W:W33,K50:B28,44") == {_key(FRISIAN, "50", "39", "44")}


def test_frisian_kings_move_diagonally_only() -> None:
    # The lone king on 28 lies on the long diagonal 46-5 (ten squares) and on
    # 6-50 (nine squares): 9 + 8 moves, and no straight ones (research §5.6:
    # Wikipedia and lidraughts).
    board = draughts.Board("W:WK28:B1", variant=FRISIAN)
    assert {m.from_square for m in board.legal_moves} == {28}
    assert board.legal_moves.count() == 17


# -- Italian (FID art. 5-6; positions from research §4.4) ------------------------


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        # Quantity: the king's three-piece capture beats the man's.
        ("W:WK21,31:B10,18,27", {("31", "6", "27", "18", "10")}),
        # Equal quantity: the king must capture rather than the man.
        ("W:WK23,31:B19,26,27", {("23", "21", "27", "26")}),
        # Equal quantity, both with a king: the one taking the king.
        ("W:WK23:B19,K28", {("23", "32", "28")}),
        # Equal in pieces and kings: the king met first.
        ("W:WK30:B10,12,18,K20,K26,27", {("30", "5", "26", "18", "10")}),
        # Fully equivalent captures: free choice.
        ("W:WK31:B18,20,K27,K28", {("31", "13", "27", "18"), ("31", "15", "28", "20")}),
        # Men capture forward only...
        ("W:W24:B20,28", {("24", "15", "20")}),
        # ...while kings capture backward too.
        ("W:WK24:B20,28", {("24", "15", "20"), ("24", "31", "28")}),
    ],
)
def test_italian_fid_positions(fen: str, expected: set[tuple[str, ...]]) -> None:
    assert _moves(ITALIAN, fen) == {_key(ITALIAN, *e) for e in expected}


def test_italian_men_may_not_capture_kings() -> None:
    # 24 is h3 and 20 is g4: with a man on 20 the man on 24 takes it, but a
    # king on 20 may not be taken by a man, and the man has no other step.
    assert _moves(ITALIAN, "W:W24:B20") == {_key(ITALIAN, "24", "15", "20")}
    assert _moves(ITALIAN, "W:W24:BK20") == set()


def test_italian_kings_first_is_compared_king_by_king() -> None:
    # The black king on 13 has two four-piece captures, each taking two kings
    # and each taking its first king (10) on the first jump. Read capture by
    # capture (the ITALIAN docstring), the second king decides: 19 on the
    # third jump beats 28 on the fourth. pydraughts, comparing the first king
    # only, allows both.
    fen = "B:WK10,11,K19,20,26,K28:BK13"
    board = draughts.Board(fen, variant=ITALIAN)
    assert [board.pdn(m, long=True) for m in board.legal_moves] == ["13x6x15x22x29"]
    assert _moves(ITALIAN, fen) == {_key(ITALIAN, "13", "29", "10", "11", "19", "26")}
    # Without the kings-first rule both captures tie, so the rule is what
    # makes the choice.
    ties = tuple(r for r in ITALIAN.capture_precedence if r is not CaptureRule.KINGS_FIRST)
    tied = attrs.evolve(ITALIAN, name="italian-no-kings-first", capture_precedence=ties)
    assert _moves(tied, fen) == {
        _key(ITALIAN, "13", "29", "10", "11", "19", "26"),
        _key(ITALIAN, "13", "31", "10", "11", "20", "28"),
    }


# -- Spanish / Portuguese ---------------------------------------------------------


@pytest.mark.parametrize("variant", [SPANISH, PORTUGUESE], ids=lambda v: v.name)
def test_spanish_most_kings_on_equal_number(variant: Variant) -> None:
    # White's man on 10 (third row, column f) can take the man on 14 (to 19)
    # or the king on 13 (to 17): one piece each, so the king must be taken.
    assert _moves(variant, "W:W10:B14,K13") == {_key(variant, "10", "17", "13")}


# -- Czech ------------------------------------------------------------------------


def test_czech_king_must_capture() -> None:
    # The man c3 could take two (c3xe5xg7 over d4 and f6); the king e1 takes
    # only f2 (then g3 is a dead end and h4 is blocked by f6/e7), yet a capture
    # with the king is compulsory when there is one.
    fen = "W:Wc3,Ke1:Bd4,f6,f2,e7"
    assert _moves(CZECH, fen) == {_key(CZECH, "e1", "g3", "f2"), _key(CZECH, "e1", "h4", "f2")}
    # Without the king the man's capture stands.
    assert _moves(CZECH, "W:Wc3:Bd4,f6,f2,e7") == {_key(CZECH, "c3", "g7", "d4", "f6")}


# -- Thai -------------------------------------------------------------------------


def test_thai_king_lands_directly_behind() -> None:
    # A flying king over d4 may land only on e5, not on f6, g7 or h8.
    assert _moves(THAI, "W:WKa1:Bd4") == {_key(THAI, "a1", "e5", "d4")}


def test_thai_captured_pieces_leave_at_once() -> None:
    # The king c1 goes round the diamond d2, d4, b4, b2 back to c1 and on up
    # the c1-h6 diagonal through d2, which is free again, to take f4 as well.
    # With removal at the end d2 would still block it. Free choice: every
    # complete sequence is legal.
    fen = "W:WKc1:Bd2,d4,b4,b2,f4"
    expected = {
        _key(THAI, "c1", "c1", "b2", "b4", "d4", "d2"),
        _key(THAI, "c1", "g5", "b2", "b4", "d4", "f4"),
        _key(THAI, "c1", "g5", "d2", "d4", "b4", "b2", "f4"),
        _key(THAI, "c1", "g5", "d2", "f4"),
    }
    assert _moves(THAI, fen) == expected
    at_end = attrs.evolve(THAI, name="thai-at-end", removal=Removal.AT_END)
    assert _key(THAI, "c1", "g5", "d2", "d4", "b4", "b2", "f4") not in _moves(at_end, fen)


# -- Turkish ----------------------------------------------------------------------


def test_turkish_men_capture_forward_and_sideways_only() -> None:
    # c4 (left) is taken; d3 (behind) may not be.
    assert _moves(TURKISH, "W:Wd4:Bc4,d3,h7") == {_key(TURKISH, "d4", "b4", "c4")}


def test_turkish_no_half_turn_in_a_capture() -> None:
    # After d4xd7 (or d8) over d6, turning back down over the emptied d6 to
    # take d2 would be a 180-degree turn, which the rules forbid; so each
    # capture takes one piece.
    fen = "W:WKd4:Bd6,d2"
    expected = {
        _key(TURKISH, "d4", "d7", "d6"),
        _key(TURKISH, "d4", "d8", "d6"),
        _key(TURKISH, "d4", "d1", "d2"),
    }
    assert _moves(TURKISH, fen) == expected
    turning = attrs.evolve(TURKISH, name="turkish-turning", reverse_in_capture=True)
    assert all(len(c) == 2 for _, _, c in _moves(turning, fen))


def test_turkish_immediate_removal_opens_the_way() -> None:
    # b1xb6 (over b3), xf6 (d6), xf2 (f3), xb2 (d2), then up the b-file through
    # the emptied b3 to take b7: five pieces, the only maximum capture. With
    # removal at the end b3 blocks and the best take four.
    fen = "W:WKb1:Bb3,d6,f3,d2,b7"
    assert _moves(TURKISH, fen) == {_key(TURKISH, "b1", "b8", "b3", "d6", "f3", "d2", "b7")}
    at_end = attrs.evolve(TURKISH, name="turkish-at-end", removal=Removal.AT_END)
    assert {len(c) for _, _, c in _moves(at_end, fen)} == {4}


def test_turkish_man_crowned_at_the_end_of_a_capture() -> None:
    # b6xb8 reaches the far row, then goes on sideways as a man over c8 to d8
    # only (a king could also stop on e8-h8), and is crowned there.
    board = draughts.Board("W:Wb6:Bb7,c8,h4", variant=TURKISH)
    (move,) = board.legal_moves
    assert (move.to_square, set(move.captures)) == (
        TURKISH.parse_square("d8"),
        {TURKISH.parse_square("b7"), TURKISH.parse_square("c8")},
    )
    board.push(move)
    assert board.piece_at(TURKISH.parse_square("d8")) == draughts.Piece.of(
        draughts.PieceKind.KING, draughts.WHITE
    )


# -- Killer -----------------------------------------------------------------------


def test_killer_king_halts_behind_a_captured_king() -> None:
    # 46x28 along the long diagonal: in International the king may stop on 23,
    # 19, 14, 10 or 5; in Killer, the last piece taken being a king, only on 23.
    fen = "W:WK46:BK28"
    assert _moves(INTERNATIONAL, fen) == {
        _key(INTERNATIONAL, "46", s, "28") for s in ("23", "19", "14", "10", "5")
    }
    assert _moves(KILLER, fen) == {_key(KILLER, "46", "23", "28")}
    # A captured man does not halt it.
    assert len(_moves(KILLER, "W:WK46:B28")) == 5


@pytest.mark.parametrize(
    ("key", "name"),
    [
        # PDN 3.0 GameType values (research §1.6) and lidraughts' own numbers.
        ("22,W,8,8,N2,1", "italian"),
        ("24,W,8,8,N1,1", "spanish"),
        ("28,W,8,8,N1,1", "portuguese"),
        ("29,W,8,8,A0,0", "czech"),
        ("30,W,8,8,A0,0", "turkish"),
        ("31,B,8,8,N2,0", "thai"),
        ("40,W,10,10,N2,0", "frisian"),
        (97, "frysk"),
        (98, "antidraughts"),
        (96, "breakthrough"),
        ("Frysk!", "frysk"),
    ],
)
def test_game_types_find_the_presets(key: str | int, name: str) -> None:
    variant = draughts.find_variant(key)
    assert variant.name == name
    if isinstance(key, str) and "," in key:
        assert variant.gametype_string == key


def test_killer_is_international_with_a_variant_tag() -> None:
    # Killer has no GameType number of its own: GameType 20 stays International.
    assert draughts.find_variant(20) is INTERNATIONAL
    assert KILLER.gametype_string == INTERNATIONAL.gametype_string
    assert KILLER.variant_tag == "killer"
