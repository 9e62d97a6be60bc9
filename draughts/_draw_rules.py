"""Draw-rule bookkeeping for the board: how far each counting rule has got.

Most counting rules need no state of their own. A rule on any material that
a capture or a man move resets (the 25-move rule and its kin) counts the
board's plies since the last capture or man move; one that nothing resets
(the ``dama`` 300-ply rule) counts the plies since the board was set up. The
others, the material rules (16-move, 5-move, ...), are "tracked": the board
keeps, per tracked rule, the ply at which its count started (None while its
material is not on the board), as a tuple in its snapshot stack so that
``pop`` restores it for free. The tuple is recomputed only when the rules
that hold may change: after a capture or a promotion (a plain man move keeps
the material; after any man move if a tracked rule restarts on those), once
few enough pieces are left for some ending to match and, where every ending
has a king, while a king is on the board; for a rule that looks at where the
lone king stands, also after a king move onto or off the long diagonal in such
an ending. In the middle game the check is a test or two.

The native core's push (``BoardState`` in ``board_state.c``) keeps no
draw-rule state of its own: the start plies follow endings of any shape,
custom variants' included, which this module matches and the C would have
to copy. It calls the board's tracker instead, through the members
:class:`PushTracker` declares and nothing else; :data:`PUSH_MEMBERS` names
them, and the tests hold the C to that list, :class:`Tracker` to the
protocol, and the C's and Python's pushes to each other's counts in every
preset.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from draughts.outcome import DrawRule, Ending, Reset

if TYPE_CHECKING:
    from draughts._core.geometry import Geometry

QUIET, PLIES, TRACKED = 0, 1, 2
"""How a counting rule is counted: since the last capture or man move, since
the set-up, or with its own start ply."""


class PushTracker(Protocol):
    """What a board's push (the Python one and the native core's) reads of
    the draw-rule tracker: the C reads the attributes once per variant
    context and calls the two methods after the moves that may start or
    stop a tracked rule. Every attribute is a plain int or tuple of ints
    (bools count as ints), as the C converts them."""

    events: tuple[int, int, int]
    """The event bits of a capture, a man move and a promotion."""
    inactive: tuple[int | None, ...]
    """The start plies while no tracked rule holds (the C's shortcut)."""
    man_move_resets: bool
    """Whether a plain man move may restart a tracked rule."""
    long_diagonal: int
    """The mask of the long diagonal (0 where no rule looks at it)."""
    positional_pieces: int
    """The most pieces with which a rule looks at the long diagonal."""
    needs_king: bool
    """With no king on the board no tracked rule holds."""
    weaker_king: bool
    """With no king on the weaker side no tracked rule holds."""
    max_pieces: int
    """With more pieces no tracked rule holds."""
    max_weaker: int
    """With more pieces on the weaker side no tracked rule holds."""

    def after_progress(
        self,
        starts: tuple[int | None, ...],
        ply: int,
        men: list[int],
        kings: list[int],
        events: int,
    ) -> tuple[int | None, ...]:
        """The start plies after a capture, a crowning or a man move."""

    def update(
        self,
        starts: tuple[int | None, ...],
        ply: int,
        men: list[int],
        kings: list[int],
        events: int,
    ) -> tuple[int | None, ...]:
        """The start plies after a quiet king move onto or off the long diagonal."""


PUSH_MEMBERS = frozenset({*PushTracker.__annotations__, "after_progress", "update"})
"""The names of :class:`PushTracker`'s members: all the native push reads of a tracker."""


class Tracker:
    """The counting rules of one variant, with what is needed to follow them."""

    events = (int(Reset.CAPTURE), int(Reset.MAN_MOVE), int(Reset.PROMOTION))
    """The bits of :meth:`after_progress`'s ``events``: a capture, a man
    move, a promotion (what the native core's push passes)."""

    def __init__(self, t: Geometry, start_piece_count: int) -> None:
        rules = t.variant.draw_rules
        self.counting: tuple[DrawRule, ...] = tuple(r for r in rules if not r.is_repetition)
        self.repetition: DrawRule | None = next((r for r in rules if r.is_repetition), None)
        # Every rule in the variant's order, with its index among the counting ones.
        self.order: tuple[tuple[DrawRule, int], ...] = tuple(
            (rule, -1 if rule.is_repetition else self.counting.index(rule)) for rule in rules
        )
        modes: list[tuple[int, int]] = []  # (mode, index into the tracked tuple)
        tracked: list[DrawRule] = []
        for rule in self.counting:
            progress = rule.resets & Reset.ANY_PROGRESS
            if not rule.endings and progress == Reset.ANY_PROGRESS:
                modes.append((QUIET, -1))  # a man move covers promotion too
            elif not rule.endings and rule.resets == Reset.NONE:
                modes.append((PLIES, -1))
            else:
                modes.append((TRACKED, len(tracked)))
                tracked.append(rule)
        self.modes = tuple(modes)
        self.resets = tuple(int(r.resets) for r in tracked)
        self.man_move_resets = any(r & Reset.MAN_MOVE for r in self.resets)
        self.inactive: tuple[int | None, ...] = (None,) * len(tracked)
        # Above rule_max[i] pieces no ending of tracked rule i can match, and
        # above max_pieces none at all: pieces only go, so the tuple stays inactive.
        side = start_piece_count  # no side ever has more pieces
        self.rule_max = tuple(
            max((min(e.pieces[1], _most_pieces(e, side)) for e in r.endings), default=-1)
            if r.endings
            else 10**9
            for r in tracked
        )
        self.max_pieces = max(self.rule_max, default=-1)
        # The most pieces the weaker side may have in some ending of rule i: a
        # lone king in most, so a cheap test rules the rule out in most games.
        self.weak_max = tuple(
            max(
                (
                    min(
                        e.strong.kings[1] + e.strong.men[1],
                        e.weak.kings[1] + e.weak.men[1],
                        e.pieces[1] // 2,
                    )
                    for e in r.endings
                ),
                default=-1,
            )
            if r.endings
            else 10**9
            for r in tracked
        )
        self.max_weaker = max(self.weak_max, default=-1)
        # Whether every ending of every tracked rule has a king on the board
        # (the weak side's lone king, in most): then, while no king is on the
        # board, none can hold, which rules the tracker out in the middle game.
        self.needs_king = all(
            r.endings and all(e.strong.kings[0] + e.weak.kings[0] >= 1 for e in r.endings)
            for r in tracked
        )
        # Whether in every ending the side with fewer pieces (each side, on a
        # tie) has a king, as the lone king has: then a position whose weaker
        # side has none matches no tracked rule.
        self.weaker_king = all(
            r.endings and all(_weaker_has_king(e) for e in r.endings) for r in tracked
        )
        positional = [e for r in tracked for e in r.endings if e.weak_king_on_long_diagonal]
        self.positional_pieces = max((_most_pieces(e, side) for e in positional), default=-1)
        self.long_diagonal = _long_diagonal(t) if positional else 0
        # The endings as flat int tuples, matched without attribute look-ups.
        self.endings = tuple(tuple(_compile(e) for e in r.endings) for r in self.counting)
        self.tracked_endings = tuple(tuple(_compile(e) for e in r.endings) for r in tracked)
        # The tracked rules that hold, as (index, resets) pairs, per material
        # (k0, m0, k1, m1), followed where a rule looks at the long diagonal by
        # whether each side has a king on it: few distinct keys occur, so the
        # endings are matched once per key.
        self._held: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = {}

    def strong_side(self, index: int, men: list[int], kings: list[int]) -> int | None:
        """The colour that is the strong side of one of the endings of
        counting rule ``index`` (0 when the rule has none), or None when the
        material matches none."""
        endings = self.endings[index]
        if not endings:
            return 0
        return self._strong(
            endings,
            men,
            kings,
            kings[0].bit_count(),
            kings[1].bit_count(),
            men[0].bit_count(),
            men[1].bit_count(),
        )

    def _strong(
        self,
        endings: tuple[_Compiled, ...],
        men: list[int],
        kings: list[int],
        k0: int,
        k1: int,
        m0: int,
        m1: int,
    ) -> int | None:
        total = k0 + k1 + m0 + m1
        diagonal = self.long_diagonal
        for sk, sK, sm, sM, wk, wK, wm, wM, low, high, on_diagonal in endings:
            if not low <= total <= high:
                continue
            if (
                sk <= k0 <= sK
                and sm <= m0 <= sM
                and wk <= k1 <= wK
                and wm <= m1 <= wM
                and (not on_diagonal or kings[1] & diagonal)
            ):
                return 0
            if (
                sk <= k1 <= sK
                and sm <= m1 <= sM
                and wk <= k0 <= wK
                and wm <= m0 <= wM
                and (not on_diagonal or kings[0] & diagonal)
            ):
                return 1
        return None

    def after_progress(
        self,
        starts: tuple[int | None, ...],
        ply: int,
        men: list[int],
        kings: list[int],
        events: int,
    ) -> tuple[int | None, ...]:
        """The start plies after a capture, a crowning or (where a tracked rule
        restarts on them) a man move: :meth:`update`, after cheap tests that
        each prove no tracked ending holds (no king on the board where every
        ending has one, too many pieces, a weaker side too big or, where every
        ending gives it one, without a king)."""
        if kings[0] | kings[1] or not self.needs_king:
            n0 = (men[0] | kings[0]).bit_count()
            n1 = (men[1] | kings[1]).bit_count()
            if (
                n0 + n1 <= self.max_pieces
                and (n0 if n0 < n1 else n1) <= self.max_weaker
                and ((kings[0] if n0 <= n1 else kings[1]) or not self.weaker_king)
            ):
                return self.update(starts, ply, men, kings, events)
        return self.inactive

    def update(
        self,
        starts: tuple[int | None, ...],
        ply: int,
        men: list[int],
        kings: list[int],
        events: int,
    ) -> tuple[int | None, ...]:
        """The tracked rules' start plies after a move with ``events``
        (:class:`~draughts.outcome.Reset` flags as an int) that left ``ply``
        plies on the board; ``starts`` all None and no events for a set-up."""
        k0, k1 = kings[0].bit_count(), kings[1].bit_count()
        m0, m1 = men[0].bit_count(), men[1].bit_count()
        total = k0 + k1 + m0 + m1
        if total > self.max_pieces:
            return self.inactive
        key: tuple[int, ...]
        if total <= self.positional_pieces:
            diagonal = self.long_diagonal
            key = (k0, m0, k1, m1, kings[0] & diagonal != 0, kings[1] & diagonal != 0)
        else:
            key = (k0, m0, k1, m1)
        held = self._held.get(key)
        if held is None:
            held = self._held[key] = self._holding(men, kings, k0, k1, m0, m1)
        if not held:
            return self.inactive
        new = list(self.inactive)
        for index, resets in held:
            start = starts[index]
            new[index] = ply if start is None or resets & events else start
        return tuple(new)

    def _holding(
        self, men: list[int], kings: list[int], k0: int, k1: int, m0: int, m1: int
    ) -> tuple[tuple[int, int], ...]:
        """The tracked rules that one of their endings matches, as (index,
        resets) pairs; a position with the same key (see :meth:`update`)
        gives the same answer."""
        total = k0 + k1 + m0 + m1
        weaker = min(k0 + m0, k1 + m1)
        return tuple(
            (index, resets)
            for index, (endings, most, weak_most, resets) in enumerate(
                zip(self.tracked_endings, self.rule_max, self.weak_max, self.resets, strict=True)
            )
            if total <= most
            and weaker <= weak_most
            and (not endings or self._strong(endings, men, kings, k0, k1, m0, m1) is not None)
        )

    def count(
        self, index: int, start: int | None, ply: int, turn: int, men: list[int], kings: list[int]
    ) -> int | None:
        """How far counting rule ``index`` has got, given its start ply (see
        :attr:`modes`): plies, or the strong side's moves; None while its
        condition does not hold."""
        if start is None:
            return None
        plies = ply - start
        rule = self.counting[index]
        if not rule.strong_side_moves:
            return plies
        strong = self.strong_side(index, men, kings)
        if strong is None:  # pragma: no cover - a start means it matched
            return None
        # The side to move at the start ply: the current one if an even number
        # of plies went by since.
        first = turn if plies % 2 == 0 else 1 - turn
        return (plies + 1) // 2 if first == strong else plies // 2


def _most_pieces(ending: Ending, side: int) -> int:
    """The most pieces a position of the ending can have, ``side`` being the
    most one side can have."""
    strong, weak = ending.strong, ending.weak
    return min(strong.kings[1] + strong.men[1], side) + min(weak.kings[1] + weak.men[1], side)


def _weaker_has_king(ending: Ending) -> bool:
    """Whether every position of the ending has a king on its weaker side (on
    both sides when they have as many pieces)."""
    strong, weak = ending.strong, ending.weak
    s_low, s_high = strong.kings[0] + strong.men[0], strong.kings[1] + strong.men[1]
    w_low, w_high = weak.kings[0] + weak.men[0], weak.kings[1] + weak.men[1]
    s_king, w_king = strong.kings[0] >= 1, weak.kings[0] >= 1
    return (
        (w_king or w_low >= s_high)  # the weak side may have fewer pieces
        and (s_king or s_low >= w_high)  # the strong side may have fewer
        and ((s_king and w_king) or s_high < w_low or w_high < s_low)
    )  # or as many


_Compiled = tuple[int, int, int, int, int, int, int, int, int, int, bool]


def _compile(e: Ending) -> _Compiled:
    return (
        *e.strong.kings,
        *e.strong.men,
        *e.weak.kings,
        *e.weak.men,
        *e.pieces,
        e.weak_king_on_long_diagonal,
    )


def _long_diagonal(t: Geometry) -> int:
    """The mask of the longest diagonal through a corner of the board (the
    "main road" a1-h8 of the 8x8 board)."""
    best = 0
    for start_col, step in ((0, 1), (t.width - 1, -1)):
        mask = 0
        row, col = 0, start_col
        while 0 <= row < t.height and 0 <= col < t.width:
            index = row * t.stride + col
            if t.square_of_index[index]:
                mask |= 1 << index
            row, col = row + 1, col + step
        if mask.bit_count() > best.bit_count():
            best = mask
    return best


if TYPE_CHECKING:

    def _conforms(tracker: Tracker) -> PushTracker:
        return tracker  # mypy checks that Tracker offers what push reads
