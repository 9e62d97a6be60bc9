"""What the PDN readers take: text. Binary data (a program, an image, a
UTF-16 file) is refused before any of it is read as games, and a path or
bytes given where a text handle is wanted get an error that says what to
pass instead; the name a report gives a source."""

from __future__ import annotations

import codecs
import io
import os
from collections.abc import Iterable

from draughts.pdn import _native

# Bytes no text file has many of: the C0 controls but tab, line feed,
# carriage return, form feed and Ctrl-Z (which ends some DOS files), and DEL.
_CONTROL = bytes(b for b in range(32) if b not in b"\t\n\r\x0c\x1a") + b"\x7f"
_MOSTLY = 0.1  # refused when more than this share of the first block is controls


class NotTextError(TypeError):
    """Input that is not text, so not a PDN file: a NUL byte, or mostly
    control bytes, in its first block (64 KiB). ``name`` names the file.

    >>> import io
    >>> from draughts.pdn import open_pdn
    >>> open_pdn(io.BytesIO(b"\\x7fELF\\x02\\x01\\x01\\x00\\x00"))
    Traceback (most recent call last):
    ...
    draughts.pdn.NotTextError: <stream>: not a PDN file: binary data (a NUL byte at byte 7)
    """

    __module__ = "draughts.pdn"  # where it is exported, as tracebacks name it

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"{name}: not a PDN file: {reason}")
        self.name = name
        self.reason = reason


def refuse_binary(head: bytes, name: str) -> None:
    """Raise :class:`NotTextError` if ``head``, the first block of the file
    ``name`` (after decompression), is not text.

    >>> refuse_binary("[Event \\"é\\"]\\r\\n".encode(), "a.pdn")
    >>> refuse_binary(b"\\x01\\x02\\x03[", "b.pdn")
    Traceback (most recent call last):
    ...
    draughts.pdn.NotTextError: b.pdn: not a PDN file: binary data (3 control bytes of 4)
    """
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise NotTextError(name, "UTF-16 text; save it as UTF-8 to read it")
    nul = head.find(0)
    if nul >= 0:
        raise NotTextError(name, f"binary data (a NUL byte at byte {nul})")
    count = _native.count_controls  # None on the pure core: bytes.translate counts them
    controls = len(head) - len(head.translate(None, _CONTROL)) if count is None else count(head)
    if controls > _MOSTLY * len(head):
        raise NotTextError(name, f"binary data ({controls} control bytes of {len(head)})")


def handle_error(handle: object, function: str) -> TypeError | None:
    """Why ``handle`` is not the open text handle ``function`` reads, None
    if it is one.

    >>> print(handle_error(42, "read_game"))
    read_game reads an open text handle, not an object of type int: pass open_pdn(path)
    """
    if isinstance(handle, str):
        what = "a str: pass open_pdn(path) for a file, io.StringIO(text) for PDN text"
    elif isinstance(handle, os.PathLike):
        what = "a path: pass open_pdn(path), which opens the file as text"
    elif isinstance(handle, (bytes, bytearray, memoryview)):
        what = "bytes: pass open_pdn(io.BytesIO(data)), which decodes them"
    elif isinstance(handle, io.IOBase) and not isinstance(handle, io.TextIOBase):
        what = "a binary handle: pass open_pdn(handle), which decodes it"
    elif not callable(getattr(handle, "readline", None)):
        what = f"an object of type {type(handle).__name__}: pass open_pdn(path)"
    else:
        return None
    return TypeError(f"{function} reads an open text handle, not {what}")


def source_list(sources: object, function: str, handles: bool = True) -> list[object]:
    """The files ``sources`` names, as a list: a path or an open handle
    alone, or an iterable of them; anything else is a :class:`TypeError`
    that says what to pass (``handles``: whether ``function`` takes open
    handles, else only paths).

    >>> source_list("a.pdn", "validate"), source_list(("a.pdn", "b.pdn"), "validate")
    (['a.pdn'], ['a.pdn', 'b.pdn'])
    >>> source_list(b"1. 32-28 *", "validate")
    Traceback (most recent call last):
    ...
    TypeError: validate reads files, not bytes: pass io.BytesIO(data)
    """

    def one(source: object) -> bool:
        if isinstance(source, (str, os.PathLike)):
            return True
        return handles and callable(getattr(source, "read", None))

    if one(sources):
        return [sources]
    advice = "pass a path, an open handle, or a list of them"
    if not handles:
        advice = "pass a path or a list of them"
    if isinstance(sources, (bytes, bytearray, memoryview)):
        what = "bytes"
        if handles:
            advice = "pass io.BytesIO(data)"
    elif isinstance(sources, Iterable):
        found = list(sources)
        wrong = [source for source in found if not one(source)]
        if not wrong:
            return found
        what = f"a list holding an object of type {type(wrong[0]).__name__}"
    else:
        what = f"an object of type {type(sources).__name__}"
    raise TypeError(f"{function} reads files, not {what}: {advice}")


def source_name(source: object) -> str:
    """The name a report gives a file: a path as given, ``-`` for standard
    input, a handle's ``name``, else ``<stream>``."""
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    name = getattr(source, "name", None)
    if name in ("<stdin>", 0):  # sys.stdin.buffer, open(0, "rb")
        return "-"
    return name if isinstance(name, str) else "<stream>"
