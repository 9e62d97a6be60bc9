"""Opening books: the moves played in the first plies of PDN games, by
position, with how often each was played and how the games ended.

:func:`build` reads PDN files with :mod:`draughts.pdn` (each game in the
variant its tags name, else the one ``draughts validate`` decides for it with
its whole file in view) and counts, for every position of the
first ``plies`` plies of each game's main line, the moves played from it and
the results of those games. :meth:`Book.choose` picks one of a position's
book moves at random, weighted by how often it was played and how well it
scored; the built-in engine plays it when given ``book=``
(:class:`~draughts.engine.BuiltinEngine`).

>>> import io, draughts, draughts.pdn
>>> pdn = "1. 32-28 19-23 2. 28x19 14x23 2-0\\n\\n1. 32-28 18-23 0-2\\n"
>>> handle = io.StringIO(pdn)
>>> book = Book.from_games([draughts.pdn.read_game(handle), draughts.pdn.read_game(handle)])
>>> [(str(m), e.games, e.wins, e.losses) for m, e in book.moves(draughts.Board())]
[('32-28', 2, 1, 1)]

The file format (version 1) is JSON lines, optionally gzip-compressed (told
by its first bytes), read with the standard library only. The first line is
a header::

    {"format": "draughts-book", "version": 1, "plies": 16,
     "keys": {"international": "<start position key, 16 hex digits>", ...}}

and every other line one position, sorted by variant and key::

    {"variant": "international", "key": "<16 hex digits>",
     "moves": [["32-28", games, wins, draws, losses], ...]}

``key`` is the position's :attr:`draughts.Board.position_key` (pieces and
side to move); the header's ``keys`` hold each variant's start position key
so that a book made with other keys is refused rather than misread. A move
is ``from-to`` for a step and ``fromxto:c1,c2`` for a capture (its captured
squares in ascending order), in the variant's square numbers; wins, draws
and losses count the games in which the side that played the move won, drew
and lost (games without a result count in ``games`` only).
"""

from __future__ import annotations

import gzip
import importlib.resources
import io
import json
import os
import random
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any

import attrs

from draughts.board import Board
from draughts.move import Move
from draughts.piece import WHITE
from draughts.variant import find_variant

# The PDN reader is imported where games are read (build, from_games): an
# engine that only probes a book (python -m draughts hub, play) starts
# without it, a third of draughts.engine.hub_server's import.
if TYPE_CHECKING:
    from draughts.pdn import Game

__all__ = ["Book", "BookEntry", "BookError", "book_option", "build", "default_book"]

FORMAT = "draughts-book"
VERSION = 1
DEFAULT_NAME = "default_book.jsonl.gz"
"""The book shipped in the package (see :func:`default_book`)."""


class BookError(ValueError):
    """A book file that cannot be read: it names the file and the line.

    >>> str(BookError("book.jsonl", 3, "not JSON"))
    'book.jsonl, line 3: not JSON'
    """

    def __init__(self, source: str, line: int, reason: str) -> None:
        super().__init__(f"{source}, line {line}: {reason}")
        self.source = source
        self.line = line


@attrs.frozen
class BookEntry:
    """One move of a book position: the games that played it and how the
    side that played it did in them.

    >>> BookEntry("32-28", games=4, wins=2, draws=1, losses=0).score
    0.8333333333333334
    """

    move: str
    """The move, as ``from-to`` or ``fromxto:captured,...``."""
    games: int
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def score(self) -> float | None:
        """The share of the points the mover took in the games with a
        result, None if none had one."""
        decided = self.wins + self.draws + self.losses
        return None if not decided else (self.wins + self.draws / 2) / decided

    @property
    def weight(self) -> float:
        """How likely :meth:`Book.choose` plays the move: its games times
        its score smoothed towards a half (one win and one loss added, so
        that a move played once and lost keeps a chance)."""
        decided = self.wins + self.draws + self.losses
        return self.games * (self.wins + self.draws / 2 + 1) / (decided + 2)


def move_text(move: Move) -> str:
    """The text a book stores ``move`` as (equal moves, equal texts).

    >>> move_text(Move(32, 14, captures=(27, 18), path=(32, 23, 14)))
    '32x14:18,27'
    """
    if not move.captures:
        return f"{move.from_square}-{move.to_square}"
    taken = ",".join(str(s) for s in sorted(move.captures))
    return f"{move.from_square}x{move.to_square}:{taken}"


_Key = tuple[str, int]  # (variant name, position key)


class Book:
    """Book moves by position: ``entries`` maps (variant name, position key)
    to the position's moves, most played first.

    >>> import draughts
    >>> book = Book({("english", draughts.Board(variant="english").position_key):
    ...              (BookEntry("11-15", 3, 2, 1, 0),)}, plies=2)
    >>> draughts.Board(variant="english") in book, len(book)
    (True, 1)
    >>> book.choose(draughts.Board(variant="english"), random.Random(0))
    Move(11, 15)
    """

    def __init__(self, entries: dict[_Key, tuple[BookEntry, ...]], *, plies: int) -> None:
        self.entries = entries
        self.plies = plies
        """How many plies of each game the book was built from."""

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, board: object) -> bool:
        return isinstance(board, Board) and bool(self.moves(board))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Book) and (self.plies, self.entries) == (
            other.plies,
            other.entries,
        )

    __hash__ = None  # type: ignore[assignment]

    def moves(self, board: Board) -> list[tuple[Move, BookEntry]]:
        """The book moves of ``board``'s position that are legal there (a
        book move the game's history forbids, as the Frisian limit on king
        moves can, is left out), most played first."""
        found = self.entries.get((board.variant.name, board.position_key), ())
        if not found:
            return []
        legal = {move_text(move): move for move in board.legal_moves}
        return [(legal[e.move], e) for e in found if e.move in legal]

    def choose(self, board: Board, rng: random.Random) -> Move | None:
        """A book move for ``board`` drawn with ``rng``, weighted by
        :attr:`BookEntry.weight`; None when the position is not in the book."""
        found = self.moves(board)
        if not found:
            return None
        weights = [entry.weight for _move, entry in found]
        return rng.choices([move for move, _entry in found], weights)[0]

    @classmethod
    def from_games(
        cls,
        games: Iterable[Game],
        plies: int = 16,
        min_games: int = 1,
    ) -> Book:
        """The book of ``games``' first ``plies`` plies, keeping the moves
        played in at least ``min_games`` games (see :func:`build`)."""
        counts: dict[_Key, dict[str, list[int]]] = {}
        for game in games:
            _count_game(game, plies, counts)
        entries: dict[_Key, tuple[BookEntry, ...]] = {}
        for key, moves in counts.items():
            kept = [BookEntry(text, *c) for text, c in moves.items() if c[0] >= min_games]
            if kept:
                kept.sort(key=lambda e: (-e.games, e.move))
                entries[key] = tuple(kept)
        return cls(entries, plies=plies)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the book to ``path`` (gzip-compressed if it ends in ``.gz``;
        the same book gives the same bytes)."""
        data = "".join(line + "\n" for line in self._lines()).encode("utf-8")
        if os.fspath(path).endswith(".gz"):
            data = gzip.compress(data, mtime=0)
        with open(path, "wb") as handle:
            handle.write(data)

    def _lines(self) -> Iterator[str]:
        variants = sorted({name for name, _key in self.entries})
        keys = {name: f"{Board(variant=name).position_key:016x}" for name in variants}
        header = {"format": FORMAT, "version": VERSION, "plies": self.plies, "keys": keys}
        yield json.dumps(header, separators=(",", ":"))
        for (name, key), moves in sorted(self.entries.items()):
            row = [[e.move, e.games, e.wins, e.draws, e.losses] for e in moves]
            record = {"variant": name, "key": f"{key:016x}", "moves": row}
            yield json.dumps(record, separators=(",", ":"))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Book:
        """Read a book written by :meth:`save`.

        :raises BookError: for a file that is not a book of this format
            (naming the file and line).
        :raises OSError: if it cannot be opened.
        """
        with open(path, "rb") as raw:
            data = raw.read()
        return cls.from_bytes(data, os.fspath(path))

    @classmethod
    def from_bytes(cls, data: bytes, source: str = "<book>") -> Book:
        """Read a book from the bytes of its file (``source`` names it in
        errors)."""
        if data[:2] == b"\x1f\x8b":
            try:
                data = gzip.decompress(data)
            except (OSError, EOFError) as error:
                raise BookError(source, 1, f"broken gzip data: {error}") from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise BookError(source, 1, f"not a book (not UTF-8 text: {error.reason})") from None
        return _read_lines(io.StringIO(text), source)


def _count_game(game: Game, plies: int, counts: dict[_Key, dict[str, list[int]]]) -> None:
    """Add the first ``plies`` plies of ``game``'s main line to ``counts``:
    per position and move, [games, wins, draws, losses] of the mover."""
    try:
        board = game.board()
    except ValueError:
        return  # a bad FEN or variant: the reader reported it in game.errors
    from draughts.pdn.writer import result_points

    # White's and Black's points, the first number read as the first player's.
    points = result_points(game.headers.get("Result", "*"), board.variant)
    name = board.variant.name
    for move in game.mainline_moves()[:plies]:
        row = counts.setdefault((name, board.position_key), {}).setdefault(
            move_text(move), [0, 0, 0, 0]
        )
        row[0] += 1
        if points == (0.5, 0.5):
            row[2] += 1
        elif points in ((1.0, 0.0), (0.0, 1.0)):
            row[1 if (points[0] == 1.0) == (board.turn == WHITE) else 3] += 1
        board.push(move)


def _read_lines(handle: IO[str], source: str) -> Book:
    """The book in the JSON lines of ``handle`` (see the module's docstring)."""
    first = handle.readline()
    header = _json(first, source, 1)
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise BookError(source, 1, f"not a book (no {FORMAT!r} header)")
    if header.get("version") != VERSION:
        raise BookError(source, 1, f"book version {header.get('version')!r}, not {VERSION}")
    plies, keys = header.get("plies"), header.get("keys")
    if not isinstance(plies, int) or not isinstance(keys, dict):
        raise BookError(source, 1, "the header needs 'plies' (a number) and 'keys'")
    for name, start in keys.items():
        try:
            ours = f"{Board(variant=find_variant(name)).position_key:016x}"
        except ValueError:
            raise BookError(source, 1, f"unknown variant {name!r}") from None
        if start != ours:
            raise BookError(source, 1, f"made with other position keys for {name} than ours")
    entries: dict[_Key, tuple[BookEntry, ...]] = {}
    for number, line in enumerate(handle, start=2):
        if not line.strip():
            continue
        record = _json(line, source, number)
        try:
            name, key = record["variant"], int(record["key"], 16)
            moves = tuple(BookEntry(m, *_counts(c)) for m, *c in record["moves"])
        except (KeyError, TypeError, ValueError):
            raise BookError(source, number, "not a book position record") from None
        if name not in keys:
            raise BookError(source, number, f"variant {name!r} is not in the header")
        entries[name, key] = moves
    return Book(entries, plies=plies)


def _counts(counts: list[object]) -> list[int]:
    if len(counts) != 4 or not all(type(c) is int and c >= 0 for c in counts):
        raise ValueError(counts)
    return counts  # type: ignore[return-value]


def _json(line: str, source: str, number: int) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as error:
        raise BookError(source, number, f"not JSON ({error.msg})") from None


def build(
    files: Iterable[str | os.PathLike[str]],
    plies: int = 16,
    *,
    min_games: int = 1,
) -> Book:
    """The book of the games in the PDN ``files``: every position of the
    first ``plies`` plies of each game's main line (from its FEN tag, else
    the start), with the moves played from it in at least ``min_games``
    games. Each game is read in the variant its tags name, else in the one
    :func:`draughts.pdn.validate` decides for it with its whole file in view
    (:func:`draughts.pdn.settling.variants_of`: a game whose moves fit
    several variants takes the one its file's other games chose); the moves
    of a game up to its first error count, the rest does not.

    A result's first number is the score of the side that moves first, as
    :func:`draughts.pdn.result_points` reads it (``1-0`` is a win of Black
    in English draughts): in the Open Checkers Archive 2.0, of the decided
    games among its first 400 that end with one side ahead in material, 53
    have the side ahead as the first player's result, 5 the other way.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.pdn")
    >>> with open(path, "w") as file:
    ...     _ = file.write('[GameType "21"]\\n1. 11-15 23-19 1-0\\n')
    >>> book = build([path], plies=1)
    >>> len(book), book.entries.popitem()[1]  # Black played 11-15 and won
    (1, (BookEntry(move='11-15', games=1, wins=1, draws=0, losses=0),))

    :raises OSError: if a file cannot be read.
    """
    if plies < 1:
        raise ValueError(f"plies must be 1 or more, not {plies}")
    from draughts.pdn import open_pdn, read_game
    from draughts.pdn.settling import variants_of

    def games() -> Iterator[Game]:
        for path in files:
            # Each game's variant as draughts validate decides it, its whole
            # file in view: a game whose moves fit several variants takes the
            # one the file's other games chose.
            variants = variants_of(os.fspath(path))
            with open_pdn(path) as handle:
                while (game := read_game(handle, variant=next(variants, None))) is not None:
                    yield game

    return Book.from_games(games(), plies, min_games)


def default_book() -> Book:
    """The book shipped with the library: the first 16 plies of master games
    of international draughts and English checkers, moves played in at
    least two games (see :doc:`/engine` for its sources and how it is
    made).

    >>> import draughts
    >>> draughts.Board() in default_book()
    True
    """
    global _DEFAULT
    if _DEFAULT is None:
        data = importlib.resources.files("draughts.engine").joinpath(DEFAULT_NAME).read_bytes()
        _DEFAULT = Book.from_bytes(data, DEFAULT_NAME)
    return _DEFAULT


_DEFAULT: Book | None = None


def book_option(value: str) -> Book | None:
    """The book an engine option names (the ``book=`` of ``builtin:``
    engine specs, the Hub ``book`` parameter, ``--book``): ``none`` (or
    nothing) for no book, ``default`` for :func:`default_book`, else the
    path of a book file, read now.

    >>> book_option("none") is None, book_option("default") is default_book()
    (True, True)

    :raises BookError: for a file that is not a book (named, with the line).
    :raises OSError: if the file cannot be read.
    """
    if value in ("", "none"):
        return None
    if value == "default":
        return default_book()
    return Book.load(value)
