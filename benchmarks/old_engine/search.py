"""Alpha-beta search for the built-in engine.

The search works on raw positions ``(turn, white men, black men, white kings,
black kings)`` and raw moves, reaching move generation only through the names
that :mod:`draughts._core` exports, the way :func:`draughts.perft` does: no
:class:`~draughts.Move` or :class:`~draughts.Board` is built inside the tree,
which keeps a Python search fast enough to look six plies ahead in a blink.

Scores are integers in hundredths of a man, from the point of view of the side
to move (negamax). A side with no legal move has lost; the score of a won
position is :data:`WIN` minus the plies needed to get there, so shorter wins
score higher and longer losses are preferred when lost.

The evaluation is deliberately simple (see :func:`evaluate`): material, with a
king worth more than a man, plus a small bonus for every row a man has
advanced. The variant's :class:`~draughts.outcome.Goal` turns it around for
antidraughts (a side without a move wins, so pieces are a burden) and ends
the game at the first king in breakthrough.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from draughts import _core
from draughts._core import RawMove, Tables
from draughts.outcome import Goal

Position = tuple[int, int, int, int, int]
"""``(turn, white men, black men, white kings, black kings)``."""

WIN = 1_000_000
"""The score of a side that wins now; wins in ``n`` plies score ``WIN - n``."""
WON = WIN - 10_000
"""Scores beyond this (in absolute value) are forced game ends."""

MAN = 100
"""A man, in hundredths of a man."""
FLYING_KING = 300
"""A flying king: it controls whole diagonals, worth about three men (a common
rule of thumb in international draughts literature)."""
SHORT_KING = 150
"""A king that moves one square: worth about a man and a half, the usual
figure in English checkers literature."""
ADVANCE = 3
"""Bonus per row a man has advanced from its own back row: men that are near
the crowning row are worth more, and it pushes the engine to make progress."""

_EXACT, _LOWER, _UPPER = 0, 1, 2
_CHECK_EVERY = 1024  # nodes between two looks at the clock
# Forced moves are searched without using up depth, but only this deep: two
# pieces that each have a single move could otherwise shuffle forever.
_MAX_EXTENDED_PLY = 60


class LimitReached(Exception):
    """The search ran out of time or nodes; the last complete depth counts."""


class _Eval:
    """Per-variant constants of :func:`evaluate`."""

    def __init__(self, t: Tables) -> None:
        self.king = FLYING_KING if t.flying_kings else SHORT_KING
        stride, height = t.stride, t.height
        # The advancement of a man is a row number 0..height-1; it is split
        # into bit planes (rows whose advancement has bit k set) so that the
        # bonus of all men is a few popcounts instead of a loop over men.
        planes: list[list[int]] = [[], []]
        for color in (0, 1):
            for bit in range(max(1, (height - 1).bit_length())):
                mask = 0
                for row in range(height):
                    advance = row if color == 0 else height - 1 - row
                    if advance >> bit & 1:
                        mask |= ((1 << stride) - 1) << (row * stride)
                planes[color].append(mask & t.board_mask)
        self.planes = (tuple(planes[0]), tuple(planes[1]))


def evaluate(e: _Eval, turn: int, m0: int, m1: int, k0: int, k1: int) -> int:
    """The static score for the side to move: ``100`` per man, ``300`` per
    flying king (``150`` per short king), ``3`` per row each man has
    advanced, own pieces counted positive and the opponent's negative."""
    score = MAN * (m0.bit_count() - m1.bit_count()) + e.king * (k0.bit_count() - k1.bit_count())
    advance = 0
    for k, plane in enumerate(e.planes[0]):
        advance += (m0 & plane).bit_count() << k
    for k, plane in enumerate(e.planes[1]):
        advance -= (m1 & plane).bit_count() << k
    score += ADVANCE * advance
    return score if turn == 0 else -score


def play(pos: Position, move: RawMove) -> Position:
    """The position after ``move``."""
    c = pos[0]
    return (1 - c, *_core.apply(move, c, pos[1], pos[2], pos[3], pos[4]))


def legal(t: Tables, pos: Position) -> list[RawMove]:
    """The legal raw moves of ``pos``."""
    c, m0, m1, k0, k1 = pos
    if c == 0:
        return _core.legal_moves(t, 0, m0, k0, m1, k1)
    return _core.legal_moves(t, 1, m1, k1, m0, k0)


def _can_step(t: Tables, pos: Position) -> bool:
    """Whether the side to move has a non-capturing move."""
    c, m0, m1, k0, k1 = pos
    occupied = m0 | m1 | k0 | k1
    return _core.has_step(t, c, *((m0, k0) if c == 0 else (m1, k1)), occupied)


def _captures(t: Tables, pos: Position) -> list[RawMove]:
    c, m0, m1, k0, k1 = pos
    if c == 0:
        return _core.captures(t, 0, m0, k0, m1, k1)
    return _core.captures(t, 1, m1, k1, m0, k0)


class Searcher:
    """One search: a transposition table, node count and limits.

    ``deadline`` is a :func:`time.monotonic` instant and ``max_nodes`` a node
    budget; either raises :class:`LimitReached` inside :meth:`search` once
    spent (never before ``guard_depth`` plies are complete, see
    :meth:`iterate`).
    """

    def __init__(
        self, t: Tables, *, deadline: float | None = None, max_nodes: int | None = None
    ) -> None:
        self.t = t
        self.e = _Eval(t)
        goal = t.variant.goal
        # Antidraughts: a side without a move wins, and material is a burden.
        self.sign = -1 if goal is Goal.ANTIDRAUGHTS else 1
        self.breakthrough = goal is Goal.BREAKTHROUGH
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        self.enforce = True
        self.history: dict[tuple[int, int], int] = {}
        self.root: list[RawMove] | None = None
        """The moves to consider at the root, when the board's rules allow
        fewer than the raw generator (Frisian king-move limit, which depends
        on the game's history and is not followed inside the tree)."""
        # key -> (depth, score, bound, best move)
        self.tt: dict[Position, tuple[int, int, int, RawMove | None]] = {}

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes % _CHECK_EVERY or not self.enforce:
            return
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise LimitReached
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise LimitReached

    def search(self, pos: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        """Negamax alpha-beta score of ``pos`` searched ``depth`` plies deep."""
        self._tick()
        if self.breakthrough and pos[3] | pos[4]:
            return self._crowned(pos, ply)
        if depth <= 0:
            return self._quiesce(pos, alpha, beta, ply)
        entry = self.tt.get(pos)
        tt_move = None
        if entry is not None:
            e_depth, e_score, bound, tt_move = entry
            if e_depth >= depth:
                # Game-end scores are stored relative to this node.
                score = (
                    e_score - ply if e_score > WON else e_score + ply if e_score < -WON else e_score
                )
                if (
                    bound == _EXACT
                    or (bound == _LOWER and score >= beta)
                    or (bound == _UPPER and score <= alpha)
                ):
                    return score
        moves = list(self.root) if ply == 0 and self.root is not None else legal(self.t, pos)
        if not moves:
            return self.sign * (ply - WIN)
        history = self.history
        if len(moves) > 1:
            # The move that was best here before first, then the moves that
            # refuted other positions most often (history heuristic), crowning
            # moves breaking ties.
            moves.sort(key=lambda m: (-history.get((m[0], m[1]), 0), not m[5]))
            if tt_move is not None and tt_move in moves:
                moves.remove(tt_move)
                moves.insert(0, tt_move)
        original_alpha = alpha
        best = -WIN - 1
        best_move = moves[0]
        # A forced move (one legal move, most often a capture) does not use up
        # depth: it cannot hide anything from the search.
        next_depth = depth if len(moves) == 1 and ply < _MAX_EXTENDED_PLY else depth - 1
        for i, move in enumerate(moves):
            child = play(pos, move)
            if i == 0:
                score = -self.search(child, next_depth, -beta, -alpha, ply + 1)
            else:
                # Principal variation search: prove with a null window that
                # the move is no better than the best so far, and search it
                # properly only when that fails.
                score = -self.search(child, next_depth, -alpha - 1, -alpha, ply + 1)
                if alpha < score < beta:
                    score = -self.search(child, next_depth, -beta, -score, ply + 1)
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if not move[2]:
                            key = (move[0], move[1])
                            history[key] = history.get(key, 0) + depth * depth
                        break
        bound = _UPPER if best <= original_alpha else _LOWER if best >= beta else _EXACT
        stored = best + ply if best > WON else best - ply if best < -WON else best
        self.tt[pos] = (depth, stored, bound, best_move)
        return best

    def _quiesce(self, pos: Position, alpha: int, beta: int, ply: int) -> int:
        """Resolve pending captures: captures are compulsory, so a position
        with one is not quiet and its static score would be a lie."""
        if self.breakthrough and pos[3] | pos[4]:
            return self._crowned(pos, ply)
        moves = _captures(self.t, pos)
        if not moves:
            if not _can_step(self.t, pos):  # no pieces, or all blocked
                return self.sign * (ply - WIN)
            return self.sign * evaluate(self.e, *pos)
        best = -WIN - 1
        for move in moves:
            self._tick()
            score = -self._quiesce(play(pos, move), -beta, -alpha, ply + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    def _crowned(self, pos: Position, ply: int) -> int:
        """Breakthrough: the first king wins (the side that just moved made
        it, unless the search started from a position with a king)."""
        return ply - WIN if (pos[4] if pos[0] == 0 else pos[3]) else WIN - ply

    def principal_variation(self, pos: Position, length: int) -> list[RawMove]:
        """The best line stored in the transposition table, from ``pos``."""
        line: list[RawMove] = []
        seen = set()
        while len(line) < length and pos not in seen:
            seen.add(pos)
            entry = self.tt.get(pos)
            if entry is None or entry[3] is None or entry[3] not in legal(self.t, pos):
                break
            line.append(entry[3])
            pos = play(pos, entry[3])
        return line

    def iterate(
        self,
        pos: Position,
        max_depth: int,
        guard_depth: int = 1,
        report: Callable[[int, int, list[RawMove]], None] | None = None,
    ) -> tuple[int, int, list[RawMove]]:
        """Iterative deepening from depth 1 to ``max_depth``: returns the
        depth, score and principal variation of the deepest complete
        iteration. Limits are not enforced until ``guard_depth`` is complete.

        ``pos`` must have a legal move.
        """
        result: tuple[int, int, list[RawMove]] | None = None
        for depth in range(1, max_depth + 1):
            self.enforce = depth > guard_depth
            try:
                score = self.search(pos, depth, -WIN - 1, WIN + 1, 0)
            except LimitReached:
                break
            pv = self.principal_variation(pos, depth + 8)
            result = (depth, score, pv)
            if report is not None:
                report(depth, score, pv)
            if abs(score) > WON:
                break  # a forced result: deeper search cannot change it
        if result is None:  # pragma: no cover - depth 1 is never interrupted
            raise LimitReached
        return result
