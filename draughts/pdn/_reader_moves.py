"""The movetext of a game, for the PDN reader (see :mod:`draughts.pdn._reader_state`):
plain lines, moves, move numbers, NAGs, variations and setups."""

from __future__ import annotations

import re
from typing import Any

from draughts.errors import AmbiguousMoveError
from draughts.move import Move
from draughts.pdn._reader_state import ReaderState
from draughts.pdn.headers import SKIP, BaseVisitor
from draughts.pdn.infer import board_of_fen
from draughts.pdn.pending import Guess, Split, Unparsed, short_message
from draughts.pdn.resolver import renumbered, resolver_for

_NAG_OF_STRENGTH = {
    "!": 1,
    "?": 2,
    "!!": 3,
    "??": 4,
    "!?": 5,
    "?!": 6,
    "*": 7,
    "(!)": 1,
    "(?)": 2,
    "(!!)": 3,
    "(??)": 4,
    "(!?)": 5,
    "(?!)": 6,
}
_SETUP_FEN = re.compile(r'^\s*(?:FEN\s*"([^"]*)"|([^"]*))\s*$')


def _strength(visitor: BaseVisitor[Any], strength: str) -> None:
    """A move strength as its NAG; one with no NAG (``!!?``) as a comment."""
    nag = _NAG_OF_STRENGTH.get(strength)
    if nag is None:
        visitor.visit_comment(strength)
    else:
        visitor.visit_nag(nag)


_NAG_DIGITS = 9  # the longest NAG read as a number (PDN's are below 256)


class MovetextReading(ReaderState):
    """The reader's part that reads the movetext and plays its moves."""

    __slots__ = ()

    def plain_line(self, plain: tuple[str, int], line: int) -> None:
        """A plain line (see PLAIN_LINE), as ``(text, where its result
        starts)``: its move numbers change nothing while moves are being
        replayed, so only the moves are looked at. Anything out of the
        ordinary (another state, a move that is not the only legal one
        between its squares or is written with the wrong separator) sends
        the line, from that move on, back to the tokenizer and the token
        methods, which report it. So does the result, which ends the game.

        The plain lines that follow, if this one is played to its end, are
        read and played in the same call (see :meth:`Resolver.play_lines`):
        the first line it does not take goes back to the tokenizer."""
        text, end = plain
        if self.in_headers:  # as the first number or move would
            self.found = True
            self.start_moves(line, len(text) - len(text.lstrip()) + 1)
            self.plain = not (self.skip_all or self.bad)
        if not self.plain or self.split is not None or self.guess is not None:
            self.cursor.push_back(text, 0)
            return
        # The hot loop, in C on the native backend (see Resolver.play_lines).
        cursor, board = self.cursor, self.board
        readline = cursor.readline
        assert readline is not None, "a plain line comes from the cursor's tokens()"
        player = self.line_player
        if player is None:
            visit = self.visitor.visit_move
            played, last, stop, lines = self.resolver.play_lines(board, text, end, visit, readline)
        else:  # the visitor plays the lines (a LineVisitor: GameBuilder)
            played, last, stop, lines = player(self.resolver, board, text, end, readline)
        self.moves_here[-1] += played
        if lines or stop < len(text):  # the tokenizer goes on from there
            cursor.line_number += lines
            cursor.push_back(last, stop)

    # -- Headers and what may come between moves --------------------------------

    def movetext(self, kind: str, match: re.Match[str], line: int, column: int) -> bool:
        """A movetext token other than a move number or a comment (a move
        when the reader is not :attr:`plain`); True when it ends the game."""
        self.found = True
        if self.in_headers:
            self.start_moves(line, column)
        if kind == "open":
            self.nesting += 1
        elif kind == "close":
            self.nesting -= 1
        if (kind == "result" or kind == "star") and self.nesting <= 0:
            self.result = match.group(0)
            self.cursor.push_back(match.string, match.end())
            return True
        if self.skip_all or self.swallowed(kind, match, line):
            return False
        self.plain = True
        if kind == "move":
            self.play(match, line, column)
        elif kind == "nag":
            digits = match.group("nag")
            if len(digits) > _NAG_DIGITS:  # int() refuses 4,300 digits; no tree wants 10
                self.report(
                    line,
                    column,
                    f"NAG ${digits[:12]}... out of range (at most {_NAG_DIGITS} digits)",
                    "syntax",
                    match.group(0),
                )
            elif self.moves_here[-1]:
                self.visitor.visit_nag(int(digits))
            else:
                self.report(
                    line,
                    column,
                    f"{match.group(0)} before any move of its line",
                    "syntax",
                    match.group(0),
                )
        elif kind == "strength2":
            if self.moves_here[-1]:
                _strength(self.visitor, match.group(0))
            else:
                self.report(
                    line,
                    column,
                    f"move strength {match.group(0)!r} without a move",
                    "syntax",
                    match.group(0),
                )
        elif kind == "open":
            self.open_variation(match, line, column)
        elif kind == "close":
            self.close_variation(line, column)
        elif kind == "setup":
            self.setup(match, line, column)
        elif kind == "result" or kind == "star":
            pass  # a result inside a variation ends that line only
        elif match.group(0) in ("-", "--"):
            # "41. - -": the record does not know the moves; keep the rest as text.
            self.reject(
                Unparsed(
                    line,
                    column,
                    "a move the record does not give ('-')",
                    "syntax",
                    self.board.fen(),
                    len(self.frames),
                ),
                match.group(0),
                line,
                match,
            )
        else:
            self.junk(match, line, column)
        return False

    def open_variation(self, match: re.Match[str], line: int, column: int) -> None:
        if not self.moves_here[-1]:
            # Kept as text, parentheses and all, to where it closes.
            bad = Unparsed(line, column, "a variation must follow a move", "syntax", None, 0)
            bad.closes = True
            self.reject(bad, "(", line, match)
        elif self.visitor.begin_variation() is SKIP:
            self.skipped = 1
            self.plain = False
        else:
            main = self.board.pop()
            self.frames.append((self.board.ply(), main))
            self.moves_here.append(0)

    def close_variation(self, line: int, column: int) -> None:
        if not self.frames:
            self.report(line, column, "')' without a variation to close", "syntax", ")")
            return
        ply, main = self.frames.pop()
        self.moves_here.pop()
        board = self.board
        while board.ply() > ply:
            board.pop()
        board.push(main)
        self.visitor.end_variation()

    def setup(self, match: re.Match[str], line: int, column: int) -> None:
        """A setup (``/FEN "..."/``) before the first move: a new start position."""
        fen_match = _SETUP_FEN.match(match.group("setup"))
        fen = (fen_match.group(1) or fen_match.group(2)) if fen_match else ""
        if self.frames or self.moves_here[0]:
            self.reject(
                Unparsed(
                    line,
                    column,
                    "a setup after the first move is not supported",
                    "setup",
                    self.board.fen(),
                    len(self.frames),
                ),
                match.group(0),
                line,
                match,
            )
            return
        try:
            board, crowned = board_of_fen(fen, self.board.variant)
        except ValueError as error:
            bad = Unparsed(line, column, short_message(f"invalid setup: {error}"), "fen", None, 0)
            self.reject(bad, match.group(0), line, match)
            return
        if crowned:
            self.crowned_warning(crowned, line, column, board)
        self.board = board
        self.preset = None
        self.visitor.visit_header("FEN", board.fen())
        self.visitor.visit_board(board)

    # -- Moves ---------------------------------------------------------------------

    def play(self, match: re.Match[str], line: int, column: int) -> None:
        """A move the fast path did not take: a split capture, an ambiguous
        move, a move in another numbering, or an error."""
        if self.guess is not None:
            self.settle(match, line, column)
            return
        text = match.group("squares")
        raw = match.group(0)  # the move as read, kept if it is rejected
        split = self.split
        if split is not None:
            # The old split form of a capture, "4x31 31x42": join the parts.
            self.split = None
            joined = self.resolver.join(split.text, text)
            if joined is None:
                self.fail(split.error, split.line, split.column, split.raw, split.match)
                assert self.bad is not None
                self.bad.add(raw, line, match)
                return
            first = split.match
            between = first.string[first.end() : match.start()]
            raw = split.raw + (between if first.string is match.string else "\n") + raw
            text, line, column = joined, split.line, split.column
        board = self.board
        try:
            move = self.resolver.resolve(board, text)
        except AmbiguousMoveError as error:
            # Old records write ambiguous captures short; the next moves may tell.
            lines = []
            for candidate in error.candidates:
                if isinstance(candidate, Move):
                    line_board = board.copy(stack=False)
                    line_board.push(candidate)
                    lines.append((line_board, [candidate]))
            self.guess = Guess(lines, match, line, column, error, raw)
            return
        except ValueError as error:
            if self.resolver.begins_capture(board, text):
                self.split = Split(text, line, column, raw, error, match)
                return
            retry = None
            if self.preset is not None and not self.frames and not self.moves_here[0]:
                retry = renumbered(self.special.get("FEN"), self.preset, text)
            if retry is None:
                self.fail(error, line, column, raw, match)
                return
            # The file numbers its squares as the GameType's preset does,
            # whatever the full GameType says (kurnik exports).
            self.board, move = retry
            self.resolver = resolver_for(self.board.variant)
            self.visitor.visit_board(self.board)
        self.commit(move, text, match, line, column)

    def commit(self, move: Move, text: str, match: re.Match[str], line: int, column: int) -> None:
        """Play ``move``, read as ``text`` from ``match``."""
        self.preset = None
        board = self.board
        if (
            ("-" in text and not self.resolver.dash_captures)
            if move.captures
            else ("x" in text or ":" in text or "X" in text)
        ):
            self.notation_warning(move, text, line, column)
        self.visitor.visit_move(board, move)
        board.push(move)
        self.moves_here[-1] += 1
        strength = match.group("strength")
        if strength:
            _strength(self.visitor, strength)
