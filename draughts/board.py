"""The :class:`Board`: a position, the side to move and the moves played.

This module holds its state, pieces, FEN, legal moves, push and pop, and
copies; its other jobs are parts it inherits (see :mod:`draughts._board_base`):
the game's end, notation and diagrams, and the checks of positions and moves.
"""

from __future__ import annotations

import copyreg
from collections.abc import Iterable, Iterator
from typing import SupportsIndex

from draughts import _core, _draw_rules
from draughts._board_checks import Checks, Status
from draughts._board_end import GameEnd
from draughts._board_notation import Notation
from draughts._context import VariantContext, context
from draughts._core import UndoRecord
from draughts._fen import format_fen, parse_fen
from draughts.errors import AmbiguousMoveError, IllegalMoveError
from draughts.move import Move
from draughts.piece import BLACK, KING, MAN, WHITE, Color, Piece, PieceKind
from draughts.variant import INTERNATIONAL, Variant, find_variant

__all__ = ["Board", "LegalMoveGenerator", "Status", "perft"]

_COLORS = (WHITE, BLACK)
_PIECES = (
    (Piece.of(MAN, WHITE), Piece.of(KING, WHITE)),
    (Piece.of(MAN, BLACK), Piece.of(KING, BLACK)),
)

# Consecutive non-capturing moves of one king per side, for
# Variant.king_move_limit: (white king bit, its moves, black king bit, its moves).
_NO_KING_MOVES = (0, 0, 0, 0)


# Reset flags as plain ints: enum arithmetic is too slow for push().
_CAPTURE, _MAN_MOVE, _PROMOTION = _draw_rules.Tracker.events


class Board(Checks, GameEnd, Notation):
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
        # What push() changes, as it was before each move: pop() restores it
        # whole (the fields: draughts._core.UNDO_FIELDS).
        self._stack: list[UndoRecord] = []
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
        ``play_line`` of :mod:`draughts.pdn._native` asks it here for a board
        the native core does not hold).

        :raises ValueError: for a square off the board.
        """
        between = self.moves_between(origin, destination)
        if len(between) == 1 and bool(between[0].captures) == capture:
            return between[0]
        return None

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal here."""
        return move in self._legal_list()

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
