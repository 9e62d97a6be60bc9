"""The liberal PDN reader behind :func:`draughts.pdn.read_game`.

One compiled regular expression splits each line into tokens; the reader
feeds them to a visitor while it replays the moves on a board. It reads the
file a line at a time and stops after the game terminator, leaving the rest
of that line for the next call, so a file of any size is read in constant
memory. Nothing in it recurses, so nesting depth is not limited.
"""

from __future__ import annotations

import codecs
import re
import weakref
from collections.abc import Iterator
from typing import IO, Any

from draughts.pdn.headers import SKIP, BaseVisitor, PdnError, variant_of_tags
from draughts.board import Board
from draughts.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from draughts.move import Move
from draughts.variant import Variant

# Alternatives are tried in order at each position, so results come before
# moves ("1-0" is not a move) and move numbers before moves ("12." is not a
# square). The last alternative catches any other character, so no text is
# skipped silently.
_SQ = r"(?:[a-zA-Z][0-9]{1,2}|[0-9]{1,3})"
_TOKEN = re.compile(
    r"""
    (?P<tag>\[[ \t]*(?P<name>[A-Za-z0-9_]+)[ \t]*"(?P<value>(?:[^"\\\n]|\\.)*)"[ \t]*\])
  | (?P<tag2>\[[ \t]*(?P<name2>[A-Za-z0-9_]+)[ \t]*(?P<value2>[^\]\n]*)\])
  | \{(?P<comment>[^}]*)(?P<cclose>\}?)
  | (?P<semicolon>;[^\n]*)
  | (?P<percent>%[^\n]*)
  | /(?P<setup>[^/\n]*)/
  | (?P<result>(?:1/2[-:]1/2|[12][-:]0|0[-:][012]|1[-:]1)(?![0-9]))
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
    """.replace("SQ", _SQ),
    re.VERBOSE,
)

_NAG_OF_STRENGTH = {
    "!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6, "*": 7,
    "(!)": 1, "(?)": 2, "(!!)": 3, "(??)": 4, "(!?)": 5, "(?!)": 6,
}
_SQUARE = re.compile(r"[a-wyz][0-9]{1,2}|[0-9]+")  # not "x": "28x17" is 28 and 17
_SETUP_FEN = re.compile(r'^\s*(?:FEN\s*"([^"]*)"|([^"]*))\s*$')
_ERROR_KIND = ((AmbiguousMoveError, "ambiguous"), (IllegalMoveError, "illegal"),
               (InvalidMoveError, "invalid"))


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


class _Cursor:
    """Where reading of one handle stands: the line number and the part of
    the last line that belongs to the next game."""

    __slots__ = ("__weakref__", "handle", "line_number", "pending")

    def __init__(self, handle: IO[str]) -> None:
        self.handle = handle
        self.line_number = 0
        self.pending: tuple[str, int] | None = None

    def push_back(self, line: str, position: int) -> None:
        self.pending = (line, position)

    def tokens(self) -> Iterator[tuple[str, Any, int, int]]:
        """``(kind, match, line, column)``; a comment spanning lines comes as
        ``("comment", text, line, column)``, and one never closed as
        ``("open_comment", text, line, column)``. A line of nothing but move
        numbers and plain moves (see :data:`_PLAIN_LINE`) comes whole, as
        ``("line", match, line, 1)``: the reader takes its moves itself, or
        pushes it back to have it tokenized here, as a pushed-back line
        always is."""
        readline = self.handle.readline
        search = _TOKEN.search
        while True:
            if self.pending is not None:
                line, position = self.pending
                self.pending = None
            else:
                line = readline()
                if not line:
                    return
                self.line_number += 1
                position = 0
                if self.line_number == 1 and line.startswith("\ufeff"):
                    position = 1  # a byte order mark the handle's codec left in
                else:
                    plain = _PLAIN_LINE.fullmatch(line)
                    if plain is not None:
                        yield "line", plain, self.line_number, 1
                        continue
            while True:
                match = search(line, position)
                if match is None:
                    break
                position = match.end()
                kind = match.lastgroup or "junk"
                if kind == "cclose" and not match.group("cclose"):
                    start_line, column = self.line_number, match.start() + 1
                    parts = [match.group("comment")]
                    while True:
                        line = readline()
                        if not line:
                            yield "open_comment", " ".join(parts), start_line, column
                            return
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
                    end = _prose_end(line, position)
                    if end > 0:
                        # Nemesis writes annotations in parentheses: a
                        # "variation" with words in it is a comment.
                        yield "prose", line[position:end - 1], self.line_number, position
                        position = end
                        continue
                yield kind, match, self.line_number, match.start() + 1


# A line of nothing but move numbers and moves like "32-28", "19x28" or
# "1- 7", maybe ending with the result: most of a game's movetext. The token
# regex tries a dozen alternatives for each token (1.8 searches per ply) and
# each token is a trip through the generator, so the reader takes such a line
# whole and picks its moves out with one findall. The grammar is the token
# regex's on these tokens, made unambiguous so that a failed match does not
# backtrack: squares start with 1-9 so that no move is a result ("2-0",
# "0-1"; "1-1" is excluded by name), and a move ends at whitespace, as the
# token regex would end it there.
_PLAIN_MOVE = re.compile(r"[1-9][0-9]?[ \t]*[-x][ \t]*[1-9][0-9]?")
_PLAIN_LINE = re.compile(
    r"""\s*(?:[0-9]+\.\s*|(?!1-1(?:\s|\Z))MOVE(?:\s+|\Z))+
        (?P<end>(?:[12]-0|0-[012]|1-1|1/2-1/2|\*)\s*)?""".replace("MOVE", _PLAIN_MOVE.pattern),
    re.VERBOSE,
)


# The text of a parenthesis with at most one level of parentheses inside; the
# two alternatives start with different characters, so matching is linear.
_PAREN_BODY = re.compile(r"(?:[^(){}\n]|\([^(){}\n]*\))*\)")
_PROSE = re.compile(r"[A-Za-z]{3}|^\s*[A-Za-z]+(?![A-Za-z0-9])")


def _prose_end(line: str, start: int) -> int:
    """The position after the ``)`` that closes the ``(`` before ``start``
    when the text between is prose, not moves; else 0."""
    match = _PAREN_BODY.match(line, start)
    if match is None:
        return 0
    body = match.group(0)[:-1]
    if not _PROSE.search(body) or "/" in body:
        return 0
    return match.end()


_CURSORS: weakref.WeakKeyDictionary[Any, _Cursor] = weakref.WeakKeyDictionary()
_STRONG_CURSORS: dict[int, tuple[Any, _Cursor]] = {}


def _cursor(handle: IO[str]) -> _Cursor:
    try:
        cursor = _CURSORS.get(handle)
        if cursor is None:
            cursor = _CURSORS[handle] = _Cursor(handle)
        return cursor
    except TypeError:  # a handle without weak references: keep it alive
        entry = _STRONG_CURSORS.get(id(handle))
        if entry is None or entry[0] is not handle:
            entry = _STRONG_CURSORS[id(handle)] = (handle, _Cursor(handle))
        return entry[1]


def _forget(handle: IO[str]) -> None:
    try:
        _CURSORS.pop(handle, None)
    except TypeError:
        _STRONG_CURSORS.pop(id(handle), None)


class _Resolver:
    """Finds the legal move a move text names, fast for the common short
    form and through :meth:`Board.parse_pdn` for everything else."""

    def __init__(self, variant: Variant) -> None:
        self.number = {variant.square_name(n): n for n in variant.squares}
        self.algebraic = variant.notation == "algebraic"
        self.variant = variant
        # A move of a plain line ("32-28", "1- 7") -> what word() says of it.
        self.words: dict[str, tuple[int, int, bool]] = {}

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
        """A move of a plain line (see :data:`_PLAIN_LINE`): its squares, and
        whether it is written as a capture; None if the board has no such
        square."""
        capture = "x" in text
        first, second = text.split("x" if capture else "-")
        origin, destination = self.number.get(first.strip()), self.number.get(second.strip())
        if origin is None or destination is None:
            return None
        found = self.words[text] = (origin, destination, capture)
        return found

    def resolve(self, board: Board, text: str) -> Move:
        """The legal move ``text`` names, in any form the reader knows.

        :raises ValueError: (an :class:`InvalidMoveError`,
            :class:`IllegalMoveError` or :class:`AmbiguousMoveError`).
        """
        if self.algebraic and len(text) == 3 and text[1].isalpha():
            return self._file_and_square(board, text)
        match = _TOKEN.fullmatch(text)
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
        return any(move.from_square == squares[0] and squares[-1] in move.path[1:-1]
                   for move in board.legal_moves if move.captures)

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
        if len(tail) < 2 or head[-1] != tail[0]:
            return None
        return "x".join(head + tail[1:])

    def _file_and_square(self, board: Board, text: str) -> Move:
        """Old Russian short notation: the origin's file and the destination
        (``ed4``: the piece on the e-file that can go to d4)."""
        destination = self.number.get(text[1:])
        if destination is None:
            raise InvalidMoveError(f"no square {text[1:]!r} on the board: {text!r}")
        variant = board.variant
        found = [m for m in board.legal_moves if m.to_square == destination
                 and variant.square_name(m.from_square)[0] == text[0]]
        if len(found) == 1:
            return found[0]
        if not found:
            raise IllegalMoveError(f"illegal move {text!r} in {board.fen()}")
        listed = ", ".join(board.pdn(m, long=True) for m in found)
        raise AmbiguousMoveError(f"ambiguous move {text!r} in {board.fen()}: it could be "
                                 f"{listed}", tuple(found))


_RESOLVERS: dict[Variant, _Resolver] = {}


def _resolver(variant: Variant) -> _Resolver:
    resolver = _RESOLVERS.get(variant)
    if resolver is None:
        resolver = _RESOLVERS[variant] = _Resolver(variant)
    return resolver


class _Unparsed:
    """Text kept after a rejected move, until the end of its variation or game."""

    __slots__ = ("column", "depth", "fen", "kind", "line", "message", "nesting", "parts")

    def __init__(self, line: int, column: int, message: str, kind: str, fen: str | None,
                 depth: int) -> None:
        self.line, self.column, self.message, self.kind, self.fen = (
            line, column, message, kind, fen)
        self.depth = depth
        self.nesting = 0
        self.parts: list[str] = []

    def error(self) -> PdnError:
        return PdnError(self.line, self.column, self.message, self.kind, self.fen,
                        " ".join(self.parts))


def _strength(visitor: BaseVisitor[Any], strength: str) -> None:
    """A move strength as its NAG; one with no NAG (``!!?``) as a comment."""
    nag = _NAG_OF_STRENGTH.get(strength)
    if nag is None:
        visitor.visit_comment(strength)
    else:
        visitor.visit_nag(nag)


_MESSAGE_LIMIT = 500


def _short(message: str) -> str:
    """The message, cut in the middle if the text it quotes is huge."""
    if len(message) <= _MESSAGE_LIMIT:
        return message
    half = _MESSAGE_LIMIT // 2
    return f"{message[:half]} ... ({len(message) - 2 * half} characters) ... {message[-half:]}"


_WHITESPACE = str.maketrans("\t\n\r\f\v", "     ")


def _comment_text(text: str) -> str:
    """Whitespace folded to single spaces. Done with whole-string operations
    (split/join or a regex would make an object per word of a huge comment)."""
    text = text.translate(_WHITESPACE)
    while "  " in text:
        text = text.replace("    ", " ").replace("  ", " ")
    return text.strip()


def read(handle: IO[str], visitor: BaseVisitor[Any], default: Variant | str | int | None
         ) -> Any:
    """Read one game from ``handle`` into ``visitor``; None at the end."""
    cursor = _cursor(handle)
    visitor.begin_game()
    visitor.begin_headers()
    found = False          # a tag or movetext token was seen
    in_headers = True
    special: dict[str, tuple[str, int, int]] = {}   # GameType, Variant, FEN
    early_comments: list[str] = []
    board: Board = _NO_BOARD
    resolver: _Resolver = _NO_RESOLVER
    preset: Variant | None = None   # the GameType's own numbering, if the tag gave another
    skip_all = False       # the visitor skips the moves
    frames: list[tuple[int, Move]] = []   # open variations: (ply, main move)
    moves_here = [0]       # moves played in each open line
    skipped = 0            # nesting inside a variation the visitor skips
    dead = 0               # nesting inside a variation that has no move before it
    bad: _Unparsed | None = None
    result: str | None = None
    nesting = 0            # parentheses open in the movetext, whatever is skipped
    plain = False          # moves are being replayed: none of the states above
    split: tuple[str, int, int, str, ValueError] | None = None   # a capture's first part
    # An ambiguous move waiting for the next moves to tell which it is: a board
    # and the moves for each reading, the moves read since, where it was, why.
    guess: tuple[list[tuple[Board, list[Move]]], list[tuple[re.Match[str], int, int]],
                 re.Match[str], int, int, ValueError] | None = None

    def report(line: int, column: int, message: str, kind: str) -> None:
        visitor.handle_error(PdnError(line, column, _short(message), kind))

    def start_moves(line: int, column: int) -> None:
        nonlocal in_headers, skip_all, board, resolver, bad, preset
        in_headers = False
        if visitor.end_headers() is SKIP:
            skip_all = True
            return
        gametype = special.get("GameType")
        variant_tag = special.get("Variant")
        try:
            variant = variant_of_tags(gametype and gametype[0], variant_tag and variant_tag[0],
                                      default)
        except ValueError as error:
            where = gametype or variant_tag or ("", line, column)
            bad = _Unparsed(where[1], where[2], _short(str(error)), "variant", None, 0)
            return
        fen = special.get("FEN")
        fen_text = fen[0] if fen and fen[0].strip() else None
        try:
            board = _start(variant) if fen_text is None else Board(fen_text, variant=variant)
        except ValueError as error:
            assert fen is not None
            bad = _Unparsed(fen[1], fen[2], _short(f"invalid FEN tag: {error}"), "fen", None, 0)
            return
        preset = _preset_numbering(variant, gametype and gametype[0])
        resolver = _resolver(variant)
        visitor.visit_board(board)
        for comment in early_comments:
            visitor.visit_comment(comment)

    def fail(error: ValueError, line: int, column: int, raw: str) -> None:
        nonlocal bad, plain
        kind_name = next((name for cls, name in _ERROR_KIND if isinstance(error, cls)),
                         "illegal")
        bad = _Unparsed(line, column, _short(str(error)), kind_name, board.fen(), len(frames))
        bad.parts.append(raw)
        plain = False

    def unsettled() -> None:
        """A move waiting for the next one, which did not come: an error."""
        nonlocal split, guess
        if split is not None:
            fail(split[4], split[1], split[2], split[3])
        elif guess is not None:
            _, later, first, line, column, error = guess
            fail(error, line, column, first.group(0))
            assert bad is not None
            bad.parts += [m.group(0) for m, _, _ in later]
        split = guess = None

    def notation_warning(move: Move, text: str, line: int, column: int) -> None:
        # Liberal reading matched it anyway; the strict check tells.
        written = "'-'" if move.captures else "a capture separator"
        visitor.handle_warning(PdnError(
            line, column, f"{text!r} is written with {written} but is "
            f"{board.pdn(move, long=False)}", "notation", board.fen()))

    def commit(move: Move, text: str, match: re.Match[str], line: int, column: int) -> None:
        nonlocal preset
        preset = None
        if ("-" in text) if move.captures else ("x" in text or ":" in text or "X" in text):
            notation_warning(move, text, line, column)
        visitor.visit_move(board, move)
        board.push(move)
        moves_here[-1] += 1
        strength = match.group("strength")
        if strength:
            _strength(visitor, strength)

    def settle(match: re.Match[str], line: int, column: int) -> None:
        """Follow every reading of an ambiguous move with the moves after it
        until only one reading can play them."""
        nonlocal guess
        assert guess is not None
        lines, later, first, first_line, first_column, error = guess
        later.append((match, line, column))
        text = match.group("squares")
        alive = []
        for line_board, line_moves in lines:
            try:
                move = resolver.resolve(line_board, text)
            except ValueError:
                continue
            line_board.push(move)
            line_moves.append(move)
            alive.append((line_board, line_moves))
        guess = (alive, later, first, first_line, first_column, error)
        if len(alive) == 1:
            guess = None
            chosen = alive[0][1]
            visitor.handle_warning(PdnError(
                first_line, first_column, f"ambiguous move {first.group('squares')!r} read as "
                f"{board.pdn(chosen[0], long=True)}, the only one the moves after it can "
                "follow", "notation", board.fen()))
            commit(chosen[0], first.group("squares"), first, first_line, first_column)
            for move, (later_match, later_line, later_column) in zip(chosen[1:], later,
                                                                     strict=True):
                commit(move, later_match.group("squares"), later_match, later_line,
                       later_column)
        elif not alive or len(later) >= _LOOKAHEAD:
            unsettled()

    def play(match: re.Match[str], line: int, column: int) -> None:
        nonlocal board, resolver, split, guess
        if guess is not None:
            settle(match, line, column)
            return
        text = match.group("squares")
        if split is not None:
            # The old split form of a capture, "4x31 31x42": join the parts.
            first, first_line, first_column, raw, error = split
            split = None
            joined = resolver.join(first, text)
            if joined is None:
                fail(error, first_line, first_column, raw)
                assert bad is not None
                bad.parts.append(match.group(0))
                return
            text, line, column = joined, first_line, first_column
        try:
            move = resolver.resolve(board, text)
        except AmbiguousMoveError as error:
            # Old records write ambiguous captures short; the next moves may tell.
            lines = []
            for candidate in error.candidates:
                if isinstance(candidate, Move):
                    line_board = board.copy(stack=False)
                    line_board.push(candidate)
                    lines.append((line_board, [candidate]))
            guess = (lines, [], match, line, column, error)
            return
        except ValueError as error:
            if resolver.begins_capture(board, text):
                split = (text, line, column, match.group(0), error)
                return
            retry = None
            if preset is not None and not frames and not moves_here[0]:
                retry = _renumbered(special.get("FEN"), preset, text)
            if retry is None:
                fail(error, line, column, match.group(0))
                return
            # The file numbers its squares as the GameType's preset does,
            # whatever the full GameType says (kurnik exports).
            board, move = retry
            resolver = _resolver(board.variant)
            visitor.visit_board(board)
        commit(move, text, match, line, column)

    for kind, match, line, column in cursor.tokens():
        if kind == "line":
            # A plain line (see _PLAIN_LINE): its move numbers change nothing
            # while moves are being replayed, so only the moves are looked at.
            # Anything out of the ordinary (another state, a move that is not
            # the only legal one between its squares or is written with the
            # wrong separator) sends the line, from that move on, back to the
            # tokenizer and the code below, which reports it. So does the
            # result, which ends the game.
            text = match.string
            if in_headers:  # as the first number or move below would
                found = True
                start_moves(line, len(text) - len(text.lstrip()) + 1)
                plain = not (skip_all or bad)
            if not plain or split is not None or guess is not None:
                cursor.push_back(text, 0)
                continue
            end = match.start("end")
            if end < 0:
                end = len(text)
            push = board.push
            matching = board.moves_between
            visit_move = visitor.visit_move
            words = resolver.words
            played = 0
            for number, word in enumerate(_PLAIN_MOVE.findall(text, 0, end)):
                squares = words.get(word) or resolver.word(word)
                if squares is not None:
                    origin, destination, capture = squares
                    found = matching(origin, destination)
                    # The only legal move between the squares, written with
                    # the right separator: play it.
                    if len(found) == 1 and bool(found[0].captures) == capture:
                        chosen = found[0]
                        visit_move(board, chosen)
                        push(chosen)
                        played += 1
                        continue
                end = [m.start() for m in _PLAIN_MOVE.finditer(text, 0, end)][number]
                break
            moves_here[-1] += played
            if end < len(text):
                cursor.push_back(text, end)
            continue
        if (split is not None or guess is not None) and kind not in _BETWEEN_MOVES:
            unsettled()
        if kind == "move" and plain and split is None and guess is None:
            # The common case first: a short move in a line being replayed.
            move = resolver.quick(board, match)
            if move is None:
                play(match, line, column)
                continue
            commit(move, match.group("squares"), match, line, column)
            continue
        if kind == "percent":
            continue
        if kind == "number" or kind == "ellipsis":
            if in_headers:
                found = True
                start_moves(line, column)
                plain = not (skip_all or bad)
            if bad is not None:
                bad.parts.append(match.group(0))
            continue
        if kind == "tag" or kind == "tag2":
            if not in_headers:
                cursor.push_back(match.string, match.start())
                break
            found = True
            if kind == "tag":
                name = match.group("name")
                value = match.group("value")
                if "\\" in value:
                    value = _UNESCAPE.sub(r"\1", value)
            else:
                name = match.group("name2")
                value = match.group("value2").strip().strip('"')
            visitor.visit_header(name, value)
            if name in ("GameType", "Variant", "FEN"):
                special[name] = (value, line, column)
            continue
        if kind in ("comment", "cclose", "semicolon", "open_comment", "prose"):
            if isinstance(match, str):
                text = match
            elif kind == "semicolon":
                text = match.group("semicolon")[1:]
            elif kind == "prose":
                text = match
            else:
                text = match.group("comment")
            if kind == "open_comment":
                report(line, column, "comment not closed before the end of the file", "syntax")
            if bad is not None:
                bad.parts.append("{" + _comment_text(text) + "}")
            elif in_headers:
                early_comments.append(_comment_text(text))
            elif not (skip_all or skipped or dead) and text.strip():
                visitor.visit_comment(_comment_text(text))
            continue

        found = True
        if in_headers:
            start_moves(line, column)
        if kind == "open":
            nesting += 1
        elif kind == "close":
            nesting -= 1
        if (kind == "result" or kind == "star") and nesting <= 0:
            result = match.group(0)
            cursor.push_back(match.string, match.end())
            break
        if skip_all:
            continue
        if bad is not None:
            if kind == "open":
                bad.nesting += 1
            elif kind == "close":
                if bad.nesting == 0 and bad.depth > 0:
                    visitor.handle_error(bad.error())
                    bad = None  # and close the variation below
                else:
                    bad.nesting -= 1
            if bad is not None:
                bad.parts.append(match.group(0))
                continue
        if skipped or dead:
            if kind == "open":
                if skipped:
                    skipped += 1
                else:
                    dead += 1
            elif kind == "close":
                if skipped:
                    skipped -= 1
                else:
                    dead -= 1
            plain = not (skipped or dead)
            continue
        plain = True
        if kind == "move":
            play(match, line, column)
            continue
        if kind == "nag":
            if moves_here[-1]:
                visitor.visit_nag(int(match.group("nag")))
            else:
                report(line, column, f"{match.group(0)} before any move of its line", "syntax")
        elif kind == "strength2":
            if moves_here[-1]:
                _strength(visitor, match.group(0))
            else:
                report(line, column, f"move strength {match.group(0)!r} without a move", "syntax")
        elif kind == "open":
            if not moves_here[-1]:
                report(line, column, "a variation must follow a move", "syntax")
                dead = 1
                plain = False
            elif visitor.begin_variation() is SKIP:
                skipped = 1
                plain = False
            else:
                main = board.pop()
                frames.append((board.ply(), main))
                moves_here.append(0)
        elif kind == "close":
            if not frames:
                report(line, column, "')' without a variation to close", "syntax")
                continue
            ply, main = frames.pop()
            moves_here.pop()
            while board.ply() > ply:
                board.pop()
            board.push(main)
            visitor.end_variation()
        elif kind == "setup":
            fen_match = _SETUP_FEN.match(match.group("setup"))
            fen = (fen_match.group(1) or fen_match.group(2)) if fen_match else ""
            if frames or moves_here[0]:
                bad = _Unparsed(line, column, "a setup after the first move is not supported",
                                "setup", board.fen(), len(frames))
                bad.parts.append(match.group(0))
                plain = False
                continue
            try:
                board = Board(fen, variant=board.variant)
            except ValueError as error:
                bad = _Unparsed(line, column, _short(f"invalid setup: {error}"), "fen", None, 0)
                plain = False
                continue
            preset = None
            visitor.visit_header("FEN", board.fen())
            visitor.visit_board(board)
        elif kind == "result" or kind == "star":
            continue  # a result inside a variation ends that line only
        elif match.group(0) in ("-", "--"):
            # "41. - -": the record does not know the moves; keep the rest as text.
            bad = _Unparsed(line, column, "a move the record does not give ('-')", "syntax",
                            board.fen(), len(frames))
            bad.parts.append(match.group(0))
            plain = False
        else:  # junk
            report(line, column, f"unexpected {match.group(0)!r}", "syntax")

    if not found:
        _forget(handle)  # at the end: a handle read again (after seek(0)) starts afresh
        return None
    unsettled()
    if in_headers:
        start_moves(cursor.line_number, 1)
    if bad is not None:
        visitor.handle_error(bad.error())
    if frames or skipped or dead:
        report(cursor.line_number, 1, "variation not closed before the end of the game",
               "syntax")
        for _ in frames:
            visitor.end_variation()
    if result is not None:
        visitor.visit_result(result)
    visitor.end_game()
    return visitor.result()


_LOOKAHEAD = 8  # moves to follow an ambiguous move before giving up
# Tokens that may stand between the parts of a split capture or between an
# ambiguous move and the moves that settle it ("57. f4xd2 e1xc3 58. c3xe5").
_BETWEEN_MOVES = frozenset(("move", "number", "ellipsis", "percent"))
_UNESCAPE = re.compile(r"\\(.)")
_NO_BOARD = Board()
_STARTS: dict[Variant, Board] = {}


def _start(variant: Variant) -> Board:
    """A new board at the variant's start. Copying one kept for the purpose
    costs a twentieth of ``Board(variant=...)``, which parses the FEN and
    computes the position key."""
    start = _STARTS.get(variant)
    if start is None:
        start = _STARTS[variant] = Board(variant=variant)
    return start.copy()

_NO_RESOLVER = _Resolver(_NO_BOARD.variant)


def _preset_numbering(variant: Variant, gametype: str | None) -> Variant | None:
    """The preset of the GameType number when a full GameType gave ``variant``
    another numbering, else None."""
    if not gametype or "," not in gametype:
        return None
    try:
        preset = variant_of_tags(gametype.split(",")[0], None, None)
    except ValueError:
        return None
    if preset == variant or (preset.width, preset.height) != (variant.width, variant.height):
        return None
    return preset


def _renumbered(fen: tuple[str, int, int] | None, preset: Variant, text: str
                ) -> tuple[Board, Move] | None:
    """The board and first move under the preset's numbering, if it takes the move."""
    try:
        board = Board(fen[0] if fen and fen[0].strip() else None, variant=preset)
        return board, _resolver(preset).resolve(board, text)
    except ValueError:
        return None
