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
