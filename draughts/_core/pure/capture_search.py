"""The recursive capture search, for the captures that are not a man's
single jump (see :func:`draughts._core.pure.movegen.captures`).

The search of one colour under one variant's rules is an object made once
(:func:`searcher`) that holds the dozen rule switches and jump tables it
reads on every jump. What changes from call to call (the enemy pieces and
the list the routes go to) is passed down as arguments, so a searcher can
be used by several boards, and threads, at once.

The search was one 300-line function of nested closures, for the speed of
closure variables; as methods that read the same switches from slots it runs
as fast. ``DRAUGHTS_PURE=1 python benchmarks/compare.py --baseline b6ae092
--peers '' --no-pure --rounds 9 --only "legal_moves, "`` (load average 9 on two
cores) put the closures' time over the methods' at 0.98 to 1.07 on the 12
rows (capture positions 1.07, 0.99, 1.06); ``movegen.captures`` over the
4,339 capture positions met in random games of eight variants, alternating
in one run, took 0.93 times as long as with the closures.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from draughts._core.geometry import REVERSE
from draughts._core.pure.king_views import new_king_view
from draughts._core.raw import RawMove
from draughts._options import CaptureRule

if TYPE_CHECKING:
    from draughts._core.pure.tables import Tables

# tuple.__new__ makes a RawMove in 140 ns against 250 ns for the class call,
# about 5% of a capture position's move list.
_new = tuple.__new__

Jump = tuple[int, int, int, int, int]
"""A short jump: direction, jumped square and its bit, landing square and its bit."""


class CaptureSearch(NamedTuple):
    """The capture search of one colour under one variant's rules."""

    search: Callable[[int, bool, int, int, int, list[RawMove]], None]
    """``search(origin, is_man, occupied, opp, opp_kings, routes)`` appends
    to ``routes`` every complete capture sequence of the piece on
    ``origin``; ``occupied`` is the board's occupancy without that piece."""
    onward: Callable[[RawMove, int, int, int, int, list[RawMove]], None]
    """``onward(jump, direction, occupied, opp, opp_kings, routes)`` appends
    every complete capture sequence of a man that starts with ``jump``, a
    single jump along ``direction`` (the jump itself if it cannot go on);
    ``occupied`` as for ``search``."""


def searcher(t: Tables, color: int, keep_duplicates: bool = False) -> CaptureSearch:
    """The capture search of ``color``'s pieces under ``t``'s rules, built
    once and kept on ``t``. With ``keep_duplicates`` it lists every route,
    else it may leave out a route that only repeats, in another order, a
    move already found (see :data:`MERGE_FROM`)."""
    index = color + 2 * keep_duplicates
    found = t.capture_searchers[index]
    if found is None:
        search = _Search(t, color, keep_duplicates)
        found = t.capture_searchers[index] = CaptureSearch(search.search, search.onward)
    return found


MERGE_FROM = 3
"""From this many pieces taken on, a flying king's search remembers the
states it has searched from: the square it stands on, the pieces taken, and
the directions it may not take next. A second route into the same state
(the same pieces taken in another order) can only find again, later, the
moves the first found, so it is not searched. The moves are the same and in
the same order, since the duplicates of a move are dropped keeping the
first found; but a king that may capture along the lines as well as the
diagonals has exponentially many such routes: on a custom 10x10 variant
playing on all squares, with immediate removal, one move list of a random
placement of 24 pieces took 9 to 47 s and more than 4 GB before. Not where
every route is kept (``keep_duplicates``), nor where the order of the
pieces taken counts (:attr:`~draughts.CaptureRule.KINGS_FIRST`). From 3
pieces on, because two pieces taken in either order rarely meet again and
the lookups would cost the common short captures."""


def _jump_table(
    rays: list[tuple[tuple[int, ...], ...]], dirs: tuple[int, ...]
) -> list[tuple[Jump, ...]]:
    """Per square, every short jump along ``dirs`` that fits on the board."""
    return [
        tuple(
            (d, ray[0], 1 << ray[0], ray[1], 1 << ray[1])
            for d in dirs
            if len(ray := ray_set[d]) >= 2
        )
        for ray_set in rays
    ]


Memo = dict[tuple[int, int, int, int], bool]
"""States a flying king's search has searched from, and whether the king
could capture there: see :data:`MERGE_FROM`."""


class _Search:
    """One colour's capture search under one variant's rules.

    Every method after ``search`` and ``onward`` continues a capture: the
    piece stands on ``square`` having arrived along direction ``last`` (-1
    at the start), having taken the pieces of ``captured`` (their squares
    in order in ``caps``) over the landing squares of ``path``; ``occupied``
    is the board without the moving piece (and without the taken pieces
    where they leave at once); ``crowned`` whether it was crowned on the way.
    Each appends the complete routes to ``routes`` and returns whether the
    piece could capture from ``square`` at all."""

    __slots__ = (
        "at_end",
        "crown_and_continue",
        "crown_and_stop",
        "flying",
        "lands_behind",
        "man_jumps",
        "men_capture_kings",
        "merges",
        "must_land",
        "places",
        "promotion",
        "rays",
        "reverse_ok",
        "short_king_jumps",
        "stops_behind_king",
        "tables",
        "view_masks",
        "views",
    )

    def __init__(self, t: Tables, color: int, keep_duplicates: bool) -> None:
        self.tables = t
        self.merges = not keep_duplicates and CaptureRule.KINGS_FIRST not in t.precedence
        self.rays = t.rays
        self.reverse_ok = t.reverse_in_capture
        self.at_end = t.removal_at_end
        self.promotion = t.promotion_mask[color]
        self.men_capture_kings = t.men_capture_kings
        self.flying = t.flying_kings
        self.lands_behind = t.lands_directly_behind
        self.stops_behind_king = t.stops_behind_king
        self.must_land = t.must_land_to_continue
        self.crown_and_stop = t.crown_and_stop
        self.crown_and_continue = t.crown_and_continue
        self.man_jumps = _jump_table(t.rays, t.man_capture_dirs[color])
        self.short_king_jumps = _jump_table(t.rays, t.king_capture_dirs)
        self.views = t.king_views
        self.view_masks = t.king_ray_masks
        # Per square, where each square of its capture lines lies: (direction,
        # place along the ray).
        self.places = [
            {to: (d, i) for d in t.king_capture_dirs for i, to in enumerate(ray_set[d])}
            for ray_set in t.rays
        ]

    def search(
        self,
        origin: int,
        is_man: bool,
        occupied: int,
        opp: int,
        opp_kings: int,
        routes: list[RawMove],
    ) -> None:
        """See :attr:`CaptureSearch.search`."""
        if is_man:
            self._short(
                origin,
                self.man_jumps,
                True,
                -1,
                0,
                occupied,
                (),
                (origin,),
                False,
                opp,
                opp_kings,
                routes,
            )
        else:
            self._king(origin, -1, 0, occupied, (), (origin,), False, opp, opp_kings, routes)

    def onward(
        self,
        jump: RawMove,
        d: int,
        occupied: int,
        opp: int,
        opp_kings: int,
        routes: list[RawMove],
    ) -> None:
        """See :attr:`CaptureSearch.onward`."""
        _origin, land, over_bit, caps, path, crowned = jump
        if not self.at_end:
            occupied &= ~over_bit
        if crowned and self.crown_and_stop:
            goes_on = False
        elif crowned and self.crown_and_continue:
            goes_on = self._king(
                land, d, over_bit, occupied, caps, path, True, opp, opp_kings, routes
            )
        else:  # a man still (one passing the far row is crowned only if it stops there)
            goes_on = self._short(
                land,
                self.man_jumps,
                True,
                d,
                over_bit,
                occupied,
                caps,
                path,
                False,
                opp,
                opp_kings,
                routes,
            )
        if not goes_on:
            routes.append(jump)

    def _king(
        self,
        square: int,
        last: int,
        captured: int,
        occupied: int,
        caps: tuple[int, ...],
        path: tuple[int, ...],
        crowned: bool,
        opp: int,
        opp_kings: int,
        routes: list[RawMove],
    ) -> bool:
        """A king's captures, at a distance or over an adjacent piece."""
        if self.flying:
            memo: Memo | None = {} if self.merges else None
            return self._flying(
                square,
                last,
                -1,
                captured,
                occupied,
                caps,
                path,
                crowned,
                opp,
                opp_kings,
                routes,
                memo,
            )
        return self._short(
            square,
            self.short_king_jumps,
            False,
            last,
            captured,
            occupied,
            caps,
            path,
            crowned,
            opp,
            opp_kings,
            routes,
        )

    def _short(
        self,
        square: int,
        jumps: list[tuple[Jump, ...]],
        is_man: bool,
        last: int,
        captured: int,
        occupied: int,
        caps: tuple[int, ...],
        path: tuple[int, ...],
        crowned: bool,
        opp: int,
        opp_kings: int,
        routes: list[RawMove],
    ) -> bool:
        """Jumps over an adjacent piece (men, and kings that do not fly),
        from the table ``jumps``."""
        # Its parameters are the search's state, passed down the recursion rather
        # than kept on the object: one jump a call, and the recursion unwinds them.
        found = False
        back = REVERSE[last] if last >= 0 and not self.reverse_ok else -1
        for d, over, over_bit, land, land_bit in jumps[square]:
            if d == back or not over_bit & opp or over_bit & captured or land_bit & occupied:
                continue
            if is_man and not self.men_capture_kings and over_bit & opp_kings:
                continue
            found = True
            now_captured = captured | over_bit
            now_occupied = occupied if self.at_end else occupied & ~over_bit
            now_caps = (*caps, over)
            now_path = (*path, land)
            if is_man and land_bit & self.promotion:
                crowned_here = True
                if self.crown_and_stop:
                    goes_on = False
                elif self.crown_and_continue:
                    goes_on = self._king(
                        land,
                        d,
                        now_captured,
                        now_occupied,
                        now_caps,
                        now_path,
                        True,
                        opp,
                        opp_kings,
                        routes,
                    )
                else:  # passing the far row: still a man, crowned only if it stops here
                    goes_on = self._short(
                        land,
                        jumps,
                        True,
                        d,
                        now_captured,
                        now_occupied,
                        now_caps,
                        now_path,
                        False,
                        opp,
                        opp_kings,
                        routes,
                    )
            else:
                crowned_here = crowned
                goes_on = self._short(
                    land,
                    jumps,
                    is_man,
                    d,
                    now_captured,
                    now_occupied,
                    now_caps,
                    now_path,
                    crowned,
                    opp,
                    opp_kings,
                    routes,
                )
            if not goes_on:
                routes.append(
                    _new(RawMove, (path[0], land, now_captured, now_caps, now_path, crowned_here))
                )
        return found

    def _flying(
        self,
        square: int,
        last: int,
        skip: int,
        captured: int,
        occupied: int,
        caps: tuple[int, ...],
        path: tuple[int, ...],
        crowned: bool,
        opp: int,
        opp_kings: int,
        routes: list[RawMove],
        memo: Memo | None,
    ) -> bool:
        """Captures at a distance. ``skip`` is a direction not to look in:
        from the second and later landing squares behind a piece, going on
        straight ahead finds what the first landing square already found.
        ``memo``: the states searched already, or None (:data:`MERGE_FROM`)."""
        # The king's view names, per direction, the first piece on the way
        # when the square behind it is empty: those of the enemy not yet
        # taken are the pieces to jump.
        seen = occupied & self.view_masks[square]
        view = self.views[square].get(seen) or new_king_view(self.tables, square, seen)
        targets = view[0] & opp & ~captured
        if not targets:
            return False
        back = REVERSE[last] if last >= 0 and not self.reverse_ok else -1
        state: tuple[int, int, int, int] | None = None
        if memo is not None and len(caps) >= MERGE_FROM:
            state = (square, back, skip, captured)
            known = memo.get(state)
            if known is not None:
                return known
        ray_set = self.rays[square]
        place = self.places[square]
        found = False
        while targets:
            over = targets.bit_length() - 1
            over_bit = 1 << over
            targets ^= over_bit
            d, i = place[over]
            if d in (skip, back):
                continue
            found = True
            now_captured = captured | over_bit
            now_occupied = occupied if self.at_end else occupied & ~over_bit
            now_caps = (*caps, over)
            landings, straight = self._landings(ray_set[d], i + 1, now_occupied, now_captured, opp)
            goes_on = [
                self._flying(
                    land,
                    d,
                    d if k else -1,
                    now_captured,
                    now_occupied,
                    now_caps,
                    (*path, land),
                    crowned,
                    opp,
                    opp_kings,
                    routes,
                    memo,
                )
                or (k > 0 and straight)
                for k, land in enumerate(landings)
            ]
            if self.must_land and any(goes_on):
                continue
            # Killer: a sequence whose last captured piece is a king ends
            # directly behind it.
            halt = self.stops_behind_king and bool(over_bit & opp_kings)
            for k, land in enumerate(landings):
                if not goes_on[k] and not (halt and k):
                    routes.append(
                        _new(
                            RawMove,
                            (path[0], land, now_captured, now_caps, (*path, land), crowned),
                        )
                    )
        if memo is not None and state is not None:
            memo[state] = found
        return found

    def _landings(
        self, ray: tuple[int, ...], j: int, occupied: int, captured: int, opp: int
    ) -> tuple[list[int], bool]:
        """Where a flying king may land behind the piece it jumps (``ray[j]``
        on, up to the next piece or directly behind it), and whether, landing
        on the second or a later of several squares, it could go on straight
        ahead over an enemy piece."""
        n = len(ray)
        if self.lands_behind:
            landings = [ray[j]]
            j += 1
        else:
            landings = []
            while j < n and not (occupied >> ray[j]) & 1:
                landings.append(ray[j])
                j += 1
        if len(landings) < 2 or j >= n - 1:
            return landings, False
        ahead = 1 << ray[j]
        return landings, bool(
            ahead & opp and not ahead & captured and not (occupied >> ray[j + 1]) & 1
        )
