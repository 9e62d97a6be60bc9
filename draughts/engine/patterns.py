"""Learned patterns: the men on small regions of the board, each region's
configuration indexed into a table of weights fitted to games.

A *window* is a block of 3 rows and 4 columns of the board, so 6 playing
squares (two per row); windows start on every row and on every second
column, so that they overlap and cover the board. Each of the 6 squares is
empty (or holds a king: kings are left to the hand-written features), a
white man or a black man, so a window is in one of ``3 ** 6 = 729``
configurations, numbered ``sum(state * 3 ** digit)`` with the squares taken
row by row from White's side, left to right. Every window has a table of 729
weights in hundredths of a man (White's point of view), and a position's
pattern score is the sum of the weights of its windows' configurations.

The tables are fitted by ``benchmarks/tune_patterns.py`` (logistic
regression, on top of the hand-written features, of the scores that 6-ply
searches give corpus positions) and kept symmetric: a window's weight is minus the
weight of the window opposite through the centre with the colours swapped,
so both colours see the same score. They are shipped per variant as package
data (``patterns-<name>.bin.gz``, International and English) and loaded with
the standard library (the engine uses them only with
``DRAUGHTS_PATTERNS=1``, see :func:`patterns_for`);
a variant without a file keeps the hand-written evaluation alone.

>>> import draughts
>>> from draughts._context import context
>>> p = learned(context(draughts.variant.ENGLISH).core)
>>> p is not None and len(p.windows)
18
>>> start = draughts.Board(variant="english")
>>> p.white(*draughts.engine.search.raw_position(start, p.t)[1:3])
0
"""

from __future__ import annotations

import array
import functools
import gzip
import os
import sys
import zlib
from importlib import resources

from draughts._core import Tables
from draughts.variant import find_variant

ROWS = 3
"""The rows of a window."""
COLUMNS = 4
"""The columns of a window (half of them playing squares)."""
DIGITS = ROWS * COLUMNS // 2
"""The playing squares of a window."""
CONFIGURATIONS = 3**DIGITS
"""The configurations of one window (each square empty, white man, black man)."""

MAGIC = b"DRPAT1"
# The variants with learned tables: their file names, and whether the
# engine uses them unless told (DRAUGHTS_PATTERNS). Both are off until a
# match shows a gain beyond chance: against the features alone, at 0.1 s a
# move, International's scored 50.0 % in 80 games and English's 53.8 % in 40
# (+26 Elo, 95 % interval about +/- 100), and the C search is 27 % slower
# with them, the Python one about a third. With the C search's windows kept
# up to date move by move (18 % slower), 48.1 % in 80 more International
# games and 51.2 % in 40 more English ones: still within chance.
# Against the refitted International features (fitted to 8-ply searches)
# the tables cut the held-out gap to those searches only from 104.7 to
# 103.8 hundredths of a man, for 18 % of the speed, and 16 windows refitted
# on top scored 0/2/18 against Moby Dam where the refit alone made 1/5/14
# on the same ballots: they stay off.
_FILES = {
    "international": ("patterns-international.bin.gz", False),
    "english": ("patterns-english.bin.gz", False),
}


def windows(t: Tables) -> tuple[tuple[int, ...], ...]:
    """The windows of a board: per window, the padded indices of its playing
    squares in digit order (row by row from row 0, left to right).

    >>> import draughts
    >>> from draughts._context import context
    >>> w = windows(context(draughts.variant.ENGLISH).core)
    >>> len(w), len(w[0])
    (18, 6)
    """
    out = []
    for r0 in range(t.height - ROWS + 1):
        for c0 in range(0, t.width - COLUMNS + 1, 2):
            squares = tuple(
                index
                for r in range(r0, r0 + ROWS)
                for c in range(c0, c0 + COLUMNS)
                if t.board_mask >> (index := r * t.stride + c) & 1
            )
            if len(squares) != DIGITS:
                raise ValueError(f"{t.variant.name}: a window of {len(squares)} playing squares")
            out.append(squares)
    return tuple(out)


def opposite(t: Tables, window: int) -> int:
    """The window opposite ``window`` through the centre of the board (its
    digit ``k`` holds the square opposite the other's digit ``DIGITS - 1 - k``).

    >>> import draughts
    >>> from draughts._context import context
    >>> opposite(context(draughts.variant.INTERNATIONAL).core, 0)
    31
    """
    per_row = (t.width - COLUMNS) // 2 + 1
    r0, c = divmod(window, per_row)
    return (t.height - ROWS - r0) * per_row + (per_row - 1 - c)


def mirrored(configuration: int) -> int:
    """A configuration seen from the other side: digits reversed, colours swapped.

    >>> mirrored(1), mirrored(2 * 3**5)
    (486, 1)
    """
    out = 0
    for _ in range(DIGITS):
        configuration, state = divmod(configuration, 3)
        out = out * 3 + (0, 2, 1)[state]
    return out


class Patterns:
    """One variant's windows and weight tables (``weights[w][c]``: window
    ``w`` in configuration ``c``), with the lookups that count a position."""

    def __init__(self, t: Tables, weights: list[array.array[int]]) -> None:
        self.t = t
        self.windows = windows(t)
        if len(weights) != len(self.windows) or any(len(w) != CONFIGURATIONS for w in weights):
            raise ValueError(
                f"{t.variant.name}: pattern tables must be {len(self.windows)} "
                f"windows of {CONFIGURATIONS} weights"
            )
        self.weights = weights
        # The windows whose table is not all zero: a set fitted with fewer
        # windows leaves the others' tables zero, and neither search pays
        # for them.
        self.active = tuple(w for w, table in enumerate(weights) if any(table))
        width = t.width
        self._full = (1 << width) - 1
        self._per_row = (width - COLUMNS) // 2 + 1
        # Per row: where it starts, a table from its bits to the bits of its
        # playing squares only, their count, and a table from both colours'
        # playing-square bits to the row's code in each window start column
        # (the two digits of the window's squares on that row). A window's
        # number is then its three rows' codes times 1, 9 and 81. Measured:
        # 48 us a position instead of 105 with a lookup per window and row.
        self._rows: list[tuple[int, list[int], int, list[tuple[int, ...]]]] = []
        for r in range(t.height):
            shift = r * t.stride
            dark = [c for c in range(width) if t.board_mask >> (shift + c) & 1]
            squeeze = [
                sum(1 << j for j, c in enumerate(dark) if bits >> c & 1)
                for bits in range(1 << width)
            ]
            n = len(dark)
            codes = []
            for key in range(1 << 2 * n):
                white, black = key >> n, key & ((1 << n) - 1)
                state = [1 if white >> j & 1 else 2 if black >> j & 1 else 0 for j in range(n)]
                codes.append(
                    tuple(
                        sum(
                            state[j] * 3**k
                            for k, j in enumerate(
                                j for j, c in enumerate(dark) if c0 <= c < c0 + COLUMNS
                            )
                        )
                        for c0 in range(0, 2 * self._per_row, 2)
                    )
                )
            self._rows.append((shift, squeeze, n, codes))

    def configurations(self, white_men: int, black_men: int) -> list[int]:
        """Each window's configuration number, in window order."""
        full = self._full
        rows = [
            codes[squeeze[white_men >> shift & full] << n | squeeze[black_men >> shift & full]]
            for shift, squeeze, n, codes in self._rows
        ]
        columns = range(self._per_row)
        return [
            low[i] + 9 * middle[i] + 81 * high[i]
            for low, middle, high in zip(rows, rows[1:], rows[2:], strict=False)
            for i in columns
        ]

    def white(self, white_men: int, black_men: int) -> int:
        """The pattern score of the men, White's point of view."""
        numbers = self.configurations(white_men, black_men)
        return sum(self.weights[w][numbers[w]] for w in self.active)

    def data(self) -> tuple[tuple[tuple[int, ...], ...], bytes]:
        """The active windows and their weights (int32, native byte order,
        window by window) as the native search loads them."""
        flat = array.array("i")
        for w in self.active:
            flat.extend(self.weights[w])
        return tuple(self.windows[w] for w in self.active), flat.tobytes()


def encode(tables: list[list[int]]) -> bytes:
    """A file's bytes for ``tables`` (int16, little-endian, gzip).

    >>> len(decode(encode([[0] * CONFIGURATIONS] * 2)))
    2
    """
    flat = array.array("h", [w for table in tables for w in table])
    if sys.byteorder != "little":
        flat.byteswap()
    return gzip.compress(MAGIC + flat.tobytes(), mtime=0)


def decode(data: bytes) -> list[array.array[int]]:
    """The tables of a file's bytes (see :func:`encode`)."""
    try:
        raw = gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as error:
        raise ValueError(f"not a pattern file: {error}") from None
    size = CONFIGURATIONS * 2
    if not raw.startswith(MAGIC) or (len(raw) - len(MAGIC)) % size:
        raise ValueError("not a pattern file: bad header or length")
    flat = array.array("h", raw[len(MAGIC) :])
    if sys.byteorder != "little":
        flat.byteswap()
    return [
        array.array("i", flat[i : i + CONFIGURATIONS]) for i in range(0, len(flat), CONFIGURATIONS)
    ]


def learned_name(t: Tables) -> str | None:
    """The name of the learned tables a variant uses, or None: only the
    presets fitted (by equality: a variant with any rule changed is not
    the one the games were played in).

    >>> import draughts
    >>> from draughts._context import context
    >>> learned_name(context(draughts.variant.FRISIAN).core) is None
    True
    """
    for name in _FILES:
        if t.variant == find_variant(name):
            return name
    return None


def patterns_for(t: Tables) -> Patterns | None:
    """The learned patterns the engine uses for a variant's tables, or None:
    where none are shipped, or where they are off. The environment variable
    ``DRAUGHTS_PATTERNS`` decides: ``0`` every variant without them (the
    hand-written evaluation alone), ``1`` every variant with its tables;
    unset, none uses them (no match has shown them winning more games).

    >>> import draughts
    >>> from draughts._context import context
    >>> patterns_for(context(draughts.variant.RUSSIAN).core) is None
    True
    """
    name = learned_name(t)
    if name is None:
        return None
    switch = os.environ.get("DRAUGHTS_PATTERNS", "")
    if switch == "0" or (switch != "1" and not _FILES[name][1]):
        return None
    return learned(t)


def learned(t: Tables) -> Patterns | None:
    """The learned patterns shipped for a variant's tables, used or not
    (None where none are shipped).

    >>> import draughts
    >>> from draughts._context import context
    >>> len(learned(context(draughts.variant.INTERNATIONAL).core).windows)
    32
    """
    name = learned_name(t)
    return None if name is None else Patterns(t, _shipped(_FILES[name][0]))


# Per name, not per Tables: a cache keyed by the tables would keep them alive.
@functools.lru_cache(maxsize=8)
def _shipped(file: str) -> list[array.array[int]]:
    return decode(resources.files("draughts.engine").joinpath(file).read_bytes())
