"""The geometry of a variant's board: square numbering, rays, masks and the
rule switches the move generator reads, as plain data computed from a
:class:`~draughts.Variant`.

A :class:`Geometry` is built once per variant (see :func:`draughts._core.tables`)
and shared by every board of that variant. Squares live in a padded grid:
internal index ``row * stride + column`` with ``stride = width + 2``, row 0
nearest White. The two padding columns mean a step of up to two columns
sideways never wraps onto the next row, so a whole bitboard can be shifted in
one operation to move every man at once; bits that land on padding or beyond
the last row are removed by masking with :attr:`Geometry.board_mask`.

This module reads the :class:`~draughts.Variant` fields listed in
``docs/architecture.rst``; it imports nothing of the board layer.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from draughts._options import CaptureRule, Directions, Promotion, Removal

if TYPE_CHECKING:
    from draughts.variant import Variant

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


def _number_squares(variant: Variant, stride: int) -> tuple[dict[int, int], dict[int, str]]:
    """Internal index -> square number and -> square name, for every playing
    square (PDN 3.0 GameType numbering: the corner square 1 starts from, and
    algebraic names counted from the first player's corner)."""
    width, height = variant.width, variant.height
    algebraic = variant.notation == "algebraic"
    number_corner = 2 if algebraic else variant.first_square_corner
    per_row = width if variant.all_squares else width // 2
    numbers: dict[int, int] = {}
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
            r, c = _from_corner(prow, pcol, number_corner, width, height)
            number = 1 + r * per_row + (c if variant.all_squares else c // 2)
            numbers[index] = number
            if algebraic:
                ar, ac = _from_corner(prow, pcol, variant.first_square_corner, width, height)
                names[index] = f"{_LETTERS[ac]}{ar + 1}"
            else:
                names[index] = str(number)
    if sorted(numbers.values()) != list(range(1, len(numbers) + 1)):
        raise ValueError(f"cannot number the squares of {variant.name!r}")
    return numbers, names


def _trace_rays(
    playable: dict[int, int],
    vectors: tuple[tuple[int, int], ...],
    stride: int,
    width: int,
    height: int,
) -> list[tuple[tuple[int, ...], ...]]:
    """Per internal index and direction, the playing squares a piece there
    sees in that direction, nearest first (empty off the board)."""
    rays: list[tuple[tuple[int, ...], ...]] = []
    for index in range(stride * height):
        row, col = divmod(index, stride)
        per_dir: list[tuple[int, ...]] = []
        for dr, dc in vectors:
            ray: list[int] = []
            r, c = row + dr, col + dc
            while 0 <= r < height and 0 <= c < width and r * stride + c in playable:
                ray.append(r * stride + c)
                r, c = r + dr, c + dc
            per_dir.append(tuple(ray) if index in playable else ())
        rays.append(tuple(per_dir))
    return rays


def square_count(variant: Variant) -> int:
    """The playing squares of ``variant``'s board, without the rest of its
    :class:`Geometry` (the inference asks it of every candidate)."""
    return len(_number_squares(variant, variant.width + 2)[0])


class Geometry:
    """Everything move generation, notation and FEN need about one variant's
    board and rules, as plain numbers, tuples and masks."""

    def __init__(self, variant: Variant) -> None:
        width, height = variant.width, variant.height
        if not (2 <= width <= 26 and 2 <= height <= 99):
            raise ValueError(f"unsupported board size {width}x{height}")
        self.variant = variant
        self.width = width
        self.height = height
        self.stride = stride = width + 2
        self.algebraic = variant.notation == "algebraic"

        # -- Numbering -------------------------------------------------------
        playable, names = _number_squares(variant, stride)
        count = len(playable)
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
        self.rays = _trace_rays(playable, vectors, stride, width, height)
        """``rays[index][direction]``: the squares seen from ``index``."""
        self.shift = tuple(dr * stride + dc for dr, dc in vectors)
        """Per direction, the index difference of one step."""
        sides = (True, False)
        self.man_move_dirs = tuple(_relative_directions(variant.man_moves, w) for w in sides)
        self.man_capture_dirs = tuple(_relative_directions(variant.man_captures, w) for w in sides)
        self.king_move_dirs = _relative_directions(variant.king_moves, True)
        self.king_capture_dirs = _relative_directions(variant.king_captures, True)
        self.man_shifts = tuple(tuple(self.shift[d] for d in self.man_move_dirs[c]) for c in (0, 1))
        king_dirs = set(self.king_move_dirs) | set(self.king_capture_dirs)
        self.king_ray_masks = [
            sum(1 << i for d in king_dirs for i in rays[d]) for rays in self.rays
        ]
        """Per index, the squares on a king's lines from there."""

        # -- Rule switches, unpacked once for the move generator -------------
        self.flying_kings = variant.flying_kings
        self.removal_at_end = variant.removal is Removal.AT_END
        self.reverse_in_capture = variant.reverse_in_capture
        self.crown_and_stop = variant.promotion is Promotion.ENDS_MOVE
        self.crown_and_continue = variant.promotion is Promotion.CONTINUES_AS_KING
        self.men_capture_kings = variant.men_capture_kings
        self.lands_directly_behind = variant.king_lands_directly_behind
        self.stops_behind_king = variant.king_stops_behind_king
        self.must_land_to_continue = variant.must_land_to_continue
        self.precedence = variant.capture_precedence
        self.majority_only = self.precedence == (CaptureRule.MOST_PIECES,)
        self.man_value, self.king_value = variant.man_value, variant.king_value
        """The weights of :attr:`CaptureRule.MOST_VALUE`."""

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


def _from_corner(prow: int, pcol: int, corner: int, width: int, height: int) -> tuple[int, int]:
    """Row and column counted from a corner (0 bottom left, 1 bottom right,
    2 top left, 3 top right) of the first player's view."""
    r = prow if corner in (0, 1) else height - 1 - prow
    c = pcol if corner in (0, 2) else width - 1 - pcol
    return r, c
