"""Opening PDN files as bytes, compressed or not (gzip, bzip2, xz, zstd told
by their first bytes), for :mod:`draughts.pdn.offsets`, :func:`draughts.pdn.open_pdn`
and the command line; their names are imported from :mod:`draughts.pdn.offsets`."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
from typing import IO, Any, cast

from draughts.pdn._text import refuse_binary
from draughts.pdn.lexer import guess_encoding

_BLOCK = 1 << 18  # bytes read at a time
_HEAD = 1 << 16  # bytes the encoding is guessed from, as open_pdn does

_MAGIC = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bz2"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
)


class _Prefixed(io.RawIOBase):
    """Bytes already read from a stream that cannot seek, then the rest of it."""

    def __init__(self, head: bytes, stream: IO[bytes]) -> None:
        self._head = head
        self._stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        if self._head:
            count = min(len(view), len(self._head))
            view[:count] = self._head[:count]
            self._head = self._head[count:]
            return count
        data = self._stream.read(len(view))
        view[: len(data)] = data
        return len(data)

    def close(self) -> None:
        super().close()
        self._stream.close()


def _read_head(stream: IO[bytes], size: int, seekable: bool) -> tuple[bytes, IO[bytes]]:
    """The first ``size`` bytes of ``stream`` (fewer at its end), and a stream
    that still starts with them (``stream`` itself if it is ``seekable``)."""
    if seekable:
        position = stream.tell()
        head = stream.read(size)
        stream.seek(position)
        return head, stream
    parts: list[bytes] = []
    got = 0
    while got < size:
        part = stream.read(size - got)
        if not part:
            break
        parts.append(part)
        got += len(part)
    head = b"".join(parts)
    return head, io.BufferedReader(_Prefixed(head, stream), _BLOCK)


def _compression(head: bytes) -> str | None:
    for magic, name in _MAGIC:
        if head.startswith(magic):
            return name
    return None


def _decompressed(stream: IO[bytes], name: str) -> IO[bytes]:
    """``stream`` itself, or a reader of what it decompresses to when it is
    gzip, bzip2, xz or zstd data (told by its first bytes; zstd needs the
    optional ``zstandard`` package). ``name`` names the file in errors.

    >>> import gzip, io
    >>> _decompressed(io.BytesIO(gzip.compress(b"1. 32-28 *")), "g.pdn.gz").read()
    b'1. 32-28 *'
    """
    seekable = stream.seekable()
    head, stream = _read_head(stream, 6, seekable)
    kind = _compression(head)
    if kind is None:
        return stream
    if kind == "gzip":
        return cast("IO[bytes]", gzip.GzipFile(fileobj=stream, mode="rb"))
    if kind == "bz2":
        return bz2.BZ2File(stream)
    if kind == "xz":
        return lzma.LZMAFile(stream)
    try:
        import zstandard  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        stream.close()
        raise ModuleNotFoundError(
            f"{name} is zstd-compressed: reading it needs the zstandard package "
            "(pip install zstandard)",
            name="zstandard",
        ) from None
    reader: IO[bytes] = zstandard.ZstdDecompressor().stream_reader(stream, closefd=True)
    return reader


def _open_binary(source: str | IO[bytes], name: str | None = None) -> tuple[IO[bytes], str]:
    """The decompressed bytes of a path or a binary handle (see
    :func:`_decompressed`), positioned at the start, and the encoding
    :func:`~draughts.pdn.open_pdn` reads them in.

    >>> import io
    >>> stream, encoding = _open_binary(io.BytesIO("[Site \\"Cannes é\\"]".encode("cp1252")))
    >>> stream.read(6), encoding
    (b'[Site ', 'cp1252')

    A source that is not text raises :class:`~draughts.pdn.NotTextError`.
    """
    if isinstance(source, str):
        name = name or source
        raw: IO[bytes] = open(source, "rb")  # noqa: SIM115  # returned
    else:
        raw, name = source, name or str(getattr(source, "name", "<stream>"))
    try:
        seekable = raw.seekable()
        stream = _decompressed(raw, name)
        # gzip says it can seek over a pipe; what decompresses a pipe cannot.
        head, stream = _read_head(stream, _HEAD, seekable and stream.seekable())
        refuse_binary(head, name)
    except BaseException:
        raw.close()
        raise
    return stream, guess_encoding(head)
