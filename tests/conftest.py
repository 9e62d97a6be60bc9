"""Shared test helpers: where the data lives."""

from __future__ import annotations

import functools
import importlib
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

from draughts import pdn

DATA = Path(__file__).resolve().parent / "data"
# The shared data (the PDN corpus under data/pdn): the folder named by the
# environment variable DRAUGHTS_SHARED, else ``shared`` beside the repository
# (CI's layout). A checkout elsewhere (a git worktree, a user's clone) sets
# the variable to run the tests that read it.
SHARED = (
    Path(os.environ["DRAUGHTS_SHARED"]).expanduser().resolve()
    if os.environ.get("DRAUGHTS_SHARED")
    else Path(__file__).resolve().parents[2] / "shared"
)
SHARED_PDN = SHARED / "data" / "pdn"
# Why a test of the shared corpus skips, and how to run it.
SHARED_ABSENT = (
    f"{SHARED_PDN} is absent: set DRAUGHTS_SHARED to the shared data folder"
    " (the one holding data/pdn), or put that folder beside the repository as ../shared"
)


def shared_path(relative: str) -> Path:
    """A file under the shared corpus (``SHARED_PDN``), or skip the test when
    it is absent (a user's clone), saying how to point the tests at it."""
    path = SHARED_PDN / relative
    if not path.exists():
        pytest.skip(f"{path} is absent: " + SHARED_ABSENT.partition(": ")[2])
    return path


BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def benchmark_module(name: str) -> Iterator[ModuleType]:
    """A script of ``benchmarks/`` imported as a module, for a fixture to
    ``yield from``: the folder is on ``sys.path`` while the module is used
    (the scripts import each other by name), and taken off afterwards."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        yield importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCHMARKS))


@functools.cache
def _corpus_sample() -> frozenset[Path]:
    """Of each folder of the shared corpus, the smallest file of at least
    4 KB (a few games, not a one-line edge case), or the largest if all are
    smaller."""

    def rank(path: Path) -> tuple[bool, int]:
        size = path.stat().st_size
        return (size < 4096, size if size >= 4096 else -size)

    chosen: dict[Path, Path] = {}
    for path in sorted(SHARED_PDN.rglob("*")):
        if path.suffix in (".pdn", ".phn"):
            best = chosen.get(path.parent)
            if best is None or rank(path) < rank(best):
                chosen[path.parent] = path
    return frozenset(chosen.values())


def corpus_marks(path: Path) -> list[pytest.MarkDecorator]:
    """The marks of a test of one corpus file ``path``: the default run
    reads a sample, one small file of each folder (every variant, the
    conformance suite's files that must pass and those that must fail);
    ``-m slow`` reads every file."""
    return [] if path.resolve() in _corpus_sample() else [pytest.mark.slow]


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
