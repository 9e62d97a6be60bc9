"""Material draws ("a king against a king is drawn") and the captures that
decide a game before them.

The rule texts (``draughts/_preset_draw_rules.py``) draw a game whose material
cannot win: Frisian "a king against a king is drawn at once", Turkish "a game
where both players have one piece left is drawn", the ``dama`` pages' "a
single man or king against a single king" (claimable, a time-out then draws).
A position where the side to move must capture is not such a game: the capture
is compulsory and changes the material, and with a piece each it takes the
last one and wins. So a pure material rule (a :class:`DrawRule` with limit 0)
is met only while the side to move has no capture; the counting rules that
name endings (the 5-move rule, ...) keep their limits, as their texts bound
the number of moves (docs/termination.rst, "Choices made").
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts
from draughts import BLACK, KING, MAN, VARIANTS, WHITE, Board, Outcome, Piece, Termination
from draughts.outcome import Goal

# -- The positions of the report --------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "fen"),
    [
        ("frisian", "W:WK28:BK23"),  # a king next to a king, free square behind
        ("frysk", "W:WK28:BK23"),
        ("turkish", "W:Wd4:Bd5"),  # a man in front of a man
        ("turkish", "W:WKa8:BKa2"),  # from a replayed Turkish game
    ],
)
def test_a_capture_of_the_last_piece_is_not_a_material_draw(variant: str, fen: str) -> None:
    board = Board(fen, variant=variant)
    moves = list(board.legal_moves)
    assert moves and all(len(m.captures) == 1 for m in moves)
    assert board.outcome() is None
    assert board.outcome(claim_draw=True) is None
    mover = board.turn
    for move in moves:
        board.push(move)
        outcome = board.outcome()
        assert outcome is not None
        assert (outcome.termination, outcome.winner) == (Termination.NO_PIECES, mover)
        board.pop()


@pytest.mark.parametrize(
    ("variant", "fen"),
    [
        ("frisian", "W:WK46:BK5"),
        ("frysk", "B:WK46:BK5"),
        ("turkish", "W:Wd4:Bf6"),
        # The replayed game's position with Black to move: Black cannot take.
        ("turkish", "B:WKa8:BKa2"),
        # White's only moves let Black capture, but White has no capture now:
        # one piece each, and the rule draws it at once.
        ("turkish", "W:Wd4:Bd6"),
    ],
)
def test_a_piece_each_without_a_capture_is_still_drawn(variant: str, fen: str) -> None:
    board = Board(fen, variant=variant)
    assert not board.has_captures()
    outcome = board.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.INSUFFICIENT_MATERIAL, None)


@pytest.mark.parametrize("variant", ["dama", "dama-flying"])
@pytest.mark.parametrize(
    ("fen", "capturer"),
    [
        ("W:WK22:BK18", WHITE),  # king against king, White takes
        ("B:WK22:BK18", BLACK),  # the same, Black takes
        ("W:W22:BK18", WHITE),  # a man takes the lone king
    ],
)
def test_dama_no_claim_and_no_timeout_draw_while_the_last_piece_can_be_taken(
    variant: str, fen: str, capturer: draughts.Color
) -> None:
    board = Board(fen, variant=variant)
    assert board.has_captures()
    assert not board.can_claim_draw()
    assert board.outcome(claim_draw=True) is None
    # The player who must capture wins if the other one's time runs out; his
    # own time-out is a loss like any other (the draw rule is not met).
    assert board.outcome_on_timeout(capturer.opponent).winner == capturer
    assert board.outcome_on_timeout(capturer).winner == capturer.opponent
    # One quiet ply earlier (the lone king one square back) the claim stands.
    quiet = Board(fen.replace("BK18", "BK14"), variant=variant)
    assert not quiet.has_captures()
    assert quiet.can_claim_draw()
    assert quiet.outcome_on_timeout(capturer) == Outcome(
        Termination.TIMEOUT, None, first_color=BLACK
    )


def test_a_counting_rule_with_endings_still_draws_at_its_limit() -> None:
    # FMJD 5-move rule, a king against a king: after 5 moves each the game is
    # drawn, even though White's sixth move could take the black king. The
    # count bounds the moves; the material rules' exception does not apply.
    board = Board("W:WK48:BK3", variant="international")
    line = ["48-26", "3-14", "26-3", "14-19", "3-12", "19-41", "12-3", "41-10", "3-17", "10-28"]
    for text in line:
        assert board.outcome() is None
        board.push_pdn(text)
    assert board.has_captures()
    assert board.outcome() == Outcome(Termination.FIVE_MOVE_RULE, None, "international")


# -- The property, over random positions of every preset ----------------------------


def _material_terminations(variant: draughts.Variant) -> set[Termination]:
    """The terminations of the variant's pure material rules (limit 0)."""
    return {r.termination for r in variant.draw_rules if not r.is_repetition and r.limit == 0}


def _is_material_draw(outcome: Outcome | None, material: set[Termination]) -> bool:
    return outcome is not None and outcome.winner is None and outcome.termination in material


def _random_board(data: st.DataObject, variant: draughts.Variant) -> Board:
    """A few pieces a side (most often one: the material rules' case) on
    random squares, either side to move."""
    board = Board.empty(variant=variant)
    lone = data.draw(st.booleans(), label="a piece each")
    squares = data.draw(
        st.lists(
            st.sampled_from(list(variant.squares)),
            min_size=2,
            max_size=2 if lone else 6,
            unique=True,
        ),
        label="squares",
    )
    split = data.draw(st.integers(1, len(squares) - 1), label="white pieces")
    for i, square in enumerate(squares):
        color = WHITE if i < split else BLACK
        kind = data.draw(st.sampled_from([KING, MAN]), label="kind")
        try:
            board.set_piece_at(square, Piece(kind, color))
        except ValueError:  # a man on its crowning row
            board.set_piece_at(square, Piece(KING, color))
    board.turn = data.draw(st.sampled_from([WHITE, BLACK]), label="turn")
    return board


def _check(board: Board, material: set[Termination]) -> None:
    fen = board.fen()
    opponent = board.turn.opponent
    left = len(board.pieces(opponent))
    moves = list(board.legal_moves)
    capture_out = [m for m in moves if left and len(m.captures) == left]
    outcome = board.outcome()
    claimed = board.outcome(claim_draw=True)
    for result in (outcome, claimed):
        if _is_material_draw(result, material):
            # The rule as decided: no capture at all is pending.
            assert not board.has_captures(), fen
            # The property asked for: no legal move takes every enemy piece.
            assert not capture_out, fen
    if capture_out:
        assert not _is_material_draw(outcome, material), fen
        assert not _is_material_draw(claimed, material), fen
        if board.variant.goal is Goal.STANDARD and not board.is_repetition(3):
            # dama's time-out draws come from the material rule and repetition.
            assert board.outcome_on_timeout(opponent).winner == board.turn, fen
    # A win by capture-out is never reported as a draw.
    for move in capture_out:
        board.push(move)
        after = board.outcome()
        assert after is not None and after.winner is not None, (fen, move)
        board.pop()


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_no_material_draw_while_the_side_to_move_can_take_everything(
    variant: draughts.Variant, data: st.DataObject
) -> None:
    _no_material_draw_while_everything_can_be_taken(variant, data)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_no_material_draw_while_the_side_to_move_can_take_everything_many(
    variant: draughts.Variant, data: st.DataObject
) -> None:
    _no_material_draw_while_everything_can_be_taken(variant, data)


def _no_material_draw_while_everything_can_be_taken(
    variant: draughts.Variant, data: st.DataObject
) -> None:
    material = _material_terminations(variant)
    board = _random_board(data, variant)
    _check(board, material)
    for _ in range(data.draw(st.integers(0, 12), label="plies")):
        moves = list(board.legal_moves)
        if not moves or board.outcome() is not None:
            break
        board.push(data.draw(st.sampled_from(moves), label="move"))
        _check(board, material)
