"""Legal move generation on bitboards.

Positions are four ints (men and kings of each colour) over the padded grid of
:mod:`draughts._core.geometry`. Moves are produced as raw moves
(:class:`draughts._core.raw.RawMove`)::

    (origin, destination, captured_mask, captured, path, crowned)

with internal indices: ``captured`` lists the captured squares in capture
order, ``path`` the origin, every stop and the destination (empty for a
non-capturing step), and ``crowned`` says whether the piece ends as a new king.
Perft, the engine's search and the PDN reader work with these. The board's
list of :class:`draughts.Move` objects (:func:`board_moves`) takes every step
from prebuilt tables and every capture from a cache, so no ``Move`` is built
twice.

The recursive capture search lives in :mod:`draughts._core.pure.capture_search`, what a
king sees from its square in :mod:`draughts._core.pure.king_views`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from draughts._core.pure.capture_search import searcher
from draughts._core.pure.king_views import RAW_STEPS, STEP_RANKS, new_king_view
from draughts._core.raw import RawMove
from draughts._options import CaptureRule

if TYPE_CHECKING:
    from draughts._core.pure.tables import Tables
    from draughts.move import Move

_T = TypeVar("_T")


def legal_moves(
    t: Tables,
    color: int,
    own_men: int,
    own_kings: int,
    opp_men: int,
    opp_kings: int,
    frozen_kings: int = 0,
    keep_duplicates: bool = False,
) -> list[RawMove]:
    """Every legal move: the captures the rules allow if there is any, else
    every step. ``frozen_kings`` is a mask of own kings that may capture but
    not make a non-capturing move (Frisian :attr:`Variant.king_move_limit`);
    ``keep_duplicates`` as for :func:`captures`."""
    moves = captures(t, color, own_men, own_kings, opp_men, opp_kings, keep_duplicates)
    if moves:
        return moves
    return steps(
        t, color, own_men, own_kings, own_men | own_kings | opp_men | opp_kings, frozen_kings
    )


def steps(
    t: Tables, color: int, men: int, kings: int, occupied: int, frozen_kings: int = 0
) -> list[RawMove]:
    """Non-capturing moves; the kings in ``frozen_kings`` make none."""
    return _steps(
        t,
        men,
        kings & ~frozen_kings,
        occupied,
        t.board_mask & ~occupied,
        t.step_objects.men_raw[color],
        RAW_STEPS,
    )


def _steps(
    t: Tables,
    men: int,
    kings: int,
    occupied: int,
    empty: int,
    men_rows: tuple[tuple[int, list[_T]], ...],
    king_part: int,
) -> list[_T]:
    """Every step, taken from tables of prebuilt move values (a step is
    always the same immutable value, so none is built here): the
    ``(shift, row)`` pairs of ``men_rows`` for the men, part ``king_part``
    of the king views for the kings."""
    out: list[_T] = []
    append = out.append
    if men:
        # Every man at once: shift the whole set one step and keep the
        # targets that are empty playing squares. Taking the highest bit
        # each time is one operation fewer than the lowest.
        for shift, row in men_rows:
            targets = ((men << shift) if shift > 0 else (men >> -shift)) & empty
            while targets:
                top = targets.bit_length() - 1
                append(row[top])
                targets ^= 1 << top
    if kings:
        # With no enemy piece to jump, every king makes its steps.
        out += _scan_kings(t, kings, occupied, 0, 0, king_part)[1]
    return out


def find_step(
    t: Tables,
    color: int,
    men: int,
    kings: int,
    occupied: int,
    origin: int,
    destination: int,
    frozen_kings: int = 0,
) -> RawMove | None:
    """The non-capturing move from ``origin`` to ``destination`` if it is a
    legal step (the caller knows there is no capture), else None.

    Checking one step is much cheaper than listing them all, which is what a
    game reader needs for every quiet move it replays."""
    if not _is_step(t, color, men, kings, occupied, origin, destination, frozen_kings):
        return None
    crowned = bool(men >> origin & 1 and (t.promotion_mask[color] >> destination) & 1)
    return RawMove(origin, destination, 0, (), (), crowned)


def _is_step(
    t: Tables,
    color: int,
    men: int,
    kings: int,
    occupied: int,
    origin: int,
    destination: int,
    frozen_kings: int,
) -> bool:
    """Whether a non-capturing move goes from ``origin`` to ``destination``."""
    bit = 1 << origin
    if not (t.board_mask >> destination) & 1 or (occupied >> destination) & 1:
        return False
    if men & bit:
        return destination - origin in t.man_shifts[color]
    if not kings & bit or frozen_kings & bit:
        return False
    ray_set = t.rays[origin]
    for d in t.king_move_dirs:
        ray = ray_set[d]
        if not t.flying_kings:
            ray = ray[:1]
        for square in ray:
            if (occupied >> square) & 1:
                break
            if square == destination:
                return True
    return False


def moves_between(
    t: Tables,
    color: int,
    own_men: int,
    own_kings: int,
    opp_men: int,
    opp_kings: int,
    origin: int,
    destination: int,
    frozen_kings: int = 0,
) -> list[Move]:
    """The legal moves from index ``origin`` to index ``destination``, as
    :class:`Move` objects: what a game reader needs for every move it
    replays. When nothing captures, one step is checked instead of listing
    every move."""
    found = captures(t, color, own_men, own_kings, opp_men, opp_kings)
    if found:
        return t.moves.captures_in_order(
            [raw for raw in found if raw.destination == destination and raw.origin == origin]
        )
    occupied = own_men | own_kings | opp_men | opp_kings
    if _is_step(t, color, own_men, own_kings, occupied, origin, destination, frozen_kings):
        return [t.moves.steps[origin << 16 | destination]]
    return []


def has_step(t: Tables, color: int, men: int, kings: int, occupied: int) -> bool:
    """Whether ``color`` has a non-capturing move: a few whole-board shifts,
    much cheaper than listing the moves."""
    empty = t.board_mask & ~occupied
    for shift in t.man_shifts[color]:
        if ((men << shift) if shift > 0 else (men >> -shift)) & empty:
            return True
    if kings:
        for d in t.king_move_dirs:
            shift = t.shift[d]
            if ((kings << shift) if shift > 0 else (kings >> -shift)) & empty:
                return True
    return False


def captures(
    t: Tables,
    color: int,
    own_men: int,
    own_kings: int,
    opp_men: int,
    opp_kings: int,
    keep_duplicates: bool = False,
) -> list[RawMove]:
    """The capture sequences the rules allow (empty if there is none).

    With ``keep_duplicates`` routes that take the same pieces in another order
    all stay, as some published perft tables count them."""
    opp = opp_men | opp_kings
    occupied = own_men | own_kings | opp
    empty = t.board_mask & ~occupied
    prey = opp if t.men_capture_kings else opp_men
    starts = _jump_starts(t, color, own_men, prey, empty) if own_men else []
    kings = _scan_kings(t, own_kings, occupied, opp, 0, 0)[0] if own_kings else 0
    if not starts and not kings:
        return []
    return _routes(
        t, color, starts, kings, own_kings, opp, opp_kings, prey, empty, occupied, keep_duplicates
    )


def board_moves(
    t: Tables,
    color: int,
    own_men: int,
    own_kings: int,
    opp_men: int,
    opp_kings: int,
    frozen_kings: int = 0,
) -> list[Move]:
    """The legal moves as :class:`Move` objects in square order (origin,
    then destination): the list :attr:`draughts.Board.legal_moves` gives.

    The same moves as :func:`legal_moves`, found in one pass: when nothing
    captures, the steps are taken with the empty squares the capture tests
    already worked out."""
    opp = opp_men | opp_kings
    occupied = own_men | own_kings | opp
    empty = t.board_mask & ~occupied
    prey = opp if t.men_capture_kings else opp_men
    starts = _jump_starts(t, color, own_men, prey, empty) if own_men else []
    # The kings that can capture and, in case nothing can, the others' steps.
    jumpers, ranks = (
        _scan_kings(t, own_kings, occupied, opp, frozen_kings, STEP_RANKS) if own_kings else (0, [])
    )
    if starts or jumpers:
        return t.moves.captures_in_order(
            _routes(
                t, color, starts, jumpers, own_kings, opp, opp_kings, prey, empty, occupied, False
            )
        )
    objects = t.step_objects
    if own_men:
        ranks += _steps(t, own_men, 0, occupied, empty, objects.men_ranks[color], STEP_RANKS)
    ranks.sort()
    return list(map(objects.by_rank.__getitem__, ranks))


def _jump_starts(
    t: Tables, color: int, own_men: int, prey: int, empty: int
) -> list[tuple[int, list[RawMove | None], int]]:
    """``(direction, single jumps, men)`` for each capture direction in which
    some men can jump a piece of ``prey``: the direction's prebuilt single
    jumps by origin (see :attr:`Tables.man_jumps
    <draughts._core.pure.tables.Tables.man_jumps>`) and the mask of those men.

    Only a man with an enemy piece next to it and an empty square behind can
    start a capture: they are found all at once with whole-board shifts (a
    step never wraps across the two padding columns, see :mod:`draughts._core.geometry`)."""
    starts = []
    for shift, d, jumps in t.man_jumps[color]:
        if shift > 0:
            found = own_men & ((prey & (empty >> shift)) >> shift)
        else:
            found = own_men & ((prey & (empty << -shift)) << -shift)
        if found:
            starts.append((d, jumps, found))
    return starts


def _routes(
    t: Tables,
    color: int,
    starts: list[tuple[int, list[RawMove | None], int]],
    kings: int,
    own_kings: int,
    opp: int,
    opp_kings: int,
    prey: int,
    empty: int,
    occupied: int,
    keep_duplicates: bool,
) -> list[RawMove]:
    """The capture routes the rules allow, from the men of ``starts`` (see
    :func:`_jump_starts`) and the ``kings`` that can capture."""
    routes: list[RawMove] = []
    searched = False
    onward_at = t.man_onward[color]
    for d, jumps, found in starts:
        while found:
            top = found.bit_length() - 1
            found ^= 1 << top
            jump = jumps[top]
            assert jump is not None  # found only holds men with a square to land on
            # Most captures are one jump: a few bit tests show that no enemy
            # piece next to the landing square can be jumped (the one just
            # jumped cannot be jumped twice, the origin is empty now) for much
            # less than the search costs. A man crowned on the way may go on
            # as a king: searched.
            if not jump.crowned or not t.crown_and_continue:
                near, pairs = onward_at[jump.destination]
                prey_near = prey & near & ~jump.captured_mask
                if not prey_near:
                    routes.append(jump)
                    continue
                empty_now = empty | (1 << top)
                for over, behind in pairs:
                    if prey_near & over and empty_now & behind:
                        break
                else:
                    routes.append(jump)
                    continue
            searched = True
            onward = searcher(t, color, keep_duplicates).onward
            onward(jump, d, occupied ^ (1 << top), opp, opp_kings, routes)
    if kings:
        searched = True
        search = searcher(t, color, keep_duplicates).search
        while kings:
            top = kings.bit_length() - 1
            kings ^= 1 << top
            search(top, False, occupied ^ (1 << top), opp, opp_kings, routes)
    if len(routes) < 2:
        return routes
    # Single jumps are never duplicates, and all take one piece.
    if t.precedence and (searched or not t.majority_only):
        routes = _apply_precedence(t, routes, own_kings, opp_kings)
    return routes if keep_duplicates or not searched else _drop_duplicates(routes)


def _scan_kings(
    t: Tables, kings: int, occupied: int, opp: int, frozen_kings: int, part: int
) -> tuple[int, list[_T]]:
    """One look at each king's view (see :mod:`draughts._core.pure.king_views`): the
    kings with a piece of ``opp`` to jump right away, and the steps of the
    others as part ``part`` of their views (none if ``part`` is 0), the kings
    in ``frozen_kings`` left out. Testing the first jump is much cheaper than
    setting up the search."""
    jumpers = 0
    steps: list[_T] = []
    views = t.king_views
    masks = t.king_ray_masks
    while kings:
        top = kings.bit_length() - 1
        kings ^= 1 << top
        seen = occupied & masks[top]
        view = views[top].get(seen) or new_king_view(t, top, seen)
        if view[0] & opp:
            jumpers |= 1 << top
        elif part and not (frozen_kings >> top) & 1:
            steps += view[part]  # type: ignore[arg-type]
    return jumpers, steps


def _apply_precedence(
    t: Tables, routes: list[RawMove], own_kings: int, opp_kings: int
) -> list[RawMove]:
    """Keep the routes that are best under the variant's capture precedence."""
    if t.majority_only:
        most = max(len(route.captured) for route in routes)
        return [route for route in routes if len(route.captured) == most]

    def key(route: RawMove) -> tuple[object, ...]:
        parts: list[object] = []
        for rule in t.precedence:
            if rule is CaptureRule.MOST_PIECES:
                parts.append(len(route.captured))
            elif rule is CaptureRule.MOST_KINGS:
                parts.append((route.captured_mask & opp_kings).bit_count())
            elif rule is CaptureRule.MOST_VALUE:
                kings = (route.captured_mask & opp_kings).bit_count()
                men = len(route.captured) - kings
                parts.append(men * t.man_value + kings * t.king_value)
            elif rule is CaptureRule.WITH_KING:
                parts.append(bool((own_kings >> route.origin) & 1))
            else:  # KINGS_FIRST: the earlier a king is taken, the better
                parts.append(tuple(bool((opp_kings >> c) & 1) for c in route.captured))
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
        identity = (route.origin, route.destination, route.captured_mask)
        if identity not in seen:
            seen.add(identity)
            out.append(route)
    return out
