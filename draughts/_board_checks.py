"""The checks of :class:`draughts.Board` (a part of it, see
:mod:`draughts._board_base`): whether a position is valid
(:meth:`~draughts.Board.status`, :class:`Status`) and whether a move
crowns; and the reading of :meth:`~draughts.Board.pieces`' arguments."""

from __future__ import annotations

import enum
import warnings

from draughts._board_base import BoardBase
from draughts.errors import IllegalMoveError
from draughts.move import Move
from draughts.piece import Color, PieceKind

__all__ = ["Status"]


class Status(enum.IntFlag):
    """What is wrong with a position (:meth:`Board.status`): flags that
    combine, ``VALID`` (0) when nothing is.

    >>> Status.TOO_MANY_WHITE | Status.EMPTY
    <Status.EMPTY|TOO_MANY_WHITE: 5>
    >>> bool(Status.VALID)
    False
    """

    VALID = 0
    EMPTY = 1
    """No piece on the board."""
    TOO_MANY_WHITE = 4
    """White has more pieces than a side starts with."""
    TOO_MANY_BLACK = 8
    """Black has more pieces than a side starts with."""
    MAN_ON_CROWNING_ROW = 16
    """A man stands on the row where it would have been crowned."""


class Checks(BoardBase):
    """Board methods that check positions and moves (see :class:`draughts.Board`)."""

    __slots__ = ()

    @staticmethod
    def _pieces_arguments(
        args: tuple[object, ...], kind: PieceKind | None, color: Color | None
    ) -> tuple[PieceKind | None, Color | None]:
        """The kind and side :meth:`pieces` was given by position."""
        if len(args) > 2:
            raise TypeError(f"pieces() takes a kind and a side, not {args!r}")
        kinds = [a for a in args if isinstance(a, PieceKind)]
        colors = [a for a in args if isinstance(a, Color)]
        if len(kinds) + len(colors) < len(args):
            # Plain ints: read in the old order (side first), as they always were.
            warnings.warn(
                "pieces() with plain ints is deprecated: pass a PieceKind and a Color "
                "(kind first: pieces(KING, WHITE)) or keywords (pieces(color=..., kind=...))",
                DeprecationWarning,
                stacklevel=3,
            )
            ints = [int(a) for a in args]  # type: ignore[call-overload]
            return (PieceKind(ints[1]) if len(ints) > 1 else kind), Color(ints[0])
        twice = (kinds and kind is not None) or (colors and color is not None)
        if len(kinds) > 1 or len(colors) > 1 or twice:
            raise TypeError(f"pieces() takes one kind and one side, not {args!r}")
        if len(args) == 2 and isinstance(args[0], Color):
            warnings.warn(
                "pieces(color, kind) is deprecated: write pieces(kind, color), in the order "
                "of Piece(kind, color), or pieces(color=..., kind=...)",
                DeprecationWarning,
                stacklevel=3,
            )
        return (kinds[0] if kinds else kind), (colors[0] if colors else color)

    def is_promotion(self, move: Move) -> bool:
        """Whether the legal ``move`` crowns the man that makes it, by the
        variant's rules: ending on the far row, or (where a man crowned
        during a capture goes on as a king, as in Russian draughts) passing
        over it.

        >>> board = Board("W:W6,24:B20", variant="english")
        >>> [(board.pdn(move), board.is_promotion(move)) for move in board.legal_moves]
        [('6-1', True), ('6-2', True), ('24-19', False)]
        >>> russian = Board("W:Wh4:Bc7,e7,g5", variant="russian")
        >>> move = russian.parse_pdn("h4:f6:d8:b6")  # crowned on d8, takes c7 as a king
        >>> russian.is_promotion(move)
        True
        >>> brazilian = Board("W:Wh4:Bc7,e7,g5", variant="brazilian")
        >>> brazilian.is_promotion(brazilian.parse_pdn("h4xf6xd8xb6"))  # passes, stays a man
        False

        :raises IllegalMoveError: if ``move`` is not legal here.
        """
        if move not in self._legal_list():
            raise IllegalMoveError(f"{move!r} is not a legal move in {self.fen()}")
        bit = self._ctx.core.bit_of_square[move.from_square]
        if not bit & self._men[self._turn]:
            return False
        mover = self._turn
        self.push(move)
        try:
            return bool(self._ctx.core.bit_of_square[move.to_square] & self._kings[mover])
        finally:
            self.pop()

    def status(self) -> Status:
        """What is wrong with the position, as :class:`Status` flags
        (``Status.VALID`` if nothing). The board refuses to make the other
        problems, so a board built with its own methods is only ever
        ``EMPTY``; a position from elsewhere (a subclass, a pickle) is checked
        as well.

        >>> Board().status(), Board.empty().status()
        (<Status.VALID: 0>, <Status.EMPTY: 1>)
        """
        core = self._ctx.core
        found = Status.VALID
        every = self._men[0] | self._men[1] | self._kings[0] | self._kings[1]
        if not every:
            found |= Status.EMPTY
        limit = self._ctx.fen.start_piece_count
        for color, flag in ((0, Status.TOO_MANY_WHITE), (1, Status.TOO_MANY_BLACK)):
            if (self._men[color] | self._kings[color]).bit_count() > limit:
                found |= flag
            if self._men[color] & core.promotion_mask[color]:
                found |= Status.MAN_ON_CROWNING_ROW
        return found

    def is_valid(self) -> bool:
        """Whether :meth:`status` finds nothing wrong: pieces on the board,
        no side with more than it starts with, no man on its crowning row.

        >>> Board(variant="english").is_valid(), Board.empty(variant="english").is_valid()
        (True, False)
        """
        return self.status() == Status.VALID
