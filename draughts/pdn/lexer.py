"""The tokens of PDN text, for :mod:`draughts.pdn.reader`: one compiled
regular expression splits each line into tokens, and a :class:`Cursor` reads
a file a line at a time, so a file of any size is read in constant memory.
"""

from __future__ import annotations

import codecs
import re
import weakref
from collections.abc import Callable, Iterator
from typing import IO, Any

from draughts.pdn import _native
from draughts.pdn._text import handle_error

# Alternatives are tried in order at each position, so results come before
# moves ("1-0" is not a move) and move numbers before moves ("12." is not a
# square). The last alternative catches any other character, so no text is
# skipped silently.
SQ = r"(?:[a-zA-Z][0-9]{1,2}|[0-9]{1,3})"
RESULT = r"(?:1/2[-:]1/2|[12][-:]0|0[-:][012]|1[-:]1)(?![0-9])"
"""A result marker, as PDN 3.0 writes it and as old files do (``:``)."""
TOKEN = re.compile(
    r"""
    (?P<tag>\[[ \t]*(?P<name>[A-Za-z0-9_]+)[ \t]*"(?P<value>(?:[^"\\\n]|\\.)*)"[ \t]*\])
  | (?P<tag2>\[[ \t]*(?P<name2>[A-Za-z0-9_]+)[ \t]*(?P<value2>[^\]\n]*)\])
  | \{(?P<comment>[^}]*)(?P<cclose>\}?)
  | (?P<semicolon>;[^\n]*)
  | (?P<percent>%[^\n]*)
  | /(?P<setup>[^/\n]*)/
  | (?P<result>RESULT)
  | (?P<number>[0-9]+\.(?:\.\.)?)
  | (?P<ellipsis>\.\.\.?|…)
  | (?P<move>(?P<squares>(?P<a>SQ)[ \t]*(?P<sep>[-xX:])[ \t]*(?P<b>SQ)
                          (?P<more>(?:[ \t]*[-xX:][ \t]*SQ)+)?
                         |(?:[a-z][0-9]){2,}|[a-h][a-h][1-8]|[0-9]{4})
             (?P<strength>[!?]+|\([!?]+\)|\*)?)
  | \$(?P<nag>[0-9]+)
  | (?P<strength2>[!?]+|\([!?]+\))
  | (?P<open>\()
  | (?P<close>\))
  | (?P<star>\*)
  | (?P<junk>[^\s{}()\[\]]+|\S)
    """.replace("SQ", SQ).replace("RESULT", RESULT),
    re.VERBOSE,
)


def guess_encoding(head: bytes) -> str:
    """``utf-8-sig`` for a byte order mark, ``utf-8`` when ``head`` decodes
    as UTF-8 (a character cut at its end is fine), else ``cp1252``."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return "cp1252"
    return "utf-8"


class Cursor:
    """Where reading of one handle stands: the line number and the part of
    the last line that belongs to the next game."""

    __slots__ = (
        "__weakref__",
        "_handle",
        "end_column",
        "line_number",
        "pending",
        "readline",
        "record",
        "whole_lines",
    )

    def __init__(self, handle: IO[str]) -> None:
        # Kept by weak reference: the cursor is the value of a weak dictionary
        # keyed by the handle, and a value that held its key would keep both
        # for ever (every handle read without reaching its end, text and all).
        try:
            self._handle: Callable[[], IO[str] | None] = weakref.ref(handle)
        except TypeError:  # no weak references: kept alive by _STRONG_CURSORS anyway
            self._handle = lambda: handle
        self.line_number = 0
        # Where the text of the last line ends, once the end of the file is reached.
        self.end_column = 1
        # Whether a line without a line break is the file's last (not so for
        # the lines of a game read ahead, the last cut where the game ends).
        self.whole_lines = True
        self.pending: tuple[str, int] | None = None
        # While a list: every line read from the handle is appended to it
        # (the reader reads a game's moves ahead to choose its variant).
        self.record: list[str] | None = None
        # While tokens() runs: what it reads lines with (recording them or
        # not). The reader reads the plain lines after a plain line with it
        # (see Resolver.play_lines) and hands back the line it stops in. Not
        # kept after: it holds the handle, which the cursor must not.
        self.readline: Callable[[], str] | None = None

    @property
    def handle(self) -> IO[str]:
        """The handle read (alive while it is read: the reader holds it)."""
        handle = self._handle()
        assert handle is not None, "a cursor is used only while its handle is read"
        return handle

    def push_back(self, line: str, position: int) -> None:
        self.pending = (line, position)

    def tokens(self) -> Iterator[tuple[str, Any, int, int]]:
        """``(kind, match, line, column)``; a comment spanning lines comes as
        ``("comment", text, line, column)``, and one never closed as
        ``("open_comment", text, line, column)``; the ``[`` of a tag cut by the
        end of the file comes as ``("cut_tag", text, line, column)``, the text
        being the rest of the line. A line of nothing but move
        numbers and plain moves (see :data:`PLAIN_LINE`) comes whole, as
        ``("line", (text, end), line, 1)``, ``end`` being where its result
        starts (its length if it has none): the reader takes its moves
        itself, or pushes it back to have it tokenized here, as a pushed-back
        line always is. On the native core, a line of one tag pair and
        nothing else (see :data:`tag_line`) comes whole too, as
        ``("tag_line", (text, start, name, value), line, start + 1)``; see
        :func:`where` for where a token starts."""
        # The generator itself, not one that delegates to it: each token
        # passed through two generators' frames (see _tokens).
        return self._tokens()

    def _tokens(self) -> Iterator[tuple[str, Any, int, int]]:
        """:meth:`tokens`; long, as one loop: a token costs a trip through the
        generator, and with a second one delegating to it (tokens() with
        ``yield from``) reading the International corpus took 580 against
        576 thousand instructions a game (callgrind)."""
        readline: Callable[[], str] = self.handle.readline
        if self.record is not None:
            readline = _recording(readline, self.record)
        self.readline = readline
        try:
            search = TOKEN.search
            blank_rest = _BLANK_REST.match
            plain_end = plain_line_end
            tag_of = tag_line
            line = ""
            while True:
                if self.pending is not None:
                    line, position = self.pending
                    self.pending = None
                else:
                    text = readline()
                    if not text:
                        if line:
                            self.end_column = len(line.rstrip("\r\n")) + 1
                        return
                    line = text
                    self.line_number += 1
                    position = 0
                    if self.line_number == 1 and line.startswith("\ufeff"):
                        position = 1  # a byte order mark the handle's codec left in
                    else:
                        end = plain_end(line)
                        if end >= 0:
                            yield "line", (line, end), self.line_number, 1
                            continue
                        tag = None if tag_of is None else tag_of(line)
                        if tag is not None:
                            name, value, start = tag
                            yield (
                                "tag_line",
                                (line, start, name, value),
                                self.line_number,
                                start + 1,
                            )
                            continue
                if blank_rest(line, position) is not None:
                    continue  # nothing to tokenize (TOKEN would search it in vain)
                while True:
                    match = search(line, position)
                    if match is None:
                        break
                    position = match.end()
                    kind = match.lastgroup or "junk"
                    if kind == "junk" and self.whole_lines and _cut_tag(line, match):
                        position = len(line)
                        yield "cut_tag", line[match.start() :], self.line_number, match.start() + 1
                        continue
                    if kind == "cclose" and not match.group("cclose"):
                        start_line, column = self.line_number, match.start() + 1
                        parts = [match.group("comment")]
                        while True:
                            text = readline()
                            if not text:
                                self.end_column = len(line.rstrip("\r\n")) + 1
                                yield "open_comment", " ".join(parts), start_line, column
                                return
                            line = text
                            self.line_number += 1
                            end = line.find("}")
                            if end < 0:
                                parts.append(line)
                                continue
                            parts.append(line[:end])
                            position = end + 1
                            break
                        yield "comment", " ".join(parts), start_line, column
                        continue
                    if kind == "open":
                        end = prose_end(line, position)
                        if end > 0:
                            # Nemesis writes annotations in parentheses: a
                            # "variation" with words in it is a comment.
                            yield "prose", line[position : end - 1], self.line_number, position
                            position = end
                            continue
                    yield kind, match, self.line_number, match.start() + 1
        finally:
            self.readline = None


_BLANK_REST = re.compile(r"\s*\Z")
"""White space to the end of the line: no token there, found at a fraction
of the cost of a search with TOKEN (blank lines, and the rest of a line after
a game's result): read_game on the International corpus ran 4% fewer
instructions (1.01 M against 0.97 M a game, callgrind)."""


def _cut_tag(line: str, match: re.Match[str]) -> bool:
    """Whether the junk token ``match`` is the ``[`` of a tag that the end of
    the file cuts: on the last line (the only one without a line break),
    with no ``]`` after it."""
    return match.group(0) == "[" and not line.endswith("\n") and "]" not in line[match.end() :]


def _recording(readline: Callable[[], str], record: list[str]) -> Callable[[], str]:
    """``readline`` that also appends each line it reads to ``record``."""

    def read_and_record() -> str:
        line = readline()
        if line:
            record.append(line)
        return line

    return read_and_record


# A line of nothing but move numbers and moves like "32-28", "19x28" or
# "1- 7", maybe ending with the result: most of a game's movetext. The token
# regex tries a dozen alternatives for each token (1.8 searches per ply) and
# each token is a trip through the generator, so the reader takes such a line
# whole and picks its moves out with one findall. The grammar is the token
# regex's on these tokens, made unambiguous so that a failed match does not
# backtrack: squares start with 1-9 so that no move is a result ("2-0",
# "0-1"; "1-1" is excluded by name), and a move ends at whitespace, as the
# token regex would end it there.
PLAIN_MOVE = re.compile(r"[1-9][0-9]?[ \t]*[-x][ \t]*[1-9][0-9]?")
PLAIN_LINE = re.compile(
    r"""\s*(?:[0-9]+\.\s*|(?!1-1(?:\s|\Z))MOVE(?:\s+|\Z))+
        (?P<end>(?:[12]-0|0-[012]|1-1|1/2-1/2|\*)\s*)?""".replace("MOVE", PLAIN_MOVE.pattern),
    re.VERBOSE,
)


def _plain_line_end_python(line: str) -> int:
    match = PLAIN_LINE.fullmatch(line)
    if match is None:
        return -1
    end = match.start("end")
    return len(line) if end < 0 else end


plain_line_end: Callable[[str], int] = _native.plain_line_end or _plain_line_end_python
"""Where the result of a plain line (see :data:`PLAIN_LINE`) starts, its
length if it has none, -1 if the line is not plain. The native core reads
the line in C (``draughts/pdn/_native/pdn_lines.c``, tested against
:data:`PLAIN_LINE`): a fifth of a PDN replay's time went to the two regular
expressions."""

tag_line: Callable[[str], tuple[str, str, int] | None] | None = _native.tag_line
"""``(name, value, where its "[" is)`` of a line that :data:`TOKEN` reads
as one ``tag`` token with no escape in its value and nothing else, None for
any other line: the native core reads it in C (``pdn_lines.c``, tested
against :func:`_tag_line_python`), at a fifth of the cost of TOKEN's two
searches of the line. None on the pure core, where TOKEN reads every tag."""


def _tag_line_python(line: str) -> tuple[str, str, int] | None:
    match = TOKEN.search(line)
    if match is None or match.lastgroup != "tag" or "\\" in match.group("value"):
        return None
    if TOKEN.search(line, match.end()) is not None:
        return None
    return match.group("name"), match.group("value"), match.start()


def where(kind: str, match: Any) -> tuple[str, int]:
    """The line a token of :meth:`Cursor.tokens` was read from and where in
    it the token starts (but a comment's, which may span lines)."""
    if kind == "line":
        return match[0], 0
    if kind == "tag_line":
        return match[0], match[1]
    return match.string, match.start()


# The text of a parenthesis with at most one level of parentheses inside; the
# two alternatives start with different characters, so matching is linear.
PAREN_BODY = re.compile(r"(?:[^(){}\n]|\([^(){}\n]*\))*\)")
PROSE = re.compile(r"[A-Za-z]{3}|^\s*[A-Za-z]+(?![A-Za-z0-9])")


def prose_end(line: str, start: int) -> int:
    """The position after the ``)`` that closes the ``(`` before ``start``
    when the text between is prose, not moves; else 0."""
    match = PAREN_BODY.match(line, start)
    if match is None:
        return 0
    body = match.group(0)[:-1]
    if not PROSE.search(body) or "/" in body:
        return 0
    return match.end()


_CURSORS: weakref.WeakKeyDictionary[Any, Cursor] = weakref.WeakKeyDictionary()
_STRONG_CURSORS: dict[int, tuple[Any, Cursor]] = {}


def open_cursor(handle: IO[str], function: str = "read_game") -> Cursor:
    """The cursor of ``handle``, made on its first reading.

    :raises TypeError: for what is not a text handle (a path, bytes, a
        binary handle), naming ``function`` (the one the caller called) and
        saying what to pass.
    """
    try:
        cursor = _CURSORS.get(handle)
    except TypeError:  # a handle without weak references: keep it alive
        entry = _STRONG_CURSORS.get(id(handle))
        if entry is None or entry[0] is not handle:
            entry = _STRONG_CURSORS[id(handle)] = (handle, _new_cursor(handle, function))
        return entry[1]
    if cursor is None:
        cursor = _CURSORS[handle] = _new_cursor(handle, function)
    return cursor


def _new_cursor(handle: IO[str], function: str) -> Cursor:
    error = handle_error(handle, function)
    if error is not None:
        raise error
    return Cursor(handle)


def forget(handle: IO[str]) -> None:
    try:
        _CURSORS.pop(handle, None)
    except TypeError:
        _STRONG_CURSORS.pop(id(handle), None)
