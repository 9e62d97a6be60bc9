"""The liberal PDN reader behind :func:`draughts.pdn.read_game`.

One compiled regular expression splits each line into tokens; the reader
feeds them to a visitor while it replays the moves on a board. It reads the
file a line at a time and stops after the game terminator, leaving the rest
of that line for the next call, so a file of any size is read in constant
memory. Nothing in it recurses, so nesting depth is not limited.
"""

from __future__ import annotations

import re
from typing import IO, Any

from draughts.board import Board
from draughts.move import Move
from draughts.pdn._fastcheck import fast_replay
from draughts.pdn._line_visitor import LineVisitor
from draughts.pdn._reader_headers import HeaderReading
from draughts.pdn._reader_moves import MovetextReading
from draughts.pdn._reader_recovery import Recovery
from draughts.pdn.headers import SKIP, BaseVisitor, PdnError
from draughts.pdn.infer import Evidence, GameText, choose, read_ahead
from draughts.pdn.lexer import Cursor, forget, open_cursor, where
from draughts.pdn.pending import Unparsed, short_message
from draughts.pdn.resolver import NO_BOARD, NO_RESOLVER, Resolver, may_start
from draughts.variant import Variant

# Tokens that may stand between the parts of a split capture or between an
# ambiguous move and the moves that settle it ("57. f4xd2 e1xc3 58. c3xe5").
_BETWEEN_MOVES = frozenset(("move", "number", "ellipsis", "percent"))
_COMMENTS = frozenset(("comment", "cclose", "semicolon", "open_comment", "prose"))
# Tokens that do not end the headers.
_HEADER_TOKENS = frozenset(("tag", "tag_line", "tag2", "cut_tag", "percent", *_COMMENTS))
_MOVE_ERRORS = frozenset(("illegal", "ambiguous", "invalid", "fen"))


class _Stop(Exception):
    """Ends the replay of a game under a variant tried: a move error."""


class _Enough(Exception):
    """Ends the replay of a game under a variant tried: the moves asked for
    were played."""


class _Trial(BaseVisitor[None]):
    """Counts the moves a variant tried replays, and stops at its first
    move error or after ``limit`` moves (see :meth:`_GameReader.replays`)."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit

    def begin_game(self) -> None:
        self.plies = 0

    def visit_move(self, board: Board, move: Move) -> None:
        self.plies += 1
        if self.plies == self.limit:
            raise _Enough

    def handle_error(self, error: PdnError) -> None:
        if error.kind in _MOVE_ERRORS:
            raise _Stop

    def result(self) -> None:
        return None


def read(
    handle: IO[str],
    visitor: BaseVisitor[Any],
    default: Variant | str | int | None,
    infer: bool = True,
    function: str = "read_game",
) -> Any:
    """Read one game from ``handle`` into ``visitor``; None at the end.

    Without ``default``, a game whose tags name no variant is read as the
    variant the evidence points to (see :mod:`draughts.pdn.infer`) when
    ``infer``, else as international draughts. ``function`` is the public
    function called, named by the error for what is not a text handle."""
    return _GameReader(open_cursor(handle, function), visitor, default, infer).run()


class _GameReader(HeaderReading, MovetextReading, Recovery):
    """The reading of one game: the tokens of a :class:`Cursor` go to a
    visitor while the moves are replayed on a board.

    :meth:`run` dispatches each token to a method; the state those methods
    share is the attributes below. While :attr:`plain` is true the game is in
    the ordinary state (moves being replayed, nothing rejected or skipped, no
    move waiting for the next one) and moves take the fast paths.

    The methods are split by job (see :mod:`draughts.pdn._reader_state`):
    this class reads the tokens and chooses a variant where no tag names
    one; the headers, the movetext and the recovery from moves that are not
    ordinary are its parts; problems are reported by
    :class:`~draughts.pdn.problems.Problems`. What it holds between tokens
    lives in :mod:`draughts.pdn.pending`, move texts are resolved by
    :mod:`draughts.pdn.resolver`."""

    __slots__ = ()  # the state is ReaderState's

    def __init__(
        self,
        cursor: Cursor,
        visitor: BaseVisitor[Any],
        default: Variant | str | int | None,
        infer: bool = True,
    ) -> None:
        self.cursor = cursor
        self.visitor = visitor
        # A visitor may play a plain line's moves itself (see LineVisitor).
        self.line_player = visitor.play_plain_lines if isinstance(visitor, LineVisitor) else None
        self.default = default
        self.infer = infer and default is None  # choose the variant of a game without tags
        self.found = False  # a tag or movetext token was seen
        self.in_headers = True
        self.special: dict[str, tuple[str, int, int]] = {}  # GameType, Variant, FEN
        self.early_comments: list[str] = []  # comments before the first move
        self.board: Board = NO_BOARD
        self.resolver: Resolver = NO_RESOLVER
        self.preset: Variant | None = None  # the GameType's own numbering, if the tag gave another
        self.skip_all = False  # the visitor skips the moves
        self.frames: list[tuple[int, Move]] = []  # open variations: (ply, main move)
        self.moves_here = [0]  # moves played in each open line
        self.skipped = 0  # nesting inside a variation the visitor skips
        self.bad: Unparsed | None = None
        self.result: str | None = None
        self.nesting = 0  # parentheses open in the movetext, whatever is skipped
        self.plain = False  # moves are being replayed: none of the states above
        self.split = None
        self.guess = None

    # -- The token loop ---------------------------------------------------------

    def run(self) -> Any:
        """Read the game; what the visitor made of it, None at the end of the file."""
        self.visitor.begin_game()
        self.visitor.begin_headers()
        if self.read_tokens():
            self.read_inferred()
        return self.finish()

    def read_tokens(self) -> bool:
        """Dispatch the cursor's tokens to the end of the game; True when it
        stopped where the moves start because their variant must be
        inferred (the movetext is then pushed back on the cursor)."""
        for kind, match, line, column in self.cursor.tokens():
            if self.in_headers and kind not in _HEADER_TOKENS and self.must_infer():
                self.cursor.push_back(*where(kind, match))
                return True
            if kind == "line":
                self.plain_line(match, line)
                continue
            if kind == "tag_line" and self.in_headers:  # the next commonest, as below
                self.tag(kind, match, line, column)
                continue
            if (self.split is not None or self.guess is not None) and kind not in _BETWEEN_MOVES:
                self.unsettled()
            if kind == "move" and self.plain and self.split is None and self.guess is None:
                # The common case first: a short move in a line being replayed.
                move = self.resolver.quick(self.board, match)
                if move is None:
                    self.play(match, line, column)
                else:
                    self.commit(move, match.group("squares"), match, line, column)
                continue
            if kind == "percent":
                continue
            if kind == "number" or kind == "ellipsis":
                self.move_number(match, line, column)
            elif kind == "tag" or kind == "tag_line" or kind == "tag2":
                if not self.in_headers:  # the next game's
                    self.cursor.push_back(*where(kind, match))
                    break
                self.tag(kind, match, line, column)
            elif kind in _COMMENTS:
                self.comment(kind, match, line, column)
            elif kind == "cut_tag":
                self.found = True
                self.cut_tag(line, column)
            elif self.movetext(kind, match, line, column):
                break
        return False

    def read_inferred(self) -> None:
        """Read the moves ahead, choose their variant, and read them as it."""
        self.in_headers = False
        self.found = True
        if self.visitor.end_headers() is SKIP:
            self.skip_all = True
            self.read_tokens()
            return
        cursor = self.cursor
        text = read_ahead(cursor)
        line, column = text.line_number, text.start + 1
        self.set_up(self.inferred(text.evidence, text, line, column), None)
        self.plain = not self.bad
        # The handle must live while its cursor reads (the cursor holds a weak reference).
        self.cursor, handle = text.cursor()
        self.cursor.whole_lines = cursor.pending is None  # else the game's end cuts the last
        try:
            self.read_tokens()
        finally:
            self.cursor = cursor
            handle.close()

    def inferred(
        self, evidence: Evidence, text: GameText | None, line: int, column: int
    ) -> Variant:
        """The variant the evidence points to, told to the visitor as a warning."""
        fen_tag = self.special.get("FEN")
        fen = fen_tag[0] if fen_tag and fen_tag[0].strip() else evidence.setup
        if fen is not None:
            evidence.add_fen(fen)
        choice = choose(
            evidence,
            fen,
            lambda variant, limit: (
                (True, 0) if text is None else self.replays(text, variant, fen, limit)
            ),
        )
        self.visitor.handle_warning(
            PdnError(line, column, short_message(f"no GameType: {choice.reason}"), "inferred")
        )
        self.visitor.visit_choice(choice)
        return choice.variant

    def replays(
        self, text: GameText, variant: Variant, fen: str | None, limit: int | None
    ) -> tuple[bool, int]:
        """Whether the game's moves (the first ``limit`` if given) replay as
        ``variant`` without an error, and how many are played before the first."""
        first = text.evidence.first
        if fen is None and first is not None and not may_start(variant, first):
            return False, 0
        # One call into C where the native core can tell (tests/pdn/
        # test_pdn_fastcheck.py holds it to this trial reader): untagged
        # files try a dozen candidates a game.
        fast = fast_replay(text.movetext(), variant, fen, limit)
        if fast is not None:
            return fast
        cursor, handle = text.cursor()
        cursor.whole_lines = self.cursor.pending is None
        trial = _Trial(limit)
        reader = _TrialReader(cursor, trial, variant, infer=False)
        reader.special = self.special
        try:
            reader.run()
        except _Stop:
            return False, trial.plies
        except _Enough:
            pass
        finally:
            handle.close()
        return True, trial.plies

    def finish(self) -> Any:
        """Close what the game left open and end it."""
        visitor = self.visitor
        cursor = self.cursor
        if not self.found:
            forget(cursor.handle)  # at the end: a handle read again (after seek(0)) starts afresh
            return None
        self.unsettled()
        if self.in_headers:
            self.start_moves(cursor.line_number, 1)
        if self.result is None:
            self.cut()
        bad = self.bad
        if bad is not None:
            # Parentheses the kept text leaves open are closed, as exporters
            # close every variation: written back open, they would take in
            # what is written after them.
            missing = bad.nesting + (1 if bad.closes else 0)
            if missing > 0:
                bad.add(" ".join(")" * missing), -1)
            self.error(bad.error())
        if self.frames or self.skipped or (bad is not None and bad.closes):
            self.report(
                cursor.line_number, 1, "variation not closed before the end of the game", "syntax"
            )
            for _ in self.frames:
                visitor.end_variation()
        if self.result is not None:
            visitor.visit_result(self.result)
        visitor.end_game()
        return visitor.result()


class _TrialReader(_GameReader):
    """Reads a game as a variant tried for it (see :meth:`_GameReader.replays`):
    the first move error ends the reading, the rest is not read."""

    __slots__ = ()

    def reject(self, bad: Unparsed, raw: str, line: int, match: re.Match[str]) -> None:
        if bad.kind in _MOVE_ERRORS:
            raise _Stop
        super().reject(bad, raw, line, match)

    def fail(
        self, error: ValueError, line: int, column: int, raw: str, match: re.Match[str]
    ) -> None:
        # Every rejected move is a move error, which ends a trial: the
        # message and FEN fail() would write for it are not needed (writing
        # them made reading the International corpus without a variant, 1,004
        # games of 1,516 inferred, 3% slower on the native core).
        raise _Stop
