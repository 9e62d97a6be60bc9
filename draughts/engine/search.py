"""Alpha-beta search for the built-in engine.

The search works on raw positions ``(turn, white men, black men, white kings,
black kings)`` and raw moves, reaching move generation only through the names
that :mod:`draughts._core` exports, the way :func:`draughts.perft` does: no
:class:`~draughts.Move` or :class:`~draughts.Board` is built inside the tree.

Scores are integers in hundredths of a man, from the point of view of the side
to move (negamax). A side with no legal move has lost; the score of a won
position is :data:`WIN` minus the plies needed to get there, so shorter wins
score higher and longer losses are preferred when lost. The variant's
:class:`~draughts.outcome.Goal` turns it around for antidraughts (a side
without a move wins, so the evaluation is negated) and ends the game at the
first king in breakthrough.

What the search does, in the usual terms:

- iterative deepening with principal variation search; a forced move (one
  legal move) does not use up depth;
- quiescence: at the horizon every capture sequence is played out (captures
  are compulsory, so a position with one is never judged statically);
- a transposition table of fixed size keyed by the position's 64-bit
  Zobrist key (the keys :attr:`draughts.Board.position_key` uses, updated
  move by move), kept from move to move by :meth:`Searcher.renew`, with
  enhanced transposition cutoffs;
- move ordering: the table's move, then the killer moves of the ply (quiet
  moves that refuted a sibling), then the history heuristic; among captures,
  the ones that take most first;
- draws: a position that repeats one of the line or of the game (since the
  last man move or capture) scores 0, and so does reaching the variant's
  no-progress count (the 25-move rule of international draughts) or one of
  its drawn materials (see :class:`DrawTable`);
- the evaluation of :mod:`draughts.engine.evaluation`.

:class:`Searcher` is the definition. Where the native core is built,
:func:`draughts.engine.native_search.searcher` gives a
:class:`~draughts.engine.native_search.NativeSearcher` instead, whose tree runs in
C (:mod:`draughts.engine._native`, ``search.c``) node for node the same: same scores,
principal variations and node counts; :class:`Searcher` is its oracle in the
tests.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from draughts._core import RawMove, Tables
from draughts._core.zobrist import Keys
from draughts.engine._raw import Position as Position
from draughts.engine._raw import _can_step, _captures, _taken, _threatened
from draughts.engine._raw import legal as legal
from draughts.engine._raw import play as play
from draughts.engine._raw import raw_position as raw_position
from draughts.engine._table import Table, table_size
from draughts.engine.draw_table import _SMALL_MATERIAL, _draw_table
from draughts.engine.evaluation import Evaluator
from draughts.engine.evaluation import evaluator as evaluator
from draughts.outcome import Goal

if TYPE_CHECKING:
    from draughts.engine.egtb import Probe


WIN = 1_000_000
"""The score of a side that wins now; wins in ``n`` plies score ``WIN - n``."""
WON = WIN - 10_000
"""Scores beyond this (in absolute value) are forced game ends."""

_EXACT, _LOWER, _UPPER = 0, 1, 2
_CHECK_EVERY = 1024  # nodes between two looks at the clock
# Forced moves are searched without using up depth, but only this deep: two
# pieces that each have a single move could otherwise shuffle forever.
_MAX_EXTENDED_PLY = 60
_EVALUATIONS = 1_500_000  # static scores kept by position; cleared when full
TABLE_ENTRIES = 2**18
"""The transposition table's default size in entries (8 MB in C), a power of
two. The table has a fixed size: it is allocated once, kept from move to
move and never cleared by a search, each new position taking the place of
an old one (see :meth:`draughts.engine._table.Table.store`). Sizes are rounded down to a
power of two. A big table costs each node cache misses: allocated at 64 MB
(2**21 entries) a node took 2.6 times as long as in a small table."""
MAX_THREADS = 64
"""The most threads a search may be given (:attr:`Searcher.threads`): the
native search runs on that many where the platform has threads (its
``search.h``'s ``MAX_HELPERS`` and one)."""
THREAT_EXTENSIONS = 1
"""How many times a line may answer a threat at the horizon (see
:meth:`Searcher._answer_threat`)."""
_LATE = 3  # moves from this one on (counting from 0) are searched reduced first
LATE_DEEP = 6
"""Late moves from this one on (counting from 0) are searched two plies
shallower first where the line has two reductions left (0: one ply
always)."""
LATE_DEPTH = 3
"""The least depth at which a late move is searched reduced first."""
LATE_PV = 1
"""Whether late moves are reduced in an open window (a node of the
principal variation) too; 0: only in null-window nodes, as Moby Dam's
search does (https://github.com/rhalbersma/mobydam, ``main/search.c``)."""
LATE_ROOT = 1
"""Whether late root moves are reduced first too (1) or never (0, as in
Moby Dam: https://github.com/rhalbersma/mobydam, ``main/search.c``); 0
scored no better against it (``docs/engine_strength.rst``)."""
LATE_SACRIFICE = 0
"""Whether a late quiet move after which the opponent must capture (a
sacrifice, or an exchange offered) is searched to the full depth at once,
never reduced (1) or reduced like any other (0)."""
ASPIRATION = 50
"""The half width, in hundredths of a man, of the first window a depth is
searched in around the previous depth's score (0: no windows); see
:meth:`Searcher._iteration`. To depth 11 on the 50 International positions
of ``benchmarks/positions.json``, 50 took 7 % fewer nodes than no windows,
25 took 4 % fewer and 12 took 1 % more (``benchmarks/search_nodes.py``)."""
ASPIRATION_DEPTH = 4
"""The first depth searched in an aspiration window."""
PROBCUT = 90
"""The margin, in hundredths of a man, of the pruning of
:meth:`Searcher._probcut` (0: none)."""
PROBCUT_DEPTH = 3
"""The least depth a node is pruned at by :meth:`Searcher._probcut`."""
ETC_DEPTH = 6
"""The least depth of a null-window node that looks up its children in the
table before searching them (enhanced transposition cutoffs, see
:meth:`Searcher._etc`; 0: never). Over 12 moves played from each of 10
International positions, searched to depth 11 by one renewed searcher
(``benchmarks/search_nodes.py --depth 11 --plies 12 --positions 10``), 6
took 0.91 times the nodes of none (22.7 M against 25.1 M); with a new
table for each of 40 positions it saved only 0.3 %."""
_PROBCUT_SCORES = 10_000  # windows beyond 100 men are about game ends: never pruned
KNOWN_WIN = WON - 1000
"""The score of a position an endgame bitbase says is won, less the plies
to it: above every evaluation, below the forced game ends (a bitbase does
not say how far the end is)."""


class LimitReached(Exception):
    """The search ran out of time or nodes, or was stopped; the last
    complete depth counts."""


class StopSignal:
    """A request, from another thread, that a search end now.

    Give it to the searches it should end with :meth:`watch`; :meth:`set`
    (from any thread, at any time) calls :meth:`Searcher.stop` on each of
    them, and on every search it watches later: a search ends once its first
    iteration is complete, with the best move found so far.

    >>> signal = StopSignal()
    >>> signal.is_set()
    False
    >>> signal.set()
    >>> signal.is_set()
    True
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._set = False
        self._searchers: list[Searcher] = []

    def is_set(self) -> bool:
        """Whether :meth:`set` was called."""
        return self._set

    def set(self) -> None:
        """Stop every search watched, now and later."""
        with self._lock:
            self._set = True
            searchers = list(self._searchers)
        for one in searchers:
            one.stop()

    def watch(self, searcher: Searcher) -> None:
        """Have :meth:`set` stop ``searcher`` (at once if it was already
        called)."""
        with self._lock:
            self._searchers.append(searcher)
            stop_now = self._set
        if stop_now:
            searcher.stop()

    def forget(self, searcher: Searcher) -> None:
        """Stop watching ``searcher`` (its search is over)."""
        with self._lock:
            if searcher in self._searchers:
                self._searchers.remove(searcher)


class Searcher:
    """One search: a transposition table, killers, history, node count and
    limits.

    ``deadline`` is a :func:`time.monotonic` instant and ``max_nodes`` a node
    budget; either raises :class:`LimitReached` inside :meth:`search` once
    spent (never before ``guard_depth`` plies are complete, see
    :meth:`iterate`). ``keys`` are the variant's Zobrist keys and
    ``game_keys`` the keys of the game's positions since its last man move
    or capture, oldest first, the current position last: the search scores a
    return to any of them as a draw.
    """

    def __init__(
        self,
        t: Tables,
        keys: Keys,
        *,
        deadline: float | None = None,
        max_nodes: int | None = None,
        game_keys: Sequence[int] = (),
    ) -> None:
        self.t = t
        self.e: Evaluator = evaluator(t)
        goal = t.variant.goal
        # Antidraughts: a side without a move wins, and material is a burden.
        self.sign = -1 if goal is Goal.ANTIDRAUGHTS else 1
        self.breakthrough = goal is Goal.BREAKTHROUGH
        self.draws = _draw_table(t.variant)
        self.keys = keys
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        self.enforce = True
        self.history: dict[int, int] = {}
        self.killers: list[list[int]] = [[0, 0] for _ in range(_MAX_EXTENDED_PLY + 64)]
        self.root: list[RawMove] | None = None
        """The moves to consider at the root, when the board's rules allow
        fewer than the raw generator (Frisian king-move limit, which depends
        on the game's history and is not followed inside the tree)."""
        self.table = Table(2)
        """The transposition table (the C search keeps its own)."""
        self.table_entries = TABLE_ENTRIES
        self.evaluations: dict[Position, int] = {}
        """White's static score by position (side to move, white men, black
        men, white kings, black kings)."""
        # The keys of the game's reversible past, then of the current line.
        self.line: list[int] = list(game_keys)[:-1]
        self.base = len(self.line)
        self.reductions = 0
        """How many more late move reductions the current line may make."""
        self.threat_budget = THREAT_EXTENSIONS
        """How many threatened quiet positions a line may answer: the
        :attr:`threat_extensions` every iteration starts with."""
        self.threat_extensions = THREAT_EXTENSIONS
        """How many more threatened quiet positions the line may answer."""
        self.probcut = PROBCUT
        """:data:`PROBCUT` when the searcher was made (0: no
        :meth:`_probcut`)."""
        self.late_deep = LATE_DEEP
        """:data:`LATE_DEEP` when the searcher was made."""
        self.late_depth = LATE_DEPTH
        """:data:`LATE_DEPTH` when the searcher was made."""
        self.late_pv = LATE_PV
        """:data:`LATE_PV` when the searcher was made."""
        self.late_sacrifice = LATE_SACRIFICE
        """:data:`LATE_SACRIFICE` when the searcher was made."""
        self.late_root = LATE_ROOT
        """:data:`LATE_ROOT` when the searcher was made."""
        self.etc_depth = ETC_DEPTH
        """:data:`ETC_DEPTH` when the searcher was made."""
        # Probcut is left out while most men are on the board (opening
        # positions are about structure, which a shallow search misjudges).
        self.probcut_pieces = self.e.men_at_start * 4 // 5
        self.partial: tuple[int, RawMove] | None = None
        """The best root move of the iteration in progress, once it has
        beaten the previous iteration's first move."""
        self.stopped = False
        """Set by :meth:`stop`."""
        self.interruptible = False
        """Whether the iteration in progress is beyond depth 1 (a stop
        waits for depth 1, so that there is a move to play)."""
        self.probe: Probe | None = None
        """Endgame bitbases (set by :meth:`use_bitbases`), asked at every
        node below the root with at most ``probe.pieces`` pieces."""
        self.threads = 1
        """The threads :meth:`iterate` may search on. This (pure) search
        runs on one whatever it says; the native one
        (:class:`~draughts.engine.native_search.NativeSearcher`) runs
        ``threads - 1`` helper threads beside it."""

    def renew(
        self,
        *,
        deadline: float | None = None,
        max_nodes: int | None = None,
        game_keys: Sequence[int] = (),
    ) -> None:
        """Get ready to search the game's next position (the arguments are
        those of the constructor) keeping what the last search learnt: the
        transposition table, whose entries for the positions ahead save the
        new search most of its first depths (the older entries give way
        first as the new search fills it), and the history scores,
        halved so that the new position's own refutations soon outweigh
        them; the killers, which belong to plies counted from the old
        root, are forgotten. Moby Dam keeps its table across moves too
        (https://github.com/rhalbersma/mobydam, ``main/search.c``)."""
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        self.table.generation = (self.table.generation + 1) & 255
        self.history = {code: value // 2 for code, value in self.history.items() if value > 1}
        self.killers = [[0, 0] for _ in range(_MAX_EXTENDED_PLY + 64)]
        self.root = None
        self.line = list(game_keys)[:-1]
        self.base = len(self.line)
        self.partial = None
        self.stopped = False
        self.interruptible = False

    def stop(self) -> None:
        """End the search now, from another thread: at its next look at the
        clock (every 1024 nodes) once depth 1 is complete, whatever the guard
        depth of :meth:`iterate`, as if its time had run out."""
        self.stopped = True

    def use_bitbases(self, probe: Probe | None) -> None:
        """Probe ``probe`` at every node below the root that it may cover
        (None: no more): a covered position scores its value, a win
        :data:`KNOWN_WIN` less the plies to it (so nearer wins are
        preferred, farther losses), a loss the opposite, a draw 0."""
        self.probe = probe

    def key_of(self, pos: Position) -> int:
        """The Zobrist key of ``pos`` (as :attr:`draughts.Board.position_key`)."""
        return self.keys.of(pos[0], (pos[1], pos[2]), (pos[3], pos[4]))

    def _child_key(self, key: int, pos: Position, move: RawMove) -> int:
        """The key after ``move``, from the key before it (a few XORs)."""
        c = pos[0]
        keys = self.keys
        origin, to, _mask, captured, _path, crowned = move
        own_men = pos[1 + c]
        if own_men >> origin & 1:
            key ^= keys.men[c][origin]
            key ^= (keys.kings if crowned else keys.men)[c][to]
        else:
            key ^= keys.kings[c][origin] ^ keys.kings[c][to]
        if captured:
            o = 1 - c
            opp_men, men_keys, king_keys = pos[1 + o], keys.men[o], keys.kings[o]
            for square in captured:
                key ^= men_keys[square] if opp_men >> square & 1 else king_keys[square]
        return key ^ keys.black_to_move

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes % _CHECK_EVERY:
            return
        if self.stopped and self.interruptible:
            raise LimitReached
        if not self.enforce:
            return
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise LimitReached
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise LimitReached

    def search(
        self, pos: Position, key: int, depth: int, alpha: int, beta: int, ply: int, reversible: int
    ) -> int:
        """Negamax alpha-beta score of ``pos`` (whose key is ``key``) searched
        ``depth`` plies deep; ``reversible`` plies were played since the last
        man move or capture."""
        # One function on purpose: it is read line by line against the C search
        # (search.c), which the differential tests hold to it node for node.
        self._tick()
        if self.breakthrough and pos[3] | pos[4]:
            return self._crowned(pos, ply)
        line, index = self.line, self.base + ply
        line[index] = key
        if ply and reversible >= 4:
            # A repetition of the line or of the game (same side to move:
            # every second position) is a draw.
            for i in range(index - 4, max(-1, index - reversible - 1), -2):
                if line[i] == key:
                    return 0
        no_progress = self.draws.no_progress
        if no_progress is not None and reversible >= no_progress:
            return 0
        probe = self.probe
        if (
            probe is not None
            and ply
            and (pos[1] | pos[2] | pos[3] | pos[4]).bit_count() <= probe.pieces
        ):
            known = probe(pos)
            if known is not None:
                return known * (KNOWN_WIN - ply)
        if depth <= 0:
            return self._quiesce(pos, alpha, beta, ply)
        entry = self.table.probe(key)
        tt_move = None
        if entry is not None:
            _key, e_depth, e_score, bound, tt_move, _generation = entry
            if e_depth >= depth and ply:
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
        if (
            beta - alpha == 1
            and depth >= PROBCUT_DEPTH
            and ply
            and self.reductions
            and self.probcut
            and self._probcut(pos, key, depth, beta, ply, reversible)
        ):
            return beta
        moves = list(self.root) if ply == 0 and self.root is not None else legal(self.t, pos)
        if not moves:
            return self.sign * (ply - WIN)
        if len(moves) > 1:
            self._order(moves, pos[0], ply, tt_move)
            if 0 < self.etc_depth <= depth and beta - alpha == 1 and ply:
                cut = self._etc(pos, key, moves, depth, beta, ply, reversible)
                if cut is not None:
                    return cut
        original_alpha = alpha
        best = -WIN - 1
        best_move = moves[0]
        # A forced move (one legal move, most often a capture) does not use up
        # depth: it cannot hide anything from the search; nor does a move
        # that crowns a man, whose new king changes everything.
        extend = ply < _MAX_EXTENDED_PLY
        forced = len(moves) == 1 and extend
        own_men = pos[1 + pos[0]]
        for i, move in enumerate(moves):
            next_depth = depth if forced or (extend and move[5]) else depth - 1
            child = play(pos, move)
            child_key = self._child_key(key, pos, move)
            after = 0 if move[2] or own_men >> move[0] & 1 else reversible + 1
            if i == 0:
                score = -self.search(child, child_key, next_depth, -beta, -alpha, ply + 1, after)
            elif (
                i >= _LATE
                and depth >= self.late_depth
                and self.reductions
                and (ply or self.late_root)
                and (self.late_pv or beta - alpha == 1)
                and not move[2]
                and not move[5]
                and not (self.late_sacrifice and _captures(self.t, child))
                and (
                    score := self._reduced(
                        child,
                        child_key,
                        next_depth,
                        alpha,
                        ply,
                        after,
                        2 if 0 < self.late_deep <= i and self.reductions >= 2 else 1,
                    )
                )
                <= alpha
            ):
                pass  # a late move that a shallower search shows to be no better
            else:
                # Principal variation search: prove with a null window that
                # the move is no better than the best so far, and search it
                # properly only when that fails.
                score = -self.search(
                    child, child_key, next_depth, -alpha - 1, -alpha, ply + 1, after
                )
                if alpha < score < beta:
                    score = -self.search(
                        child, child_key, next_depth, -beta, -score, ply + 1, after
                    )
            if score > best:
                best, best_move = score, move
                if ply == 0 and i:
                    self.partial = (score, move)
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if not move[2]:
                            self._reward(move, pos[0], ply, depth)
                        break
        bound = _UPPER if best <= original_alpha else _LOWER if best >= beta else _EXACT
        stored = best + ply if best > WON else best - ply if best < -WON else best
        self.table.store(key, depth, stored, bound, best_move, bound == _UPPER)
        return best

    @property
    def table_entries(self) -> int:
        """The transposition table's size in entries; set to another
        size (rounded down to a power of two, at least 2), it makes a new,
        empty table."""
        return len(self.table.entries)

    @table_entries.setter
    def table_entries(self, entries: int) -> None:
        if table_size(entries) != len(self.table.entries):
            self.table = Table(entries)

    def clear_table(self) -> None:
        """Empty the transposition table."""
        self.table.clear()

    def table_count(self) -> int:
        """How many entries of the transposition table are in use."""
        return self.table.count()

    def _reduced(
        self,
        child: Position,
        key: int,
        depth: int,
        alpha: int,
        ply: int,
        reversible: int,
        plies: int,
    ) -> int:
        """Late move reduction: the null-window score of a late quiet move
        searched ``plies`` shallower (as many of the line's allowed
        reductions)."""
        self.reductions -= plies
        score = -self.search(child, key, depth - plies, -alpha - 1, -alpha, ply + 1, reversible)
        self.reductions += plies
        return score

    def _etc(
        self,
        pos: Position,
        key: int,
        moves: list[RawMove],
        depth: int,
        beta: int,
        ply: int,
        reversible: int,
    ) -> int | None:
        """Enhanced transposition cutoff, as in Moby Dam's null-window nodes
        (https://github.com/rhalbersma/mobydam, ``main/search.c``): the
        score of the first of ``moves`` whose child the table shows, deep
        enough, to score at least ``beta``, else None. Children that a
        repetition, the no-progress count or a bitbase could decide are
        skipped: their own search looks at those before the table."""
        extend = ply < _MAX_EXTENDED_PLY
        own_men = pos[1 + pos[0]]
        no_progress = self.draws.no_progress
        pieces = (pos[1] | pos[2] | pos[3] | pos[4]).bit_count()
        probed = 0 if self.probe is None else self.probe.pieces
        for move in moves:
            after = 0 if move[2] or own_men >> move[0] & 1 else reversible + 1
            if after >= 4 or (no_progress is not None and after >= no_progress):
                continue
            if pieces - len(move[3]) <= probed:
                continue
            entry = self.table.probe(self._child_key(key, pos, move))
            if entry is None or entry[3] == _LOWER:
                continue
            if entry[1] < (depth if extend and move[5] else depth - 1):
                continue
            e_score, child = entry[2], ply + 1
            score = -(
                e_score - child if e_score > WON else e_score + child if e_score < -WON else e_score
            )
            if score >= beta:
                return score
        return None

    def _probcut(
        self, pos: Position, key: int, depth: int, beta: int, ply: int, reversible: int
    ) -> bool:
        """Whether a null-window node may be cut without its full search:
        a search of half the depth shows the position :attr:`probcut`
        better than ``beta`` (ProbCut, in the simple form that Scan and
        Moby Dam use: a margin instead of a fitted regression). Only past
        the level's full-width depth (a line with reductions left), never
        at the root, and not while most men are still on the board."""
        if abs(beta) >= _PROBCUT_SCORES:
            return False
        if (pos[1] | pos[2] | pos[3] | pos[4]).bit_count() >= self.probcut_pieces:
            return False
        bound = beta + self.probcut
        return self.search(pos, key, depth // 2, bound - 1, bound, ply, reversible) >= bound

    def _order(self, moves: list[RawMove], color: int, ply: int, tt_move: RawMove | None) -> None:
        """Sort ``moves`` best first: the table's move, then captures taking
        most, or for steps the killers and then the history scores."""
        if moves[0][2]:
            moves.sort(key=_taken)
        else:
            history, killers = self.history, self.killers[ply]
            first, second = killers
            base = color << 20

            def rank(move: RawMove) -> int:
                code = base | move[0] << 10 | move[1]
                if code == first:
                    return -(1 << 40)
                if code == second:
                    return -(1 << 39)
                return -history.get(code, 0) - (1 << 30) * move[5]

            moves.sort(key=rank)
        if tt_move is not None and tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)

    def _reward(self, move: RawMove, color: int, ply: int, depth: int) -> None:
        """A quiet move refuted the position: a killer of its ply, and its
        history score grows with the depth of the refutation."""
        code = color << 20 | move[0] << 10 | move[1]
        self.history[code] = self.history.get(code, 0) + depth * depth
        killers = self.killers[ply]
        if killers[0] != code:
            killers[1] = killers[0]
            killers[0] = code

    def _quiesce(self, pos: Position, alpha: int, beta: int, ply: int) -> int:
        """Resolve pending captures: captures are compulsory, so a position
        with one is not quiet and its static score would be a lie."""
        if self.breakthrough and pos[3] | pos[4]:
            return self._crowned(pos, ply)
        moves = _captures(self.t, pos)
        if not moves:
            if not _can_step(self.t, pos):  # no pieces, or all blocked
                return self.sign * (ply - WIN)
            if self.threat_extensions and _threatened(self.t, pos):
                return self._answer_threat(pos, alpha, beta, ply)
            return self.sign * self._static(pos)
        if len(moves) > 1:
            moves.sort(key=_taken)
        return self._best_reply(pos, moves, alpha, beta, ply)

    def _answer_threat(self, pos: Position, alpha: int, beta: int, ply: int) -> int:
        """A quiet position where the opponent threatens to capture: its
        static score would ignore the threat, so every step is tried (once
        per line) and the capture that follows is played out."""
        self.threat_extensions -= 1
        best = self._best_reply(pos, legal(self.t, pos), alpha, beta, ply)
        self.threat_extensions += 1
        return best

    def _best_reply(
        self, pos: Position, moves: list[RawMove], alpha: int, beta: int, ply: int
    ) -> int:
        """The best of ``moves`` with each answer played out in quiescence
        (alpha-beta: the first score at or above ``beta`` ends the loop)."""
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

    def _static(self, pos: Position) -> int:
        """The evaluation for the side to move, with the variant's drawn
        endings applied; kept by position, since the same leaves come back
        through different move orders (about a third of the calls in the
        middle game); by the side to move too, which a few features count."""
        turn, m0, m1, k0, k1 = pos
        white = self.evaluations.get(pos)
        if white is None:
            white = self.e.score(turn, m0, m1, k0, k1)
            white = white if turn == 0 else -white
            if (m0 | m1 | k0 | k1).bit_count() <= _SMALL_MATERIAL:
                material = (k0.bit_count(), m0.bit_count(), k1.bit_count(), m1.bit_count())
                divisor = self.draws.endings.get(material)
                if divisor is not None:
                    white = white // divisor if divisor else 0
            if len(self.evaluations) >= _EVALUATIONS:
                self.evaluations.clear()
            self.evaluations[pos] = white
        return white if turn == 0 else -white

    def _crowned(self, pos: Position, ply: int) -> int:
        """Breakthrough: the first king wins (the side that just moved made
        it, unless the search started from a position with a king)."""
        return ply - WIN if (pos[4] if pos[0] == 0 else pos[3]) else WIN - ply

    def principal_variation(self, pos: Position, length: int) -> list[RawMove]:
        """The best line stored in the transposition table, from ``pos``."""
        line: list[RawMove] = []
        key = self.key_of(pos)
        seen = set()
        while len(line) < length and key not in seen:
            seen.add(key)
            move = self._table_move(pos, key)
            if move is None:
                break
            line.append(move)
            key = self._child_key(key, pos, move)
            pos = play(pos, move)
        return line

    def _table_move(self, pos: Position, key: int) -> RawMove | None:
        """The table's best move for ``pos`` (whose key is ``key``), if it
        is one of its legal moves."""
        entry = self.table.probe(key)
        if entry is None or entry[4] is None or entry[4] not in legal(self.t, pos):
            return None
        return entry[4]

    def iterate(
        self,
        pos: Position,
        max_depth: int,
        guard_depth: int = 1,
        report: Callable[[int, int, list[RawMove]], None] | None = None,
        reversible: int = 0,
        full_width: int | None = None,
        soft_deadline: float | None = None,
    ) -> tuple[int, int, list[RawMove]]:
        """Iterative deepening from depth 1 to ``max_depth``: returns the
        depth, score and principal variation of the deepest complete
        iteration (or, when time runs out in the middle of one, its best root
        move if that beat the previous best). Limits are not enforced until
        ``guard_depth`` is complete.

        ``pos`` must have a legal move; ``reversible`` plies of the game were
        played since its last man move or capture.

        Iterations up to ``full_width`` plies (``guard_depth`` if None) search
        every move to the full depth. Deeper iterations search late quiet
        moves one ply shallower first (late move reductions), but at most
        ``depth - full_width`` times in a line: every line still gets at
        least ``full_width`` plies, so nothing that the full-width search
        would see within them is missed.

        Past ``guard_depth``, no depth starts once the :func:`time.monotonic`
        instant ``soft_deadline`` is past (a clock's time is better kept
        for later moves than spent on a depth that will not be complete).
        """
        result: tuple[int, int, list[RawMove]] | None = None
        key = self.key_of(pos)
        # One entry per ply of the search (forced moves may add plies).
        plies = max_depth + _MAX_EXTENDED_PLY + 2
        self.line += [0] * (self.base + plies - len(self.line))
        self.killers += [[0, 0] for _ in range(plies - len(self.killers))]
        for depth in range(1, max_depth + 1):
            if self.stopped and result is not None:
                break
            late = soft_deadline is not None and time.monotonic() >= soft_deadline
            if depth > guard_depth and late:
                break  # the next depth would most likely not be complete in time
            self.enforce = depth > guard_depth
            self.interruptible = depth > 1
            self.reductions = max(0, depth - (guard_depth if full_width is None else full_width))
            try:
                score = self._iteration(pos, key, depth, reversible, result)
            except LimitReached:
                if result is not None and self.partial is not None:
                    score, move = self.partial
                    rest = self.principal_variation(play(pos, move), depth + 8)
                    result = (result[0], score, [move, *rest])
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

    def _iteration(
        self,
        pos: Position,
        key: int,
        depth: int,
        reversible: int,
        previous: tuple[int, int, list[RawMove]] | None,
    ) -> int:
        """The root's score at ``depth``. From :data:`ASPIRATION_DEPTH` on,
        the search first looks in a window of :data:`ASPIRATION` around the
        previous depth's score (aspiration), and widens the side it fails
        on, four times as wide each time, until the score is inside.
        :attr:`partial` is kept only where it beat the window's lower end:
        a move that only looked better than a failing first move proves
        nothing."""
        alpha, beta = -WIN - 1, WIN + 1
        width = ASPIRATION
        if previous is not None and depth >= ASPIRATION_DEPTH and width and abs(previous[1]) < WON:
            alpha, beta = previous[1] - width, previous[1] + width
        failed_high: tuple[int, RawMove] | None = None
        while True:
            self.threat_extensions = self.threat_budget
            self.partial = None
            try:
                score = self.search(pos, key, depth, alpha, beta, 0, reversible)
            except LimitReached:
                if self.partial is not None and self.partial[0] <= alpha:
                    self.partial = None
                # A move that failed high beat the previous depth's best.
                self.partial = self.partial or failed_high
                raise
            if alpha < score < beta:
                return score
            width *= 4
            decisive = abs(score) > KNOWN_WIN - 1000  # beyond any evaluation: open up
            if score <= alpha:
                alpha = -WIN - 1 if decisive else max(-WIN - 1, score - width)
            else:
                beta = WIN + 1 if decisive else min(WIN + 1, score + width)
                move = self._table_move(pos, key)
                failed_high = None if move is None else (score, move)
