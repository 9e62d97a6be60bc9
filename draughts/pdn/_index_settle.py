"""The variants of an indexed file's games settled by the file, as
:func:`draughts.pdn.validate` settles them (:mod:`draughts.pdn.settling`):
each game is indexed as its tags or its evidence say while the file is read
once, and the few games whose variant the file changes are read again and
their rows replaced before the file's transaction ends.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

from draughts.pdn._index_tables import game_row
from draughts.pdn.infer import Choice
from draughts.pdn.offsets import GameStart, seek_game
from draughts.pdn.reader import read
from draughts.pdn.record import GameRecord, MainLine, MainLineVisitor
from draughts.pdn.settling import Decided, Seen, named_by_tags, seen_of


class SettlingVisitor(MainLineVisitor):
    """A :class:`~draughts.pdn.record.MainLineVisitor` that also keeps the
    inference's choice for a game whose tags name no variant."""

    def begin_game(self) -> None:
        super().begin_game()
        self.choice: Choice | None = None

    def visit_choice(self, choice: Choice) -> None:
        self.choice = choice


class FileGames:
    """The games of a file being indexed, as far as settling goes: the
    decided ones counted, the open ones kept (their row, start and what
    decides them) until the file is read."""

    def __init__(self) -> None:
        self.decided = Decided()
        self.open: list[tuple[int, GameStart, Seen, str]] = []

    def add(
        self, game_id: int, start: GameStart, record: GameRecord, choice: Choice | None
    ) -> None:
        tags: dict[str, str] = {}
        for name, value in record.tags:
            if name in ("Event", "GameType", "Variant"):
                tags.setdefault(name, value)
        event = tags.pop("Event", None)
        named = named_by_tags(tags)
        seen = seen_of(event, named, choice)
        self.decided.add(seen)
        if seen.open:
            self.open.append((game_id, start, seen, record.variant))

    def changes(self) -> Iterator[tuple[int, GameStart, str, str]]:
        """The open games whose file settles them as another variant: their
        row, start, the variant they were read as and the one to read them as."""
        for game_id, start, seen, own in self.open:
            verdict = self.decided.verdict(seen, None)
            if verdict.variant is not None and verdict.variant != own:
                yield game_id, start, own, verdict.variant


def read_again(path: str, start: GameStart, variant: str) -> tuple[GameRecord, MainLine]:
    """A game read again as ``variant``, at its start."""
    from draughts.pdn import open_pdn  # the package imports the index

    with open_pdn(path) as handle:
        seek_game(handle, start)
        found: tuple[GameRecord, MainLine] | None = read(
            handle, MainLineVisitor(path, start.offset, start.number), variant, False
        )
    assert found is not None, "the game was read before"
    return found


def _signed(key: int) -> int:
    """A position key as the positions table stores it (see
    :func:`draughts.pdn.index.signed_key`)."""
    return key - (1 << 64) if key >= 1 << 63 else key


def replace_settled(
    db: sqlite3.Connection, path: str, file_id: int, games: FileGames, positions: bool
) -> tuple[int, int]:
    """Replace the rows of the games the file settles as another variant
    than their own evidence chose (inside the file's transaction); the
    change in games with errors and in position rows."""
    bad = keys = 0
    for game_id, start, own, settled in games.changes():
        record, line = read_again(path, start, settled)
        before, old_line = read_again(path, start, own)
        bad += (record.errors > 0) - (before.errors > 0)
        db.execute("DELETE FROM games WHERE id = ?", (game_id,))
        row = game_row(game_id, file_id, record, line)
        db.execute(f"INSERT INTO games VALUES ({', '.join('?' * len(row))})", row)
        if positions:
            # By primary key: the table is sorted by key, not by game.
            db.executemany(
                "DELETE FROM positions WHERE key = ? AND game_id = ? AND ply = ?",
                [(_signed(k), game_id, ply) for ply, k in enumerate(old_line.keys)],
            )
            db.executemany(
                "INSERT INTO positions VALUES (?, ?, ?)",
                [(_signed(k), game_id, ply) for ply, k in enumerate(line.keys)],
            )
            keys += len(line.keys) - len(old_line.keys)
    return bad, keys
