"""What the parts of :class:`draughts.Board` share: the core's board state
and, for the type checker, the methods they call on one another.

:class:`~draughts.board.Board` is put together from parts with one job
each, so that no module holds it all: the game's end
(:mod:`draughts._board_end`), notation and diagrams
(:mod:`draughts._board_notation`), the checks of positions and moves
(:mod:`draughts._board_checks`), and the rest (state, pieces, FEN, moves,
copies) in :mod:`draughts.board`. Each part is a class with no state of its
own (``__slots__ = ()``): the state is the core's ``BoardState``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from draughts import _core

if TYPE_CHECKING:
    from draughts._context import VariantContext
    from draughts.board import LegalMoveGenerator
    from draughts.move import Move
    from draughts.piece import Piece
    from draughts.variant import Variant


class BoardBase(_core.BoardState):
    """The state every part of a board reads (declared by the core's
    ``BoardState``), and the methods of :class:`~draughts.board.Board` the
    parts call (declared here for the type checker only)."""

    __slots__ = ()

    if TYPE_CHECKING:
        _ctx: VariantContext
        _variant: Variant
        _ply_origin: int

        @property
        def legal_moves(self) -> LegalMoveGenerator: ...

        def _legal_list(self) -> list[Move]: ...

        def _restart_counts(self) -> None: ...

        def fen(self) -> str: ...

        def copy(self, *, stack: bool = True) -> BoardBase: ...

        def piece_map(self) -> dict[int, Piece]: ...

        def push(self, move: Move, /) -> None: ...

        def pop(self) -> Move: ...

        def is_legal(self, move: Move) -> bool: ...
