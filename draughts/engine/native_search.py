"""The C-backed search of the built-in engine and the factory that picks it.

:class:`NativeSearcher` runs :meth:`Searcher.search` in C
(:mod:`draughts.engine._native`, ``search.c``), node for node the tree of
the pure :class:`~draughts.engine.search.Searcher`, its oracle in the
tests; :func:`searcher` gives one where the core has the search compiled,
else the pure one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from draughts._core import RawMove, Tables, zobrist
from draughts._core.zobrist import Keys
from draughts.engine import _native
from draughts.engine import search as _search
from draughts.engine._native import CompiledSearch, Limits
from draughts.engine._raw import Position, legal
from draughts.engine._table import table_size
from draughts.engine.draw_table import _draw_table
from draughts.engine.search import LimitReached, Searcher
from draughts.outcome import Goal

if TYPE_CHECKING:
    from draughts.engine.egtb import Probe


class NativeSearcher(Searcher):
    """A :class:`Searcher` whose :meth:`search` runs in C (the GIL released):
    the same tree node for node, so the same scores, principal variations
    and node counts. :meth:`iterate`, the limits and the principal
    variation stay those of :class:`Searcher`; the transposition table,
    killers and history live in ``compiled`` (see :func:`searcher`, which
    makes one where the core has a compiled search).

    With :attr:`~Searcher.threads` above 1, :meth:`iterate` runs
    ``threads - 1`` helper threads in C beside it (Lazy SMP: each deepens
    on the same root by itself, the first a ply ahead, all sharing the
    transposition table, so that the main search finds more of its tree
    there; see ``search_smp.c``). The main search's result is the one
    returned; the tree it searches then depends on the helpers' timing, so
    only one thread is the Python search's twin. :attr:`nodes` counts every
    thread's nodes, and so does ``max_nodes``.

    >>> import draughts
    >>> from draughts._context import context
    >>> from draughts.engine.search import raw_position
    >>> ctx = context(draughts.variant.INTERNATIONAL)
    >>> s = searcher(ctx.core, ctx.keys)
    >>> s.threads = 2
    >>> board = draughts.Board(variant="international")
    >>> depth, score, pv = s.iterate(raw_position(board, ctx.core), 5)
    >>> depth, ctx.core.moves.move(pv[0]) in board.legal_moves
    (5, True)
    """

    def __init__(
        self,
        t: Tables,
        keys: Keys,
        compiled: CompiledSearch,
        *,
        deadline: float | None = None,
        max_nodes: int | None = None,
        game_keys: Sequence[int] = (),
    ) -> None:
        self._own_nodes = 0
        super().__init__(t, keys, deadline=deadline, max_nodes=max_nodes, game_keys=game_keys)
        self.compiled = compiled

    @property
    def nodes(self) -> int:
        """The nodes searched since the searcher was made or renewed, by
        every thread (the helpers' counted a thousand at a time while they
        run, exactly once they stopped)."""
        compiled = getattr(self, "compiled", None)  # set after Searcher.__init__
        return self._own_nodes + (compiled.helper_nodes() if compiled is not None else 0)

    @nodes.setter
    def nodes(self, nodes: int) -> None:
        # Searcher sets the count of its own (main) search only: to 0.
        self._own_nodes = nodes

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
        """:meth:`Searcher.iterate`, with :attr:`~Searcher.threads` ``- 1``
        helper threads searching beside it until it returns."""
        helpers = min(self.threads, _native.MAX_THREADS) - 1
        if helpers > 0:
            width = guard_depth if full_width is None else full_width
            # The helpers' threat answers per line, as each iteration sets them.
            self.threat_extensions = self.threat_budget
            self.compiled.start_helpers(
                pos,
                self.key_of(pos),
                reversible,
                self._root_indices(pos),
                self._limits(),
                max_depth,
                width,
                helpers,
            )
        try:
            return super().iterate(
                pos, max_depth, guard_depth, report, reversible, full_width, soft_deadline
            )
        finally:
            if helpers > 0:
                self.compiled.stop_helpers()

    def search(
        self, pos: Position, key: int, depth: int, alpha: int, beta: int, ply: int, reversible: int
    ) -> int:
        root = self._root_indices(pos) if ply == 0 else None
        score, self._own_nodes, partial = self.compiled.run(
            pos, key, depth, alpha, beta, ply, reversible, root, self._limits()
        )
        if partial is not None:
            self.partial = partial
        if score is None:
            raise LimitReached
        return score

    def _root_indices(self, pos: Position) -> list[int] | None:
        """:attr:`root` as the indices of its moves among ``pos``'s legal ones."""
        if self.root is None:
            return None
        index = {move: i for i, move in enumerate(legal(self.t, pos))}
        if any(move not in index for move in self.root):
            raise ValueError("Searcher.root has a move that is not legal in the position")
        return [index[move] for move in self.root]

    def _limits(self) -> Limits:
        """The settings and counters of a call, as ``compiled`` takes them."""
        return (
            self.enforce,
            self.reductions,
            self.threat_extensions,
            self._own_nodes,
            self.max_nodes,
            self.deadline,
            self.table_entries,
            self.probcut,
            self.late_deep,
            self.late_depth,
            self.late_pv,
            self.late_sacrifice,
            self.etc_depth,
            self.late_root,
        )

    def _table_move(self, pos: Position, key: int) -> RawMove | None:
        return self.compiled.table_move(pos, key)

    @property
    def table_entries(self) -> int:
        return self._entries

    @table_entries.setter
    def table_entries(self, entries: int) -> None:
        # The C table is sized at the next search (a size is passed with
        # every call): no Python list is kept.
        self._entries = table_size(entries)

    def clear_table(self) -> None:
        self.compiled.clear_table()

    def table_count(self) -> int:
        return self.compiled.table_count()

    def renew(
        self,
        *,
        deadline: float | None = None,
        max_nodes: int | None = None,
        game_keys: Sequence[int] = (),
    ) -> None:
        super().renew(deadline=deadline, max_nodes=max_nodes, game_keys=game_keys)
        self.compiled.renew(list(game_keys))

    def use_bitbases(self, probe: Probe | None) -> None:
        super().use_bitbases(probe)
        if probe is None:
            self.compiled.bitbases(0, [], {})
        else:
            self.compiled.bitbases(probe.pieces, probe.squares, probe.tables)

    def stop(self) -> None:
        super().stop()
        self.compiled.stop()


def searcher(
    t: Tables,
    keys: Keys,
    *,
    deadline: float | None = None,
    max_nodes: int | None = None,
    game_keys: Sequence[int] = (),
) -> Searcher:
    """A search for the board of ``t``: a :class:`NativeSearcher` where the
    core has the search compiled for it (the native backend, a board it
    holds, the variant's own keys), else the Python :class:`Searcher`;
    both answer alike. The arguments are those of :class:`Searcher`.

    >>> import draughts
    >>> from draughts._context import context
    >>> ctx = context(draughts.variant.ENGLISH)
    >>> s = searcher(ctx.core, ctx.keys)
    >>> isinstance(s, NativeSearcher) == (draughts.BACKEND == "native")
    True
    """
    compiled = None
    if keys is zobrist.keys(len(t.square_of_index)):
        goal = t.variant.goal
        draws = _draw_table(t.variant)
        compiled = _native.compiled_search(
            t,
            # Read at call time, where Searcher reads it: tests set it there.
            _search.evaluator(t).data(),
            draws.no_progress,
            draws.endings,
            -1 if goal is Goal.ANTIDRAUGHTS else 1,
            goal is Goal.BREAKTHROUGH,
            list(game_keys),
        )
    if compiled is None:
        return Searcher(t, keys, deadline=deadline, max_nodes=max_nodes, game_keys=game_keys)
    return NativeSearcher(
        t, keys, compiled, deadline=deadline, max_nodes=max_nodes, game_keys=game_keys
    )
