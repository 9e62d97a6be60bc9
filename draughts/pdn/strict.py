"""The strict check behind :func:`draughts.pdn.check_strict`.

It follows the PDN 3.0 *reading* grammar (the standard's ``pdn_reading``
grammars, published in ``grammars/`` of https://github.com/wiegerw/pdn):
whitespace and ``%`` line comments between tokens, squares of one or two
digits (``01`` to ``09`` allowed), ``-`` between the squares of a move and
``x`` or ``:`` between those of a capture, comments that do not nest, and a
result or ``*`` between two games. Every place the text leaves the grammar
is reported; after an error the check goes on with the next token, so one
file gets all its errors. The last game of a file may end without a result
marker (the reading grammar allows it, and the standard's own test files do
it; :func:`~draughts.pdn.read_game` warns of it); a comment or a string the end
of the file leaves open is reported once.
"""

from __future__ import annotations

import re
from typing import IO

from draughts.pdn.headers import PdnError

# Ordered so that the first alternative that matches is the longest token the
# grammar's lexer would take: results before squares ("1-0"), move numbers
# before squares ("12."), "1-1" only when no digit follows ("1-10" is a move).
_TOKEN = re.compile(
    r"""
    (?P<space>[ \t\r\n]+)
  | (?P<percent>%[^\r\n]*)
  | (?P<result>1/2-1/2|1-0|0-1|2-0|0-2|0-0|1-1(?![0-9]))
  | (?P<number>[0-9]+\.(?:\.\.)?)
  | (?P<ellipsis>\.\.\.)
  | (?P<strength>[!?]+|\([!?]+\))
  | (?P<nag>\$[0-9]+)
  | (?P<alphamove>[a-h][1-8][a-h][1-8])
  | (?P<square>[a-h][1-8]|[1-9][0-9]?|0[1-9])
  | (?P<separator>-)
  | (?P<capture>[x:])
  | (?P<lparen>\()
  | (?P<rparen>\))
  | (?P<lbracket>\[)
  | (?P<rbracket>\])
  | (?P<star>\*)
  | (?P<setup>/[^/]*/)
  | (?P<string>"(?:[^\\"]|\\.)*")
  | (?P<comment>\{[^}]*\})
  | (?P<identifier>[A-Z][a-zA-Z0-9_]*)
    """,
    re.VERBOSE,
)

_Token = tuple[str, str, int, int]  # kind, text, line, column
_CLOSING = {"{": "}", '"': '"'}  # what ends a comment and a string


def _tokens(text: str, errors: list[PdnError]) -> list[_Token]:
    out: list[_Token] = []
    line, line_start, position = 1, 0, 0
    match_at = _TOKEN.match
    while position < len(text):
        match = match_at(text, position)
        if match is None:
            bad = text[position]
            column = position - line_start + 1
            close = _CLOSING.get(bad)
            if close is not None and close not in text[position + 1 :]:
                what = "comment" if bad == "{" else "string"
                errors.append(PdnError(line, column, f"the file ends inside a {what}", "pdn3"))
                break
            errors.append(PdnError(line, column, f"unexpected {bad!r}", "pdn3"))
            position += 1
            continue
        kind = match.lastgroup
        assert kind is not None
        if kind not in ("space", "percent"):
            out.append((kind, match.group(0), line, position - line_start + 1))
        newlines = match.group(0).count("\n")
        if newlines:
            line += newlines
            line_start = match.start() + match.group(0).rindex("\n") + 1
        position = match.end()
    return out


def check(handle: IO[str]) -> list[PdnError]:
    """Every violation of the PDN 3.0 reading grammar in the text."""
    errors: list[PdnError] = []
    text = handle.read()
    tokens = _tokens(text, errors)

    def error(token: _Token, message: str) -> None:
        errors.append(PdnError(token[2], token[3], message, "pdn3"))

    in_game = False  # something of the current game has been read
    body = False  # the current game has movetext
    items = [0]  # items in the movetext and in each open variation
    after_move = False  # the last item was a move (a strength may follow)
    i, count = 0, len(tokens)
    while i < count:
        token = tokens[i]
        kind = token[0]
        if kind == "lbracket":
            if body:
                error(token, "a result or '*' must end a game before the next game's tags")
                items = [0]
                body = False
            i = _tag(tokens, i, error)
            in_game = True
            after_move = False
            continue
        if kind in ("result", "star"):
            if len(items) > 1:
                error(token, "a game terminator inside a variation")
            elif not in_game:
                error(token, "a game terminator with no game before it")
            in_game, body, items, after_move = False, False, [0], False
            i += 1
            continue
        in_game = body = True
        if kind == "number":
            if i + 1 >= count or tokens[i + 1][0] not in ("square", "alphamove", "ellipsis"):
                error(token, "a move number must be followed by a move")
                i += 1
                continue
            i += 1
            token, kind = tokens[i], tokens[i][0]
        if kind in ("square", "alphamove", "ellipsis"):
            i = _move(tokens, i, error)
            items[-1] += 1
            after_move = True
            continue
        if kind == "strength":
            if not after_move:
                error(token, "a move strength must follow a move")
            after_move = False
        elif kind in ("comment", "setup", "nag"):
            items[-1] += 1
            after_move = False
        elif kind == "lparen":
            items[-1] += 1
            items.append(0)
            after_move = False
        elif kind == "rparen":
            if len(items) == 1:
                error(token, "')' without a variation to close")
            else:
                if not items.pop():
                    error(token, "an empty variation")
            after_move = False
        else:
            error(token, f"unexpected {token[1]!r}")
        i += 1
    if len(items) > 1:
        last = tokens[-1]
        errors.append(PdnError(last[2], last[3], "variation not closed", "pdn3"))
    errors.sort(key=lambda e: (e.line, e.column))
    return errors


def _tag(tokens: list[_Token], i: int, error: object) -> int:
    """Check ``[Name "value"]`` from ``tokens[i]``; the index after it."""
    assert callable(error)
    expected = ("identifier", "string", "rbracket")
    what = ("a tag name (a capital letter, then letters, digits or _)", "a quoted value", "']'")
    for offset, kind in enumerate(expected, 1):
        if i + offset >= len(tokens) or tokens[i + offset][0] != kind:
            where = tokens[min(i + offset, len(tokens) - 1)]
            error(where, f"a tag needs {what[offset - 1]} here")
            return i + offset
    return i + 4


def _move(tokens: list[_Token], i: int, error: object) -> int:
    """Check a move from ``tokens[i]``; the index after it (and a strength)."""
    assert callable(error)
    kind = tokens[i][0]
    i += 1
    if kind == "square":
        separators = []
        while (
            i + 1 < len(tokens)
            and tokens[i][0] in ("separator", "capture")
            and tokens[i + 1][0] == "square"
        ):
            separators.append(tokens[i][0])
            i += 2
        if not separators:
            error(tokens[i - 1], "a square must be followed by '-', 'x' or ':' and a square")
        elif "separator" in separators and len(separators) > 1:
            error(tokens[i - 1], "a move with '-' has exactly two squares")
        elif "separator" in separators and "capture" in separators:
            error(tokens[i - 1], "a move mixes '-' with 'x'")
    if i < len(tokens) and tokens[i][0] == "strength":
        i += 1
    return i
