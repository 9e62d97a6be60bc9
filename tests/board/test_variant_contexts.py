"""The per-variant machinery a board uses: shared, bounded, and rebuilt
rather than shipped when a board is pickled."""

from __future__ import annotations

import gc
import pickle
import tracemalloc

import attrs
import pytest

import draughts
from draughts import _context
from draughts import variant as V


def _use(variant: draughts.Variant) -> None:
    board = draughts.Board(variant=variant)
    board.push(next(iter(board.legal_moves)))
    board.fen()


def _growth(count: int) -> int:
    """Bytes still allocated after ``count`` evolved variants were each given
    a board, its legal moves, a push and a FEN."""
    tracemalloc.start()  # it only counts what is allocated after this
    try:
        for i in range(_context.CONTEXTS_KEPT + 1):  # fill the cache first
            _use(attrs.evolve(V.RUSSIAN, name=f"warm-up{i}"))
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        for i in range(count):
            _use(attrs.evolve(V.RUSSIAN, name=f"custom{i}"))
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


# Each context holds a few hundred kilobytes: kept for ever, 200 of them would
# hold some 80 MB. The bound leaves room for what other code allocates while
# the loop runs (a cache filling up, a dictionary growing).
_FEW_MEGABYTES = 4_000_000


@pytest.mark.parametrize(
    # A stress test (contexts of 540 kB each, made and dropped): under -m slow.
    "count",
    [
        pytest.param(24, marks=pytest.mark.slow, id="24"),
        pytest.param(200, marks=pytest.mark.slow, id="200"),
    ],
)
def test_variants_made_in_a_loop_are_not_all_kept(count: int) -> None:
    # Kept for ever, 24 contexts would hold some 13 MB (540 kB each, native).
    assert _growth(count) < _FEW_MEGABYTES


@pytest.mark.slow
def test_ten_thousand_variants_grow_the_process_by_little() -> None:
    assert _growth(10_000) < _FEW_MEGABYTES


def test_boards_of_a_variant_share_one_context() -> None:
    variant = attrs.evolve(V.INTERNATIONAL, name="shared")
    first, second = draughts.Board(variant=variant), draughts.Board(variant=variant)
    assert first._ctx is second._ctx
    assert first.copy()._ctx is first._ctx
    assert draughts.Board()._ctx is draughts.Board()._ctx


def test_presets_keep_their_context() -> None:
    kept = draughts.Board(variant="frisian")._ctx
    for i in range(_context.CONTEXTS_KEPT + 1):
        _use(attrs.evolve(V.RUSSIAN, name=f"push-out{i}"))
    assert draughts.Board(variant="frisian")._ctx is kept


def test_a_board_pickles_after_a_king_capture_search() -> None:
    list(draughts.Board("W:WK46:B37,22").legal_moves)  # builds the capture search
    board = draughts.Board("W:WK46:B37,22")
    board.push(board.parse_pdn("46x11"))
    copy = pickle.loads(pickle.dumps(board))
    assert copy == board
    assert copy.fen() == board.fen()
    assert copy.move_stack == board.move_stack
    assert copy.pop() == board.pop()
