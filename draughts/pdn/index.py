"""An index of PDN files in one SQLite database: the games, their tags and,
if asked, every position of their main lines, to find games by a position
(reached by any move order), by their first moves, or by their tags.

>>> import os, tempfile
>>> from draughts.pdn.index import Index
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "games.pdn")
>>> with open(path, "w") as file:
...     _ = file.write('[White "A"]\\n[Black "B"]\\n1. 11-15 23-19 2. 8-11 22-17 *\\n\\n'
...                    '[White "C"]\\n[Black "D"]\\n1. 11-15 22-17 2. 8-11 23-19 1-0\\n')
>>> with Index(os.path.join(folder, "games.sqlite")) as index:
...     index.add_file(path, variant="english", positions=True).games
...     after = "B:W17,19,21,24-32:B1-7,9-12,15"  # after 11-15 23-19 8-11 22-17
...     [(hit.white, hit.ply) for hit in index.games_with_position(after, variant="english")]
...     [hit.white for hit in index.games_starting_with("11-15 23-19")]
2
[('A', 4), ('C', 4)]
['A']

The database is one file (the default rollback journal: no ``-wal`` file is
left beside it) with five tables:

``files``
    one row per indexed file: ``path`` (absolute, symbolic links resolved),
    ``size``, ``mtime_ns``, ``sha256`` of its bytes, ``encoding``,
    ``default_variant`` (the ``variant=`` it was read with, NULL for none),
    ``positions`` (1 if its positions are indexed), ``games``, ``indexed_at``.
``games``
    one row per game: ``file_id``, ``number`` (from 1 in its file),
    ``offset`` (the byte where its text starts: seek there and read),
    ``variant`` (the name its moves were checked under; "" if none could be
    set up), ``result`` (the game terminator as written), ``plies`` (legal
    moves of the main line), ``start_fen`` (NULL when the game starts from
    the variant's start position), ``final_fen``, ``moves`` (the main line,
    moves separated by one space, as :func:`~draughts.pdn.record.line_move_text`
    writes them), ``errors``, ``first_error``, and the ``white``, ``black``,
    ``event``, ``date`` and ``site`` tags (NULL when absent).
``tags``
    every tag pair of every game, in order: ``game_id``, ``position``,
    ``name``, ``value``, indexed on ``(name, value)``.
``positions``
    with ``positions=True``: ``key``, ``game_id`` and ``ply``: the board's
    :attr:`~draughts.Board.position_key` after ``ply`` moves of the game's
    main line (ply 0: the start). The table is its own index, sorted by
    ``(key, game_id, ply)`` (``WITHOUT ROWID``): the games that had a
    position are one range of it. SQLite integers are signed, so a key of
    2**63 or more is stored minus 2**64 (:func:`signed_key`).
``meta``
    ``name``, ``value``: the schema version.

Every file is indexed in one transaction: an interrupted run leaves the
files done before it complete and nothing of the file it was in. Indexing a
file again does nothing while its size and modification time (or, if they
changed, its SHA-256) are the same and it was read with the same default
variant and at least as many tables; a changed file's old rows are replaced.
"""

from __future__ import annotations

import datetime
import os
import re
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Literal

import attrs

from draughts.board import Board
from draughts.move import Move
from draughts.pdn import open_pdn, read_game
from draughts.pdn._index_games import file_games
from draughts.pdn._index_settle import FileGames, replace_settled
from draughts.pdn._index_source import file_sha256
from draughts.pdn._index_tables import SCHEMA, game_row
from draughts.pdn._text import refuse_binary
from draughts.pdn.lexer import guess_encoding
from draughts.pdn.record import GameRecord, line_move_text
from draughts.pdn.tree import Game
from draughts.variant import INTERNATIONAL, Variant, find_variant

__all__ = [
    "SCHEMA_VERSION",
    "FileReport",
    "Hit",
    "Index",
    "signed_key",
    "unsigned_key",
]

SCHEMA_VERSION = 1
"""The layout of the tables; :class:`Index` refuses a database of another."""

_BATCH = 2000  # games read before their rows go to SQLite with executemany
_KEY_BATCH = 250_000  # or position rows (about 40 MB of Python tuples)
_TOP = 1 << 64
_HALF = 1 << 63


def signed_key(key: int) -> int:
    """A 64-bit position key as the signed integer the ``positions`` table
    stores (SQLite integers are signed 64-bit).

    >>> signed_key(5), signed_key(2**64 - 1)
    (5, -1)
    >>> unsigned_key(signed_key(2**63)) == 2**63
    True
    """
    return key - _TOP if key >= _HALF else key


def unsigned_key(key: int) -> int:
    """The position key a stored signed integer stands for (the inverse of
    :func:`signed_key`).

    >>> unsigned_key(-1) == 2**64 - 1
    True
    """
    return key + _TOP if key < 0 else key


@attrs.frozen
class FileReport:
    """What :meth:`Index.add_file` did with one file.

    >>> FileReport("/tmp/a.pdn", "unchanged", 3, 0, 0, 0.01).status
    'unchanged'
    """

    path: str
    """The file, as the ``files`` table names it (absolute)."""
    status: Literal["added", "replaced", "unchanged"]
    """``"added"`` (new), ``"replaced"`` (its old rows were replaced) or
    ``"unchanged"`` (nothing was written)."""
    games: int
    """Its games."""
    games_with_errors: int
    """Those with at least one error (0 when unchanged: not read again)."""
    positions: int
    """Rows written to ``positions`` (0 when unchanged or not asked)."""
    seconds: float
    """Time taken."""


@attrs.frozen
class Hit:
    """A game that a search found, with what the ``games`` table says of it
    (:func:`attrs.asdict` makes it a JSON object).

    >>> Hit(1, "a.pdn", 1, 0, "english", "A", "B", None, None, "1-0", 40, 0, 4).ply
    4
    """

    game_id: int
    """Its row in ``games``."""
    file: str
    """The file it is in."""
    number: int
    """Its place in that file, from 1."""
    offset: int
    """The byte where its text starts in the file."""
    variant: str
    """The variant its moves were checked under."""
    white: str | None
    """Its ``White`` tag."""
    black: str | None
    """Its ``Black`` tag."""
    event: str | None
    """Its ``Event`` tag."""
    date: str | None
    """Its ``Date`` tag."""
    result: str | None
    """Its game terminator as written."""
    plies: int
    """The legal moves of its main line."""
    errors: int
    """How many errors it has."""
    ply: int | None
    """For a position search, the first ply at which the game had the
    position (0: the start); for a search by first moves, their number;
    otherwise None."""


def _variant_name(variant: Variant | str | int | None) -> str | None:
    if variant is None:
        return None
    return variant.name if isinstance(variant, Variant) else find_variant(variant).name


_MOVE_NUMBER = re.compile(r"^[0-9]+\.(?:\.\.)?|^\.\.\.?$")


# -- The index ------------------------------------------------------------------


class Index:
    """A SQLite database of PDN games (created if absent; ``":memory:"``
    for one that lives only as long as the object). Use it as a context
    manager, or call :meth:`close`.

    >>> with Index(":memory:") as index:
    ...     index.files(), index.variants()
    ([], [])

    :raises ValueError: for a database made by another version of this
        module, or not by it.
    """

    def __init__(self, path: str | os.PathLike[str] = ":memory:") -> None:
        self.path = os.fspath(path)
        # Autocommit: transactions are begun and ended explicitly, one per file.
        self._db = sqlite3.connect(self.path, isolation_level=None, timeout=60)
        try:
            self._setup()
        except BaseException:
            self._db.close()
            raise

    def _setup(self) -> None:
        db = self._db
        db.execute("PRAGMA cache_size = -65536")  # KiB: 64 MiB while indexing
        db.execute("PRAGMA temp_store = MEMORY")
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        if tables and "meta" not in tables:
            raise ValueError(f"{self.path} is a database, but not an index of PDN games")
        if "meta" in tables:
            row = db.execute("SELECT value FROM meta WHERE name = 'schema'").fetchone()
            if row is None or row[0] != str(SCHEMA_VERSION):
                found = "none" if row is None else row[0]
                raise ValueError(
                    f"{self.path}: index schema {found}, this version reads {SCHEMA_VERSION}"
                )
            # An index already: nothing to write, so a search does not wait
            # for a run that is indexing a file.
            return
        # One transaction (the script is idempotent: every table "IF NOT EXISTS").
        script = f"""BEGIN IMMEDIATE; {SCHEMA}
            INSERT OR IGNORE INTO meta (name, value) VALUES ('schema', '{SCHEMA_VERSION}');
            COMMIT;"""
        try:
            db.executescript(script)
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    # -- Life ---------------------------------------------------------------------

    def close(self) -> None:
        """Close the database (what was committed stays).

        >>> index = Index()
        >>> index.close()
        """
        self._db.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def connection(self) -> sqlite3.Connection:
        """The :mod:`sqlite3` connection, for queries of your own (in
        autocommit mode: begin and commit any writes yourself).

        >>> Index().connection.execute("SELECT COUNT(*) FROM games").fetchone()
        (0,)
        """
        return self._db

    # -- Writing ------------------------------------------------------------------

    def add_file(
        self,
        path: str | os.PathLike[str],
        *,
        variant: Variant | str | int | None = None,
        positions: bool = False,
    ) -> FileReport:
        """Index the games of the PDN file ``path`` (``variant`` as for
        :func:`draughts.pdn.read_game`: the variant of games without tags),
        with every position of their main lines if ``positions``.

        Nothing is written if the file is indexed already with the same
        content, the same ``variant``, and positions if they are asked for.
        Otherwise all of the file's rows are written (or replaced) in one
        transaction: if anything interrupts it, nothing of the file is left.

        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "a.pdn")
        >>> _ = open(path, "w").write("1. 32-28 19-23 *\\n1. 31-27 *\\n")
        >>> with Index() as index:
        ...     [index.add_file(path).status, index.add_file(path).status]
        ...     index.add_file(path, positions=True).status
        ['added', 'unchanged']
        'replaced'

        :raises OSError: if the file cannot be read.
        """
        started = time.perf_counter()
        real = os.path.realpath(path)
        given = os.fspath(path)
        # Errors name the path as given (the user's ``../games.pdn``, not
        # its resolved form); the database keys files by the resolved one.
        stat = os.stat(given)
        default = _variant_name(variant)
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            old = db.execute(
                "SELECT id, size, mtime_ns, sha256, default_variant, positions, games"
                " FROM files WHERE path = ?",
                (real,),
            ).fetchone()
            if old is not None and old[4] == default and (old[5] or not positions):
                same = old[1] == stat.st_size and old[2] == stat.st_mtime_ns
                if not same and old[1] == stat.st_size and file_sha256(real) == old[3]:
                    db.execute(
                        "UPDATE files SET mtime_ns = ? WHERE id = ?", (stat.st_mtime_ns, old[0])
                    )
                    same = True
                if same:
                    db.execute("COMMIT")
                    return FileReport(
                        real, "unchanged", old[6], 0, 0, time.perf_counter() - started
                    )
            if old is not None:
                self._delete(old[0])
            games, bad, keys = self._write_file(real, stat, default, positions, variant, given)
            db.execute("COMMIT")
        except BaseException as error:
            db.execute("ROLLBACK")
            if isinstance(error, OSError) and error.filename == real:
                error.filename = given
            raise
        status: Literal["added", "replaced"] = "added" if old is None else "replaced"
        return FileReport(real, status, games, bad, keys, time.perf_counter() - started)

    def add_files(
        self,
        paths: Iterable[str | os.PathLike[str]],
        *,
        variant: Variant | str | int | None = None,
        positions: bool = False,
    ) -> Iterator[FileReport]:
        """:meth:`add_file` for each path, yielding each report when that
        file is committed.

        >>> with Index() as index:
        ...     list(index.add_files([]))
        []
        """
        for path in paths:
            yield self.add_file(path, variant=variant, positions=positions)

    def remove_file(self, path: str | os.PathLike[str]) -> bool:
        """Remove a file's rows; False if it was not indexed.

        >>> Index().remove_file("nowhere.pdn")
        False
        """
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            row = db.execute(
                "SELECT id FROM files WHERE path = ?", (os.path.realpath(path),)
            ).fetchone()
            if row is not None:
                self._delete(row[0])
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return row is not None

    def _delete(self, file_id: int) -> None:
        db = self._db
        games = "SELECT id FROM games WHERE file_id = ?"
        # positions is sorted by key: finding a file's rows reads the whole table.
        db.execute(f"DELETE FROM positions WHERE game_id IN ({games})", (file_id,))
        db.execute(f"DELETE FROM tags WHERE game_id IN ({games})", (file_id,))
        db.execute("DELETE FROM games WHERE file_id = ?", (file_id,))
        db.execute("DELETE FROM files WHERE id = ?", (file_id,))

    def _write_file(
        self,
        path: str,
        stat: os.stat_result,
        default: str | None,
        positions: bool,
        variant: Variant | str | int | None,
        given: str,
    ) -> tuple[int, int, int]:
        """Read the file and insert its rows (inside the caller's
        transaction); the number of games, of games with errors, and of
        position rows. ``given`` is the path as the caller wrote it, which
        errors name."""
        db = self._db
        with open(path, "rb") as raw:
            head = raw.read(1 << 16)
        refuse_binary(head, given)
        cursor = db.execute(
            "INSERT INTO files (path, size, mtime_ns, sha256, encoding, default_variant,"
            " positions, games, indexed_at) VALUES (?, ?, ?, '', ?, ?, ?, 0, ?)",
            (
                path,
                stat.st_size,
                stat.st_mtime_ns,
                guess_encoding(head),
                default,
                int(positions),
                datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            ),
        )
        file_id = cursor.lastrowid
        assert file_id is not None
        last = db.execute("SELECT MAX(id) FROM games").fetchone()[0]
        game_id = last or 0
        games = bad = keys = 0
        game_rows: list[tuple[Any, ...]] = []
        tag_rows: list[tuple[int, int, str, str]] = []
        key_rows: list[tuple[int, int, int]] = []
        # Games whose tags name no variant are settled by the file, as
        # draughts.pdn.validate settles them (see replace_settled).
        settling = FileGames() if default is None else None
        for start, record, line, choice in file_games(path, variant):
            games += 1
            game_id += 1
            bad += record.errors > 0
            if settling is not None:
                settling.add(game_id, start, record, choice)
            game_rows.append(game_row(game_id, file_id, record, line))
            tag_rows.extend(
                (game_id, place, name, value) for place, (name, value) in enumerate(record.tags)
            )
            if positions:
                key_rows.extend(
                    (key - _TOP if key >= _HALF else key, game_id, ply)
                    for ply, key in enumerate(line.keys)
                )
            if len(game_rows) >= _BATCH or len(key_rows) >= _KEY_BATCH:
                keys += len(key_rows)
                self._insert(game_rows, tag_rows, key_rows)
        keys += len(key_rows)
        self._insert(game_rows, tag_rows, key_rows)
        if settling is not None:
            more_bad, more_keys = replace_settled(self._db, path, file_id, settling, positions)
            bad, keys = bad + more_bad, keys + more_keys
        db.execute(
            "UPDATE files SET sha256 = ?, games = ? WHERE id = ?",
            (file_sha256(path), games, file_id),
        )
        return games, bad, keys

    def _insert(
        self,
        game_rows: list[tuple[Any, ...]],
        tag_rows: list[tuple[int, int, str, str]],
        key_rows: list[tuple[int, int, int]],
    ) -> None:
        db = self._db
        db.executemany(f"INSERT INTO games VALUES ({', '.join('?' * 17)})", game_rows)
        db.executemany("INSERT INTO tags VALUES (?, ?, ?, ?)", tag_rows)
        # In key order, the rows go to the table's pages in one sweep.
        key_rows.sort()
        db.executemany("INSERT INTO positions VALUES (?, ?, ?)", key_rows)
        game_rows.clear()
        tag_rows.clear()
        key_rows.clear()

    # -- Reading ------------------------------------------------------------------

    def files(self) -> list[tuple[str, int, bool]]:
        """The indexed files: ``(path, games, positions indexed)``.

        >>> Index().files()
        []
        """
        rows = self._db.execute("SELECT path, games, positions FROM files ORDER BY id")
        return [(path, games, bool(keys)) for path, games, keys in rows]

    def variants(self) -> list[str]:
        """The variants of the indexed games, by name.

        >>> Index().variants()
        []
        """
        # One step of the (variant, moves) index per variant, not a scan of it.
        rows = self._db.execute(
            "WITH RECURSIVE v(name) AS (SELECT MIN(variant) FROM games UNION ALL"
            " SELECT (SELECT MIN(variant) FROM games WHERE variant > v.name) FROM v"
            " WHERE v.name IS NOT NULL)"
            " SELECT name FROM v WHERE name IS NOT NULL AND name != ''"
        )
        return [row[0] for row in rows]

    def default_variant(self) -> Variant:
        """The variant searches parse FENs and moves in when not told: the
        variant of every indexed game if they share one, else international.

        >>> Index().default_variant().name
        'international'
        """
        names = self.variants()
        if len(names) == 1:
            try:
                return find_variant(names[0])
            except ValueError:
                pass
        return INTERNATIONAL

    def search(
        self,
        *,
        position: Board | str | None = None,
        moves: str | Sequence[str | Move] | None = None,
        tags: Iterable[tuple[str, str]] = (),
        player: str | None = None,
        variant: Variant | str | int | None = None,
        limit: int | None = None,
    ) -> list[Hit]:
        """The games that meet every condition given, in file order:

        - ``position`` (a board or a FEN): the game had it on its main line,
          after any moves (its ``positions`` must be indexed);
        - ``moves`` (``"11-15 23-19"``, move numbers allowed, or a list of
          move texts or moves): the main line starts with them, from the
          variant's start position;
        - ``tags``: pairs ``(name, value)`` the game has; a value with ``*``,
          ``?`` or ``[`` is a glob pattern (SQLite ``GLOB``, case matters);
        - ``player``: a part of the ``White`` or ``Black`` tag, ignoring
          the case of ASCII letters.

        ``variant`` is that of the FEN and moves (by default
        :meth:`default_variant`); with a position or moves, only games of
        that variant are found. At most ``limit`` games are returned.

        >>> import io, os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "a.pdn")
        >>> text = '[White "Tinsley, M."]\\n1. 11-15 *\\n[White "X"]\\n1. 9-13 *'
        >>> _ = open(path, "w").write(text)
        >>> with Index() as index:
        ...     _ = index.add_file(path, variant="english")
        ...     [hit.number for hit in index.search(player="tinsley")]
        ...     [hit.number for hit in index.search(tags=[("White", "X")])]
        [1]
        [2]

        :raises ValueError: for an invalid FEN or an illegal move.
        """
        sql, parameters = self._query(position, moves, tags, player, variant)
        sql = (
            "SELECT g.id, f.path, g.number, g.offset, g.variant, g.white, g.black, g.event,"
            " g.date, g.result, g.plies, g.errors, " + sql + " ORDER BY g.id"
        )
        if limit is not None:
            sql += " LIMIT ?"
            parameters.append(limit)
        return [Hit(*row) for row in self._db.execute(sql, parameters)]

    def count(
        self,
        *,
        position: Board | str | None = None,
        moves: str | Sequence[str | Move] | None = None,
        tags: Iterable[tuple[str, str]] = (),
        player: str | None = None,
        variant: Variant | str | int | None = None,
    ) -> int:
        """How many games :meth:`search` finds with no limit.

        >>> Index().count(moves="32-28")
        0
        """
        sql, parameters = self._query(position, moves, tags, player, variant)
        found: int = self._db.execute(
            f"SELECT COUNT(*) FROM (SELECT {sql})", parameters
        ).fetchone()[0]
        return found

    def games_with_position(
        self,
        position: Board | str,
        *,
        variant: Variant | str | int | None = None,
        limit: int | None = None,
    ) -> list[Hit]:
        """The games whose main line had ``position`` (a board, or a FEN in
        ``variant``), by any move order; :attr:`Hit.ply` is the first ply
        at which each had it. Only files indexed with positions are searched.

        >>> with Index() as index:
        ...     index.games_with_position("W:W21-32:B1-12", variant="english")
        []
        """
        return self.search(position=position, variant=variant, limit=limit)

    def games_starting_with(
        self,
        moves: str | Sequence[str | Move],
        *,
        variant: Variant | str | int | None = None,
        limit: int | None = None,
    ) -> list[Hit]:
        """The games whose main line begins with ``moves`` from the start
        position of ``variant``.

        >>> with Index() as index:
        ...     index.games_starting_with("1. 32-28 19-23")
        []
        """
        return self.search(moves=moves, variant=variant, limit=limit)

    def games_with_tag(self, name: str, value: str, *, limit: int | None = None) -> list[Hit]:
        """The games with tag ``name`` equal to ``value`` (or matching it,
        for a glob pattern: ``"Tinsley*"``).

        >>> Index().games_with_tag("White", "Tinsley*")
        []
        """
        return self.search(tags=[(name, value)], limit=limit)

    def _query(
        self,
        position: Board | str | None,
        moves: str | Sequence[str | Move] | None,
        tags: Iterable[tuple[str, str]],
        player: str | None,
        variant: Variant | str | int | None,
    ) -> tuple[str, list[Any]]:
        """The part of the query after SELECT's first columns: the ply
        column, FROM and WHERE, and its parameters."""
        joins = ["games g JOIN files f ON f.id = g.file_id"]
        where: list[str] = []
        parameters: list[Any] = []
        ply = "NULL"
        chosen: Variant | None = None
        if position is not None or moves is not None:
            if isinstance(variant, Variant):
                chosen = variant
            elif variant is not None:
                chosen = find_variant(variant)
            elif isinstance(position, Board):
                chosen = position.variant
            else:
                chosen = self.default_variant()
        if position is not None:
            assert chosen is not None
            board = position if isinstance(position, Board) else Board(position, variant=chosen)
            if board.variant != chosen:
                board = Board(board.fen(), variant=chosen)
            # The first ply each game had the key at: the table is sorted by
            # (key, game_id, ply), so this is one range read in order.
            joins.append(
                "JOIN (SELECT game_id, MIN(ply) AS ply FROM positions WHERE key = ?"
                " GROUP BY game_id) p ON p.game_id = g.id"
            )
            parameters.append(signed_key(board.position_key))
            ply = "p.ply"
        if moves is not None:
            assert chosen is not None
            texts = _replay(moves, chosen)
            prefix = " ".join(texts)
            # A prefix as a range of the (variant, moves) index: the texts
            # from "prefix" up to "prefix!" are "prefix" and those that start
            # with "prefix " (no move text has a character below "!").
            if texts:
                where.append("g.moves >= ? AND g.moves < ?")
                parameters += [prefix, prefix + "!"]
            where.append("g.start_fen IS NULL")
            if position is None:
                ply = str(len(texts))
        if chosen is not None:
            where.append("g.variant = ?")
            parameters.append(chosen.name)
        for name, value in tags:
            glob = any(c in value for c in "*?[")
            where.append(
                "g.id IN (SELECT game_id FROM tags WHERE name = ? AND value "
                + ("GLOB ?)" if glob else "= ?)")
            )
            parameters += [name, value]
        if player is not None:
            pattern = "%" + re.sub(r"([\\%_])", r"\\\1", player) + "%"
            where.append("(g.white LIKE ? ESCAPE '\\' OR g.black LIKE ? ESCAPE '\\')")
            parameters += [pattern, pattern]
        # The parameters of the joins come before those of WHERE, as in the text.
        sql = f"{ply} FROM " + " ".join(joins)
        if where:
            sql += " WHERE " + " AND ".join(where)
        return sql, parameters

    def record(self, game_id: int) -> GameRecord:
        """The :class:`~draughts.pdn.record.GameRecord` of a game, rebuilt
        from the database.

        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "a.pdn")
        >>> _ = open(path, "w").write('[Event "E"]\\n1. 32-28 *')
        >>> with Index() as index:
        ...     _ = index.add_file(path)
        ...     record = index.record(index.search()[0].game_id)
        >>> record.tags, record.plies, record.final_fen
        ((('Event', 'E'),), 1, 'B:W28,31,33-50:B1-20')

        :raises KeyError: for a game that is not in the index.
        """
        db = self._db
        row = db.execute(
            "SELECT f.path, g.offset, g.number, g.variant, g.result, g.plies, g.final_fen,"
            " g.errors, g.first_error FROM games g JOIN files f ON f.id = g.file_id"
            " WHERE g.id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            raise KeyError(game_id)
        tags = db.execute(
            "SELECT name, value FROM tags WHERE game_id = ? ORDER BY position", (game_id,)
        )
        file, offset, number, variant, result, plies, final_fen, errors, first_error = row
        return GameRecord(
            file=file,
            offset=offset,
            number=number,
            variant=variant,
            result=result,
            plies=plies,
            final_fen=final_fen,
            errors=errors,
            first_error=first_error,
            tags=tuple((name, value) for name, value in tags),
        )

    def read_game(self, hit: Hit | int) -> Game:
        """The game read again from its file (at its offset, with the
        variant the file was indexed with).

        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "a.pdn")
        >>> _ = open(path, "w").write("1. 32-28 *\\n\\n1. 31-27 19-23 *")
        >>> with Index() as index:
        ...     _ = index.add_file(path)
        ...     index.read_game(index.search()[1]).mainline_moves()
        [Move(31, 27), Move(19, 23)]

        :raises ValueError: if the file changed since it was indexed.
        :raises OSError: if it cannot be read.
        """
        game_id = hit if isinstance(hit, int) else hit.game_id
        row = self._db.execute(
            "SELECT f.path, f.size, f.mtime_ns, f.default_variant, g.offset, g.variant"
            " FROM games g JOIN files f ON f.id = g.file_id WHERE g.id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            raise KeyError(game_id)
        path, size, mtime_ns, default, offset, indexed_as = row
        # A game whose tags name no variant is read as it was indexed (its
        # file may have settled it); tags, if any, still name their own.
        default = default or indexed_as or None
        stat = os.stat(path)
        if (stat.st_size, stat.st_mtime_ns) != (size, mtime_ns):
            raise ValueError(f"{path} changed since it was indexed: index it again")
        if offset < 0:
            raise ValueError(f"{path}: the index does not know where game {game_id} starts")
        with open_pdn(path) as handle:
            handle.seek(offset)
            game = read_game(handle, variant=default)
        if game is None:
            raise ValueError(f"{path}: no game at byte {offset}")
        return game


def _replay(moves: str | Sequence[str | Move], variant: Variant) -> list[str]:
    """The moves played from the variant's start, as the ``moves`` column
    writes them.

    :raises ValueError: for a move that is not legal where it is played.
    """
    items: Sequence[str | Move] = moves.split() if isinstance(moves, str) else moves
    board = Board(variant=variant)
    texts = []
    for item in items:
        if isinstance(item, str):
            item = _MOVE_NUMBER.sub("", item.strip())
            if not item:
                continue
            move = board.parse_pdn(item)
        else:
            move = item
            if not board.is_legal(move):
                raise ValueError(f"illegal move {move} in {board.fen()}")
        texts.append(line_move_text(board, move))
        board.push(move)
    return texts
