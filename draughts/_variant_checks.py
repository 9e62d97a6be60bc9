"""What makes a :class:`~draughts.Variant` playable: a check of every field
(in the class's order) and the rules between fields. Each problem raises a
ValueError naming the variant, the field and its value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from draughts._core.geometry import Geometry
from draughts._fen import FenCodec
from draughts._fen import _parse_general as parse_general_fen
from draughts._options import CaptureRule, Directions, Promotion, Removal
from draughts.errors import InvalidFenError
from draughts.outcome import DrawRule, Goal
from draughts.piece import Color

if TYPE_CHECKING:
    from draughts.variant import Variant


_Problem = str | None
"""What is wrong with a value, or None."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _integer(
    low: int, high: int | None = None, *, none: bool = False
) -> Callable[[object], _Problem]:
    def check(value: object) -> _Problem:
        if value is None and none:
            return None
        if not _is_int(value):
            return "is not an int" + (" or None" if none else "")
        assert isinstance(value, int)
        if value < low:
            return f"must be at least {low}" if high is None else f"must be {low} to {high}"
        if high is not None and value > high:
            return f"must be {low} to {high}"
        return None

    return check


def _instance(kind: type, *, none: bool = False) -> Callable[[object], _Problem]:
    def check(value: object) -> _Problem:
        if (value is None and none) or isinstance(value, kind):
            return None
        return f"is not a {kind.__name__}" + (" or None" if none else "")

    return check


def _one_of(*choices: object) -> Callable[[object], _Problem]:
    def check(value: object) -> _Problem:
        return None if value in choices else f"must be one of {', '.join(map(repr, choices))}"

    return check


def _text(*, none: bool = False, empty: bool = False) -> Callable[[object], _Problem]:
    def check(value: object) -> _Problem:
        if value is None and none:
            return None
        if not isinstance(value, str):
            return "is not a str" + (" or None" if none else "")
        return None if empty or value.strip() else "is empty"

    return check


def _tuple_of(kind: type, *, unique: bool = False) -> Callable[[object], _Problem]:
    def check(value: object) -> _Problem:
        if not isinstance(value, tuple):
            return f"is not a tuple of {kind.__name__}"
        for item in value:
            if not isinstance(item, kind):
                return f"holds {item!r}, not a {kind.__name__}"
            if isinstance(item, str) and not item.strip():
                return "holds an empty name"
        if unique and len(set(value)) != len(value):
            return "names a rule twice"
        return None

    return check


# Plain ints: flag arithmetic on the enum is slow.
_ALL_DIRECTIONS = int(Directions.ALL)
_FORWARD = int(Directions.DIAGONAL_FORWARD | Directions.ORTHOGONAL_FORWARD)


def _directions(*, moves: bool) -> Callable[[object], _Problem]:
    def check(value: object) -> _Problem:
        if not isinstance(value, Directions) or int(value) & ~_ALL_DIRECTIONS:
            return "is not a set of Directions"
        if moves and not int(value):
            return "is empty: the pieces could never move"
        return None

    return check


_MOVES = _directions(moves=True)


def _man_moves(value: object) -> _Problem:
    problem = _MOVES(value)
    if problem is None and isinstance(value, Directions) and not int(value) & _FORWARD:
        return "has no forward direction: men could never reach the far row"
    return problem


_FLAG = _instance(bool)

CHECKS: dict[str, Callable[[object], _Problem]] = {
    "name": _text(),
    "title": _text(empty=True),
    "gametype": _integer(0),
    # The geometry's limits: letters a-z for the files, ranks of two digits.
    "width": _integer(2, 26),
    "height": _integer(2, 99),
    "first_color": _instance(Color),
    "notation": _one_of("numeric", "algebraic"),
    "first_square_corner": _integer(0, 3),
    "inverted": _FLAG,
    "all_squares": _FLAG,
    "men_rows": _integer(0),
    "start_fen": _text(none=True),
    "man_moves": _man_moves,
    "man_captures": _directions(moves=False),
    "king_moves": _directions(moves=True),
    "king_captures": _directions(moves=False),
    "flying_kings": _FLAG,
    "king_lands_directly_behind": _FLAG,
    "king_stops_behind_king": _FLAG,
    "king_move_limit": _integer(1, none=True),
    "men_capture_kings": _FLAG,
    "capture_precedence": _tuple_of(CaptureRule, unique=True),
    "man_value": _integer(1),
    "king_value": _integer(1),
    "promotion": _instance(Promotion),
    "removal": _instance(Removal),
    "reverse_in_capture": _FLAG,
    "must_land_to_continue": _FLAG,
    # The separators the move reader knows (it reads X as x).
    "capture_separator": _one_of("x", "X", ":", "-"),
    "result_style": _one_of("default", "international"),
    "aliases": _tuple_of(str),
    "variant_tag": _text(none=True),
    "goal": _instance(Goal),
    "draw_rules": _tuple_of(DrawRule),
}


def validate(v: Variant) -> None:
    """Raise ValueError for a variant that cannot be played."""

    def fail(field: str, value: object, problem: str) -> ValueError:
        return ValueError(f"variant {v.name!r}: {field}={value!r} {problem}")

    for name, check in CHECKS.items():
        value = getattr(v, name)
        problem = check(value)
        if problem is not None:
            raise fail(name, value, problem)
    if v.start_fen is None:
        if v.men_rows < 1:
            raise fail("men_rows", v.men_rows, "gives no men (and there is no start_fen)")
        if 2 * v.men_rows >= v.height:
            raise fail(
                "men_rows",
                v.men_rows,
                f"leaves no empty row between the sides on a board of height={v.height} "
                "(2 * men_rows must be less than the height)",
            )
    if v.width % 2 and not v.all_squares:
        raise fail(
            "width", v.width, "is odd: rows would have unequal dark squares (all_squares allows it)"
        )
    if not int(v.man_captures) | int(v.king_captures):
        raise fail(
            "man_captures", v.man_captures, "and king_captures are both empty: nothing can capture"
        )
    if v.start_fen is not None:
        _check_start_fen(v, v.start_fen)


FITTING_FENS: set[tuple[object, ...]] = set()
"""The boards and start FENs already found to fit (FEN reading needs the
board's numbering, built once per board here rather than per variant)."""


def _check_start_fen(v: Variant, fen: str) -> None:
    """Raise ValueError unless ``fen`` is a position of the board with a
    piece on each side and the first player to move."""
    key = (
        fen,
        v.width,
        v.height,
        v.first_color,
        v.notation,
        v.first_square_corner,
        v.inverted,
        v.all_squares,
    )
    if key in FITTING_FENS:
        return
    # The general FEN reader needs only the geometry, not the codec's tables.
    codec = FenCodec.__new__(FenCodec)
    codec.geometry = Geometry(v)
    try:
        position = parse_general_fen(codec, fen, False)
    except InvalidFenError as error:
        raise ValueError(
            f"variant {v.name!r}: start_fen={fen!r} does not fit the board: {error}"
        ) from error
    if not all(position.men[c] | position.kings[c] for c in (0, 1)):
        raise ValueError(f"variant {v.name!r}: start_fen={fen!r} leaves a side without pieces")
    turn = fen.strip()[:1].upper()
    if turn != "?" and position.turn != v.first_color:
        raise ValueError(
            f"variant {v.name!r}: start_fen={fen!r} has {turn} to move, but first_color is "
            f"{v.first_color.name}"
        )
    if len(FITTING_FENS) >= 256:
        FITTING_FENS.clear()
    FITTING_FENS.add(key)
