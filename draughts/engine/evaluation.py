"""The built-in engine's static evaluation: features of a position and their
weights per board family.

A position is judged by a dozen features, each counted for White and for
Black on the raw bitboards of :mod:`draughts.engine.search` (a few popcounts
and shifts each; only kings and far-advanced men are looked at one by one):

- ``man``, ``king``: material;
- ``advance``: the rows each man has advanced from its own back row (the
  *tempo* count of draughts literature);
- ``centre``: men on the middle squares of the board;
- ``back``: men still on the own back row, which stop the opponent's men
  from crowning;
- ``mobility``: the empty squares the men can step to;
- ``defended``: men with an own piece right behind them, which cannot be
  taken from the front;
- ``outpost``: men in the opponent's half with own pieces behind them on
  both diagonals (a supported spearhead);
- ``edge``: men on the side columns, which control one diagonal only;
- ``imbalance``: the difference between the men on the left and on the
  right half (a lopsided position is hard to defend);
- ``runaway``: men that no opposing piece can stop from crowning: no
  opposing piece in the widening cone in front of them and no opposing king;
- ``crowning``: other men one step from crowning with a free square to
  step to (a breakthrough: the opponent must take the man at once, or it
  crowns), which the search, judging quiet positions, would otherwise count
  as a plain man;
- ``king_mobility``: the squares the kings can move to;
- ``crown_next``, ``runaway_next``: the ``crowning`` and ``runaway`` men
  again, counted for the side to move only. The search judges quiet
  positions (no capture for the side to move), so the mover's man one step
  from crowning with a free square crowns on its next move, where the
  opponent's could still be taken; and of two runaway men racing to crown,
  the mover's is a tempo ahead. Moby Dam's breakthrough evaluation (Harm
  Jetten, GPL) weighs its breakthroughs by the side to move in this spirit;
  these two features are our own, simpler form of that idea.
- ``two_step_next``: the mover's men two steps from crowning with a free
  path (counted for the side to move only, neither runaway nor one step
  out): a step to an empty square from which a crowning square is empty
  and next to which no opposing piece stands (none can take the man
  there), with no opposing king on the board. The mover crowns in two
  moves unless the opponent forces something; the opponent moving first
  could block the path. Moby Dam's two-step bonus judges the side to move
  too; this is our own form of it.

Each feature has two weights, one for the opening (all men on the board) and
one for the endgame (no men left); the score is the blend by the share of
men still on the board. The weights, in hundredths of a man, were fitted to
the results of master games by ``benchmarks/tune_evaluation.py`` (logistic
regression of the result on the features, a man fixed at 100), one set per
board family: see :data:`WEIGHTS`. International draughts has a set of its
own, fitted by ``benchmarks/tune_patterns.py --joint`` so that the static
score foretells what an 8-ply search of the position finds, with every
weight but the man's and the king's halved since (a man down was scored
near level; ``docs/engine_strength.rst``, "A man is a man").

With ``DRAUGHTS_PATTERNS=1`` in the environment, the learned patterns of
:mod:`draughts.engine.patterns` are added for the variants that have
them (International, English): a weight per configuration of the men on
each small region of the board.

>>> import draughts
>>> from draughts._context import context
>>> t = context(draughts.variant.INTERNATIONAL).core
>>> e = Evaluator(t)
>>> start = draughts.Board()
>>> from draughts.engine.search import raw_position
>>> e.score(*raw_position(start, t))
0
"""

from __future__ import annotations

import functools
import os

from draughts._core import Tables
from draughts.board import Board
from draughts.engine.patterns import Patterns, patterns_for
from draughts.piece import BLACK, WHITE
from draughts.variant import INTERNATIONAL

FEATURES = (
    "man",
    "king",
    "advance",
    "centre",
    "back",
    "mobility",
    "defended",
    "outpost",
    "edge",
    "imbalance",
    "runaway",
    "king_mobility",
    "crowning",
    "crown_next",
    "runaway_next",
    "two_step_next",
)
"""The names of the features, in the order of :meth:`Evaluator.features`."""

# Per family: opening weights, then endgame weights, in FEATURES order.
# Fitted by benchmarks/tune_evaluation.py (see its docstring for the data).
WEIGHTS: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    # 10x10 and larger boards, flying kings (international, frisian, canadian).
    # The king (330, fitted 300) and crowning weights were set by matches
    # (docs/engine_strength.rst), not by the fit.
    "large": (
        (100, 330, 0, 8, 10, 3, 4, 6, -14, 7, 199, 5, 120, 0, 0, 0),
        (100, 330, 10, 5, 7, 7, 1, 4, -9, 6, 298, 8, 120, 0, 0, 0),
    ),
    # International draughts itself: fitted by benchmarks/tune_patterns.py
    # --joint to the scores of 8-ply searches of 21,401 corpus positions
    # (docs/engine_strength.rst, "Evaluation fitted to deeper searches"),
    # then every weight but the man's and the king's halved (rounded), so
    # that a man down is not scored near level ("A man is a man": the fit
    # was (100, 139, -6, 7, -19, 3, -2, 8, -8, 0, 59, 1, -216, ...) and
    # (100, 442, 14, -9, 40, -6, -8, -18, -32, 11, 143, 3, 258, ...)).
    "international": (
        (100, 139, -3, 4, -10, 2, -1, 4, -4, 0, 30, 0, -108, 0, 0, 0),
        (100, 442, 7, -4, 20, -3, -4, -9, -16, 6, 72, 2, 129, 0, 0, 0),
    ),
    # 8x8, flying kings (russian, brazilian, pool, czech, thai, ...).
    "flying": (
        (100, 251, -13, -1, 15, 3, 0, 4, -9, 1, 147, 6, 80, 0, 0, 0),
        (100, 251, 11, 13, 6, 9, 5, 4, -17, 0, 245, 6, 80, 0, 0, 0),
    ),
    # 8x8, short kings (english, italian, turkish, dama, ...).
    "short": (
        (100, 150, 1, 6, 10, 2, 3, 4, -3, -2, 100, 4, 25, 0, 0, 0),
        (100, 150, 4, 2, 3, 2, 2, 3, -1, -1, 150, 6, 25, 0, 0, 0),
    ),
}


def family(t: Tables) -> str:
    """The key of :data:`WEIGHTS` for a variant's tables.

    >>> import draughts
    >>> from draughts._context import context
    >>> family(context(draughts.variant.ENGLISH).core)
    'short'
    """
    if not t.flying_kings:
        return "short"
    if t.variant == INTERNATIONAL:
        return "international"
    return "large" if t.width * t.height >= 100 else "flying"


def overridden(
    weights: tuple[tuple[int, ...], tuple[int, ...]], text: str | None = None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``weights`` with the changes ``text`` names (by default the
    environment variable ``DRAUGHTS_WEIGHTS``): comma-separated
    ``FEATURE=OPENING/ENDGAME`` in hundredths of a man, for trying weights
    in matches without editing :data:`WEIGHTS`.

    >>> opening, endgame = overridden(WEIGHTS["international"], "crown_next=140/60")
    >>> opening[FEATURES.index("crown_next")], endgame[FEATURES.index("crown_next")]
    (140, 60)
    """
    if text is None:
        text = os.environ.get("DRAUGHTS_WEIGHTS", "")
    opening, endgame = list(weights[0]), list(weights[1])
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, _, values = item.partition("=")
        parts = values.split("/")
        if name not in FEATURES or len(parts) != 2:
            raise ValueError(f"DRAUGHTS_WEIGHTS: {item!r} is not FEATURE=OPENING/ENDGAME")
        at = FEATURES.index(name)
        try:
            opening[at], endgame[at] = int(parts[0]), int(parts[1])
        except ValueError:
            raise ValueError(f"DRAUGHTS_WEIGHTS: {item!r}: weights are whole numbers") from None
    return tuple(opening), tuple(endgame)


def _step(bits: int, shift: int) -> int:
    """``bits`` moved by a signed shift (off-board bits are masked by the caller)."""
    return bits << shift if shift >= 0 else bits >> -shift


@functools.lru_cache(maxsize=32)
def evaluator(t: Tables) -> Evaluator:
    """The :class:`Evaluator` of a variant's tables, built once and kept."""
    return Evaluator(t)


class Evaluator:
    """One variant's evaluation: the masks its features count, and the
    weights of its board family (or the ``weights`` given, as opening and
    endgame tuples in :data:`FEATURES` order, for tuning), plus the learned
    patterns of :mod:`draughts.engine.patterns` where the variant uses them
    (:func:`~draughts.engine.patterns.patterns_for`) and no ``weights`` are
    given (``patterns=True`` or ``False`` decides either way; or the
    :class:`~draughts.engine.patterns.Patterns` given are used)."""

    def __init__(
        self,
        t: Tables,
        weights: tuple[tuple[int, ...], tuple[int, ...]] | None = None,
        patterns: Patterns | bool | None = None,
    ) -> None:
        self.t = t
        self.opening, self.endgame = weights or overridden(WEIGHTS[family(t)])
        if patterns is None:
            # Weights being tuned are the hand-written features alone.
            patterns = weights is None
        chosen = (
            patterns if isinstance(patterns, Patterns) else patterns_for(t) if patterns else None
        )
        # Tables all zero add nothing: none to sum (the native search needs one window at least).
        self.patterns: Patterns | None = chosen if chosen and chosen.active else None
        stride, width, height, board = t.stride, t.width, t.height, t.board_mask

        def rows(selected: range) -> int:
            mask = 0
            for row in selected:
                mask |= ((1 << width) - 1) << (row * stride)
            return mask & board

        def columns(selected: list[int]) -> int:
            return sum(1 << (row * stride + c) for row in range(height) for c in selected) & board

        # Advancement as bit planes: rows whose advancement has bit k set, so
        # that the sum over men is a few popcounts instead of a loop.
        bits = max(1, (height - 1).bit_length())
        self.planes = tuple(
            tuple(
                rows(range(height))
                & sum(
                    rows(range(r, r + 1))
                    for r in range(height)
                    if (r if color == 0 else height - 1 - r) >> k & 1
                )
                for k in range(bits)
            )
            for color in (0, 1)
        )
        quarter_w, quarter_h = width // 4, height // 4
        self.centre = rows(range(quarter_h, height - quarter_h)) & columns(
            list(range(quarter_w, width - quarter_w))
        )
        self.back = (rows(range(1)), rows(range(height - 1, height)))
        self.edge = columns([0, width - 1])
        self.left = columns(list(range(width // 2)))
        self.right = columns(list(range(width // 2, width)))
        half = height // 2
        self.far_half = (rows(range(half, height)), rows(range(half)))
        self.forward = t.man_shifts  # per colour, the shifts of a man's steps
        self.board = board
        first = Board(variant=t.variant)
        self.men_at_start = max(1, len(first.pieces(WHITE)) + len(first.pieces(BLACK)))
        # Runaway men: only men this close to crowning are looked at.
        self.runaway_rows = max(2, height // 2 - 1)
        self.near = (
            rows(range(height - 1 - self.runaway_rows, height - 1)),
            rows(range(1, 1 + self.runaway_rows)),
        )
        # The row before the crowning row, per colour.
        self.last_step = (rows(range(height - 2, height - 1)), rows(range(1, 2)))
        self.cones = (self._cones(0), self._cones(1))
        # Per number of men on the board, the opening and endgame weights
        # blended by it (times men_at_start, which score() divides out); a
        # set-up position with more men than the start counts as the start.
        start = self.men_at_start
        self.blended = [
            tuple(o * p + e * (start - p) for o, e in zip(self.opening, self.endgame, strict=True))
            for p in (min(men, start) for men in range(board.bit_count() + 1))
        ]
        self.rays = t.rays
        self.king_dirs = t.king_move_dirs
        self.flying = t.flying_kings

    def data(self) -> tuple[object, ...]:
        """The masks and weights as plain data, in the order the native
        search loads them (:func:`draughts.engine._native.compiled_search`), which
        counts the same features from them: the planes, centre, back rows,
        edge, left and right halves, far halves, the men's step shifts, the
        rows near crowning, the row before crowning, the cones, the blended weights, men at start,
        and the patterns' windows and weights (None without patterns).

        >>> import draughts
        >>> from draughts._context import context
        >>> data = evaluator(context(draughts.variant.RUSSIAN).core).data()
        >>> len(data), data[-2], data[-1]
        (14, 24, None)
        """
        return (
            self.planes,
            self.centre,
            self.back,
            self.edge,
            self.left,
            self.right,
            self.far_half,
            self.forward,
            self.near,
            self.last_step,
            self.cones,
            self.blended,
            self.men_at_start,
            self.patterns.data() if self.patterns else None,
        )

    def _cones(self, color: int) -> dict[int, int]:
        """Per square, the squares in front of a man there up to its
        crowning row, widening by one column each side per row (and one
        extra column, for opposing men that step into its way)."""
        t = self.t
        stride, width, height = t.stride, t.width, t.height
        cones: dict[int, int] = {}
        for index in range(stride * height):
            if not self.board >> index & 1:
                continue
            row, col = divmod(index, stride)
            mask = 0
            ahead = range(row + 1, height) if color == 0 else range(row - 1, -1, -1)
            for distance, r in enumerate(ahead, start=1):
                for c in range(max(0, col - distance - 1), min(width, col + distance + 2)):
                    mask |= 1 << (r * stride + c)
            cones[index] = mask & self.board
        return cones

    def features(
        self, color: int, men: int, kings: int, opp: int, opp_kings: int, to_move: bool = False
    ) -> list[int]:
        """The feature counts of ``color``'s pieces, in :data:`FEATURES` order
        (for tuning: the search only needs their weighted sum); ``to_move``
        says whether ``color`` is the side to move."""
        units = [tuple(int(i == j) for j in range(len(FEATURES))) for i in range(len(FEATURES))]
        return [self.side(color, men, kings, opp, opp_kings, unit, to_move) for unit in units]

    def side(
        self,
        color: int,
        men: int,
        kings: int,
        opp: int,
        opp_kings: int,
        w: tuple[int, ...],
        to_move: bool = False,
    ) -> int:
        """The sum of ``color``'s features times the weights ``w`` (in
        :data:`FEATURES` order); ``opp`` is every opposing piece, ``to_move``
        whether ``color`` moves next. One function computes every feature so
        that the search pays for one call per side."""
        bits = men | kings
        empty = self.board & ~(bits | opp)
        total = w[0] * men.bit_count() + w[1] * kings.bit_count()
        advance = 0
        for k, plane in enumerate(self.planes[color]):
            advance += (men & plane).bit_count() << k
        steps = behind = 0
        supported = men & self.far_half[color]
        for shift in self.forward[color]:
            if shift >= 0:
                steps |= men << shift
                from_behind = bits << shift
            else:
                steps |= men >> -shift
                from_behind = bits >> -shift
            behind |= from_behind
            supported &= from_behind
        total += (
            w[2] * advance
            + w[3] * (men & self.centre).bit_count()
            + w[4] * (men & self.back[color]).bit_count()
            + w[5] * (steps & empty).bit_count()
            + w[6] * (men & behind).bit_count()
            + w[7] * supported.bit_count()
            + w[8] * (men & self.edge).bit_count()
            - w[9] * abs((men & self.left).bit_count() - (men & self.right).bit_count())
        )
        near, cones, last_step = men & self.near[color], self.cones[color], self.last_step[color]
        while near:
            low = near & -near
            near ^= low
            if not opp_kings and not cones[low.bit_length() - 1] & opp:
                total += w[10] + (w[14] if to_move else 0)
            elif low & last_step:
                if any(_step(low, shift) & empty for shift in self.forward[color]):
                    total += w[12] + (w[13] if to_move else 0)
            elif to_move and not opp_kings and self._free_path(low, color, empty, opp):
                total += w[15]
        if kings:
            total += w[11] * self._king_mobility(kings, empty)
        return total

    def _free_path(self, man: int, color: int, empty: int, opp: int) -> bool:
        """Whether ``man`` (not on the row before crowning) can step to an
        empty square of that row from which a crowning square is empty and
        next to which (in the men's step directions of both colours) no
        opposing piece stands: ``two_step_next``."""
        for shift in self.forward[color]:
            square = _step(man, shift) & empty & self.last_step[color]
            if not square:
                continue
            ahead = behind = 0
            for s in self.forward[color]:
                ahead |= _step(square, s)
            for s in self.forward[1 - color]:
                behind |= _step(square, s)
            if ahead & empty and not (ahead | behind) & opp:
                return True
        return False

    def _king_mobility(self, kings: int, empty: int) -> int:
        moves = 0
        rays, flying = self.rays, self.flying
        while kings:
            low = kings & -kings
            kings ^= low
            per_dir = rays[low.bit_length() - 1]
            for d in self.king_dirs:
                for square in per_dir[d]:
                    if not empty >> square & 1:
                        break
                    moves += 1
                    if not flying:
                        break
        return moves

    def score(self, turn: int, m0: int, m1: int, k0: int, k1: int) -> int:
        """The score for the side to move, in hundredths of a man."""
        w = self.blended[(m0 | m1).bit_count()]
        total = self.side(0, m0, k0, m1 | k1, k1, w, turn == 0) - self.side(
            1, m1, k1, m0 | k0, k0, w, turn == 1
        )
        if self.patterns:
            total += self.men_at_start * self.patterns.white(m0, m1)
        # Rounded towards zero, so that both colours see the same score.
        score = abs(total) // self.men_at_start
        return score if (total >= 0) == (turn == 0) else -score
