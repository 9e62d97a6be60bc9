"""What the PDN reader asks of a visitor that plays a plain line's moves
itself: :class:`LineVisitor`, the reader's one optional contract with its
visitors beyond :class:`~draughts.pdn.BaseVisitor`."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from draughts.pdn.headers import BaseVisitor

if TYPE_CHECKING:
    from collections.abc import Callable

    from draughts.board import Board
    from draughts.pdn.resolver import Resolver

T = TypeVar("T")


class LineVisitor(BaseVisitor[T]):
    """A visitor that plays the moves of the reader's plain lines itself.

    The reader takes a plain line (move numbers and moves only, see
    :data:`draughts.pdn.lexer.PLAIN_LINE`) whole while it replays the moves.
    For an ordinary visitor it plays the line's moves with the resolver
    (and those of the plain lines after it, see
    :meth:`~draughts.pdn.resolver.Resolver.play_lines`), calling
    :meth:`~draughts.pdn.BaseVisitor.visit_move` before each push; for a
    :class:`LineVisitor` it calls :meth:`play_plain_lines` instead, which
    must do the same (the visits may be made another way: the tree builder
    hands the native loop a chain of nodes that makes them in C).

    >>> import io
    >>> from draughts.pdn import read_game
    >>> class Counter(LineVisitor[int]):
    ...     def begin_game(self) -> None:
    ...         self.lines = 0
    ...     def play_plain_lines(self, resolver, board, text, end, readline):
    ...         self.lines += 1
    ...         return super().play_plain_lines(resolver, board, text, end, readline)
    ...     def result(self) -> int:
    ...         return self.lines
    >>> read_game(io.StringIO("1. 32-28 19-23\\n2. 28x19 14x23 *"), Visitor=Counter)
    1
    """

    def play_plain_lines(
        self,
        resolver: Resolver,
        board: Board,
        text: str,
        end: int,
        readline: Callable[[], str],
    ) -> tuple[int, str, int, int]:
        """Play the moves of the plain line ``text[:end]`` on ``board`` with
        ``resolver``, and those of the plain lines ``readline()`` gives
        after it, visiting each (see
        :meth:`~draughts.pdn.resolver.Resolver.play_lines`, whose answer
        this is: the moves played, the last line read, where reading goes
        on in it, and the lines read)."""
        return resolver.play_lines(board, text, end, self.visit_move, readline)
