"""Perft of the national variants against published tables.

Sources (research notes §4.2-§4.3, transcribed from the test suite of Rein
Halbersma's DCTL, which cites damforum.nl threads t=2308 and t=2822 and the
shashki.com thread t-627; also in ../shared/data/pdn/perft/perft_reference.json):

* "drop": routes that take the same pieces in another order count once (what
  :func:`draughts.perft` does); "keep": every route counts (Ed Gilbert's
  Italian positions are published that way).
* The default run checks the depths that take about a second; the rest are
  marked slow (``pytest -m slow``).
"""

from __future__ import annotations

import attrs
import pytest

from draughts._context import context
from draughts._core import perft as _raw_perft
from draughts._fen import parse_fen
from draughts.variant import (
    ANTIDRAUGHTS,
    BREAKTHROUGH,
    CZECH,
    FRISIAN,
    FRYSK,
    ITALIAN,
    KILLER,
    PORTUGUESE,
    SPANISH,
    THAI,
    TURKISH,
    Variant,
)

# International 10x10 start, drop (BikDam, DCTL): antidraughts and breakthrough
# differ from International only in who wins, so their move trees are the same.
INTERNATIONAL_START = [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961]
# DCTL: Czech, Spanish, Italian (drop; keep is equal to depth 11).
CZECH_START = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963671, 18368918]
SPANISH_START = [7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860866, 17743464]
ITALIAN_START = [7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860875, 17761384]
# DCTL Frisian, both columns: with captures in eight directions, routes that
# take the same pieces in another order appear from depth 4 on.
FRISIAN_START = [9, 81, 658, 3874, 21265, 102431, 540126, 2825779, 15605069]
FRISIAN_START_KEEP = [9, 81, 658, 3880, 21345, 103584, 550314, 2907905, 16204497]
# DCTL killer/letouzey.cpp (Fabien Letouzey), drop.
KILLER_RANDOM178 = [14, 55, 1168, 5165, 84326, 573965, 8476150]
KILLER_WOLDOUBY = [6, 12, 30, 73, 215, 590, 1944, 6269, 22369, 88043, 377339, 1908829]
RANDOM178 = "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"
WOLDOUBY = "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"
# Ed Gilbert's Italian positions (DCTL italian/gilbert.cpp), keep duplicates.
GILBERT = [
    (
        "W:W30,26,27,22,23,24,17,18,20:B14,15,16,9,11,5,6,1,3",
        [5, 13, 42, 107, 360, 1099, 3736, 12495, 43686, 164177],
    ),
    ("B:W30,21,22,17,20,K6:B25,28,9,5,1,3", [6, 47, 271, 1916, 10810, 73137, 389809, 2469050]),
    (
        "W:WK27,K28,17,20,9,K12,8:B21,24,K19,K13,14,K11,4",
        [13, 112, 828, 6756, 46241, 368908, 2468110],
    ),
]
# DCTL's Thai table is for a 12-man start (three rows each, research §4.2): it
# checks the Thai capture rules (landing directly behind, immediate removal),
# which first change the count at depth 9.
THAI_12 = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963648]
# Frysk! and Turkish have no published table. The counts below agree with
# pydraughts 0.6.7 (PyPI, run in a separate virtualenv, never imported here):
# Frysk! to depth 5 by perft, and at depth 6 because the legal moves of all
# 5,576 positions at depth 5 agree move by move; Turkish to depth 4 exactly,
# and at depth 5 pydraughts finds 85,146, 56 more. Comparing the move lists
# of every position at depth 4 (2,924) and depth 5 (16,578), the only
# differences are moves pydraughts has and we do not, all of one kind: a king
# sliding along a file through other pieces (a8-a1 over its own man on a2,
# c1-c5 through two men on c3 and c4), which no rule allows. Without them the
# two agree at depths 5 and 6.
FRYSK_START = [9, 81, 657, 5329, 41829, 328329]
TURKISH_START = [8, 64, 708, 7538, 85090, 931312]


def _perft(variant: Variant, depth: int, fen: str | None = None, *, keep: bool = False) -> int:
    ctx = context(variant)
    t = ctx.core
    position = parse_fen(ctx.fen, fen or ctx.fen.starting_fen, limit_pieces=False)
    (m0, m1), (k0, k1) = position.men, position.kings
    return _raw_perft(t, depth, position.turn, m0, m1, k0, k1, keep)


CASES = [
    # (id, variant, fen, keep, expected, depths in the default run)
    ("frisian", FRISIAN, None, False, FRISIAN_START, 6),
    ("frisian-keep", FRISIAN, None, True, FRISIAN_START_KEEP, 6),
    ("italian", ITALIAN, None, False, ITALIAN_START, 7),
    ("spanish", SPANISH, None, False, SPANISH_START, 7),
    ("portuguese", PORTUGUESE, None, False, SPANISH_START, 7),
    ("czech", CZECH, None, False, CZECH_START, 7),
    ("killer-random178", KILLER, RANDOM178, False, KILLER_RANDOM178, 5),
    ("killer-woldouby", KILLER, WOLDOUBY, False, KILLER_WOLDOUBY, 9),
    ("killer-start", KILLER, None, False, INTERNATIONAL_START, 5),
    ("antidraughts", ANTIDRAUGHTS, None, False, INTERNATIONAL_START, 5),
    ("breakthrough", BREAKTHROUGH, None, False, INTERNATIONAL_START, 5),
    ("italian-gilbert-1", ITALIAN, GILBERT[0][0], True, GILBERT[0][1], 7),
    ("italian-gilbert-2", ITALIAN, GILBERT[1][0], True, GILBERT[1][1], 5),
    ("italian-gilbert-3", ITALIAN, GILBERT[2][0], True, GILBERT[2][1], 4),
    ("thai-12-men", attrs.evolve(THAI, name="thai-12", men_rows=3), None, False, THAI_12, 6),
    ("frysk", FRYSK, None, False, FRYSK_START, 4),
    ("turkish", TURKISH, None, False, TURKISH_START, 4),
]


def _params(slow: bool) -> list[object]:
    params: list[object] = []
    for name, variant, fen, keep, expected, fast in CASES:
        depths = range(fast + 1, len(expected) + 1) if slow else range(1, fast + 1)
        marks = [pytest.mark.slow] if slow else []
        params += [
            pytest.param(variant, fen, keep, d, expected[d - 1], marks=marks, id=f"{name}-{d}")
            for d in depths
        ]
    return params


@pytest.mark.parametrize(("variant", "fen", "keep", "depth", "expected"), _params(False))
def test_perft(variant: Variant, fen: str | None, keep: bool, depth: int, expected: int) -> None:
    assert _perft(variant, depth, fen, keep=keep) == expected


@pytest.mark.parametrize(("variant", "fen", "keep", "depth", "expected"), _params(True))
def test_perft_deep(
    variant: Variant, fen: str | None, keep: bool, depth: int, expected: int
) -> None:
    assert _perft(variant, depth, fen, keep=keep) == expected


def test_thai_start_low_depths() -> None:
    # No table exists for the real eight-man Thai start. By hand: Black's four
    # front men have 7 steps (the edge man one), and with four empty rows
    # between the armies nothing can meet in two plies, so White has 7 replies.
    assert [_perft(THAI, d) for d in (1, 2)] == [7, 49]
