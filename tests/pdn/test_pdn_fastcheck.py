"""The tree-less check of a movetext (:mod:`draughts.pdn._fastcheck`) against
the full reader (:func:`draughts.pdn.read_game` with a visitor that counts):
wherever the fast path answers, its answer is the reader's. For each game of
the test files and the examples (and of the whole shared corpus, ``slow``),
under the variant its tags name and under every variant inference tries.
"""

from __future__ import annotations

import array
import io
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from draughts import pdn
from draughts.pdn import _fastcheck
from draughts.pdn import _native as pdn_native
from draughts.pdn.headers import BaseVisitor, PdnError
from draughts.pdn.infer import CANDIDATES
from draughts.pdn.resolver import resolver_for
from draughts.variant import (
    BRAZILIAN,
    CZECH,
    ENGLISH,
    INTERNATIONAL,
    RUSSIAN,
    Variant,
    gametype_preset,
)
from tests.conftest import SHARED_ABSENT, SHARED_PDN, shared_path

native = pytest.mark.skipif(pdn_native.check_each is None, reason="the native core is not built")

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "tests" / "data").rglob("*.pdn")) + sorted((ROOT / "examples").glob("*.pdn"))
MOVE_ERRORS = frozenset(("illegal", "ambiguous", "invalid", "fen"))
TAG = re.compile(r'\s*\[\s*(\w+)\s*"((?:[^"\\]|\\.)*)"\s*\]\s*$')


class Counter(BaseVisitor[tuple[int, int | None, list[PdnError], list[PdnError]]]):
    """The moves read, how many before the first move error (None: none),
    the errors and the warnings."""

    def begin_game(self) -> None:
        self.plies, self.first_error = 0, None
        self.errors: list[PdnError] = []
        self.warnings: list[PdnError] = []

    def visit_move(self, board: object, move: object) -> None:
        self.plies += 1

    def handle_error(self, error: PdnError) -> None:
        self.errors.append(error)
        if error.kind in MOVE_ERRORS and self.first_error is None:
            self.first_error = self.plies

    def handle_warning(self, warning: PdnError) -> None:
        self.warnings.append(warning)

    def result(self) -> tuple[int, int | None, list[PdnError], list[PdnError]]:
        return self.plies, self.first_error, self.errors, self.warnings


def games(data: bytes) -> Iterator[tuple[str, str | None, str | None]]:
    """Each game's movetext, FEN and GameType, split as the reader splits."""
    text = data.decode("utf-8", "replace")
    offsets = list(pdn.scan_offsets(io.BytesIO(data)))
    raw = data
    for start, end in zip(offsets, [*offsets[1:], len(raw)], strict=True):
        game = raw[start:end].decode("utf-8", "replace")
        tags: dict[str, str] = {}
        lines = game.splitlines(keepends=True)
        while lines and (match := TAG.match(lines[0])):
            tags[match.group(1)] = match.group(2)
            lines.pop(0)
        yield "".join(lines), tags.get("FEN"), tags.get("GameType")
    del text


def reader(movetext: str, variant: Variant, fen: str | None) -> tuple[int, int | None, list, list]:
    head = f'[FEN "{fen}"]\n' if fen is not None else ""
    result = pdn.read_game(io.StringIO(head + movetext), variant=variant, Visitor=Counter)
    return result if result is not None else (0, None, [], [])


def agree(movetext: str, variant: Variant, fen: str | None) -> int:
    """Check both functions against the reader; how many answers they gave."""
    answered = 0
    full = None
    for limit in (None, 6):
        fast = _fastcheck.fast_replay(movetext, variant, fen, limit)
        if fast is None:
            continue
        full = full or reader(movetext, variant, fen)
        plies, first_error, _, _ = full
        played = plies if first_error is None else first_error
        if limit is not None and played >= limit:
            expected = (True, limit)
        else:
            expected = (first_error is None, played)
        assert fast == expected, (variant.name, limit, movetext[:300])
        answered += 1
    check = _fastcheck.fast_check(movetext, variant, fen)
    if check is not None:
        full = full or reader(movetext, variant, fen)
        plies, first_error, errors, warnings = full
        # Without a result marker the reader warns that the record may be
        # cut: that warning is the caller's to give (check.result is None).
        cut = [w.kind for w in warnings] == ["incomplete"] and check.result is None
        assert errors == [] and (warnings == [] or cut), (variant.name, movetext[:300])
        assert check.plies == plies
        answered += 1
    return answered


def tagged_variant(gametype: str | None) -> Variant | None:
    if gametype is None:
        return None
    try:
        return gametype_preset(gametype)
    except (ValueError, KeyError):
        return None


def check_file(data: bytes) -> int:
    answered = 0
    for movetext, fen, gametype in games(data):
        variants = list(CANDIDATES)
        tagged = tagged_variant(gametype)
        if tagged is not None and tagged not in variants:
            variants.append(tagged)
        for variant in variants:
            answered += agree(movetext, variant, fen)
    return answered


@native
@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_the_fast_path_answers_as_the_reader(path: Path) -> None:
    check_file(path.read_bytes())


@native
def test_the_fast_path_answers_for_most_plain_games() -> None:
    text = "1. 32-28 19-23 2. 28x19 14x23 3. 37-32 {a comment} 10-14 $1 4. 41-37 5-10 2-0"
    assert _fastcheck.fast_replay(text, INTERNATIONAL, None, None) == (True, 8)
    assert _fastcheck.fast_replay(text, INTERNATIONAL, None, 3) == (True, 3)
    assert _fastcheck.fast_replay(text, ENGLISH, None, None) == (False, 0)
    check = _fastcheck.fast_check(text, INTERNATIONAL, None)
    assert check == _fastcheck.FastCheck(8, "2-0", text.index("2-0"))
    assert agree(text, INTERNATIONAL, None) == 3


@native
@pytest.mark.parametrize(
    "text",
    [
        "1. 32-28 (1. 31-27) 19-23 *",  # a variation
        "1. 32-28 ; a comment to the end of the line\n*",
        "1. 32-28! 19-23 *",  # a strength
        "1. 32-28 19-23 2-0 1. 31-27",  # text after the result
        "1. 32-28 {not closed",
        "1. 32-28-23 *",  # a route written with "-"
        "19-23 x 2-0",  # the reader reads one cut move, not an illegal one (hypothesis found it)
        "1. 32-28 - 19-23 *",
    ],
)
def test_what_the_fast_path_leaves_to_the_reader(text: str) -> None:
    assert _fastcheck.fast_replay(text, INTERNATIONAL, None, None) is None
    assert _fastcheck.fast_check(text, INTERNATIONAL, None) is None


@native
@pytest.mark.parametrize(
    "text",
    [
        "1. 32-28 19-23 1-1",  # a result the shape of a move
        "1. 32-28\t19-23\r\n2. 28x19 14x23 2-0",  # other blanks between moves
        "1.32-28 19-23 2.28x19 14x23 0-2",  # numbers stuck to moves
        "1. 32-28 19-23 2... 28x19 *",  # a black move number
        "1. 32-285 *",  # a square of three digits
        "1. 123-4 *",
        "1. 32-28 19-23 2. 28x19 x10 *",  # a route going on past a blank
        "1. 32-28 19-23 2. 28x19-10 *",  # both separators
        "1. 32 -28 19-23 *",  # a blank before the separator
        "1. 32-28 19-23",  # no result
        "1. 32-28 {c} 19-23 $1 2. 28x19 14x23 *",
        "1. 01-28 *",
        "1. 32-28 19-23 2. 28x19 14x23 3. 1-7 *",
    ],
)
def test_the_common_moves_read_in_one_pass_agree_with_the_reader(text: str) -> None:
    for variant in (INTERNATIONAL, ENGLISH):
        agree(text, variant, None)


@native
def test_a_move_written_with_the_wrong_separator_replays_but_is_not_clean() -> None:
    text = "1. 32x28 19-23 *"
    assert _fastcheck.fast_replay(text, INTERNATIONAL, None, None) == (True, 2)
    assert _fastcheck.fast_check(text, INTERNATIONAL, None) is None
    assert agree(text, INTERNATIONAL, None) == 2


def test_the_pure_core_always_defers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdn_native, "check_each", None)
    assert _fastcheck.fast_replay("1. 32-28 *", INTERNATIONAL, None, None) is None
    assert _fastcheck.fast_check("1. 32-28 *", INTERNATIONAL, None) is None


@native
def test_a_fen_the_board_refuses_is_left_to_the_reader() -> None:
    assert _fastcheck.fast_replay("1. 32-28 *", INTERNATIONAL, "W:Wnonsense", None) is None
    text = "1. 28-23 *"
    fen = "W:W28:B10"
    assert _fastcheck.fast_replay(text, INTERNATIONAL, fen, None) == (True, 1)
    assert agree(text, INTERNATIONAL, fen) == 3


MOVETEXT = st.lists(
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
            "37-32",
            "10-14",
            "11-15",
            "24-20",
            "8-11",
            "28-24",
            "26x17x10",
            "{c}",
            "$3",
            "2-0",
            "0-1",
            "*",
            "1/2-1/2",
            "x",
            "-",
            "12",
            "{",
            "}",
            "(",
            ")",
            "!",
            "é",
            "\u00a0",
            "31-27",
            "17-21",
            "21x30",
            "99-98",
            "1-1",
            "9-14",
            "\t",
            "\r\n",
            "123-4",
            "c3-d4",
            "f6-g5",
            "d4-c5",
            "b6:d4",
            "e3xc5",
            "d6Xb4",
            "a3:c5",
            "C3-D4",
            "c3:d4",
            "i9-j10",
            "x3-d4",
            "c3-18",
            "c3:e5xg7",
            "a1",
        ]
    ),
    max_size=30,
)


EXAMPLES = int(os.environ.get("DRAUGHTS_FUZZ_EXAMPLES", "300"))


@native
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(MOVETEXT, st.sampled_from([INTERNATIONAL, ENGLISH, RUSSIAN, CANDIDATES[4]]))
def test_random_movetexts(pieces: list[str], variant: Variant) -> None:
    agree(" ".join(pieces), variant, None)


def corpus_files() -> list[Path]:
    return sorted(SHARED_PDN.rglob("*.pdn")) if SHARED_PDN.exists() else []


@native
@pytest.mark.slow
def test_every_corpus_game_answers_as_the_reader() -> None:
    files = corpus_files()
    if not files:
        pytest.skip(SHARED_ABSENT)
    answered = sum(check_file(path.read_bytes()) for path in files)
    assert answered > 0


# -- Algebraic squares and ":" captures -----------------------------------------

# A Russian opening with captures (b6 takes c5, e3 takes d4, ...).
OPENING = "1. c3-d4 f6-g5 2. d4-c5 b6{0}d4 3. e3{0}c5 d6{0}b4 4. a3{0}c5 *"


@native
@pytest.mark.parametrize("separator", [":", "x", "X"])
def test_algebraic_captures_replay_natively(separator: str) -> None:
    text = OPENING.format(separator)
    assert _fastcheck.fast_replay(text, RUSSIAN, None, None) == (True, 7)
    check = _fastcheck.fast_check(text, RUSSIAN, None)
    assert check == _fastcheck.FastCheck(7, "*", len(text) - 1)
    for variant in (RUSSIAN, ENGLISH, INTERNATIONAL, BRAZILIAN):
        agree(text, variant, None)


@native
@pytest.mark.parametrize(
    ("text", "fen", "replay"),
    [
        (OPENING.format(":").replace("b6:d4", "b6-d4"), None, (True, 7)),  # a capture with "-"
        ("1. c3:d4 f6-g5 *", None, (True, 2)),  # a quiet move with ":"
        ("1. c3-d4 f6-g5 2. 22-18 *", None, (False, 2)),  # numbers on an algebraic board
        ("1. 22-d4 f6-g5 *", None, (True, 2)),  # both in one move
        ("1. c3-d4 f6-e5 2. d4-c5 *", None, (False, 2)),  # a sure error: d4 must take
        ("1. c3:e5:g7 *", "W:Wc3:Bd4,f6", (True, 1)),  # a route in full
        ("1. c3:g7 *", "W:Wc3:Bd4,f6", (True, 1)),  # its short form
        ("1. c3:e5 e5:g7 *", "W:Wc3:Bd4,f6", None),  # split in two: the reader joins it
        ("1. c3:e5 f6-g5 *", "W:Wc3:Bd4,f6,h6", (False, 0)),  # the first part alone
        ("1. c3-d4 f6-i7 *", None, (False, 1)),  # a square off the board (file i)
        ("1. c3-d9 *", None, (False, 0)),  # off the board (rank 9)
        ("1. c3-d4 f6-g5 2. d4-c4 *", None, (False, 2)),  # a light square
        ("1. C3-D4 f6-g5 *", None, None),  # upper case: the reader's own reading
        ("1. c03-d4 *", None, None),  # a leading zero
        ("1. x3-d4 *", None, None),  # the x-file
        ("1. c3:e5xg7 *", "W:Wc3:Bd4,f6", None),  # two separators
        ("1. c3d4 f6g5 *", None, None),  # joined squares
        ("1. cd4 fg5 *", None, None),  # the short Russian form
    ],
)
def test_algebraic_edge_cases_agree_with_the_reader(
    text: str, fen: str | None, replay: tuple[bool, int] | None
) -> None:
    assert _fastcheck.fast_replay(text, RUSSIAN, fen, None) == replay
    for variant in (RUSSIAN, ENGLISH, INTERNATIONAL, BRAZILIAN):
        agree(text, variant, fen)


def test_the_square_of_every_code_is_the_readers() -> None:
    """The native loop's square of every written square's code is the
    reader's (:meth:`Resolver._square`), for every variant inference tries,
    also where the table is not asked (off the board)."""
    codes = _fastcheck.square_codes()
    assert len(codes) == _fastcheck.SQUARE_CODES
    for variant in CANDIDATES:
        table, dash = _fastcheck._numbers(variant)
        squares = array.array("h")
        squares.frombytes(table)
        resolver = resolver_for(variant)
        expected = [resolver._square(code) or 0 if code else 0 for code in codes]
        assert squares.tolist() == expected, variant.name
        assert dash == resolver.dash_captures
    assert codes[100 + 2 * 100 + 3] == "c3" and codes[100 + 23 * 100 + 4] == ""


# Files of algebraic games (Russian, Czech, Brazilian, English as
# playstrategy.org writes it), the variant they hold and how many of their
# games the native loop must answer for as that variant.
ALGEBRAIC_FILES = [
    ("russian/abatsiev.pdn", RUSSIAN, 0.95),
    ("russian/lidraughts_russian.pdn", RUSSIAN, 0.95),
    ("russian/test.pdn", RUSSIAN, 0.3),  # one game in upper case
    ("czech/MR_Ceska_Dama_Druzstev_2008.pdn", CZECH, 0.95),
    ("brazilian/lidraughts_brazilian.pdn", BRAZILIAN, 0.95),
    # Most of its captures of several pieces are written in parts
    # ("e1xc3 58. c3xe5"), which the reader joins.
    ("english/playstrategy_american.pdn", ENGLISH, 0.25),
]


@native
@pytest.mark.parametrize(
    ("name", "variant", "share"), ALGEBRAIC_FILES, ids=[f[0] for f in ALGEBRAIC_FILES]
)
def test_algebraic_corpus_games_answer_as_the_reader(
    name: str, variant: Variant, share: float
) -> None:
    data = shared_path(name).read_bytes()
    check_file(data)  # every game under every variant tried, against the reader
    found = list(games(data))
    answered = sum(_fastcheck.fast_replay(m, variant, fen, None) is not None for m, fen, _ in found)
    assert answered >= share * len(found), (answered, len(found))
