"""Colours, piece kinds and pieces.

The four possible pieces are prebuilt constants, so code that asks for a piece
never allocates one.
"""

from __future__ import annotations

import enum

import attrs

__all__ = ["BLACK", "KING", "MAN", "WHITE", "Color", "Piece", "PieceKind"]


class Color(enum.IntEnum):
    """A side of the board.

    PDN names the sides White and Black whatever the colours of the real pieces:
    in English draughts the side that moves first (red) is PDN "Black".

    >>> Color.WHITE.opponent
    <Color.BLACK: 1>
    >>> Color.BLACK.letter
    'B'
    """

    WHITE = 0
    BLACK = 1

    @property
    def opponent(self) -> Color:
        """The other side."""
        return _OPPONENT[self]

    @property
    def letter(self) -> str:
        """``"W"`` or ``"B"``, as written in FEN and PDN."""
        return "WB"[self]

    @classmethod
    def from_letter(cls, letter: str) -> Color:
        """Read ``"W"`` or ``"B"`` (either case).

        >>> Color.from_letter("b")
        <Color.BLACK: 1>

        :raises ValueError: for any other text.
        """
        upper = letter.upper()
        if upper == "W":
            return cls.WHITE
        if upper == "B":
            return cls.BLACK
        raise ValueError(f"not a colour letter: {letter!r}")


WHITE = Color.WHITE
BLACK = Color.BLACK
_OPPONENT = (BLACK, WHITE)


class PieceKind(enum.IntEnum):
    """Man (uncrowned) or king (crowned).

    >>> PieceKind.KING.name
    'KING'
    """

    MAN = 0
    KING = 1


MAN = PieceKind.MAN
KING = PieceKind.KING


@attrs.frozen
class Piece:
    """A piece: its kind and colour.

    Use the prebuilt values through :meth:`Piece.of` or the symbols; two equal
    pieces compare and hash equal either way.

    >>> Piece(MAN, WHITE).symbol()
    'w'
    >>> Piece.from_symbol("B")
    Piece(kind=<PieceKind.KING: 1>, color=<Color.BLACK: 1>)
    """

    kind: PieceKind
    color: Color

    @staticmethod
    def of(kind: PieceKind, color: Color) -> Piece:
        """The prebuilt piece of this kind and colour.

        >>> Piece.of(KING, WHITE) is Piece.of(KING, WHITE)
        True
        """
        return _PIECES[color][kind]

    def symbol(self) -> str:
        """``w`` / ``b`` for men, ``W`` / ``B`` for kings."""
        letter = self.color.letter
        return letter if self.kind == KING else letter.lower()

    @staticmethod
    def from_symbol(symbol: str) -> Piece:
        """The piece for ``w``, ``b``, ``W`` or ``B``.

        :raises ValueError: for any other symbol.
        """
        if len(symbol) != 1 or symbol.upper() not in "WB":
            raise ValueError(f"not a piece symbol: {symbol!r}")
        kind = KING if symbol.isupper() else MAN
        return _PIECES[Color.from_letter(symbol)][kind]

    def unicode_symbol(self) -> str:
        """A Unicode draughts symbol (⛀ ⛁ ⛂ ⛃).

        >>> Piece.of(KING, BLACK).unicode_symbol()
        '⛃'
        """
        return _UNICODE[self.color][self.kind]


_PIECES = (
    (Piece(MAN, WHITE), Piece(KING, WHITE)),
    (Piece(MAN, BLACK), Piece(KING, BLACK)),
)
_UNICODE = (("⛀", "⛁"), ("⛂", "⛃"))
