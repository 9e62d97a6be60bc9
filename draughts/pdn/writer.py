"""PDN 3.0 writing for :mod:`draughts.pdn`: the exporters."""

from __future__ import annotations

import contextlib
import re
from typing import IO, Literal, get_args

from draughts.board import Board
from draughts.move import Move
from draughts.outcome import Outcome, ResultStyle, Termination
from draughts.pdn.headers import SKIP, BaseVisitor, SkipType, variant_of_tags
from draughts.piece import BLACK, WHITE
from draughts.variant import Variant, find_variant

# -- Writing -------------------------------------------------------------------

_WORD = re.compile(r"[^ \t\n\r\f\v]+")
# What a tag value escapes: a quote, and a backslash the reader would take for
# an escape (before a backslash, a quote or the closing quote); any other
# backslash is written as it is, as files write paths ("C:\games").
_ESCAPE = re.compile(r'"|\\(?=[\\"]|\Z)')
_STRENGTH_OF_NAG = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}
_WIN, _DRAW, _LOSS, _FORFEIT = "win", "draw", "loss", "forfeit"
_RESULT_MEANING = {
    "1-0": _WIN,
    "2-0": _WIN,
    "1:0": _WIN,
    "2:0": _WIN,
    "0-1": _LOSS,
    "0-2": _LOSS,
    "0:1": _LOSS,
    "0:2": _LOSS,
    "1/2-1/2": _DRAW,
    "1-1": _DRAW,
    "1/2:1/2": _DRAW,
    "1:1": _DRAW,
    "0-0": _FORFEIT,
    "0:0": _FORFEIT,
    "*": "*",
}


def _result_texts(style: ResultStyle) -> dict[str, str]:
    """What each meaning is written as in ``style``: a win, draw or loss as
    :meth:`Outcome.result` writes it (the one home of those strings)."""
    win, loss = (Outcome(Termination.BLOCKED, color, style).result() for color in (WHITE, BLACK))
    draw = Outcome(Termination.AGREEMENT, None, style).result()
    return {_WIN: win, _DRAW: draw, _LOSS: loss, _FORFEIT: "0-0", "*": "*"}


_RESULT_TEXT = {style: _result_texts(style) for style in get_args(ResultStyle)}

Results = Literal["2-0", "1-0", "variant"]
"""The result styles an exporter may write results in (see :class:`StringExporter`)."""
_STYLE_OF: dict[str, ResultStyle] = {"2-0": "international", "1-0": "default"}


def normal_result(result: str, variant: Variant | str) -> str | None:
    """``result`` in the variant's PDN 3.0 result style, None if it is not
    a result.

    >>> from draughts import find_variant
    >>> normal_result("1/2:1/2", find_variant("russian")), normal_result("1-0", "international")
    ('1/2-1/2', '2-0')
    """
    meaning = _RESULT_MEANING.get(result.strip())
    if meaning is None:
        return None
    return _RESULT_TEXT[find_variant(variant).result_style][meaning]


_POINTS = {_WIN: (1.0, 0.0), _DRAW: (0.5, 0.5), _LOSS: (0.0, 1.0), _FORFEIT: (0.0, 0.0)}


def result_points(result: str, variant: Variant | str) -> tuple[float, float] | None:
    """White's and Black's points in the PDN result ``result`` of a game of
    ``variant``, None if it gives none (``*``, or a text that is not a result).

    The first number of a result is the score of the side that moves first
    (as :meth:`Outcome.result <draughts.Outcome.result>` writes it): White's
    in International draughts, Black's in English draughts.

    >>> result_points("2-0", "international")
    (1.0, 0.0)
    >>> result_points("1-0", "english")  # Black, who moves first, won
    (0.0, 1.0)
    >>> result_points("1/2-1/2", "english"), result_points("*", "english")
    ((0.5, 0.5), None)
    """
    meaning = _RESULT_MEANING.get(result.strip())
    if meaning is None or meaning == "*":
        return None
    first, second = _POINTS[meaning]
    return (first, second) if find_variant(variant).first_color == WHITE else (second, first)


class StringExporter(BaseVisitor[str]):
    """Writes a game as PDN 3.0 text, lines wrapped at ``columns``.

    Moves are written short unless ambiguous, in the variant's notation;
    move strengths ``!`` to ``?!`` follow the move, other NAGs are ``$n``.
    Tags are written as they are, the ``Result`` tag included, and the game
    terminator as the result given, in PDN 3.0 form (``0-1`` for ``0:1``,
    ``*`` for a text that is not a result).
    ``results`` writes both in one style instead: ``"2-0"`` (``2-0``,
    ``1-1``, ``0-2``), ``"1-0"`` (``1-0``, ``1/2-1/2``, ``0-1``) or
    ``"variant"`` (each game's variant's own, see :func:`normal_result`).

    >>> from draughts.pdn import Game
    >>> game = Game(variant="russian")
    >>> node = game.add_variation(game.board().parse_pdn("c3-d4"), comment="main")
    >>> _ = game.add_variation(game.board().parse_pdn("a3-b4"), nags=[5])
    >>> print(game.accept(StringExporter(headers=False)))
    1. c3-d4 {main} (1. a3-b4!?) *
    >>> game.headers["Result"] = "1/2-1/2"
    >>> print(game.accept(StringExporter(results="2-0")).splitlines()[6])
    [Result "1-1"]
    """

    def __init__(
        self,
        *,
        headers: bool = True,
        comments: bool = True,
        variations: bool = True,
        columns: int = 80,
        results: Results | None = None,
    ) -> None:
        if results is not None and results not in get_args(Results):
            raise ValueError(f"results must be one of {', '.join(get_args(Results))}: {results!r}")
        self.headers = headers
        self.comments = comments
        self.variations = variations
        self.columns = columns
        self.results = results
        self._lines: list[str] = []
        self._reset()

    def _reset(self) -> None:
        self._line: list[str] = []
        self._width = 0
        self._prefix = ""
        self._number_due = True
        self._variant: Variant | None = None
        self._tags: dict[str, str] | None = {}
        self._fresh = True  # no line of the game written yet

    def _flush(self) -> None:
        if self._line:
            self._emit(" ".join(self._line))
        self._line = []
        self._width = 0

    def _emit(self, line: str) -> None:
        self._fresh = False
        self._write_line(line)

    def _write_line(self, line: str) -> None:
        self._lines.append(line)

    def _put(self, token: str) -> None:
        token = self._prefix + token
        self._prefix = ""
        if self._line and self._width + 1 + len(token) > self.columns:
            self._flush()
        self._width += len(token) + (1 if self._line else 0)
        self._line.append(token)

    def _append(self, suffix: str) -> None:
        """Glue ``suffix`` to the last token, moving that token to a new
        line if the line would get too long."""
        if not self._line:
            self._put(suffix)
            return
        last = self._line[-1] + suffix
        if self._width + len(suffix) > self.columns and len(self._line) > 1:
            self._line.pop()
            self._flush()
            self._line, self._width = [last], len(last)
        else:
            self._line[-1] = last
            self._width += len(suffix)

    def begin_game(self) -> None:
        self._reset()

    def visit_header(self, name: str, value: str) -> None:
        if self._tags is not None:
            self._tags[name] = value

    def visit_board(self, board: Board) -> None:
        self._variant = board.variant

    def _write_headers(self) -> None:
        """Write the tags, once, when the variant (for the result style) is known."""
        if self._tags is None:
            return
        tags, self._tags = self._tags, None
        if self.results == "variant" and self._variant is None:
            with contextlib.suppress(ValueError):  # an unknown GameType: results kept as read
                self._variant = variant_of_tags(tags.get("GameType"), tags.get("Variant"), None)
        if not self.headers or not tags:
            return
        for name, value in tags.items():
            if name == "Result":
                value = self._result(value) or value
            escaped = _ESCAPE.sub(r"\\\g<0>", value)
            self._emit(f'[{name} "{escaped}"]')
        if "Result" not in tags:
            self._emit('[Result "*"]')
        self._emit("")

    def visit_move(self, board: Board, move: Move) -> None:
        self._write_headers()
        ply = board.ply()
        first = board.turn == board.variant.first_color
        offset = (ply % 2) ^ (0 if first else 1)
        number = (ply + offset) // 2 + 1
        if first:
            self._put(f"{number}.")
        elif self._number_due:
            self._put(f"{number}...")
        self._put(board.pdn(move))
        self._number_due = False

    def visit_nag(self, nag: int) -> None:
        strength = _STRENGTH_OF_NAG.get(nag)
        if strength is not None and self._line and self._line[-1][-1] not in "!?":
            self._append(strength)
        else:
            self._put(f"${nag}")

    def visit_comment(self, comment: str) -> None:
        self._write_headers()
        if not self.comments:
            return
        # Word by word, so the comment wraps; the reader folds the line breaks
        # back into spaces. A "}" would end the comment early: it becomes "]".
        self._prefix += "{"
        for word in _WORD.finditer(comment.replace("}", "]")):
            self._put(word.group(0))
        if self._prefix:  # an empty comment
            self._put("}")
        else:
            self._append("}")
        self._number_due = True

    def visit_unparsed(self, text: str) -> None:
        """Write text an error left out of the game as it was read, on lines
        of its own: joined to the tokens around it, it could read as
        something else (``32-28`` and ``-23`` as one move)."""
        self._write_headers()
        if self._prefix:  # the "(" of a side line that starts with it
            self._put("")
        self._flush()
        if self._fresh and text.startswith("\ufeff"):
            # Not first in a file, where it would be read as a byte order mark.
            self._emit("")
        for line in text.split("\n"):
            self._emit(line)
        self._number_due = True

    def begin_variation(self) -> SkipType | None:
        if not self.variations:
            return SKIP
        self._prefix += "("
        self._number_due = True
        return None

    def end_variation(self) -> None:
        self._append(")")
        self._number_due = True

    def _result(self, result: str) -> str | None:
        """``result`` in the style asked for (as it is without one), None
        if it is not a result."""
        style = _STYLE_OF.get(self.results or "")
        if style is None and self.results == "variant" and self._variant is not None:
            style = self._variant.result_style
        meaning = _RESULT_MEANING.get(result.strip())
        if meaning is None:
            return None
        return result.strip() if style is None else _RESULT_TEXT[style][meaning]

    def visit_result(self, result: str) -> None:
        self._write_headers()
        # PDN 3.0 terminators have no colon: "0:1" ends the game as "0-1"
        # (the Result tag keeps the form it was read in).
        self._put((self._result(result) or "*").replace(":", "-"))

    def end_game(self) -> None:
        self._write_headers()
        self._flush()

    def result(self) -> str:
        text = "\n".join(self._lines)
        self._lines = []
        return text


class FileExporter(StringExporter):
    """Writes games to an open text file, each followed by a blank line;
    :meth:`result` is the number of characters written for the game.

    >>> import io
    >>> from draughts.pdn import Game
    >>> out = io.StringIO()
    >>> Game(variant="english").accept(FileExporter(out)) == len(out.getvalue())
    True
    >>> out.getvalue().splitlines()[-3:]
    ['', '*', '']
    """

    def __init__(
        self,
        handle: IO[str],
        *,
        headers: bool = True,
        comments: bool = True,
        variations: bool = True,
        columns: int = 80,
        results: Results | None = None,
    ) -> None:
        super().__init__(
            headers=headers,
            comments=comments,
            variations=variations,
            columns=columns,
            results=results,
        )
        self.handle = handle
        self._written = 0

    def begin_game(self) -> None:
        super().begin_game()
        self._written = 0

    def _write_line(self, line: str) -> None:
        self._written += self.handle.write(line + "\n")

    def end_game(self) -> None:
        super().end_game()
        self._written += self.handle.write("\n")

    def result(self) -> int:  # type: ignore[override]
        return self._written
