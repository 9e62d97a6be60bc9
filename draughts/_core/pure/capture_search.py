"""The recursive capture search, for the captures that are not a man's
single jump (see :func:`draughts._core.pure.movegen.captures`).

The search reads a dozen rule switches and tables on every jump. They are
bound once per variant and colour as closure variables of the functions
built here, instead of on every call: setting up those locals and defining
the nested functions cost about a microsecond per call, as much as a whole
short search. What changes from call to call (the enemy pieces and the list
the routes go to) is passed down as arguments, so a searcher can be used by
several boards, and threads, at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from draughts._core.geometry import REVERSE
from draughts._core.pure.king_views import new_king_view
from draughts._core.raw import RawMove

if TYPE_CHECKING:
    from draughts._core.pure.tables import Tables


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


def searcher(t: Tables, color: int) -> CaptureSearch:
    """The capture search of ``color``'s pieces under ``t``'s rules, built
    once and kept on ``t``."""
    found = t.capture_searchers[color]
    if found is None:
        found = t.capture_searchers[color] = _build(t, color)
    return found


def _build(t: Tables, color: int) -> CaptureSearch:
    # One function of closures, over 80 lines: the rule switches and tables
    # are bound once as closure variables (see the module's docstring).
    # tuple.__new__ makes a RawMove in 140 ns against 250 ns for the class
    # call, about 5% of a capture position's move list.
    new = tuple.__new__
    rays = t.rays
    reverse_ok = t.reverse_in_capture
    at_end = t.removal_at_end
    promotion = t.promotion_mask[color]
    men_capture_kings = t.men_capture_kings
    man_dirs = t.man_capture_dirs[color]
    king_dirs = t.king_capture_dirs
    flying = t.flying_kings
    lands_behind = t.lands_directly_behind
    stops_behind_king = t.stops_behind_king
    must_land = t.must_land_to_continue
    crown_and_stop = t.crown_and_stop
    crown_and_continue = t.crown_and_continue

    def jumps_from(dirs: tuple[int, ...]) -> list[tuple[tuple[int, int, int, int, int], ...]]:
        # Per square, (direction, jumped square and bit, landing square and
        # bit) of every short jump that fits on the board.
        return [
            tuple(
                (d, ray[0], 1 << ray[0], ray[1], 1 << ray[1])
                for d in dirs
                if len(ray := ray_set[d]) >= 2
            )
            for ray_set in rays
        ]

    man_jumps = jumps_from(man_dirs)
    short_king_jumps = jumps_from(king_dirs)

    def short_jumps(
        square: int,
        jumps: list[tuple[tuple[int, int, int, int, int], ...]],
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
        from the table ``jumps``. Returns whether any jump was possible from
        ``square``."""
        found = False
        back = REVERSE[last] if last >= 0 and not reverse_ok else -1
        for d, over, over_bit, land, land_bit in jumps[square]:
            if d == back or not over_bit & opp or over_bit & captured or land_bit & occupied:
                continue
            if is_man and not men_capture_kings and over_bit & opp_kings:
                continue
            found = True
            now_captured = captured | over_bit
            now_occupied = occupied if at_end else occupied & ~over_bit
            now_caps = (*caps, over)
            now_path = (*path, land)
            if is_man and land_bit & promotion:
                if crown_and_stop:
                    routes.append(
                        new(RawMove, (path[0], land, now_captured, now_caps, now_path, True))
                    )
                    continue
                if crown_and_continue:
                    if not king_jumps(
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
                    ):
                        routes.append(
                            new(RawMove, (path[0], land, now_captured, now_caps, now_path, True))
                        )
                    continue
                # Passing the far row: still a man, crowned only if it stops here.
                if not short_jumps(
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
                ):
                    routes.append(
                        new(RawMove, (path[0], land, now_captured, now_caps, now_path, True))
                    )
                continue
            if not short_jumps(
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
            ):
                routes.append(
                    new(RawMove, (path[0], land, now_captured, now_caps, now_path, crowned))
                )
        return found

    views = t.king_views
    view_masks = t.king_ray_masks
    # Per square, where each square of its capture lines lies: (direction,
    # place along the ray).
    places = [
        {to: (d, i) for d in king_dirs for i, to in enumerate(ray_set[d])} for ray_set in rays
    ]

    def flying_jumps(
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
    ) -> bool:
        """Captures at a distance. ``skip`` is a direction not to look in:
        from the second and later landing squares behind a piece, going on
        straight ahead finds what the first landing square already found."""
        # The king's view names, per direction, the first piece on the way
        # when the square behind it is empty: those of the enemy not yet
        # taken are the pieces to jump.
        seen = occupied & view_masks[square]
        view = views[square].get(seen) or new_king_view(t, square, seen)
        targets = view[0] & opp & ~captured
        if not targets:
            return False
        found = False
        back = REVERSE[last] if last >= 0 and not reverse_ok else -1
        ray_set = rays[square]
        place = places[square]
        while targets:
            over = targets.bit_length() - 1
            over_bit = 1 << over
            targets ^= over_bit
            d, i = place[over]
            if d in (skip, back):
                continue
            ray = ray_set[d]
            n = len(ray)
            j = i + 1
            found = True
            now_captured = captured | over_bit
            now_occupied = occupied if at_end else occupied & ~over_bit
            now_caps = (*caps, over)
            if lands_behind:
                landings = [ray[j]]
                j += 1
            else:
                landings = []
                while j < n and not (now_occupied >> ray[j]) & 1:
                    landings.append(ray[j])
                    j += 1
            # Can the capture go on straight ahead beyond the landing squares?
            straight = False
            if len(landings) > 1 and j < n - 1:
                ahead = 1 << ray[j]
                straight = bool(
                    ahead & opp
                    and not ahead & now_captured
                    and not (now_occupied >> ray[j + 1]) & 1
                )
            goes_on = []
            for k, land in enumerate(landings):
                more = flying_jumps(
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
                )
                goes_on.append(more or (k > 0 and straight))
            if must_land and any(goes_on):
                continue
            # Killer: a sequence whose last captured piece is a king ends
            # directly behind it.
            halt = stops_behind_king and bool(over_bit & opp_kings)
            for k, land in enumerate(landings):
                if not goes_on[k] and not (halt and k):
                    routes.append(
                        new(
                            RawMove, (path[0], land, now_captured, now_caps, (*path, land), crowned)
                        )
                    )
        return found

    def king_jumps(
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
        if flying:
            return flying_jumps(
                square, last, -1, captured, occupied, caps, path, crowned, opp, opp_kings, routes
            )
        return short_jumps(
            square,
            short_king_jumps,
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

    def search(
        origin: int, is_man: bool, occupied: int, opp: int, opp_kings: int, routes: list[RawMove]
    ) -> None:
        if is_man:
            short_jumps(
                origin,
                man_jumps,
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
            king_jumps(origin, -1, 0, occupied, (), (origin,), False, opp, opp_kings, routes)

    def onward(
        jump: RawMove, d: int, occupied: int, opp: int, opp_kings: int, routes: list[RawMove]
    ) -> None:
        _origin, land, over_bit, caps, path, crowned = jump
        if not at_end:
            occupied &= ~over_bit
        if crowned:
            if crown_and_stop:
                routes.append(jump)
            elif crown_and_continue:
                if not king_jumps(
                    land, d, over_bit, occupied, caps, path, True, opp, opp_kings, routes
                ):
                    routes.append(jump)
            elif not short_jumps(
                land,
                man_jumps,
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
            ):
                routes.append(jump)
        elif not short_jumps(
            land, man_jumps, True, d, over_bit, occupied, caps, path, False, opp, opp_kings, routes
        ):
            routes.append(jump)

    return CaptureSearch(search, onward)
