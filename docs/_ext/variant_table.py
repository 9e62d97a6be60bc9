"""The ``variant-table`` directive: the rules of every preset, read from the
:class:`draughts.Variant` values themselves so the docs cannot drift from the code.

``.. variant-table::`` renders one overview table (every rule field of every
preset in :data:`draughts.VARIANTS`) followed by a definition list with each
preset's docstring, which names its sources and the choices made where the
sources disagree.
"""

from __future__ import annotations

from typing import Any

import variant_words as words
from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

import draughts.variant as variant_module
from draughts.variant import Variant


def _first(v: Variant) -> str:
    return v.first_color.name.lower()


_COLUMNS = (
    ("Variant", lambda v: f":doc:`{v.name} </variants/{v.name}>`"),
    ("PDN GameType, notation", words.notation),
    ("Board, start", words.board),
    ("First", _first),
    ("Men", words.men),
    ("Kings", words.kings),
    ("Capture precedence", words.precedence),
    ("Far row mid-capture; captured pieces", words.capture_details),
    ("Goal", lambda v: v.goal.value),
)


def _cell(text: str) -> str:
    return text.replace("\n", " ")


def table_lines(variants: tuple[Variant, ...]) -> list[str]:
    """The reST of the overview table and the per-preset notes."""
    lines = [
        ".. list-table:: Rules of every preset",
        "   :header-rows: 1",
        "   :class: variant-table",
        "",
    ]
    for index, (title, _) in enumerate(_COLUMNS):
        lines.append(f"   {'* -' if index == 0 else '  -'} {title}")
    for v in variants:
        for index, (_, render) in enumerate(_COLUMNS):
            lines.append(f"   {'* -' if index == 0 else '  -'} {_cell(render(v))}")
    lines.append("")
    for v in variants:
        name, doc = words.preset_notes(v)
        lines.append(
            f":doc:`{v.name} </variants/{v.name}>` -- {v.title} (:data:`draughts.variant.{name}`)"
        )
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
        self.state.nested_parse(
            StringList(table_lines(variant_module.VARIANTS), source="<variant-table>"),
            self.content_offset,
            container,
        )
        return [container]


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("variant-table", VariantTable)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
