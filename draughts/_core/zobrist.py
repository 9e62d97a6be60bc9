"""Zobrist keys: a 64-bit hash of a position, updated move by move.

Each (colour, kind, internal square index) has a random 64-bit value, and so
has "Black to move"; a position's key is the XOR of the values of its pieces
and of the side to move. A move changes it with a few XORs, so the board can
keep it up to date in ``push`` and compare keys to find repetitions without
replaying moves. The values come from a fixed seed: keys are the same in every
run and every process, so they can be stored.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

_SEED = 0x64726175676874  # "draught" in ASCII: any fixed value would do.


class Keys:
    """The random values for boards whose internal indices are below ``size``.

    ``men[color][index]``, ``kings[color][index]`` and ``black_to_move``.
    """

    def __init__(self, size: int) -> None:
        rng = random.Random(_SEED)
        self.black_to_move = rng.getrandbits(64)
        # Drawn in a fixed order, so a bigger table starts with a smaller one's values.
        men: tuple[list[int], list[int]] = ([], [])
        kings: tuple[list[int], list[int]] = ([], [])
        for _ in range(size):
            for table in (men[0], men[1], kings[0], kings[1]):
                table.append(rng.getrandbits(64))
        self.men = men
        self.kings = kings

    def of(
        self, turn: int, men: tuple[int, int] | list[int], kings: tuple[int, int] | list[int]
    ) -> int:
        """The key of a whole position, computed from scratch."""
        key = self.black_to_move if turn else 0
        for color in (0, 1):
            for values, mask in ((self.men[color], men[color]), (self.kings[color], kings[color])):
                while mask:
                    low = mask & -mask
                    key ^= values[low.bit_length() - 1]
                    mask ^= low
        return key


class SquareKeys:
    """The values of :class:`Keys` for one board numbering, looked up by square
    number instead of internal index (``push`` has the numbers of a move's
    squares in hand): ``men[color][square]``, ``kings[color][square]``; entry
    0 is unused."""

    def __init__(self, keys: Keys, index_of_square: Sequence[int]) -> None:
        self.black_to_move = keys.black_to_move
        self.men = tuple(
            [values[i] if i >= 0 else 0 for i in index_of_square] for values in keys.men
        )
        self.kings = tuple(
            [values[i] if i >= 0 else 0 for i in index_of_square] for values in keys.kings
        )


@functools.cache
def keys(size: int) -> Keys:
    """The shared keys for ``size`` internal indices (boards of the same size
    share them, so a few entries serve every variant).

    Kept for good, never evicted: the native search runs only with a
    board's shared keys, which it recognises by identity
    (:func:`draughts.engine.native_search.searcher`), so keys made again for
    a size would send its searches to the Python search, some thirty times
    slower. A size's keys take 4 numbers a square (about 20 KB for an
    International board)."""
    return Keys(size)
