"""A fuzz of the PDN native module's entry points that read whole games
(``split_games``, ``check_each``, ``infer_each``, ``record_tags``, ``play_final``):
any bytes, any text, any positions and any values where they belong never
crash; each call refuses its input with ValueError or TypeError or answers
in its documented shape. Their answers
are compared with the pure code in ``tests/pdn/test_pdn_split.py`` and
``tests/pdn/test_pdn_fastcheck.py``.

CI also runs this file against a build with ``-fsanitize=address,undefined``
and more examples (``DRAUGHTS_FUZZ_EXAMPLES``), so that a read out of bounds
shows even where the answer happens to be right.
"""

from __future__ import annotations

import array
import os
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts
from draughts import Board
from draughts.pdn._fastcheck import SQUARE_CODES
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


# check_each takes a board's native tables and bitboards: where boards run
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

NAMES = [
    tuple(["", *(_variant.square_name(n) for n in _variant.squares)])
    for _variant in (INTERNATIONAL, ENGLISH, RUSSIAN, THAI, FRISIAN)
]
"""The square names of each of SETUPS' variants, as play_final takes them."""

CODES = array.array("h", [code % 100 for code in range(SQUARE_CODES)]).tobytes()
"""A square for every written square's code (a number as itself, an
algebraic name its rank: ``c3`` is 3), for setups the fuzz makes up."""

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
                "c3-d4",
                "b6:d4",
                "e3xc5",
                "a1X",
                "h8:",
                "z99-y1",
                "x3",
                "C3",
                "c3:e5:g7",
                "d4-",
            ]
        ),
        max_size=60,
    ).map(" ".join),
)


@boards_in_c
@FUZZ
@given(
    MOVETEXT,
    st.lists(st.sampled_from(range(len(SETUPS))), max_size=4),
    st.binary(min_size=200, max_size=200),
    st.integers(-5, 100),
    st.integers(0, 10),
)
def test_check_each_never_crashes(
    text: str, which: list[int], numbers: bytes, limit: int, skip: int
) -> None:
    start = min(skip, len(text))
    numbers = numbers * (SQUARE_CODES // 100)  # any value for every code, the algebraic ones too
    setups = tuple((*SETUPS[k], numbers, False) for k in which)
    runs = _pdn_native.check_each(setups, text, start, limit)
    assert len(runs) == len(which)
    for state, plies, warned, begin, end in runs:
        assert state in (0, 1, 2) and plies >= 0 and warned in (0, 1)
        assert (begin, end) == (-1, -1) or start <= begin < end <= len(text)


@boards_in_c
@FUZZ
@given(MOVETEXT, st.sampled_from(range(len(SETUPS))), st.text(max_size=20))
def test_check_each_reads_from_its_start(text: str, which: int, before: str) -> None:
    """A movetext after other text replays as it does alone, its result
    found at the same place past the start, and one replay of several
    setups answers each as alone."""
    numbers = CODES
    setup = (*SETUPS[which], numbers, True)
    alone = _pdn_native.check_each((setup,), text, 0, 0)[0]
    after = _pdn_native.check_each((setup,), before + text, len(before), 0)[0]
    shift = len(before) if alone[3] >= 0 else 0
    assert after == (*alone[:3], alone[3] + shift, alone[4] + shift)
    other = (*SETUPS[(which + 1) % len(SETUPS)], numbers, True)
    assert _pdn_native.check_each((other, setup), text, 0, 0)[1] == alone


@boards_in_c
def test_check_each_refuses_bad_arguments() -> None:
    core, men, kings, turn = SETUPS[0]
    numbers = bytes(2 * SQUARE_CODES)
    setup: list[Any] = [core, men, kings, turn, numbers, False]
    for place, bad in [(0, None), (1, [1]), (2, None), (4, bytes(200)), (4, "x")]:
        args = list(setup)
        args[place] = bad
        with pytest.raises(TypeError):
            _pdn_native.check_each((tuple(args),), "1. 32-28 *", 0, 0)
    for place, bad in [(3, 2), (3, -1)]:
        args = list(setup)
        args[place] = bad
        with pytest.raises(ValueError):
            _pdn_native.check_each((tuple(args),), "1. 32-28 *", 0, 0)
    args = list(setup)
    args[1] = [-1, 0]
    with pytest.raises((ValueError, OverflowError)):
        _pdn_native.check_each((tuple(args),), "1. 32-28 *", 0, 0)
    good = (tuple(setup),)
    for call in [
        (good, b"bytes", 0, 0),
        ([setup], "1. 32-28 *", 0, 0),
        ((setup,), "1. 32-28 *", 0, 0),
        (good, "1. 32-28 *", 0),
    ]:
        with pytest.raises(TypeError):
            _pdn_native.check_each(*call)
    for start in (-1, 11):
        with pytest.raises(ValueError):
            _pdn_native.check_each(good, "1. 32-28 *", start, 0)
    with pytest.raises(ValueError):
        _pdn_native.infer_each("1. 32-28 *", 99, {}, 0)
    with pytest.raises(TypeError):
        _pdn_native.infer_each("1. 32-28 *", 0, [], 0)
    with pytest.raises(TypeError):
        _pdn_native.infer_each("1. 32-28 *", 0, {})
    with pytest.raises(ValueError):
        _pdn_native.infer_each("1. 32-28 *", 0, {}, 3)
    key = ("32-28", 32, 0, 0)
    with pytest.raises(IndexError):  # final 2: the entry says how to write each line
        _pdn_native.infer_each("1. 32-28 *", 0, {key: (good,)}, 2)
    for writings in [(), ((("",), "x"), (("",), "x")), ((("",), b"x"),), ("x",)]:
        with pytest.raises(TypeError):
            _pdn_native.infer_each("1. 32-28 *", 0, {key: (good, (), writings)}, 2)


@boards_in_c
@FUZZ
@given(MOVETEXT, st.lists(st.sampled_from(range(len(SETUPS))), max_size=3), st.integers(0, 10))
def test_infer_each_reads_as_check_each(text: str, which: list[int], skip: int) -> None:
    """``infer_each`` replays the setups its dict gives for the movetext's
    first move and highest number as ``check_each`` does, and says where
    that first move is."""
    start = min(skip, len(text))
    numbers = CODES
    setups = tuple((*SETUPS[k], numbers, True) for k in which)
    found = _pdn_native.infer_each(text, start, {}, 0)
    if found is None:
        return
    highest, files, ranks, moves, first_start, first_end, entry, runs = found
    assert (entry, runs) == (None, None)
    assert 0 <= highest < 100 and 0 <= files <= 26 and 0 <= ranks < 100
    assert (highest or files) and (files > 0) == (ranks > 0)
    assert moves > 0 and start <= first_start < first_end <= len(text)
    assert text[first_start].isalnum() and text[first_end - 1].isdigit()
    key = (text[first_start:first_end], highest, files, ranks)
    again = _pdn_native.infer_each(text, start, {key: (setups, "anything")}, 0)
    assert again == (
        *found[:6],
        (setups, "anything"),
        _pdn_native.check_each(setups, text, start, 0),
    )


@boards_in_c
@FUZZ
@given(
    MOVETEXT,
    st.lists(st.sampled_from(range(len(SETUPS))), max_size=3),
    st.integers(0, 10),
    st.sampled_from([1, 2]),
)
def test_infer_each_with_final_answers_as_play_final(
    text: str, which: list[int], skip: int, final: int
) -> None:
    """With ``final``, a candidate's replay that plays every move answers
    what ``play_final`` answers for it (its line too, with ``final`` 2, as
    the entry's writings say), so that a game's record is read once; every
    other replay answers as ``check_each``."""
    start = min(skip, len(text))
    numbers = CODES
    setups = tuple((*SETUPS[k], numbers, True) for k in which)
    writings = tuple((NAMES[k], "x:"[k % 2]) for k in which)
    found = _pdn_native.infer_each(text, start, {}, final)
    if found is None:
        return
    key = (text[found[4] : found[5]], *found[:3])
    runs = _pdn_native.infer_each(text, start, {key: (setups, (), writings)}, final)[7]
    checks = _pdn_native.check_each(setups, text, start, 0)
    assert len(runs) == len(checks) == len(setups)
    for setup, (names, separator), run, check in zip(setups, writings, runs, checks, strict=True):
        if check[0] != 0:
            assert run == check
            continue
        wanted = _pdn_native.play_final(
            setup, text, start, names if final == 2 else None, separator
        )
        assert run == wanted and run[:5] == check


TAG_TEXT = st.lists(
    st.sampled_from(
        [
            '[Event "Cup"]',
            '[GameType "21"]',
            '[Variant "Russian"]',
            '[FEN "W:W31:B1"]',
            '[ Event  "a b" ] ',
            '[Event "x\\"y"]',
            '[Ev-ent "x"]',
            '[Event "é"]',
            '[Event ""]',
            '[Event "x"] [Site "y"]',
            "[",
            '"',
            "\n",
            "\r\n",
            " ",
            "\t",
            "1. 11-15 *",
            "{c}",
            '{ [Event "in a comment"] }',
            "{",
            "}",
        ]
    ),
    max_size=12,
).map("".join)


@FUZZ
@given(TAG_TEXT)
def test_record_tags_reads_as_the_tag_expression(text: str) -> None:
    """``record_tags`` reads the tags a record starts with, after the
    comments before them, as these expressions (the reader's plain tag pair
    alone on its line) do."""
    pair = r'[ \t\r\n]*\[[ \t]*([A-Za-z0-9_]+)[ \t]*"([^"\\\r\n]*)"[ \t]*\][ \t\r]*(?:\n|\Z)'
    comments = re.match(r"(?:[ \t\r\n]*\{[^{}]*\})*", text)
    assert comments is not None
    head = comments.end()
    answer = _pdn_native.record_tags(text)
    if re.match(r"[ \t\r\n]*\{", text[head:]):  # a comment left open, or with a brace
        assert answer is None
        return
    end = re.match(f"(?:{pair})*", text[head:])
    assert end is not None
    pairs = re.findall(pair, text[head : head + end.end()])
    names = [name for name, _ in pairs]
    if "FEN" in names or any(names.count(name) > 1 for name in ("GameType", "Variant")):
        assert answer is None
        return
    first = {name: value for name, value in reversed(pairs)}
    expected = (head + end.end(), first.get("Event"), first.get("GameType"), first.get("Variant"))
    assert answer == expected


def test_record_tags_refuses_what_is_not_text() -> None:
    with pytest.raises(TypeError):
        _pdn_native.record_tags(b'[Event "x"]')


@boards_in_c
@FUZZ
@given(MOVETEXT, st.sampled_from(range(len(SETUPS))), st.booleans())
def test_play_final_answers_as_check_each(text: str, which: int, line: bool) -> None:
    """``play_final`` replays as ``check_each`` does, ends where it stops,
    and records a move and a key for every ply played (and the start's)."""
    board = Board(variant=(INTERNATIONAL, ENGLISH, RUSSIAN, THAI, FRISIAN)[which])
    numbers = CODES
    setup = (*SETUPS[which], numbers, True)
    names = tuple(["", *(board.variant.square_name(n) for n in board.variant.squares)])
    found = _pdn_native.play_final(setup, text, 0, names if line else None, "x")
    state, plies, warned, begin, end, men, kings, turn, recorded = found
    assert (state, plies, warned, begin, end) == _pdn_native.check_each((setup,), text, 0, 0)[0]
    assert isinstance(men, list) and isinstance(kings, list) and turn in (0, 1)
    if not line:
        assert recorded is None
        return
    moves, keys = recorded
    assert len(moves) == plies and len(keys) == plies + 1
    assert keys[0] == board.position_key


@boards_in_c
def test_play_final_refuses_bad_arguments() -> None:
    setup = (*SETUPS[0], bytes(2 * SQUARE_CODES), False)
    for call in [
        (setup, "1. 32-28 *", 0, None),
        (setup, "1. 32-28 *", 0, [""], "x"),
        (setup, "1. 32-28 *", 0, None, b"x"),
        (setup[:5], "1. 32-28 *", 0, None, "x"),
    ]:
        with pytest.raises(TypeError):
            _pdn_native.play_final(*call)
    with pytest.raises(ValueError):  # a square the names do not name
        _pdn_native.play_final((*SETUPS[0], CODES, False), "1. 32-28 *", 0, ("",), "x")
