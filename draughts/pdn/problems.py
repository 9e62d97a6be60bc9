"""How the PDN reader (:mod:`draughts.pdn.reader`) reports what it finds
wrong: errors and the text they leave out of the game, warnings, and the
signs of a record the end of its file cut (no result marker, a move, a tag or
a comment the end of the file stops in the middle of).

:class:`Problems` is a part of the reader's state machine, kept here: the
reader's class inherits its methods, which read and change the reader's
state (the attributes declared below)."""

from __future__ import annotations

import re
from typing import Any

from draughts.board import Board
from draughts.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from draughts.move import Move
from draughts.pdn.headers import BaseVisitor, PdnError, tag_is_unknown
from draughts.pdn.lexer import Cursor
from draughts.pdn.pending import Unparsed, short_message
from draughts.variant import Variant

_ERROR_KIND = (
    (AmbiguousMoveError, "ambiguous"),
    (IllegalMoveError, "illegal"),
    (InvalidMoveError, "invalid"),
)
# The start of a move (or of a move number) and the start of a token that is
# not one: a result, a NAG, a setup. A last token of the file that is one of
# these and no token whole is taken for one the end of the file cut.
_MOVE_START = re.compile(r"[0-9a-hA-H]+(?:[ \t]*[-xX:][ \t]*[0-9a-hA-H]*)*\Z")
_OTHER_START = re.compile(r"(?:1/2?(?:[-:](?:1/?)?)?|\$|/[^/]*|[-xX:])\Z")

_TOKEN_ERRORS = frozenset(("illegal", "ambiguous", "invalid", "syntax"))
_BLANKS_TO_THE_END = re.compile(r"[ \t\r\f\v]*\Z")

NO_RESULT = "no result marker: the record may be cut"
"""The warning (kind ``"incomplete"``) of a game whose movetext has no
result marker before the next game or the end of the file."""


class Problems:
    """The reader's reporting: every problem goes to its visitor."""

    # The state these methods set (the reader's __slots__ hold the rest).
    __slots__ = ("bad", "plain")

    bad: Unparsed | None
    plain: bool
    # The reader's state they read.
    visitor: BaseVisitor[Any]
    cursor: Cursor
    board: Board
    frames: list[tuple[int, Move]]
    early_comments: list[str]

    def report(self, line: int, column: int, message: str, kind: str, unparsed: str = "") -> None:
        """An error; ``unparsed`` is the text it leaves out of the game."""
        self.error(PdnError(line, column, short_message(message), kind, None, unparsed))

    def error(self, error: PdnError) -> None:
        """Hand ``error`` to the visitor, and the text it leaves out of the
        game, where it was read (so that exporters write it back)."""
        self.visitor.handle_error(error)
        if error.unparsed:
            self.visitor.visit_unparsed(error.unparsed)

    def notation_warning(self, move: Move, text: str, line: int, column: int) -> None:
        # Liberal reading matched it anyway; the strict check tells.
        written = "'-'" if move.captures else "a capture separator"
        self.visitor.handle_warning(
            PdnError(
                line,
                column,
                f"{text!r} is written with {written} but is {self.board.pdn(move, long=False)}",
                "notation",
                self.board.fen(),
            )
        )

    def crowned_warning(
        self, crowned: tuple[int, ...], line: int, column: int, board: Board
    ) -> None:
        """Men a FEN puts on their crowning row, read as kings."""
        names = ", ".join(board.variant.square_name(square) for square in crowned)
        several = len(crowned) > 1
        self.visitor.handle_warning(
            PdnError(
                line,
                column,
                f"{'men' if several else 'a man'} on {names}, the row where "
                f"{'they' if several else 'it'} would have been crowned: read as "
                f"{'kings' if several else 'a king'}",
                "fen",
                board.fen(),
            )
        )

    def check_variant_tag(self, variant: Variant, tag: tuple[str, int, int]) -> None:
        """Warn of a ``Variant`` tag that names no variant of the ``GameType``:
        a custom variant's game read without that variant (its rules may
        not be the ``GameType``'s)."""
        value, line, column = tag
        if tag_is_unknown(variant, value):
            message = (
                f"unknown Variant {value!r}: read as {variant.name} ({variant.gametype_string}) "
                "by the GameType alone; a custom variant is read with read_game(..., variant=...)"
            )
            self.visitor.handle_warning(PdnError(line, column, short_message(message), "variant"))

    def fail(
        self, error: ValueError, line: int, column: int, raw: str, match: re.Match[str]
    ) -> None:
        """A rejected move: the rest of its line is kept as text."""
        kind_name = next((name for cls, name in _ERROR_KIND if isinstance(error, cls)), "illegal")
        self.reject(
            Unparsed(
                line,
                column,
                short_message(str(error)),
                kind_name,
                self.board.fen(),
                len(self.frames),
            ),
            raw,
            line,
            match,
        )

    def junk(self, match: re.Match[str], line: int, column: int) -> None:
        """A token that is not PDN. The last of the file is kept as the text
        of an error (the end of the game may find it cut, see :meth:`cut`)."""
        text = match.group(0)
        message = short_message(f"unexpected {text!r}")
        if self.cursor.whole_lines and _at_the_end(match.string, match.end()):
            bad = Unparsed(line, column, message, "syntax", None, len(self.frames))
            self.reject(bad, text, line, match)
        else:
            self.report(line, column, message, "syntax", text)

    def reject_start(self, bad: Unparsed) -> None:
        """The tags give no board: all the movetext is kept as the text of
        ``bad``, from the comments before the first move on."""
        for comment in self.early_comments:
            bad.add("{" + comment.replace("}", "]") + "}", 0)  # line 0: a line of their own
        self.bad = bad

    def reject(self, bad: Unparsed, raw: str, line: int, match: re.Match[str]) -> None:
        """Keep ``raw`` (read on ``line``, ending where ``match`` does) and the
        rest of the line as the text of ``bad``."""
        bad.add(raw, line, match)
        self.bad = bad
        self.plain = False

    # -- A record the end of its file cut -----------------------------------------

    def cut_tag(self, line: int, column: int) -> None:
        """The ``[`` of a tag the end of the file cuts (the text is dropped:
        written back, it would read as something else)."""
        self.report(line, column, "the file ends inside a tag: the record is cut", "incomplete")

    def cut(self) -> None:
        """At the end of a game without a result marker: warn of it (kind
        ``"incomplete"``, where the marker is missing), and make the error
        of a last token that the end of the file stops in the middle of
        (``32-2``, ``1/2-1/``) say so, dropping its text."""
        cursor = self.cursor
        pending = cursor.pending
        if pending is None:  # the end of the file
            line, column = cursor.line_number, cursor.end_column
            bad = self.bad
            text = "" if bad is None or not _cut_token(bad) else "".join(bad.parts)
            move = _MOVE_START.match(text)
            if bad is not None and (move or _OTHER_START.match(text)):
                what = f"a move ({text!r})" if move else repr(text)
                bad.message = short_message(f"the file ends inside {what}: the record is cut")
                bad.kind = "incomplete"
                bad.parts.clear()
        else:  # the next game's first tag
            line, column = cursor.line_number, pending[1] + 1
        self.visitor.handle_warning(PdnError(line, column, NO_RESULT, "incomplete"))


def _cut_token(bad: Unparsed) -> bool:
    """Whether the text ``bad`` keeps ends the file (it is then a cut token
    if it matches one of the patterns above: ``24x15x`` is one, read as the
    move ``24x15`` and a stray ``x``)."""
    source = bad.source
    return (
        bad.kind in _TOKEN_ERRORS  # not all the movetext of a game without a board
        and not bad.closes
        and source is not None
        and _at_the_end(source, bad.end)
    )


def _at_the_end(line: str, end: int) -> bool:
    """Whether nothing but blanks follows ``end`` on the file's last line
    (the only one without a line break): a move may have blanks inside
    (``1- 7``)."""
    return not line.endswith("\n") and _BLANKS_TO_THE_END.match(line, end) is not None
