"""The built-in engine's search in C: ``draughts.engine._native._c``, a C11
module of its own (the files beside this one), so that the native core,
:mod:`draughts._core.native`, is the move generator and the board state only.

The search is defined in Python (:class:`draughts.engine.search.Searcher`);
the C one visits the same tree node for node, and the Python one is its
oracle in the tests. :func:`compiled_search` gives a :class:`CompiledSearch`
for a board where the C search runs, else None and the Python search runs:
always None when :data:`draughts._core.BACKEND` is ``"pure"`` (the core not
built, or ``DRAUGHTS_PURE=1``) or when this module was not built. The module
reaches the move generator through the native core's C API (a capsule,
``draughts/_core/native/core_api.h``).

>>> import draughts
>>> from draughts import _core
>>> from draughts._context import context
>>> t = context(draughts.variant.ENGLISH).core
>>> from draughts.engine.evaluation import Evaluator
>>> search = compiled_search(t, Evaluator(t).data(), None, {}, 1, False, [])
>>> (search is None) == (_core.BACKEND == "pure")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from draughts import _core
from draughts._core.raw import RawMove

Pos = tuple[int, int, int, int, int]
Limits = tuple[
    bool, int, int, int, int | None, float | None, int, int, int, int, int, int, int, int
]
"""``(enforce, reductions, threat_extensions, nodes, max_nodes, deadline,
table_entries, probcut, late_deep, late_depth, late_pv, late_sacrifice,
etc_depth, late_root)``."""


class CompiledSearch(Protocol):
    """One search's tables (transposition table, killers, history) and the
    compiled search over them; see :meth:`draughts.engine.search.Searcher.search`
    for what the arguments mean. The arguments are positional only, as the C
    methods take them (a test compares their text signatures with these)."""

    def run(
        self,
        pos: Pos,
        key: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        reversible: int,
        root: Sequence[int] | None,
        limits: Limits,
        /,
    ) -> tuple[int | None, int, tuple[int, RawMove] | None]:
        """``(score, nodes, partial)``: the score (None when a limit ran
        out), the node count after the search, and the best root move found
        once it beat the first one. ``root`` lists the indices of the moves
        allowed at ply 0 among the legal ones (None: all of them)."""

    def renew(self, game_keys: list[int], /) -> None:
        """Ready for a search from the game's next position, keeping the
        table (:meth:`draughts.engine.search.Searcher.renew`)."""

    def clear_table(self) -> None:
        """Empty the table (:meth:`draughts.engine.search.Searcher.clear_table`)."""

    def table_count(self) -> int:
        """The table's entries in use (:meth:`draughts.engine.search.Searcher.table_count`)."""

    def table_move(self, pos: Pos, key: int, /) -> RawMove | None:
        """The transposition table's move for ``pos`` if it is legal there."""

    def static(self, pos: Pos, /) -> int:
        """White's static score of ``pos``, drawn endings applied."""

    def bitbases(
        self, pieces: int, squares: Sequence[int], tables: dict[tuple[int, int, int, int], bytes], /
    ) -> None:
        """Probe endgame bitbases at the nodes below the root with at most
        ``pieces`` pieces (0: none), as :class:`draughts.engine.egtb.Probe`
        does: ``squares`` are the raw bits of the bitbases' square numbers
        in order, ``tables`` the packed values of each material probed."""

    def stop(self) -> None:
        """End the :meth:`run` in progress in another thread at its next look
        at the clock, if its root depth is beyond 1 (as
        :meth:`draughts.engine.search.Searcher.stop`), and the helper threads;
        callable while it runs."""

    def start_helpers(
        self,
        pos: Pos,
        key: int,
        reversible: int,
        root: Sequence[int] | None,
        limits: Limits,
        max_depth: int,
        full_width: int,
        count: int,
        /,
    ) -> int:
        """Start ``count`` helper threads (Lazy SMP) that deepen on ``pos``
        from the depth of the :meth:`run` in progress (an odd helper a ply
        ahead) up to ``max_depth``, reducing beyond ``full_width`` plies,
        sharing this search's transposition table, until
        :meth:`stop_helpers`, their own deadline (``limits``'s) or
        :meth:`stop`; returns how many started (0 where the platform has no
        threads: :data:`MAX_THREADS` is 1 there). While they run,
        :meth:`run`'s node budget counts their nodes too, and
        :meth:`renew`, :meth:`clear_table` and :meth:`bitbases` refuse."""

    def stop_helpers(self) -> None:
        """Stop the helper threads and wait for them to end (none: nothing)."""

    def helper_nodes(self) -> int:
        """The nodes the helper threads searched since :meth:`renew`."""


_loaded: Any = None
if _core.BACKEND == "native":
    try:
        from draughts.engine._native import _c as _loaded
    except ImportError:  # not built, or built against another core
        _loaded = None

BUILT = _loaded is not None
"""Whether the engine's native module runs (with the native core)."""

MAX_THREADS: int = _loaded.MAX_THREADS if BUILT else 1
"""The most threads the native search runs on (1 where there are no
threads, or no native search)."""


def compiled_search(
    t: object,
    evaluation: tuple[object, ...],
    no_progress: int | None,
    endings: dict[tuple[int, int, int, int], int],
    sign: int,
    breakthrough: bool,
    game_keys: list[int],
) -> CompiledSearch | None:
    """The built-in engine's search in C for the board of ``t``, or None
    where it does not run (the module not built, the pure core, or a board
    the native core does not hold): the Python search runs there.
    ``evaluation`` is :meth:`draughts.engine.evaluation.Evaluator.data`;
    ``no_progress`` and ``endings`` are those of the search's
    :class:`~draughts.engine.draw_table.DrawTable`; ``sign`` is -1 in
    antidraughts; ``game_keys`` as for :class:`~draughts.engine.search.Searcher`.
    """
    if _loaded is None or not getattr(t, "native_ready", False):
        return None
    search: CompiledSearch = _loaded.Search(
        t, evaluation, no_progress, endings, sign, breakthrough, game_keys
    )
    return search


if TYPE_CHECKING:
    # mypy holds the C type to the protocol (the tests hold its parameters
    # to it at run time: tests/core/test_contract.py).
    from draughts.engine._native._c import Search as _Search

    _checked: type[CompiledSearch] = _Search

__all__ = ["BUILT", "MAX_THREADS", "CompiledSearch", "Limits", "Pos", "compiled_search"]
