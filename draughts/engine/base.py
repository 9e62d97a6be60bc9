"""The engine interface: limits, results, errors and the :class:`Engine`
base class that every engine implements.

Users import these names from :mod:`draughts.engine`.
"""

from __future__ import annotations

import abc
from types import TracebackType

import attrs

from draughts.board import Board
from draughts.move import Move

__all__ = [
    "Analysis",
    "Engine",
    "EngineError",
    "EngineProtocolError",
    "EngineTerminatedError",
    "Limit",
    "PlayResult",
    "Score",
    "require_moves",
]


class EngineError(RuntimeError):
    """An engine failed to do what was asked.

    >>> issubclass(EngineTerminatedError, EngineError)
    True
    """


class EngineTerminatedError(EngineError):
    """The engine process ended (crashed, or was quit) while in use.

    >>> issubclass(EngineTerminatedError, RuntimeError)
    True
    """


class EngineProtocolError(EngineError):
    """The engine said something that cannot be understood, or proposed a
    move that is not legal in the position it was given.

    >>> str(EngineProtocolError("engine sent 'move from=99'"))
    "engine sent 'move from=99'"
    """


@attrs.frozen
class Limit:
    """When an engine must stop searching. Unset fields do not limit; an
    engine given no limit at all uses its own default.

    >>> Limit(time=0.5, depth=8)
    Limit(time=0.5, depth=8, nodes=None, remaining=None, increment=None)

    Under a clock, give ``remaining`` (seconds left on the clock of the side
    to move) and ``increment`` (seconds added after each move): the engine
    shares the time out itself.

    >>> Limit(remaining=60, increment=1).time is None
    True

    :raises ValueError: for a negative or zero limit.
    """

    time: float | None = None
    """Seconds for the move."""
    depth: int | None = None
    """Plies to search (nominal depth; captures are always searched to the end)."""
    nodes: int | None = None
    """Positions to visit."""
    remaining: float | None = None
    """Seconds left on the clock of the side to move."""
    increment: float | None = None
    """Seconds the clock gains after each move (0 or more)."""

    def __attrs_post_init__(self) -> None:
        for name in ("time", "depth", "nodes", "remaining"):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise ValueError(f"Limit {name} must be positive, not {value!r}")
        if self.increment is not None and not self.increment >= 0:
            raise ValueError(f"Limit increment must be 0 or more, not {self.increment!r}")


@attrs.frozen
class Score:
    """An evaluation from the point of view of the side to move.

    ``men`` is in men: ``+1.0`` is about a man ahead. When the engine has
    seen the end of the game, ``plies`` says in how many plies it ends:
    positive if the side to move wins, negative if it loses (and ``men`` is
    ``+inf`` or ``-inf``).

    >>> import math
    >>> str(Score(1.25)), str(Score(math.inf, plies=3))
    ('+1.25', 'win in 3')
    """

    men: float
    """The evaluation in men."""
    plies: int | None = None
    """Plies until a forced end of the game, signed as described above."""

    @property
    def is_win(self) -> bool:
        """Whether the side to move has a forced win."""
        return self.plies is not None and self.plies > 0

    @property
    def is_loss(self) -> bool:
        """Whether the side to move is lost by force."""
        return self.plies is not None and self.plies < 0

    def __str__(self) -> str:
        if self.plies is not None:
            return f"win in {self.plies}" if self.plies > 0 else f"loss in {-self.plies}"
        return f"{self.men:+.2f}"


@attrs.frozen
class Analysis:
    """What an engine found: score, depth and principal variation.

    >>> Analysis(Score(0.0), depth=6).pv
    ()
    """

    score: Score | None
    """The score of the position for the side to move, if reported."""
    depth: int | None = None
    """The nominal depth of the deepest complete search."""
    pv: tuple[Move, ...] = ()
    """The best line found, starting with the move to play; each move is a
    legal move of the position the previous ones lead to."""
    nodes: int | None = None
    """Positions visited."""
    time: float | None = None
    """Seconds spent."""


@attrs.frozen
class PlayResult:
    """The answer to :meth:`Engine.play`.

    >>> PlayResult(Move(11, 15)).move
    Move(11, 15)
    """

    move: Move
    """The move to play: a legal move of the board that was given."""
    ponder: Move | None = None
    """The reply the engine expects, if it said."""
    analysis: Analysis | None = None
    """What the engine reported while choosing. Its principal variation
    starts with the move the search found best, which is not :attr:`move`
    when the built-in engine's easy level plays one of its deliberate
    mistakes (then :attr:`ponder` is None)."""


class Engine(abc.ABC):
    """The interface every engine implements. Engines are context managers:
    leaving the ``with`` block calls :meth:`quit`.

    >>> import draughts, draughts.engine
    >>> with draughts.engine.builtin("medium") as engine:
    ...     engine.play(draughts.Board(variant="english")).move.from_square > 0
    True
    """

    @property
    @abc.abstractmethod
    def name(self) -> str:
        """A human name for the engine."""

    @abc.abstractmethod
    def play(self, board: Board, limit: Limit | None = None) -> PlayResult:
        """Choose a move for the side to move of ``board`` (which is left
        unchanged).

        :raises ValueError: if the side to move has no legal move.
        :raises EngineError: if the engine fails.
        """

    @abc.abstractmethod
    def analyse(self, board: Board, limit: Limit | None = None) -> Analysis:
        """Search ``board`` and report the score and the best line.

        :raises ValueError: if the side to move has no legal move.
        :raises EngineError: if the engine fails.
        """

    def quit(self) -> None:  # noqa: B027 - engines without resources keep this no-op
        """Release the engine (stop its process, if any)."""

    def __enter__(self) -> Engine:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.quit()


def require_moves(board: Board) -> None:
    """Check that the side to move of ``board`` has a move: every engine's
    :meth:`~Engine.play` and :meth:`~Engine.analyse` start with it.

    :raises ValueError: if it has none.
    """
    if not board.legal_moves:
        raise ValueError(
            f"the game is over: {board.turn.name.lower()} has no legal move in {board.fen()}"
        )
