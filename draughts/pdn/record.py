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

__all__ = [
    "GameRecord",
    "MainLine",
    "MainLineVisitor",
    "RecordVisitor",
    "line_move_text",
    "read_main_line",
    "read_record",
]


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
    visitor = RecordVisitor(file, offset, number)
    record: GameRecord | None = read(handle, visitor, variant, function="read_record")
    return record


@attrs.frozen
class MainLine:
    """The main line of a game as an index keeps it: where it starts, its
    legal moves as text and the position key after each of them.

    >>> import io
    >>> from draughts.pdn.record import read_main_line
    >>> _, line = read_main_line(io.StringIO("1. 11-15 23-19 *"), variant="english")
    >>> line.moves, len(line.keys)
    (('11-15', '23-19'), 3)
    >>> from draughts import Board
    >>> line.keys[0] == Board(variant="english").position_key
    True
    """

    start_fen: str
    """The position the moves start from ("" when it could not be set up)."""
    from_start: bool
    """Whether that is the variant's start position (no ``FEN`` tag or setup
    that moves the pieces)."""
    moves: tuple[str, ...]
    """Each legal move of the main line in PDN, as :func:`line_move_text`
    writes it."""
    keys: tuple[int, ...]
    """:attr:`draughts.Board.position_key` at ply 0 (the start) and after
    each move: one more than there are moves (none when the position could
    not be set up)."""


_START_FENS: dict[Variant, str] = {}


def _start_fen(variant: Variant) -> str:
    fen = _START_FENS.get(variant)
    if fen is None:
        fen = _START_FENS[variant] = Board(variant=variant).fen()
    return fen


def line_move_text(board: Board, move: Move) -> str:
    """``move`` as :attr:`MainLine.moves` writes it: in short PDN unless
    another legal move of ``board`` joins the same squares, then with its
    whole route (what :meth:`draughts.Board.pdn` does, found without listing
    every legal move).

    >>> from draughts import Board
    >>> board = Board("W:WK47:B9,12,33", variant="international")
    >>> [line_move_text(board, move) for move in board.legal_moves]
    ['47x17', '47x21', '47x26']
    >>> board = Board("W:WK3,31,38:B1,5,7,9,11,19,22,24,45", variant="international")
    >>> [line_move_text(board, move) for move in board.legal_moves]
    ['3x14x28x17x6', '3x20x33x17x6']
    """
    # Only captures can share their squares with another legal move.
    long = bool(move.captures) and len(board.moves_between(move.from_square, move.to_square)) > 1
    return board.pdn(move, long=long)


class MainLineVisitor(BaseVisitor[tuple[GameRecord, MainLine]]):
    """Makes what a :class:`RecordVisitor` makes and also keeps the main
    line's moves and position keys: its result is ``(record, main_line)``.

    >>> import io
    >>> from draughts.pdn import read_game
    >>> record, line = read_game(io.StringIO("1. 32-28 *"), Visitor=MainLineVisitor)
    >>> record.plies, line.moves
    (1, ('32-28',))
    """

    def __init__(self, file: str = "", offset: int = 0, number: int = 1) -> None:
        self._record = RecordVisitor(file, offset, number)

    def begin_game(self) -> None:
        self._record.begin_game()
        self._start_fen = ""
        self._from_start = False
        self._moves: list[str] = []
        self._keys: list[int] = []

    def visit_header(self, name: str, value: str) -> None:
        self._record.visit_header(name, value)

    def visit_board(self, board: Board) -> None:
        self._record.visit_board(board)
        # A second start position (a setup, a renumbering) comes before any move.
        self._start_fen = board.fen()
        self._from_start = self._start_fen == _start_fen(board.variant)
        self._moves = []
        self._keys = [board.position_key]

    def visit_move(self, board: Board, move: Move) -> None:
        record = self._record
        own = record._board  # the record's copy of the main line
        if record._depth == 0 and own is not None:
            self._moves.append(line_move_text(own, move))
            record.visit_move(board, move)
            self._keys.append(own.position_key)

    def begin_variation(self) -> None:
        self._record.begin_variation()

    def end_variation(self) -> None:
        self._record.end_variation()

    def visit_result(self, result: str) -> None:
        self._record.visit_result(result)

    def handle_error(self, error: PdnError) -> None:
        self._record.handle_error(error)

    def result(self) -> tuple[GameRecord, MainLine]:
        line = MainLine(self._start_fen, self._from_start, tuple(self._moves), tuple(self._keys))
        return self._record.result(), line


def read_main_line(
    handle: IO[str],
    *,
    file: str = "",
    offset: int = 0,
    number: int = 1,
    variant: Variant | str | int | None = None,
) -> tuple[GameRecord, MainLine] | None:
    """The record and main line of the next game of ``handle``, None at the
    end of the file (arguments as for :func:`read_record`).

    >>> import io
    >>> pdn = io.StringIO("1. 11-15 (1. 9-14) 23-19 2. 8-11 *")
    >>> record, line = read_main_line(pdn, variant="english")
    >>> record.plies, line.moves
    (3, ('11-15', '23-19', '8-11'))
    """
    found: tuple[GameRecord, MainLine] | None = read(
        handle, MainLineVisitor(file, offset, number), variant, function="read_main_line"
    )
    return found
