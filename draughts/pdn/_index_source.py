"""The reading of a PDN file's bytes for the index (:mod:`draughts.pdn.index`):
a text handle for the PDN reader that hashes the bytes and tells the byte
where each game starts, while the reader reads; and the hash of a file
without reading its games, to tell whether a file that was touched changed.

>>> import hashlib, io
>>> from draughts.pdn import read_game
>>> data = '[Event "é"] 1. 32-28 * [Event "b"]\\n1. 31-27 *\\n'.encode()
>>> source = Source(io.BytesIO(data), "utf-8")
>>> read_game(source).headers["Event"], source.next_offset()  # "é" is two bytes
('é', 24)
>>> read_game(source).headers["Event"], source.next_offset(), read_game(source)
('b', 47, None)
>>> source.sha256.digest() == hashlib.sha256(data).digest()
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import IO, BinaryIO, cast

from draughts.pdn.lexer import open_cursor
from draughts.pdn.offsets import _Lines


class _Hashing:
    """A binary stream that hashes the bytes as they are read from it."""

    __slots__ = ("_raw", "_update")

    def __init__(self, raw: BinaryIO, update: Callable[[bytes], object]) -> None:
        self._raw = raw
        self._update = update

    def read(self, size: int = -1) -> bytes:
        data = self._raw.read(size)
        self._update(data)
        return data


class Source:
    """A text handle for the PDN reader over a file's bytes that reads as
    :func:`draughts.pdn.open_pdn` does (the guessed encoding, universal
    newlines, undecodable bytes replaced), hashes the bytes as they go by,
    and tells where in the file the next game starts.

    The lines, and where each starts, come from the line reader of
    :func:`~draughts.pdn.scan_offsets` (:mod:`draughts.pdn.offsets`), so that
    the index and the scan count bytes the same way. The reader asks for
    lines only (``readline``) and keeps what is left of the line a game
    ended on for the next game; the byte where that rest starts is the next
    game's offset, found from the reader's cursor."""

    def __init__(self, raw: BinaryIO, encoding: str) -> None:
        self.sha256 = hashlib.sha256()
        stream = cast(IO[bytes], _Hashing(raw, self.sha256.update))  # it only calls read
        # At offset 0: the first line is the file's, with its byte order mark
        # if the encoding is utf-8-sig.
        self._lines = _Lines(stream, encoding, "replace", 0)
        # The reader calls readline once a line: the line reader's own method,
        # not one of this class that would call it.
        self.readline: Callable[[], str] = self._lines.readline

    def next_offset(self) -> int:
        """Where the reader's next game starts: the byte of the first
        non-blank character of the rest of the line the last game ended on,
        or the start of the next line (the index's offsets, which its
        databases store: :func:`~draughts.pdn.scan_starts` starts such a
        game at its first line that is not blank); -1 if the reader kept a
        line this handle did not give it last (it never does)."""
        pending = open_cursor(cast(IO[str], self)).pending
        lines = self._lines
        if pending is None:
            return lines.end
        line, position = pending
        if lines.index == 0 or line is not lines.texts[lines.index - 1]:
            return -1
        rest = line[position:]
        blank = len(rest) - len(rest.lstrip())
        if blank == len(rest):
            return lines.end
        return lines.byte_offset(position + blank)


def file_sha256(path: str) -> str:
    """The SHA-256 of a file's bytes, in hex (as :attr:`Source.sha256` ends)."""
    digest = hashlib.sha256()
    with open(path, "rb") as raw:
        for block in iter(lambda: raw.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
