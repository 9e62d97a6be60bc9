"""Game starts: ``scan_starts``/``scan_offsets`` split a file exactly where
``read_game`` does, and reading from a start (``seek_game``, or a plain
``seek`` on a fresh handle) gives the game sequential reading gives, with the
same errors, lines and columns."""

from __future__ import annotations

import gc
import io
import tracemalloc
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, cast

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import draughts
from draughts import pdn
from draughts.pdn import lexer
from draughts.pdn._chunking import (
    Follow,
    Span,
    chunk_starts,
    chunks,
    in_order,
    open_chunk,
    span_chunk,
    spans,
)
from draughts.pdn.offsets import _Lines, _open_binary
from tests.conftest import SHARED_ABSENT, corpus_marks
from tests.conftest import SHARED_PDN as CORPUS

DATA = Path(__file__).resolve().parents[1] / "data" / "pdn"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def text(game: pdn.Game) -> str:
    """``str(game)``; the exception's text for a game whose ``str`` raises
    (a ``FEN`` tag the board rejects: the tree rebuilds the start from it)."""
    try:
        return str(game)
    except ValueError as error:
        return f"raises {error!r}"


def summary(game: pdn.Game) -> tuple[str, list[pdn.PdnError], list[pdn.PdnError]]:
    """What reading gave: the game as PDN, its errors and warnings."""
    return text(game), game.errors, game.warnings


Summary = tuple[str, list[pdn.PdnError], list[pdn.PdnError]]


def sequential(handle: IO[str], variant: draughts.Variant | None = None) -> list[Summary]:
    games = []
    while (game := pdn.read_game(handle, variant=variant)) is not None:
        games.append(summary(game))
    return games


def handle_of(data: bytes) -> IO[str]:
    return pdn.open_pdn(io.BytesIO(data))


def check_every_start(data: bytes) -> list[pdn.GameStart]:
    """Scan ``data``, and check every game read from its start against the
    games read sequentially; the starts."""
    expected = sequential(handle_of(data))
    starts = list(pdn.scan_starts(io.BytesIO(data)))
    assert [s.number for s in starts] == list(range(1, len(expected) + 1))
    assert list(pdn.scan_offsets(io.BytesIO(data))) == [s.offset for s in starts]
    # Text handles over the same bytes give the same starts.
    assert list(pdn.scan_starts(handle_of(data))) == starts
    handle = handle_of(data)
    for start, want in zip(reversed(starts), reversed(expected), strict=True):
        pdn.seek_game(handle, start)
        game = pdn.read_game(handle)
        assert game is not None
        assert summary(game) == want, start
    for start, want in zip(starts, expected, strict=True):
        # A plain seek on a fresh handle: the same game; lines count from there.
        fresh = handle_of(data)
        fresh.seek(start.offset)
        game = pdn.read_game(fresh)
        assert game is not None and text(game) == want[0], start
        assert [(e.kind, e.message) for e in game.errors] == [(e.kind, e.message) for e in want[1]]
    # Chunks (what the command line sends to worker processes): every size.
    for size in (1, 40, 1 << 20):
        got: list[Any] = []
        found: list[pdn.GameStart] = []
        for chunk in chunks(io.BytesIO(data), size, keep=True):
            assert chunk.data is not None
            with open_chunk(chunk) as chunk_handle:
                for _ in range(chunk.games):
                    game = pdn.read_game(chunk_handle)
                    assert game is not None
                    got.append(summary(game))
            found += chunk_starts(chunk, chunk.data)
        assert got == expected and found == starts, size
        # Cut without the bytes (Dask's caller): the same pieces; sizes by
        # offset too.
        for sized in (size, lambda offset, size=size: size + offset % 53):
            cut = [c[:3] for c in chunks(io.BytesIO(data), sized, keep=True)]
            light = list(chunks(io.BytesIO(data), sized, keep=False))
            assert [c[:3] for c in light] == cut, size
    # Spans (the parent of --jobs N cuts at byte offsets, the workers find
    # their games): the same starts and games, numbered and lined by the parent.
    for size in (1, 40, 1 << 20):
        assert spanned(data, size) == (starts, expected), size
    return starts


def spanned(data: bytes, size: int) -> tuple[list[pdn.GameStart], list[Summary]]:
    """The starts and games of ``data`` cut into spans of ``size`` bytes, as
    ``validate(jobs=N)`` cuts and reads a file."""
    stream, encoding = _open_binary(io.BytesIO(data))
    cut: list[Span] = []

    def read(span: Span) -> tuple[tuple[list[pdn.GameStart], list[Summary]], Follow]:
        chunk, following, end = span_chunk(io.BytesIO(data), span)
        if chunk is None:
            return ([], []), (0, following, end)
        with open_chunk(chunk) as chunk_handle:
            games = [
                summary(cast("pdn.Game", pdn.read_game(chunk_handle))) for _ in chunk.starts or ()
            ]
        return (chunk.starts or [], games), (chunk.games, following, end)

    def results() -> Iterator[tuple[tuple[list[pdn.GameStart], list[Summary]], Follow]]:
        for span in spans(stream, size, encoding):
            cut.append(span)
            yield read(span)

    starts: list[pdn.GameStart] = []
    games: list[Summary] = []
    for (found, read_games), before, lines, _ in in_order(cut, results(), read):
        starts += [s._replace(line=s.line + lines, number=s.number + before) for s in found]
        for game, errors, warnings in read_games:
            moved = [
                [attrs.evolve(e, line=e.line + lines) for e in kind] for kind in (errors, warnings)
            ]
            games.append((game, *moved))  # type: ignore[arg-type]
    return starts, games


def offsets(data: bytes) -> list[tuple[int, int, int]]:
    return [(s.offset, s.line, s.column) for s in check_every_start(data)]


# -- Where games start ---------------------------------------------------------


def test_games_separated_by_blank_lines_start_at_their_first_tag() -> None:
    data = b'\n\n[Event "a"]\n1. 32-28 *\n\n\n[Event "b"]\n1. 31-27 *\n'
    assert offsets(data) == [(2, 3, 1), (27, 7, 1)]
    assert data[27:].startswith(b'[Event "b"]')


def test_spans_cut_at_a_false_game_end_are_read_again() -> None:
    # A result marker ending a line inside a comment or a side line is no
    # game's end: a span cut after it starts in the middle of a game, which
    # the span before finds; the parent drops the span and reads it again
    # from the real start (or leaves it out when no game starts in it).
    data = (
        b'[Event "a"]\n1. 32-28 {a comment 1-0\n\n[Event "x"] in it} 19-23\n'
        b'(2. 33-29 2-0\n18-22) 2. 31-26 *\n\n[Event "b"]\n1. 31-27 1-0\n'
        b'[Event "c"] {0-2\n} 1. 33-28 *\n'
    )
    stream, encoding = _open_binary(io.BytesIO(data))
    cut = [span.start for span in spans(stream, 1, encoding)]
    x, side = data.index(b'[Event "x"]'), data.index(b"18-22)")
    assert x in cut and side in cut
    starts = offsets(data)
    assert [offset for offset, _, _ in starts] == [
        0,
        data.index(b'[Event "b"]'),
        data.index(b'[Event "c"]'),
    ]
    again: list[Span] = []
    cut_spans: list[Span] = []

    def read(span: Span) -> tuple[int, Follow]:
        chunk, following, end = span_chunk(io.BytesIO(data), span)
        return span.start, (0 if chunk is None else chunk.games, following, end)

    def reread(span: Span) -> tuple[int, Follow]:
        again.append(span)
        return read(span)

    def results() -> Iterator[tuple[int, Follow]]:
        for span in spans(io.BytesIO(data), 1, encoding):
            cut_spans.append(span)
            yield read(span)

    kept = [start for start, *_ in in_order(cut_spans, results(), reread)]
    # Both false starts lie inside the first game, which runs past them: left out.
    assert x not in kept and side not in kept and kept == [0, *(s for s, _, _ in starts[1:])]
    assert again == []
    # A span that starts inside a game ("b", which the first span holds):
    # read again from the game after it.
    middle = data.index(b"1. 31-27")
    wrong = [Span(0, middle, encoding), Span(middle, None, "utf-8")]
    found = list(in_order(wrong, (read(span) for span in wrong), reread))
    assert again == [Span(data.index(b'[Event "c"]'), None, "utf-8")]
    assert [(games, lines) for _, games, lines, _ in found] == [(0, 0), (2, starts[2][1] - 1)]


class _Unseekable(io.BufferedReader):
    def seekable(self) -> bool:
        return False


def test_spans_of_a_stream_that_cannot_seek_are_those_of_one_that_can() -> None:
    game = b'[Event "a"]\n1. 32-28 18-23 2-0\n\n'
    data = game * 300 + b"1. 31-27 *\n"
    for size in (1, 100, 5000, 1 << 20):
        seekable = list(spans(io.BytesIO(data), size, "utf-8"))
        unseekable = list(spans(_Unseekable(io.BytesIO(data)), size, "utf-8"))
        assert unseekable == seekable and seekable[-1].stop is None, size
        assert all(data[span.start :].startswith((b"[Event", b"1. 31")) for span in seekable)
        assert spanned(data, size)[0] == list(pdn.scan_starts(io.BytesIO(data)))


def test_games_not_separated_by_blank_lines() -> None:
    data = b'[Event "a"]\n1. 32-28 2-0\n[Event "b"]\n1. 31-27 0-2\n[Event "c"]\n'
    b, c = data.index(b'[Event "b"]'), data.index(b'[Event "c"]')
    assert offsets(data) == [(0, 1, 1), (b, 3, 1), (c, 5, 1)]


def test_a_game_ended_by_the_next_games_tag() -> None:
    # No game terminator: the tag ends the game, on its own line or in one.
    data = b'[Event "a"]\n1. 32-28 19-23 (1... 18-22\n[Event "b"]\n1. 31-27 [Event "c"] 1. 33-29'
    b, c = data.index(b'[Event "b"]'), data.index(b'[Event "c"]')
    assert offsets(data) == [(0, 1, 1), (b, 3, 1), (c, 4, 10)]
    games = sequential(handle_of(data))
    # "variation not closed" is reported at the line where the game ended.
    assert [(e.line, e.kind) for e in games[0][1]] == [(3, "syntax")]


def test_comments_before_the_first_tag_and_between_games_belong_to_the_next_game() -> None:
    data = b'{intro}\n[Event "a"]\n1. 32-28 * {between}\n\n{more}\n[Event "b"]\n1. 31-27 *'
    assert offsets(data) == [(0, 1, 1), (data.index(b"{between}"), 3, 12)]
    game = pdn.read_game(handle_of(data[data.index(b"{between}") :]))
    assert game is not None and game.headers["Event"] == "b"
    assert game.comment == "between more"


def test_text_after_the_result_on_the_same_line() -> None:
    data = b"1. 32-28 19-23 2-0 1. 31-27 *   \n1. 33-29 * ; a comment 1-0\n"
    assert offsets(data) == [(0, 1, 1), (19, 1, 20), (data.index(b"1. 33-29"), 2, 1)]
    # After the last game, a comment alone: no game.
    assert len(sequential(handle_of(data))) == 3


def test_a_result_in_a_variation_or_a_comment_does_not_end_the_game() -> None:
    data = (
        b'1. 32-28 (1. 33-29 2-0) 19-23 {2-0 [Event "x"]\n0-2} 2. 28x19 *\n'
        b'% 2-0 an escape line\n[Event "b"] 1. 31-27 *'
    )
    # The escape line is the first line of the second game.
    assert offsets(data) == [(0, 1, 1), (data.index(b"% 2-0"), 3, 1)]


def test_game_starts_in_lines_with_other_characters() -> None:
    # UTF-8 before the start in the same line: the offset counts bytes,
    # the column characters.
    data = "1. 32-28 {é€} * 1. 31-27 *\n".encode()
    assert offsets(data) == [(0, 1, 1), (19, 1, 17)]
    assert data[19:] == b"1. 31-27 *\n"


def test_bytes_that_are_not_utf8_and_cp1252() -> None:
    # An invalid UTF-8 sequence (one replacement character) before the start,
    # in a file read as UTF-8 (its first 64 KiB are).
    line = "{" + "é" * 40_000 + "}\n"
    data = line.encode() + b"1. 32-28 {\xe2\x82 " + "é".encode() + b"} * 1. 31-27 *\n"
    start = len(line.encode())
    assert offsets(data) == [(0, 1, 1), (start + 19, 2, 18)]
    latin = '[Event "Cannes é"]\n1. 32-28 * [Event "ü"] 1. 31-27 *\n'.encode("cp1252")
    assert offsets(latin) == [(0, 1, 1), (30, 2, 12)]


def test_newlines_of_every_kind_and_a_byte_order_mark() -> None:
    lf = '[Event "a"]\n1. 32-28 *\n\n[Event "b"]\n1. 31-27 * 1. 33-29 *\n'
    for newline in ("\n", "\r\n", "\r"):
        data = lf.replace("\n", newline).encode()
        extra = len(newline) - 1
        assert offsets(data) == [(0, 1, 1), (24 + 3 * extra, 4, 1), (47 + 4 * extra, 5, 12)]
        with_bom = b"\xef\xbb\xbf" + data
        assert offsets(with_bom) == [(0, 1, 1), (27 + 3 * extra, 4, 1), (50 + 4 * extra, 5, 12)]


def test_a_byte_order_mark_then_a_game_on_the_same_line() -> None:
    data = b"\xef\xbb\xbf1. 32-28 2-0 1. 31-27 *"
    assert offsets(data) == [(0, 1, 1), (16, 1, 14)]


def test_the_end_of_the_file() -> None:
    assert offsets(b"") == []
    assert offsets(b"\n \n") == []
    assert offsets(b"{only a comment}\n") == []
    assert offsets(b"1. 32-28 * {trailing comment}") == [(0, 1, 1)]
    assert offsets(b"1. 32-28") == [(0, 1, 1)]
    assert offsets(b'1. 32-28 {never closed\n[Event "b"] 1. 31-27 *') == [(0, 1, 1)]


class _Trickle(io.RawIOBase):
    """``data`` a few bytes per read, as a slow pipe gives it."""

    def __init__(self, data: bytes, step: int) -> None:
        self.data, self.step = data, step

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        part, self.data = self.data[: self.step], self.data[self.step :]
        buffer[: len(part)] = part
        return len(part)


def test_long_lines_and_reads_that_cut_lines() -> None:
    # A line longer than the blocks the stream is read in, and "\r\n" cut
    # between two reads.
    game = b'[Event "' + b"x" * 600_000 + b'"]\r\n1. 32-28 *\r\n\r\n'
    data = game + b"1. 31-27 *\r\r\n" + game
    expected = offsets(data)
    assert expected == [(0, 1, 1), (len(game), 4, 1), (len(game) + 13, 6, 1)]
    for step in (1, 2, 3, 7, 1000):
        stream = cast("IO[bytes]", _Trickle(data[:2000] + data[-2000:], step))
        assert list(pdn.scan_starts(stream)) == list(
            pdn.scan_starts(io.BytesIO(data[:2000] + data[-2000:]))
        )
    for step in (5_000, 99_999):
        assert [
            tuple(s)[:3] for s in pdn.scan_starts(cast("IO[bytes]", _Trickle(data, step)))
        ] == expected


def test_scanning_starts_where_the_handle_is() -> None:
    data = b"1. 32-28 *\n\n1. 31-27 *\n\n1. 33-29 *\n"
    handle = io.BytesIO(data)
    handle.seek(12)
    assert [tuple(s) for s in pdn.scan_starts(handle)] == [(12, 1, 1, 1), (24, 3, 1, 2)]
    text_handle = handle_of(data)
    assert pdn.read_game(text_handle) is not None
    pdn.seek_game(text_handle, 12)
    assert [tuple(s) for s in pdn.scan_starts(text_handle)] == [(12, 1, 1, 1), (24, 3, 1, 2)]


def test_seek_game_resets_what_the_reader_kept() -> None:
    data = b"1. 32-28 * 1. 31-27 *\n1. 33-29 *\n"
    _, second, third = pdn.scan_starts(io.BytesIO(data))
    handle = handle_of(data)
    first = pdn.read_game(handle)  # the reader keeps the rest of line 1
    assert first is not None
    pdn.seek_game(handle, third)
    game = pdn.read_game(handle)
    assert game is not None and [str(m) for m in game.mainline_moves()] == ["33-29"]
    pdn.seek_game(handle, second.offset)  # lines count from 1 there
    moved = pdn.read_game(handle)
    assert moved is not None and [str(m) for m in moved.mainline_moves()] == ["31-27"]


def test_errors_keep_their_lines_and_columns() -> None:
    data = b'[Event "a"]\n1. 32-28 19-23 2. 28-22 *\n\n[Event "b"]\n1. 31-27 * 1. 32-26 *\n'
    games = sequential(handle_of(data))
    assert [(e.line, e.column, e.kind) for _, errors, _ in games for e in errors] == [
        (2, 19, "illegal"),
        (5, 15, "illegal"),
    ]
    offsets(data)  # and from each start


def test_handles_without_bytes_are_refused() -> None:
    with pytest.raises(TypeError, match="BytesIO"):
        list(pdn.scan_offsets(io.StringIO("1. 32-28 *")))
    with pytest.raises(ValueError, match="utf-16"):
        list(pdn.scan_offsets(io.TextIOWrapper(io.BytesIO(b""), encoding="utf-16")))


class _Repeat(io.RawIOBase):
    """``unit`` repeated ``times``, made as it is read."""

    def __init__(self, unit: bytes, times: int) -> None:
        self.unit, self.left, self.position = unit, times, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if not self.left:
            return 0
        part = self.unit[self.position : self.position + len(buffer)]
        buffer[: len(part)] = part
        self.position += len(part)
        if self.position == len(self.unit):
            self.position, self.left = 0, self.left - 1
        return len(part)


def test_scanning_takes_constant_memory() -> None:
    unit = (EXAMPLES / "candidate95.pdn").read_bytes()

    def peak(times: int) -> tuple[int, int]:
        tracemalloc.start()
        try:
            count = sum(1 for _ in pdn.scan_offsets(io.BufferedReader(_Repeat(unit, times))))
            return count, tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    (small_count, small), (large_count, large) = peak(35), peak(280)
    assert large_count == 8 * small_count
    assert large < small * 1.5 + (1 << 20), (small, large)


# -- Generated files ---------------------------------------------------------------

MOVETEXT = [
    "1.",
    "2...",
    "32-28",
    "19-23",
    "28x19",
    "14x23",
    "11-15",  # illegal in international
    "31-27",
    "{c}",
    '{é 2-0 [Event "x"]\nmore}',
    "{unclosed 1-0",
    "; rest 2-0\n",
    "\n% escape 0-2\n",
    "(",
    ")",
    "(a note in prose)",
    "$3",
    "!?",
    "zz",
    "-",
    "2-0",
    "*",
    "\n",
    "\t",
]
TERMINATORS = ["2-0", "0-2", "1-1", "*", "1/2-1/2", ""]
SEPARATORS = ["\n\n", "\n", " ", "", "\n\n\n", " {between} ", "\n  \n"]


@st.composite
def pdn_files(draw: st.DrawFn) -> bytes:
    parts = []
    if draw(st.booleans()):
        parts.append(draw(st.sampled_from(["{intro}\n", "; intro\n", "\n\n"])))
    for _ in range(draw(st.integers(0, 6))):
        tags = draw(st.lists(st.sampled_from(['[Event "e"]', "[Round 3]", '[GameType "20"]'])))
        tag_sep = draw(st.sampled_from(["\n", " "]))
        moves = draw(st.lists(st.sampled_from(MOVETEXT), max_size=12))
        parts.append(tag_sep.join(tags) + (tag_sep if tags else ""))
        parts.append(" ".join(moves))
        parts.append(" " + draw(st.sampled_from(TERMINATORS)))
        parts.append(draw(st.sampled_from(SEPARATORS)))
    body = "".join(parts)
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    body = body.replace("\n", newline)
    encoding = draw(st.sampled_from(["utf-8", "cp1252", "utf-8-sig"]))
    return body.encode(encoding)


@settings(max_examples=50, deadline=None)
@given(pdn_files())
def test_generated_files_split_as_read_game_splits_them(data: bytes) -> None:
    check_every_start(data)


@pytest.mark.slow
@settings(max_examples=250, deadline=None)
@given(pdn_files())
def test_generated_files_split_as_read_game_splits_them_many(data: bytes) -> None:
    check_every_start(data)


# -- The corpus ------------------------------------------------------------------


def corpus_params() -> list[Any]:
    if not CORPUS.is_dir():
        reason = SHARED_ABSENT
        return [pytest.param("", marks=pytest.mark.skip(reason=reason))]
    files = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".pdn", ".phn"))
    params = []
    for path in files:
        relative = path.relative_to(CORPUS).as_posix()
        params.append(pytest.param(relative, marks=corpus_marks(path), id=relative))
    return params


def variant_of(relative: str) -> draughts.Variant | None:
    """The variant of the corpus folder (``english/...``), if it names one."""
    try:
        return draughts.find_variant(relative.split("/")[0])
    except ValueError:
        return None


def games_from_starts(
    path: Path, starts: list[pdn.GameStart], variant: draughts.Variant | None
) -> Iterator[Summary]:
    with pdn.open_pdn(path) as handle:
        for start in starts:
            pdn.seek_game(handle, start)
            game = pdn.read_game(handle, variant=variant)
            assert game is not None
            yield summary(game)


@pytest.mark.parametrize("relative", corpus_params())
def test_corpus_games_read_from_their_start_are_the_sequential_games(relative: str) -> None:
    path, variant = CORPUS / relative, variant_of(relative)
    with pdn.open_pdn(path) as handle:
        expected = sequential(handle, variant)
    with open(path, "rb") as raw:
        starts = list(pdn.scan_starts(raw))
    assert len(starts) == len(expected)
    # Backwards, so that every seek is a real one.
    got = list(games_from_starts(path, starts[::-1], variant))[::-1]
    assert got == expected
    # A plain seek on a fresh handle, for a sample.
    for start, want in list(zip(starts, expected, strict=True))[:: max(1, len(starts) // 20)]:
        with pdn.open_pdn(path) as handle:
            handle.seek(start.offset)
            game = pdn.read_game(handle, variant=variant)
            assert game is not None and text(game) == want[0]


# The files above 12 KB (a third of a second each, against a tenth for all
# the others together) in the slow run.
@pytest.mark.parametrize(
    "path",
    [
        pytest.param(
            path,
            id=f"{path.parent.name}/{path.name}",
            marks=[pytest.mark.slow] if path.stat().st_size > 12_000 else [],
        )
        for path in [*sorted(DATA.glob("*.p?n")), *sorted(EXAMPLES.glob("*.pdn"))]
    ],
)
def test_local_files_read_from_their_start(path: Path) -> None:
    check_every_start(path.read_bytes())


def test_chunk_handles_are_let_go() -> None:
    # The reader keeps its state for a handle until the handle's end: a
    # chunk's handle, read to its last game only, is let go on leaving it.
    data = b"1. 32-28 *\n1. 31-27 *\n1. 33-29 *\n" * 3
    # Handles earlier tests dropped leave the weak table only when collected:
    # collected now, they cannot leave it in the middle of the count.
    gc.collect()
    before = len(lexer._CURSORS)
    kept = []
    for chunk in chunks(io.BytesIO(data), 1, keep=True):
        with open_chunk(chunk) as handle:
            assert pdn.read_game(handle) is not None
            assert len(lexer._CURSORS) == before + 1
            kept.append(weakref.ref(handle))
    del handle
    gc.collect()
    assert len(lexer._CURSORS) == before and all(ref() is None for ref in kept)


@pytest.mark.parametrize(
    ("data", "reads", "position", "offset"),
    [
        ("éabc\n".encode(), 1, 0, 0),  # the first character, not ASCII
        ("éabc\n".encode(), 1, 1, 2),
        (b"ab\n\xe9[x\n", 2, 0, 0),  # a line starting with a byte no character ends
        (b"ab\n\xe9[x\n", 2, 1, 1),  # ...which the decoder outputs with the "["
        (b"ab\n\xe9[x\n", 2, 2, 2),
    ],
)
def test_where_a_character_of_a_line_starts(
    data: bytes, reads: int, position: int, offset: int
) -> None:
    """The byte where character ``position`` of the line last read starts,
    counted from that line's start."""
    lines = _Lines(io.BytesIO(data), "utf-8", "replace", 0)
    for _ in range(reads):
        lines.readline()
    assert lines.byte_offset(position) - lines.starts[lines.index - 1] == offset
