"""Moves as PDN text, and the board as a diagram (a part of
:class:`draughts.Board`, see :mod:`draughts._board_base`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, cast

from draughts import _core
from draughts._board_base import BoardBase
from draughts._diagram import text_diagram
from draughts._notation import match_move, write_move
from draughts.errors import IllegalMoveError
from draughts.move import Move

if TYPE_CHECKING:
    from draughts.board import Board

_ASCII = (("w", "W"), ("b", "B"))
_UNICODE = (("⛀", "⛁"), ("⛂", "⛃"))


class Notation(BoardBase):
    """Board methods for PDN move text and diagrams (see :class:`draughts.Board`)."""

    __slots__ = ()

    if TYPE_CHECKING:

        def copy(self, *, stack: bool = True) -> Notation: ...

    def pdn(self, move: Move, *, long: bool | None = None) -> str:
        """The move in PDN notation: short (``32-28``, ``19x28``, ``c3:e5``)
        unless another legal move has the same origin and destination, then the
        full route. ``long=True`` always writes the route, ``False`` never.

        >>> board = Board("W:WK47:B9,12,33", variant="international")
        >>> [board.pdn(m) for m in board.legal_moves]
        ['47x17', '47x21', '47x26']
        """
        if long is None:
            long = (
                move.is_capture
                and sum(
                    1
                    for m in self._legal_list()
                    if m.from_square == move.from_square and m.to_square == move.to_square
                )
                > 1
            )
        return write_move(self._ctx.core, move, long)

    def parse_pdn(self, text: str) -> Move:
        """The legal move that ``text`` names, in short, full-route or
        partial-route form.

        >>> Board(variant="russian").parse_pdn("c3-d4")
        Move(22, 18)

        :raises InvalidMoveError: if ``text`` is not a move.
        :raises IllegalMoveError: if no legal move matches.
        :raises AmbiguousMoveError: if several legal moves match.
        """
        ctx = self._ctx
        c = self._turn
        men, kings = self._men, self._kings

        def routes() -> Iterator[tuple[tuple[int, ...], frozenset[int]]]:
            # Every capture route, also those that take the pieces of a legal
            # move in another order (the move keeps one route).
            number = ctx.core.square_of_index
            for raw in _core.captures(
                ctx.core, c, men[c], kings[c], men[1 - c], kings[1 - c], True
            ):
                yield (
                    tuple([number[i] for i in raw.path]),
                    frozenset([number[i] for i in raw.captured]),
                )

        return match_move(ctx.core, text, self._legal_list(), self.fen, routes)

    def push_pdn(self, text: str) -> Move:
        """Parse ``text`` with :meth:`parse_pdn`, play it and return it."""
        move = self.parse_pdn(text)
        self.push(move)
        return move

    def variation_pdn(self, moves: Iterable[Move]) -> str:
        """Moves played from this position, written as a numbered PDN line.

        >>> board = Board(variant="english")
        >>> board.variation_pdn([board.parse_pdn("11-15"), Move(23, 19)])
        '1. 11-15 23-19'

        :raises IllegalMoveError: if a move is not legal in its position.
        """
        board = self.copy(stack=False)
        first = int(self._variant.first_color)
        number = 1
        parts: list[str] = []
        for i, move in enumerate(moves):
            if not board.is_legal(move):
                raise IllegalMoveError(f"illegal move {move} in {board.fen()}")
            if board._turn == first:
                parts.append(f"{number}.")
            elif i == 0:
                parts.append(f"{number}...")
            parts.append(board.pdn(move))
            if board._turn != first:
                number += 1
            board.push(move)
        return " ".join(parts)

    def __str__(self) -> str:
        """An ASCII diagram, White at the bottom: ``w``/``b`` men,
        ``W``/``B`` kings, ``.`` empty playing squares."""
        return text_diagram(self._ctx.core, self._men, self._kings, _ASCII, ".")

    def unicode(self, *, empty: str = "·") -> str:
        """A Unicode diagram, White at the bottom.

        >>> print(Board("W:WK29:B1", variant="english").unicode())
          ⛂   ·   ·   ·
        ·   ·   ·   ·
          ·   ·   ·   ·
        ·   ·   ·   ·
          ·   ·   ·   ·
        ·   ·   ·   ·
          ·   ·   ·   ·
        ⛁   ·   ·   ·
        """
        return text_diagram(self._ctx.core, self._men, self._kings, _UNICODE, empty)

    def _repr_svg_(self) -> str:
        """The board as an SVG picture for notebooks, with the last move
        marked (see :func:`draughts.svg.board`)."""
        import draughts.svg

        return draughts.svg.board(
            cast("Board", self), lastmove=self.move_stack[-1] if self.move_stack else None
        )
