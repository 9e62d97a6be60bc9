"""A PDN file cut into pieces of whole games, for worker processes and
Dask tasks: the pieces' bounds (:func:`chunks`), a text handle over one
piece's bytes that reads its games with the lines and columns of the whole
file (:func:`open_chunk`) and the starts of its games (:func:`chunk_starts`).
Finding where games start is :mod:`draughts.pdn.offsets`' job."""

from __future__ import annotations

import contextlib
import io
import itertools
from collections.abc import Iterator
from typing import IO, NamedTuple

from draughts.pdn.lexer import forget
from draughts.pdn.offsets import GameStart, _FastScanner, _PureScanner, _Scanner, seek_game

__all__ = ["Chunk", "chunk_starts", "chunks", "open_chunk"]


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
    stream: IO[bytes], size: int, *, keep: bool, encoding: str | None = None
) -> Iterator[Chunk]:
    """The games of ``stream`` (from its start) in runs of about ``size``
    bytes, cut at game starts; with their bytes and starts if ``keep``."""
    scanner = _Scanner(stream, encoding=encoding, keep=keep)
    starts: list[GameStart] = []
    first: GameStart | None = None
    count = 0
    number = 1
    for batch in scanner.batches():
        for index in range(0, len(batch), 4):
            offset = batch[index]
            if first is not None and offset - first.offset < size:
                count += 1
                if keep:  # (the parent of --jobs N, which does not keep them,
                    # cuts a file at twice the speed without a start a game)
                    starts.append(GameStart(offset, batch[index + 1], batch[index + 2], number))
            else:
                start = GameStart(offset, batch[index + 1], batch[index + 2], number)
                if first is not None:
                    end = batch[index + 3]
                    data = scanner.kept(first.offset, end) if keep else None
                    kept = starts if keep else None
                    yield Chunk(first, count, end, data, chunk_encoding(scanner, first), kept)
                first, count, starts = start, 1, [start]
            number += 1
    if first is not None:
        data = scanner.kept(first.offset, None) if keep else None
        end = first.offset + len(data) if data is not None else scanner.end
        kept = starts if keep else None
        yield Chunk(first, count, end, data, chunk_encoding(scanner, first), kept)


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
