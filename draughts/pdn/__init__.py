"""PDN game records: read them, walk them, edit them and write them back.

Shaped like python-chess's ``chess.pgn``: :func:`read_game` reads the next game
of an open file into a :class:`Game` tree, checking every move against the
rules; ``str(game)`` writes it as PDN 3.0.

>>> import io, draughts.pdn
>>> text = '[GameType "21"]\\n1. 11-15 23-19 2. 8-11 {book} (2. 9-14 $1) 22-17 *'
>>> game = draughts.pdn.read_game(io.StringIO(text))
>>> game.headers.variant().name
'english'
>>> [str(move) for move in game.mainline_moves()]
['11-15', '23-19', '8-11', '22-17']
>>> game.errors
[]
>>> print(game)
[GameType "21"]
[Result "*"]
<BLANKLINE>
1. 11-15 23-19 2. 8-11 {book} (2. 9-14!) 2... 22-17 *

Reading never raises on bad content: an illegal move, an unknown variant or a
syntax error becomes a :class:`PdnError` in :attr:`Game.errors`, with its line
and column, and the rest of the game is kept as text in the error.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterator
from typing import IO, Any, overload

from draughts.pdn._opening import _HEAD
from draughts.pdn._text import NotTextError, handle_error, refuse_binary
from draughts.pdn.builders import GameBuilder, HeadersBuilder, SkipVisitor
from draughts.pdn.headers import (
    SKIP,
    BaseVisitor,
    Headers,
    PdnError,
    ResultT,
    SkipType,
    set_variant_tags,
    variant_of_tags,
)
from draughts.pdn.lexer import guess_encoding as _guess_encoding
from draughts.pdn.offsets import (
    GameStart,
    _compression,
    _open_binary,
    scan_offsets,
    scan_starts,
    seek_game,
)
from draughts.pdn.reader import read as _read
from draughts.pdn.strict import check as _check
from draughts.pdn.tree import ChildNode, Game, GameNode
from draughts.pdn.validation import (
    CHUNK_BYTES as _CHUNK_BYTES,
)
from draughts.pdn.validation import (
    FileSummary,
    GameReport,
    Summary,
    Validation,
)
from draughts.pdn.writer import FileExporter, StringExporter, normal_result, result_points
from draughts.variant import Variant

__all__ = [
    "SKIP",
    "BaseVisitor",
    "ChildNode",
    "FileExporter",
    "FileSummary",
    "Game",
    "GameBuilder",
    "GameNode",
    "GameReport",
    "GameStart",
    "Headers",
    "HeadersBuilder",
    "NotTextError",
    "PdnError",
    "SkipType",
    "SkipVisitor",
    "StringExporter",
    "Summary",
    "Validation",
    "check_strict",
    "normal_result",
    "open_pdn",
    "read_game",
    "read_games",
    "read_headers",
    "result_points",
    "scan_offsets",
    "scan_starts",
    "seek_game",
    "set_variant_tags",
    "skip_game",
    "validate",
    "variant_of_tags",
]

# -- Reading -------------------------------------------------------------------


@overload
def read_game(
    handle: IO[str],
    *,
    variant: Variant | str | int | None = None,
    infer_variant: bool = True,
    Visitor: None = None,
) -> Game | None: ...


@overload
def read_game(
    handle: IO[str],
    *,
    variant: Variant | str | int | None = None,
    infer_variant: bool = True,
    Visitor: Callable[[], BaseVisitor[ResultT]],
) -> ResultT | None: ...


def read_game(
    handle: IO[str],
    *,
    variant: Variant | str | int | None = None,
    infer_variant: bool = True,
    Visitor: Callable[[], BaseVisitor[Any]] | None = None,
) -> Any:
    """Read the next game from ``handle`` and return it (or what ``Visitor``
    makes of it); None at the end of the file.

    ``variant`` is the variant of games without a ``GameType`` or ``Variant``
    tag. Without it, such a game is read as the variant its FEN tag and
    moves point to, with a warning (kind ``"inferred"``) that names it and
    why (see :ref:`pdn-variant-choice`); with ``infer_variant=False``, as
    international draughts, as PDN 3.0 says. Bad content never raises: every
    problem is reported to the visitor (:attr:`Game.errors` for games), and
    the next call reads the next game. The file is read line by line, so
    memory does not grow with its size. Line numbers count from where reading
    of the handle started (they start again after the end of the file).

    >>> import io
    >>> pdn = io.StringIO("1. 32-28 19-23 2. 28x19 14x23 2-0\\n\\n1. 31-27 *")
    >>> read_game(pdn).mainline_moves()[-1]
    Move(14, 23, captures=(19,), path=(14, 23))
    >>> len(read_game(pdn).mainline_moves()), read_game(pdn)
    (1, None)
    """
    if Visitor is None:
        return _read_tree(handle, variant, infer_variant)
    return _read(handle, Visitor(), variant, infer_variant)


def _read_tree(
    handle: IO[str], variant: Variant | str | int | None, infer_variant: bool
) -> Game | None:
    """:func:`read_game`'s game tree.

    The cyclic garbage collector is left alone. It was paused while a game
    was read, when every move read made a node that pointed to its parent
    (a cycle per game, walked by the collections a read set off); the
    moves of plain lines are now kept as moves until the tree is looked at
    (see :attr:`GameNode.variations`), and most games read hold no cycle.
    Reading the International corpus on the native core (625 games, the
    medians of 6 runs, CPU time), paused against not: 38.3 against 37.9 ms
    a read with each game dropped, 38.9 against 40.3 with every game kept;
    on the pure core, 334 against 330 and 338 against 339 ms. The pause,
    one switch for the whole interpreter, was not worth its cost to other
    threads."""
    game: Game | None = _read(handle, GameBuilder(variant), variant, infer_variant)
    return game


@overload
def read_games(
    handle: IO[str],
    *,
    variant: Variant | str | int | None = None,
    infer_variant: bool = True,
    Visitor: None = None,
) -> Iterator[Game]: ...


@overload
def read_games(
    handle: IO[str],
    *,
    variant: Variant | str | int | None = None,
    infer_variant: bool = True,
    Visitor: Callable[[], BaseVisitor[ResultT]],
) -> Iterator[ResultT]: ...


def read_games(
    handle: IO[str],
    *,
    variant: Variant | str | int | None = None,
    infer_variant: bool = True,
    Visitor: Callable[[], BaseVisitor[Any]] | None = None,
) -> Iterator[Any]:
    """Every game left in ``handle``, one at a time, in file order: what
    :func:`read_game` returns, called until the end of the file (with the
    same options). Games are read as the loop asks for them, so memory does
    not grow with the file.

    >>> import io
    >>> pdn = io.StringIO("1. 32-28 19-23 2-0\\n\\n1. 31-27 *\\n\\n1. 33-29 0-2")
    >>> [len(game.mainline_moves()) for game in read_games(pdn)]
    [2, 1, 1]
    >>> with open_pdn("examples/candidate95.pdn") as handle:
    ...     results = [game.headers["Result"] for game in read_games(handle)]
    >>> len(results), results[:3]
    (8, ['1-0', '1/2-1/2', '1/2-1/2'])
    """
    error = handle_error(handle, "read_games")
    if error is not None:
        raise error
    while True:
        game = read_game(handle, variant=variant, infer_variant=infer_variant, Visitor=Visitor)
        if game is None:
            return
        yield game


def read_headers(handle: IO[str], *, variant: Variant | str | int | None = None) -> Headers | None:
    """The headers of the next game, skipping its moves; None at the end.

    >>> import io
    >>> pdn = io.StringIO('[Event "A"]\\n1. 32-28 *\\n[Event "B"]\\n1. 31-27 *')
    >>> [read_headers(pdn)["Event"], read_headers(pdn)["Event"], read_headers(pdn)]
    ['A', 'B', None]
    """
    headers: Headers | None = _read(handle, HeadersBuilder(), variant, function="read_headers")
    return headers


def skip_game(handle: IO[str]) -> bool:
    """Skip the next game; False at the end of the file.

    >>> import io
    >>> pdn = io.StringIO("1. 32-28 * 1. 31-27 *")
    >>> skip_game(pdn), read_game(pdn).mainline_moves(), skip_game(pdn)
    (True, [Move(31, 27)], False)
    """
    return _read(handle, SkipVisitor(), None, function="skip_game") is not None


def open_pdn(source: str | os.PathLike[str] | IO[bytes]) -> IO[str]:
    """Open a PDN file for reading, guessing its encoding: UTF-8 (with or
    without a byte order mark) when the start of the file decodes as UTF-8,
    else CP1252 (Latin-1 with the Windows punctuation).

    Compressed files are read as what they decompress to, told by their first
    bytes (whatever their name): gzip (``.gz``), bzip2 (``.bz2``) and xz
    (``.xz``) with the standard library, zstd (``.zst``) when the optional
    ``zstandard`` package is installed (the ``zstd`` extra, or ``pip install zstandard``;
    without it, opening one raises :class:`ModuleNotFoundError` naming the
    file). ``source`` may also be a binary handle (``sys.stdin.buffer``),
    which the returned handle closes when it is closed.

    A file that is not text (a NUL byte, or mostly control bytes, in its
    first 64 KiB, once decompressed) raises :class:`NotTextError` naming it.

    >>> import gzip, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.pdn")
    >>> with open(path, "wb") as file:
    ...     _ = file.write('[Site "Cannes é"]'.encode("latin-1"))
    >>> with open_pdn(path) as handle:
    ...     read_headers(handle)["Site"]
    'Cannes é'
    >>> with gzip.open(path + ".gz", "wb") as file:
    ...     _ = file.write('[Site "Cannes é"]'.encode())
    >>> with open_pdn(path + ".gz") as handle:
    ...     read_headers(handle)["Site"]
    'Cannes é'
    """
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        with open(path, "rb") as raw:
            head = raw.read(_HEAD)
        if _compression(head) is None:  # a plain file, opened as it always was
            refuse_binary(head, path)
            return open(path, encoding=_guess_encoding(head), errors="replace")
        stream, encoding = _open_binary(path)
    elif isinstance(source, (bytes, bytearray, io.TextIOBase)) or not callable(
        getattr(source, "read", None)
    ):
        what = (
            "bytes: pass io.BytesIO(data)"
            if isinstance(source, (bytes, bytearray))
            else "a text handle: read_game reads it as it is"
            if isinstance(source, io.TextIOBase)
            else f"an object of type {type(source).__name__}"
        )
        raise TypeError(f"open_pdn takes a path or a binary handle, not {what}")
    else:  # _open_binary refuses what is not text
        stream, encoding = _open_binary(source)
    return io.TextIOWrapper(stream, encoding=encoding, errors="replace")


def check_strict(handle: IO[str] | str) -> list[PdnError]:
    """Check text against the PDN 3.0 reading grammar and return each
    violation (kind ``"pdn3"``) with its line and column.

    This checks the file's form only (tokens, tags, the game terminator
    between games, comment and variation nesting); :func:`read_game` checks
    the moves.

    >>> check_strict("1. 33-29 19-23 2. 35-30 { nested { comment } }")
    [PdnError(line=1, column=46, message="unexpected '}'", kind='pdn3', fen=None, unparsed='')]
    >>> check_strict('[Result "1-0"]\\n1. 32-28 1-0')
    []
    """
    if isinstance(handle, str):
        handle = io.StringIO(handle)
    error = handle_error(handle, "check_strict")
    if error is not None:
        raise error
    return _check(handle)


def validate(
    source: str | os.PathLike[str] | IO[bytes] | IO[str] | list[Any],
    *,
    variant: Variant | str | int | None = None,
    strict: bool = False,
    jobs: int = 1,
    chunk_size: int = _CHUNK_BYTES,
    problems_only: bool = False,
    progress: Callable[[str, int], None] | None = None,
) -> Validation:
    """Check every game of a PDN file (a path, a handle, or a list of them):
    a :class:`Validation` that yields each game's :class:`GameReport` in
    file order, and whose :meth:`~Validation.summary` adds them up.
    With ``problems_only``, it yields only the reports of the games with an
    error or a warning and of those whose variant their file settled or
    that was guessed (:attr:`GameReport.guessed`); the summary still counts
    every game. An archive is checked faster so, most with ``jobs``: the
    games that are fine are only counted, where they are read.
    ``progress``, if given, is called with a file's name and the bytes of
    it read so far each time a piece of it (about ``chunk_size`` bytes) has
    been checked.

    ``variant`` is the variant of games whose tags name none; without it,
    the evidence of each game decides, and where it leaves several variants,
    the game's file does (see :mod:`draughts.pdn.validation`). ``strict``
    adds the PDN 3.0 grammar check of each file. With ``jobs`` above 1, files
    of more than ``chunk_size`` bytes are split at game boundaries and their
    pieces checked in that many worker processes: the reports are the same.
    Handles are copied to a temporary file first (each file is read twice).

    >>> import io
    >>> text = "1. 32-28 19-23 2. 28-22 *\\n\\n1. 31-27 *\\n"
    >>> with validate(io.BytesIO(text.encode())) as validation:
    ...     for report in validation:
    ...         print(report.number, report.variant, report.plies, [e.kind for e in report.errors])
    ...     summary = validation.summary()
    1 international 2 ['illegal']
    2 international 1 []
    >>> summary.games, summary.games_with_errors, summary.ok
    (2, 1, False)
    >>> tagged = '[GameType "20"]\\n1. 32-28 19-23 2. 28-22 *\\n\\n[GameType "20"]\\n1. 31-27 *\\n'
    >>> with validate(io.BytesIO(tagged.encode()), problems_only=True) as validation:
    ...     print([report.number for report in validation], validation.summary().games)
    [1] 2

    :raises ValueError: for a variant the library does not know (at once);
        a file that cannot be read raises when its games are reached.
    """
    return Validation(
        source,
        variant=variant,
        strict=strict,
        jobs=jobs,
        chunk_size=chunk_size,
        problems_only=problems_only,
        progress=progress,
    )
