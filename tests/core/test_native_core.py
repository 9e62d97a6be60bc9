"""The native core's own guarantees: it checks what it is given, falls back
to the pure generator for boards it cannot hold, counts right from several
threads at once, and reports itself as the backend."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import threading

import attrs
import pytest

import draughts
from draughts._core import pure
from draughts._core.raw import RawMove
from draughts.variant import CANADIAN, INTERNATIONAL, RUSSIAN, TURKISH

native = pytest.importorskip("draughts._core.native", reason="the native core is not built")

BOTH_BACKENDS = False
"""These tests call the native functions themselves."""

START = {  # the published start-position counts (tests/data/perft_reference.json)
    INTERNATIONAL: [9, 81, 658, 4265, 27117, 167140],
    RUSSIAN: [7, 49, 302, 1469, 7482, 37986],
}


def _start(t: pure.Tables) -> tuple[int, int, int, int, int]:
    board = draughts.Board(variant=t.variant)
    return board._turn, board._men[0], board._men[1], board._kings[0], board._kings[1]


def test_backend_is_named_and_forced_pure_by_the_environment() -> None:
    assert draughts.BACKEND in ("native", "pure")
    code = "import draughts; print(draughts.BACKEND)"
    env = {**os.environ, "DRAUGHTS_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "pure"
    env.pop("DRAUGHTS_PURE")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "native"
    version = subprocess.run(
        [sys.executable, "-m", "draughts", "--version"], env=env, capture_output=True, text=True
    )
    assert version.stdout.strip() == f"draughts {draughts.__version__} (native core)"


def test_every_input_is_checked() -> None:
    t = native.Tables(INTERNATIONAL)
    c, m0, m1, k0, k1 = _start(t)
    off_board = 1 << 10  # index 10 is a padding column of the 12-wide grid
    with pytest.raises(ValueError, match="color must be 0"):
        native.legal_moves(t, 2, m0, k0, m1, k1)
    with pytest.raises(TypeError, match="own_men must be an int"):
        native.legal_moves(t, 0, "x", k0, m1, k1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="own_men must be a bitboard"):
        native.legal_moves(t, 0, -1, k0, m1, k1)
    with pytest.raises(ValueError, match="own_men must be a bitboard"):
        native.legal_moves(t, 0, 1 << 200, k0, m1, k1)
    with pytest.raises(ValueError, match="bit 10 set, which is not a playing square"):
        native.legal_moves(t, 0, m0 | off_board, k0, m1, k1)
    with pytest.raises(ValueError, match="shares a square"):
        native.legal_moves(t, 0, m0, m0 & -m0, m1, k1)
    with pytest.raises(ValueError, match="perft depth must be from 1"):
        native.perft(t, 0, c, m0, m1, k0, k1)
    with pytest.raises(ValueError, match="origin must be the internal index of a playing square"):
        native.moves_between(t, 0, m0, k0, m1, k1, 10, 11)
    with pytest.raises(ValueError, match="origin must be the internal index"):
        native.find_step(t, 0, m0, k0, m0 | m1, -1, 11)
    with pytest.raises(TypeError, match="missing argument"):
        native.legal_moves(t, 0, m0)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected or repeated argument"):
        native.perft(t, 1, c, m0, m1, k0, k1, depth=2)  # type: ignore[misc]
    move = native.legal_moves(t, 0, m0, k0, m1, k1)[0]
    with pytest.raises(ValueError, match="key must be an int"):
        native.apply_keyed(t, move, 0, m0, m1, k0, k1, -1)
    with pytest.raises(ValueError, match="cannot be played"):
        native.apply_keyed(t, move, 1, m0, m1, k0, k1, 0)  # White's move, Black to play
    bad = RawMove(move.origin, move.destination, 1 << move.origin, (move.origin,), (), False)
    with pytest.raises(ValueError, match="takes a square twice or its origin"):
        native.apply_keyed(t, bad, 0, m0, m1, k0, k1, 0)
    with pytest.raises(RuntimeError, match="loaded once"):
        t._load()


def test_arbitrary_bitboards_agree_with_pure_or_are_refused() -> None:
    """Random ints, most with bits off the board: the native functions either
    refuse them with ValueError, as documented, or answer as the pure ones."""
    import random

    rng = random.Random(16)
    t = native.Tables(TURKISH)
    size = len(t.square_of_index)
    answered = 0
    for _ in range(3000):
        boards = [rng.getrandbits(size) & rng.getrandbits(size) for _ in range(4)]
        if rng.random() < 0.5:  # on the board and apart
            boards = [b & t.board_mask & ~(boards[0] if i else 0) for i, b in enumerate(boards)]
            boards[2] &= ~boards[1]
            boards[3] &= ~(boards[1] | boards[2])
        color = rng.randrange(2)
        try:
            got = native.legal_moves(t, color, *boards)
        except ValueError:
            continue
        answered += 1
        assert got == pure.legal_moves(t, color, *boards)
    assert 1000 < answered < 3000


def test_a_board_over_128_squares_falls_back_to_pure() -> None:
    big = attrs.evolve(INTERNATIONAL, name="all-squares-12", width=12, height=12, all_squares=True)
    t = native.Tables(big)
    assert t.square_count == 144 and not t.native_ready
    c, m0, m1, k0, k1 = _start(t)
    assert native.legal_moves(t, c, m0, k0, m1, k1) == pure.legal_moves(t, c, m0, k0, m1, k1)
    assert native.perft(t, 2, c, m0, m1, k0, k1) == pure.perft(t, 2, c, m0, m1, k0, k1)
    board = draughts.Board(variant=big)
    assert draughts.perft(board, 2) == pure.perft(t, 2, c, m0, m1, k0, k1)
    # Canadian (12x12, 72 squares) is held, in the compact layout.
    assert native.Tables(CANADIAN).native_ready


def test_two_threads_count_perft_at_once() -> None:
    """perft releases the GIL; both threads' counts stay right."""
    results: dict[str, list[int]] = {}

    def count(variant: draughts.Variant) -> None:
        t = native.Tables(variant)
        position = _start(t)
        results[variant.name] = [
            native.perft(t, depth, *position) for depth in range(1, len(START[variant]) + 1)
        ]

    for _ in range(3):
        threads = [threading.Thread(target=count, args=(v,)) for v in START for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert results == {v.name: counts for v, counts in START.items()}


def test_tables_pickle_as_their_variant() -> None:
    t = native.Tables(RUSSIAN)
    again = pickle.loads(pickle.dumps(t))
    assert type(again) is native.Tables and again.native_ready
    assert native.perft(again, 4, *_start(again)) == START[RUSSIAN][3]


def test_perft_counts_the_same_with_and_without_bulk_counting() -> None:
    t = native.Tables(INTERNATIONAL)
    position = _start(t)
    assert [native.perft(t, d, *position, bulk=False) for d in range(1, 6)] == START[INTERNATIONAL][
        :5
    ]
