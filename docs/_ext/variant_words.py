"""The rules of a :class:`draughts.Variant` in words, for the docs.

Shared by the ``variant-table`` directive (one table of every preset) and the
generated page of each preset (``variant_pages``), so both say the same thing.
:func:`rule_rows` names the fields each row is made from, and
:func:`uncovered_fields` lets the page builder fail when a new field of
:class:`~draughts.Variant` has no words yet.
"""

from __future__ import annotations

import enum
from collections.abc import Callable

import attrs
from sphinx.pycode import ModuleAnalyzer

import draughts.variant as variant_module
from draughts.outcome import DrawRule, Goal
from draughts.piece import WHITE, PieceKind
from draughts.variant import CaptureRule, Directions, Promotion, Removal, Variant

_DIRECTION_WORDS = (
    (Directions.DIAGONAL, "diagonal"),
    (Directions.DIAGONAL_FORWARD, "diagonal forward"),
    (Directions.DIAGONAL_BACKWARD, "diagonal backward"),
    (Directions.ORTHOGONAL, "orthogonal"),
    (Directions.ORTHOGONAL_FORWARD, "straight forward"),
    (Directions.ORTHOGONAL_BACKWARD, "straight backward"),
    (Directions.ORTHOGONAL_SIDEWAYS, "sideways"),
)

_PRECEDENCE_WORDS = {
    CaptureRule.MOST_PIECES: "most pieces",
    CaptureRule.MOST_VALUE: "most value",
    CaptureRule.WITH_KING: "with a king",
    CaptureRule.MOST_KINGS: "most kings",
    CaptureRule.KINGS_FIRST: "kings met first",
}

_PROMOTION_WORDS = {
    Promotion.ENDS_MOVE: "crowned, move ends",
    Promotion.CONTINUES_AS_KING: "crowned, captures on as a king",
    Promotion.PASSES: "captures on as a man, crowned if it stops there",
}

_GOAL_WORDS = {
    Goal.STANDARD: "a side with no legal move loses",
    Goal.ANTIDRAUGHTS: "a side with no legal move wins",
    Goal.BREAKTHROUGH: "the first side to make a king wins; a side with no legal move loses",
}

_CORNERS = ("bottom left", "bottom right", "top left", "top right")


def directions(flags: Directions) -> str:
    """The largest named groups first.

    >>> directions(Directions.ALL), directions(Directions.DIAGONAL_FORWARD)
    ('all eight', 'diagonal forward')
    """
    if flags == Directions.ALL:
        return "all eight"
    words = []
    left = flags
    for group, word in _DIRECTION_WORDS:
        if group & left == group and group:
            words.append(word)
            left &= ~group
    return ", ".join(words) or "none"


def precedence(v: Variant) -> str:
    """Which capture must be chosen.

    >>> from draughts.variant import FRISIAN
    >>> precedence(FRISIAN)
    'most value > with a king (man 100, king 199)'
    """
    if not v.capture_precedence:
        return "free choice"
    text = " > ".join(_PRECEDENCE_WORDS[rule] for rule in v.capture_precedence)
    if CaptureRule.MOST_VALUE in v.capture_precedence:
        text += f" (man {v.man_value}, king {v.king_value})"
    return text


def board(v: Variant) -> str:
    """Size, squares played on and start position, for the overview table."""
    squares = "all squares" if v.all_squares else "dark squares"
    return f"{v.width}x{v.height}, {squares}, ``{v.starting_fen}``"


def kings(v: Variant) -> str:
    """How kings move and capture.

    >>> from draughts.variant import ENGLISH
    >>> kings(ENGLISH)
    'short; move diagonal; capture diagonal'
    """
    parts = [
        "flying" if v.flying_kings else "short",
        f"move {directions(v.king_moves)}",
        f"capture {directions(v.king_captures)}",
    ]
    if v.king_lands_directly_behind:
        parts.append("land directly behind the captured piece")
    if v.king_stops_behind_king:
        parts.append("halt directly behind a king taken last")
    if v.king_move_limit is not None:
        parts.append(
            f"at most {v.king_move_limit} non-capturing moves in a row while the side has men"
        )
    return "; ".join(parts)


def men(v: Variant) -> str:
    """How men move and capture.

    >>> from draughts.variant import ITALIAN
    >>> men(ITALIAN)
    'move diagonal forward; capture diagonal forward; may not capture kings'
    """
    text = f"move {directions(v.man_moves)}; capture {directions(v.man_captures)}"
    if not v.men_capture_kings:
        text += "; may not capture kings"
    return text


def promotion(v: Variant) -> str:
    """What a man reaching the far row in the middle of a capture does."""
    return _PROMOTION_WORDS[v.promotion]


def capture_details(v: Variant) -> str:
    """Crowning mid-capture, removal, turning back, landing."""
    parts = [
        promotion(v),
        "removed at once" if v.removal is Removal.IMMEDIATE else "removed at the end",
    ]
    parts.append("may turn back" if v.reverse_in_capture else "no 180° turn")
    if not v.must_land_to_continue:
        parts.append("king may stop where it cannot go on")
    return "; ".join(parts)


def notation(v: Variant) -> str:
    """GameType, notation, capture separator and result style in one cell."""
    tag = f', ``Variant "{v.variant_tag}"``' if v.variant_tag else ""
    return (
        f"``{v.gametype_string}``{tag}; {v.notation}; "
        f"capture ``{v.capture_separator}``; results {v.result_style}"
    )


def goal(v: Variant) -> str:
    """Who wins."""
    return _GOAL_WORDS[v.goal]


def how(rule: DrawRule) -> str:
    """Whether a draw rule ends the game by itself or must be claimed.

    >>> from draughts.variant import ENGLISH
    >>> how(ENGLISH.draw_rules[0])
    'claimable, also when the next move would repeat'
    """
    text = "automatic" if rule.automatic else "claimable"
    if rule.claim_on_next_move:
        text += ", also when the next move would repeat"
    if rule.on_timeout:
        text += "; a time-out then draws"
    return text


def _place(v: Variant, square: int) -> str:
    """Where a square lies, seen from White: row from White's side, column
    from White's left (read from the variant's tables, not restated)."""
    row, column = v.coordinates(square)
    rows = {0: "White's back row", v.height - 1: "Black's back row"}
    columns = {0: "the left edge", v.width - 1: "the right edge"}
    return (
        f"{rows.get(row, f'row {row + 1} from White')}, "
        f"{columns.get(column, f'column {column + 1} from the left')}"
    )


def numbering(v: Variant) -> str:
    """How squares are named, with square 1 (or a1) located.

    >>> from draughts.variant import INTERNATIONAL
    >>> numbering(INTERNATIONAL)  # doctest: +NORMALIZE_WHITESPACE
    "numeric, squares 1-50; square 1 on Black's back row, column 2 from the left
    (GameType corner 2: top left, seen from the first player); the first player's
    bottom-left square is a playing square"
    """
    if v.notation == "algebraic":
        last = v.square_name(v.squares[-1])
        first = v.parse_square("a1")
        text = f"algebraic, files a-{last[0]}, ranks 1-{v.height}; a1"
    else:
        first = 1
        text = f"numeric, squares 1-{v.square_count}; square 1"
    text += (
        f" on {_place(v, first)} (GameType corner {v.first_square_corner}: "
        f"{_CORNERS[v.first_square_corner]}, seen from the first player); "
    )
    if v.all_squares:
        return text + "every square is played on"
    played = "is not" if v.inverted else "is"
    return text + f"the first player's bottom-left square {played} a playing square"


def start(v: Variant) -> str:
    """The start position: how many men, where, and its FEN."""
    from draughts.board import Board

    start_board = Board(variant=v)
    count = len(start_board.pieces(PieceKind.MAN, WHITE))
    where = "as given" if v.start_fen else f"on the first {v.men_rows} rows of each side"
    return f"{count} men each, {where}: ``{v.starting_fen}``"


def written(v: Variant) -> str:
    """How moves and results are written in PDN."""
    win, draw, loss = (
        ("2-0", "1-1", "0-2") if v.result_style == "international" else ("1-0", "1/2-1/2", "0-1")
    )
    first = "White's" if v.first_color == WHITE else "Black's, the first player's,"
    return (
        f"captures written with ``{v.capture_separator}``; "
        f"results ``{win}``, ``{draw}``, ``{loss}`` ({first} score first)"
    )


def _pdn(v: Variant) -> str:
    text = f"GameType ``{v.gametype_string}`` (number {v.gametype})"
    if v.variant_tag:
        text += f' with the tag ``[Variant "{v.variant_tag}"]``'
    return text


def _names(v: Variant) -> str:
    names = ", ".join(f"``{name}``" for name in (v.name, *v.aliases))
    return f"{v.title}; :func:`~draughts.variant.find_variant` knows it as {names}"


def _landing(v: Variant) -> str:
    if not v.flying_kings:
        return "does not arise: kings are short"
    if v.king_lands_directly_behind:
        return "always directly behind the captured piece (see Kings)"
    if v.must_land_to_continue:
        return "must stop where it can capture again, if there is such a square"
    return "may stop on any free square behind the piece"


def _draws(v: Variant) -> str:
    if not v.draw_rules:
        return "none: only agreement, resignation or time-out (below)"
    return f"{len(v.draw_rules)}, in the table below"


RuleRow = tuple[str, Callable[[Variant], str], tuple[str, ...]]

RULE_ROWS: tuple[RuleRow, ...] = (
    ("Names", _names, ("title", "name", "aliases")),
    ("PDN", _pdn, ("gametype", "variant_tag")),
    (
        "Board",
        lambda v: (
            f"{v.width}x{v.height}, {'every square' if v.all_squares else 'dark squares only'}"
        ),
        ("width", "height", "all_squares"),
    ),
    ("Squares", numbering, ("notation", "first_square_corner", "inverted")),
    ("First to move", lambda v: v.first_color.name.capitalize(), ("first_color",)),
    ("Start", start, ("men_rows", "start_fen")),
    ("Men", men, ("man_moves", "man_captures", "men_capture_kings")),
    (
        "Kings",
        kings,
        (
            "flying_kings",
            "king_moves",
            "king_captures",
            "king_lands_directly_behind",
            "king_stops_behind_king",
            "king_move_limit",
        ),
    ),
    ("Capture precedence", precedence, ("capture_precedence", "man_value", "king_value")),
    ("Far row during a capture", promotion, ("promotion",)),
    (
        "Captured pieces",
        lambda v: (
            "leave the board as soon as they are jumped"
            if v.removal is Removal.IMMEDIATE
            else "leave the board when the move ends; until then "
            "they block the way and cannot be jumped twice"
        ),
        ("removal",),
    ),
    (
        "Turning back",
        lambda v: (
            "a capturing piece may turn back 180° between jumps"
            if v.reverse_in_capture
            else "no 180° turn between two jumps"
        ),
        ("reverse_in_capture",),
    ),
    ("Flying king's landing", _landing, ("must_land_to_continue",)),
    ("Notation", written, ("capture_separator", "result_style", "first_color")),
    ("Goal", goal, ("goal",)),
    ("Draw rules", _draws, ("draw_rules",)),
)
"""Each row: a heading, the words, and the :class:`~draughts.Variant` fields
they are made from."""


def rule_rows(v: Variant) -> list[tuple[str, str, tuple[str, ...]]]:
    """The rows of a variant's rules table.

    >>> from draughts.variant import RUSSIAN
    >>> [row for row in rule_rows(RUSSIAN) if row[0] == "Far row during a capture"]
    [('Far row during a capture', 'crowned, captures on as a king', ('promotion',))]
    """
    return [(title, render(v), fields) for title, render, fields in RULE_ROWS]


def uncovered_fields() -> list[str]:
    """Fields of :class:`~draughts.Variant` that no row puts into words.

    >>> uncovered_fields()
    []
    """
    covered = {name for _, _, fields in RULE_ROWS for name in fields}
    return [f.name for f in attrs.fields(Variant) if f.name not in covered]


def value(data: object) -> str:
    """A field's value as short Python text: enum members by name.

    >>> value(Directions.DIAGONAL), value((CaptureRule.MOST_PIECES,)), value(None)
    ('Directions.DIAGONAL', '(CaptureRule.MOST_PIECES,)', 'None')
    """
    if isinstance(data, enum.Enum):
        return f"{type(data).__name__}.{data.name}"
    if isinstance(data, tuple) and all(isinstance(item, DrawRule) for item in data) and data:
        return f"({len(data)} DrawRule values)"
    if isinstance(data, tuple):
        inner = ", ".join(value(item) for item in data)
        return f"({inner},)" if len(data) == 1 else f"({inner})"
    return repr(data)


def preset_notes(v: Variant) -> tuple[str, list[str]]:
    """The module constant that holds a preset and the lines of its
    docstring, which names its sources and the choices made where they
    disagree; ``("", [])`` for a variant that is not a preset.

    >>> from draughts.variant import RUSSIAN
    >>> name, lines = preset_notes(RUSSIAN)
    >>> name, lines[0]
    ('RUSSIAN', 'Russian draughts (GameType 25): free choice of capture; a man reaching the')
    """
    names = {
        id(data): name for name, data in vars(variant_module).items() if isinstance(data, Variant)
    }
    name = names.get(id(v), "")
    docs = ModuleAnalyzer.for_module(variant_module.__name__).find_attr_docs()
    return name, list(docs.get(("", name), [])) if name else []
