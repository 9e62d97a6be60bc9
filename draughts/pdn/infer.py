"""The variant of a game whose tags name none, chosen from the evidence.

PDN 3.0 reads a game without a ``GameType`` tag as international draughts,
but most old files leave the tag out whatever they hold. When neither the
caller (``variant=``) nor the tags name a variant, the reader reads the
game's moves ahead (:func:`read_ahead`) and :func:`choose` picks the variant:

1. Ruled out by the evidence: a candidate whose board has no square the FEN
   tag or the moves use, or on which the FEN tag cannot be set up.
2. Ranked by the evidence: the notation the squares are written in (numbers
   or algebraic); for a FEN tag that is an opening position (no kings,
   nearly every man), how few men stand on their crowning row and whether
   the side to move is the one that moves first; for a FEN tag the smallest
   board it fits. Ties go to the commoner variant (:data:`CANDIDATES`).
3. Replayed in that order: the first candidate that replays every move
   without an error is chosen. The candidates ranked after it that replay
   every move too are named in the warning (:attr:`Choice.alike`): the
   choice was a guess. When no candidate replays every move, the one that
   plays most moves before its first error is chosen.

The result depends on the game alone, never on the games before it, so a
file split into pieces (``draughts validate --jobs``) reads the same. What
the other games of a file say is weighed by :mod:`draughts.pdn.validation`,
which reads a game the moves leave open as the variant its file's decided
games chose.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from draughts._context import context
from draughts._core.geometry import square_count
from draughts._fen import format_fen, parse_fen
from draughts.board import Board
from draughts.errors import InvalidFenError
from draughts.pdn.lexer import PLAIN_MOVE, Cursor, where
from draughts.piece import KING, Color
from draughts.variant import (
    ANTIDRAUGHTS,
    BRAZILIAN,
    BREAKTHROUGH,
    CANADIAN,
    CZECH,
    ENGLISH,
    FRISIAN,
    FRYSK,
    INTERNATIONAL,
    ITALIAN,
    POOL,
    PORTUGUESE,
    RUSSIAN,
    SPANISH,
    THAI,
    TURKISH,
    Variant,
)

__all__ = ["CANDIDATES", "Choice", "Evidence", "GameText", "board_of_fen", "choose", "read_ahead"]

CANDIDATES: tuple[Variant, ...] = (
    INTERNATIONAL,
    ENGLISH,
    RUSSIAN,
    BRAZILIAN,
    ITALIAN,
    POOL,
    CZECH,
    FRISIAN,
    SPANISH,
    PORTUGUESE,
    TURKISH,
    THAI,
    CANADIAN,
    ANTIDRAUGHTS,
    BREAKTHROUGH,
    FRYSK,
)
"""The variants a game without tags may be read as, the commonest first.

The order is the tie-break. Variants that a ``GameType`` names only together
with a ``Variant`` tag (killer, dama) are never guessed: a file that holds
them has to say so.

>>> [variant.name for variant in CANDIDATES[:3]]
['international', 'english', 'russian']
"""

_OPENING_MISSING = 2
"""An opening position: no kings, and each side at most this many men short
of its start (a ballot takes one or two men off)."""


def board_of_fen(fen: str, variant: Variant) -> tuple[Board, tuple[int, ...]]:
    """The board of a FEN tag, and the squares of the men that stand on
    their crowning row, read as kings (book problems print a crowned man
    that way; the rules would have crowned it).

    >>> board, crowned = board_of_fen("W:W31,27,1:B17,12,5", ENGLISH)
    >>> board.fen(), crowned
    ('W:WK1,27,31:B5,12,17', (1,))

    :raises InvalidFenError: for any other fault of the FEN.
    """
    key = (fen, id(variant))
    cached = _BOARDS.get(key)
    if cached is None or cached[0] is not variant:
        try:
            board, crowned = _board_of_fen(fen, variant)
        except InvalidFenError as error:
            kept: Board | str = str(error)
            crowned = ()
        else:
            kept = board
        cached = (variant, kept, crowned)
        with _BOARDS_LOCK:  # threads reading PDN at once must not evict one entry twice
            if len(_BOARDS) >= _KEPT_BOARDS:
                del _BOARDS[next(iter(_BOARDS))]
            _BOARDS[key] = cached
    if isinstance(cached[1], str):
        raise InvalidFenError(cached[1])
    return cached[1].copy(), cached[2]


# The boards (or the errors) of the latest FEN tags, by the FEN and the
# variant's identity (the variant is kept in the entry, so its id is not
# reused); the oldest goes first past _KEPT_BOARDS. A game without a GameType
# tag sets its FEN up as every variant tried, a dozen, and a copy costs a
# fiftieth of reading the FEN again (4 us against 210 us): ussr1947.pdn, 153
# Russian games that each start with the same FEN tag, read in 0.5 s instead
# of 1.4 s.
_BOARDS: dict[tuple[str, int], tuple[Variant, Board | str, tuple[int, ...]]] = {}
_KEPT_BOARDS = 256
_BOARDS_LOCK = threading.Lock()


def _board_of_fen(fen: str, variant: Variant) -> tuple[Board, tuple[int, ...]]:
    try:
        return Board(fen, variant=variant), ()
    except InvalidFenError as error:
        crowned: list[int] = []
        codec = context(variant).fen
        try:
            position = parse_fen(codec, fen, crowned=crowned)
        except InvalidFenError:
            raise error from None
        if not crowned:
            raise
        board = Board(format_fen(codec, position[:3]), variant=variant)
        return board, tuple(crowned)


# -- What the moves show -------------------------------------------------------

_ALGEBRAIC = re.compile(r"([a-wyzA-WYZ])([0-9]{1,2})")  # not "x": "28x19" is 28 and 19
_NUMBER = re.compile(r"[0-9]{1,2}")


@attrs.define
class Evidence:
    """What a game shows of its board before any variant is chosen.

    >>> evidence = Evidence()
    >>> evidence.add_squares("11-15")
    >>> evidence.add_fen("B:W21-32:B1-12")
    >>> evidence.numbers, evidence.files, evidence.moves
    (32, 0, 1)
    """

    numbers: int = 0
    """The highest square number used."""
    files: int = 0
    """How many files the algebraic squares used span (0: none used)."""
    ranks: int = 0
    """The highest rank of an algebraic square used."""
    moves: int = 0
    """How many moves the movetext has (all lines)."""
    first: str | None = None
    """The first move of the main line, as written."""
    setup: str | None = None
    """The FEN of a setup (``/FEN "..."/``) before the first move."""

    def add_squares(self, text: str, moves: int = 1) -> None:
        """Note the squares of move text (``moves`` moves of it)."""
        self.moves += moves
        found = _SQUARES_SEEN.get(text)
        if found is None:
            found = _squares_of(text)
            if len(_SQUARES_SEEN) < 4096:
                _SQUARES_SEEN[text] = found
        numbers, files, ranks = found
        self.numbers = max(self.numbers, numbers)
        self.files = max(self.files, files)
        self.ranks = max(self.ranks, ranks)

    def add_numbers(self, text: str, moves: int) -> None:
        """Note the squares of move text written with numbers only."""
        self.moves += moves
        self.numbers = max(self.numbers, _highest_number(text))

    def add_fen(self, fen: str) -> None:
        """Note the squares a FEN puts pieces on."""
        for field in fen.replace(" ", "").rstrip(".").split(":")[1:]:
            if field[:1].upper() not in ("W", "B"):
                continue
            for item in field[1:].split(","):
                item = item[1:] if item[:1] in ("K", "k") and item[1:2].isalnum() else item
                self.add_squares(item, moves=0)

    def fits(self, variant: Variant) -> bool:
        """Whether ``variant``'s board has every square used."""
        squares, width, height = _board_size(variant)
        return self.numbers <= squares and self.files <= width and self.ranks <= height

    def notation_differs(self, variant: Variant) -> bool:
        """Whether the squares are written only in the other notation."""
        numeric, algebraic = self.numbers > 0, self.files > 0
        if numeric == algebraic:
            return False
        return numeric != (variant.notation == "numeric")

    def squares(self) -> str:
        """The squares used, for a warning."""
        written = []
        if self.numbers:
            written.append(f"squares 1-{self.numbers}")
        if self.files:
            written.append(f"algebraic squares a1-{chr(ord('a') + self.files - 1)}{self.ranks}")
        return ", ".join(written) or "no squares"


def _squares_of(text: str) -> tuple[int, int, int]:
    """The highest number, the files spanned and the highest rank of the
    squares of move text."""
    files = ranks = 0
    for file, rank in _ALGEBRAIC.findall(text):
        files = max(files, ord(file.lower()) - ord("a") + 1)
        ranks = max(ranks, int(rank))
    return _highest_number(_ALGEBRAIC.sub(" ", text)), files, ranks


def _highest_number(text: str) -> int:
    """The highest square number written in move text (0 for none)."""
    return max(map(int, _NUMBER.findall(text)), default=0)


# _squares_of of each move text seen: a file's moves are a few hundred
# texts ("c3-d4"), and finding their squares again for every move was a
# sixth of inferring the variants of an untagged algebraic file
# (abatsiev.pdn).
_SQUARES_SEEN: dict[str, tuple[int, int, int]] = {}


@functools.cache
def _board_size(variant: Variant) -> tuple[int, int, int]:
    """Squares, files and ranks (computed once: a game is checked against
    every candidate). The count comes from the board's numbering alone: the
    variant's move tables, which ``Variant.square_count`` builds, took a
    quarter of the time of validating the OCA once, for candidates its
    games never use."""
    return square_count(variant), variant.width, variant.height


# -- Reading the moves ahead ---------------------------------------------------


@attrs.define
class GameText:
    """The movetext of one game read ahead, to be read again under each
    variant tried: its lines, where it starts and what it shows."""

    lines: list[str]
    """The lines, the first from its start, the last cut after the game."""
    start: int
    """Where the movetext starts in the first line (columns stay right)."""
    line_number: int
    """The number of the first line in the file."""
    evidence: Evidence
    _joined: str | None = attrs.field(default=None, init=False)

    def movetext(self) -> str:
        """The movetext as one string, from its start (made once: every
        candidate variant's fast replay reads it)."""
        if self._joined is None:
            self._joined = self.lines[0][self.start :] + "".join(self.lines[1:])
        return self._joined

    def cursor(self) -> tuple[Cursor, _Lines]:
        """A cursor that reads the movetext as the file's cursor would, and
        the handle it reads (which the caller keeps while it reads)."""
        handle = _Lines(self.lines)
        cursor = Cursor(handle)  # type: ignore[arg-type]  # it reads lines only
        if self.start == 0:  # a whole line: read as a new one (a plain line is read faster)
            cursor.line_number = self.line_number - 1
        else:
            handle.index = 1
            cursor.line_number = self.line_number
            cursor.pending = (self.lines[0], self.start)
        return cursor, handle


class _Lines:
    """The lines of a :class:`GameText` as a handle a :class:`Cursor` reads,
    without copying them (a game may have a comment of megabytes)."""

    __slots__ = ("__weakref__", "index", "lines")

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.index = 0

    def readline(self) -> str:
        if self.index >= len(self.lines):
            return ""
        self.index += 1
        return self.lines[self.index - 1]

    def close(self) -> None:
        self.index = len(self.lines)


def read_ahead(cursor: Cursor) -> GameText:
    """Read the movetext of the game from ``cursor`` (whose pending line
    starts it), up to the game terminator or the next game's first tag,
    which are split as the reader splits games; what follows is left on
    the cursor.
    """
    assert cursor.pending is not None, "the reader pushed back where the moves start"
    first, start = cursor.pending
    line_number = cursor.line_number
    record = cursor.record = []
    evidence = Evidence()
    try:
        end = _scan(cursor.tokens(), evidence)
    finally:
        cursor.record = None
    lines = [first, *record]
    if end is not None:
        text, position = end
        lines[-1] = text[:position]
        cursor.push_back(text, position)
    return GameText(lines, start, line_number, evidence)


def _scan(
    tokens: Iterator[tuple[str, Any, int, int]], evidence: Evidence
) -> tuple[str, int] | None:
    """Note the evidence of each token to the end of the game; the line it
    ends in and where, None at the end of the file."""
    nesting = 0
    for kind, match, _, _ in tokens:
        if isinstance(match, str):  # a comment's text
            continue
        if kind == "line":
            text, end = match
            words = PLAIN_MOVE.findall(text, 0, end)
            if words and evidence.first is None and nesting == 0:
                evidence.first = words[0]
            evidence.add_numbers(" ".join(words), len(words))
            if end < len(text) and nesting <= 0:
                return None  # a result ends the line, and the game
        elif kind in ("tag", "tag_line", "tag2"):  # the next game's
            return where(kind, match)
        elif kind == "open":
            nesting += 1
        elif kind == "close":
            nesting -= 1
        elif kind in ("result", "star") and nesting <= 0:
            return match.string, match.end()
        elif kind == "move":
            squares = match.group("squares")
            if evidence.first is None and nesting == 0:
                evidence.first = squares
            evidence.add_squares(squares)
        elif kind == "setup" and evidence.moves == 0 and evidence.setup is None:
            setup = re.search(r'"([^"]*)"', match.group("setup"))
            evidence.setup = setup.group(1) if setup else match.group("setup").strip()
    return None


# -- Choosing ------------------------------------------------------------------


@attrs.frozen
class Choice:
    """The variant chosen for a game, and why, as the warning says it."""

    variant: Variant
    reason: str
    guess: bool
    """Whether other variants fit the evidence and the moves as well."""
    alike: tuple[Variant, ...] = ()
    """Those other variants, in the order the evidence ranks them (empty
    unless :attr:`guess`): a file whose other games decided one of them may
    read the game as it (see :mod:`draughts.pdn.validation`)."""


@attrs.frozen
class _Candidate:
    variant: Variant
    turn: Color
    """The side to move at the start."""
    opening: bool
    """Whether the FEN tag is an opening position (see :func:`_is_opening`)."""
    key: tuple[int, ...]
    """The evidence's ranking, without the commonness."""


Replay = Callable[[Variant, int | None], tuple[bool, int]]
"""Replays the game under a variant (its first moves only if a number is
given): whether every move was legal, and how many were played before the
first error."""

_PROBE: int | None = None
"""How many moves the candidates ranked after the chosen one are replayed,
to say whether the choice was a guess (None: all). Six moves let English
and pool through for 34 of the 40 games of a Czech team championship that
a whole replay rules them out for; the whole replay costs about a quarter
more time on a file without tags (1.12 s to 1.41 s for 724 English games,
pure core), and makes :attr:`Choice.alike` what a file's other games can be
weighed against."""


def choose(evidence: Evidence, fen: str | None, replay: Replay) -> Choice:
    """The variant to read a game as: the evidence (the FEN tag ``fen``,
    the squares and the first move), then ``replay``, then commonness.

    >>> evidence = Evidence()
    >>> evidence.add_squares("11-15 23-19")
    >>> evidence.first = "11-15"
    >>> choice = choose(evidence, None, lambda variant, limit: (variant.name != "international", 2))
    >>> choice.variant.name, choice.guess
    ('english', True)
    """
    if fen is None and not evidence.moves:
        # Every variant fits: the game's file may tell (see draughts.pdn.validation).
        reason = "read as international (no moves, no FEN tag)"
        return Choice(INTERNATIONAL, reason, True, CANDIDATES[1:])
    candidates = _candidates(evidence, fen)
    if not candidates:
        return Choice(INTERNATIONAL, f"{evidence.squares()} fit no variant", False)
    tried: list[tuple[_Candidate, bool, int]] = []
    chosen = None
    for candidate in candidates:
        ok, plies = replay(candidate.variant, None) if evidence.moves else (True, 0)
        tried.append((candidate, ok, plies))
        if ok:
            chosen = candidate
            break
    if chosen is None:  # no candidate replays every move: the one that plays most
        chosen, _, _ = max(tried, key=lambda entry: entry[2])
        failed = [c for c, _, _ in tried if c is not chosen and c.key == chosen.key]
        return Choice(chosen.variant, _reason(evidence, chosen, failed, [], complete=False), False)
    failed = [c for c, _, _ in tried[:-1] if c.key == chosen.key]
    later = candidates[len(tried) :]
    if evidence.moves:  # those the moves do not rule out, however ranked
        alike = [c for c in later if replay(c.variant, _PROBE)[0]]
    else:  # nothing to replay: those the evidence ranks as high
        alike = [c for c in later if c.key == chosen.key]
    return Choice(
        chosen.variant,
        _reason(evidence, chosen, failed, alike),
        bool(alike),
        tuple(c.variant for c in alike),
    )


def _candidates(evidence: Evidence, fen: str | None) -> list[_Candidate]:
    """The variants the evidence allows, the likeliest first."""
    if fen is None:
        return list(_squares_candidates(evidence.numbers, evidence.files, evidence.ranks))
    found = []
    for variant in CANDIDATES:
        if not evidence.fits(variant):
            continue
        try:
            start, crowned = board_of_fen(fen, variant)
        except ValueError:
            continue
        opening = _is_opening(start, crowned)
        side_differs = opening and start.turn != variant.first_color
        key = (
            evidence.notation_differs(variant),
            # Men on their crowning row tell against a variant in an opening
            # position only: problems print a man just crowned that way.
            len(crowned) if opening else 0,
            side_differs,
            _board_size(variant)[0],
        )
        found.append(_Candidate(variant, start.turn, opening, key))
    # Sorting is stable: the order of CANDIDATES breaks the ties.
    found.sort(key=lambda candidate: candidate.key)
    return found


@functools.lru_cache(maxsize=256)
def _squares_candidates(numbers: int, files: int, ranks: int) -> tuple[_Candidate, ...]:
    """The candidates of a game without a FEN tag, which its squares alone
    decide (made once for each: choosing them was a third of the time of
    validating a file without tags on the native core)."""
    evidence = Evidence(numbers=numbers, files=files, ranks=ranks)
    found = [
        _Candidate(variant, variant.first_color, False, (evidence.notation_differs(variant),))
        for variant in CANDIDATES
        if evidence.fits(variant)
    ]
    found.sort(key=lambda candidate: candidate.key)
    return tuple(found)


_START_MEN: dict[Variant, int] = {}


def _is_opening(board: Board, crowned: tuple[int, ...]) -> bool:
    """Whether the position looks like a start: no kings (but the men the
    FEN put on their crowning row), and each side at most
    :data:`_OPENING_MISSING` men short of the variant's start."""
    variant = board.variant
    start = _START_MEN.get(variant)
    if start is None:
        start = _START_MEN[variant] = len(Board(variant=variant).pieces(Color.WHITE))
    for color in Color:
        pieces = board.pieces(color)
        kings = set(board.pieces(KING, color)) - set(crowned)
        if kings or len(pieces) < start - _OPENING_MISSING:
            return False
    return True


def _names(candidates: list[_Candidate]) -> str:
    names = [candidate.variant.name for candidate in candidates]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _reason(
    evidence: Evidence,
    chosen: _Candidate,
    failed: list[_Candidate],
    alike: list[_Candidate],
    *,
    complete: bool = True,
) -> str:
    """Why ``chosen`` was read: what the evidence showed, which equally
    likely variants the moves ruled out, and which they did not."""
    parts = [evidence.squares()]
    side = chosen.turn.name.capitalize()
    if evidence.moves and evidence.first is not None:
        parts.append(f"{side} moved first")
    elif chosen.opening:
        parts.append(f"an opening position with {side} to move")
    if failed:
        parts.append(f"{_names(failed)} cannot replay the moves")
    if not complete:
        parts.append("no variant replays every move, this one plays the most")
    if alike:
        several = len(alike) > 1
        if evidence.moves:
            what = f"{'are' if several else 'is'} not ruled out"
        else:
            what = "fit as well" if several else "fits as well"
        if all(c.key == chosen.key for c in alike):
            why = f"{chosen.variant.name} is commoner"
        else:
            why = f"the evidence ranks {chosen.variant.name} first"
        parts.append(f"a guess: {_names(alike)} {what}, {why}")
    return f"read as {chosen.variant.name} ({'; '.join(parts)})"
