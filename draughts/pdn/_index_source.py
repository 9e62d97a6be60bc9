"""The reading of a PDN file's bytes for the index (:mod:`draughts.pdn.index`):
a text handle for the PDN reader that hashes the bytes and tells the byte
where each game starts, while the reader reads; and the hash of a file
without reading its games, to tell whether a file that was touched changed.
"""

from __future__ import annotations

import codecs
import hashlib
import re
from typing import IO, BinaryIO, cast

from draughts.pdn.lexer import open_cursor

_NEWLINE = re.compile(rb"(\r\n|\r|\n)")


class Source:
    """A text handle for the PDN reader over a file's bytes that reads as
    :func:`draughts.pdn.open_pdn` does (the guessed encoding, universal
    newlines, undecodable bytes replaced), hashes the bytes as they go by,
    and tells where in the file the next game starts.

    The reader asks for lines only (``readline``) and keeps what is left of
    the line a game ended on for the next game; the byte where that rest
    starts is the next game's offset, found from the reader's cursor."""

    def __init__(self, raw: BinaryIO, encoding: str) -> None:
        self._raw = raw
        self._encoding = encoding
        self._decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        self.sha256 = hashlib.sha256()
        self._queue: list[tuple[str, bytes]] = []  # lines after a lone CR, reversed
        self._read = 0  # bytes taken from raw
        self._queued = 0  # of which still in the queue
        self._line = ""  # the last line given to the reader
        self._line_bytes = b""
        self._line_start = 0

    def readline(self) -> str:
        """The next line, ending in ``\\n`` (except maybe the last); "" at the end."""
        if not self._queue:
            data = self._raw.readline()
            if not data:
                return ""
            self.sha256.update(data)
            self._read += len(data)
            last = not data.endswith(b"\n")  # only the end of the file has no newline
            decode = self._decoder.decode
            if b"\r" not in data:
                return self._give(decode(data, last), data)
            # Each line is decoded with its newline, which ends any broken
            # character before it as a whole-file decoder would.
            parts = _NEWLINE.split(data)  # text, newline, text, newline, ..., text
            for index in range(0, len(parts) - 1, 2):
                line = parts[index] + parts[index + 1]
                final = last and index == len(parts) - 3 and not parts[-1]
                text = decode(line, final)
                self._queue.append((text[: -len(parts[index + 1])] + "\n", line))
            if parts[-1]:
                self._queue.append((decode(parts[-1], True), parts[-1]))
            self._queue.reverse()
            self._queued = len(data)
        text, data = self._queue.pop()
        self._queued -= len(data)
        return self._give(text, data)

    def _give(self, text: str, data: bytes) -> str:
        self._line_start = self._read - self._queued - len(data)
        self._line, self._line_bytes = text, data
        return text

    def next_offset(self) -> int:
        """Where the reader's next game starts: the byte of the first
        non-blank character of the rest of the line the last game ended on,
        or the start of the next line; -1 if the reader kept a line this
        handle did not give it last (it never does)."""
        pending = open_cursor(cast(IO[str], self)).pending
        end = self._line_start + len(self._line_bytes)
        if pending is None:
            return end
        line, position = pending
        if line is not self._line:
            return -1
        rest = line[position:]
        blank = len(rest) - len(rest.lstrip())
        if blank == len(rest):
            return end
        position += blank
        data = self._line_bytes
        if data.isascii():
            return self._line_start + position
        # Count the characters byte by byte, as the decoder makes them.
        first = self._line_start == 0
        decoder = codecs.getincrementaldecoder(
            self._encoding if first or self._encoding != "utf-8-sig" else "utf-8"
        )(errors="replace")
        made = 0
        if position == 0:
            return self._line_start
        for size in range(len(data)):
            made += len(decoder.decode(data[size : size + 1]))
            if made >= position:
                return self._line_start + size + 1
        return end


def file_sha256(path: str) -> str:
    """The SHA-256 of a file's bytes, in hex (as :attr:`Source.sha256` ends)."""
    digest = hashlib.sha256()
    with open(path, "rb") as raw:
        for block in iter(lambda: raw.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
