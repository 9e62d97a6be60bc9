"""Endgame bitbases: win, loss or draw for every position with few pieces,
made by retrograde analysis with the library's own move generator.

:meth:`Bitbases.build` solves every material with 2 up to ``pieces``
pieces of a variant, fewest pieces first, and within a piece count fewest
men first (a capture leaves fewer pieces, a crowning fewer men: the values
a move leads out of a material to are known before the material is solved).
Inside a material it works as retrograde analysis does: a position without
a legal move is lost; one with a move to a lost position is won; one whose
moves all lead to won positions is lost; each position decided decides its
predecessors in turn, and what is never decided is a draw (the sides can
avoid losing for ever: a repetition). The values are those of the moves
alone: the draw rules that count moves (the 25-move rule, the 16- and
5-move rules of some endings) are not applied, as in the bitbases of other
engines.

>>> import draughts
>>> english = Bitbases.build(draughts.variant.ENGLISH, 2)
>>> english.probe(draughts.Board("B:WK10:BK1", variant="english"))
<Wdl.DRAW: 0>
>>> english.probe(draughts.Board("B:WK10:B1", variant="english"))  # the man is caught
<Wdl.LOSS: -1>

:func:`probe` answers for a :class:`~draughts.Board` from the bitbases
given, or from those of the directory named by the ``DRAUGHTS_EGTB``
environment variable, or (for 2 pieces) from bitbases it builds itself.

The files (one per variant and piece count, ``<variant>.<pieces>.wdl``,
version 1): a first line of JSON::

    {"format": "draughts-egtb", "version": 1, "variant": "english",
     "pieces": 3, "squares": 32, "materials": [[wm, wk, bm, bk, size], ...]}

then, material after material, two bits per position (four positions a
byte, the first in the lowest bits): 0 draw, 1 win and 2 loss for the side
to move, 3 no position (two pieces on one square, a man on its crowning
row). A position's number in its material is, from the most significant,
the rank of the white men's squares, of the white kings', of the black
men's and of the black kings' (each set ranked among the sets of its size
of square numbers, in colexicographic order), then the side to move (0
White, 1 Black).
"""

from __future__ import annotations

import enum
import functools
import itertools
import json
import math
import os
from collections.abc import Callable, Collection
from pathlib import Path

from draughts._context import context
from draughts._core import Tables
from draughts.board import Board
from draughts.engine import search as _search
from draughts.outcome import Goal
from draughts.variant import Variant, find_variant

__all__ = ["BitbaseError", "Bitbases", "Probe", "Wdl", "egtb_option", "load_shared", "probe"]

FORMAT = "draughts-egtb"
VERSION = 1
_DRAW, _WIN, _LOSS, _NONE = 0, 1, 2, 3  # the two-bit codes of the files
ENVIRONMENT = "DRAUGHTS_EGTB"
"""The environment variable naming the directory :func:`probe` reads."""

Material = tuple[int, int, int, int]
"""(white men, white kings, black men, black kings)."""


class Wdl(enum.IntEnum):
    """A position's value for the side to move.

    >>> -Wdl.WIN
    -1
    """

    LOSS = -1
    DRAW = 0
    WIN = 1


_WDL_OF_CODE = {_DRAW: Wdl.DRAW, _WIN: Wdl.WIN, _LOSS: Wdl.LOSS}


class BitbaseError(ValueError):
    """A bitbase file that cannot be read (it is named), or a variant that
    bitbases do not cover.

    >>> str(BitbaseError("english.3.wdl: not a bitbase file"))
    'english.3.wdl: not a bitbase file'
    """


class _Layout:
    """How the positions of one variant are numbered: the square sets of
    each size with their ranks, and the squares men may stand on."""

    def __init__(self, t: Tables, pieces: int) -> None:
        self.t = t
        self.squares = len(t.bit_of_square) - 1
        bits = t.bit_of_square[1:]
        # Colexicographic order: sets ranked by their highest square first.
        self.sets: list[list[int]] = []
        self.rank: list[dict[int, int]] = []
        for size in range(pieces + 1):
            combos = sorted(itertools.combinations(range(self.squares), size), key=_colex)
            masks = [sum(bits[i] for i in combo) for combo in combos]
            self.sets.append(masks)
            self.rank.append({mask: r for r, mask in enumerate(masks)})
        self.counts = [len(masks) for masks in self.sets]
        board = t.board_mask
        self.man_squares = (board & ~t.promotion_mask[0], board & ~t.promotion_mask[1])

    def size(self, material: Material) -> int:
        """How many numbers the positions of ``material`` take."""
        return 2 * math.prod(len(self.sets[n]) for n in material)

    def index(self, pos: _search.Position) -> int:
        """The number of ``pos`` in its material."""
        turn, m0, m1, k0, k1 = pos
        rank, counts = self.rank, self.counts
        a, b, c, d = m0.bit_count(), k0.bit_count(), m1.bit_count(), k1.bit_count()
        number = (rank[a][m0] * counts[b] + rank[b][k0]) * counts[c] + rank[c][m1]
        return (number * counts[d] + rank[d][k1]) * 2 + turn


def _colex(combo: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(reversed(combo))


def material_of(pos: _search.Position) -> Material:
    """The material of a raw position."""
    _turn, m0, m1, k0, k1 = pos
    return (m0.bit_count(), k0.bit_count(), m1.bit_count(), k1.bit_count())


def materials(pieces: int) -> list[Material]:
    """The materials of exactly ``pieces`` pieces with a piece on each
    side, in the order they are solved (fewest men first).

    >>> materials(2)
    [(0, 1, 0, 1), (0, 1, 1, 0), (1, 0, 0, 1), (1, 0, 1, 0)]
    """
    found = [
        (wm, wk, bm, pieces - wm - wk - bm)
        for wm in range(pieces + 1)
        for wk in range(pieces + 1 - wm)
        for bm in range(pieces + 1 - wm - wk)
        if wm + wk and pieces - wm - wk
    ]
    return sorted(found, key=lambda m: (m[0] + m[2], m))


def check_variant(variant: Variant) -> None:
    """Refuse a variant whose goal is not the standard one (a side without
    a move loses): the bitbases know no other.

    :raises BitbaseError: for antidraughts and breakthrough variants.
    """
    if variant.goal is not Goal.STANDARD:
        raise BitbaseError(
            f"bitbases cover only variants where a side without a move loses, "
            f"not {variant.name} ({variant.goal.value})"
        )


_UNKNOWN = 4  # while solving: not decided yet


def _solve(
    layout: _Layout, material: Material, outside: Callable[[_search.Position], int]
) -> bytearray:
    """The codes of every position of ``material``; ``outside`` gives the
    code of a position a move leads to in another (already solved)
    material. A function of one loop: the whole analysis of a material."""
    t = layout.t
    codes = bytearray([_NONE]) * layout.size(material)
    left: dict[int, int] = {}  # undecided position -> its moves not yet known to lose
    drawn: set[int] = set()  # undecided positions with a move to a drawn position
    predecessors: dict[int, list[int]] = {}
    decided: list[int] = []
    men0, men1 = layout.man_squares
    groups = [layout.sets[n] for n in material]
    # A move that stays in the material (no capture, no crowning) moves one
    # piece: the child's number is the position's with the other side to
    # move and one set's rank changed, each set's rank weighing twice the
    # product of the counts of the sets after it (see _Layout.index).
    ranks = [layout.rank[n] for n in material]
    weights = [2 * math.prod(map(len, groups[k + 1 :])) for k in range(4)]
    for n, (m0, k0, m1, k1) in enumerate(itertools.product(*groups)):
        if m0 & k0 or m1 & k1 or (m0 | k0) & (m1 | k1) or m0 & ~men0 or m1 & ~men1:
            continue
        for turn in (0, 1):
            i = 2 * n + turn
            pos = (turn, m0, m1, k0, k1)
            # The mover's men and kings, their sets' rank tables and weights.
            men, kings, s = (m0, k0, 0) if turn == 0 else (m1, k1, 2)
            men_rank, king_rank = ranks[s], ranks[s + 1]
            men_weight, king_weight = weights[s], weights[s + 1]
            men_base = 2 * n + 1 - turn - men_rank[men] * men_weight
            king_base = 2 * n + 1 - turn - king_rank[kings] * king_weight
            inside = 0
            code = _LOSS  # no move, or only moves to won positions
            for move in _search.legal(t, pos):
                if not (move.captured_mask or move.crowned):
                    # Numbered here, not played: the moves inside the
                    # material took two thirds of the time (English, 3
                    # pieces: 3.7 s to 2.0 s of CPU time).
                    a = 1 << move.origin
                    flip = a | 1 << move.destination
                    if men & a:
                        j = men_base + men_rank[men ^ flip] * men_weight
                    else:
                        j = king_base + king_rank[kings ^ flip] * king_weight
                    predecessors.setdefault(j, []).append(i)
                    inside += 1
                    continue
                value = outside(_search.play(pos, move))
                if value == _LOSS:
                    code = _WIN
                    break
                if value == _DRAW:
                    code = _DRAW
            if code == _WIN or not inside:
                codes[i] = code
                if code != _DRAW:
                    decided.append(i)
            else:
                codes[i] = _UNKNOWN
                left[i] = inside
                if code == _DRAW:
                    drawn.add(i)
    _retrograde(codes, decided, predecessors, left, drawn)
    return codes.replace(bytes([_UNKNOWN]), bytes([_DRAW]))


def _retrograde(
    codes: bytearray,
    decided: list[int],
    predecessors: dict[int, list[int]],
    left: dict[int, int],
    drawn: set[int],
) -> None:
    """Each decided position decides the positions that lead to it (see
    :func:`_solve`); what stays undecided is a draw."""
    while decided:
        j = decided.pop()
        lost = codes[j] == _LOSS
        for i in predecessors.get(j, ()):
            if codes[i] != _UNKNOWN:
                continue
            if lost:
                codes[i] = _WIN
                decided.append(i)
            else:
                left[i] -= 1
                if not left[i] and i not in drawn:
                    codes[i] = _LOSS
                    decided.append(i)


def _pack(codes: bytes | bytearray) -> bytes:
    """Four two-bit codes a byte, the first in the lowest bits."""
    padded = bytes(codes) + bytes(-len(codes) % 4)
    return bytes(
        a | b << 2 | c << 4 | d << 6
        for a, b, c, d in zip(padded[0::4], padded[1::4], padded[2::4], padded[3::4], strict=True)
    )


class Bitbases:
    """Win/loss/draw for every position of a variant with at most
    :attr:`pieces` pieces (made by :meth:`build`, read by :meth:`load`).

    >>> import draughts
    >>> bases = Bitbases.build(draughts.variant.ENGLISH, 2)
    >>> bases.pieces, bases.probe(draughts.Board("W:WK10:BK1", variant="english"))
    (2, <Wdl.DRAW: 0>)
    """

    def __init__(self, variant: Variant, pieces: int, packed: dict[Material, bytes]) -> None:
        self.variant = variant
        self.pieces = pieces
        """The most pieces a covered position has."""
        self._packed = packed
        self._layout = _Layout(context(variant).core, pieces)

    def statistics(self) -> dict[Material, dict[Wdl, int]]:
        """How many positions of each material are won, drawn and lost for
        the side to move.

        >>> import draughts
        >>> Bitbases.build(draughts.variant.ENGLISH, 2).statistics()[0, 1, 0, 1]
        {<Wdl.LOSS: -1>: 216, <Wdl.DRAW: 0>: 1308, <Wdl.WIN: 1>: 460}
        """
        found = {}
        for material, packed in self._packed.items():
            counts = [0, 0, 0, 0]
            for byte in packed:
                for shift in (0, 2, 4, 6):
                    counts[byte >> shift & 3] += 1
            counts[0] -= -self._layout.size(material) % 4  # the padding's zeros
            found[material] = {
                Wdl.LOSS: counts[_LOSS],
                Wdl.DRAW: counts[_DRAW],
                Wdl.WIN: counts[_WIN],
            }
        return found

    def probe_position(self, pos: _search.Position) -> Wdl | None:
        """The value of a raw position (see :mod:`draughts.engine.search`)
        for its side to move, None if it is not covered."""
        turn, m0, m1, k0, k1 = pos
        if (m0 | m1 | k0 | k1).bit_count() > self.pieces:
            return None
        if not (m1 | k1 if turn else m0 | k0):
            return Wdl.LOSS  # no pieces: no move
        packed = self._packed.get(material_of(pos))
        if packed is None:
            return None
        i = self._layout.index(pos)
        return _WDL_OF_CODE.get(packed[i >> 2] >> 2 * (i & 3) & 3)

    def prober(self, skip: Collection[Material] = ()) -> Probe:
        """The bitbases as a search asks them (see :class:`Probe`), without
        the materials in ``skip``.

        >>> import draughts
        >>> bases = Bitbases.build(draughts.variant.ENGLISH, 2)
        >>> len(bases.prober().tables), len(bases.prober([(0, 1, 0, 1)]).tables)
        (4, 3)
        """
        left_out = set(skip)
        tables = {m: data for m, data in self._packed.items() if m not in left_out}
        return Probe(self.pieces, self._layout, tables)

    def probe(self, board: Board) -> Wdl | None:
        """The value of ``board``'s position for the side to move, None if
        it is not covered (too many pieces, another variant)."""
        if board.variant != self.variant:
            return None
        return self.probe_position(_search.raw_position(board, context(board.variant).core))

    @classmethod
    def build(
        cls,
        variant: Variant | str,
        pieces: int,
        *,
        progress: Callable[[Material, int], None] | None = None,
    ) -> Bitbases:
        """Solve every material of ``variant`` with 2 to ``pieces`` pieces;
        ``progress`` is called with each material and its positions once
        solved.

        :raises BitbaseError: for a variant whose goal is not the standard one.
        :raises ValueError: if ``pieces`` is not 2 to 4 (5 would take hours
            and gigabytes in Python: 4 take ten minutes and 355 MB for
            English checkers).
        """
        variant = find_variant(variant) if isinstance(variant, str) else variant
        check_variant(variant)
        if not 2 <= pieces <= 4:
            raise ValueError(f"pieces must be from 2 to 4, not {pieces}")
        layout = _Layout(context(variant).core, pieces)
        solved: dict[Material, bytearray] = {}

        def outside(pos: _search.Position) -> int:
            if not (pos[2] | pos[4] if pos[0] else pos[1] | pos[3]):
                return _LOSS
            return solved[material_of(pos)][layout.index(pos)]

        for count in range(2, pieces + 1):
            for material in materials(count):
                solved[material] = _solve(layout, material, outside)
                if progress is not None:
                    codes = solved[material]
                    progress(material, len(codes) - codes.count(_NONE))
        return cls(variant, pieces, {m: _pack(codes) for m, codes in solved.items()})

    def save(self, directory: str | os.PathLike[str]) -> list[Path]:
        """Write one file per piece count into ``directory`` (made if
        absent); returns their paths."""
        folder = Path(directory)
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        for count in range(2, self.pieces + 1):
            rows = [[*m, self._layout.size(m)] for m in materials(count)]
            header = {
                "format": FORMAT,
                "version": VERSION,
                "variant": self.variant.name,
                "pieces": count,
                "squares": self._layout.squares,
                "materials": rows,
            }
            path = folder / f"{self.variant.name}.{count}.wdl"
            with open(path, "wb") as handle:
                handle.write(json.dumps(header, separators=(",", ":")).encode() + b"\n")
                for material in materials(count):
                    handle.write(self._packed[material])
            written.append(path)
        return written

    @classmethod
    def load(cls, directory: str | os.PathLike[str], variant: Variant | str) -> Bitbases | None:
        """The bitbases of ``variant`` in ``directory``, from 2 pieces up to
        the last piece count with a file; None if it has none for 2 pieces.

        :raises BitbaseError: for a file that is not a bitbase of this
            variant and format (naming the file).
        """
        variant = find_variant(variant) if isinstance(variant, str) else variant
        check_variant(variant)
        packed: dict[Material, bytes] = {}
        count = 1
        while (path := Path(directory) / f"{variant.name}.{count + 1}.wdl").is_file():
            count += 1
            packed.update(_read_file(path, variant, count))
        return cls(variant, count, packed) if count >= 2 else None


class Probe:
    """Endgame bitbases as a search probes them: the value of a raw
    position for its side to move, 1 won, 0 drawn, -1 lost, or None where
    :attr:`tables` has no entry for its material (made by
    :meth:`Bitbases.prober`). The native search reads the same
    :attr:`squares` and :attr:`tables` (``Search.bitbases``) and answers
    alike.

    >>> import draughts
    >>> from draughts.engine.search import raw_position
    >>> board = draughts.Board("B:WK10:B1", variant="english")
    >>> probe = Bitbases.build(board.variant, 2).prober()
    >>> probe(raw_position(board, context(board.variant).core))
    -1
    """

    def __init__(self, pieces: int, layout: _Layout, tables: dict[Material, bytes]) -> None:
        self.pieces = pieces
        """The most pieces of a covered position."""
        self.tables = tables
        """Per material (white men, white kings, black men, black kings),
        the packed values of its positions, in the files' layout."""
        self.squares: list[int] = list(layout.t.bit_of_square[1:])
        """The raw bit of each square, in the order of the bitbases'
        numbers."""
        self._layout = layout

    def __call__(self, pos: _search.Position) -> int | None:
        packed = self.tables.get(material_of(pos))
        if packed is None:
            return None
        i = self._layout.index(pos)
        return _VALUE_OF_CODE.get(packed[i >> 2] >> 2 * (i & 3) & 3)


_VALUE_OF_CODE = {_DRAW: 0, _WIN: 1, _LOSS: -1}


def _read_file(path: Path, variant: Variant, count: int) -> dict[Material, bytes]:
    """The packed materials of one bitbase file, checked against what its
    name and its header promise."""
    data = path.read_bytes()
    end = data.find(b"\n", 0, 4096)
    try:
        header = json.loads(data[:end]) if end > 0 else None
    except (UnicodeDecodeError, json.JSONDecodeError):
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise BitbaseError(f"{path}: not a bitbase file (no {FORMAT!r} header)")
    if header.get("version") != VERSION:
        raise BitbaseError(f"{path}: bitbase version {header.get('version')!r}, not {VERSION}")
    layout = _Layout(context(variant).core, 0)
    expected = {
        "variant": variant.name,
        "pieces": count,
        "squares": layout.squares,
        "materials": [[*m, _size(layout.squares, m)] for m in materials(count)],
    }
    for field, value in expected.items():
        if header.get(field) != value:
            raise BitbaseError(f"{path}: {field} is {header.get(field)!r}, not {value!r}")
    packed = {}
    offset = end + 1
    for material in materials(count):
        length = (_size(layout.squares, material) + 3) // 4
        packed[material] = data[offset : offset + length]
        offset += length
    if offset != len(data):
        raise BitbaseError(f"{path}: {len(data) - end - 1} bytes of data, not {offset - end - 1}")
    return packed


def _size(squares: int, material: Material) -> int:
    return 2 * math.prod(math.comb(squares, n) for n in material)


_DEFAULTS: dict[Variant, Bitbases] = {}


def load_shared(directory: str | os.PathLike[str], variant: Variant) -> Bitbases | None:
    """:meth:`Bitbases.load`, read once per process for the same files: the
    engines of a match's games, or of a Hub session's games, share them.
    The files' sizes and modification times are part of the key, so files
    rebuilt in place are read again.

    >>> import tempfile, draughts
    >>> english = draughts.variant.ENGLISH
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     _ = Bitbases.build(english, 2).save(folder)
    ...     load_shared(folder, english) is load_shared(folder, english)
    True
    """
    folder = Path(directory).resolve()
    stamps = tuple(
        (path.name, path.stat().st_size, path.stat().st_mtime_ns)
        for path in sorted(folder.glob(f"{variant.name}.*.wdl"))
    )
    return _load_shared(folder, variant, stamps)


@functools.lru_cache(maxsize=8)
def _load_shared(
    folder: Path, variant: Variant, stamps: tuple[tuple[str, int, int], ...]
) -> Bitbases | None:
    return Bitbases.load(folder, variant)


def egtb_option(value: str, variant: Variant | str | None = None) -> Path | None:
    """The bitbase directory an engine option names (the ``egtb=`` of
    ``builtin:`` engine specs, the Hub ``egtb`` parameter, ``--egtb``):
    ``none`` (or nothing) for none, else a directory; with ``variant``, its
    files for that variant are read now, so that a bad one is reported
    here rather than at the engine's first move.

    >>> egtb_option("none") is None
    True

    :raises BitbaseError: for a path that is not a directory, or (with
        ``variant``) a file in it that is not a bitbase of that variant.
    """
    if value in ("", "none"):
        return None
    path = Path(value)
    if not path.is_dir():
        raise BitbaseError(f"{value}: not a directory of bitbase files")
    if variant is not None:
        variant = find_variant(variant) if isinstance(variant, str) else variant
        if variant.goal is Goal.STANDARD:
            load_shared(path, variant)
    return path


def probe(board: Board, bitbases: Bitbases | None = None) -> Wdl | None:
    """The value of ``board``'s position for the side to move: win, loss or
    draw with perfect play (the counting draw rules aside, see the module),
    or None when no bitbase covers it.

    Without ``bitbases``, the bitbases of the board's variant in the
    directory named by the ``DRAUGHTS_EGTB`` environment variable are read
    (once); without that, 2-piece bitbases are built (once per variant, in
    well under a second for 8x8 boards). Antidraughts and breakthrough
    positions are never covered.

    >>> import draughts
    >>> probe(draughts.Board("B:WK10:B1", variant="english"))
    <Wdl.LOSS: -1>
    >>> probe(draughts.Board()) is None
    True
    """
    if bitbases is None:
        variant = board.variant
        if variant.goal is not Goal.STANDARD:
            return None
        if variant not in _DEFAULTS:
            directory = os.environ.get(ENVIRONMENT)
            found = None if not directory else Bitbases.load(directory, variant)
            _DEFAULTS[variant] = found or Bitbases.build(variant, 2)
        bitbases = _DEFAULTS[variant]
    return bitbases.probe(board)
