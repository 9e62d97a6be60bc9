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
from draughts.errors import AmbiguousMoveError
from draughts.move import Move
from draughts.pdn._fastcheck import fast_replay
from draughts.pdn._line_visitor import LineVisitor
from draughts.pdn.headers import SKIP, BaseVisitor, PdnError, variant_of_tags
from draughts.pdn.infer import Evidence, GameText, board_of_fen, choose, read_ahead
from draughts.pdn.lexer import Cursor, forget, open_cursor, where
from draughts.pdn.pending import (
    Guess,
    Split,
    Unparsed,
    comment_text,
    raw_comment,
    short_message,
)
from draughts.pdn.problems import Problems
from draughts.pdn.resolver import (
    NO_BOARD,
    NO_RESOLVER,
    Resolver,
    may_start,
    preset_numbering,
    renumbered,
    resolver_for,
    start_board,
)
from draughts.variant import Variant

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
_LOOKAHEAD = 100  # moves to follow an ambiguous move before taking its first reading
# Tokens that may stand between the parts of a split capture or between an
# ambiguous move and the moves that settle it ("57. f4xd2 e1xc3 58. c3xe5").
_BETWEEN_MOVES = frozenset(("move", "number", "ellipsis", "percent"))
_COMMENTS = frozenset(("comment", "cclose", "semicolon", "open_comment", "prose"))
# Tokens that do not end the headers.
_HEADER_TOKENS = frozenset(("tag", "tag_line", "tag2", "cut_tag", "percent", *_COMMENTS))
_MOVE_ERRORS = frozenset(("illegal", "ambiguous", "invalid", "fen"))
# PDN 3.0 escapes only these two; any other backslash is kept ("C:\\games").
_UNESCAPE = re.compile(r'\\([\\"])')


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
) -> Any:
    """Read one game from ``handle`` into ``visitor``; None at the end.

    Without ``default``, a game whose tags name no variant is read as the
    variant the evidence points to (see :mod:`draughts.pdn.infer`) when
    ``infer``, else as international draughts."""
    return _GameReader(open_cursor(handle), visitor, default, infer).run()


class _GameReader(Problems):
    """The reading of one game: the tokens of a :class:`Cursor` go to a
    visitor while the moves are replayed on a board.

    :meth:`run` dispatches each token to a method; the state those methods
    share is the attributes below. While :attr:`plain` is true the game is in
    the ordinary state (moves being replayed, nothing rejected or skipped, no
    move waiting for the next one) and moves take the fast paths.

    The class is most of this module (about 700 lines): it is one state
    machine, and its methods read and change the same state token by token;
    split into classes, each token would cost attribute hops through them on
    the reader's hottest path. What it holds between tokens lives in
    :mod:`draughts.pdn.pending`, move texts are resolved by
    :mod:`draughts.pdn.resolver`, problems reported by
    :class:`~draughts.pdn.problems.Problems`."""

    __slots__ = (
        "board",
        "cursor",
        "default",
        "early_comments",
        "found",
        "frames",
        "guess",
        "in_headers",
        "infer",
        "line_player",
        "moves_here",
        "nesting",
        "preset",
        "resolver",
        "result",
        "skip_all",
        "skipped",
        "special",
        "split",
        "visitor",
    )

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
        self.line_player = visitor.play_plain_line if isinstance(visitor, LineVisitor) else None
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
        self.split: Split | None = None
        self.guess: Guess | None = None

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

    def must_infer(self) -> bool:
        """Whether the variant is to be chosen from the evidence: nothing
        names it, neither the caller nor a tag."""
        if not self.infer:
            return False
        special = self.special
        return not any(special.get(name, ("",))[0].strip() for name in ("GameType", "Variant"))

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
        note = getattr(self.visitor, "visit_choice", None)  # the Choice itself (validation)
        if note is not None:
            note(choice)
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

    def plain_line(self, plain: tuple[str, int], line: int) -> None:
        """A plain line (see PLAIN_LINE), as ``(text, where its result
        starts)``: its move numbers change nothing while moves are being
        replayed, so only the moves are looked at. Anything out of the
        ordinary (another state, a move that is not the only legal one
        between its squares or is written with the wrong separator) sends
        the line, from that move on, back to the tokenizer and the token
        methods, which report it. So does the result, which ends the game."""
        text, end = plain
        if self.in_headers:  # as the first number or move would
            self.found = True
            self.start_moves(line, len(text) - len(text.lstrip()) + 1)
            self.plain = not (self.skip_all or self.bad)
        if not self.plain or self.split is not None or self.guess is not None:
            self.cursor.push_back(text, 0)
            return
        # The hot loop, in C on the native backend (see Resolver.play_line).
        player = self.line_player
        if player is None:
            played, stop = self.resolver.play_line(self.board, text, end, self.visitor.visit_move)
        else:  # the visitor plays the line (a LineVisitor: GameBuilder)
            played, stop = player(self.resolver, self.board, text, end)
        self.moves_here[-1] += played
        if stop < len(text):  # the rest of the line, from the move not played on
            self.cursor.push_back(text, stop)

    # -- Headers and what may come between moves --------------------------------

    def move_number(self, match: re.Match[str], line: int, column: int) -> None:
        if self.in_headers:
            self.found = True
            self.start_moves(line, column)
            self.plain = not (self.skip_all or self.bad)
        if self.bad is not None:
            self.bad.add(match.group(0), line, match)

    def tag(self, kind: str, match: Any, line: int, column: int) -> None:
        """A tag pair among the headers."""
        self.found = True
        if kind == "tag_line":
            _, _, name, value = match
        elif kind == "tag":
            name = match.group("name")
            value = match.group("value")
            if "\\" in value:
                value = _UNESCAPE.sub(r"\1", value)
        else:
            name = match.group("name2")
            value = match.group("value2").strip().strip('"')
        self.visitor.visit_header(name, value)
        if name in ("GameType", "Variant", "FEN"):
            self.special[name] = (value, line, column)

    def comment(self, kind: str, match: re.Match[str] | str, line: int, column: int) -> None:
        """A comment: braces (maybe over several lines, maybe never closed), a
        ``;`` comment or a parenthesis of prose (both as text from the cursor)."""
        if isinstance(match, str):
            text = match
        elif kind == "semicolon":
            text = match.group("semicolon")[1:]
        else:
            text = match.group("comment")
        if kind == "open_comment":
            self.report(line, column, "comment not closed before the end of the file", "incomplete")
        if self.bad is not None:
            self.bad.add(
                raw_comment(kind, match, text),
                line,
                None if isinstance(match, str) else match,
            )
        elif not text.strip():
            pass  # an empty comment says nothing, before the moves or among them
        elif self.in_headers:
            self.early_comments.append(comment_text(text))
        elif not (self.skip_all or self.skipped):
            self.visitor.visit_comment(comment_text(text))

    def start_moves(self, line: int, column: int) -> None:
        """The headers are over: set up the board they describe."""
        self.in_headers = False
        if self.visitor.end_headers() is SKIP:
            self.skip_all = True
            return
        if self.must_infer():  # a game without moves: only its FEN tag tells
            self.set_up(self.inferred(Evidence(), None, line, column), None)
            return
        special = self.special
        gametype = special.get("GameType")
        variant_tag = special.get("Variant")
        try:
            variant = variant_of_tags(
                gametype and gametype[0], variant_tag and variant_tag[0], self.default
            )
        except ValueError as error:
            where = gametype or variant_tag or ("", line, column)
            self.reject_start(
                Unparsed(where[1], where[2], short_message(str(error)), "variant", None, 0)
            )
            return
        if gametype is not None and variant_tag is not None:
            self.check_variant_tag(variant, variant_tag)
        self.set_up(variant, gametype and gametype[0])

    def set_up(self, variant: Variant, gametype: str | None) -> None:
        """The board of the game: the FEN tag's, else the variant's start."""
        fen = self.special.get("FEN")
        fen_text = fen[0] if fen and fen[0].strip() else None
        try:
            board, crowned = (
                (start_board(variant), ()) if fen_text is None else board_of_fen(fen_text, variant)
            )
        except ValueError as error:
            assert fen is not None
            self.reject_start(
                Unparsed(fen[1], fen[2], short_message(f"invalid FEN tag: {error}"), "fen", None, 0)
            )
            return
        if crowned:
            assert fen is not None
            self.crowned_warning(crowned, fen[1], fen[2], board)
        self.board = board
        self.preset = preset_numbering(variant, gametype)
        self.resolver = resolver_for(variant)
        self.visitor.visit_board(board)
        for comment in self.early_comments:
            self.visitor.visit_comment(comment)

    # -- Movetext other than moves -----------------------------------------------

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

    def swallowed(self, kind: str, match: re.Match[str], line: int) -> bool:
        """Whether the token belongs to text kept after a rejected move (or a
        side line with no move before it), or to a variation that is skipped:
        then it only counts the parentheses."""
        bad = self.bad
        if bad is not None:
            if kind == "open":
                bad.nesting += 1
            elif kind == "close":
                if bad.nesting == 0 and (bad.depth > 0 or bad.closes):
                    if bad.closes:
                        bad.add(")", line, match)
                    self.error(bad.error())
                    self.bad = None  # the caller closes the variation it was in
                    return bad.closes
                bad.nesting -= 1
            bad.add(match.group(0), line, match)
            return True
        if self.skipped:
            if kind == "open":
                self.skipped += 1
            elif kind == "close":
                self.skipped -= 1
            self.plain = not self.skipped
            return True
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

    def settle(self, match: re.Match[str], line: int, column: int) -> None:
        """Follow every reading of an ambiguous move with the moves after it
        until only one reading can play them."""
        guess = self.guess
        assert guess is not None
        guess.later.append((match, line, column))
        text = match.group("squares")
        alive = []
        for line_board, line_moves in guess.lines:
            try:
                move = self.resolver.resolve(line_board, text)
            except ValueError:
                continue
            line_board.push(move)
            line_moves.append(move)
            alive.append((line_board, line_moves))
        guess.lines = alive
        if len(alive) == 1:
            self.adopt(guess, alive[0][1], "the only one the moves after it can follow")
        elif not alive or len(guess.later) >= _LOOKAHEAD:
            self.unsettled()

    def adopt(self, guess: Guess, chosen: list[Move], why: str) -> None:
        """Read an ambiguous move as the first of ``chosen``, and the moves
        read since as the rest."""
        self.guess = None
        first = guess.first
        self.visitor.handle_warning(
            PdnError(
                guess.line,
                guess.column,
                f"ambiguous move {first.group('squares')!r} read as "
                f"{self.board.pdn(chosen[0], long=True)}, {why}",
                "notation",
                self.board.fen(),
            )
        )
        self.commit(chosen[0], first.group("squares"), first, guess.line, guess.column)
        for move, (later_match, later_line, later_column) in zip(
            chosen[1:], guess.later, strict=True
        ):
            self.commit(move, later_match.group("squares"), later_match, later_line, later_column)

    def unsettled(self) -> None:
        """A move waiting for the next one, which did not come: an error,
        unless every reading of an ambiguous move fits the moves after it
        (then the first is taken, and the warning says so)."""
        split, guess = self.split, self.guess
        if split is not None:
            self.fail(split.error, split.line, split.column, split.raw, split.match)
        elif guess is not None and len(guess.lines) > 1:
            others = ", ".join(self.board.pdn(moves[0], long=True) for _, moves in guess.lines[1:])
            self.adopt(
                guess,
                guess.lines[0][1],
                f"the first of the readings the moves after it fit ({others} fits too)",
            )
        elif guess is not None:
            self.fail(guess.error, guess.line, guess.column, guess.raw, guess.first)
            assert self.bad is not None
            for later, later_line, _ in guess.later:
                self.bad.add(later.group(0), later_line, later)
        self.split = self.guess = None


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
