"""What the PDN reader holds while a game is out of the ordinary: the text
kept after a rejected move, the first part of a split capture, the readings
of an ambiguous move waiting for the later moves; and how kept text and
messages are written.
"""

from __future__ import annotations

import re

from draughts.board import Board
from draughts.move import Move
from draughts.pdn.headers import PdnError


class Unparsed:
    """Text kept after a rejected move, until the end of its variation or game.

    The text is kept as read, token by token: tokens of one source line with
    what stood between them (spaces, nothing), a line break where the source
    had one, so that it reads back as the same tokens (a ``[`` and a ``]`` of
    two lines never join into a tag, ``49x4`` and ``x`` never into one move).
    A side line that has no move before it (``closes``) keeps its own ``(``
    and ``)``."""

    __slots__ = (
        "closes",
        "column",
        "depth",
        "end",
        "fen",
        "kind",
        "last_line",
        "line",
        "message",
        "nesting",
        "parts",
        "source",
    )

    def __init__(
        self, line: int, column: int, message: str, kind: str, fen: str | None, depth: int
    ) -> None:
        self.line, self.column, self.message, self.kind, self.fen = (
            line,
            column,
            message,
            kind,
            fen,
        )
        self.depth = depth
        self.nesting = 0
        self.closes = False
        self.parts: list[str] = []
        self.last_line = line
        self.source: str | None = None  # the line the last part was matched in
        self.end = -1  # and where it ended there

    def add(self, text: str, line: int, match: re.Match[str] | None = None) -> None:
        """Keep ``text``, read on ``line`` where ``match`` (if known) ends."""
        if self.parts:
            if match is not None and match.string is self.source:
                self.parts.append(match.string[self.end : match.start()])
            else:
                self.parts.append(" " if line == self.last_line else "\n")
        self.parts.append(text)
        self.last_line = line
        if match is None:
            self.source, self.end = None, -1
        else:
            self.source, self.end = match.string, match.end()

    def error(self) -> PdnError:
        return PdnError(
            self.line, self.column, self.message, self.kind, self.fen, "".join(self.parts)
        )


_MESSAGE_LIMIT = 500


def short_message(message: str) -> str:
    """The message, cut in the middle if the text it quotes is huge."""
    if len(message) <= _MESSAGE_LIMIT:
        return message
    half = _MESSAGE_LIMIT // 2
    return f"{message[:half]} ... ({len(message) - 2 * half} characters) ... {message[-half:]}"


_WHITESPACE = str.maketrans("\t\n\r\f\v", "     ")


def comment_text(text: str) -> str:
    """Whitespace folded to single spaces. Done with whole-string operations
    (split/join or a regex would make an object per word of a huge comment)."""
    text = text.translate(_WHITESPACE)
    while "  " in text:
        text = text.replace("    ", " ").replace("  ", " ")
    return text.strip()


def raw_comment(kind: str, match: re.Match[str] | str, text: str) -> str:
    """A comment as it was written, for text kept after a rejected move: a
    ``;`` comment as it is (the rest of its line), one over several lines with
    its line breaks, in parentheses (prose) in them, and one never closed
    closed (it was at the end of the file)."""
    if kind == "semicolon":
        assert not isinstance(match, str)
        return match.group("semicolon")
    if kind == "prose":
        return f"({text})"
    if isinstance(match, str):
        return "{" + text + "}"
    return match.group(0)


class Split:
    """The first part of a capture written in the old split form
    (``4x31 31x42``), waiting for the second."""

    __slots__ = ("column", "error", "line", "match", "raw", "text")

    def __init__(
        self,
        text: str,
        line: int,
        column: int,
        raw: str,
        error: ValueError,
        match: re.Match[str],
    ) -> None:
        self.text, self.line, self.column, self.raw, self.error = text, line, column, raw, error
        self.match = match  # where the part ends


class Guess:
    """An ambiguous move waiting for the next moves to tell which it is: a
    board and the moves for each reading, the moves read since, where the
    move was and why it was ambiguous."""

    __slots__ = ("column", "error", "first", "later", "line", "lines", "raw")

    def __init__(
        self,
        lines: list[tuple[Board, list[Move]]],
        first: re.Match[str],
        line: int,
        column: int,
        error: ValueError,
        raw: str,
    ) -> None:
        self.lines = lines
        self.later: list[tuple[re.Match[str], int, int]] = []
        self.first, self.line, self.column, self.error = first, line, column, error
        self.raw = raw  # the move as read (both parts of a split capture)
