"""Types of the C extension (see ``module.c``): the functions of
:mod:`draughts._core.pure` with the same arguments, and the tables type."""

from collections.abc import Callable
from typing import Any

from draughts._core.pure.tables import Tables
from draughts._core.raw import RawMove
from draughts.move import Move

MAX_SQUARES: int
UNDO_FIELDS: tuple[str, ...]

class BoardState:
    """The state of a draughts.Board (see draughts._core.pure.board_state)
    with push and pop in C."""

    _ctx: Any
    _men: list[int]
    _kings: list[int]
    _turn: int
    _key: int | None
    _stack: list[Any]
    move_stack: list[Move]
    _quiet_from: int
    _starts: tuple[int | None, ...]
    _kmoves: tuple[int, int, int, int]
    _legal: list[Move] | None
    def push(self, move: Move, /) -> None: ...
    def pop(self, /) -> Move: ...

class Core:
    @property
    def native_ready(self) -> bool: ...
    # Typed object: _table_data builds them and the C checks each one.
    def _load(
        self,
        n: object,
        pad_size: object,
        squares: object,
        numbers: object,
        rays: object,
        dirs: object,
        promotion: object,
        switches: object,
        rules: object,
        man_value: object,
        king_value: object,
        key_men: object,
        key_kings: object,
        key_black: object,
        step_moves: object,
        move_type: object,
        raw_type: object,
        captures_kept: object,
        /,
    ) -> None: ...

def legal_moves(
    t: Tables,
    color: int,
    own_men: int,
    own_kings: int,
    opp_men: int,
    opp_kings: int,
    frozen_kings: int = 0,
    keep_duplicates: bool = False,
) -> list[RawMove]: ...
def captures(
    t: Tables,
    color: int,
    own_men: int,
    own_kings: int,
    opp_men: int,
    opp_kings: int,
    keep_duplicates: bool = False,
) -> list[RawMove]: ...
def board_moves(
    t: Tables,
    color: int,
    own_men: int,
    own_kings: int,
    opp_men: int,
    opp_kings: int,
    frozen_kings: int = 0,
) -> list[Move]: ...
def steps(
    t: Tables, color: int, men: int, kings: int, occupied: int, frozen_kings: int = 0
) -> list[RawMove]: ...
def has_step(t: Tables, color: int, men: int, kings: int, occupied: int) -> bool: ...
def find_step(
    t: Tables,
    color: int,
    men: int,
    kings: int,
    occupied: int,
    origin: int,
    destination: int,
    frozen_kings: int = 0,
) -> RawMove | None: ...
def moves_between(
    t: Tables,
    color: int,
    own_men: int,
    own_kings: int,
    opp_men: int,
    opp_kings: int,
    origin: int,
    destination: int,
    frozen_kings: int = 0,
) -> list[Move]: ...
def perft(
    t: Tables,
    depth: int,
    c: int,
    m0: int,
    m1: int,
    k0: int,
    k1: int,
    keep_duplicates: bool = False,
    bulk: bool = True,
) -> int: ...
def apply_keyed(
    t: Tables, move: RawMove, color: int, m0: int, m1: int, k0: int, k1: int, key: int
) -> tuple[int, int, int, int, int]: ...
def undo_keyed(
    t: Tables,
    move: RawMove,
    color: int,
    m0: int,
    m1: int,
    k0: int,
    k1: int,
    captured_kings: int,
    key: int,
) -> tuple[int, int, int, int, int]: ...
def position_key(t: Tables, color: int, m0: int, m1: int, k0: int, k1: int) -> int: ...
def any_capture(
    t: Tables, color: int, own_men: int, own_kings: int, opp_men: int, opp_kings: int
) -> bool: ...
def set_pure(functions: dict[str, Callable[..., object]], /) -> None: ...
