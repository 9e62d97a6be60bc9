"""The :class:`Move` value."""

from __future__ import annotations

import attrs

__all__ = ["Move"]


def _default_path(move: Move) -> tuple[int, ...]:
    return (move.from_square, move.to_square)


@attrs.frozen(eq=False, repr=False)
class Move:
    """One complete move: a step, or a whole capture sequence.

    Squares are numbers in the variant's PDN numbering (for algebraic variants
    the numeric numbering that their FEN may also use, see
    :meth:`draughts.Variant.square_name`).

    ``captures`` lists the captured squares in the order they were jumped and
    ``path`` the squares the piece stopped on: ``path[0]`` is the origin,
    ``path[-1]`` the destination, and between them one square per capture (where
    the piece turned, or the square just behind the captured piece).

    Two moves are equal when they start and end on the same squares and capture
    the same *set* of pieces: two routes that differ only in the order of the
    captures are one move, as in the FMJD rules and the "drop duplicates" perft
    tables.

    >>> m = Move(32, 14, captures=(27, 18), path=(32, 23, 14))
    >>> m == Move(32, 14, captures=(18, 27))
    True
    >>> str(m), m.is_capture
    ('32x23x14', True)

    Moves are usually taken from :attr:`draughts.Board.legal_moves` or
    :meth:`draughts.Board.parse_pdn` rather than built by hand.

    ``str(move)`` is always numeric, also for variants whose PDN names the
    squares algebraically: a move does not know its board (as a chess move's
    UCI text does not). :meth:`draughts.Board.pdn` writes it as the board's
    variant does:

    >>> import draughts
    >>> board = draughts.Board(variant="russian")
    >>> move = board.parse_pdn("c3-d4")
    >>> str(move), board.pdn(move)
    ('22-18', 'c3-d4')
    """

    from_square: int
    """Where the piece starts."""
    to_square: int
    """Where the piece ends."""
    captures: tuple[int, ...] = ()
    """The captured squares, in capture order."""
    path: tuple[int, ...] = attrs.field(default=attrs.Factory(_default_path, takes_self=True))
    """Origin, intermediate stops and destination."""

    @property
    def is_capture(self) -> bool:
        """Whether the move captures anything."""
        return bool(self.captures)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return (
            self.from_square == other.from_square
            and self.to_square == other.to_square
            and (
                self.captures == other.captures
                or (
                    len(self.captures) == len(other.captures)
                    and set(self.captures) == set(other.captures)
                )
            )
        )

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        return hash((self.from_square, self.to_square, frozenset(self.captures)))

    def __str__(self) -> str:
        if not self.captures:
            return f"{self.from_square}-{self.to_square}"
        return "x".join(map(str, self.path))

    def __repr__(self) -> str:
        if not self.captures and self.path == (self.from_square, self.to_square):
            return f"Move({self.from_square}, {self.to_square})"
        return (
            f"Move({self.from_square}, {self.to_square}, "
            f"captures={self.captures!r}, path={self.path!r})"
        )
