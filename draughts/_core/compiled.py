"""The interface of a compiled search: what :func:`draughts._core.compiled_search`
returns where the backend has one.

The built-in engine's search is defined in Python
(:class:`draughts.engine.search.Searcher`); the native backend also has it in
C, node for node the same, and runs it when ``compiled_search`` gives an
object. The pure backend has none: its ``compiled_search`` always answers
None and the Python search runs.

>>> import draughts
>>> from draughts._context import context
>>> t = context(draughts.variant.ENGLISH).core
>>> no_compiled_search(t, (), None, {}, 1, False, []) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from draughts._core.raw import RawMove

Pos = tuple[int, int, int, int, int]
Limits = tuple[bool, int, int, int, int | None, float | None, int]
"""``(enforce, reductions, threat_extensions, nodes, max_nodes, deadline,
table_entries)``."""


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
        :meth:`draughts.engine.search.Searcher.stop`); callable while it runs."""


def no_compiled_search(
    t: object,
    evaluation: tuple[object, ...],
    no_progress: int | None,
    endings: dict[tuple[int, int, int, int], int],
    sign: int,
    breakthrough: bool,
    game_keys: list[int],
) -> CompiledSearch | None:
    """The pure backend's ``compiled_search`` (the parameters of
    :class:`draughts._core.contract.Backend`'s): there is none."""
    return None
