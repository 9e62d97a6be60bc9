"""The native game splitter (``split_games``, ``draughts/pdn/_native/pdn_split.c``)
against the pure scanner it replaces (:class:`draughts.pdn.offsets._PureScanner`,
the reader's own tokenizer): the same game starts, lines, columns and line
ends on the test files, the examples, random PDN-like text in several
encodings, with the data cut into small blocks (so that every game is scanned
again from a resumption point), and on the whole shared corpus (``slow``).
"""

from __future__ import annotations

import codecs
import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from draughts.pdn import _chunking, _native, offsets
from draughts.pdn.offsets import GameStart
from tests.conftest import SHARED_ABSENT, SHARED_PDN

pytestmark = pytest.mark.skipif(_native.split_games is None, reason="the native core is not built")

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "tests" / "data").rglob("*.pdn")) + sorted((ROOT / "examples").glob("*.pdn"))


def starts(scanner: offsets._PureScanner | offsets._FastScanner) -> list[tuple[int, ...]]:
    """Every start with the end of its line, as the chunks see them."""
    return [(*start, scanner.line_end) for start in scanner]


def both(data: bytes, encoding: str | None = None, errors: str = "replace") -> None:
    """The native and the pure scanner give the same starts for ``data``;
    so do the native one's batches and :func:`draughts.pdn.scan_offsets`."""
    pure = starts(offsets._PureScanner(io.BytesIO(data), encoding=encoding, errors=errors))
    fast_scanner = offsets._Scanner(io.BytesIO(data), encoding=encoding, errors=errors)
    assert isinstance(fast_scanner, offsets._FastScanner)
    assert starts(fast_scanner) == pure
    batches = offsets._Scanner(io.BytesIO(data), encoding=encoding, errors=errors).batches()
    flat = [value for batch in batches for value in batch]
    assert flat[::4] == [start[0] for start in pure]
    assert flat[3::4] == [start[4] for start in pure]


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of 7 bytes, games longer than 40 bytes left to the pure
    scanner, detours of 10 bytes: every path of the native scanner's driver."""
    monkeypatch.setattr(offsets, "_FAST_BLOCK", 7)
    monkeypatch.setattr(offsets, "_FAST_GAME", 40)
    monkeypatch.setattr(offsets, "_FAST_DETOUR", 10)


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_the_test_files_split_as_the_pure_scanner_splits_them(path: Path) -> None:
    both(path.read_bytes())


@pytest.mark.parametrize("path", FILES[:12], ids=lambda path: path.name)
def test_small_blocks_give_the_same_starts(path: Path, small_blocks: None) -> None:
    both(path.read_bytes())


CASES = [
    b"",
    b"   \n\n",
    b"{only a comment}",
    b'[Event "A"]\n1. 32-28 *\n\n[Event "B"]\n1. 31-27 * {C} 1. 33-29 *\n',
    b'1. 32-28 2-0 [Event "B"] 1. 31-27 1-1',
    b"1. 32-28 {a\nlong\r\ncomment} 2-0\r\n\r\n1. 33-29 0-2\r1. 34-30 *",
    b"1. 32-28 19-23 2. 28x19 (2. 37-32 2-0) 14x23 0-2\n1. 31-27 *",
    b"1. 32-28 (a word) 2-0 1. 33-29 (!?) 0-2 1. 34-30 *",
    b"1. 32-28* 19-23 * 1. 32 - 28 x 23 2-0 1-01 *",
    b"1. 32-28 ; 2-0 rest\n% 2-0\n/ 2-0 / 0-2 1/2-1/2 1:1 *",
    b'\xef\xbb\xbf[Event "BOM"]\n1. 32-28 *\n\n1. 31-27 *',
    '1. 32-28 \u00a0 19-23 2-0\n\n[Event "é"]\n1. 31-27 … 2-0 \u00a02-0'.encode(),
    b"1. 32-28 \xa0 19-23 2-0 \x85 1. 31-27 *",
    b'[Event "a\\"b]"] 1. 32-28 [Bad\n] 1-0 [x] 2-0',
    b"1. 32-28\r",
    b"\x1c1. 32-28 2-0\x1f1. 32-28\v*\f1-1",
]


@pytest.mark.parametrize("data", CASES)
def test_awkward_texts(data: bytes) -> None:
    both(data)
    both(data, "cp1252")


@pytest.mark.parametrize("data", CASES)
def test_awkward_texts_in_small_blocks(data: bytes, small_blocks: None) -> None:
    both(data)


PIECES = [
    "1.",
    "12.",
    "3...",
    " ",
    " ",
    "\n",
    "\r\n",
    "\r",
    "\t",
    "32-28",
    "19x28",
    "1-1",
    "2-0",
    "0-2",
    "1/2-1/2",
    "1:0",
    "*",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    '[Event "x"]',
    '[Site "a]b"]',
    '"',
    ";",
    "%",
    "/",
    "$12",
    "!?",
    "(!)",
    "...",
    "…",
    "é",
    "\u00a0",
    "\x85",
    "x",
    "-",
    "26x17 x10",
    "(a b)",
    "(ab(c)d)",
    "e3-f4",
    "a1b2",
    "abc",
    "1234",
    "32-2845",
    "\x1c",
    "\ufeff",
    "ÿ",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), max_size=40), st.sampled_from(["utf-8", "cp1252"]))
def test_random_texts_split_as_the_pure_scanner_splits_them(pieces: list[str], code: str) -> None:
    data = "".join(pieces).encode(code, "replace")
    both(data)
    both(data, code)


@pytest.mark.parametrize("data", [b"[1-1*", b"1. 32-28 *\n[1-1 *", b'[Event "x"]\n1. 32-28 [ 2-0'])
def test_a_tag_cut_by_the_end_of_the_file(data: bytes) -> None:
    # The lexer reads a "[" on the last line, with no "]" after it and no
    # line break, as a tag the end of the file cuts (the rest of the line).
    both(data)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), max_size=40))
def test_random_texts_in_small_blocks(pieces: list[str]) -> None:
    data = "".join(pieces).encode()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(offsets, "_FAST_BLOCK", 5)
        patch.setattr(offsets, "_FAST_GAME", 30)
        patch.setattr(offsets, "_FAST_DETOUR", 3)
        both(data)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes(data: bytes) -> None:
    both(data)


def test_chunks_are_the_same_on_both_scanners(monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"".join(path.read_bytes() for path in FILES[:20])
    for size in (1, 500, 5000):
        fast = list(_chunking.chunks(io.BytesIO(data), size, keep=True))
        monkeypatch.setattr(_native, "split_games", None)
        pure = list(_chunking.chunks(io.BytesIO(data), size, keep=True))
        monkeypatch.undo()
        assert fast == pure
        assert b"".join(chunk.data or b"" for chunk in fast)  # the bytes are kept


def test_a_strict_text_handle_still_refuses_bad_bytes() -> None:
    data = b"1. 32-28 *\n\n{\xff} 1. 31-27 *"
    handle = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="strict")
    with pytest.raises(UnicodeDecodeError):
        list(offsets.scan_offsets(handle))


def test_an_encoding_of_two_bytes_a_character_is_scanned_by_the_pure_scanner() -> None:
    data = "1. 32-28 *\n\n1. 31-27 *".encode("shift_jis")
    scanner = offsets._Scanner(io.BytesIO(data), encoding="shift_jis")
    assert isinstance(scanner, offsets._PureScanner)
    assert [start.offset for start in scanner] == [0, 12]


def test_a_resumed_scan_from_the_middle_of_a_line() -> None:
    data = b"1. 32-28 2-0 1. 31-27 2-0 1. 33-29 *"
    _, second, third = offsets.scan_starts(io.BytesIO(data))
    stream = io.BytesIO(data)
    stream.seek(second.offset)
    fast = offsets._Scanner(stream, encoding="utf-8", start=second)
    assert list(fast) == [second, third] == [GameStart(13, 1, 14, 2), GameStart(26, 1, 27, 3)]


def test_split_games_checks_its_arguments() -> None:
    split = _native.split_games
    assert split is not None
    with pytest.raises(TypeError):
        split(b"", 0, 1, 1, 0, True)
    with pytest.raises(TypeError):
        split("text", 0, 1, 1, 0, True, 0)
    with pytest.raises(ValueError, match="out of range"):
        split(b"abc", 4, 1, 1, 0, True, 0)
    with pytest.raises(ValueError, match="out of range"):
        split(b"abc", 0, 0, 1, 0, True, 0)
    assert split(b"1. 32-28 *", 0, 1, 1, 0, True, 100) == ([100, 1, 1, 110], 0, 10)
    assert split(b"1. 32-28 *", 0, 1, 1, 0, False, 0)[1] == 1  # the line may go on


def corpus_files() -> list[Path]:
    return sorted(SHARED_PDN.rglob("*.pdn")) if SHARED_PDN.exists() else []


@pytest.mark.slow
def test_the_corpus_splits_as_the_pure_scanner_splits_it() -> None:
    files = corpus_files()
    if not files:
        pytest.skip(SHARED_ABSENT)
    for path in files:
        data = path.read_bytes()
        both(data)
        for code in ("utf-8", "cp1252"):
            codecs.lookup(code)
            both(data, code)


def test_the_encoding_of_a_scan_with_a_byte_order_mark() -> None:
    data = b'\xef\xbb\xbf[Event "A"]\n1. 32-28 *\n\n[Event "B"]\n1. 31-27 *\n'
    both(data, "utf-8-sig")
    second = list(offsets.scan_starts(io.BytesIO(data)))[1]
    for start in (None, second):
        stream = io.BytesIO(data)
        stream.seek(0 if start is None else start.offset)
        fast = offsets._Scanner(stream, encoding="utf-8-sig", start=start)
        stream = io.BytesIO(data)
        stream.seek(0 if start is None else start.offset)
        pure = offsets._PureScanner(stream, encoding="utf-8-sig", start=start)
        assert (fast.encoding, fast.text_encoding) == (pure.encoding, pure.text_encoding)
        assert list(fast) == list(pure)
