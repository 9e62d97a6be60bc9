"""A fuzz of the native core's entry points: arbitrary ints (negative,
huge, with bits on padding squares or beyond the board, overlapping) and
arbitrary values where ints belong. Every call either refuses its input with
ValueError or TypeError, or answers exactly as the pure generator does.

CI also runs this file against a build with ``-fsanitize=address,undefined``
and more examples (``DRAUGHTS_FUZZ_EXAMPLES``), so that a read out of bounds
shows even where the answer happens to be right.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts
from draughts._core import STATE_IN_C, pure
from draughts._core.pure import keyed
from draughts._core.raw import RawMove
from draughts.variant import CANADIAN, FRISIAN, INTERNATIONAL, ITALIAN, TURKISH

native = pytest.importorskip("draughts._core.native", reason="the native core is not built")

BOTH_BACKENDS = False
"""This module compares the backends itself."""

EXAMPLES = int(os.environ.get("DRAUGHTS_FUZZ_EXAMPLES", "50"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Padded layouts (International, Frisian, Italian, Turkish), the compact one
# (Canadian) and a variant whose men capture like kings do, flying.
VARIANTS = (
    INTERNATIONAL,
    FRISIAN,
    ITALIAN,
    TURKISH,
    CANADIAN,
    attrs.evolve(
        INTERNATIONAL,
        name="fuzz-8x8-orthogonal",
        width=8,
        height=8,
        men_rows=2,
        man_captures=draughts.variant.Directions.ALL,
        king_captures=draughts.variant.Directions.ALL,
    ),
)
TABLES = {v.name: (pure.Tables(v), native.Tables(v)) for v in VARIANTS}


@st.composite
def bitboards(draw: st.DrawFn, t: pure.Tables) -> int:
    """Mostly real bitboards (on the board), sometimes anything at all."""
    size = len(t.square_of_index)
    kind = draw(st.sampled_from(("board", "board", "board", "any", "wild")))
    if kind == "wild":
        return draw(st.integers(-(2**140), 2**300))
    value = draw(st.integers(0, 2**size - 1))
    return value & t.board_mask & draw(st.integers(0, 2**size - 1)) if kind == "board" else value


def _index(t: pure.Tables) -> st.SearchStrategy[int]:
    size = len(t.square_of_index)
    return st.one_of(st.integers(0, size - 1), st.integers(-(2**70), 2**70))


def _value(t: pure.Tables) -> st.SearchStrategy[Any]:
    """An int where one belongs, or now and then something else."""
    return st.one_of(bitboards(t), bitboards(t), st.none(), st.text(max_size=3), st.floats())


def _agree(call_native: Callable[[], Any], call_pure: Callable[[], Any]) -> None:
    try:
        got = call_native()
    except (ValueError, TypeError):
        return  # refused, as documented
    assert got == call_pure()


def _moves(moves: list[draughts.Move]) -> list[tuple[object, ...]]:
    return [(m.from_square, m.to_square, m.captures, m.path) for m in moves]


@pytest.mark.parametrize("name", list(TABLES))
@FUZZ
@given(data=st.data())
def test_generation_entry_points(name: str, data: st.DataObject) -> None:
    t, n = TABLES[name]
    color = data.draw(st.one_of(st.sampled_from((0, 1)), st.integers(-3, 3)), label="color")
    boards = [data.draw(_value(t), label="bitboard") for _ in range(4)]
    frozen = data.draw(bitboards(t), label="frozen")
    origin, dest = data.draw(_index(t), label="origin"), data.draw(_index(t), label="dest")
    own = (boards[0], boards[2], boards[1], boards[3])
    _agree(
        lambda: native.legal_moves(n, color, *own, frozen),
        lambda: pure.legal_moves(t, color, *own, frozen),
    )
    _agree(
        lambda: native.captures(n, color, *own, True), lambda: pure.captures(t, color, *own, True)
    )
    _agree(
        lambda: _moves(native.board_moves(n, color, *own, frozen)),
        lambda: _moves(pure.board_moves(t, color, *own, frozen)),
    )
    _agree(
        lambda: _moves(native.moves_between(n, color, *own, origin, dest, frozen)),
        lambda: _moves(pure.moves_between(t, color, *own, origin, dest, frozen)),
    )
    men, kings, occupied = boards[0], boards[2], data.draw(bitboards(t), label="occupied")
    _agree(
        lambda: native.steps(n, color, men, kings, occupied, frozen),
        lambda: pure.steps(t, color, men, kings, occupied | men | kings, frozen),
    )
    _agree(
        lambda: native.has_step(n, color, men, kings, occupied),
        lambda: pure.has_step(t, color, men, kings, occupied | men | kings),
    )
    _agree(
        lambda: native.find_step(n, color, men, kings, occupied, origin, dest, frozen),
        lambda: pure.find_step(t, color, men, kings, occupied | men | kings, origin, dest, frozen),
    )
    depth = data.draw(st.one_of(st.integers(1, 2), st.integers(-5, 0)), label="depth")
    _agree(
        lambda: native.perft(n, depth, color, *boards),
        lambda: pure.perft(t, depth, color, *boards),
    )


@pytest.mark.parametrize("name", list(TABLES))
@FUZZ
@given(data=st.data())
def test_playing_entry_points(name: str, data: st.DataObject) -> None:
    t, n = TABLES[name]
    color = data.draw(st.sampled_from((0, 1)), label="color")
    boards = [data.draw(bitboards(t), label="bitboard") for _ in range(4)]
    key = data.draw(st.one_of(st.integers(0, 2**64 - 1), st.integers(-5, 2**70)), label="key")
    captured = tuple(data.draw(st.lists(_index(t), max_size=4), label="captured"))
    mask = 0
    for index in captured:
        mask |= 1 << index if 0 <= index < 4096 else 0
    move = RawMove(
        data.draw(_index(t), label="origin"),
        data.draw(_index(t), label="destination"),
        data.draw(st.sampled_from((mask, mask ^ 1, -1)), label="mask"),
        captured,
        (),
        data.draw(st.booleans(), label="crowned"),
    )
    _agree(
        lambda: native.apply_keyed(n, move, color, *boards, key),
        lambda: keyed.apply_keyed(t, move, color, *boards, key),
    )
    kings = data.draw(bitboards(t), label="captured kings") & mask
    _agree(
        lambda: native.undo_keyed(n, move, color, *boards, kings, key),
        lambda: keyed.undo_keyed(t, move, color, *boards, kings, key),
    )
    _agree(
        lambda: native.position_key(n, color, *boards),
        lambda: keyed.position_key(t, color, *boards),
    )


# -- The PDN reader's entry points: arbitrary text ---------------------------------

# Any character: the three widths of a str (1, 2 and 4 bytes), surrogates and
# the characters the readers look for.
TEXT = st.text(
    alphabet=st.characters(codec=None) | st.sampled_from('0123456789.-x/*[]"\\ \t\n'),
    max_size=40,
)


@pytest.mark.skipif(
    not STATE_IN_C, reason="the PDN native module is off with the pure core (DRAUGHTS_PURE=1)"
)
@FUZZ
@given(text=TEXT)
def test_the_line_readers_take_any_text(text: str) -> None:
    """Whether a line is plain, and its tag pair: what the regular
    expressions, their oracles, say."""
    from draughts.pdn import _native, lexer

    assert _native.plain_line_end is not None and _native.tag_line is not None
    assert _native.plain_line_end(text) == lexer._plain_line_end_python(text)
    assert _native.tag_line(text) == lexer._tag_line_python(text)


@pytest.mark.skipif(not STATE_IN_C, reason="boards run on the pure core (DRAUGHTS_PURE=1)")
@FUZZ
@given(
    text=TEXT,
    end=st.integers(-3, 45),
    numbers=st.lists(st.none() | st.integers(-3, 60) | st.just("x"), max_size=100),
    variant=st.sampled_from(VARIANTS),
)
def test_the_line_loop_takes_any_text(
    text: str, end: int, numbers: list[Any], variant: draughts.Variant
) -> None:
    """The C loop over a line's moves, given any text, end and numbers:
    an answer within the line with that many moves played, or ValueError or
    TypeError (for an end outside the line, a square that is no int)."""
    from draughts.pdn._native import play_line

    assert play_line is not None
    board = draughts.Board(variant=variant)
    played = []
    try:
        count, stop = play_line(board, text, end, tuple(numbers), lambda b, m: played.append(m))
    except (ValueError, TypeError):
        return
    assert 0 <= end <= len(text) and 0 <= stop <= end
    assert count == len(played) == len(board.move_stack)


@pytest.mark.skipif(not STATE_IN_C, reason="boards run on the pure core (DRAUGHTS_PURE=1)")
@FUZZ
@given(arguments=st.lists(st.none() | st.integers() | st.text(max_size=3), max_size=3))
def test_a_node_maker_takes_any_arguments(arguments: list[Any]) -> None:
    from draughts.pdn import tree

    assert tree.add_child is not None
    try:
        tree.add_child(*arguments)
    except TypeError:
        return
    raise AssertionError(f"add_child{tuple(arguments)!r} made a node")
