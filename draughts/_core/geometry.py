"""Per-variant lookup tables: square numbering, rays and masks.

A :class:`Tables` object is built once per :class:`~draughts.Variant` and
shared by every board of that variant. Squares live in a padded grid: internal
index ``row * stride + column`` with ``stride = width + 2``, row 0 nearest
White. The two padding columns mean a step of up to two columns sideways never
wraps onto the next row, so a whole bitboard can be shifted in one operation
to move every man at once; bits that land on padding or beyond the last row
are removed by masking with :attr:`Tables.board_mask`.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from draughts.move import Move
from draughts.variant import CaptureRule, Directions, Promotion, Removal

if TYPE_CHECKING:
    from draughts._core.pure.capture_search import CaptureSearch
    from draughts._core.pure.king_views import KingView
    from draughts.variant import Variant

RawMove = tuple[int, int, int, tuple[int, ...], tuple[int, ...], bool]
"""A move as the generator makes it, see :mod:`draughts._core.pure.movegen`."""

_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_NUMERIC_SQUARE = re.compile(r"0*([1-9][0-9]*)")
_ALPHA_SQUARE = re.compile(r"([a-z])([1-9][0-9]?)")

# Absolute directions as (row step, column step) on dark-square boards; the
# orthogonal ones are halved on boards that use every square.
_DIAGONALS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_ORTHOGONALS = ((2, 0), (-2, 0), (0, 2), (0, -2))
REVERSE = (3, 2, 1, 0, 5, 4, 7, 6)
"""REVERSE[d] is the direction opposite to d."""


def _relative_directions(flags: Directions, white: bool) -> tuple[int, ...]:
    """Absolute direction numbers for a set of directions seen from one side."""
    up, down = (0, 1), (2, 3)
    forward, backward = (up, down) if white else (down, up)
    dirs: list[int] = []
    if flags & Directions.DIAGONAL_FORWARD:
        dirs += forward
    if flags & Directions.DIAGONAL_BACKWARD:
        dirs += backward
    if flags & Directions.ORTHOGONAL_FORWARD:
        dirs.append(4 if white else 5)
    if flags & Directions.ORTHOGONAL_BACKWARD:
        dirs.append(5 if white else 4)
    if flags & Directions.ORTHOGONAL_SIDEWAYS:
        dirs += (6, 7)
    return tuple(dirs)


class Tables:
    """Everything move generation, notation and FEN need about one variant."""

    def __init__(self, variant: Variant) -> None:
        width, height = variant.width, variant.height
        if not (2 <= width <= 26 and 2 <= height <= 99):
            raise ValueError(f"unsupported board size {width}x{height}")
        self.variant = variant
        self.width = width
        self.height = height
        self.stride = stride = width + 2
        self.algebraic = variant.notation == "algebraic"

        # -- Numbering (PDN 3.0 GameType, see rules-research.md §1.6) --------
        playable: dict[int, int] = {}  # internal index -> square number
        names: dict[int, str] = {}
        for row in range(height):
            for col in range(width):
                # Coordinates seen from the first player.
                if variant.first_color == 0:
                    prow, pcol = row, col
                else:
                    prow, pcol = height - 1 - row, width - 1 - col
                dark = (prow + pcol) % 2 == 0
                if not variant.all_squares and dark == variant.inverted:
                    continue
                index = row * stride + col
                number_corner = 2 if self.algebraic else variant.first_square_corner
                r, c = _from_corner(prow, pcol, number_corner, width, height)
                per_row = width if variant.all_squares else width // 2
                number = 1 + r * per_row + (c if variant.all_squares else c // 2)
                playable[index] = number
                if self.algebraic:
                    ar, ac = _from_corner(
                        prow, pcol, variant.first_square_corner, width, height
                    )
                    names[index] = f"{_LETTERS[ac]}{ar + 1}"
                else:
                    names[index] = str(number)
        count = len(playable)
        if sorted(playable.values()) != list(range(1, count + 1)):
            raise ValueError(f"cannot number the squares of {variant.name!r}")

        self.square_count = count
        self.index_of_square = [-1] * (count + 1)
        self.name_of_square = [""] * (count + 1)
        self.square_of_index = [0] * (stride * height)
        for index, number in playable.items():
            self.index_of_square[number] = index
            self.square_of_index[index] = number
            self.name_of_square[number] = names[index]
        self.bit_of_square = [0] + [1 << self.index_of_square[n] for n in range(1, count + 1)]
        self._number_of_name = {names[i]: n for i, n in playable.items()}
        self.board_mask = sum(1 << i for i in playable)
        top = sum(1 << i for i in playable if i // stride == height - 1)
        bottom = sum(1 << i for i in playable if i // stride == 0)
        self.promotion_mask = (top, bottom)
        """Indexed by colour: the row where that colour's men are crowned."""
        self.crowning_squares = tuple(frozenset(self.squares_of(m)) for m in (top, bottom))
        """The same rows as sets of square numbers."""

        # -- Directions and rays ---------------------------------------------
        halve = 2 if variant.all_squares else 1
        vectors = _DIAGONALS + tuple((dr // halve, dc // halve) for dr, dc in _ORTHOGONALS)
        self.rays: list[tuple[tuple[int, ...], ...]] = []
        for index in range(stride * height):
            row, col = divmod(index, stride)
            per_dir: list[tuple[int, ...]] = []
            for dr, dc in vectors:
                ray: list[int] = []
                r, c = row + dr, col + dc
                while 0 <= r < height and 0 <= c < width:
                    if r * stride + c in playable:
                        ray.append(r * stride + c)
                    else:
                        break
                    r, c = r + dr, c + dc
                per_dir.append(tuple(ray) if index in playable else ())
            self.rays.append(tuple(per_dir))
        self.shift = tuple(dr * stride + dc for dr, dc in vectors)

        sides = (True, False)
        self.man_move_dirs = tuple(_relative_directions(variant.man_moves, w) for w in sides)
        self.man_capture_dirs = tuple(
            _relative_directions(variant.man_captures, w) for w in sides
        )
        self.king_move_dirs = _relative_directions(variant.king_moves, True)
        self.king_capture_dirs = _relative_directions(variant.king_captures, True)
        self.man_shifts = tuple(
            tuple(self.shift[d] for d in self.man_move_dirs[c]) for c in (0, 1)
        )
        self.man_capture_shifts = tuple(
            tuple(self.shift[d] for d in self.man_capture_dirs[c]) for c in (0, 1)
        )

        # -- Rule switches, unpacked once for the move generator -------------
        self.flying_kings = variant.flying_kings
        self.removal_at_end = variant.removal is Removal.AT_END
        self.reverse_in_capture = variant.reverse_in_capture
        self.promotion = variant.promotion
        self.crown_and_stop = variant.promotion is Promotion.ENDS_MOVE
        self.crown_and_continue = variant.promotion is Promotion.CONTINUES_AS_KING
        self.men_capture_kings = variant.men_capture_kings
        self.lands_directly_behind = variant.king_lands_directly_behind
        self.stops_behind_king = variant.king_stops_behind_king
        self.must_land_to_continue = variant.must_land_to_continue
        self.precedence = variant.capture_precedence
        self.majority_only = self.precedence == (CaptureRule.MOST_PIECES,)
        # When every capture is a man's single jump, the precedence of these
        # rules keeps them all and no two are duplicates (see _movegen).
        king_dirs = set(self.king_move_dirs) | set(self.king_capture_dirs)
        self.king_ray_masks = [sum(1 << i for d in king_dirs for i in rays[d])
                               for rays in self.rays]
        """Per index, the squares on a king's lines from there."""
        self.king_views: list[dict[int, KingView]] = [{} for _ in self.rays]
        """Per index, what a king there can do, by the occupied squares of
        its lines (see :mod:`draughts._core.pure.king_views`)."""
        self.capture_searchers: list[CaptureSearch | None] = [None, None]
        """Per colour, the capture search built for these rules (see
        :mod:`draughts._core.pure.capture_search`), made on first use."""
        self.capture_move_cache: dict[tuple[tuple[int, ...], tuple[int, ...]], Move] = {}
        """Capture :class:`Move` objects already built, by (captured, path)
        indices (see :func:`draughts._core.pure.movegen.capture_moves`)."""

    # -- Squares --------------------------------------------------------------

    def parse_square(self, text: str) -> int | None:
        """The square number named by ``text``, or None."""
        text = text.strip().lower()
        match = _NUMERIC_SQUARE.fullmatch(text)
        if match is not None:
            number = int(match.group(1))
            return number if number <= self.square_count else None
        if _ALPHA_SQUARE.fullmatch(text) is not None:
            return self._number_of_name.get(text) if self.algebraic else self._alpha_number(text)
        return None

    def _alpha_number(self, text: str) -> int | None:
        """Algebraic names on a numeric board: a1 at the first player's bottom
        left, as the GameType notation digit counts (PDN 3.0; lidraughts and
        playstrategy write American checkers this way, Black's c3-d4 = 11-15)."""
        col = _LETTERS.index(text[0])
        row = int(text[1:]) - 1
        if not (0 <= col < self.width and 0 <= row < self.height):
            return None
        if self.variant.first_color != 0:
            row, col = self.height - 1 - row, self.width - 1 - col
        return self.square_of_index[row * self.stride + col] or None

    def squares_of(self, mask: int) -> list[int]:
        """The square numbers of the set bits of ``mask``, in ascending order."""
        square_of_index = self.square_of_index
        out = []
        while mask:
            low = mask & -mask
            out.append(square_of_index[low.bit_length() - 1])
            mask ^= low
        out.sort()
        return out

    @functools.cached_property
    def starting_fen(self) -> str:
        from draughts._fen import format_fen, parse_fen

        variant = self.variant
        if variant.start_fen is not None:
            # Normalise an explicit setup so that it reads back identically.
            start = parse_fen(self, variant.start_fen, limit_pieces=False)
            return format_fen(self, (start.turn, start.men, start.kings))
        rows = variant.men_rows
        white = black = 0
        for index, number in enumerate(self.square_of_index):
            if number:
                row = index // self.stride
                if row < rows:
                    white |= 1 << index
                elif row >= self.height - rows:
                    black |= 1 << index
        turn = int(variant.first_color)
        return format_fen(self, (turn, (white, black), (0, 0)))


    @functools.cached_property
    def step_objects(self) -> StepObjects:
        """Every step a man or king can make on this board, prebuilt."""
        return StepObjects(self)

    @functools.cached_property
    def man_jumps(self) -> tuple[tuple[tuple[int, int, list[RawMove | None]], ...], ...]:
        """Per colour, ``(shift, direction, row)`` for each direction a man
        captures in: ``row[origin]`` is the raw move of a man's single jump
        from index ``origin`` along ``shift``, built once (None off the board)."""
        size = len(self.square_of_index)
        number = self.square_of_index

        def jump(origin: int, shift: int, crowning: int) -> RawMove | None:
            over, land = origin + shift, origin + 2 * shift
            if not (0 <= land < size and number[origin] and number[over] and number[land]):
                return None
            return (origin, land, 1 << over, (over,), (origin, land),
                    bool((crowning >> land) & 1))

        return tuple(
            tuple((self.shift[d], d, [jump(origin, self.shift[d], self.promotion_mask[color])
                                      for origin in range(size)])
                  for d in self.man_capture_dirs[color])
            for color in (0, 1))

    @functools.cached_property
    def man_onward(self) -> tuple[list[tuple[int, tuple[tuple[int, int], ...]]], ...]:
        """Per colour and square, what a man there needs to jump again:
        ``(near, pairs)``, where ``near`` holds the squares next to it in its
        capture directions and ``pairs`` each such square's bit with the bit
        of the square behind it."""
        def onward(color: int, square: int) -> tuple[int, tuple[tuple[int, int], ...]]:
            pairs = tuple((1 << ray[0], 1 << ray[1]) for d in self.man_capture_dirs[color]
                          if len(ray := self.rays[square][d]) >= 2)
            return sum(over for over, _ in pairs), pairs

        return tuple([onward(color, square) for square in range(len(self.rays))]
                     for color in (0, 1))

    @functools.cached_property
    def start_piece_count(self) -> int:
        """The most pieces a side starts with: no position can have more."""
        from draughts._fen import parse_fen

        start = parse_fen(self, self.starting_fen, limit_pieces=False)
        return max((start.men[c] | start.kings[c]).bit_count() for c in (0, 1))


class StepObjects:
    """Prebuilt step values. For the men, ``men_raw[colour]`` pairs each of
    the colour's step shifts with a row where ``row[to]`` is the step that
    ends on index ``to``; for the kings, ``kings_raw[origin][d][i]`` is the
    step to the i-th square of the ray. ``men_ranks`` and ``kings_ranks``
    hold each step's place in square order instead, and ``by_rank[rank]``
    its :class:`Move`, so that a list of steps is put in square order by
    sorting small ints."""

    def __init__(self, t: Tables) -> None:
        number = t.square_of_index
        size = len(number)
        man_steps = [
            [[(to - shift, to) if 0 <= to - shift < size and number[to - shift] and number[to]
              else None for to in range(size)]
             for shift in t.man_shifts[color]]
            for color in (0, 1)]
        # A step that would wrap across the board's edge passes through a
        # padding square, which has no number: those stay None and are never
        # read, since the generator only looks up squares a step reaches.
        pairs = {pair for rows in man_steps for row in rows for pair in row if pair}
        pairs |= {(o, to) for o, rays in enumerate(t.rays) for ray in rays for to in ray}
        order = sorted({(number[a], number[b]) for a, b in pairs})
        rank_of = {pair: rank for rank, pair in enumerate(order)}
        self.by_rank = [Move(a, b, (), (a, b)) for a, b in order]

        def rank(pair: tuple[int, int] | None) -> int:
            return -1 if pair is None else rank_of[number[pair[0]], number[pair[1]]]

        def raw(pair: tuple[int, int] | None, crowning: int) -> RawMove:
            if pair is None:
                return (-1, -1, 0, (), (), False)
            return (pair[0], pair[1], 0, (), (), bool((crowning >> pair[1]) & 1))

        self.men_raw = tuple(
            tuple((shift, [raw(p, t.promotion_mask[c]) for p in row])
                  for shift, row in zip(t.man_shifts[c], man_steps[c], strict=True))
            for c in (0, 1))
        self.men_ranks = tuple(
            tuple((shift, [rank(p) for p in row])
                  for shift, row in zip(t.man_shifts[c], man_steps[c], strict=True))
            for c in (0, 1))
        self.kings_raw: list[tuple[tuple[RawMove, ...], ...]] = [
            tuple(tuple((o, to, 0, (), (), False) for to in ray) for ray in rays)
            for o, rays in enumerate(t.rays)]
        self.kings_ranks = [
            tuple(tuple(rank_of[number[o], number[to]] for to in ray) for ray in rays)
            for o, rays in enumerate(t.rays)]


def _from_corner(prow: int, pcol: int, corner: int, width: int, height: int) -> tuple[int, int]:
    """Row and column counted from a corner (0 bottom left, 1 bottom right,
    2 top left, 3 top right) of the first player's view."""
    r = prow if corner in (0, 1) else height - 1 - prow
    c = pcol if corner in (0, 2) else width - 1 - pcol
    return r, c


@functools.cache
def tables(variant: Variant) -> Tables:
    """The shared tables of a variant."""
    return Tables(variant)
