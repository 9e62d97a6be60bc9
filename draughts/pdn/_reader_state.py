"""The state the parts of the PDN reader share (see :mod:`draughts.pdn.reader`).

The reader of one game is one state machine, split by job into mixins that
read and change the same attributes token by token: the headers
(:mod:`draughts.pdn._reader_headers`), the movetext
(:mod:`draughts.pdn._reader_moves`), the recovery from moves that wait for
the next ones or are rejected (:mod:`draughts.pdn._reader_recovery`), and the
reporting (:mod:`draughts.pdn.problems`). :class:`ReaderState` declares that
state and the methods one part calls in another, so that each part type-checks
alone; this class holds the state in its ``__slots__``. (Split into
objects instead, each token would cost attribute hops through them on the
reader's hottest path.)"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from draughts.board import Board
from draughts.move import Move
from draughts.pdn.pending import Guess, Split
from draughts.pdn.problems import Problems
from draughts.pdn.resolver import Resolver
from draughts.variant import Variant

if TYPE_CHECKING:
    import re
    from collections.abc import Callable


class ReaderState(Problems):
    """The reader's state, by name (:class:`Problems` holds ``bad`` and
    ``plain``)."""

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

    default: Variant | str | int | None
    infer: bool  # choose the variant of a game without tags
    found: bool  # a tag or movetext token was seen
    in_headers: bool
    special: dict[str, tuple[str, int, int]]  # GameType, Variant, FEN: (value, line, column)
    early_comments: list[str]  # comments before the first move
    resolver: Resolver
    preset: Variant | None  # the GameType's own numbering, if the tag gave another
    skip_all: bool  # the visitor skips the moves
    frames: list[tuple[int, Move]]  # open variations: (ply, main move)
    moves_here: list[int]  # moves played in each open line
    skipped: int  # nesting inside a variation the visitor skips
    result: str | None
    nesting: int  # parentheses open in the movetext, whatever is skipped
    split: Split | None  # the first part of a capture written in two
    guess: Guess | None  # an ambiguous move the next moves may settle
    # A visitor's own way of playing a plain line (see LineVisitor).
    line_player: (
        Callable[[Resolver, Board, str, int, Callable[[], str]], tuple[int, str, int, int]] | None
    )

    if TYPE_CHECKING:  # what one part calls in another

        def start_moves(self, line: int, column: int) -> None: ...
        def set_up(self, variant: Variant, gametype: str | None) -> None: ...
        def commit(
            self, move: Move, text: str, match: re.Match[str], line: int, column: int
        ) -> None: ...
        def swallowed(self, kind: str, match: re.Match[str], line: int) -> bool: ...
        def settle(self, match: re.Match[str], line: int, column: int) -> None: ...
        def unsettled(self) -> None: ...
        def inferred(self, evidence: Any, text: Any, line: int, column: int) -> Variant: ...
