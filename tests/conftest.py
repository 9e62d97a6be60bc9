"""Shared test helpers: where the data lives."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from draughts import pdn

DATA = Path(__file__).resolve().parent / "data"
SHARED = Path(__file__).resolve().parents[2] / "shared"
SHARED_PDN = SHARED / "data" / "pdn"


def shared_path(relative: str) -> Path:
    """A file under ``../shared/data/pdn``, or skip the test when the shared
    folder is not beside the repository (a user's clone)."""
    path = SHARED_PDN / relative
    if not path.exists():
        pytest.skip(f"{path} is absent: the shared test corpus is only present in CI")
    return path


def game_tree(node: pdn.GameNode, move_key: Callable[[object], object] = str) -> list[object]:
    """The whole PDN tree below ``node`` as nested lists of move (as
    ``move_key`` gives it, by default its full route text), comments and
    NAGs, built without recursion so that deep trees compare too."""
    out: list[object] = []
    stack: list[tuple[pdn.GameNode, list[object]]] = [(node, out)]
    while stack:
        current, sink = stack.pop()
        for child in current.variations:
            entry: list[object] = [
                move_key(child.move),
                child.comment,
                child.starting_comment,
                sorted(child.nags),
            ]
            sink.append(entry)
            stack.append((child, entry))
    return out
