"""A fuzz of the native core's PDN entry points that read whole games
(``split_games``, ``check_moves``): any bytes, any text, any positions and
any values where they belong never crash; each call refuses its input with
ValueError or TypeError or answers in its documented shape. Their answers
are compared with the pure code in ``tests/pdn/test_pdn_split.py`` and
``tests/pdn/test_pdn_fastcheck.py``.

CI also runs this file against a build with ``-fsanitize=address,undefined``
and more examples (``DRAUGHTS_FUZZ_EXAMPLES``), so that a read out of bounds
shows even where the answer happens to be right.
"""

from __future__ import annotations

import array
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts
from draughts import Board
from draughts.variant import ENGLISH, FRISIAN, INTERNATIONAL, RUSSIAN, THAI

native = pytest.importorskip("draughts._core.native", reason="the native core is not built")
_pdn_native = pytest.importorskip(
    "draughts.pdn._native._c", reason="the PDN native module is not built"
)

BOTH_BACKENDS = False
"""This module calls the native core itself."""

EXAMPLES = int(os.environ.get("DRAUGHTS_FUZZ_EXAMPLES", "50"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

PDN_BYTES = st.lists(
    st.sampled_from(
        [
            b"[",
            b"]",
            b"{",
            b"}",
            b"(",
            b")",
            b"1-0",
            b"2-0",
            b"*",
            b" ",
            b"\n",
            b"\r",
            b"\r\n",
            b'"',
            b"\\",
            b";",
            b"%",
            b"/",
            b"32-28",
            b"1.",
            b"...",
            b"\xa0",
            b"\xc2\x85",
            b"\xff",
            b"\x00",
            b"$3",
            b"!?",
            b"(!)",
            b"x",
            b"1/2-1/2",
            b"1:1",
            b"abc",
        ]
    )
).map(b"".join)
ANY_INT = st.integers(min_value=-(2**70), max_value=2**70)


@FUZZ
@given(
    st.one_of(PDN_BYTES, st.binary(max_size=300)),
    ANY_INT,
    ANY_INT,
    ANY_INT,
    ANY_INT,
    st.booleans(),
    ANY_INT,
)
def test_split_games_never_crashes(
    data: bytes, pos: int, line: int, column: int, skip: int, final: bool, base: int
) -> None:
    try:
        starts, state, stop = _pdn_native.split_games(data, pos, line, column, skip, final, base)
    except (ValueError, TypeError, OverflowError):
        return
    assert state in (0, 1, 2)
    assert len(starts) % 4 == 0
    assert 0 <= stop <= len(data)


@FUZZ
@given(PDN_BYTES, st.integers(0, 50), st.booleans())
def test_split_games_from_any_position(data: bytes, pos: int, final: bool) -> None:
    pos = min(pos, len(data))
    starts, _, _ = _pdn_native.split_games(data, pos, 1, 1, 0, final, 0)
    for index in range(0, len(starts), 4):
        offset, line, column, line_end = starts[index : index + 4]
        assert pos <= offset <= line_end <= len(data)
        assert line >= 1 and column >= 1


@pytest.mark.parametrize("value", [None, 1.5, "text", [], object()])
def test_split_games_refuses_values_of_the_wrong_kind(value: Any) -> None:
    for place in range(7):
        args: list[Any] = [b"1. 32-28 *", 0, 1, 1, 0, True, 0]
        args[place] = value
        if place == 5:  # any object has a truth value
            continue
        with pytest.raises((TypeError, ValueError)):
            _pdn_native.split_games(*args)


# check_moves takes a board's native tables and bitboards: where boards run
# on the pure core (DRAUGHTS_PURE=1) there are none to give it.
boards_in_c = pytest.mark.skipif(
    draughts.BACKEND != "native", reason="boards run on the pure core (DRAUGHTS_PURE=1)"
)

SETUPS = []
for _variant in (INTERNATIONAL, ENGLISH, RUSSIAN, THAI, FRISIAN):
    _board = Board(variant=_variant)
    SETUPS.append(
        (
            _board._ctx.core,
            _board._men,
            _board._kings,
            _board._turn,
        )
    )

MOVETEXT = st.one_of(
    st.text(max_size=200),
    st.lists(
        st.sampled_from(
            [
                "1.",
                "2...",
                " ",
                "\n",
                "32-28",
                "19-23",
                "28x19",
                "14x23",
                "11-15",
                "22-18",
                "15x22",
                "26x17x10",
                "{c}",
                "{",
                "}",
                "$3",
                "2-0",
                "*",
                "1/2-1/2",
                "x",
                "-",
                "4- 9",
                "99",
                "0",
                "00-00",
                "\u00a0",
                "é",
                "\U0001f600",
                "1-1",
                "\t",
            ]
        ),
        max_size=60,
    ).map(" ".join),
)


@boards_in_c
@FUZZ
@given(
    MOVETEXT,
    st.sampled_from(range(len(SETUPS))),
    st.binary(min_size=200, max_size=200),
    st.integers(-5, 100),
)
def test_check_moves_never_crashes(text: str, which: int, numbers: bytes, limit: int) -> None:
    core, men, kings, turn = SETUPS[which]
    state, plies, warned, start, end = native.check_moves(
        core, text, men, kings, turn, numbers, False, limit
    )
    assert state in (0, 1, 2) and plies >= 0 and warned in (0, 1)
    assert (start, end) == (-1, -1) or 0 <= start < end <= len(text)


@boards_in_c
@FUZZ
@given(MOVETEXT, st.sampled_from(range(len(SETUPS))))
def test_check_moves_with_real_numbers(text: str, which: int) -> None:
    core, men, kings, turn = SETUPS[which]
    numbers = array.array("h", range(100)).tobytes()
    state, plies, _, _, _ = native.check_moves(core, text, men, kings, turn, numbers, True, 0)
    assert state in (0, 1, 2) and plies >= 0


@boards_in_c
def test_check_moves_refuses_bad_arguments() -> None:
    core, men, kings, turn = SETUPS[0]
    numbers = bytes(200)
    good: list[Any] = [core, "1. 32-28 *", men, kings, turn, numbers, False, 0]
    for place, bad in [(0, None), (1, b"bytes"), (2, [1]), (3, None), (5, bytes(10)), (5, "x")]:
        args = list(good)
        args[place] = bad
        with pytest.raises(TypeError):
            native.check_moves(*args)
    for place, bad in [(4, 2), (4, -1)]:
        args = list(good)
        args[place] = bad
        with pytest.raises(ValueError):
            native.check_moves(*args)
    args = list(good)
    args[2] = [-1, 0]
    with pytest.raises((ValueError, OverflowError)):
        native.check_moves(*args)
    with pytest.raises(TypeError):
        native.check_moves(*good[:7])
