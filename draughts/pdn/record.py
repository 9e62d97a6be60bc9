"""One line per game: what a database, an index or a cluster job keeps of a
game record, made without building the game tree.

>>> import io
>>> from draughts.pdn.record import read_record
>>> text = '[White "A"]\\n[Black "B"]\\n[Result "2-0"]\\n1. 32-28 19-23 2. 28x19 2-0'
>>> record = read_record(io.StringIO(text), file="a.pdn")
>>> record.variant, record.result, record.plies, record.errors
('international', '2-0', 3, 0)
>>> record.final_fen
'B:W19,31,33-50:B1-18,20'
>>> dict(record.tags)["White"]
'A'
"""

from __future__ import annotations

from typing import IO

import attrs

from draughts.board import Board
from draughts.move import Move
from draughts.pdn.headers import BaseVisitor, PdnError
from draughts.pdn.reader import read
from draughts.variant import Variant

__all__ = ["GameRecord", "RecordVisitor", "read_record"]


@attrs.frozen
class GameRecord:
    """What is known of one game of a file, in plain values (it pickles,
    and converts to a row or a JSON object with :func:`attrs.asdict`)."""

    file: str
    """The file the game was read from (as given)."""
    offset: int
    """Where the game starts in the file (see :func:`draughts.pdn.scan_offsets`)."""
    number: int
    """The game's place in the file, from 1."""
    variant: str
    """The name of the variant the moves were checked under."""
    result: str | None
    """The game terminator as written (``"2-0"``, ``"*"``), None if missing."""
    plies: int
    """How many moves of the main line were legal and played."""
    final_fen: str
    """The position after the last legal move of the main line."""
    errors: int
    """How many errors the game has."""
    first_error: str | None
    """The first error as ``line:column: message``, None without errors."""
    tags: tuple[tuple[str, str], ...]
    """The tag pairs in the order written."""


class RecordVisitor(BaseVisitor[GameRecord]):
    """Builds a :class:`GameRecord` while the reader checks the moves; the
    main line is followed on a board of its own, side lines only counted."""

    def __init__(self, file: str = "", offset: int = 0, number: int = 1) -> None:
        self._file, self._offset, self._number = file, offset, number

    def begin_game(self) -> None:
        self._tags: list[tuple[str, str]] = []
        self._board: Board | None = None
        self._variant: Variant | None = None
        self._depth = 0
        self._plies = 0
        self._result: str | None = None
        self._errors: list[PdnError] = []

    def visit_header(self, name: str, value: str) -> None:
        self._tags.append((name, value))

    def visit_board(self, board: Board) -> None:
        self._board = board.copy(stack=False)
        self._variant = board.variant

    def visit_move(self, board: Board, move: Move) -> None:
        if self._depth == 0 and self._board is not None:
            self._board.push(move)
            self._plies += 1

    def begin_variation(self) -> None:
        self._depth += 1

    def end_variation(self) -> None:
        self._depth -= 1

    def visit_result(self, result: str) -> None:
        self._result = result

    def handle_error(self, error: PdnError) -> None:
        self._errors.append(error)

    def result(self) -> GameRecord:
        board = self._board
        return GameRecord(
            file=self._file,
            offset=self._offset,
            number=self._number,
            variant=board.variant.name if board is not None else "",
            result=self._result,
            plies=self._plies,
            final_fen=board.fen() if board is not None else "",
            errors=len(self._errors),
            first_error=str(self._errors[0]) if self._errors else None,
            tags=tuple(self._tags),
        )


def read_record(
    handle: IO[str],
    *,
    file: str = "",
    offset: int = 0,
    number: int = 1,
    variant: Variant | str | int | None = None,
) -> GameRecord | None:
    """The record of the next game of ``handle``, None at the end of the file
    (``variant`` as for :func:`draughts.pdn.read_game`; ``file``, ``offset``
    and ``number`` are copied into the record)."""
    record: GameRecord | None = read(handle, RecordVisitor(file, offset, number), variant)
    return record
