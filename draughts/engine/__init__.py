"""Engines: the built-in searcher and external programs, behind one interface.

Every engine answers :meth:`Engine.play` (a move to play) and
:meth:`Engine.analyse` (score, depth and principal variation) for a
:class:`~draughts.Board`, within a :class:`Limit`:

>>> import draughts, draughts.engine
>>> board = draughts.Board(variant="english")
>>> with draughts.engine.builtin("hard") as engine:
...     result = engine.play(board, draughts.engine.Limit(depth=6))
>>> result.move in board.legal_moves
True

:func:`builtin` makes the built-in engine (three levels, any variant);
:meth:`HubEngine.popen` starts an external engine that speaks the Hub protocol
of Scan 3.x; :meth:`DxpEngine.connect` and :meth:`DxpEngine.listen` play a
program over DXP, the DamExchange protocol. :func:`match` plays two engines
against each other and scores them. :class:`Book` is an opening book
(:func:`default_book` the one that comes with the library) and
:class:`Bitbases` endgame bitbases; :func:`probe` says whether a position
with few pieces is won, drawn or lost.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what mypy sees; at run time __getattr__ imports them
    from draughts.engine.base import (
        Analysis,
        Engine,
        EngineError,
        EngineProtocolError,
        EngineTerminatedError,
        Limit,
        PlayResult,
        Score,
    )
    from draughts.engine.book import Book, BookEntry, BookError, default_book
    from draughts.engine.builtin import BuiltinEngine, Level, builtin
    from draughts.engine.dxp import DxpEngine, DxpGameEnded
    from draughts.engine.egtb import BitbaseError, Bitbases, Wdl, probe
    from draughts.engine.hub import HubEngine
    from draughts.engine.matches import MatchResult, MatchScore, TimeControl, match

# Each public name's module. The package imports none of them until a name
# is asked for (PEP 562): loading them all took the opening book, the PDN
# reader, DXP and the match runner into every ``python -m draughts hub`` and
# every import of draughts.engine.hub.
_HOMES = {
    "base": (
        "Analysis",
        "Engine",
        "EngineError",
        "EngineProtocolError",
        "EngineTerminatedError",
        "Limit",
        "PlayResult",
        "Score",
    ),
    "book": ("Book", "BookEntry", "BookError", "default_book"),
    "builtin": ("BuiltinEngine", "Level", "builtin"),
    "dxp": ("DxpEngine", "DxpGameEnded"),
    "egtb": ("BitbaseError", "Bitbases", "Wdl", "probe"),
    "hub": ("HubEngine",),
    "matches": ("MatchResult", "MatchScore", "TimeControl", "match"),
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}

# Written out for mypy and linters, which do not run code (a test holds it
# equal to the names of _HOMES).
__all__ = [
    "Analysis",
    "BitbaseError",
    "Bitbases",
    "Book",
    "BookEntry",
    "BookError",
    "BuiltinEngine",
    "DxpEngine",
    "DxpGameEnded",
    "Engine",
    "EngineError",
    "EngineProtocolError",
    "EngineTerminatedError",
    "HubEngine",
    "Level",
    "Limit",
    "MatchResult",
    "MatchScore",
    "PlayResult",
    "Score",
    "TimeControl",
    "Wdl",
    "builtin",
    "default_book",
    "match",
    "probe",
]


def __getattr__(name: str) -> object:
    """A public name, imported from its module the first time it is asked
    for; or a submodule, as the package's attributes always gave them."""
    if name in _HOME:
        value: object = getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
        globals()[name] = value
        return value
    if not name.startswith("__"):
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _Package(types.ModuleType):
    """The package's module type: ``draughts.engine.builtin`` stays the
    function :func:`builtin`, not its submodule of the same name, which the
    import system binds on the package once it is loaded."""

    def __setattr__(self, name: str, value: object) -> None:
        if name == "builtin" and isinstance(value, types.ModuleType):
            value = value.builtin
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
