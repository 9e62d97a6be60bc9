"""The backend contract of :mod:`draughts._core`, declared once.

:class:`Backend` lists what every backend (the pure generator,
:mod:`draughts._core.pure`, and the C one, :mod:`draughts._core.native`)
offers, with each function's parameters: names, order, kinds and defaults.
Nothing else writes the list down (the PDN reader's native functions are
declared by their own module, :class:`draughts.pdn._native.NativePdn`):

- mypy checks the two backend modules against :class:`Backend` (see the
  ``TYPE_CHECKING`` block of :mod:`draughts._core`);
- :data:`FUNCTION_NAMES` is what :data:`draughts._core.pure.FUNCTIONS` is
  built from (the table the native core falls back on for boards it does
  not hold);
- :func:`violations` compares any backend object with the contract at
  run time; the tests run it on both backends and on :mod:`draughts._core`,
  so that a native function whose ``__text_signature__`` (the C docstring's
  first line) differs from the pure one's parameters fails a test.

>>> from draughts._core import pure
>>> violations(pure)
[]
>>> "perft" in FUNCTION_NAMES
True
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from draughts._core.pure.tables import Tables as PureTables
    from draughts._core.raw import RawMove
    from draughts.move import Move

Keyed = tuple[int, int, int, int, int]
"""White men, black men, white kings, black kings and the Zobrist key."""


class Backend(Protocol):
    """What a backend module offers (``self`` aside, each method is a
    module-level function of the backend). The parameters of each are the
    contract: the tests hold both backends to them name by name."""

    @property
    def Tables(self) -> type[PureTables]:
        """The per-variant object every function takes first."""

    @property
    def BoardState(self) -> type:
        """The base class of :class:`draughts.Board` (its mutable state)."""

    def legal_moves(
        self,
        t: PureTables,
        color: int,
        own_men: int,
        own_kings: int,
        opp_men: int,
        opp_kings: int,
        frozen_kings: int = 0,
        keep_duplicates: bool = False,
    ) -> list[RawMove]:
        """Every legal move of ``color``."""

    def captures(
        self,
        t: PureTables,
        color: int,
        own_men: int,
        own_kings: int,
        opp_men: int,
        opp_kings: int,
        keep_duplicates: bool = False,
    ) -> list[RawMove]:
        """The capture routes the rules allow."""

    def board_moves(
        self,
        t: PureTables,
        color: int,
        own_men: int,
        own_kings: int,
        opp_men: int,
        opp_kings: int,
        frozen_kings: int = 0,
    ) -> list[Move]:
        """The legal moves as :class:`draughts.Move` objects in square order."""

    def steps(
        self, t: PureTables, color: int, men: int, kings: int, occupied: int, frozen_kings: int = 0
    ) -> list[RawMove]:
        """The non-capturing moves."""

    def has_step(self, t: PureTables, color: int, men: int, kings: int, occupied: int) -> bool:
        """Whether ``color`` has a non-capturing move."""

    def find_step(
        self,
        t: PureTables,
        color: int,
        men: int,
        kings: int,
        occupied: int,
        origin: int,
        destination: int,
        frozen_kings: int = 0,
    ) -> RawMove | None:
        """The step from ``origin`` to ``destination``, or None."""

    def moves_between(
        self,
        t: PureTables,
        color: int,
        own_men: int,
        own_kings: int,
        opp_men: int,
        opp_kings: int,
        origin: int,
        destination: int,
        frozen_kings: int = 0,
    ) -> list[Move]:
        """The legal moves between two squares."""

    def perft(
        self,
        t: PureTables,
        depth: int,
        c: int,
        m0: int,
        m1: int,
        k0: int,
        k1: int,
        keep_duplicates: bool = False,
        bulk: bool = True,
    ) -> int:
        """The number of move paths of ``depth`` moves."""

    def apply_keyed(
        self, t: PureTables, move: RawMove, color: int, m0: int, m1: int, k0: int, k1: int, key: int
    ) -> Keyed:
        """The bitboards and key after ``move``."""

    def undo_keyed(
        self,
        t: PureTables,
        move: RawMove,
        color: int,
        m0: int,
        m1: int,
        k0: int,
        k1: int,
        captured_kings: int,
        key: int,
    ) -> Keyed:
        """The bitboards and key before ``move``."""

    def position_key(self, t: PureTables, color: int, m0: int, m1: int, k0: int, k1: int) -> int:
        """The Zobrist key of a position."""


def _members(protocol: type) -> dict[str, inspect.Signature | None]:
    """The protocol's members: a function's signature without ``self``, or
    None for a class the backend exports."""
    members: dict[str, inspect.Signature | None] = {}
    for name, value in vars(protocol).items():
        if isinstance(value, property):
            members[name] = None
        elif inspect.isfunction(value) and not name.startswith("_"):
            signature = inspect.signature(value)
            members[name] = signature.replace(parameters=list(signature.parameters.values())[1:])
    return members


CONTRACT = _members(Backend)
"""Every member of :class:`Backend` by name (None for the classes)."""
FUNCTION_NAMES = tuple(name for name, signature in CONTRACT.items() if signature is not None)
"""The functions of :class:`Backend`, in the order declared."""


def _shape(signature: inspect.Signature) -> list[tuple[str, str, object]]:
    """What the contract fixes of a signature: each parameter's name, kind
    and default (annotations are mypy's to check; a C function has none)."""
    return [(p.name, p.kind.name, p.default) for p in signature.parameters.values()]


def violations(backend: object) -> list[str]:
    """How ``backend`` (a module or any object with the functions as
    attributes) breaks the contract: one line per member missing, not
    callable or with other parameters. An empty list where it keeps it.

    >>> import types
    >>> fake = types.SimpleNamespace(perft=lambda t, depth: 0)
    >>> [line for line in violations(fake) if "perft" in line]
    ['perft: 2 parameters where the contract has 9']
    """
    return _check(backend, CONTRACT)


def protocol_violations(obj: object, protocol: type) -> list[str]:
    """How ``obj`` breaks any other protocol's methods, as :func:`violations`
    reports them: the tests hold the native search object to
    :class:`draughts.engine._native.CompiledSearch` this way.

    >>> class Stops(Protocol):
    ...     def stop(self) -> None: ...
    >>> protocol_violations(object(), Stops)
    ['stop: missing']
    """
    return _check(obj, _members(protocol))


def _check(obj: object, wanted: dict[str, inspect.Signature | None]) -> list[str]:
    problems = []
    for name, signature in wanted.items():
        value = getattr(obj, name, None)
        if value is None:
            problems.append(f"{name}: missing")
        elif signature is None:
            if not isinstance(value, type):
                problems.append(f"{name}: not a class")
        elif not callable(value):
            problems.append(f"{name}: not callable")
        else:
            problems.extend(_compare(name, value, signature))
    return problems


def _compare(name: str, value: Callable[..., object], wanted: inspect.Signature) -> list[str]:
    try:
        found = inspect.signature(value)
    except (TypeError, ValueError):  # a C function without __text_signature__
        return [f"{name}: no signature to read (a C function needs a text signature)"]
    have, want = _shape(found), _shape(wanted)
    if have == want:
        return []
    at = next((i for i, (a, b) in enumerate(zip(have, want, strict=False)) if a != b), None)
    if at is None:  # one is the other with parameters added at the end
        return [f"{name}: {len(have)} parameters where the contract has {len(want)}"]
    return [
        f"{name}: parameter {at + 1} is {_text(found, at)} where the contract has "
        f"{_text(wanted, at)}"
    ]


def _text(signature: inspect.Signature, at: int) -> str:
    parameter = list(signature.parameters.values())[at]
    bare = parameter.replace(annotation=inspect.Parameter.empty)
    return f"{str(bare)!r} ({parameter.kind.description})"
