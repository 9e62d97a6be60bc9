"""The opening explorer: what was played from a position in the games of
an index that ``draughts index --positions`` made (:mod:`draughts.pdn.index`).

For the position on the board it finds, through the ``positions`` table,
every game that had it on its main line (by any move order), reads the move
each game played next from its ``moves`` column, and counts them with the
games' results. Only reads: the database is opened read-only, one
connection per question (SQLite connections belong to the thread that made
them, and the questions run in worker threads).

>>> import os, tempfile
>>> from draughts.pdn.index import Index
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "games.pdn")
>>> _ = open(path, "w").write('[White "A"]\\n[Black "B"]\\n1. 11-15 23-19 1-0\\n\\n'
...                           '[White "C"]\\n[Black "D"]\\n1. 11-15 22-17 0-1\\n')
>>> db = os.path.join(folder, "games.sqlite")
>>> with Index(db) as index:
...     _ = index.add_file(path, variant="english", positions=True)
>>> explorer = Explorer(db)
>>> answer = explorer.explore(draughts.Board(variant="english"))
>>> answer["moves"]
[{'pdn': '11-15', 'games': 2, 'white_wins': 1, 'draws': 0, 'black_wins': 1}]
>>> [(game["white"], game["result"]) for game in answer["games"]]
[('A', '1-0'), ('C', '0-1')]
>>> print(explorer.game_pdn(answer["games"][0]["id"]).splitlines()[-1])
1. 11-15 23-19 1-0
"""

from __future__ import annotations

import os
import sqlite3
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import draughts
from draughts.pdn.headers import set_variant_tags
from draughts.pdn.index import SCHEMA_VERSION, Index, signed_key
from draughts.pdn.writer import result_points
from draughts.web.positions import BadRequest

__all__ = ["DEFAULT_SECONDS", "MAX_GAMES_LISTED", "Explorer"]

MAX_GAMES_LISTED = 50
"""The most games an explorer answer lists (the moves count them all)."""

DEFAULT_SECONDS = 10.0
"""The most time one question may take. On 23,345 games of English
draughts the start position, which every game has, takes 0.35 s (measured
on a loaded machine): the bound is for databases a hundred times bigger."""

_MEANING = {(1.0, 0.0): "white_wins", (0.5, 0.5): "draws", (0.0, 1.0): "black_wins"}


class Explorer:
    """Questions to the index at ``path``, checked when made: it must be a
    PDN index of this version with at least one file's positions indexed.
    A question that takes more than ``seconds`` is given up (503).

    :raises ValueError: naming ``path`` and what is wrong with it.
    """

    def __init__(self, path: str | os.PathLike[str], *, seconds: float = DEFAULT_SECONDS) -> None:
        self.path = os.path.abspath(os.fspath(path))
        self.seconds = seconds
        if not os.path.isfile(self.path):
            what = "not a file" if os.path.exists(self.path) else "no such file"
            raise ValueError(
                f"{self.path}: {what} (make an index with "
                "draughts index --positions --db FILE GAMES.pdn)"
            )
        try:
            with self._connect() as db:
                row = db.execute("SELECT value FROM meta WHERE name = 'schema'").fetchone()
                with_positions = db.execute(
                    "SELECT 1 FROM files WHERE positions = 1 LIMIT 1"
                ).fetchone()
        except BadRequest as error:  # not SQLite, or not the index's tables
            raise ValueError(f"{self.path} is not an index of PDN games ({error})") from None
        if row is None or row[0] != str(SCHEMA_VERSION):
            raise ValueError(
                f"{self.path}: index schema {None if row is None else row[0]}, "
                f"this version reads {SCHEMA_VERSION}"
            )
        if with_positions is None:
            raise ValueError(
                f"{self.path} has no positions: index the files again with "
                "draughts index --positions"
            )

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        uri = "file:" + urllib.parse.quote(self.path) + "?mode=ro"
        try:
            db = sqlite3.connect(uri, uri=True, timeout=10)
        except sqlite3.Error as error:
            raise BadRequest(f"the index cannot be opened: {error}", status=503) from None
        deadline = time.monotonic() + self.seconds
        # Called every 1,000 steps of SQLite's machine: true interrupts.
        db.set_progress_handler(lambda: time.monotonic() > deadline, 1000)
        try:
            yield db
        except sqlite3.Error as error:
            if time.monotonic() > deadline:
                raise BadRequest(
                    f"the games database took more than {self.seconds:g} s over this "
                    "position: try one further into the game",
                    status=503,
                ) from None
            # Removed or rewritten while served.
            raise BadRequest(f"the index cannot be read: {error}", status=503) from None
        finally:
            db.close()

    def explore(self, board: draughts.Board) -> dict[str, Any]:
        """The answer to ``POST /api/explorer`` for ``board``: the moves the
        indexed games played from its position, most played first, with
        their games and results; and the first :data:`MAX_GAMES_LISTED`
        games that had the position, in the index's order."""
        counts: dict[str, dict[str, Any]] = {}
        games: list[dict[str, Any]] = []
        texts: dict[str, str] = {}  # the column's move text -> the board's
        with self._connect() as db:
            rows = db.execute(
                "SELECT g.id, g.moves, p.ply, g.white, g.black, g.event, g.date,"
                " COALESCE(g.result, (SELECT value FROM tags t WHERE t.game_id = g.id"
                " AND t.name = 'Result' LIMIT 1))"
                " FROM (SELECT game_id, MIN(ply) AS ply FROM positions WHERE key = ?"
                " GROUP BY game_id) p JOIN games g ON g.id = p.game_id"
                " WHERE g.variant = ? ORDER BY g.id",
                (signed_key(board.position_key), board.variant.name),
            )
            for game_id, moves, ply, white, black, event, date, result in rows:
                points = result_points(result or "*", board.variant)
                meaning = None if points is None else _MEANING.get(points)
                if len(games) < MAX_GAMES_LISTED:
                    games.append(
                        {
                            "id": game_id,
                            "white": white,
                            "black": black,
                            "event": event,
                            "date": date,
                            "result": result,
                        }
                    )
                # The move after ``ply`` moves: split no further than needed.
                parts = moves.split(" ", ply + 1) if moves else []
                if len(parts) <= ply:
                    continue  # the game ended in this position
                pdn = texts.get(parts[ply])
                if pdn is None:
                    pdn = texts[parts[ply]] = _board_text(board, parts[ply])
                entry = counts.setdefault(
                    pdn, {"pdn": pdn, "games": 0, "white_wins": 0, "draws": 0, "black_wins": 0}
                )
                entry["games"] += 1
                if meaning is not None:
                    entry[meaning] += 1
        ranked = sorted(counts.values(), key=lambda entry: -entry["games"])
        return {"moves": ranked, "games": games}

    def game_pdn(self, game_id: int) -> str:
        """The PDN of game ``game_id``, read again from its file, with the
        tags that name its variant.

        :raises BadRequest: (404) for a game the index does not have, (409)
            for a file changed or gone since it was indexed.
        """
        with self._connect() as db:
            known = db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone()
        if known is None:
            raise BadRequest(f"no game {game_id} in the index", status=404)
        try:
            # Index opens read-write, but on an existing index writes nothing.
            with Index(self.path) as index:
                game = index.read_game(game_id)
        except KeyError:  # removed since the question above
            raise BadRequest(f"no game {game_id} in the index", status=404) from None
        except (OSError, ValueError, sqlite3.Error) as error:
            raise BadRequest(f"game {game_id} cannot be read: {error}", status=409) from None
        if "GameType" not in game.headers:
            set_variant_tags(game.headers, game.variant)
        return str(game).rstrip("\n") + "\n"


def _board_text(board: draughts.Board, text: str) -> str:
    """A move of the ``moves`` column as the board writes it (the column
    writes every move as its position asks, but in the index's notation)."""
    try:
        return board.pdn(board.parse_pdn(text))
    except ValueError:
        return text
