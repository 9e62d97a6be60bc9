"""Move texts to legal moves, for the PDN reader: the short form fast, every
other form through :meth:`Board.parse_pdn`; and what the reader keeps per
variant (its resolver, its start board, the squares of its first moves).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from draughts.board import Board
from draughts.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from draughts.move import Move
from draughts.pdn import _native, lexer
from draughts.pdn.lexer import PLAIN_MOVE, TOKEN
from draughts.variant import VARIANTS, Variant, gametype_preset

Visit = Callable[[Board, Move], object] | list[Move]
"""What a plain line's moves are given to (see :meth:`Resolver.play_line`): a
function called as ``visit(board, move)`` before each push, or a list the
moves are appended to."""

# Not "x" or "X": "28x17" is 28 and 17. Upper-case names too ("E3-D4", as
# some Russian files write them): read as numbers, "E3" was square 3.
_SQUARE = re.compile(r"[a-wyzA-WYZ][0-9]{1,2}|[0-9]+")


class Resolver:
    """Finds the legal move a move text names, fast for the common short
    form and through :meth:`Board.parse_pdn` for everything else."""

    def __init__(self, variant: Variant) -> None:
        self.number = {variant.square_name(n): n for n in variant.squares}
        self.algebraic = variant.notation == "algebraic"
        self.variant = variant
        # Captures written with "-" are right where "-" is the separator (Thai).
        self.dash_captures = variant.capture_separator == "-"
        # A move of a plain line ("32-28", "1- 7") -> what word() says of it.
        self.words: dict[str, tuple[int, int, bool]] = {}
        # The square each number 0-99 of a plain move names, None for none
        # (what the native core's line loop reads instead of words).
        self.numbers = tuple(self.number.get(str(n)) for n in range(100))
        # What may_start() answered for each first move seen: a file repeats
        # a few openings, and parsing the squares of each for every variant
        # tried was a fifth of inferring the variants of an untagged
        # algebraic file (abatsiev.pdn, 198 Russian games).
        self.starts: dict[str, bool] = {}

    def quick(self, board: Board, match: re.Match[str]) -> Move | None:
        """The move a two-square token like ``32-28`` or ``19x28`` names, if
        exactly one legal move joins the squares; else None (see :meth:`resolve`).

        Only that move is looked up: the board's own legal move list (a Move
        for each) would cost more than the rest of the reading."""
        first, second, more = match.group("a", "b", "more")
        if more is not None:
            return None
        origin = self.number.get(first)
        destination = self.number.get(second)
        if origin is None or destination is None:
            return None
        found = board.moves_between(origin, destination)
        if len(found) != 1:
            return None
        return found[0]

    def word(self, text: str) -> tuple[int, int, bool] | None:
        """A move of a plain line (see :data:`draughts.pdn.lexer.PLAIN_LINE`): its squares, and
        whether it is written as a capture; None if the board has no such
        square."""
        capture = "x" in text
        first, second = text.split("x" if capture else "-")
        origin, destination = self.number.get(first.strip()), self.number.get(second.strip())
        if origin is None or destination is None:
            return None
        found = self.words[text] = (origin, destination, capture)
        return found

    def _play_line_python(self, board: Board, text: str, end: int, visit: Visit) -> tuple[int, int]:
        """Play the moves of a plain line (see :data:`draughts.pdn.lexer.PLAIN_LINE`),
        ``text[:end]`` being the line before its result, while each is the
        only legal move between its squares and is written with the right
        separator, calling ``visit(board, move)`` before each push (or, when
        ``visit`` is a list, appending the move to it). Returns how many
        were played and where the first move not played starts (``end`` if
        none)."""
        # Bound to locals, and Board._unique_move_python written out: the
        # pure backend's replay spends most of its time here.
        words = PLAIN_MOVE.findall(text, 0, end)
        squares, resolve = self.words, self.word
        matching = board.moves_between
        push = board.push
        keep = visit.append if type(visit) is list else None
        played = 0
        for word in words:
            found = squares.get(word) or resolve(word)
            if found is None:
                break
            origin, destination, capture = found
            between = matching(origin, destination)
            if len(between) != 1 or bool(between[0].captures) != capture:
                break
            move = between[0]
            if keep is None:
                visit(board, move)  # type: ignore[operator]
            else:
                keep(move)
            push(move)
            played += 1
        if played == len(words):
            return played, end
        return played, [m.start() for m in PLAIN_MOVE.finditer(text, 0, end)][played]

    def _play_line_native(self, board: Board, text: str, end: int, visit: Visit) -> tuple[int, int]:
        """:meth:`_play_line_python` in C, scanning the line as it goes (see
        ``draughts/pdn/_native/play_line.c``)."""
        assert _native.play_line is not None
        return _native.play_line(board, text, end, self.numbers, visit)

    # The native core runs the whole loop in C: reading the International
    # corpus with a visitor that only counts, its moves cost a seventh of the
    # pure loop's (57 against 398 us a game, the tags left out).
    play_line = _play_line_python if _native.play_line is None else _play_line_native

    def _play_lines_python(
        self,
        board: Board,
        text: str,
        end: int,
        visit: Visit,
        readline: Callable[[], str],
    ) -> tuple[int, str, int, int]:
        """:meth:`play_line` on ``text``, then on the plain lines
        ``readline()`` gives while each line before was played to its end
        (a blank line is passed over; the end of the file, or a line that is
        not plain, stops it). Returns the moves played, the last line read
        (``text`` if none), where reading goes on in it (0 for a line not
        plain, its length for one played to its end) and how many lines
        were read: the reader hands the tokenizer that line from there."""
        played, stop = self._play_line_python(board, text, end, visit)
        line, lines = text, 0
        while stop == len(line):  # played to its end, with no result
            following = readline()
            if not following:  # the end of the file: the tokenizer finds it again
                return played, line, stop, lines
            line = following
            lines += 1
            if line.isspace():
                stop = len(line)
                continue
            end = lexer.plain_line_end(line)
            if end < 0:
                return played, line, 0, lines
            count, stop = self._play_line_python(board, line, end, visit)
            played += count
        return played, line, stop, lines

    def _play_lines_native(
        self,
        board: Board,
        text: str,
        end: int,
        visit: Visit,
        readline: Callable[[], str],
    ) -> tuple[int, str, int, int]:
        """:meth:`_play_lines_python` in C (``draughts/pdn/_native/play_line.c``)."""
        assert _native.play_lines is not None
        return _native.play_lines(board, text, end, self.numbers, visit, readline)

    # A game's plain lines in one call (see play_line.c for the measure).
    play_lines = _play_lines_python if _native.play_lines is None else _play_lines_native

    def resolve(self, board: Board, text: str) -> Move:
        """The legal move ``text`` names, in any form the reader knows.

        :raises ValueError: (an :class:`InvalidMoveError`,
            :class:`IllegalMoveError` or :class:`AmbiguousMoveError`).
        """
        if self.algebraic and len(text) == 3 and text[1].isalpha():
            return self._file_and_square(board, text)
        match = TOKEN.fullmatch(text)
        if match is not None and match.group("a") is not None:
            move = self.quick(board, match)
            if move is not None:
                return move
        return board.parse_pdn(text)

    def begins_capture(self, board: Board, text: str) -> bool:
        """Whether ``text`` names the start of a legal capture that goes on
        (the first part of ``4x31 31x42``)."""
        squares = [self._square(token) for token in _SQUARE.findall(text)]
        if len(squares) < 2 or None in squares:
            return False
        return any(
            move.from_square == squares[0] and squares[-1] in move.path[1:-1]
            for move in board.legal_moves
            if move.captures
        )

    def _square(self, token: str) -> int | None:
        """The square a token names, in any notation the board accepts."""
        square = self.number.get(token)
        if square is None:
            try:
                square = self.variant.parse_square(token)
            except ValueError:
                return None
        return square

    def join(self, first: str, second: str) -> str | None:
        """``first`` and ``second`` as one capture, if ``second`` starts where
        ``first`` ends: ``"4x31"`` and ``"31x42"`` give ``"4x31x42"``."""
        head, tail = _SQUARE.findall(first), _SQUARE.findall(second)
        if len(tail) < 2 or head[-1].lower() != tail[0].lower():
            return None
        return "x".join(head + tail[1:])

    def _file_and_square(self, board: Board, text: str) -> Move:
        """Old Russian short notation: the origin's file and the destination
        (``ed4``: the piece on the e-file that can go to d4)."""
        destination = self.number.get(text[1:])
        if destination is None:
            raise InvalidMoveError(f"no square {text[1:]!r} on the board: {text!r}")
        variant = board.variant
        found = [
            m
            for m in board.legal_moves
            if m.to_square == destination and variant.square_name(m.from_square)[0] == text[0]
        ]
        if len(found) == 1:
            return found[0]
        if not found:
            raise IllegalMoveError(f"illegal move {text!r} in {board.fen()}")
        listed = ", ".join(board.pdn(m, long=True) for m in found)
        raise AmbiguousMoveError(
            f"ambiguous move {text!r} in {board.fen()}: it could be {listed}", tuple(found)
        )


# What the reader keeps per variant: for the presets for good, for other
# variants only for the few read last, like the board's own contexts (a start
# board holds its variant's tables: kept for every custom variant a program
# reads with, they would add up to megabytes).
_PRESETS = frozenset(VARIANTS)
_RECENT = 16
_RESOLVERS: dict[Variant, Resolver] = {}


def resolver_for(variant: Variant) -> Resolver:
    resolver = _RESOLVERS.get(variant)
    if resolver is None:
        if variant not in _PRESETS:
            return _recent_resolver(variant)
        resolver = _RESOLVERS[variant] = Resolver(variant)
    return resolver


@functools.lru_cache(maxsize=_RECENT)
def _recent_resolver(variant: Variant) -> Resolver:
    return Resolver(variant)


NO_BOARD = Board()
_STARTS: dict[Variant, Board] = {}


def start_board(variant: Variant) -> Board:
    """A new board at the variant's start. Copying one kept for the purpose
    costs a twentieth of ``Board(variant=...)``, which parses the FEN and
    computes the position key."""
    start = _STARTS.get(variant)
    if start is None:
        if variant not in _PRESETS:
            return _recent_start(variant).copy()
        start = _STARTS[variant] = Board(variant=variant)
    return start.copy()


@functools.lru_cache(maxsize=_RECENT)
def _recent_start(variant: Variant) -> Board:
    return Board(variant=variant)


NO_RESOLVER = Resolver(NO_BOARD.variant)


def may_start(variant: Variant, first: str) -> bool:
    """Whether a legal move at the variant's start joins the first and last
    squares of ``first`` (True when they are not squares of its board: the
    reader may still read the move). Most variants tried for a game fail
    at its first move: seen without setting up a reader, and without the
    legal moves an error message lists."""
    resolver = resolver_for(variant)
    known = resolver.starts.get(first)
    if known is None:
        known = _may_start(resolver, first)
        if len(resolver.starts) < 1024:
            resolver.starts[first] = known
    return known


def _may_start(resolver: Resolver, first: str) -> bool:
    variant = resolver.variant
    squares = [resolver._square(token) for token in _SQUARE.findall(first)]
    if len(squares) < 2 or None in squares:
        return True
    starts = _FIRST_MOVES.get(variant)
    if starts is None:
        moves = start_board(variant).legal_moves
        starts = _FIRST_MOVES[variant] = frozenset((m.from_square, m.to_square) for m in moves)
    return (squares[0], squares[-1]) in starts


_FIRST_MOVES: dict[Variant, frozenset[tuple[int, int]]] = {}
"""The squares each legal first move of a preset joins (see :func:`may_start`)."""


def preset_numbering(variant: Variant, gametype: str | None) -> Variant | None:
    """The preset of the GameType number (of the variant's ``Variant`` tag,
    if it has one) when a full GameType gave ``variant`` another numbering,
    else None."""
    if not gametype or "," not in gametype:
        return None
    preset = gametype_preset(gametype, variant.variant_tag) or gametype_preset(gametype)
    if preset is None or preset.gametype_string == variant.gametype_string:
        return None  # the same numbering (a custom variant, or the preset itself)
    if (preset.width, preset.height) != (variant.width, variant.height):
        return None
    return preset


def renumbered(
    fen: tuple[str, int, int] | None, preset: Variant, text: str
) -> tuple[Board, Move] | None:
    """The board and first move under the preset's numbering, if it takes the move."""
    try:
        board = Board(fen[0] if fen and fen[0].strip() else None, variant=preset)
        return board, resolver_for(preset).resolve(board, text)
    except ValueError:
        return None
