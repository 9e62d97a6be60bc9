"""A flying king's capture search merges the routes that reach the same
state (square, pieces taken, directions barred) in another order: the
moves must come out exactly as without merging, in both cores, and every
route must still be there where duplicates are kept (perft counts them).

The variants drawn are those where merging matters: flying kings that
capture along diagonals and lines alike, on all squares or on the dark
ones, with either removal rule and precedence; KINGS_FIRST (where the
order of the pieces taken counts, so nothing is merged) among them.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts
from draughts._core import pure
from draughts._core.pure import capture_search
from draughts._core.raw import RawMove
from draughts._options import CaptureRule, Directions, Removal
from draughts.variant import INTERNATIONAL, TURKISH

native = pytest.importorskip("draughts._core.native", reason="the native core is not built")

BOTH_BACKENDS = False
"""This module compares the backends itself."""

_QUIET = [HealthCheck.too_slow]
FAST = settings(max_examples=20, deadline=None, suppress_health_check=_QUIET)
SLOW = settings(max_examples=400, deadline=None, suppress_health_check=_QUIET)


@functools.lru_cache(maxsize=32)
def _tables(
    all_squares: bool, removal: Removal, reverse: bool, precedence: tuple[CaptureRule, ...]
) -> tuple[pure.Tables, Any]:
    base = TURKISH if all_squares else INTERNATIONAL
    variant = attrs.evolve(
        base,
        name=f"merging-{all_squares}-{removal.value}-{reverse}-{len(precedence)}",
        aliases=(),
        variant_tag=None,
        start_fen=None,
        flying_kings=True,
        king_moves=Directions.ALL,
        king_captures=Directions.ALL,
        removal=removal,
        reverse_in_capture=reverse,
        capture_precedence=precedence,
    )
    return pure.Tables(variant), native.Tables(variant)


@st.composite
def cases(draw: st.DrawFn) -> tuple[pure.Tables, Any, tuple[int, int, int, int, int]]:
    """A route-rich variant, and one to three kings to move among 6 to 14
    pieces of the other side."""
    precedence = draw(
        st.sampled_from(
            (
                (),
                (CaptureRule.MOST_PIECES,),
                (CaptureRule.MOST_VALUE, CaptureRule.MOST_KINGS),
                (CaptureRule.MOST_PIECES, CaptureRule.KINGS_FIRST),
            )
        )
    )
    t, n = _tables(
        draw(st.booleans()), draw(st.sampled_from(list(Removal))), draw(st.booleans()), precedence
    )
    squares = draw(st.permutations(range(1, t.square_count + 1)))
    kings = draw(st.integers(1, 3))
    prey = draw(st.integers(6, 14))
    boards = [0, 0, 0, 0]  # the mover's men and kings, the other side's
    for i, square in enumerate(squares[: kings + prey]):
        kind = 1 if i < kings else draw(st.sampled_from((2, 3)))
        boards[kind] |= t.bit_of_square[square]
    turn = draw(st.sampled_from((0, 1)))
    own = (boards[0], boards[1], boards[2], boards[3])
    return t, n, (turn, *own)


def _routes(moves: Sequence[tuple[object, ...]]) -> list[tuple[object, ...]]:
    return [tuple(m) for m in moves]


def _check_merging(case: tuple[pure.Tables, Any, tuple[int, int, int, int, int]]) -> None:
    t, n, (c, own_men, own_kings, opp_men, opp_kings) = case
    merged = _routes(pure.movegen.captures(t, c, own_men, own_kings, opp_men, opp_kings))
    assert _routes(native.captures(n, c, own_men, own_kings, opp_men, opp_kings)) == merged
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(capture_search, "MERGE_FROM", 10**6)  # never merge
        unmerged = _routes(pure.movegen.captures(t, c, own_men, own_kings, opp_men, opp_kings))
    assert merged == unmerged  # the same routes (caps and path too), in the same order
    kept = [pure.movegen.captures, native.captures]
    every = [
        _routes(f(tt, c, own_men, own_kings, opp_men, opp_kings, True))
        for f, tt in zip(kept, (t, n), strict=True)
    ]
    assert every[0] == every[1]
    assert {r[:3] for r in every[0]} == {r[:3] for r in merged}
    assert len(every[0]) >= len(merged)


@FAST
@given(case=cases())
def test_merged_moves_equal_unmerged(
    case: tuple[pure.Tables, Any, tuple[int, int, int, int, int]],
) -> None:
    _check_merging(case)


@pytest.mark.slow
@SLOW
@given(case=cases())
def test_merged_moves_equal_unmerged_many(
    case: tuple[pure.Tables, Any, tuple[int, int, int, int, int]],
) -> None:
    _check_merging(case)


def test_merging_leaves_out_only_routes_that_repeat_a_move() -> None:
    """A king that takes five of six pieces reaches some states by two
    orders: the search merges them (fewer routes listed), the moves stay
    the same, and with duplicates kept every route is still there."""
    t, n = _tables(False, Removal.AT_END, True, (CaptureRule.MOST_PIECES,))
    board = draughts.Board("W:WK41:B1,5,17,31,38,39", variant=t.variant)
    king = board._kings[0].bit_length() - 1
    occupied = (board._men[1] | board._kings[0]) ^ (1 << king)
    listed = []
    for merge_from in (capture_search.MERGE_FROM, 10**6):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(capture_search, "MERGE_FROM", merge_from)
            routes: list[RawMove] = []
            capture_search.searcher(t, 0).search(king, False, occupied, board._men[1], 0, routes)
            listed.append(len(routes))
            moves = _routes(pure.movegen.captures(t, 0, 0, board._kings[0], board._men[1], 0))
            assert _routes(native.captures(n, 0, 0, board._kings[0], board._men[1], 0)) == moves
    assert listed == [11, 14]
    every = pure.movegen.captures(t, 0, 0, board._kings[0], board._men[1], 0, True)
    assert {r[:3] for r in _routes(every)} == {r[:3] for r in moves}
    assert len(every) > len(moves)  # the same pieces in another order: kept
    assert _routes(native.captures(n, 0, 0, board._kings[0], board._men[1], 0, True)) == _routes(
        every
    )
