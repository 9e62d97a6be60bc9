"""Perft against published tables.

The start-position and special-position counts come from
``tests/data/perft_reference.json`` (DCTL's test suite, which cites the
shashki.com and damforum threads; the "drop duplicates" convention is ours:
routes capturing the same set of pieces are one move). The 160 positions of
``perft/mobydam_perft_international.json`` were counted by Moby Dam.

The default run goes as deep as a node budget allows; ``-m slow`` goes deeper.
"""

from __future__ import annotations

import json
import re
from typing import Any

import attrs
import pytest

import draughts
from tests.conftest import DATA, shared_path

FAST_BUDGET = 60_000
SLOW_BUDGET = 3_000_000


def _reference_entries() -> list[tuple[str, str, list[int]]]:
    data = json.loads((DATA / "perft_reference.json").read_text())
    out = []
    for entry in data["entries"]:
        drop = entry.get("perft_drop_duplicates")
        if not drop:
            continue  # published only in the keep-duplicates convention
        name = re.sub(r"\s*\(.*\)", "", entry["variant"]).strip()
        if "men_rows" in entry:  # the source's start has other rows of men (DCTL's Thai: 3)
            name += f"/{entry['men_rows']}"
        out.append((name, entry["fen"], drop))
    return out


def _board(name: str, fen: str) -> draughts.Board:
    """The board of an entry: ``name`` is a variant, or ``variant/ROWS`` for
    the variant with that many rows of men a side (so that its FEN may
    name more pieces than the variant as played starts with)."""
    name, _, rows = name.partition("/")
    variant = draughts.find_variant(name)
    if rows:
        variant = attrs.evolve(variant, name=f"{name}-{rows}-rows", men_rows=int(rows))
    if fen == "initial":
        return draughts.Board(variant=variant)
    return draughts.Board(fen, variant=variant)


def _check(board: draughts.Board, expected: list[int], budget: int) -> int:
    checked = 0
    for depth, count in enumerate(expected, start=1):
        if count > budget:
            break
        assert draughts.perft(board, depth) == count, f"depth {depth} of {board!r}"
        checked = depth
    return checked


@pytest.mark.parametrize(
    ("name", "fen", "expected"),
    _reference_entries(),
    ids=lambda x: x if isinstance(x, str) and len(x) < 40 else None,
)
def test_reference_tables(name: str, fen: str, expected: list[int]) -> None:
    assert _check(_board(name, fen), expected, FAST_BUDGET) >= 3


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "fen", "expected"),
    _reference_entries(),
    ids=lambda x: x if isinstance(x, str) and len(x) < 40 else None,
)
def test_reference_tables_deep(name: str, fen: str, expected: list[int]) -> None:
    _check(_board(name, fen), expected, SLOW_BUDGET)


def test_every_preset_has_a_published_table() -> None:
    """The core presets are all covered by the reference file, dama and
    dama-flying through the variants with the same movement rules."""
    names = {name for name, _fen, _counts in _reference_entries()}
    for variant in ("international", "english", "russian", "brazilian", "pool"):
        assert variant in names


def test_dama_moves_like_english_and_dama_flying_like_pool() -> None:
    # dama is English movement (RULES.md §2). dama-flying (flying kings, men
    # capture backward, free choice, crowning ends the move) equals pool from
    # the start until a man is crowned mid-capture, which needs far more plies
    # than 8, so the published pool numbers apply to depth 8.
    english = [7, 49, 302, 1469, 7361, 36768]
    pool = [7, 49, 302, 1469, 7482, 37986]
    dama = draughts.Board(variant="dama")
    flying = draughts.Board(variant="dama-flying")
    assert [draughts.perft(dama, d) for d in range(1, 7)] == english
    assert [draughts.perft(flying, d) for d in range(1, 7)] == pool


def test_canadian_start() -> None:
    # damforum t=4563 via rules-research.md §4.2.
    board = draughts.Board(variant="canadian")
    assert [draughts.perft(board, d) for d in range(1, 5)] == [11, 121, 1222, 10053]


def test_legal_move_counts_agree_with_moby_dam() -> None:
    counts: dict[str, int] = json.loads((DATA / "pydraughts_legal_moves_len.json").read_text())
    for fen, count in counts.items():
        assert draughts.Board(fen).legal_moves.count() == count, fen


def _moby_positions() -> list[dict[str, Any]]:
    path = shared_path("perft/mobydam_perft_international.json")
    positions: list[dict[str, Any]] = json.loads(path.read_text())["positions"]
    return positions


def test_moby_dam_positions() -> None:
    for position in _moby_positions():
        board = draughts.Board(position["fen"])
        assert _check(board, position["perft"], 3_000) >= 1, position["fen"]


@pytest.mark.slow
def test_moby_dam_positions_deep() -> None:
    for position in _moby_positions():
        board = draughts.Board(position["fen"])
        assert _check(board, position["perft"], 10**9) == len(position["perft"])


def test_moby_dam_rejected_fens_are_rejected() -> None:
    path = shared_path("perft/mobydam_perft_international.json")
    for rejected in json.loads(path.read_text())["rejected_fens"]:
        with pytest.raises(draughts.InvalidFenError):
            draughts.Board(rejected["fen"])


def test_perft_depth_zero_and_negative() -> None:
    board = draughts.Board()
    assert draughts.perft(board, 0) == 1
    with pytest.raises(ValueError):
        draughts.perft(board, -1)
