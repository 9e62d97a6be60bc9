"""The games of a PDN file as the index (:mod:`draughts.pdn.index`) keeps
them: each game's start, its :class:`~draughts.pdn.record.GameRecord`, its
:class:`~draughts.pdn.record.MainLine` and the inference's choice (what
settles its variant, :mod:`draughts.pdn._index_settle`).

A plain record with no error is read in one call into the native core
(:func:`draughts.pdn._fastgame.fast_record`, which also gives the main
line's moves and position keys); the reader reads the others, as it reads
every game on the pure core.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO

from draughts.pdn._chunking import chunk_starts, open_chunk
from draughts.pdn._fastgame import FastRecord, each_game, fast_record, game_record
from draughts.pdn._index_settle import SettlingVisitor
from draughts.pdn.infer import Choice
from draughts.pdn.offsets import GameStart
from draughts.pdn.reader import read
from draughts.pdn.record import GameRecord, MainLine, _start_fen
from draughts.pdn.settling import pieces_of, variant_name
from draughts.variant import Variant, find_variant

IndexedGame = tuple[GameStart, GameRecord, MainLine, Choice | None]
"""A game of a file as the index reads it."""


def file_games(path: str, variant: Variant | str | int | None) -> Iterator[IndexedGame]:
    """Each game of the file ``path`` in order, read as its tags name it,
    else as ``variant``, else as its evidence chooses."""
    default = variant_name(variant)

    def fast(text: str, _: int) -> FastRecord | None:
        return fast_record(text, default, line=True)

    for piece, data in pieces_of(path, None):
        starts = list(chunk_starts(piece, data))

        def slow(
            handle: IO[str], place: int, starts: list[GameStart] = starts
        ) -> tuple[GameRecord, MainLine, Choice | None] | None:
            start = starts[place]
            visitor = SettlingVisitor(path, start.offset, start.number)
            found: tuple[GameRecord, MainLine] | None = read(handle, visitor, variant)
            return None if found is None else (*found, visitor.choice)

        with open_chunk(piece, data) as handle:
            for start, quick, read_slowly in each_game(
                handle, starts, data, piece.encoding, fast, slow
            ):
                if quick is not None:
                    yield (start, *_from_fast(path, start, quick))
                else:
                    assert read_slowly is not None
                    yield (start, *read_slowly)


def _from_fast(
    path: str, start: GameStart, found: FastRecord
) -> tuple[GameRecord, MainLine, Choice | None]:
    record = game_record(path, start, found)
    name, line, choice = record.variant, found[5], found[6]
    assert line is not None  # asked for
    moves, keys = line
    start_fen = _START_FENS.get(name)
    if start_fen is None:
        start_fen = _START_FENS[name] = _start_fen(find_variant(name))
    return record, MainLine(start_fen, True, moves, keys), choice


_START_FENS: dict[str, str] = {}  # by the name of a variant the fast check read
