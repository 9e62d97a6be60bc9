"""Where each game of a PDN file starts, found without reading the games, so
that a file can be read from any game or split among processes or machines.

An offset is a **byte offset into the decompressed byte stream** (the file's
own bytes for a plain file) of the first character of a game as
:func:`draughts.pdn.read_game` splits the file: a game starts where the one
before it ended (after its game terminator, or at the tag that started the
next game), past blank space. So the first game usually starts at 0 (or at its
first tag, after blank lines), the next ones at the first line after the blank
line between games, and a game written on the same line as the end of the one
before (``... 2-0 [Event "B"] ...``) at that position in the line. Comments
between two games belong to the second, as they do when reading.

>>> import io
>>> from draughts.pdn import read_game, scan_offsets, scan_starts, seek_game
>>> data = b'[Event "A"]\\n1. 32-28 *\\n\\n[Event "B"]\\n1. 31-27 * {C} 1. 33-29 *\\n'
>>> list(scan_offsets(io.BytesIO(data)))
[0, 24, 47]
>>> handle = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
>>> starts = list(scan_starts(handle))
>>> starts[2]
GameStart(offset=47, line=5, column=12, number=3)
>>> seek_game(handle, starts[1])
>>> read_game(handle).headers["Event"]
'B'

Handles that can be scanned: binary handles (their bytes are the PDN text;
open a compressed file with :func:`gzip.open` and the like, or use
:func:`~draughts.pdn.open_pdn`), and text handles over a binary one in an
ASCII-compatible encoding with universal newlines (what
:func:`~draughts.pdn.open_pdn` returns, or :class:`io.TextIOWrapper` with its
default ``newline``). Text in memory (:class:`io.StringIO`) has no bytes: scan
``io.BytesIO(text.encode())`` instead. Scanning starts where the handle is and
counts lines from there, like reading (a text handle that cannot seek, over a
pipe or a ``.zst`` file, from where its binary handle is: scan it before
reading from it).

Seeking needs a seekable handle: a plain file, or a ``.gz``, ``.bz2`` or
``.xz`` file (whose decompressor seeks by decompressing from the start: fast
forward, slow backward); a ``.zst`` file and a pipe cannot seek. On a text
handle over an UTF-8 or single-byte encoding, ``handle.seek(offset)`` works
with these byte offsets, because the decoder has no state at a game start.
"""

from __future__ import annotations

import codecs
import functools
import io
import itertools
import re
from collections.abc import Generator, Iterator
from typing import IO, Any, NamedTuple, cast

from draughts.pdn import _native
from draughts.pdn._opening import _BLOCK, _HEAD
from draughts.pdn._opening import _compression as _compression  # for draughts.pdn
from draughts.pdn._opening import _open_binary as _open_binary  # for the command line, Dask
from draughts.pdn.lexer import Cursor, forget, guess_encoding, open_cursor, where

__all__ = ["GameStart", "scan_offsets", "scan_starts", "seek_game"]

_NONSPACE = re.compile(r"\S")


class GameStart(NamedTuple):
    """Where a game starts: its byte offset, and the line and column there
    as sequential reading counts them (lines from where scanning started),
    and the game's number from 1.

    >>> start = GameStart(offset=120, line=9, column=1, number=3)
    >>> start.offset, start.number
    (120, 3)
    """

    offset: int
    """The byte offset of the game's first character in the decompressed stream."""
    line: int
    """The line the game starts on, from 1 at the start of scanning."""
    column: int
    """The column (character, from 1) it starts at; above 1 when the game
    before ends on the same line."""
    number: int
    """The game's place in the scanned text, from 1."""


class _Lines:
    """The lines of a binary stream as a text handle with universal newlines
    would return them (``\r\n`` and ``\r`` read as ``\n``), and where each
    line starts in the stream. The reader's cursor reads them through
    :meth:`readline`.

    The stream is read a block at a time; a block's lines are split and
    decoded at once, and their offsets summed, so that :meth:`readline` only
    steps through lists."""

    __slots__ = (
        "blocks",
        "carry",
        "count",
        "encoding",
        "errors",
        "first",
        "first_text",
        "index",
        "lines",
        "number",
        "sig",
        "starts",
        "stream",
        "texts",
        "watch",
    )

    def __init__(
        self, stream: IO[bytes], encoding: str | None, errors: str, offset: int, head: bytes = b""
    ) -> None:
        self.stream = stream
        self.carry = head  # bytes read but not yet split into lines
        if encoding is None:
            while len(self.carry) < _HEAD:
                more = stream.read(_HEAD - len(self.carry))
                if not more:
                    break
                self.carry += more
            encoding = guess_encoding(self.carry[:_HEAD])
        _check_encoding(encoding)
        # Whether the stream starts with the first line, which may have a
        # byte order mark.
        self.sig = self.first = offset == 0 and codecs.lookup(encoding).name == "utf-8-sig"
        if codecs.lookup(encoding).name == "utf-8-sig":
            encoding = "utf-8"  # the byte order mark is only taken off the first line
        self.encoding = encoding
        self.errors = errors
        # The current block: each line's bytes, text and offset; the number
        # of the line before it; the next line's index.
        self.lines: list[bytes] = []
        self.texts: list[str] = []
        self.starts: list[int] = [offset]
        self.count = 0
        self.index = 0
        self.number = 0  # the number of the line last returned, from 1
        self.watch = False  # note the first line that is not blank (see mark_blank)
        self.first_text = (offset, 1, offset)  # its offset, number and end
        self.blocks: list[tuple[int, bytes]] | None = None  # kept for chunks

    def _fill(self) -> bool:
        """Split the next block of the stream into lines; False at its end."""
        offset = self.starts[self.count]
        while True:
            block = self.stream.read(_BLOCK)
            if not block:
                data, self.carry = self.carry, b""
                if not data:
                    return False
                lines = data.splitlines(keepends=True)
                break
            data = self.carry + block if self.carry else block
            lines = data.splitlines(keepends=True)  # at \n, \r\n and \r, as the text layer
            # A line cut by the block, or ending with "\r" that a "\n" may follow.
            self.carry = b"" if lines[-1].endswith(b"\n") else lines.pop()
            if lines:
                if self.carry:
                    data = data[: len(data) - len(self.carry)]
                break
        if self.blocks is not None:
            self.blocks.append((offset, data))
        encoding, errors = self.encoding, self.errors
        texts = [line.decode(encoding, errors) for line in lines]
        if self.first:
            texts[0] = lines[0].decode("utf-8-sig", errors)
            self.first = False
        if b"\r" in data:
            for index, line in enumerate(lines):
                if line.endswith(b"\r\n"):
                    texts[index] = texts[index][:-2] + "\n"
                elif line.endswith(b"\r"):
                    texts[index] = texts[index][:-1] + "\n"
        self.lines, self.texts = lines, texts
        self.starts = list(itertools.accumulate(map(len, lines), initial=offset))
        self.count = len(lines)
        self.index = 0
        return True

    def readline(self) -> str:
        index = self.index
        if index == self.count:
            if not self._fill():
                return ""
            index = 0
        self.index = index + 1
        self.number += 1
        text = self.texts[index]
        if self.watch and _NONSPACE.search(text) is not None:
            self.watch = False
            self.first_text = (self.starts[index], self.number, self.starts[index + 1])
        return text

    @property
    def start(self) -> int:
        """Where the line last returned starts."""
        return self.starts[self.index - 1] if self.index else self.starts[0]

    @property
    def end(self) -> int:
        """Where the line last returned ends: where the next one starts."""
        return self.starts[self.index]

    def mark_blank(self) -> None:
        """The next game starts on the next line: note the first line read
        from now on that is not blank, where its first token is."""
        self.watch = True

    def pad(self, width: int) -> str:
        """Make the line last returned start with ``width`` spaces more (the
        part of the line before a game that starts in it); its new text."""
        index = self.index - 1
        self.lines[index] = b" " * width + self.lines[index]
        self.texts[index] = " " * width + self.texts[index]
        self.starts[index] -= width
        return self.texts[index]

    def byte_offset(self, position: int) -> int:
        """The offset of character ``position`` of the line last returned."""
        index = self.index - 1
        raw, start = self.lines[index], self.starts[index]
        if raw.isascii() or position == 0:  # (the loop below finds where a character ends)
            return start + position
        first = self.sig and start == 0
        decoder = codecs.getincrementaldecoder("utf-8-sig" if first else self.encoding)(self.errors)
        count = 0
        for byte in range(len(raw)):
            count += len(decoder.decode(raw[byte : byte + 1]))
            if count >= position:
                # The character at ``position`` was output with this byte (a
                # byte that ends an invalid sequence outputs both).
                return start + byte + (1 if count == position else 0)
        return start + len(raw)


def _check_encoding(encoding: str) -> None:
    name = codecs.lookup(encoding).name
    if name != "utf-8-sig" and "\n\r".encode(name, "replace") != b"\n\r":
        raise ValueError(f"cannot scan text in {encoding}: newlines are not single bytes")


_IGNORED = frozenset(("percent", "comment", "cclose", "semicolon", "open_comment", "prose"))


def _skip(cursor: Cursor) -> bool:
    """Read one game's tokens as the reader splits games, without looking
    at the moves; whether there was a game.

    This is the reader's game loop with only what decides where a game ends:
    a tag after the movetext starts the next game, a result outside the
    variations ends this one (in a plain line of moves, only the result at its
    end can be one), and the text after it is left for the next game."""
    found = False
    in_headers = True
    nesting = 0
    push_back = cursor.push_back
    for kind, match, _line, _column in cursor.tokens():
        if kind == "line":
            found, in_headers = True, False
            text, end = match
            if end < len(text):  # a result
                push_back(text, end)
            continue
        if kind in _IGNORED:
            continue
        if kind == "tag" or kind == "tag_line" or kind == "tag2":
            if not in_headers:
                push_back(*where(kind, match))
                break
            found = True
            continue
        found, in_headers = True, False
        if kind == "open":
            nesting += 1
        elif kind == "close":
            nesting -= 1
        elif (kind == "result" or kind == "star") and nesting <= 0:
            push_back(match.string, match.end())
            break
    return found


class _PureScanner:
    """Finds the game starts of a binary stream, from its current position
    (``start``: the game there, if not the stream's start), keeping its bytes
    for :func:`draughts.pdn._chunking.chunks` if asked: the reader's own tokenizer on the decoded
    lines, the oracle of :class:`_FastScanner`."""

    def __init__(
        self,
        stream: IO[bytes],
        *,
        encoding: str | None = None,
        errors: str = "replace",
        start: GameStart | None = None,
        keep: bool = False,
        head: bytes = b"",
    ) -> None:
        offset = 0 if start is None else start.offset
        lines = self.lines = _Lines(stream, encoding, errors, offset, head)
        if keep:
            lines.blocks = []
        self.cursor = Cursor(lines)  # type: ignore[arg-type]  # it only calls readline
        self.number = 1 if start is None else start.number
        # The next game's start when known before reading it: offset, line,
        # column and the end of its line.
        self.exact: tuple[int, int, int, int] | None = None
        self.line_end = offset  # the end of the line of the start last yielded
        if start is None or start.column <= 1:
            if start is not None:
                lines.number = self.cursor.line_number = start.line - 1
            lines.mark_blank()
        else:
            # Start in the middle of a line: it reads as if the line's start
            # were spaces, so that columns are as sequential reading gives them.
            lines.number = start.line - 1
            pad = start.column - 1
            lines.readline()
            self.cursor.line_number = start.line
            self.cursor.push_back(lines.pad(pad), pad)
            self.exact = (start.offset, start.line, start.column, lines.end)

    @property
    def encoding(self) -> str:
        """The encoding of the text from its start (``utf-8-sig`` only for
        a stream that starts with a byte order mark)."""
        return "utf-8-sig" if self.lines.sig else self.lines.encoding

    @property
    def text_encoding(self) -> str:
        """The encoding of the text after its first line."""
        return self.lines.encoding

    @property
    def end(self) -> int:
        """Where the bytes read so far end."""
        return self.lines.end

    def batches(self) -> Iterator[list[int]]:
        """The starts as :class:`_FastScanner` gives them: lists of four
        ints per game (offset, line, column, end of its line)."""
        for start in self:
            yield [start.offset, start.line, start.column, self.line_end]

    def __iter__(self) -> Iterator[GameStart]:
        lines, cursor = self.lines, self.cursor
        while True:
            if not _skip(cursor):
                return
            if self.exact is not None:
                offset, line, column, self.line_end = self.exact
            else:
                (offset, line, self.line_end), column = lines.first_text, 1
            yield GameStart(offset, line, column, self.number)
            self.number += 1
            pending = cursor.pending
            self.exact = None
            if pending is None:  # the game ended at the end of the stream
                continue
            text, position = pending
            match = _NONSPACE.search(text, position)
            if match is None:
                lines.mark_blank()
            elif _NONSPACE.search(text, 0, match.start()) is None:
                self.exact = (lines.start, cursor.line_number, 1, lines.end)
            else:
                where = match.start()
                self.exact = (lines.byte_offset(where), cursor.line_number, where + 1, lines.end)

    def kept(self, start: int, end: int | None) -> bytes:
        """The bytes from ``start`` to ``end`` (None: all that was read),
        forgetting those before ``start``."""
        return _kept(self.lines.blocks, start, end)


def _kept(blocks: list[tuple[int, bytes]] | None, start: int, end: int | None) -> bytes:
    """The bytes from ``start`` to ``end`` (None: all) of ``blocks``, the
    blocks read with their offsets, forgetting those before ``start``."""
    assert blocks is not None
    while len(blocks) > 1 and blocks[1][0] <= start:
        del blocks[0]
    parts = []
    for offset, data in blocks:
        if end is not None and offset >= end:
            break
        parts.append(data[max(start - offset, 0) : None if end is None else end - offset])
    return b"".join(parts)


_FAST_BLOCK = 1 << 18  # bytes read at a time by the native scanner (fits a cache)
_FAST_GAME = 1 << 24  # a game longer than this is left to the pure scanner (memory)
_FAST_DETOUR = 1 << 16  # bytes the pure scanner reads on past what stopped the native one


@functools.lru_cache(maxsize=32)
def _fast_encoding(encoding: str) -> bool:
    """Whether the native scanner reads text in ``encoding`` right: UTF-8,
    or a code page of single bytes whose ASCII bytes are ASCII and whose
    other bytes are not (so that no byte outside ASCII is a bracket, a
    quote or a newline, and every ASCII byte is its character)."""
    name = codecs.lookup(encoding).name
    if name in ("utf-8", "utf-8-sig"):
        return True
    try:
        text = bytes(range(256)).decode(name, "replace")
    except (UnicodeError, LookupError):  # a codec that does not decode bytes
        return False
    return (
        len(text) == 256
        and all(ord(text[byte]) == byte for byte in range(128))
        and all(ord(char) >= 128 for char in text[128:])
    )


class _Recorder:
    """A binary stream read through, counting its bytes, keeping them for
    :meth:`_FastScanner.kept` if asked, and checking that they decode when
    the text layer's errors are ``strict`` (the pure scanner, which decodes
    every line, raises there too)."""

    __slots__ = ("blocks", "decoder", "offset", "stream")

    def __init__(self, stream: IO[bytes], offset: int, keep: bool, check: str | None) -> None:
        self.stream = stream
        self.offset = offset
        self.blocks: list[tuple[int, bytes]] | None = [] if keep else None
        self.decoder = None if check is None else codecs.getincrementaldecoder(check)("strict")

    def read(self, size: int = -1) -> bytes:
        data = self.stream.read(size)
        self.record(data)
        return data

    def record(self, data: bytes) -> None:
        """Count, keep and check bytes read from the stream."""
        if self.decoder is not None:
            self.decoder.decode(data, final=not data)
        if self.blocks is not None and data:
            self.blocks.append((self.offset, data))
        self.offset += len(data)


class _FastScanner:
    """:class:`_PureScanner`'s game starts found by the native core
    (``split_games`` in ``draughts/pdn/_native/pdn_split.c``) in the bytes
    themselves, a megabyte at a time. Where the bytes hold what it cannot
    read without decoding (a character outside ASCII between tokens, a byte
    order mark), it hands over to the pure scanner from the last game start
    it found, and takes over again some way past that place."""

    def __init__(
        self,
        stream: IO[bytes],
        encoding: str,
        errors: str,
        start: GameStart,
        keep: bool,
        head: bytes,
    ) -> None:
        name = codecs.lookup(encoding).name
        self.text_encoding = "utf-8" if name == "utf-8-sig" else encoding
        sig = start.offset == 0 and name == "utf-8-sig"
        self.encoding = "utf-8-sig" if sig else self.text_encoding
        self.errors = errors
        check = self.text_encoding if errors == "strict" else None
        self.source = _Recorder(stream, start.offset, keep, check)
        self.source.record(head)
        self.data = head
        self.base = start.offset  # where data starts in the stream
        self.eof = False
        self.resume = (start.offset, start.line, start.column, 0)  # and how many to skip
        self.number = start.number
        self.line_end = start.offset

    @property
    def end(self) -> int:
        """Where the bytes read so far end."""
        return self.source.offset

    def kept(self, start: int, end: int | None) -> bytes:
        """See :meth:`_PureScanner.kept`."""
        return _kept(self.source.blocks, start, end)

    def __iter__(self) -> Iterator[GameStart]:
        for batch in self.batches():
            for index in range(0, len(batch), 4):
                offset, line, column, self.line_end = batch[index : index + 4]
                yield GameStart(offset, line, column, self.number)
                self.number += 1

    def batches(self) -> Iterator[list[int]]:
        """The starts as lists of four ints per game: offset, line, column
        and where its line ends."""
        split = _native.split_games
        assert split is not None
        while True:
            offset, line, column, skip = self.resume
            starts, state, stop = split(
                self.data, offset - self.base, line, column, skip, self.eof, self.base
            )
            if starts:
                self.resume = (starts[-4], starts[-3], starts[-2], 1)
                yield starts
            if state == 0:
                return
            if state == 1 and len(self.data) + self.base - self.resume[0] < _FAST_GAME:
                self._read_more()
                continue
            # The pure scanner from the last game start, past where this one stopped.
            if not (yield from self._detour(self.base + stop + _FAST_DETOUR)):
                return

    def _read_more(self) -> None:
        keep_from = self.resume[0] - self.base
        block = self.source.read(_FAST_BLOCK)
        self.eof = not block
        self.data = self.data[keep_from:] + block
        self.base += keep_from

    def _detour(self, until: int) -> Generator[list[int], None, bool]:
        """Scan with the pure scanner from the last start until a game
        starts past ``until``; whether any bytes are left after it."""
        offset, line, column, skip = self.resume
        pure = _PureScanner(
            cast("IO[bytes]", self.source),
            encoding=self.encoding,
            errors=self.errors,
            start=GameStart(offset, line, column, 1),
            keep=True,
            head=self.data[offset - self.base :],
        )
        for found in pure:
            if skip:
                skip -= 1
                continue
            yield [found.offset, found.line, found.column, pure.line_end]
            if found.offset > until:
                self.resume = (found.offset, found.line, found.column, 1)
                self.data = pure.kept(found.offset, None) + pure.lines.carry
                self.base = found.offset
                self.eof = False
                return True
        return False


def _Scanner(  # a class to its callers
    stream: IO[bytes],
    *,
    encoding: str | None = None,
    errors: str = "replace",
    start: GameStart | None = None,
    keep: bool = False,
) -> _PureScanner | _FastScanner:
    """The native scanner where the core is built and reads the encoding,
    else the pure one (see :class:`_PureScanner`)."""
    if _native.split_games is None:
        return _PureScanner(stream, encoding=encoding, errors=errors, start=start, keep=keep)
    head = b""
    if encoding is None:
        while len(head) < _HEAD and (more := stream.read(_HEAD - len(head))):
            head += more
        encoding = guess_encoding(head)
    _check_encoding(encoding)
    if not _fast_encoding(encoding):
        return _PureScanner(
            stream, encoding=encoding, errors=errors, start=start, keep=keep, head=head
        )
    return _FastScanner(stream, encoding, errors, start or GameStart(0, 1, 1, 1), keep, head)


def _binary(handle: IO[Any]) -> tuple[IO[bytes], str | None, str, int]:
    """The binary stream to scan for ``handle``, its encoding (None: to be
    guessed), the decoding errors and the offset scanning starts at."""
    if isinstance(handle, io.TextIOBase):
        buffer = getattr(handle, "buffer", None)
        if buffer is None:
            raise TypeError(
                "scanning needs bytes: pass a binary handle, a text handle over one "
                "(open_pdn), or io.BytesIO(text.encode()) for text in memory"
            )
        forget(handle)  # the text layer's reading state is stale once the buffer moves
        offset = 0
        if handle.seekable():
            offset = handle.tell()
            if offset >> 64:  # a position with decoder state: not a line start
                raise ValueError("scanning must start at the start of a line")
            buffer.seek(offset)
        return buffer, handle.encoding, handle.errors or "strict", offset
    if not callable(getattr(handle, "read", None)):  # a path or bytes, most likely
        what = "bytes" if isinstance(handle, (bytes, bytearray)) else type(handle).__name__
        raise TypeError(
            f"scanning reads an open handle, not {what}: pass open(path, 'rb') for a file, "
            "io.BytesIO(data) for bytes in memory"
        )
    offset = handle.tell() if handle.seekable() else 0
    return handle, None, "replace", offset


def scan_starts(handle: IO[bytes] | IO[str]) -> Iterator[GameStart]:
    """The :class:`GameStart` of every game of ``handle``, found without
    building the games or checking moves, in constant memory.

    The games are split exactly as :func:`~draughts.pdn.read_game` splits
    them, so :func:`seek_game` to a start and ``read_game`` give the game
    that reading the handle from the start gives, with the same line and
    column numbers. See the module for what the offsets are and which
    handles can be scanned; a handle's position afterwards is anywhere, so
    seek before reading.

    >>> import io
    >>> data = b"1. 32-28 *\\n\\n\\n1. 31-27 2-0 1. 33-29 *"
    >>> [tuple(start) for start in scan_starts(io.BytesIO(data))]
    [(0, 1, 1, 1), (13, 4, 1, 2), (26, 4, 14, 3)]
    """
    stream, encoding, errors, offset = _binary(handle)
    start = GameStart(offset, 1, 1, 1)
    yield from _Scanner(stream, encoding=encoding, errors=errors, start=start)


def scan_offsets(handle: IO[bytes] | IO[str]) -> Iterator[int]:
    """The byte offset of every game start of ``handle`` (see the module),
    found without building the games, in constant memory.

    ``handle.seek(offset)`` on a freshly opened text handle and then
    :func:`~draughts.pdn.read_game` read the game found there;
    :func:`seek_game` does it on a handle already read from.

    >>> import io
    >>> data = '[Event "a"]\\n1. 32-28 *\\n\\n[Event "b é"]\\n1. 31-27 *'.encode()
    >>> list(scan_offsets(io.BytesIO(data)))
    [0, 24]
    """
    stream, encoding, errors, offset = _binary(handle)
    scanner = _Scanner(stream, encoding=encoding, errors=errors, start=GameStart(offset, 1, 1, 1))
    for batch in scanner.batches():
        yield from batch[::4]


def seek_game(handle: IO[str], start: GameStart | int) -> None:
    """Position a text handle so that the next
    :func:`~draughts.pdn.read_game` reads the game at ``start``.

    With a :class:`GameStart` (from :func:`scan_starts`), line and column
    numbers are those of sequential reading; with an offset alone, lines
    count from 1 there. Either way the reader's state for the handle (the
    rest of the line it stopped in, the line count) is reset, which a plain
    ``handle.seek`` does not do.

    >>> import io
    >>> from draughts.pdn import read_game
    >>> handle = io.TextIOWrapper(io.BytesIO(b"1. 32-28 * 1. 31-27 19-23 *"), "utf-8")
    >>> first, second = scan_starts(handle)
    >>> seek_game(handle, second)
    >>> read_game(handle).mainline_moves()
    [Move(31, 27), Move(19, 23)]
    >>> seek_game(handle, second)
    >>> read_game(handle).errors, read_game(handle)
    ([], None)
    """
    forget(handle)
    if isinstance(start, int):
        handle.seek(start)
        return
    handle.seek(start.offset)
    cursor = open_cursor(handle)
    if start.column > 1:
        # The game starts in a line: the reader sees the line as sequential
        # reading does, the text before the game replaced by spaces.
        pad = start.column - 1
        rest = handle.readline()
        cursor.line_number = start.line
        cursor.push_back(" " * pad + rest, pad)
    else:
        cursor.line_number = start.line - 1
