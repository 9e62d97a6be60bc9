"""The C-backed search of the built-in engine and the factory that picks it.

:class:`NativeSearcher` runs :meth:`Searcher.search` in C
(:mod:`draughts.engine._native`, ``search.c``), node for node the tree of
the pure :class:`~draughts.engine.search.Searcher`, its oracle in the
tests; :func:`searcher` gives one where the core has the search compiled,
else the pure one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from draughts._core import RawMove, Tables, zobrist
from draughts._core.zobrist import Keys
from draughts.engine import _native
from draughts.engine import search as _search
from draughts.engine._native import CompiledSearch
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
    makes one where the core has a compiled search)."""

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
        super().__init__(t, keys, deadline=deadline, max_nodes=max_nodes, game_keys=game_keys)
        self.compiled = compiled

    def search(
        self, pos: Position, key: int, depth: int, alpha: int, beta: int, ply: int, reversible: int
    ) -> int:
        root = None
        if ply == 0 and self.root is not None:
            index = {move: i for i, move in enumerate(legal(self.t, pos))}
            if any(move not in index for move in self.root):
                raise ValueError("Searcher.root has a move that is not legal in the position")
            root = [index[move] for move in self.root]
        limits = (
            self.enforce,
            self.reductions,
            self.threat_extensions,
            self.nodes,
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
        score, self.nodes, partial = self.compiled.run(
            pos, key, depth, alpha, beta, ply, reversible, root, limits
        )
        if partial is not None:
            self.partial = partial
        if score is None:
            raise LimitReached
        return score

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
