"""The :class:`Board`: a position, the side to move and the moves played.

This module is over 800 lines because it is the one public class with the
python-chess-shaped API, and about a third of it is docstrings with examples;
its machinery lives in the private modules it imports.
"""

from __future__ import annotations

import copyreg
import enum
import warnings
from collections.abc import Iterable, Iterator
from typing import SupportsIndex

from draughts import _core, _draw_rules
from draughts._context import VariantContext, context
from draughts._diagram import text_diagram
from draughts._fen import format_fen, parse_fen
from draughts._notation import match_move, write_move
from draughts.errors import AmbiguousMoveError, IllegalMoveError
from draughts.move import Move
from draughts.outcome import DrawRule, Goal, Outcome, Termination
from draughts.piece import BLACK, KING, MAN, WHITE, Color, Piece, PieceKind
from draughts.variant import INTERNATIONAL, Variant, find_variant

__all__ = ["Board", "LegalMoveGenerator", "Status", "perft"]

_COLORS = (WHITE, BLACK)
_ASCII = (("w", "W"), ("b", "B"))
_UNICODE = (("⛀", "⛁"), ("⛂", "⛃"))
_PIECES = (
    (Piece.of(MAN, WHITE), Piece.of(KING, WHITE)),
    (Piece.of(MAN, BLACK), Piece.of(KING, BLACK)),
)

# A snapshot of everything push() changes: (white men, black men, white kings,
# black kings, side to move, position key, ply of the last capture or man move,
# draw-rule count starts, Frisian king moves). pop() restores it whole instead
# of undoing a move.
_State = tuple[int, int, int, int, int, int, int, tuple[int | None, ...], tuple[int, int, int, int]]

# Consecutive non-capturing moves of one king per side, for
# Variant.king_move_limit: (white king bit, its moves, black king bit, its moves).
_NO_KING_MOVES = (0, 0, 0, 0)


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


# Reset flags as plain ints: enum arithmetic is too slow for push().
_CAPTURE, _MAN_MOVE, _PROMOTION = _draw_rules.Tracker.events


class Board(_core.BoardState):
    """A draughts position with its variant, side to move and move history.

    ``Board()`` is the start of an international game; give a variant (a
    :class:`~draughts.variant.Variant` or any name
    :func:`~draughts.variant.find_variant` knows) for another game, and a FEN
    for another position:

    >>> import draughts
    >>> board = draughts.Board(variant="english")
    >>> board.turn
    <Color.BLACK: 1>
    >>> board.push_pdn("11-15")
    Move(11, 15)
    >>> board.fen()
    'W:W21-32:B1-10,12,15'
    >>> draughts.Board("W:WK46:B23", variant="international").legal_moves
    <LegalMoveGenerator (46x5, 46x10, 46x14, 46x19)>

    :raises InvalidFenError: if ``fen`` is not a valid FEN of the variant.
    """

    def __init__(
        self, fen: str | None = None, *, variant: Variant | str | int = INTERNATIONAL
    ) -> None:
        self._variant = find_variant(variant)
        self._ctx: VariantContext = context(self._variant)
        self.move_stack: list[Move] = []
        """The moves played on this board, oldest first."""
        self._stack: list[_State] = []
        self._legal: list[Move] | None = None
        self.set_fen(self._ctx.fen.starting_fen if fen is None else fen)

    @classmethod
    def empty(cls, *, variant: Variant | str | int = INTERNATIONAL) -> Board:
        """A board with no pieces, the variant's first player to move.

        >>> Board.empty(variant="english").fen()
        'B:W:B'
        """
        board = cls(variant=variant)
        board.clear()
        return board

    # -- State ----------------------------------------------------------------

    @property
    def variant(self) -> Variant:
        """The rules this board plays by."""
        return self._variant

    @property
    def turn(self) -> Color:
        """The side to move."""
        return _COLORS[self._turn]

    @turn.setter
    def turn(self, color: Color) -> None:
        self._turn = int(color)
        self._restart_counts()

    def clear(self) -> None:
        """Remove every piece and the move history; the first player moves."""
        self._men = [0, 0]
        self._kings = [0, 0]
        self._turn = int(self._variant.first_color)
        self.clear_stack()

    def clear_stack(self) -> None:
        """Forget the moves played (the position stays)."""
        self.move_stack = []
        self._stack = []
        self._ply_origin = 0
        self._restart_counts()

    def _restart_counts(self) -> None:
        # The position was set up or edited: a fresh key, and every draw count
        # starts at the current ply. The key is worked out when first needed
        # (see position_key): a board made to read or write a FEN never is.
        ply = len(self._stack)
        tracker = self._ctx.tracker
        self._key: int | None = None
        self._quiet_from = ply
        self._starts = tracker.update(tracker.inactive, ply, self._men, self._kings, 0)
        self._kmoves = _NO_KING_MOVES
        self._legal = None

    def ply(self) -> int:
        """How many moves have been pushed."""
        return len(self.move_stack)

    # -- Pieces ---------------------------------------------------------------

    def _is_square(self, square: object) -> bool:
        return isinstance(square, int) and 1 <= square <= self._ctx.core.square_count

    def _square_bit(self, square: int) -> int:
        if not self._is_square(square):
            raise ValueError(f"no square {square!r} on the {self._variant.name} board")
        return self._ctx.core.bit_of_square[square]

    def piece_at(self, square: int) -> Piece | None:
        """The piece on ``square``, or None.

        >>> Board(variant="english").piece_at(1)
        Piece(kind=<PieceKind.MAN: 0>, color=<Color.BLACK: 1>)
        """
        bit = self._square_bit(square)
        for color in (0, 1):
            if self._men[color] & bit:
                return _PIECES[color][0]
            if self._kings[color] & bit:
                return _PIECES[color][1]
        return None

    def set_piece_at(self, square: int, piece: Piece | None) -> None:
        """Put ``piece`` on ``square`` (None empties it).

        A man may not stand on the row where it would be crowned, and a side
        may not have more pieces than it starts with: the board makes only
        positions that its FEN reads back (``Board(board.fen())``).

        >>> board = Board.empty(variant="english")
        >>> board.set_piece_at(15, Piece(KING, WHITE))
        >>> board.fen()
        'B:WK15:B'

        :raises ValueError: for a square off the board, a man on its crowning
            row, or a piece more than its side starts with.
        """
        bit = self._square_bit(square)
        if piece is not None:
            self._check_room(square, bit, piece)
        for color in (0, 1):
            self._men[color] &= ~bit
            self._kings[color] &= ~bit
        if piece is not None:
            if piece.kind == KING:
                self._kings[piece.color] |= bit
            else:
                self._men[piece.color] |= bit
        self._restart_counts()

    def _check_room(self, square: int, bit: int, piece: Piece) -> None:
        """Refuse ``piece`` on ``square`` where ``Board(fen)`` would refuse it."""
        name = self._ctx.core.name_of_square[square]
        color = piece.color.name.lower()
        if piece.kind == MAN and bit & self._ctx.core.promotion_mask[piece.color]:
            raise ValueError(
                f"a {color} man cannot stand on square {name}, where it would be crowned"
            )
        own = (self._men[piece.color] | self._kings[piece.color]) & ~bit
        limit = self._ctx.fen.start_piece_count
        if own.bit_count() >= limit:
            raise ValueError(
                f"{color} already has {limit} pieces, as many as a side starts with in "
                f"{self._variant.name}: no room for one on square {name}"
            )

    def remove_piece_at(self, square: int) -> Piece | None:
        """Empty ``square`` and return what stood there."""
        piece = self.piece_at(square)
        self.set_piece_at(square, None)
        return piece

    def pieces(
        self,
        *args: PieceKind | Color,
        kind: PieceKind | None = None,
        color: Color | None = None,
    ) -> tuple[int, ...]:
        """The squares of the pieces of ``kind`` (both kinds if None) and
        ``color`` (both sides if None), in ascending order.

        Give them by keyword, or by position kind first, as in
        :class:`Piece` (``Piece(KING, WHITE)``): ``pieces(KING, WHITE)``. A
        side alone, ``pieces(WHITE)``, is all its pieces.

        >>> board = Board("W:WK46,31:B1", variant="international")
        >>> board.pieces(MAN, WHITE), board.pieces(kind=KING), board.pieces(BLACK)
        ((31,), (46,), (1,))

        The order of earlier versions, side first (``pieces(WHITE, KING)``),
        still answers the same but is deprecated (a :class:`DeprecationWarning`),
        as are plain ints, which cannot say which argument is which.

        :raises TypeError: for two kinds, two sides, or an argument given both
            by position and by keyword.
        """
        if args:
            kind, color = self._pieces_arguments(args, kind, color)
        masks = (
            [self._men[c] | self._kings[c] for c in (0, 1)]
            if kind is None
            else (self._kings if kind == KING else self._men)
        )
        mask = masks[0] | masks[1] if color is None else masks[color]
        return tuple(self._ctx.core.squares_of(mask))

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

    def piece_map(self) -> dict[int, Piece]:
        """Every occupied square with its piece."""
        out: dict[int, Piece] = {}
        for color in (0, 1):
            for kind, mask in ((0, self._men[color]), (1, self._kings[color])):
                for square in self._ctx.core.squares_of(mask):
                    out[square] = _PIECES[color][kind]
        return dict(sorted(out.items()))

    # -- FEN ------------------------------------------------------------------

    def fen(self) -> str:
        """The position as a PDN 3.0 FEN.

        >>> Board().fen()
        'W:W31-50:B1-20'
        """
        return format_fen(
            self._ctx.fen,
            (self._turn, (self._men[0], self._men[1]), (self._kings[0], self._kings[1])),
        )

    def set_fen(self, fen: str) -> None:
        """Set up the position of ``fen`` and forget the move history.

        The lidraughts counters ``:H`` (plies since the last capture or man
        move) and ``:F`` (the move number), when present, carry on into
        :attr:`halfmove_clock` and the game-length count of the draw rules.

        >>> board = Board("W:WK46:BK5,K23:H20:F30", variant="international")
        >>> board.halfmove_clock
        20

        :raises InvalidFenError: if the FEN is malformed or describes a
            position the variant cannot have.
        """
        position = parse_fen(self._ctx.fen, fen)
        self._men = list(position.men)
        self._kings = list(position.kings)
        self._turn = position.turn
        self.clear_stack()
        # Counts run from ply 0, so plies played before the FEN lie below it.
        if position.halfmove_clock:
            self._quiet_from = -position.halfmove_clock
        if position.fullmove_number and position.fullmove_number > 1:
            first = int(self._variant.first_color)
            self._ply_origin = -(2 * (position.fullmove_number - 1) + (self._turn != first))

    # -- Moves ----------------------------------------------------------------

    def _frozen_kings(self) -> int:
        c = self._turn
        bit, moves = self._kmoves[2 * c], self._kmoves[2 * c + 1]
        return bit if moves >= self._ctx.king_limit and self._men[c] else 0

    def _legal_list(self) -> list[Move]:
        if self._legal is None:
            c = self._turn
            men, kings = self._men, self._kings
            # Moves come in square order (origin, then destination): it reads
            # well in lists and does not depend on how the generator walks
            # the board.
            moves = _core.board_moves(
                self._ctx.core,
                c,
                men[c],
                kings[c],
                men[1 - c],
                kings[1 - c],
                self._frozen_kings() if self._ctx.king_limit else 0,
            )
            self._legal = moves
        return self._legal

    @property
    def legal_moves(self) -> LegalMoveGenerator:
        """A live view of the legal moves: iterate it, test ``move in``,
        ``count()`` it or test its truth.

        >>> board = Board(variant="english")
        >>> board.legal_moves.count(), bool(board.legal_moves)
        (7, True)
        """
        return LegalMoveGenerator(self)

    def generate_legal_moves(self) -> Iterator[Move]:
        """Yield the legal moves."""
        yield from self._legal_list()

    def has_captures(self) -> bool:
        """Whether the side to move must capture."""
        c = self._turn
        return bool(
            _core.captures(
                self._ctx.core,
                c,
                self._men[c],
                self._kings[c],
                self._men[1 - c],
                self._kings[1 - c],
            )
        )

    def _unique_move_python(self, origin: int, destination: int, capture: bool) -> Move | None:
        """The legal move from ``origin`` to ``destination`` when it is the
        only one and is a capture exactly when ``capture`` is true, else None
        (what the PDN reader asks of every move of a plain line: the native
        core's ``_play_line`` asks it here for a board it does not hold).

        :raises ValueError: for a square off the board.
        """
        between = self.moves_between(origin, destination)
        if len(between) == 1 and bool(between[0].captures) == capture:
            return between[0]
        return None

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal here."""
        return move in self._legal_list()

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

    def moves_between(self, from_square: int, to_square: int) -> list[Move]:
        """The legal moves from ``from_square`` to ``to_square`` (several only
        for captures that take different pieces), found without listing every
        legal move: what a game reader or a click on a board needs.

        >>> Board(variant="english").moves_between(9, 14)
        [Move(9, 14)]
        >>> Board(variant="english").moves_between(9, 18)
        []

        :raises ValueError: for a square off the board.
        """
        ctx = self._ctx
        core = ctx.core
        # The game reader calls this for nearly every move: the squares are
        # checked by the look-up itself (index -1 off the board; a negative
        # square would index from the end, hence the sign test).
        index_of = core.index_of_square
        try:
            origin = index_of[from_square]
            destination = index_of[to_square]
        except (IndexError, TypeError):
            origin = destination = -1
        if origin < 0 or destination < 0 or from_square < 0 or to_square < 0:
            bad = to_square if self._is_square(from_square) else from_square
            raise ValueError(f"no square {bad!r} on the {self._variant.name} board")
        if self._legal is not None:
            return [
                m for m in self._legal if m.from_square == from_square and m.to_square == to_square
            ]
        c = self._turn
        men, kings = self._men, self._kings
        return _core.moves_between(
            core,
            c,
            men[c],
            kings[c],
            men[1 - c],
            kings[1 - c],
            origin,
            destination,
            self._frozen_kings() if ctx.king_limit else 0,
        )

    def find_move(
        self, from_square: int, to_square: int, *, captures: Iterable[int] | None = None
    ) -> Move:
        """The legal move from ``from_square`` to ``to_square`` (capturing
        exactly ``captures`` when given).

        >>> Board(variant="english").find_move(9, 14)
        Move(9, 14)

        :raises IllegalMoveError: if there is none.
        :raises AmbiguousMoveError: if several moves match and ``captures``
            does not tell them apart.
        """
        wanted = None if captures is None else frozenset(captures)
        try:
            between = self.moves_between(from_square, to_square)
        except ValueError:
            between = []
        found = [m for m in between if wanted is None or frozenset(m.captures) == wanted]
        if len(found) == 1:
            return found[0]
        if not found:
            raise IllegalMoveError(
                f"no legal move from {from_square} to {to_square} in {self.fen()}"
            )
        raise AmbiguousMoveError(
            f"several moves from {from_square} to {to_square} in {self.fen()}: "
            + ", ".join(self.pdn(m, long=True) for m in found),
            tuple(found),
        )

    def _push_python(self, move: Move) -> None:
        """Play ``move``.

        The move should come from :attr:`legal_moves`, :meth:`parse_pdn` or
        :meth:`find_move`; like python-chess, ``push`` does not check that it
        is legal (use :meth:`is_legal` or :meth:`push_pdn` for that), only that
        the side to move has a piece on its origin.

        :raises IllegalMoveError: if the origin holds no piece of the side to move.
        """
        # Everything is worked out before the board changes, so an error
        # leaves it as it was. One function of about 90 lines on purpose:
        # push+pop takes about 1 us, and each helper call on the way would
        # add some 70 ns to every move played (perft, replay, search).
        c = self._turn
        o = 1 - c
        ctx = self._ctx
        tracker = ctx.tracker
        bits = ctx.bits
        try:
            origin = bits[move.from_square]
            target = bits[move.to_square]
        except KeyError:
            raise IllegalMoveError(f"{move!r} leaves the {self._variant.name} board") from None
        men, kings = self._men, self._kings
        zobrist = ctx.square_keys
        old_key = self._key
        if old_key is None:
            old_key = self._key = ctx.keys.of(c, men, kings)
        key = old_key ^ zobrist.black_to_move
        captures = move.captures
        captured = 0
        if captures:
            opp_men, opp_kings = men[o], kings[o]
            zm, zk = zobrist.men[o], zobrist.kings[o]
            try:
                for square in captures:
                    bit = bits[square]
                    captured |= bit
                    if opp_kings & bit:
                        key ^= zk[square]
                    elif opp_men & bit:
                        key ^= zm[square]
            except KeyError:
                raise IllegalMoveError(f"{move!r} leaves the {self._variant.name} board") from None
        own_men, own_kings = men[c], kings[c]
        crowned = 0
        if own_men & origin:
            is_man = True
            crowned = target & ctx.promotion[c]
            # Where a man crowned on the way continues as a king, it may have
            # crossed the crowning row at one of its landing squares before
            # the last, which only a capture of several pieces has.
            if not crowned and len(captures) > 1 and ctx.crown_and_continue:
                if len(move.path) != len(captures) + 1:
                    # A hand-made move without its route: take the legal one's.
                    move = next((m for m in self._legal_list() if m == move), move)
                if not ctx.crowning_squares[c].isdisjoint(move.path):
                    crowned = target
            # A capture may bring the man back to its own square: clear it first.
            own_men &= ~origin
            if crowned:
                own_kings |= target
                key ^= zobrist.men[c][move.from_square] ^ zobrist.kings[c][move.to_square]
            else:
                own_men |= target
                key ^= zobrist.men[c][move.from_square] ^ zobrist.men[c][move.to_square]
        elif own_kings & origin:
            is_man = False
            own_kings = (own_kings & ~origin) | target
            key ^= zobrist.kings[c][move.from_square] ^ zobrist.kings[c][move.to_square]
        else:
            raise IllegalMoveError(
                f"no {self.turn.name.lower()} piece on {move.from_square}: {move!r} in {self.fen()}"
            )
        stack = self._stack
        stack.append(
            (
                men[0],
                men[1],
                kings[0],
                kings[1],
                c,
                old_key,
                self._quiet_from,
                self._starts,
                self._kmoves,
            )
        )
        self.move_stack.append(move)
        men[c] = own_men
        kings[c] = own_kings
        if captured:  # opp_men and opp_kings were read with the captures
            men[o] = opp_men & ~captured
            kings[o] = opp_kings & ~captured
        self._turn = o
        self._legal = None
        self._key = key
        if is_man or captured:
            ply = len(stack)
            self._quiet_from = ply
            # The tracked rules' counts. A plain man move keeps the material
            # and the kings where they are: the same rules hold and, unless
            # one restarts on man moves, their counts go on.
            if captured or crowned or tracker.man_move_resets:
                events = (
                    (_CAPTURE if captured else 0)
                    | (_MAN_MOVE if is_man else 0)
                    | (_PROMOTION if crowned else 0)
                )
                self._starts = tracker.after_progress(self._starts, ply, men, kings, events)
        elif (origin | target) & tracker.long_diagonal and (
            men[0] | men[1] | kings[0] | kings[1]
        ).bit_count() <= tracker.positional_pieces:
            # A quiet king move changes no material, so only a rule that asks
            # for the lone king on the long diagonal can start or stop, and
            # only if this king left or reached that diagonal.
            self._starts = tracker.update(self._starts, len(stack), men, kings, 0)
        if ctx.king_limit:
            self._count_king_move(c, origin, target, not is_man and not captured)

    def _count_king_move(self, c: int, origin: int, target: int, quiet_king_move: bool) -> None:
        # Variant.king_move_limit: follow the king that made the side's last
        # moves, while the side still has men.
        kmoves = self._kmoves
        if quiet_king_move and self._men[c]:
            moves = kmoves[2 * c + 1] + 1 if kmoves[2 * c] == origin else 1
        elif kmoves[2 * c]:
            target = moves = 0
        else:
            return  # no king followed for this side: nothing changes
        self._kmoves = (
            (target, moves, kmoves[2], kmoves[3])
            if c == 0
            else (kmoves[0], kmoves[1], target, moves)
        )

    def _pop_python(self) -> Move:
        """Take back the last move and return it.

        :raises IndexError: if no move was played.
        """
        move = self.move_stack.pop()
        (m0, m1, k0, k1, self._turn, self._key, self._quiet_from, self._starts, self._kmoves) = (
            self._stack.pop()
        )
        # Into the board's own lists (no other board shares them): cheaper
        # than building two new ones.
        men, kings = self._men, self._kings
        men[0] = m0
        men[1] = m1
        kings[0] = k0
        kings[1] = k1
        self._legal = None
        return move

    # On the native backend, push and pop are those of the core's
    # BoardState, in C: push+pop in about 330 ns instead of 890
    # (benchmarks/compare.py, row "push+pop"). They hand the moves they do
    # not cover to the Python ones above, which the pure backend runs.
    push = _core.BoardState.push if _core.STATE_IN_C else _push_python
    pop = _core.BoardState.pop if _core.STATE_IN_C else _pop_python

    def peek(self) -> Move:
        """The last move played.

        :raises IndexError: if no move was played.
        """
        return self.move_stack[-1]

    # -- Game end -------------------------------------------------------------

    @property
    def halfmove_clock(self) -> int:
        """Plies played since the last capture or man move (or since the
        position was set up): the count of the 25-move, 40-move and
        king-moves rules.

        >>> board = Board("W:WK46:BK4", variant="international")
        >>> _ = board.push_pdn("46-41"); _ = board.push_pdn("4-9")
        >>> board.halfmove_clock
        2
        """
        return len(self._stack) - self._quiet_from

    @property
    def position_key(self) -> int:
        """A 64-bit Zobrist key of the pieces and the side to move: equal
        positions have equal keys. It is kept up to date move by move.

        >>> Board().position_key == Board().copy().position_key
        True
        """
        key = self._key
        if key is None:
            key = self._key = self._ctx.keys.of(self._turn, self._men, self._kings)
        return key

    def draw_rule_counts(self) -> list[tuple[DrawRule, int | None]]:
        """Each counting draw rule of the variant with how far its count has
        got (plies, or the strong side's moves for rules counted that way),
        None while the rule's material is not on the board.

        >>> board = Board("W:WK46:BK5,K23", variant="international")
        >>> [(rule.termination.name, n) for rule, n in board.draw_rule_counts()]
        [('TWENTY_FIVE_MOVE_RULE', 0), ('SIXTEEN_MOVE_RULE', None), ('FIVE_MOVE_RULE', 0)]
        """
        return [(rule, self._count(i)) for i, rule in enumerate(self._ctx.tracker.counting)]

    def _count(self, index: int) -> int | None:
        tracker = self._ctx.tracker
        mode, slot = tracker.modes[index]
        ply = len(self._stack)
        start: int | None
        if mode == _draw_rules.QUIET:
            start = self._quiet_from
        elif mode == _draw_rules.PLIES:
            start = self._ply_origin
        else:
            start = self._starts[slot]
        return tracker.count(index, start, ply, self._turn, self._men, self._kings)

    def king_moves(self, color: Color) -> int:
        """How many non-capturing moves in a row ``color`` has made with the
        same king while it still has men: the count of
        :attr:`~draughts.variant.Variant.king_move_limit` (always 0 in variants without it).

        >>> board = Board("W:WK46,50:B1", variant="frisian")
        >>> _ = board.push_pdn("46-41"); _ = board.push_pdn("1-7")
        >>> board.king_moves(WHITE)
        1
        """
        return self._kmoves[2 * int(color) + 1]

    def is_repetition(self, count: int = 3) -> bool:
        """Whether the position, with the same side to move, has occurred
        ``count`` times (this time included) since the last capture or man
        move, neither of which can be undone.

        >>> board = Board("W:WK46:BK4", variant="international")
        >>> for text in ["46-41", "4-9", "41-46", "9-4"] * 2:
        ...     _ = board.push_pdn(text)
        >>> board.is_repetition(3), board.is_repetition(4)
        (True, False)
        """
        key = self.position_key
        seen = 1
        stack = self._stack
        for ply in range(len(stack) - 2, max(self._quiet_from, 0) - 1, -2):
            if stack[ply][5] == key:
                seen += 1
                if seen >= count:
                    return True
        return seen >= count

    def can_claim_threefold_repetition(self) -> bool:
        """Whether the player to move may claim a draw by repetition: the
        position has occurred as often as the variant's repetition rule asks,
        or, where the rule allows it (:attr:`DrawRule.claim_on_next_move
        <draughts.outcome.DrawRule.claim_on_next_move>`, the WCDF wording:
        "with their next move they would create the same position for the
        third time"), one of the legal moves would make it so. False in a
        variant without a repetition rule.

        >>> board = Board("B:WK29:BK4", variant="english")
        >>> for text in ["4-8", "29-25", "8-4", "25-29", "4-8", "29-25", "8-4"]:
        ...     _ = board.push_pdn(text)
        >>> board.is_repetition(), board.can_claim_threefold_repetition()
        (False, True)
        """
        rule = self._ctx.tracker.repetition
        if rule is None:
            return False
        if self.is_repetition(rule.limit):
            return True
        if not rule.claim_on_next_move:
            return False
        for move in self._legal_list():
            self.push(move)
            try:
                if self.is_repetition(rule.limit):
                    return True
            finally:
                self.pop()
        return False

    def _met(self, rule: DrawRule, index: int) -> bool:
        """Whether a rule is met on the board (``index`` into the tracker's
        counting rules, -1 for repetition)."""
        if index < 0:
            return self.is_repetition(rule.limit)
        count = self._count(index)
        if count is None or count < rule.limit:
            return False
        if rule.limit:
            return True
        # A pure material rule ("a king against a king is drawn") judges the
        # material that stays on the board: not while the side to move has a
        # capture, which it must make and which changes the material (with a
        # piece each, it takes the last one and wins). See "Choices made" in
        # docs/termination.rst.
        return not any(move.captures for move in self._legal_list())

    def _draws(self, automatic: bool) -> Iterator[DrawRule]:
        """The automatic or the claimable draw rules met now, in the order
        the variant lists them."""
        for rule, index in self._ctx.tracker.order:
            if rule.automatic != automatic:
                continue
            if (
                self.can_claim_threefold_repetition()
                if index < 0 and not automatic
                else self._met(rule, index)
            ):
                yield rule

    def can_claim_draw(self) -> bool:
        """Whether the player to move may claim a draw under one of the
        variant's claimable rules (automatic ones end the game by themselves,
        see :meth:`outcome`).

        >>> Board("B:WK29:BK4", variant="dama").can_claim_draw()
        True
        """
        return next(self._draws(False), None) is not None

    def outcome(self, *, claim_draw: bool = False) -> Outcome | None:
        """How the game has ended, or None while it goes on.

        A win comes first: the side to move has no legal move (it loses, or
        wins under :attr:`Goal.ANTIDRAUGHTS <draughts.outcome.Goal>`), or a
        side has made a king in breakthrough. Then the variant's automatic
        draw rules; with ``claim_draw`` also the draws the player to move
        could claim now.

        >>> board = Board("W:W28:B23", variant="international")
        >>> board.outcome() is None
        True
        >>> board.push_pdn("28x19").captures
        (23,)
        >>> outcome = board.outcome()
        >>> outcome.termination.name, outcome.winner.name, outcome.result()
        ('NO_PIECES', 'WHITE', '2-0')
        """
        variant = self._variant
        style = variant.result_style
        turn = self._turn
        if variant.goal is Goal.BREAKTHROUGH:
            for side in (1 - turn, turn):
                if self._kings[side]:
                    return Outcome(Termination.BREAKTHROUGH, _COLORS[side], style)
        if not self._legal_list():
            termination = (
                Termination.BLOCKED
                if self._men[turn] | self._kings[turn]
                else Termination.NO_PIECES
            )
            winner = turn if variant.goal is Goal.ANTIDRAUGHTS else 1 - turn
            return Outcome(termination, _COLORS[winner], style)
        rule = next(self._draws(True), None)
        if rule is None and claim_draw:
            rule = next(self._draws(False), None)
        return None if rule is None else Outcome(rule.termination, None, style)

    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        """Whether :meth:`outcome` is not None.

        >>> Board().is_game_over()
        False
        """
        return self.outcome(claim_draw=claim_draw) is not None

    def outcome_on_timeout(self, color: Color) -> Outcome:
        """The result when ``color`` runs out of time: a loss, or a draw when
        a rule marked :attr:`~draughts.outcome.DrawRule.on_timeout` is met
        (``dama``: a threefold repetition on the board, or a single piece
        against a single king while the side to move has no capture).

        >>> Board("B:W5,K29:BK4", variant="dama").outcome_on_timeout(BLACK).winner
        <Color.WHITE: 0>
        >>> Board("B:WK29:BK4", variant="dama").outcome_on_timeout(BLACK).winner is None
        True
        """
        for rule, index in self._ctx.tracker.order:
            if rule.on_timeout and self._met(rule, index):
                return Outcome(Termination.TIMEOUT, None, self._variant.result_style)
        return Outcome(Termination.TIMEOUT, _COLORS[1 - int(color)], self._variant.result_style)

    def outcome_on_resignation(self, color: Color) -> Outcome:
        """The result when ``color`` resigns: its opponent wins.

        >>> Board().outcome_on_resignation(WHITE).result()
        '0-2'
        """
        return Outcome(Termination.RESIGNATION, _COLORS[1 - int(color)], self._variant.result_style)

    def outcome_by_agreement(self) -> Outcome:
        """The result of a draw agreed by the players.

        >>> Board(variant="english").outcome_by_agreement().result()
        '1/2-1/2'
        """
        return Outcome(Termination.AGREEMENT, None, self._variant.result_style)

    # -- Notation -------------------------------------------------------------

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

    # -- Copies, comparison, display -----------------------------------------

    def copy(self, *, stack: bool = True) -> Board:
        """A copy of the board, with its move history unless ``stack=False``."""
        board = type(self).__new__(type(self))
        board._variant = self._variant
        board._ctx = self._ctx
        board._men = list(self._men)
        board._kings = list(self._kings)
        board._turn = self._turn
        board._ply_origin = self._ply_origin if stack else 0
        board.move_stack = list(self.move_stack) if stack else []
        board._stack = list(self._stack) if stack else []
        if stack:
            board._key = self._key
            board._quiet_from = self._quiet_from
            board._starts = self._starts
            board._kmoves = self._kmoves
        else:
            board._restart_counts()
        board._legal = self._legal
        return board

    def mirror(self) -> Board:
        """The same position with the sides exchanged: the board turned half
        a turn, every piece of the other colour, the other side to move
        (without the move history). Its moves mirror this board's, and its
        outcome is this board's with the sides exchanged.

        >>> board = Board("W:WK46,31:B1,2", variant="international")
        >>> board.mirror().fen()
        'B:W49-50:BK5,20'
        >>> board.mirror().mirror() == board
        True

        :raises ValueError: for a custom board that turning maps off its
            playing squares (a width and height of different parity).
        """
        variant = self._variant
        board = type(self).empty(variant=variant)
        height, width = variant.height, variant.width
        men: list[int] = [0, 0]
        kings: list[int] = [0, 0]
        bits = self._ctx.core.bit_of_square
        for square, piece in self.piece_map().items():
            row, column = variant.coordinates(square)
            turned = variant.square_at(height - 1 - row, width - 1 - column)
            if turned is None:
                raise ValueError(
                    f"the {variant.name} board turned half a turn does not fall on its "
                    "playing squares: it has no mirror"
                )
            (kings if piece.kind == KING else men)[1 - piece.color] |= bits[turned]
        board._men, board._kings = men, kings
        board._turn = 1 - self._turn
        board._restart_counts()
        return board

    def __copy__(self) -> Board:
        return self.copy()

    # The state lives in the core's BoardState (C members on the native
    # backend), which the default reduction does not see: a board pickles as
    # its class and one dict of every attribute, with every protocol.
    def __reduce_ex__(self, protocol: SupportsIndex) -> tuple[object, ...]:
        # copyreg.__newobj__ (not in the type stubs) is what pickle writes as
        # its NEWOBJ opcode: the class alone, as the default reduction does.
        return (copyreg.__newobj__, (type(self),), self.__getstate__())  # type: ignore[attr-defined]

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        for name in _core.STATE_NAMES:
            state[name] = getattr(self, name)
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        for name in _core.STATE_NAMES:  # the context first: see STATE_NAMES
            if name in state:
                setattr(self, name, state[name])
        for name, value in state.items():
            if name not in _core.STATE_NAMES:
                setattr(self, name, value)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (
            self._variant == other._variant
            and self._turn == other._turn
            and self._men == other._men
            and self._kings == other._kings
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.fen()!r}, variant={self._variant.name!r})"

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

        return draughts.svg.board(self, lastmove=self.move_stack[-1] if self.move_stack else None)


class LegalMoveGenerator:
    """The legal moves of a board, computed when asked (see
    :attr:`Board.legal_moves`).

    >>> moves = Board(variant="english").legal_moves
    >>> Move(9, 13) in moves, len(list(moves))
    (True, 7)
    """

    __slots__ = ("board",)

    def __init__(self, board: Board) -> None:
        self.board = board

    def __iter__(self) -> Iterator[Move]:
        return iter(self.board._legal_list())

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and move in self.board._legal_list()

    def __bool__(self) -> bool:
        return bool(self.board._legal_list())

    def __len__(self) -> int:
        return len(self.board._legal_list())

    def count(self) -> int:
        """How many legal moves there are."""
        return len(self.board._legal_list())

    def __repr__(self) -> str:
        board = self.board
        return f"<LegalMoveGenerator ({', '.join(board.pdn(m) for m in self)})>"


def perft(board: Board, depth: int) -> int:
    """The number of move sequences of length ``depth`` from the position
    (routes that capture the same pieces count once).

    >>> perft(Board(variant="english"), 3)
    302
    """
    if depth < 0:
        raise ValueError(f"perft depth must be at least 0, not {depth}")
    if depth == 0:
        return 1
    men, kings = board._men, board._kings
    return _core.perft(board._ctx.core, depth, board._turn, men[0], men[1], kings[0], kings[1])
