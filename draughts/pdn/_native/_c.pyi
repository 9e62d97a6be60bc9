"""Types of the PDN reader's C module (see ``module.c``); the functions are
declared with their parameters in :class:`draughts.pdn._native.NativePdn`."""

from collections.abc import Callable
from typing import Any

from draughts.board import Board
from draughts.move import Move

class NodeMaker:
    """Makes game-tree nodes (see node_maker.c)."""

    def __init__(
        self, cls: type[Any], parent: str, move: str, children: str, defaults: dict[str, object]
    ) -> None: ...
    def __call__(self, parent: Any, move: Any) -> Any: ...
    def grow(self, parent: Any, moves: tuple[Any, ...], /) -> Any: ...

def plain_line_end(text: str, /) -> int: ...
def tag_line(text: str, /) -> tuple[str, str, int] | None: ...
def play_line(
    board: Board,
    text: str,
    end: int,
    numbers: tuple[int | None, ...],
    visit: Callable[[Any, Move], object] | list[Move],
    /,
) -> tuple[int, int]: ...
def play_lines(
    board: Board,
    text: str,
    end: int,
    numbers: tuple[int | None, ...],
    visit: Callable[[Any, Move], object] | list[Move],
    readline: Callable[[], str],
    /,
) -> tuple[int, str, int, int]: ...
def count_controls(data: bytes, /) -> int: ...
def split_games(
    data: bytes, pos: int, line: int, column: int, skip: int, final: bool, base: int, /
) -> tuple[list[int], int, int]: ...
def check_each(
    setups: tuple[tuple[Any, list[int], list[int], int, bytes, bool], ...],
    text: str,
    start: int,
    limit: int,
    /,
) -> tuple[tuple[int, int, int, int, int], ...]: ...
def play_final(
    setup: tuple[Any, list[int], list[int], int, bytes, bool],
    text: str,
    start: int,
    names: tuple[str, ...] | None,
    separator: str,
    /,
) -> tuple[
    int,
    int,
    int,
    int,
    int,
    list[int] | None,
    list[int] | None,
    int,
    tuple[tuple[str, ...], tuple[int, ...]] | None,
]: ...
def record_tags(text: str, /) -> tuple[int, str | None, str | None, str | None] | None: ...
def infer_each(
    text: str, start: int, starters: dict[Any, Any], final: int, /
) -> tuple[int, int, int, int, int, int, Any, tuple[tuple[Any, ...], ...] | None] | None: ...
