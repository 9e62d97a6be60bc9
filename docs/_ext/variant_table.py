"""The ``variant-table`` directive: the rules of every preset, read from the
:class:`draughts.Variant` values themselves so the docs cannot drift from the code.

``.. variant-table::`` renders one overview table (every rule field of every
preset in :data:`draughts.VARIANTS`) followed by a definition list with each
preset's docstring, which names its sources and the choices made where the
sources disagree.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.pycode import ModuleAnalyzer
from sphinx.util.docutils import SphinxDirective

import draughts.variant as variant_module
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


def _directions(flags: Directions) -> str:
    """The largest named groups first: ``ALL`` reads "diagonal, orthogonal"."""
    if flags == Directions.ALL:
        return "all eight"
    words = []
    left = flags
    for group, word in _DIRECTION_WORDS:
        if group & left == group and group:
            words.append(word)
            left &= ~group
    return ", ".join(words) or "none"


def _precedence(v: Variant) -> str:
    if not v.capture_precedence:
        return "free choice"
    text = " > ".join(_PRECEDENCE_WORDS[rule] for rule in v.capture_precedence)
    if CaptureRule.MOST_VALUE in v.capture_precedence:
        text += f" (man {v.man_value}, king {v.king_value})"
    return text


def _board(v: Variant) -> str:
    squares = "all squares" if v.all_squares else "dark squares"
    return f"{v.width}x{v.height}, {squares}, ``{v.starting_fen}``"


def _kings(v: Variant) -> str:
    parts = ["flying" if v.flying_kings else "short",
             f"move {_directions(v.king_moves)}",
             f"capture {_directions(v.king_captures)}"]
    if v.king_lands_directly_behind:
        parts.append("land directly behind the captured piece")
    if v.king_stops_behind_king:
        parts.append("halt directly behind a king taken last")
    if v.king_move_limit is not None:
        parts.append(f"at most {v.king_move_limit} non-capturing moves in a row "
                     "while the side has men")
    return "; ".join(parts)


def _men(v: Variant) -> str:
    text = f"move {_directions(v.man_moves)}; capture {_directions(v.man_captures)}"
    if not v.men_capture_kings:
        text += "; may not capture kings"
    return text


def _capture_details(v: Variant) -> str:
    parts = [_PROMOTION_WORDS[v.promotion],
             "removed at once" if v.removal is Removal.IMMEDIATE else "removed at the end"]
    parts.append("may turn back" if v.reverse_in_capture else "no 180° turn")
    if not v.must_land_to_continue:
        parts.append("king may stop where it cannot go on")
    return "; ".join(parts)


def _notation(v: Variant) -> str:
    tag = f", ``Variant \"{v.variant_tag}\"``" if v.variant_tag else ""
    return (f"``{v.gametype_string}``{tag}; {v.notation}; "
            f"capture ``{v.capture_separator}``; results {v.result_style}")


def _first(v: Variant) -> str:
    return v.first_color.name.lower()


_COLUMNS = (
    ("Variant", lambda v: f"``{v.name}``"),
    ("PDN GameType, notation", _notation),
    ("Board, start", _board),
    ("First", _first),
    ("Men", _men),
    ("Kings", _kings),
    ("Capture precedence", _precedence),
    ("Far row mid-capture; captured pieces", _capture_details),
    ("Goal", lambda v: v.goal.value),
)


def _cell(text: str) -> str:
    return text.replace("\n", " ")


def table_lines(variants: tuple[Variant, ...]) -> list[str]:
    """The reST of the overview table and the per-preset notes."""
    lines = [".. list-table:: Rules of every preset", "   :header-rows: 1",
             "   :class: variant-table", ""]
    for index, (title, _) in enumerate(_COLUMNS):
        lines.append(f"   {'* -' if index == 0 else '  -'} {title}")
    for v in variants:
        for index, (_, render) in enumerate(_COLUMNS):
            lines.append(f"   {'* -' if index == 0 else '  -'} {_cell(render(v))}")
    lines.append("")
    docs = ModuleAnalyzer.for_module(variant_module.__name__).find_attr_docs()
    names = {id(value): name for name, value in vars(variant_module).items()
             if isinstance(value, Variant)}
    for v in variants:
        name = names.get(id(v), "")
        doc = docs.get(("", name), [])
        lines.append(f"``{v.name}`` -- {v.title} (:data:`draughts.variant.{name}`)")
        lines += [f"   {line}" for line in doc if line.strip()] or ["   (no notes)"]
        if v.aliases:
            lines.append("   Also found as: " + ", ".join(f"``{a}``" for a in v.aliases) + ".")
        lines.append("")
    return lines


class VariantTable(SphinxDirective):
    """``.. variant-table::`` (no arguments)."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        self.env.note_dependency(variant_module.__file__ or "")
        container = nodes.container()
        self.state.nested_parse(StringList(table_lines(variant_module.VARIANTS),
                                           source="<variant-table>"),
                                self.content_offset, container)
        return [container]


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("variant-table", VariantTable)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
