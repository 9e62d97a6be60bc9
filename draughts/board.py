"""The :class:`Board`: a position, the side to move and the moves played."""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator

from draughts import _movegen
from draughts._fen import format_fen, parse_fen
from draughts._notation import match_move, write_move
from draughts._tables import Tables, tables
from draughts.errors import IllegalMoveError
from draughts.move import Move
from draughts.piece import BLACK, KING, MAN, WHITE, Color, Piece, PieceKind
from draughts.variant import INTERNATIONAL, Variant, find_variant

__all__ = ["Board", "LegalMoveGenerator", "perft"]

_COLORS = (WHITE, BLACK)
_MOVE_ORDER = operator.attrgetter("from_square", "to_square", "path")
_PIECES = ((Piece.of(MAN, WHITE), Piece.of(KING, WHITE)), (Piece.of(MAN, BLACK), Piece.of(KING, BLACK)))

# A snapshot of everything push() changes: (white men, black men, white kings,
# black kings, side to move). pop() restores it whole instead of undoing a move.
_State = tuple[int, int, int, int, int]


class Board:
    """A draughts position with its variant, side to move and move history.

    ``Board()`` is the start of an international game; give a variant (a
    :class:`Variant` or any name :func:`find_variant` knows) for another game,
    and a FEN for another position:

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

    def __init__(self, fen: str | None = None, *, variant: Variant | str | int = INTERNATIONAL
                 ) -> None:
        self._variant = find_variant(variant)
        self._t: Tables = tables(self._variant)
        self.move_stack: list[Move] = []
        """The moves played on this board, oldest first."""
        self._stack: list[_State] = []
        self._legal: list[Move] | None = None
        self.set_fen(self._t.starting_fen if fen is None else fen)

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
        self._legal = None

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
        self._legal = None

    def ply(self) -> int:
        """How many moves have been pushed."""
        return len(self.move_stack)

    # -- Pieces ---------------------------------------------------------------

    def _square_bit(self, square: int) -> int:
        if not isinstance(square, int) or not 1 <= square <= self._t.square_count:
            raise ValueError(f"no square {square!r} on the {self._variant.name} board")
        return self._t.bit_of_square[square]

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

        A man may not stand on the row where it would be crowned.

        >>> board = Board.empty(variant="english")
        >>> board.set_piece_at(15, Piece(KING, WHITE))
        >>> board.fen()
        'B:WK15:B'

        :raises ValueError: for a square off the board or a man on its crowning row.
        """
        bit = self._square_bit(square)
        if piece is not None and piece.kind == MAN and bit & self._t.promotion_mask[piece.color]:
            raise ValueError(
                f"a {piece.color.name.lower()} man cannot stand on square "
                f"{self._t.name_of_square[square]}, where it would be crowned"
            )
        for color in (0, 1):
            self._men[color] &= ~bit
            self._kings[color] &= ~bit
        if piece is not None:
            if piece.kind == KING:
                self._kings[piece.color] |= bit
            else:
                self._men[piece.color] |= bit
        self._legal = None

    def remove_piece_at(self, square: int) -> Piece | None:
        """Empty ``square`` and return what stood there."""
        piece = self.piece_at(square)
        self.set_piece_at(square, None)
        return piece

    def pieces(self, color: Color, kind: PieceKind | None = None) -> tuple[int, ...]:
        """The squares of ``color``'s pieces of ``kind`` (both kinds if None),
        in ascending order.

        >>> Board(variant="english").pieces(WHITE, MAN)[:3]
        (21, 22, 23)
        """
        if kind is None:
            mask = self._men[color] | self._kings[color]
        else:
            mask = self._kings[color] if kind == KING else self._men[color]
        return tuple(self._t.squares_of(mask))

    def piece_map(self) -> dict[int, Piece]:
        """Every occupied square with its piece."""
        out: dict[int, Piece] = {}
        for color in (0, 1):
            for kind, mask in ((0, self._men[color]), (1, self._kings[color])):
                for square in self._t.squares_of(mask):
                    out[square] = _PIECES[color][kind]
        return dict(sorted(out.items()))

    # -- FEN ------------------------------------------------------------------

    def fen(self) -> str:
        """The position as a PDN 3.0 FEN.

        >>> Board().fen()
        'W:W31-50:B1-20'
        """
        return format_fen(self._t, (self._turn, (self._men[0], self._men[1]),
                                    (self._kings[0], self._kings[1])))

    def set_fen(self, fen: str) -> None:
        """Set up the position of ``fen`` and forget the move history.

        :raises InvalidFenError: if the FEN is malformed or describes a
            position the variant cannot have.
        """
        position = parse_fen(self._t, fen)
        self._men = list(position.men)
        self._kings = list(position.kings)
        self._turn = position.turn
        self.clear_stack()

    # -- Moves ----------------------------------------------------------------

    def _raw_legal(self) -> list[_movegen.RawMove]:
        c = self._turn
        return _movegen.legal_moves(self._t, c, self._men[c], self._kings[c],
                                    self._men[1 - c], self._kings[1 - c])

    def _legal_list(self) -> list[Move]:
        if self._legal is None:
            number = self._t.square_of_index
            moves = []
            for origin, to, _mask, caps, path, _crowned in self._raw_legal():
                if caps:
                    moves.append(Move(number[origin], number[to],
                                      tuple([number[c] for c in caps]),
                                      tuple([number[p] for p in path])))
                else:
                    a, b = number[origin], number[to]
                    moves.append(Move(a, b, (), (a, b)))
            # Square order reads well in lists and makes the order independent
            # of how the generator walks the board.
            moves.sort(key=_MOVE_ORDER)
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
        return bool(_movegen.captures(self._t, c, self._men[c], self._kings[c],
                                      self._men[1 - c], self._kings[1 - c]))

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal here."""
        return move in self._legal_list()

    def find_move(self, from_square: int, to_square: int, *,
                  captures: Iterable[int] | None = None) -> Move:
        """The legal move from ``from_square`` to ``to_square`` (capturing
        exactly ``captures`` when given).

        >>> Board(variant="english").find_move(9, 14)
        Move(9, 14)

        :raises IllegalMoveError: if there is none.
        :raises AmbiguousMoveError: if several moves match and ``captures``
            does not tell them apart.
        """
        from draughts.errors import AmbiguousMoveError

        wanted = None if captures is None else frozenset(captures)
        found = [m for m in self._legal_list()
                 if m.from_square == from_square and m.to_square == to_square
                 and (wanted is None or frozenset(m.captures) == wanted)]
        if len(found) == 1:
            return found[0]
        if not found:
            raise IllegalMoveError(
                f"no legal move from {from_square} to {to_square} in {self.fen()}")
        raise AmbiguousMoveError(
            f"several moves from {from_square} to {to_square} in {self.fen()}: "
            + ", ".join(self.pdn(m, long=True) for m in found), tuple(found))

    def push(self, move: Move) -> None:
        """Play ``move``.

        The move should come from :attr:`legal_moves`, :meth:`parse_pdn` or
        :meth:`find_move`; like python-chess, ``push`` does not check that it
        is legal (use :meth:`is_legal` or :meth:`push_pdn` for that), only that
        the side to move has a piece on its origin.

        :raises IllegalMoveError: if the origin holds no piece of the side to move.
        """
        t = self._t
        c = self._turn
        index = t.index_of_square
        count = t.square_count
        if not (1 <= move.from_square <= count and 1 <= move.to_square <= count):
            raise IllegalMoveError(f"{move!r} leaves the {self._variant.name} board")
        origin = 1 << index[move.from_square]
        target = 1 << index[move.to_square]
        captured = 0
        for square in move.captures:
            if not 1 <= square <= count:
                raise IllegalMoveError(f"{move!r} leaves the {self._variant.name} board")
            captured |= 1 << index[square]
        men, kings = self._men, self._kings
        is_man = bool(men[c] & origin)
        if not is_man and not kings[c] & origin:
            raise IllegalMoveError(
                f"no {self.turn.name.lower()} piece on {move.from_square}: {move!r} "
                f"in {self.fen()}")
        crowned = False
        if is_man:
            promotion = t.promotion_mask[c]
            crowned = bool(target & promotion)
            if not crowned and t.crown_and_continue and move.captures:
                if len(move.path) != len(move.captures) + 1:
                    # A hand-made move without its route: take the legal one's.
                    move = next((m for m in self._legal_list() if m == move), move)
                crowned = any((1 << index[s]) & promotion for s in move.path)
        self._stack.append((men[0], men[1], kings[0], kings[1], c))
        self.move_stack.append(move)
        if is_man:
            men[c] &= ~origin
            if crowned:
                kings[c] |= target
            else:
                men[c] |= target
        else:
            kings[c] = (kings[c] & ~origin) | target
        if captured:
            o = 1 - c
            men[o] &= ~captured
            kings[o] &= ~captured
        self._turn = 1 - c
        self._legal = None

    def pop(self) -> Move:
        """Take back the last move and return it.

        :raises IndexError: if no move was played.
        """
        move = self.move_stack.pop()
        m0, m1, k0, k1, turn = self._stack.pop()
        self._men = [m0, m1]
        self._kings = [k0, k1]
        self._turn = turn
        self._legal = None
        return move

    def peek(self) -> Move:
        """The last move played.

        :raises IndexError: if no move was played.
        """
        return self.move_stack[-1]

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
            long = move.is_capture and sum(
                1 for m in self._legal_list()
                if m.from_square == move.from_square and m.to_square == move.to_square
            ) > 1
        return write_move(self._t, move, long)

    def parse_pdn(self, text: str) -> Move:
        """The legal move that ``text`` names, in short, full-route or
        partial-route form.

        >>> Board(variant="russian").parse_pdn("c3-d4")
        Move(22, 18)

        :raises InvalidMoveError: if ``text`` is not a move.
        :raises IllegalMoveError: if no legal move matches.
        :raises AmbiguousMoveError: if several legal moves match.
        """
        return match_move(self._t, text, self._legal_list(), self.fen())

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
        board._t = self._t
        board._men = list(self._men)
        board._kings = list(self._kings)
        board._turn = self._turn
        board._legal = self._legal
        board.move_stack = list(self.move_stack) if stack else []
        board._stack = list(self._stack) if stack else []
        return board

    def __copy__(self) -> Board:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self._variant == other._variant and self._turn == other._turn
                and self._men == other._men and self._kings == other._kings)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.fen()!r}, variant={self._variant.name!r})"

    def _diagram(self, symbols: tuple[tuple[str, str], tuple[str, str]], empty: str,
                 light: str) -> str:
        t = self._t
        rows = []
        for row in reversed(range(t.height)):
            cells = []
            for col in range(t.width):
                index = row * t.stride + col
                if not t.square_of_index[index]:
                    cells.append(light)
                    continue
                bit = 1 << index
                cell = empty
                for c in (0, 1):
                    if self._men[c] & bit:
                        cell = symbols[c][0]
                    elif self._kings[c] & bit:
                        cell = symbols[c][1]
                cells.append(cell)
            rows.append(" ".join(cells).rstrip())
        return "\n".join(rows)

    def __str__(self) -> str:
        """An ASCII diagram, White at the bottom: ``w``/``b`` men,
        ``W``/``B`` kings, ``.`` empty playing squares."""
        return self._diagram((("w", "W"), ("b", "B")), ".", " ")

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
        return self._diagram(
            (("⛀", "⛁"), ("⛂", "⛃")), empty, " ")

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
    return _perft(board._t, depth, board._turn, board._men[0], board._men[1],
                  board._kings[0], board._kings[1])


def _perft(t: Tables, depth: int, c: int, m0: int, m1: int, k0: int, k1: int) -> int:
    if c == 0:
        moves = _movegen.legal_moves(t, 0, m0, k0, m1, k1)
    else:
        moves = _movegen.legal_moves(t, 1, m1, k1, m0, k0)
    if depth == 1:
        return len(moves)
    total = 0
    depth -= 1
    for origin, to, captured, _caps, _path, crowned in moves:
        a, b = 1 << origin, 1 << to
        if c == 0:
            if m0 & a:
                nm0, nk0 = (m0 ^ a, k0 | b) if crowned else ((m0 ^ a) | b, k0)
            else:
                nm0, nk0 = m0, (k0 & ~a) | b
            total += _perft(t, depth, 1, nm0, m1 & ~captured, nk0, k1 & ~captured)
        else:
            if m1 & a:
                nm1, nk1 = (m1 ^ a, k1 | b) if crowned else ((m1 ^ a) | b, k1)
            else:
                nm1, nk1 = m1, (k1 & ~a) | b
            total += _perft(t, depth, 0, m0 & ~captured, nm1, k0 & ~captured, nk1)
    return total
