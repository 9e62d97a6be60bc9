"""A page per preset, written from the :class:`draughts.Variant` values when
the docs are built, so the pages cannot drift from the code.

On ``builder-inited`` this writes ``docs/variants/index.rst`` (a toctree in
the order of :data:`draughts.VARIANTS`), and for each preset
``docs/variants/<name>.rst`` and ``docs/variants/<name>.svg`` (its start
position drawn by :func:`draughts.svg.board`). The folder is git-ignored: it
is made again on every build, files are rewritten only when their text
changes (so Sphinx rereads only what changed) and files of presets that no
longer exist are removed. The build fails if a field of
:class:`~draughts.Variant` has no words in :mod:`variant_words`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import variant_words as words
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

import draughts.svg
from draughts.board import Board
from draughts.variant import VARIANTS, Variant

FOLDER = "variants"

_INDEX_HEAD = """\
Rules of each variant
=====================

One page per preset of :data:`draughts.VARIANTS`, written from the preset's
own values when these docs are built: what the page says is what the library
plays. :doc:`/variants` has all of them in one table and the
:class:`~draughts.Variant` fields; :doc:`/termination` explains the draw rules.

.. toctree::
   :maxdepth: 1

"""


def _cell(text: str) -> str:
    return " ".join(text.split())


def _table(
    title: str, header: tuple[str, ...], rows: Sequence[tuple[str, ...]], widths: str
) -> list[str]:
    lines = [f".. list-table:: {title}", "   :header-rows: 1", f"   :widths: {widths}", ""]
    for row in (header, *rows):
        lines.append(f"   * - {_cell(row[0])}")
        lines.extend(f"     - {_cell(cell)}" for cell in row[1:])
    return [*lines, ""]


def page(v: Variant) -> str:
    """The reST of one preset's page.

    >>> from draughts.variant import RUSSIAN
    >>> text = page(RUSSIAN)
    >>> text.splitlines()[2:4]
    ['Russian draughts (shashki)', '==========================']
    >>> "``25,W,8,8,A0,0``" in text, "LONG_DIAGONAL_RULE" in text
    (True, True)
    """
    constant, notes = words.preset_notes(v)
    lines = [
        f".. _variant-{v.name}:",
        "",
        v.title,
        "=" * len(v.title),
        "",
        ".. currentmodule:: draughts.variant",
        "",
    ]
    lines += [line.strip() for line in notes] or ["(No notes.)"]
    lines += [
        "",
        f'In code: ``draughts.Board(variant="{v.name}")``, the preset :data:`{constant}`.',
        "",
    ]

    lines += [
        "Start position",
        "--------------",
        "",
        f".. image:: {v.name}.svg",
        f"   :alt: the start position of {v.title}",
        "   :width: 360px",
        "",
        f"{words.start(v)}; White at the bottom.",
        "",
    ]

    lines += [
        "Rules",
        "-----",
        "",
        "Every field of :class:`~draughts.variant.Variant`, in words and as the "
        "value the preset holds.",
        "",
    ]
    rows = []
    for title, text, fields in words.rule_rows(v):
        data = "; ".join(f"``{name}={words.value(getattr(v, name))}``" for name in fields)
        rows.append((title, text, data))
    lines += _table(f"The rules of ``{v.name}``", ("Rule", "Here", "Fields"), rows, "16 50 34")

    lines += ["Draw rules", "----------", ""]
    if v.draw_rules:
        lines += [
            "Checked after every move by :meth:`Board.outcome "
            "<draughts.Board.outcome>` (automatic rules) and :meth:`Board.can_claim_draw "
            "<draughts.Board.can_claim_draw>` (claimable ones); counts are in plies "
            "unless they say otherwise. See :doc:`/termination`.",
            "",
        ]
        draws = [
            (f"``{rule.termination.name}``", rule.describe(), words.how(rule), rule.source or "")
            for rule in v.draw_rules
        ]
        lines += _table(
            f"The draw rules of ``{v.name}``",
            ("Rule", "When", "How", "Source"),
            draws,
            "18 30 14 38",
        )
    else:
        lines += [
            "None: a game ends by the goal above, or by agreement, resignation or "
            "time-out. See :doc:`/termination`.",
            "",
        ]
    return "\n".join(lines)


def index() -> str:
    """The reST of the folder's index page, presets in the docs' order."""
    return _INDEX_HEAD + "".join(f"   {v.name}\n" for v in VARIANTS)


def pictures() -> dict[str, str]:
    """File name -> SVG of the start position of every preset."""
    return {
        f"{v.name}.svg": draughts.svg.board(Board(variant=v), size=360) + "\n" for v in VARIANTS
    }


def _write(path: Path, text: str) -> None:
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def write_pages(app: Sphinx) -> None:
    """Write the folder (the ``builder-inited`` handler)."""
    missing = words.uncovered_fields()
    if missing:
        raise ExtensionError(
            f"docs/_ext/variant_words.py has no words for the Variant "
            f"fields {', '.join(missing)}: add them to RULE_ROWS"
        )
    folder = Path(app.srcdir) / FOLDER
    folder.mkdir(exist_ok=True)
    files = {"index.rst": index(), **{f"{v.name}.rst": page(v) for v in VARIANTS}, **pictures()}
    for name, text in files.items():
        _write(folder / name, text)
    for stale in folder.iterdir():
        if stale.name not in files and stale.suffix in (".rst", ".svg"):
            stale.unlink()


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", write_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
