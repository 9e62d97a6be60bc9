"""docs/ml.rst: its tables of planes and actions are the library's.

Run this file to write the tables again after a change:
``python tests/ml/test_docs.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="draughts.ml needs NumPy (the ml extra)")

from draughts import VARIANTS
from draughts.ml import action_space_size, observation_shape, plane_names

PAGE = Path(__file__).resolve().parents[2] / "docs" / "ml.rst"
BEGIN = ".. The table below is written by tests/ml/test_docs.py: do not edit it by hand.\n"
END = ".. End of the generated table.\n"
COMMON = 6  # the planes every variant has: pieces, side to move, squares


def table() -> str:
    """The reST table of every preset's observation and action space."""
    lines = [
        ".. list-table:: Observations and actions of every preset",
        "   :header-rows: 1",
        "   :widths: 14 12 8 16 38 12",
        "",
        "   * - Variant",
        "     - Board",
        "     - Squares",
        "     - Observation",
        "     - Planes after the first six",
        "     - Actions",
    ]
    for variant in VARIANTS:
        shape = observation_shape(variant)
        extra = plane_names(variant)[COMMON:]
        squares = action_space_size(variant) // 2
        lines += [
            f"   * - ``{variant.name}``",
            f"     - {variant.width} x {variant.height}",
            f"     - {round(squares**0.5)}",
            f"     - {shape[0]} x {shape[1]} x {shape[2]}",
            "     - " + (", ".join(extra) if extra else "none"),
            f"     - {action_space_size(variant):,}",
        ]
    return "\n".join(lines) + "\n"


def _current() -> tuple[str, str, str]:
    text = PAGE.read_text(encoding="utf-8")
    head, rest = text.split(BEGIN)
    body, tail = rest.split(END)
    return head, body, tail


def test_the_page_has_the_current_table() -> None:
    _, body, _ = _current()
    assert body.strip() == table().strip(), "run: python tests/ml/test_docs.py"


if __name__ == "__main__":
    head, _, tail = _current()
    PAGE.write_text(head + BEGIN + "\n" + table() + "\n" + END + tail, encoding="utf-8")
    sys.stdout.write(f"wrote the table of {PAGE}\n")
