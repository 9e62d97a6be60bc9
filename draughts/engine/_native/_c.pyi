"""Types of the built-in engine's C module (see ``module.c`` and
``search_module.c``); :class:`draughts.engine._native.CompiledSearch`
declares the methods, and the tests hold the C type's parameters to it."""

from collections.abc import Sequence

from draughts._core.native import _native
from draughts._core.raw import RawMove

MAX_THREADS: int

class Search:
    def __init__(
        self,
        core: _native.Core,
        evaluation: tuple[object, ...],
        no_progress: int | None,
        endings: dict[tuple[int, int, int, int], int],
        sign: int,
        breakthrough: bool,
        game_keys: Sequence[int],
        /,
    ) -> None: ...
    def bitbases(
        self,
        pieces: int,
        squares: Sequence[int],
        tables: dict[tuple[int, int, int, int], bytes],
        /,
    ) -> None: ...
    def run(
        self,
        pos: tuple[int, int, int, int, int],
        key: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        reversible: int,
        root: Sequence[int] | None,
        limits: tuple[
            bool, int, int, int, int | None, float | None, int, int, int, int, int, int, int, int
        ],
        /,
    ) -> tuple[int | None, int, tuple[int, RawMove] | None]: ...
    def renew(self, game_keys: list[int], /) -> None: ...
    def clear_table(self, /) -> None: ...
    def table_count(self, /) -> int: ...
    def table_move(self, pos: tuple[int, int, int, int, int], key: int, /) -> RawMove | None: ...
    def static(self, pos: tuple[int, int, int, int, int], /) -> int: ...
    def stop(self, /) -> None: ...
    def start_helpers(
        self,
        pos: tuple[int, int, int, int, int],
        key: int,
        reversible: int,
        root: Sequence[int] | None,
        limits: tuple[
            bool, int, int, int, int | None, float | None, int, int, int, int, int, int, int, int
        ],
        max_depth: int,
        full_width: int,
        count: int,
        /,
    ) -> int: ...
    def stop_helpers(self, /) -> None: ...
    def helper_nodes(self, /) -> int: ...
