"""A :class:`Variant` that cannot be played is refused when it is made.

Each field has its check (type and range) and the rules between fields are
checked too: rows of men that meet or overlap, a board too small for them,
men or kings without a move direction, nothing able to capture, an odd row of
dark squares, a start FEN that does not fit the board. The error is a
ValueError naming the variant, the field and the value; ``attrs.evolve``
checks like the constructor does.
"""

from __future__ import annotations

import re

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts
import draughts._variant_checks as variant_checks
from draughts import BLACK, VARIANTS, WHITE, Board
from draughts.outcome import DrawRule, Goal, Termination
from draughts.variant import (
    INTERNATIONAL,
    RUSSIAN,
    TURKISH,
    CaptureRule,
    Directions,
    Promotion,
    Removal,
    Variant,
)

# (field, the value given, other fields changed with it, what the message says)
REJECTED: list[tuple[str, object, dict[str, object], str]] = [
    ("name", "", {}, "is empty"),
    ("name", 7, {}, "is not a str"),
    ("title", None, {}, "is not a str"),
    ("gametype", -1, {}, "must be at least 0"),
    ("gametype", True, {}, "is not an int"),
    ("width", 1, {}, "must be 2 to 26"),
    ("width", 28, {}, "must be 2 to 26"),
    ("width", "10", {}, "is not an int"),
    ("width", 9, {}, "is odd"),
    ("height", 1, {}, "must be 2 to 99"),
    ("height", 100, {}, "must be 2 to 99"),
    ("height", 6, {}, "leaves no empty row"),  # men_rows=4 on 6 rows: too small
    ("first_color", 0, {}, "is not a Color"),
    ("notation", "san", {}, "must be one of 'numeric', 'algebraic'"),
    ("first_square_corner", 4, {}, "must be 0 to 3"),
    ("first_square_corner", -1, {}, "must be 0 to 3"),
    ("inverted", 1, {}, "is not a bool"),
    ("all_squares", "yes", {}, "is not a bool"),
    ("men_rows", 6, {}, "leaves no empty row"),  # the rows overlap
    ("men_rows", 5, {}, "leaves no empty row"),  # every square taken
    ("men_rows", 0, {}, "gives no men"),
    ("men_rows", -1, {}, "must be at least 0"),
    ("men_rows", 2.5, {}, "is not an int"),
    ("start_fen", 5, {}, "is not a str or None"),
    ("start_fen", "W:W51:B1", {}, "does not fit the board"),  # square 51
    ("start_fen", "W:W1,46:B5", {}, "does not fit the board"),  # a man on its crowning row
    ("start_fen", "W:W31,K31:B1", {}, "does not fit the board"),  # a square twice
    ("start_fen", "W:X1:B5", {}, "does not fit the board"),  # not a FEN
    ("start_fen", "W:W31-50:B", {}, "leaves a side without pieces"),
    ("start_fen", "B:W31-50:B1-20", {}, "has B to move, but first_color is WHITE"),
    ("man_moves", Directions.NONE, {}, "is empty"),
    ("man_moves", Directions.DIAGONAL_BACKWARD, {}, "has no forward direction"),
    ("man_moves", 1, {}, "is not a set of Directions"),
    ("man_captures", "diagonal", {}, "is not a set of Directions"),
    (
        "man_captures",
        Directions.NONE,
        {"king_captures": Directions.NONE},
        "and king_captures are both empty",
    ),
    ("king_moves", Directions.NONE, {}, "is empty"),
    ("king_captures", Directions(64), {}, "is not a set of Directions"),
    ("flying_kings", None, {}, "is not a bool"),
    ("king_lands_directly_behind", 0, {}, "is not a bool"),
    ("king_stops_behind_king", "no", {}, "is not a bool"),
    ("king_move_limit", 0, {}, "must be at least 1"),
    ("king_move_limit", 2.0, {}, "is not an int or None"),
    ("men_capture_kings", None, {}, "is not a bool"),
    ("capture_precedence", [CaptureRule.MOST_PIECES], {}, "is not a tuple"),
    ("capture_precedence", ("most-pieces",), {}, "not a CaptureRule"),
    ("capture_precedence", (CaptureRule.MOST_KINGS,) * 2, {}, "names a rule twice"),
    ("man_value", 0, {}, "must be at least 1"),
    ("king_value", -3, {}, "must be at least 1"),
    ("promotion", "passes", {}, "is not a Promotion"),
    ("removal", None, {}, "is not a Removal"),
    ("reverse_in_capture", 1, {}, "is not a bool"),
    ("must_land_to_continue", None, {}, "is not a bool"),
    ("capture_separator", "*", {}, "must be one of"),
    ("capture_separator", "", {}, "must be one of"),
    ("result_style", "2-0", {}, "must be one of 'default', 'international'"),
    ("aliases", "standard", {}, "is not a tuple"),
    ("aliases", ("",), {}, "holds an empty name"),
    ("variant_tag", "", {}, "is empty"),
    ("goal", "standard", {}, "is not a Goal"),
    ("draw_rules", [DrawRule(Termination.REPETITION, 3)], {}, "is not a tuple"),
    ("draw_rules", (3,), {}, "not a DrawRule"),
]


@pytest.mark.parametrize(
    ("field", "value", "others", "problem"),
    REJECTED,
    ids=[f"{case[0]}={case[1]!r}" for case in REJECTED],
)
def test_a_field_that_cannot_be_played_is_named(
    field: str, value: object, others: dict[str, object], problem: str
) -> None:
    with pytest.raises(ValueError) as error:
        attrs.evolve(INTERNATIONAL, **{"name": "bad", **others, field: value})
    message = str(error.value)
    name = value if field == "name" else "bad"
    assert message.startswith(f"variant {name!r}: "), message
    assert f"{field}={value!r}" in message, message
    assert problem in message, message


def test_every_field_has_a_rejected_value() -> None:
    assert {case[0] for case in REJECTED} == {f.name for f in attrs.fields(Variant)}


def test_the_reported_variant_is_refused() -> None:
    # Before: W:W21-50:B1-20, White's rows over Black's.
    with pytest.raises(ValueError, match=r"variant 'mr6': men_rows=6 leaves no empty row"):
        Board(variant=attrs.evolve(INTERNATIONAL, name="mr6", men_rows=6))


def test_the_constructor_checks_like_evolve() -> None:
    with pytest.raises(ValueError, match="men_rows=4 leaves no empty row"):
        Variant(name="tiny", title="Tiny", gametype=99, width=6, height=6, men_rows=4)
    with pytest.raises(ValueError, match=re.escape("king_moves=<Directions.NONE: 0> is empty")):
        Variant(name="stuck", title="Stuck", gametype=99, king_moves=Directions.NONE)
    small = Variant(name="small", title="Small", gametype=99, width=6, height=6, men_rows=2)
    assert Board(variant=small).fen() == "W:W13-18:B1-6"


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_every_preset_is_accepted(variant: Variant) -> None:
    variant_checks.FITTING_FENS.clear()  # check the start FENs again, in full
    assert attrs.evolve(variant) == variant


def test_a_start_fen_that_fitted_one_board_is_checked_again_on_another() -> None:
    assert attrs.evolve(TURKISH, name="turkish-again").starting_fen == TURKISH.starting_fen
    # Rows 6 and 7 are off a board of 5 rows.
    with pytest.raises(ValueError, match=r"start_fen=.* does not fit the board"):
        attrs.evolve(TURKISH, name="turkish-5-rows", height=5)
    # Seen from Black, Black's men on a6-h7 stand where White's did: still a
    # position of the board, but the wrong side moves first.
    with pytest.raises(ValueError, match="has W to move, but first_color is BLACK"):
        attrs.evolve(TURKISH, name="turkish-black", first_color=BLACK)


def test_edge_values_are_accepted() -> None:
    # The smallest board that has an empty row between one row of men each,
    # the widest and highest boards, a start FEN with ? to move.
    assert Board(variant=attrs.evolve(INTERNATIONAL, name="2x3", width=2, height=3, men_rows=1))
    wide = attrs.evolve(INTERNATIONAL, name="wide", width=26, height=4, men_rows=1)
    assert len(Board(variant=wide).pieces(WHITE)) == 13
    assert Board(variant=attrs.evolve(RUSSIAN, name="algebraic-10", width=10, height=10))
    # A k-file: "k1" is a square there, not a king (see the FEN reader).
    wide_algebraic = attrs.evolve(RUSSIAN, name="algebraic-12", width=12, height=12, men_rows=5)
    start = Board(variant=wide_algebraic)
    assert Board(start.fen(), variant=wide_algebraic).fen() == start.fen()
    odd = attrs.evolve(TURKISH, name="turkish-7", width=7, start_fen="?:Wa2:Ba7")
    assert Board(variant=odd).turn == WHITE
    assert attrs.evolve(INTERNATIONAL, name="limit", king_move_limit=1).king_move_limit == 1


# -- Property: what validation accepts can be played ---------------------------------

# Any set of directions, or one that men play with.
_DIRECTIONS = st.integers(0, int(Directions.ALL)).map(Directions)
_MEN_DIRECTIONS = _DIRECTIONS | st.sampled_from(
    [Directions.DIAGONAL_FORWARD, Directions.ORTHOGONAL_FORWARD | Directions.ORTHOGONAL_SIDEWAYS]
)


@st.composite
def _variants(draw: st.DrawFn) -> dict[str, object]:
    """Field values around the limits, about half of them playable."""
    return {
        "width": draw(st.sampled_from([2, 4, 6, 8, 10, 12]) | st.integers(0, 15)),
        "height": draw(st.integers(2, 14) | st.integers(0, 15)),
        "men_rows": draw(st.integers(1, 3) | st.integers(-1, 7)),
        "all_squares": draw(st.booleans()),
        "notation": draw(st.sampled_from(["numeric", "algebraic"])),
        "first_square_corner": draw(st.integers(0, 3) | st.integers(-1, 4)),
        "inverted": draw(st.booleans()),
        "first_color": draw(st.sampled_from([WHITE, BLACK])),
        "man_moves": draw(_MEN_DIRECTIONS),
        "man_captures": draw(_DIRECTIONS),
        "king_moves": draw(_DIRECTIONS),
        "king_captures": draw(_DIRECTIONS),
        "flying_kings": draw(st.booleans()),
        "king_lands_directly_behind": draw(st.booleans()),
        "king_stops_behind_king": draw(st.booleans()),
        "men_capture_kings": draw(st.booleans()),
        "reverse_in_capture": draw(st.booleans()),
        "must_land_to_continue": draw(st.booleans()),
        "man_value": draw(st.integers(0, 3)),
        "king_value": draw(st.integers(0, 3)),
        "promotion": draw(st.sampled_from(list(Promotion))),
        "removal": draw(st.sampled_from(list(Removal))),
        "king_move_limit": draw(st.none() | st.integers(0, 3)),
        "capture_precedence": tuple(
            draw(st.lists(st.sampled_from(list(CaptureRule)), unique=True, max_size=3))
        ),
        "goal": draw(st.sampled_from(list(Goal))),
    }


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields=_variants(), data=st.data())
def test_an_accepted_variant_can_be_set_up_and_played(
    fields: dict[str, object], data: st.DataObject
) -> None:
    _set_up_and_play(fields, data)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields=_variants(), data=st.data())
def test_an_accepted_variant_can_be_set_up_and_played_many(
    fields: dict[str, object], data: st.DataObject
) -> None:
    _set_up_and_play(fields, data)


def _set_up_and_play(fields: dict[str, object], data: st.DataObject) -> None:
    try:
        variant = attrs.evolve(INTERNATIONAL, name="random", **fields)
    except ValueError:
        return  # refused when made: the only way a variant may fail
    board = Board(variant=variant)
    white, black = board.pieces(WHITE), board.pieces(BLACK)
    # The start rows neither meet nor overlap: as many men each, none shared.
    assert len(white) == len(black) > 0
    assert not set(white) & set(black)
    assert Board(board.fen(), variant=variant) == board
    for _ in range(data.draw(st.integers(0, 6), label="plies")):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = data.draw(st.sampled_from(moves), label="move")
        assert board.parse_pdn(board.pdn(move)) == move
        board.push(move)
        assert Board(board.fen(), variant=variant) == board
    draughts.perft(board, 1)
