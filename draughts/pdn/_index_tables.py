"""The tables of the PDN index (:mod:`draughts.pdn.index`): the SQLite
schema, and the rows of a game as the ``games`` table stores them.

The layout is described, column by column, in :mod:`draughts.pdn.index`;
a change to it must raise :data:`draughts.pdn.index.SCHEMA_VERSION`.
"""

from __future__ import annotations

from typing import Any

from draughts.pdn.record import GameRecord, MainLine

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS files (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    encoding TEXT NOT NULL,
    default_variant TEXT,
    positions INTEGER NOT NULL,
    games INTEGER NOT NULL,
    indexed_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id),
    number INTEGER NOT NULL,
    offset INTEGER NOT NULL,
    variant TEXT NOT NULL,
    result TEXT,
    plies INTEGER NOT NULL,
    start_fen TEXT,
    final_fen TEXT NOT NULL,
    moves TEXT NOT NULL,
    errors INTEGER NOT NULL,
    first_error TEXT,
    white TEXT,
    black TEXT,
    event TEXT,
    date TEXT,
    site TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS games_by_file ON games(file_id, number);
CREATE INDEX IF NOT EXISTS games_by_moves ON games(variant, moves);
CREATE TABLE IF NOT EXISTS tags (
    game_id INTEGER NOT NULL REFERENCES games(id),
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (game_id, position)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tags_by_value ON tags(name, value);
CREATE TABLE IF NOT EXISTS positions (
    key INTEGER NOT NULL,
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    PRIMARY KEY (key, game_id, ply)
) WITHOUT ROWID;
"""
"""The tables and their indexes, every statement ``IF NOT EXISTS``: the
script can run on a database that has them already."""

# The tags that also have a column of their own in ``games``.
TAG_COLUMNS = {"White": 0, "Black": 1, "Event": 2, "Date": 3, "Site": 4}


def game_row(game_id: int, file_id: int, record: GameRecord, line: MainLine) -> tuple[Any, ...]:
    """The ``games`` row of a game: its columns in the table's order."""
    columns: list[str | None] = [None] * len(TAG_COLUMNS)
    for name, value in record.tags:
        slot = TAG_COLUMNS.get(name)
        if slot is not None and columns[slot] is None:
            columns[slot] = value
    return (
        game_id,
        file_id,
        record.number,
        record.offset,
        record.variant,
        record.result,
        record.plies,
        None if line.from_start else line.start_fen or None,
        record.final_fen,
        " ".join(line.moves),
        record.errors,
        record.first_error,
        *columns,
    )
