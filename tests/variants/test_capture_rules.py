"""Rule positions: the capture and promotion rules, one position per rule.

The international positions and their expected move lists are the rule-unit
tests of rules-research.md §4.4 (DCTL, from the FMJD rules and the French
federation's tutorial; article numbers of FMJD Annex 1 given where known). The
others are built by hand for each rule of ``../shared/RULES.md``; the comment
on each says why the expected moves are the only legal ones.
"""

from __future__ import annotations

import attrs
import pytest

import draughts


def moves(fen: str, variant: str | draughts.Variant) -> list[str]:
    board = draughts.Board(fen, variant=variant)
    return sorted(board.pdn(m) for m in board.legal_moves)


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        ("W:W28", ["28-22", "28-23"]),
        ("W:W8", ["8-2", "8-3"]),
        ("W:WK46:B23", ["46x10", "46x14", "46x19", "46x5"]),
        ("W:W15:B8,19,20", ["15x2"]),
        ("W:WK47:B9,12,33", ["47x17", "47x21", "47x26"]),
        ("W:WK41,49:B9,10,12,19,38", ["41x43"]),  # art. 4.8: no removal in passing
        ("W:W48:B24,K31,34,K42,43", ["48x19"]),  # art. 4.13: quantity
        ("W:W26:B12,K21,31,32", ["26x28", "26x8"]),  # art. 4.14: kings weigh no more
        ("W:W15:B9,10", ["15x13"]),  # art. 4.15: no promotion in passing
        ("B:W27,28,38,39,42:BK25", ["25x33"]),
        ("W:WK48:B7,8,31,34,K42,44", ["48x50"]),
        ("W:WK1:B7,9,17,19,20,30,31,33,43,44", ["1x15"]),
    ],
)
def test_international_rule_positions(fen: str, expected: list[str]) -> None:
    assert moves(fen, "international") == sorted(expected)


def test_passing_the_far_row_does_not_crown_in_international() -> None:
    # 15x4x13: the man jumps 10 to land on 4 (the far row), then jumps 9 back
    # to 13. It passed the crowning row and ends as a man.
    board = draughts.Board("W:W15:B9,10", variant="international")
    board.push_pdn("15x13")
    assert board.piece_at(13) == draughts.Piece(draughts.MAN, draughts.WHITE)


class TestEnglish:
    def test_men_never_capture_backward(self) -> None:
        # White man on 18 (moving up toward 1-4); black men on 14 (ahead) and
        # 22 (behind, with 27... no: 26 is free behind 22). Only the forward
        # jump 18x9 is legal even though 18x25 would be a jump backward.
        assert moves("W:W18:B14,22", "english") == ["18x9"]

    def test_kings_jump_backward_one_square_only(self) -> None:
        # A short king on 18 next to a black man on 23 jumps to 27; it cannot
        # jump the man on 11 that stands two squares away.
        assert moves("W:WK18:B23,11", "english") == ["18x27"]

    def test_free_choice_between_captures(self) -> None:
        # Black man on 10 (d6) can jump 14 (c5) to 17 (b4) and then 22 (c3)
        # to 26 (d2), or jump 15 (e5) to 19 (f4) with nothing more. The longer
        # and the shorter capture are both legal in English.
        assert moves("B:W14,15,22:B10", "english") == ["10x19", "10x26"]

    def test_crowning_ends_the_move(self) -> None:
        # White man on 10 (d6) jumps 6 (c7) to 1 (b8) or 7 (e7) to 3 (f8).
        # On 3 it is crowned; a king there could jump 8 (g7) to 12 (h6), but
        # crowning ends the move.
        board = draughts.Board("W:W10:B6,7,8", variant="english")
        assert sorted(board.pdn(m) for m in board.legal_moves) == ["10x1", "10x3"]
        board.push_pdn("10x3")
        assert board.piece_at(3) == draughts.Piece(draughts.KING, draughts.WHITE)
        assert board.piece_at(8) is not None  # not captured: the move ended

    def test_capture_is_mandatory(self) -> None:
        board = draughts.Board("W:W22,30:B18", variant="english")
        assert [board.pdn(m) for m in board.legal_moves] == ["22x15"]
        with pytest.raises(draughts.IllegalMoveError, match="capture is mandatory"):
            board.parse_pdn("30-26")


class TestDamaFlying:
    def test_men_capture_backward(self) -> None:
        # A black man on 22 (black moves down, toward 29-32) jumps the white
        # man on 18, behind it, landing on 15.
        assert moves("B:W18:B22", "dama-flying") == ["22x15"]

    def test_free_choice_among_captures(self) -> None:
        # The English free-choice position; backward jumps add nothing (no
        # white piece stands behind the black man on any of its stops).
        assert moves("B:W14,15,22:B10", "dama-flying") == ["10x19", "10x26"]

    def test_man_crowned_mid_capture_stops(self) -> None:
        # The white man on 10 (d6) jumps 7 (e7) to 3 (f8), the far row, and is
        # crowned; a flying king on 3 could capture 8 (g7) landing on 12, but
        # the move ends on 3.
        board = draughts.Board("W:W10:B7,8", variant="dama-flying")
        assert sorted(board.pdn(m) for m in board.legal_moves) == ["10x3"]
        board.push_pdn("10x3")
        assert board.piece_at(3) == draughts.Piece(draughts.KING, draughts.WHITE)
        assert board.piece_at(8) is not None

    def test_flying_king_captures_at_a_distance(self) -> None:
        # White king on 29 (a1) slides up the long diagonal 25, 22, 18 to the
        # black man on 15 and lands on 11, 8 or 4.
        assert moves("W:WK29:B15", "dama-flying") == ["29x11", "29x4", "29x8"]

    def test_king_must_land_where_it_can_continue(self) -> None:
        # King on 29 (a1) jumps 15 (e5) along the long diagonal; of the landing
        # squares 11 (f6), 8 (g7) and 4 (h8) only 11 lets it go on, over 7 (e7)
        # to 2 (d8). So the only legal capture is 29x11x2; a king allowed to
        # stop anywhere could also play 29x8 and 29x4.
        board = draughts.Board("W:WK29:B15,7", variant="dama-flying")
        legal = sorted(board.pdn(m) for m in board.legal_moves)
        assert legal == ["29x2"]
        relaxed = draughts.Board(
            "W:WK29:B15,7",
            variant=attrs.evolve(draughts.variant.DAMA_FLYING, must_land_to_continue=False),
        )
        assert sorted(relaxed.pdn(m) for m in relaxed.legal_moves) == ["29x2", "29x4", "29x8"]


class TestBrazilian:
    def test_majority_rule(self) -> None:
        # The white man on c3 can take b4 (to a5) and then b6 (to c7): two
        # pieces; or d4 (to e5): one piece. Only the double capture is legal.
        assert moves("W:Wc3:Bb4,b6,d4", "brazilian") == ["c3xc7"]

    def test_man_passing_the_far_row_stays_a_man(self) -> None:
        # White man on d6 jumps e7 to f8 (far row) and must go on over g7 to
        # h6: it passed the far row and ends as a man.
        board = draughts.Board("W:Wd6:Be7,g7", variant="brazilian")
        assert [board.pdn(m) for m in board.legal_moves] == ["d6xh6"]
        board.push_pdn("d6xh6")
        assert board.piece_at(board.variant.parse_square("h6")) == draughts.Piece(
            draughts.MAN, draughts.WHITE
        )

    def test_captured_pieces_block_until_the_end(self) -> None:
        # Turkish strike. The king on f2 takes e3 (landing on c5), d6 (to f8)
        # and g7 (to h6). From h6 the diagonal back through g5, f4 and e3
        # leads to d2 and c1: with pieces removed at once it could take d2
        # as a fourth piece (f2xc1), but under Brazilian rules e3 stays on
        # the board until the move ends and blocks that way.
        fen = "W:WKf2:Bd2,d6,e3,g7"
        board = draughts.Board(fen, variant="brazilian")
        [move] = board.legal_moves
        name = board.variant.square_name
        assert [name(s) for s in move.path] == ["f2", "c5", "f8", "h6"]
        assert [name(s) for s in move.captures] == ["e3", "d6", "g7"]
        immediate = attrs.evolve(
            draughts.variant.BRAZILIAN,
            name="brazilian-immediate",
            removal=draughts.variant.Removal.IMMEDIATE,
        )
        assert moves(fen, immediate) == ["f2xc1"]


class TestRussian:
    def test_man_crowned_mid_capture_continues_as_king(self) -> None:
        # White man on e7... a white man on d6 jumps e7 to f8, is crowned and
        # continues as a king: from f8 it captures g7 landing on h6.
        board = draughts.Board("W:Wd6:Be7,g7", variant="russian")
        assert [board.pdn(m) for m in board.legal_moves] == ["d6:h6"]
        board.push_pdn("d6:h6")
        assert board.piece_at(board.variant.parse_square("h6")) == draughts.Piece(
            draughts.KING, draughts.WHITE
        )

    def test_free_choice(self) -> None:
        assert moves("W:Wc3:Bb4,b6,d4", "russian") == ["c3:c7", "c3:e5"]
