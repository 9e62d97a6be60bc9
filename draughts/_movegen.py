"""Legal move generation on bitboards.

Positions are four ints (men and kings of each colour) over the padded grid of
:mod:`draughts._tables`. Moves are produced as plain tuples ("raw moves")::

    (origin, destination, captured_mask, captured, path, crowned)

with internal indices: ``captured`` lists the captured squares in capture
order, ``path`` the origin, every stop and the destination (empty for a
non-capturing step), and ``crowned`` says whether the piece ends as a new king.
:class:`draughts.Move` objects are only built from these at the API boundary,
so perft and the PDN reader can work without allocating them.
"""

from __future__ import annotations

from typing import TypeVar

from draughts._tables import REVERSE, Tables
from draughts._tables import RawMove as RawMove
from draughts.move import Move
from draughts.variant import CaptureRule

_T = TypeVar("_T")


def legal_moves(
    t: Tables, color: int, own_men: int, own_kings: int, opp_men: int, opp_kings: int,
    frozen_kings: int = 0,
) -> list[RawMove]:
    """Every legal move: the captures the rules allow if there is any, else
    every step. ``frozen_kings`` is a mask of own kings that may capture but
    not make a non-capturing move (Frisian :attr:`Variant.king_move_limit`)."""
    moves = captures(t, color, own_men, own_kings, opp_men, opp_kings)
    if moves:
        return moves
    return steps(t, color, own_men, own_kings, own_men | own_kings | opp_men | opp_kings,
                 frozen_kings)


def steps(t: Tables, color: int, men: int, kings: int, occupied: int,
          frozen_kings: int = 0) -> list[RawMove]:
    """Non-capturing moves; the kings in ``frozen_kings`` make none."""
    men_rows, king_rows = t.step_objects.raw
    return _steps(t, color, men, kings & ~frozen_kings, occupied, men_rows[color], king_rows)


def step_moves(t: Tables, color: int, men: int, kings: int, occupied: int,
               frozen_kings: int = 0) -> list[Move]:
    """The same moves as :func:`steps`, as :class:`Move` objects in square
    order (origin, then destination)."""
    objects = t.step_objects
    men_rows, king_rows = objects.ranks
    ranks = _steps(t, color, men, kings & ~frozen_kings, occupied, men_rows[color], king_rows)
    ranks.sort()
    by_rank = objects.by_rank
    return [by_rank[rank] for rank in ranks]


def _steps(t: Tables, color: int, men: int, kings: int, occupied: int,
           men_rows: tuple[list[_T], ...], king_rows: list[tuple[tuple[_T, ...], ...]]
           ) -> list[_T]:
    """Every step, taken from tables of prebuilt move values: a step is
    always the same immutable value, so none is built here."""
    empty = t.board_mask & ~occupied
    out: list[_T] = []
    append = out.append
    if men:
        # Every man at once: shift the whole set one step and keep the
        # targets that are empty playing squares.
        for shift, row in zip(t.man_shifts[color], men_rows, strict=True):
            targets = ((men << shift) if shift > 0 else (men >> -shift)) & empty
            while targets:
                low = targets & -targets
                append(row[low.bit_length() - 1])
                targets ^= low
    if kings:
        rays = t.rays
        dirs = t.king_move_dirs
        flying = t.flying_kings
        while kings:
            low = kings & -kings
            origin = low.bit_length() - 1
            kings ^= low
            ray_set = rays[origin]
            made = king_rows[origin]
            for d in dirs:
                for i, to in enumerate(ray_set[d]):
                    if (occupied >> to) & 1:
                        break
                    append(made[d][i])
                    if not flying:
                        break
    return out


def find_step(t: Tables, color: int, men: int, kings: int, occupied: int, origin: int,
              destination: int, frozen_kings: int = 0) -> RawMove | None:
    """The non-capturing move from ``origin`` to ``destination`` if it is a
    legal step (the caller knows there is no capture), else None.

    Checking one step is much cheaper than listing them all, which is what a
    game reader needs for every quiet move it replays."""
    bit = 1 << origin
    if not (t.board_mask >> destination) & 1 or (occupied >> destination) & 1:
        return None
    if men & bit:
        if destination - origin in t.man_shifts[color]:
            crowned = bool((t.promotion_mask[color] >> destination) & 1)
            return (origin, destination, 0, (), (), crowned)
        return None
    if not kings & bit or frozen_kings & bit:
        return None
    ray_set = t.rays[origin]
    for d in t.king_move_dirs:
        ray = ray_set[d]
        if not t.flying_kings:
            ray = ray[:1]
        for square in ray:
            if (occupied >> square) & 1:
                break
            if square == destination:
                return (origin, destination, 0, (), (), False)
    return None


def captures(
    t: Tables, color: int, own_men: int, own_kings: int, opp_men: int, opp_kings: int,
    keep_duplicates: bool = False,
) -> list[RawMove]:
    """The capture sequences the rules allow (empty if there is none).

    With ``keep_duplicates`` routes that take the same pieces in another order
    all stay, as some published perft tables count them."""
    opp = opp_men | opp_kings
    occupied_all = own_men | own_kings | opp
    jumpers = 0
    starts: list[tuple[int, int]] = []
    if own_men:
        # Only men with an enemy piece next to them and an empty square behind
        # can start a capture: find them all at once with whole-board shifts
        # (a step never wraps across the two padding columns, see _tables).
        empty = t.board_mask & ~occupied_all
        prey = opp if t.men_capture_kings else opp_men
        for s in t.man_capture_shifts[color]:
            if s > 0:
                found = own_men & ((prey & (empty >> s)) >> s)
            else:
                found = own_men & ((prey & (empty << -s)) << -s)
            if found:
                jumpers |= found
                starts.append((s, found))
    kings_to_search = own_kings and _kings_that_can_capture(t, own_kings, opp, occupied_all)
    if not jumpers and not kings_to_search:
        return []
    if not kings_to_search and t.single_jumps_need_no_search and not keep_duplicates:
        single = _single_jumps(t, color, starts, prey, empty)
        if single is not None:
            return single
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

    routes: list[RawMove] = []
    origin = 0

    def emit(to: int, captured: int, caps: tuple[int, ...], path: tuple[int, ...],
             crowned: bool) -> None:
        routes.append((origin, to, captured, caps, path, crowned))

    def short_jumps(square: int, dirs: tuple[int, ...], is_man: bool, last: int,
                    captured: int, occupied: int, caps: tuple[int, ...],
                    path: tuple[int, ...], crowned: bool) -> bool:
        """Jumps over an adjacent piece (men, and kings that do not fly).
        Returns whether any jump was possible from ``square``."""
        found = False
        ray_set = rays[square]
        for d in dirs:
            if last >= 0 and d == REVERSE[last] and not reverse_ok:
                continue
            ray = ray_set[d]
            if len(ray) < 2:
                continue
            over = ray[0]
            over_bit = 1 << over
            if not over_bit & opp or over_bit & captured:
                continue
            if is_man and not men_capture_kings and over_bit & opp_kings:
                continue
            land = ray[1]
            land_bit = 1 << land
            if land_bit & occupied:
                continue
            found = True
            now_captured = captured | over_bit
            now_occupied = occupied if at_end else occupied & ~over_bit
            now_caps = (*caps, over)
            now_path = (*path, land)
            if is_man and land_bit & promotion:
                if crown_and_stop:
                    emit(land, now_captured, now_caps, now_path, True)
                    continue
                if crown_and_continue:
                    if not king_jumps(land, d, now_captured, now_occupied, now_caps,
                                      now_path, True):
                        emit(land, now_captured, now_caps, now_path, True)
                    continue
                # Passing the far row: still a man, crowned only if it stops here.
                if not short_jumps(land, dirs, True, d, now_captured, now_occupied,
                                   now_caps, now_path, False):
                    emit(land, now_captured, now_caps, now_path, True)
                continue
            if not short_jumps(land, dirs, is_man, d, now_captured, now_occupied,
                               now_caps, now_path, crowned):
                emit(land, now_captured, now_caps, now_path, crowned)
        return found

    def flying_jumps(square: int, last: int, skip: int, captured: int, occupied: int,
                     caps: tuple[int, ...], path: tuple[int, ...], crowned: bool) -> bool:
        """Captures at a distance. ``skip`` is a direction not to look in:
        from the second and later landing squares behind a piece, going on
        straight ahead finds what the first landing square already found."""
        found = False
        ray_set = rays[square]
        for d in king_dirs:
            if d == skip or (last >= 0 and d == REVERSE[last] and not reverse_ok):
                continue
            ray = ray_set[d]
            n = len(ray)
            i = 0
            while i < n and not (occupied >> ray[i]) & 1:
                i += 1
            if i >= n - 1:
                continue
            over = ray[i]
            over_bit = 1 << over
            if not over_bit & opp or over_bit & captured:
                continue
            j = i + 1
            if (occupied >> ray[j]) & 1:
                continue
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
                    ahead & opp and not ahead & now_captured
                    and not (now_occupied >> ray[j + 1]) & 1
                )
            goes_on = []
            for k, land in enumerate(landings):
                more = flying_jumps(land, d, d if k else -1, now_captured, now_occupied,
                                    now_caps, (*path, land), crowned)
                goes_on.append(more or (k > 0 and straight))
            if must_land and any(goes_on):
                continue
            # Killer: a sequence whose last captured piece is a king ends
            # directly behind it.
            halt = stops_behind_king and bool(over_bit & opp_kings)
            for k, land in enumerate(landings):
                if not goes_on[k] and not (halt and k):
                    emit(land, now_captured, now_caps, (*path, land), crowned)
        return found

    def king_jumps(square: int, last: int, captured: int, occupied: int,
                   caps: tuple[int, ...], path: tuple[int, ...], crowned: bool) -> bool:
        if flying:
            return flying_jumps(square, last, -1, captured, occupied, caps, path, crowned)
        return short_jumps(square, king_dirs, False, last, captured, occupied, caps, path,
                           crowned)

    men = jumpers
    while men:
        low = men & -men
        origin = low.bit_length() - 1
        men ^= low
        short_jumps(origin, man_dirs, True, -1, 0, occupied_all ^ low, (), (origin,), False)
    kings = kings_to_search
    while kings:
        low = kings & -kings
        origin = low.bit_length() - 1
        kings ^= low
        king_jumps(origin, -1, 0, occupied_all ^ low, (), (origin,), False)

    if len(routes) < 2:
        return routes
    if t.precedence:
        routes = _apply_precedence(t, routes, own_kings, opp_kings)
    return routes if keep_duplicates else _drop_duplicates(routes)


def _single_jumps(t: Tables, color: int, starts: list[tuple[int, int]], prey: int,
                  empty: int) -> list[RawMove] | None:
    """The captures when every one is a man jumping a single piece, found
    with bit tests alone; None as soon as some man could jump again (or
    would be crowned and go on as a king), which needs the full search.

    The usual capture is one jump, and the recursive search costs several
    times as much as these tests."""
    promotion = t.promotion_mask[color]
    shifts = t.man_capture_shifts[color]
    crown_and_continue = t.crown_and_continue
    out: list[RawMove] = []
    for s, found in starts:
        while found:
            low = found & -found
            found ^= low
            origin = low.bit_length() - 1
            over = origin + s
            land = over + s
            crowned = bool((promotion >> land) & 1)
            if crowned and crown_and_continue:
                return None
            # Could it jump again? The jumped piece stays on the board until
            # the end and cannot be jumped twice; the origin is empty now.
            prey_now = prey & ~(1 << over)
            empty_now = empty | low
            for s2 in shifts:
                over2 = land + s2
                land2 = over2 + s2
                if land2 >= 0 and (prey_now >> over2) & 1 and (empty_now >> land2) & 1:
                    return None
            out.append((origin, land, 1 << over, (over,), (origin, land), crowned))
    return out


def _kings_that_can_capture(t: Tables, kings: int, opp: int, occupied: int) -> int:
    """The kings with an enemy piece to jump right away: the first piece met
    along some capture direction is an enemy and the square behind it is
    empty (checking this is much cheaper than setting up the search)."""
    found = 0
    rays = t.rays
    dirs = t.king_capture_dirs
    flying = t.flying_kings
    while kings:
        low = kings & -kings
        origin = low.bit_length() - 1
        kings ^= low
        ray_set = rays[origin]
        for d in dirs:
            ray = ray_set[d]
            n = len(ray)
            i = 0
            if flying:
                while i < n and not (occupied >> ray[i]) & 1:
                    i += 1
            if i < n - 1 and (opp >> ray[i]) & 1 and not (occupied >> ray[i + 1]) & 1:
                found |= low
                break
    return found


def _apply_precedence(t: Tables, routes: list[RawMove], own_kings: int,
                      opp_kings: int) -> list[RawMove]:
    """Keep the routes that are best under the variant's capture precedence."""
    if t.majority_only:
        most = max(len(route[3]) for route in routes)
        return [route for route in routes if len(route[3]) == most]
    variant = t.variant

    def key(route: RawMove) -> tuple[object, ...]:
        parts: list[object] = []
        for rule in t.precedence:
            if rule is CaptureRule.MOST_PIECES:
                parts.append(len(route[3]))
            elif rule is CaptureRule.MOST_KINGS:
                parts.append((route[2] & opp_kings).bit_count())
            elif rule is CaptureRule.MOST_VALUE:
                kings = (route[2] & opp_kings).bit_count()
                men = len(route[3]) - kings
                parts.append(men * variant.man_value + kings * variant.king_value)
            elif rule is CaptureRule.WITH_KING:
                parts.append(bool((own_kings >> route[0]) & 1))
            else:  # KINGS_FIRST: the earlier a king is taken, the better
                parts.append(tuple(bool((opp_kings >> c) & 1) for c in route[3]))
        return tuple(parts)

    keys = [key(route) for route in routes]
    best = max(keys)
    return [route for route, k in zip(routes, keys, strict=True) if k == best]


def _drop_duplicates(routes: list[RawMove]) -> list[RawMove]:
    """One route per (origin, destination, captured set): routes that take the
    same pieces in another order are the same move."""
    if len(routes) == 1:
        return routes
    seen: set[tuple[int, int, int]] = set()
    out = []
    for route in routes:
        identity = (route[0], route[1], route[2])
        if identity not in seen:
            seen.add(identity)
            out.append(route)
    return out


def _perft(t: Tables, depth: int, color: int, men: tuple[int, int], kings: tuple[int, int],
           keep_duplicates: bool = False) -> int:
    """Leaf count at ``depth`` for tests against published tables, in either
    duplicate convention (:func:`draughts.perft` drops duplicates). It does not
    track the Frisian king-move limit: published Frisian tables stop before it
    can matter (research notes §4.2)."""
    c, o = color, 1 - color
    moves = captures(t, c, men[c], kings[c], men[o], kings[o], keep_duplicates)
    if not moves:
        moves = steps(t, c, men[c], kings[c], men[0] | men[1] | kings[0] | kings[1])
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    total = 0
    for origin, to, captured, _caps, _path, crowned in moves:
        a, b = 1 << origin, 1 << to
        own_men, own_kings = men[c], kings[c]
        if own_men & a:
            own_men ^= a
            if crowned:
                own_kings |= b
            else:
                own_men |= b
        else:
            own_kings = (own_kings & ~a) | b
        if c == 0:
            next_men = (own_men, men[1] & ~captured)
            next_kings = (own_kings, kings[1] & ~captured)
        else:
            next_men = (men[0] & ~captured, own_men)
            next_kings = (kings[0] & ~captured, own_kings)
        total += _perft(t, depth - 1, o, next_men, next_kings, keep_duplicates)
    return total
