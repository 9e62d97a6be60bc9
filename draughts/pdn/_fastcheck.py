"""A game's movetext checked in one call into C (the PDN reader's native
module, :mod:`draughts.pdn._native`), building no game tree: what
validation and variant inference need of most games, at a fraction of the
full reader's cost.

Both functions take the movetext of one game (the text after its tags, up
to and including its result), the variant to read it as, and the position
its ``FEN`` tag sets up (None: the variant's start). They answer only where
the answer is certainly the full reader's (:func:`draughts.pdn.read_game`);
everywhere else, and always on the pure core, they return None and the
caller reads the game with the reader:

- :func:`fast_replay` has the contract of
  :data:`draughts.pdn.infer.Replay`: whether every move (the first
  ``limit`` only, if given) is legal, and how many were played before the
  first error.
- :func:`fast_check` returns a :class:`FastCheck` only when the reader
  would report no error and no warning for the movetext.

The native loop (``draughts/pdn/_native/pdn_check.c``) reads move numbers,
moves of two squares written with ``-``, ``x``, ``X`` or ``:``, captures
written in full (``26x17x10``, ``c3:e5:g7``), squares written as numbers or
as lower-case algebraic names (``c3-d4``), comments in braces, NAGs and the
result. It takes a move as
the reader's plain-line loop does (the only legal move between its squares;
a capture written in full, the capture with exactly that route), and calls
a move an error only when no legal move starts on its square, or when it
names a square the board does not have. Variations, comments after ``;``,
move strengths, setups, squares written otherwise (``032``, ``C3``, the
short ``ed4``), an ambiguous move (which the reader settles by the moves
after it), the first part of a capture split in two, a variant whose kings
may move only so many times (Frisian): None.

>>> from draughts.variant import ENGLISH, INTERNATIONAL
>>> text = "1. 11-15 24-20 2. 8-11 28-24 {a quiet start} 0-1"
>>> fast_replay(text, ENGLISH, None, None) in (None, (True, 4))
True
>>> fast_replay(text, INTERNATIONAL, None, None) in (None, (False, 0))
True
>>> check = fast_check(text, ENGLISH, None)  # None on the pure core
>>> check is None or (check.plies, check.result) == (4, "0-1")
True
"""

from __future__ import annotations

import array
import re
import threading
from typing import Any

import attrs

from draughts.board import Board
from draughts.pdn import _native
from draughts.pdn.lexer import RESULT
from draughts.pdn.resolver import resolver_for, start_board
from draughts.variant import Variant

__all__ = [
    "SQUARE_CODES",
    "FastCheck",
    "Setup",
    "ends_with_result",
    "fast_check",
    "fast_replay",
    "run_moves",
    "setup_of",
    "square_codes",
]

_OK, _ERROR = 0, 1

# A result marker as the lexer reads one (or "*"), ending the text.
_ENDS_WITH_RESULT = re.compile(rf"(?:{RESULT}|\*)\Z")


@attrs.frozen
class FastCheck:
    """A movetext the reader reads without an error or a warning.

    >>> FastCheck(plies=4, result="0-1", result_offset=41)
    FastCheck(plies=4, result='0-1', result_offset=41)
    """

    plies: int
    """The moves played."""
    result: str | None
    """The termination marker that ends the movetext (``"2-0"``, ``"*"``),
    None when the movetext has none (a cut record: the reader's warning
    about it is the caller's to give)."""
    result_offset: int | None
    """Where the marker starts in the movetext (characters), None without one."""


Setup = tuple[Any, list[int], list[int], int, bytes, bool]
"""A start as :data:`draughts.pdn._native.check_each` takes it: the variant's
native tables, the bitboards of the men and the kings, the side to move,
the square of each written number (100 int16), whether captures are
written with ``-``."""

# Each variant's setup from its start or a FEN, by the variant's identity:
# hashing a Variant (an attrs class of some twenty fields) cost a third of
# the time of a fast replay. The variant is kept in the entry, so its id is
# not reused. Setups from a FEN are kept too: variant inference tries a dozen
# variants a game, and files of games that each start with the same FEN
# (ussr1947.pdn, 153 Russian games) spent a third of their reading time setting it
# up again (the oldest entry goes first past _KEPT_SETUPS).
_SETUPS: dict[tuple[int, str | None], tuple[Variant, Setup | None]] = {}
_KEPT_SETUPS = 256
_SETUPS_LOCK = threading.Lock()


def setup_of(variant: Variant, fen: str | None) -> Setup | None:
    """What the native loop (:data:`draughts.pdn._native.check_each`) needs to
    play ``variant`` from ``fen``: its tables, the bitboards, the side to
    move, the square of each written number, whether captures are written
    with ``-``; None where the native loop cannot play it."""
    key = (id(variant), fen)
    cached = _SETUPS.get(key)
    if cached is not None and cached[0] is variant:
        return cached[1]
    if fen is None:
        board = start_board(variant)
    else:
        try:
            board = Board(fen, variant=variant)
        except ValueError:
            board = None  # the reader's own reading of the FEN decides
    setup: Setup | None = None
    if board is not None and not board._ctx.king_limit:
        numbers, dash_captures = _numbers(variant)
        setup = (board._ctx.core, board._men, board._kings, board._turn, numbers, dash_captures)
    with _SETUPS_LOCK:  # threads reading PDN at once must not evict one entry twice
        if len(_SETUPS) >= _KEPT_SETUPS:
            del _SETUPS[next(iter(_SETUPS))]
        _SETUPS[key] = (variant, setup)
    return setup


_NUMBERS: dict[int, tuple[Variant, bytes, bool]] = {}

_FILES = "abcdefghijklmnopqrstuvwxyz"
_ALGEBRAIC_CODES = 100
SQUARE_CODES = _ALGEBRAIC_CODES + 100 * len(_FILES)
"""How many codes the native loop gives written squares (see :func:`square_codes`)."""


def square_codes() -> list[str]:
    """The written square each code of the native loop stands for
    (``pdn_movetext.h``): the numbers ``"1"`` to ``"99"`` as themselves,
    then each algebraic name from ``"a1"`` at ``100 + 100 * file + rank``
    (``""`` for the codes it never gives: 0, rank 0, the x-file, which the
    reader reads its own way).

    >>> codes = square_codes()
    >>> codes[32], codes[100 + 2 * 100 + 3], len(codes) == SQUARE_CODES
    ('32', 'c3', True)
    """
    codes = [str(n) if n else "" for n in range(_ALGEBRAIC_CODES)]
    for file in _FILES:
        keep = file != "x"
        codes += [f"{file}{rank}" if rank and keep else "" for rank in range(100)]
    return codes


_CODES = square_codes()


def _numbers(variant: Variant) -> tuple[bytes, bool]:
    """The square each written square's code names (:data:`SQUARE_CODES`
    int16, 0 for none), as the reader parses it, and whether captures are
    written with ``-``: the variant's, made once."""
    cached = _NUMBERS.get(id(variant))
    if cached is None or cached[0] is not variant:
        resolver = resolver_for(variant)
        square = resolver._square
        numbers = array.array("h", (square(text) or 0 if text else 0 for text in _CODES[:100]))
        # An algebraic name names a square only on the board (its file
        # within the width, its rank within the height, in either notation:
        # draughts._core.geometry.Geometry.parse_square), so only those are
        # asked: all 2,600 took 23 ms a variant (tests/pdn/test_pdn_fastcheck.py
        # holds the table to the reader's parsing of every code).
        numbers.extend([0] * (SQUARE_CODES - _ALGEBRAIC_CODES))
        for file in range(min(variant.width, len(_FILES))):
            for rank in range(1, min(variant.height, 99) + 1):
                code = _ALGEBRAIC_CODES + 100 * file + rank
                numbers[code] = square(_CODES[code]) or 0 if _CODES[code] else 0
        cached = (variant, numbers.tobytes(), resolver.dash_captures)
        if len(_NUMBERS) < 64:  # kept for the presets and a few custom variants only
            _NUMBERS[id(variant)] = cached
    return cached[1], cached[2]


def ends_with_result(movetext: str) -> bool:
    """Whether ``movetext`` ends with a result marker (blanks may follow)."""
    # The marker's last characters, searched for on their own: a search of
    # the whole text tries every place in it (a fifth of the fast check's
    # time on the OCA).
    return _ENDS_WITH_RESULT.search(movetext.rstrip()[-12:]) is not None


def run_moves(
    movetext: str, variant: Variant, fen: str | None, limit: int | None
) -> tuple[int, int, int, int, int] | None:
    """The native loop's answer: ``(state, plies, warned, result_start,
    result_end)``, state 0 every move played, 1 a sure move error after
    ``plies`` (see :func:`fast_replay` for the one case the reader reads
    otherwise); None where it has none."""
    check_each = _native.check_each
    if check_each is None:
        return None
    setup = setup_of(variant, fen)
    if setup is None:
        return None
    run = check_each((setup,), movetext, 0, limit or 0)[0]
    return None if run[0] > _ERROR else run


def fast_replay(
    movetext: str, variant: Variant, fen: str | None, limit: int | None
) -> tuple[bool, int] | None:
    """Whether every move of ``movetext`` (the first ``limit`` if given) is
    legal as ``variant`` from ``fen`` (None: the start), and how many were
    played before the first error, as :data:`draughts.pdn.infer.Replay`
    answers; None where the reader must tell (see the module).

    >>> from draughts.variant import INTERNATIONAL
    >>> fast_replay("1. 32-28 19-23 2. 28x19 14x23 *", INTERNATIONAL, None, 3) in (None, (True, 3))
    True
    """
    run = run_moves(movetext, variant, fen, limit)
    if run is None:
        return None
    if run[0] == _ERROR and not ends_with_result(movetext):
        # The reader takes a move it rejects at the very end of a text with
        # no result marker for a cut one, not an error: it tells that case.
        return None
    return run[0] == _OK, run[1]


def fast_check(movetext: str, variant: Variant, fen: str | None) -> FastCheck | None:
    """The moves and the result of ``movetext`` read as ``variant`` from
    ``fen`` (None: the start) when the reader reads it with no error and no
    warning; None otherwise, or where the reader must tell (see the module).

    >>> from draughts.variant import INTERNATIONAL
    >>> check = fast_check("1. 32-28 19-23 2. 28x19 14x23 2-0", INTERNATIONAL, None)
    >>> check is None or check.plies == 4
    True
    """
    run = run_moves(movetext, variant, fen, None)
    if run is None:
        return None
    state, plies, warned, start, end = run
    if state != _OK or warned:
        return None
    if start < 0:
        return FastCheck(plies, None, None)
    return FastCheck(plies, movetext[start:end], start)
