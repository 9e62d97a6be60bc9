"""The draw-rule state across the C/Python boundary.

The native core's push calls the board's Python tracker for the draw-rule
start plies (see :mod:`draughts._draw_rules`). Held here:

- the contract: the C reads exactly the members of
  :class:`~draughts._draw_rules.PushTracker` and nothing else, and a tracker
  that lacks one is refused when it is set, naming the member;
- the tracker's shortcut (the first tests of ``after_progress``, which the C
  copies) never changes ``update``'s answer;
- the counts themselves, in endgames of all 19 presets walked at random: on
  either core, ``draw_rule_counts()`` equals counts worked out from the game's
  history alone (an oracle that matches the rules' endings position by
  position and knows nothing of the tracker); on the native core, the C push
  and the Python push give the same counts, outcomes and draw claims after
  every move and after every move taken back.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import draughts
from draughts import KING, MAN, Board, Piece, _core
from draughts import variant as V
from draughts._context import context
from draughts._draw_rules import PUSH_MEMBERS, Tracker
from draughts.outcome import DrawRule, Ending, Reset

needs_c = pytest.mark.skipif(
    not _core.STATE_IN_C, reason="the native core is not built (or DRAUGHTS_PURE=1)"
)

# ---------------------------------------------------------------------------
# The contract


class Recording:
    """A tracker that records which of its members are read."""

    def __init__(self, real: Tracker, hide: str = "") -> None:
        self._real = real
        self._hide = hide
        self.read: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        if name == self._hide:
            raise AttributeError(name)
        self.read.add(name)
        return getattr(self._real, name)


class Context:
    """A variant context whose tracker is a :class:`Recording`."""

    def __init__(self, real: Any, tracker: Recording) -> None:
        self._real = real
        self.tracker = tracker

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


def test_the_python_push_reads_only_the_protocols_members() -> None:
    """Board._push_python, the C push's oracle, holds to the same list (on
    either core): in the same two Russian endings it reads of the tracker
    only what the protocol declares."""
    variant = V.RUSSIAN
    real = context(variant)
    tracker = Recording(real.tracker)
    for fen in ("W:WK1,K5,K10:BK29", "W:W9,10,11,K1:B20,21,K29"):
        board = Board(fen, variant=variant)
        board._ctx = Context(real, tracker)  # type: ignore[assignment]
        rng = random.Random(7)
        for _ in range(60):
            moves = list(board.legal_moves)
            if not moves:
                break
            board._push_python(rng.choice(moves))
    assert tracker.read <= PUSH_MEMBERS
    assert {"after_progress", "update", "man_move_resets"} <= tracker.read
    assert set(real.tracker.events) == {
        int(Reset.CAPTURE),
        int(Reset.MAN_MOVE),
        int(Reset.PROMOTION),
    }


@needs_c
def test_the_c_push_reads_only_the_protocols_members() -> None:
    """The C learns the tracker's attributes when the context is set and
    calls its methods in endings: all it reads is declared, and two Russian
    endings (one with captures to come, one with a lone king that crosses the
    long diagonal) make it read all of it."""
    variant = V.RUSSIAN
    real = context(variant)
    tracker = Recording(real.tracker)
    methods = {"after_progress", "update", "inactive"}
    for fen in ("W:WK1,K5,K10:BK29", "W:W9,10,11,K1:B20,21,K29"):
        board = Board(fen, variant=variant)
        before = set(tracker.read)
        board._ctx = Context(real, tracker)  # type: ignore[assignment]
        assert tracker.read - before <= PUSH_MEMBERS - methods  # learnt, not called
        assert PUSH_MEMBERS - methods <= tracker.read
        walk(board, random.Random(7), 60)
        assert tracker.read <= PUSH_MEMBERS
    assert tracker.read == PUSH_MEMBERS


@needs_c
@pytest.mark.parametrize("member", sorted(PUSH_MEMBERS - {"after_progress", "update", "inactive"}))
def test_a_tracker_without_a_member_is_refused_naming_it(member: str) -> None:
    """A planted violation: the C reads each attribute when the context is
    set, so a tracker that breaks the protocol fails there, not mid-game."""
    real = context(V.INTERNATIONAL)
    board = Board(variant=V.INTERNATIONAL)
    with pytest.raises(AttributeError, match=member):
        board._ctx = Context(real, Recording(real.tracker, hide=member))  # type: ignore[assignment]


# ---------------------------------------------------------------------------
# Random endgames


def endgame(variant: draughts.Variant, rng: random.Random) -> Board:
    """A random position with 2-7 pieces, some of them kings, both sides on
    the board."""
    while True:
        board = Board.empty(variant=variant)
        squares = rng.sample(range(1, board.variant.square_count + 1), rng.randint(2, 7))
        for i, square in enumerate(squares):
            color = draughts.WHITE if i % 2 == 0 else draughts.BLACK
            kind = KING if rng.random() < 0.6 else MAN
            try:
                board.set_piece_at(square, Piece(kind, color))
            except ValueError:  # a man on its crowning row
                board.set_piece_at(square, Piece(KING, color))
        board.turn = rng.choice((draughts.WHITE, draughts.BLACK))
        if board.outcome() is None:
            return board


def walk(board: Board, rng: random.Random, plies: int) -> list[draughts.Move]:
    """Random legal moves, mostly ones that give nothing away (no capture
    for the opponent after them), so that the endings last long enough for
    the counting rules to run out; play goes on past an automatic draw."""
    played = []
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        rng.shuffle(moves)
        move = moves[0]
        if rng.random() < 0.9:
            for candidate in moves:
                board.push(candidate)
                safe = not board.has_captures()
                board.pop()
                if safe:
                    move = candidate
                    break
        board.push(move)
        played.append(move)
    return played


def long_diagonal(board: Board) -> frozenset[int]:
    """The squares of the longest diagonal through a corner."""
    core = board._ctx.core
    best: frozenset[int] = frozenset()
    for anti in (False, True):
        squares = frozenset(
            n
            for n in range(1, core.square_count + 1)
            for row, col in [divmod(core.index_of_square[n], core.stride)]
            if (row + col == core.width - 1 if anti else row == col)
        )
        if len(squares) > len(best):
            best = squares
    return best


def strong_side(rule: DrawRule, board: Board, diagonal: frozenset[int]) -> int | None:
    """The colour playing the strong side of one of the rule's endings, or None."""
    counts = [
        (
            len(list(board.pieces(KING, draughts.Color(c)))),
            len(list(board.pieces(MAN, draughts.Color(c)))),
        )
        for c in (0, 1)
    ]
    total = sum(k + m for k, m in counts)
    for ending in rule.endings:
        if not ending.pieces[0] <= total <= ending.pieces[1]:
            continue
        for strong in (0, 1):
            if matches(ending, counts[strong], counts[1 - strong]) and (
                not ending.weak_king_on_long_diagonal
                or any(s in diagonal for s in board.pieces(KING, draughts.Color(1 - strong)))
            ):
                return strong
    return None


def matches(ending: Ending, strong: tuple[int, int], weak: tuple[int, int]) -> bool:
    return ending.strong.matches(kings=strong[0], men=strong[1]) and ending.weak.matches(
        kings=weak[0], men=weak[1]
    )


def oracle_counts(history: list[Board], events: list[int]) -> list[int | None]:
    """Each counting rule's count in the last position of ``history`` (the
    boards after 0, 1, ... moves, the first as set up), from the positions
    and the moves' events (``events[p]``: of the move into ``history[p]``)."""
    board = history[-1]
    now = len(history) - 1
    diagonal = long_diagonal(board)
    result: list[int | None] = []
    for rule in board.variant.draw_rules:
        if rule.is_repetition:
            continue
        if not rule.endings:
            if rule.resets == Reset.NONE:
                start = 0
            else:  # since the last capture or man move
                start = max((p for p in range(1, now + 1) if events[p] & rule.resets), default=0)
            result.append(now - start)
            continue
        strong = strong_side(rule, board, diagonal)
        if strong is None:
            result.append(None)
            continue
        start = now
        while (
            start > 0
            and not events[start] & rule.resets
            and strong_side(rule, history[start - 1], diagonal) is not None
        ):
            start -= 1
        plies = now - start
        if rule.strong_side_moves:
            first = int(history[start].turn)
            result.append((plies + 1) // 2 if first == strong else plies // 2)
        else:
            result.append(plies)
    return result


def event_of(board: Board, move: draughts.Move) -> int:
    """The Reset bits of ``move`` played on ``board`` (before it)."""
    piece = board.piece_at(move.from_square)
    assert piece is not None
    after = board.copy()
    after.push(move)
    landed = after.piece_at(move.to_square)
    bits = int(Reset.CAPTURE) if move.captures else 0
    if piece.kind == MAN:
        bits |= int(Reset.MAN_MOVE)
        if landed is not None and landed.kind == KING:
            bits |= int(Reset.PROMOTION)
    return bits


def verdicts(board: Board) -> tuple[object, ...]:
    """What a user sees of the draw rules."""
    return (
        [count for _, count in board.draw_rule_counts()],
        board.halfmove_clock,
        board.outcome(),
        board.outcome(claim_draw=True),
        board.can_claim_draw(),
        board.can_claim_threefold_repetition(),
        board.king_moves(draughts.WHITE),
        board.king_moves(draughts.BLACK),
    )


@pytest.mark.parametrize("variant", draughts.VARIANTS, ids=lambda v: v.name)
def test_counts_follow_the_games_history(variant: draughts.Variant) -> None:
    """On the core in use: the counts after every move equal the oracle's."""
    rng = random.Random(variant.name)
    for _ in range(3):
        board = endgame(variant, rng)
        history, events = [board.copy(stack=False)], [0]
        for move in walk(board.copy(), rng, 90):
            events.append(event_of(board, move))
            board.push(move)
            history.append(board.copy(stack=False))
            counts = [count for _, count in board.draw_rule_counts()]
            assert counts == oracle_counts(history, events), (board.fen(), len(history))
        while board.move_stack:
            board.pop()
            history.pop()
            events.pop()
            assert [count for _, count in board.draw_rule_counts()] == oracle_counts(
                history, events
            )


@needs_c
@pytest.mark.parametrize("variant", draughts.VARIANTS, ids=lambda v: v.name)
def test_the_c_and_python_pushes_agree_on_draws(variant: draughts.Variant) -> None:
    """The C push and pop against the Python ones, in endgames: the same
    counts, outcomes and claims after every move and every take-back."""
    rng = random.Random(f"{variant.name} c")
    for _ in range(4):
        start = endgame(variant, rng)
        moves = walk(start.copy(), rng, 120)
        in_c, in_python = start.copy(), start.copy()
        seen = [verdicts(in_c)]
        for move in moves:
            in_c.push(move)
            in_python._push_python(move)
            assert (in_c._quiet_from, in_c._starts, in_c._kmoves) == (
                in_python._quiet_from,
                in_python._starts,
                in_python._kmoves,
            )
            seen.append(verdicts(in_c))
            assert seen[-1] == verdicts(in_python), (in_c.fen(), in_c.ply())
        while in_c.move_stack:
            in_c.pop()
            in_python._pop_python()
            seen.pop()
            assert verdicts(in_c) == verdicts(in_python) == seen[-1]


@pytest.mark.parametrize("variant", draughts.VARIANTS, ids=lambda v: v.name)
def test_the_shortcut_never_changes_the_answer(variant: draughts.Variant) -> None:
    """after_progress (whose first tests the C copies in may_progress) gives
    what update gives, in random endgames and middle games."""
    rng = random.Random(f"{variant.name} shortcut")
    tracker = context(variant).tracker
    for _ in range(40):
        board = endgame(variant, rng) if rng.random() < 0.8 else Board(variant=variant)
        men, kings = board._men, board._kings
        for events in (0, *tracker.events, sum(tracker.events)):
            starts = tracker.update(tracker.inactive, 0, men, kings, 0)
            assert tracker.after_progress(starts, 5, men, kings, events) == tracker.update(
                starts, 5, men, kings, events
            )
