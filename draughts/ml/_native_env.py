"""The native stepping of :class:`~draughts.ml.VectorEnv` (``VecEnv`` of
:mod:`draughts.ml._native`, in ``ml_step.c``): what it is told about a
variant, and how its end codes read.

The C side keeps each game's bitboards and rule state and plays, generates,
decides and observes with no Python per game; this module turns the
variant's rules (:mod:`draughts._draw_rules`' tracker, the encoding's
layout, the action index's turned numbers) into the flat int32 tables it
takes, once per environment.
"""

from __future__ import annotations

import functools
from array import array
from typing import Any

from draughts._draw_rules import TRACKED
from draughts.board import Board
from draughts.ml._native import VecEnv as _VecEnv
from draughts.ml.actions import turned_squares
from draughts.ml.encoding import Layout
from draughts.outcome import Goal, Outcome, Reset, Termination
from draughts.piece import Color
from draughts.variant import Variant

_NOT_COUNTING = -(2**31)
"""ml_step.c's NOT_COUNTING: a tracked rule's start while it does not hold."""

_GOALS = {Goal.STANDARD: 0, Goal.ANTIDRAUGHTS: 1, Goal.BREAKTHROUGH: 2}

_ENDS = (Termination.BLOCKED, Termination.NO_PIECES, Termination.BREAKTHROUGH)
"""ml_step.c's END_BLOCKED, END_NO_PIECES and END_BREAKTHROUGH (1 to 3);
4 is a forfeit (resignation), 5 + k the variant's k-th draw rule."""


def _int32(values: list[int]) -> bytes:
    return array("i", values).tobytes()


def _draw_rule_table(board: Board) -> bytes:
    """Per draw rule of the variant, in its order: is_repetition, automatic,
    limit, mode, slot, strong side moves, resets, most pieces, most for the
    weaker side, claimable a move ahead, the number of endings, then 11 ints
    per ending."""
    tracker = board._ctx.tracker
    tracked = 0
    values: list[int] = []
    for rule, index in tracker.order:
        mode, slot = (0, -1) if index < 0 else tracker.modes[index]
        most = weak_most = 10**9
        if mode == TRACKED:
            most, weak_most = tracker.rule_max[slot], tracker.weak_max[slot]
            tracked += 1
        endings = [] if index < 0 else tracker.endings[index]
        values += [
            int(rule.is_repetition),
            int(rule.automatic),
            rule.limit,
            mode,
            slot,
            int(rule.strong_side_moves),
            int(rule.resets),
            min(most, 2**31 - 1),
            min(weak_most, 2**31 - 1),
            int(rule.claim_on_next_move),
            len(endings),
        ]
        for ending in endings:
            values += [min(int(v), 2**31 - 1) for v in ending]
    return _int32(values)


def native_games(
    variant: Variant,
    num_envs: int,
    start: Board,
    lay: Layout,
    *,
    perspective: bool,
    max_plies: int | None,
    lose: bool,
    threads: int,
    claim: bool = False,
    u8: bool = False,
) -> Any | None:
    """The C games of a :class:`~draughts.ml.VectorEnv` starting at ``start``
    (``claim``: claimable draws end them; ``u8``: observations as bytes,
    each float times 255 rounded), or None where they cannot run: no
    native core, a board it does not hold, more draw rules or endings than it
    keeps."""
    if _VecEnv is None:
        return None
    ctx = start._ctx
    turned = turned_squares(variant) if perspective else None
    kmoves = start._kmoves
    ksq = [kmoves[0].bit_length() - 1, kmoves[2].bit_length() - 1]
    starts = [_NOT_COUNTING if s is None else s for s in start._starts]
    params = (
        int(perspective),
        max_plies or 0,
        int(lose),
        _GOALS[variant.goal],
        lay.shape[0],
        lay.height * lay.width,
        int(ctx.core.square_count),
        ctx.king_limit,
        int(Reset.CAPTURE),
        int(Reset.MAN_MOVE),
        int(Reset.PROMOTION),
        threads,
        int(claim),
        int(u8),
    )
    cells = [-1] * len(ctx.core.square_of_index)
    for square in range(1, ctx.core.square_count + 1):
        cells[ctx.core.index_of_square[square]] = int(lay.cell_of_square[square])
    state = (
        *start._men,
        *start._kings,
        start._turn,
        start._quiet_from,
        start._ply_origin,
        _int32(starts),
        ksq[0],
        kmoves[1],
        ksq[1],
        kmoves[3],
    )
    try:
        return _VecEnv(
            ctx.core,
            num_envs,
            params,
            _int32(cells),
            _int32(list(turned) if turned else []),
            _draw_rule_table(start),
            ctx.tracker.long_diagonal,
            state,
        )
    except (ValueError, OverflowError, TypeError):
        # A board the C side does not hold (not padded, too many rules):
        # the Python path runs it.
        return None


@functools.lru_cache(maxsize=64)
def encoder(variant: Variant, perspective: bool) -> Any | None:
    """A C encoder of ``variant``'s boards (a one-game VecEnv, whose
    ``encode`` writes observations as :func:`~draughts.ml.encode_batch`
    does), or None where the C side cannot hold the variant."""
    from draughts.ml.encoding import layout

    start = Board(variant=variant)
    if start.outcome() is not None:
        return None
    lay = layout(variant)
    return native_games(
        variant, 1, start, lay, perspective=perspective, max_plies=None, lose=True, threads=1
    )


def outcome_of(variant: Variant, code: int, winner: int) -> Outcome | None:
    """The outcome that ml_step.c's end code and winner (-1: none) stand for."""
    if code == 0:
        return None
    if code <= len(_ENDS):
        termination = _ENDS[code - 1]
    elif code == len(_ENDS) + 1:
        termination = Termination.RESIGNATION
    else:
        termination = variant.draw_rules[code - len(_ENDS) - 2].termination
    color = None if winner < 0 else Color(winner)
    return Outcome(termination, color, variant.result_style, variant.first_color)
