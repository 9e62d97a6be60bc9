"""A PDN file cut into pieces of whole games, for worker processes and
Dask tasks: the pieces' bounds (:func:`chunks`), a text handle over one
piece's bytes that reads its games with the lines and columns of the whole
file (:func:`open_chunk`) and the starts of its games (:func:`chunk_starts`).
Finding where games start is :mod:`draughts.pdn.offsets`' job.

**Spans: a file cut at byte offsets, the games found by the workers**
(:func:`spans`, :func:`read_span`; ``validate(jobs=N)``, its Dask runner).
:func:`chunks` scans the whole file for its game starts in the process that
cuts it, which then bounds how far more workers take a run. Instead, the
parent cuts at about every ``size`` bytes, at a *likely* game start: the
first line that is not blank after a line that ends in a result marker
(:func:`likely_start`, which reads a few kilobytes there). A piece
(:class:`Span`) runs from its start to the next piece's start, and its games
are those whose start lies in it: the worker scans from the span's start as
if a game started there, reads on past its end to finish its last game, and
says where the next game starts (:func:`read_span`). Lines and game numbers
count from the span's start (line 1, game 1): only the parent knows what
comes before, and it adds the lines and games of the pieces before as the
results come back, in file order.

A likely start is a guess (a result marker at the end of a line inside a
comment or a variation is no game's end), so the parent checks it: the
previous piece, read exactly, says where the next game starts, and that
must be the span's start. Where it is not, the piece's result is wrong and
is dropped; the piece is read again from where its first game really starts
(or holds no game, if the previous game runs past it). Real files almost
never need this; the reports are the same either way.
"""

from __future__ import annotations

import bisect
import codecs
import contextlib
import io
import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from typing import IO, NamedTuple, TypeVar

from draughts.pdn.lexer import forget
from draughts.pdn.offsets import (
    GameStart,
    _FastScanner,
    _open_binary,
    _PureScanner,
    _Scanner,
    seek_game,
)

__all__ = [
    "Chunk",
    "Span",
    "chunk_starts",
    "chunks",
    "in_order",
    "likely_start",
    "open_chunk",
    "read_span",
]


class Chunk(NamedTuple):
    """A run of whole games of a stream: the first game's start, how many
    games, where the run's bytes end, and the bytes if kept.

    The bytes run to the end of the line the next chunk starts in, so that a
    game that the next one's tags end is read as sequential reading reads it
    (the reader sees the tag)."""

    start: GameStart
    games: int
    end: int
    data: bytes | None
    encoding: str
    starts: list[GameStart] | None = None
    """Every game's start, where the bytes are kept (the scan that cut
    the run found them: scanning the run again for them was a tenth of the
    time of validating a file)."""


def chunks(
    stream: IO[bytes],
    size: int | Callable[[int], int],
    *,
    keep: bool,
    encoding: str | None = None,
) -> Iterator[Chunk]:
    """The games of ``stream`` (from its start) in runs of about ``size``
    bytes (or ``size(offset)`` for a run whose first game starts at
    ``offset``), cut at game starts; with their bytes and starts if
    ``keep``."""
    if not keep:
        yield from _cut(stream, size, encoding)
        return
    sized = size if callable(size) else lambda _: size
    scanner = _Scanner(stream, encoding=encoding, keep=True)
    starts: list[GameStart] = []
    first: GameStart | None = None
    limit = 0
    number = 1
    for batch in scanner.batches():
        # A batch's games taken a run at a time, the run's end found by
        # bisection, as _cut takes them (a Python step a game was a third
        # of the time of cutting the International corpus into pieces).
        offsets = batch[0::4]
        at = 0
        while at < len(offsets):
            if first is not None:
                cut = bisect.bisect_left(offsets, limit, at)  # the games before it are in the run
                starts += _starts(batch, at, cut, number)
                number += cut - at
                if cut == len(offsets):
                    break
                end = batch[4 * cut + 3]
                data = scanner.kept(first.offset, end)
                yield Chunk(first, len(starts), end, data, chunk_encoding(scanner, first), starts)
                at = cut
            offset = batch[4 * at]
            first = GameStart(offset, batch[4 * at + 1], batch[4 * at + 2], number)
            starts, limit, number, at = [first], offset + sized(offset), number + 1, at + 1
    if first is not None:
        data = scanner.kept(first.offset, None)
        end = first.offset + len(data)
        yield Chunk(first, len(starts), end, data, chunk_encoding(scanner, first), starts)


def _starts(batch: list[int], start: int, stop: int, number: int) -> Iterator[GameStart]:
    """The starts of the games ``start`` to ``stop`` of a batch of four ints
    a game, the first numbered ``number``."""
    return _made(
        zip(
            batch[4 * start : 4 * stop : 4],
            batch[4 * start + 1 : 4 * stop : 4],
            batch[4 * start + 2 : 4 * stop : 4],
            range(number, number + stop - start),
            strict=True,
        )
    )


def _made(fields: Iterable[tuple[int, int, int, int]]) -> Iterator[GameStart]:
    """A GameStart of each four fields, made by tuple.__new__ as
    ``GameStart._make`` makes one, without a Python call a game (0.21 us a
    start, for 0.37 us by _make and 0.46 us by calling the class)."""
    return map(tuple.__new__, itertools.repeat(GameStart), fields)


def _cut(
    stream: IO[bytes], size: int | Callable[[int], int], encoding: str | None
) -> Iterator[Chunk]:
    """:func:`chunks` without the bytes: a batch of starts of the scan at a
    time, the cut found by bisection (Dask's caller cuts the whole file, and
    a Python step a game there was a third of its time)."""
    sized = size if callable(size) else lambda _: size
    scanner = _Scanner(stream, encoding=encoding, keep=False)
    first: GameStart | None = None
    count = limit = 0
    number = 1
    for batch in scanner.batches():
        offsets = batch[0::4]
        at = 0
        while at < len(offsets):
            if first is not None:
                cut = bisect.bisect_left(offsets, limit, at)  # the games before it are in the run
                count += cut - at
                number += cut - at
                if cut == len(offsets):
                    break
                encoding = chunk_encoding(scanner, first)
                yield Chunk(first, count, batch[4 * cut + 3], None, encoding)
                at = cut
            offset = batch[4 * at]
            first = GameStart(offset, batch[4 * at + 1], batch[4 * at + 2], number)
            count, limit, number, at = 1, offset + sized(offset), number + 1, at + 1
    if first is not None:
        yield Chunk(first, count, scanner.end, None, chunk_encoding(scanner, first))


def chunk_encoding(scanner: _PureScanner | _FastScanner, start: GameStart) -> str:
    return scanner.encoding if start.offset == 0 else scanner.text_encoding


@contextlib.contextmanager
def open_chunk(chunk: Chunk, data: bytes | None = None) -> Iterator[IO[str]]:
    """A text handle over a chunk's bytes (``data`` if it has none), ready
    for :func:`~draughts.pdn.read_game` to read its games with the lines and
    columns of sequential reading.

    On exit the reader's state for the handle is dropped: the reader keeps
    it (and so the handle and its bytes) until a handle is read to its end,
    and a chunk's handle is read only to its last game."""
    data = chunk.data if data is None else data
    assert data is not None
    handle = io.TextIOWrapper(io.BytesIO(data), encoding=chunk.encoding, errors="replace")
    try:
        seek_game(handle, chunk.start._replace(offset=0))
        yield handle
    finally:
        forget(handle)
        handle.close()


def chunk_starts(chunk: Chunk, data: bytes) -> Iterator[GameStart]:
    """The starts of a chunk's games (from its bytes, unless it has them)."""
    if chunk.starts is not None:
        return iter(chunk.starts)
    scanner = _Scanner(io.BytesIO(data), encoding=chunk.encoding, start=chunk.start)
    return itertools.islice(scanner, chunk.games)


class Span(NamedTuple):
    """A piece of a file cut at byte offsets (see the module): its games
    are those that start from ``start`` and before ``stop``."""

    start: int
    """Where scanning starts: the first game starts at the first line from
    here that is not blank (or here, when ``column`` is above 1)."""
    stop: int | None
    """The next piece's start (None: the end of the file)."""
    encoding: str
    """The encoding of the piece's text."""
    column: int = 1
    """The column ``start`` is at (a game read again from where it starts
    in a line, see the module)."""


Next = tuple[int, int, int] | None
"""Where the game after a piece's games starts (offset, line counted from
the piece's start, column), or None when the file ends first."""

# A line ending in a result marker (after a space or at the line's start),
# blank lines, and the start of a line that is not blank: a game most likely
# starts there (see the module).
_LIKELY = re.compile(
    rb"(?<!\S)(?:1/2[-:]1/2|[12][-:]0|0[-:][0-2]|1[-:]1|\*)[ \t\f\v]*(?:\r\n|\r(?!\n)|\n)"
    rb"(?:[ \t\f\v]*(?:\r\n|\r(?!\n)|\n))*(?=[^\r\n]*\S)"
)
_WINDOW = 1 << 16  # bytes read at a time to find a likely start


def likely_start(stream: _Window, offset: int) -> int | None:
    """The first likely game start at or after ``offset`` (see the module),
    None if there is none. Most are found in the first few kilobytes read."""
    carry = b""
    while block := stream.read_at(offset):
        data = carry + block
        found = _LIKELY.search(data)
        if found is not None:
            return offset - len(carry) + found.end()
        carry = data[-64:]  # a marker and its blank lines cut by the block are looked at again
        offset += len(block)
    return None


class _Window:
    """A binary stream read at increasing offsets, a few kilobytes at a
    time (forward, keeping what was read, where it cannot seek)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.seekable = stream.seekable()
        self.base = 0  # where data starts in the stream
        self.data = b""

    def read_at(self, offset: int) -> bytes:
        """Some bytes from ``offset`` on (none at the end)."""
        if self.seekable:
            self.stream.seek(offset)
            return self.stream.read(_WINDOW)
        if not self.base <= offset < self.base + len(self.data):
            self.base += len(self.data)
            self.base += _skip(self.stream, offset - self.base)
            self.data = self.stream.read(_WINDOW) if self.base == offset else b""
        return self.data[offset - self.base :]


def _skip(stream: IO[bytes], size: int) -> int:
    """Read up to ``size`` bytes and forget them; how many were read."""
    left = size
    while left > 0 and (skipped := stream.read(min(left, 1 << 20))):
        left -= len(skipped)
    return size - left


def spans(stream: IO[bytes], size: int | Callable[[int], int], encoding: str) -> Iterator[Span]:
    """The spans of ``stream`` (positioned at its start), about ``size``
    bytes each (or ``size(offset)`` for a span starting at ``offset``); the
    first starts at 0 in ``encoding``, the others in its text encoding."""
    sized = size if callable(size) else lambda _: size
    text = "utf-8" if codecs.lookup(encoding).name == "utf-8-sig" else encoding
    window = _Window(stream)
    start = 0
    while True:
        stop = likely_start(window, start + max(sized(start), 1))
        yield Span(start, stop, encoding if start == 0 else text)
        if stop is None:
            return
        start = stop


def read_span(path: str, span: Span) -> tuple[Chunk | None, Next, int]:
    """The games of a span of the file ``path`` as a chunk with its bytes
    (None if it has none), where the next game starts (see :class:`Span`)
    and where the span ends (the next game's start, or the end of the
    file). Lines and numbers count from the span's start, in the starts as
    in the text handle :func:`open_chunk` makes."""
    stream, _ = _open_binary(path)
    with stream:
        return span_chunk(stream, span)


def span_chunk(stream: IO[bytes], span: Span) -> tuple[Chunk | None, Next, int]:
    """:func:`read_span` on a binary stream at its start."""
    if stream.seekable():
        stream.seek(span.start)
    else:
        _skip(stream, span.start)
    first = GameStart(span.start, 1, span.column, 1)
    scanner = _Scanner(stream, encoding=span.encoding, start=first, keep=True)
    starts: list[GameStart] = []
    following: Next = None
    end = None
    for batch in scanner.batches():
        offsets = batch[0::4]
        cut = len(offsets) if span.stop is None else bisect.bisect_left(offsets, span.stop)
        starts += _starts(batch, 0, cut, len(starts) + 1)
        if cut < len(offsets):
            following = (batch[4 * cut], batch[4 * cut + 1], batch[4 * cut + 2])
            end = batch[4 * cut + 3]  # the reader sees the tag that may end the last game
            break
    stop = scanner.end if following is None else following[0]
    if not starts:
        return None, following, stop
    data = scanner.kept(starts[0].offset, end)
    encoding = chunk_encoding(scanner, starts[0])
    chunk = Chunk(starts[0], len(starts), starts[0].offset + len(data), data, encoding, starts)
    return chunk, following, stop


Follow = tuple[int, Next, int]
"""What the parent needs of a span read elsewhere to number the next one's
games and lines: its games, where the game after them starts (lines counted
from the span's start) and where it ends (:func:`read_span`)."""

R = TypeVar("R")


def in_order(
    cut: list[Span], results: Iterable[tuple[R, Follow]], again: Callable[[Span], tuple[R, Follow]]
) -> Iterator[tuple[R, int, int, int]]:
    """The results of a file's spans (``cut``: the spans, in order, each in
    it by the time its result comes), each with the games and lines before
    it and where it ends, its start checked against where the span before
    says the next game starts (see the module): a span that holds no game
    is left out, one whose start was wrong is read again by ``again`` from
    the right one."""
    games = 0
    line = 1  # the line the span starts on
    expected: Next = (0, 1, 1)  # where the next game starts, lines from the file's start
    for index, (result, (count, following, end)) in enumerate(results):
        span = cut[index]
        if expected is None or (span.stop is not None and expected[0] >= span.stop):
            continue  # the game before runs over the whole span
        offset, line, column = expected
        if offset != span.start or column != 1:
            result, (count, following, end) = again(span._replace(start=offset, column=column))
        yield result, games, line - 1, end
        games += count
        expected = (
            None if following is None else (following[0], line + following[1] - 1, following[2])
        )
