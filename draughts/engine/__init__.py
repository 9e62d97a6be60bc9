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
of Scan 3.x.
"""

from __future__ import annotations

import abc
import math
import random
import time
from types import TracebackType
from typing import Literal

import attrs

from draughts.engine import hub as _hub
from draughts.engine import search as _search
from draughts._context import context
from draughts._core import RawMove, Tables
from draughts.board import Board
from draughts.move import Move
from draughts.piece import KING, MAN, Color

__all__ = [
    "Analysis",
    "BuiltinEngine",
    "Engine",
    "EngineError",
    "EngineProtocolError",
    "EngineTerminatedError",
    "HubEngine",
    "Level",
    "Limit",
    "PlayResult",
    "Score",
    "builtin",
]

Level = Literal["easy", "medium", "hard"]


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
    Limit(time=0.5, depth=8, nodes=None)

    :raises ValueError: for a negative or zero limit.
    """

    time: float | None = None
    """Seconds for the move."""
    depth: int | None = None
    """Plies to search (nominal depth; captures are always searched to the end)."""
    nodes: int | None = None
    """Positions to visit."""

    def __attrs_post_init__(self) -> None:
        for name in ("time", "depth", "nodes"):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise ValueError(f"Limit {name} must be positive, not {value!r}")


@attrs.frozen
class Score:
    """An evaluation from the point of view of the side to move.

    ``men`` is in men: ``+1.0`` is about a man ahead. When the engine has
    seen the end of the game, ``plies`` says in how many plies it ends:
    positive if the side to move wins, negative if it loses (and ``men`` is
    ``+inf`` or ``-inf``).

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
    """What the engine reported while choosing."""


class Engine(abc.ABC):
    """The interface every engine implements. Engines are context managers:
    leaving the ``with`` block calls :meth:`quit`.

    >>> import draughts
    >>> with builtin("medium") as engine:
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

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.quit()


def _require_moves(board: Board) -> None:
    if not board.legal_moves:
        raise ValueError(
            f"the game is over: {board.turn.name.lower()} has no legal move in {board.fen()}")


# -- The built-in engine -----------------------------------------------------

@attrs.frozen
class _LevelSettings:
    depth: int  # the deepest search unless the limit gives a depth
    min_depth: int  # depth completed even if time or nodes run out first
    time: float | None  # default seconds when the limit gives nothing
    mistake: float  # probability of playing another move than the best


_LEVELS: dict[str, _LevelSettings] = {
    "easy": _LevelSettings(depth=2, min_depth=1, time=None, mistake=0.3),
    "medium": _LevelSettings(depth=4, min_depth=2, time=None, mistake=0.0),
    "hard": _LevelSettings(depth=64, min_depth=6, time=1.0, mistake=0.0),
}


class BuiltinEngine(Engine):
    """The engine that comes with the library: iterative-deepening
    alpha-beta over the rules of any :class:`~draughts.Variant`.

    It searches with a transposition table, searches forced moves without
    using up depth and follows every capture sequence to its end before
    judging a position. The evaluation (in hundredths of a man) counts
    material, a king being worth three men when kings fly and one and a half
    when they do not, plus three hundredths for every row a man has advanced.
    A side without a legal move has lost, as the variant's
    :class:`~draughts.outcome.Goal` says: in antidraughts it has won (and
    the evaluation is negated), in breakthrough the first king also wins.
    Draws by repetition or move counts are not searched, nor the Frisian
    limit on king moves beyond the first move.

    Levels (see :func:`builtin`):

    - ``easy``: 2 plies, and 30 % of its moves are another legal move chosen
      at random (from the engine's seeded random generator, so a game
      against it can be replayed).
    - ``medium``: 4 plies, always the best move it found.
    - ``hard``: iterative deepening for 1 second (or the given limit), but
      never fewer than 6 plies: every forced win within 6 plies is found.

    An explicit ``Limit(depth=...)`` replaces the level's depth.

    >>> import draughts
    >>> engine = BuiltinEngine("hard")
    >>> board = draughts.Board("B:W18:B14,K1", variant="english")
    >>> engine.play(board, Limit(depth=6)).move
    Move(14, 23, captures=(18,), path=(14, 23))
    """

    def __init__(self, level: Level = "hard", *, seed: int = 0) -> None:
        if level not in _LEVELS:
            raise ValueError(
                f"unknown engine level {level!r}: choose one of {', '.join(_LEVELS)}")
        self.level: Level = level
        """The playing strength."""
        self._settings = _LEVELS[level]
        self._random = random.Random(seed)

    @property
    def name(self) -> str:
        return f"draughts built-in ({self.level})"

    def analyse(self, board: Board, limit: Limit | None = None) -> Analysis:
        _require_moves(board)
        analysis, _root = self._search(board, limit)
        return analysis

    def play(self, board: Board, limit: Limit | None = None) -> PlayResult:
        _require_moves(board)
        analysis, root = self._search(board, limit)
        move = analysis.pv[0]
        if self._settings.mistake and len(root) > 1 and (
                self._random.random() < self._settings.mistake):
            others = [m for m in root if m != move]
            move = others[self._random.randrange(len(others))]
            return PlayResult(move, None, analysis)
        return PlayResult(move, analysis.pv[1] if len(analysis.pv) > 1 else None, analysis)

    def _search(self, board: Board, limit: Limit | None) -> tuple[Analysis, list[Move]]:
        settings = self._settings
        if limit is None or limit == Limit():
            limit = Limit(time=settings.time, depth=None if settings.time else settings.depth)
        t = context(board.variant).core
        pos = _position(board, t)
        start = time.monotonic()
        searcher = _search.Searcher(
            t, deadline=None if limit.time is None else start + limit.time,
            max_nodes=limit.nodes)
        max_depth = limit.depth if limit.depth is not None else settings.depth
        root = list(board.legal_moves)
        raw_root = _search.legal(t, pos)
        if len(raw_root) != len(root):
            allowed = set(root)
            searcher.root = [r for r, m in zip(raw_root, _moves(t, raw_root), strict=True)
                             if m in allowed]
        depth, score, raw_pv = searcher.iterate(pos, max_depth, min(settings.min_depth, max_depth))
        pv = _moves(t, raw_pv)
        if not pv or pv[0] not in root:
            # Only when the game was already decided at the root (a king on
            # the board in breakthrough): any legal move will do.
            pv = [root[0]]
        analysis = Analysis(_score(score), depth, tuple(pv), searcher.nodes,
                            time.monotonic() - start)
        return analysis, root


def builtin(level: Level = "hard", *, seed: int = 0) -> BuiltinEngine:
    """The built-in engine at ``level`` (``"easy"``, ``"medium"`` or
    ``"hard"``); ``seed`` fixes the easy level's mistakes.

    >>> builtin("easy", seed=3).name
    'draughts built-in (easy)'

    :raises ValueError: for an unknown level.
    """
    return BuiltinEngine(level, seed=seed)


def _position(board: Board, t: Tables) -> _search.Position:
    bit = t.bit_of_square

    def mask(color: int, kind: int) -> int:
        total = 0
        for square in board.pieces(Color(color), MAN if kind == 0 else KING):
            total |= bit[square]
        return total

    return (int(board.turn), mask(0, 0), mask(1, 0), mask(0, 1), mask(1, 1))


def _moves(t: Tables, raw: list[RawMove]) -> list[Move]:
    return [t.moves.move(r) for r in raw]


def _score(value: int) -> Score:
    if value > _search.WON:
        return Score(math.inf, _search.WIN - value)
    if value < -_search.WON:
        return Score(-math.inf, -(_search.WIN + value))
    return Score(value / 100)


# -- External engines: the Hub protocol --------------------------------------

class HubEngine(Engine):
    """An external engine speaking the Hub protocol (version 2, as Scan 3.x
    does), started with :meth:`popen`.

    Positions are sent in the board's own square numbering, so a Hub engine
    for another variant than international draughts must use the same
    numbering as the variant's PDN. ``Limit.time`` is sent as
    ``move-time``, ``depth`` as ``depth`` and ``nodes`` as ``nodes`` (an
    extension some engines ignore).

    >>> import draughts
    >>> with HubEngine.popen(["./scan", "hub"]) as scan:  # doctest: +SKIP
    ...     print(scan.name, scan.play(draughts.Board(), Limit(time=1)).move)
    Scan 32-28
    """

    def __init__(self, process: _hub.Process, *, timeout: float | None = 10.0) -> None:
        self._process = process
        self._timeout = timeout
        self.id: dict[str, str] = {}
        """What the engine said about itself (``name``, ``version``, ...)."""
        self.params: dict[str, dict[str, str]] = {}
        """The parameters the engine declared, by name."""

    @classmethod
    def popen(cls, command: list[str], *, options: dict[str, str] | None = None,
              timeout: float | None = 10.0) -> HubEngine:
        """Start ``command`` (for Scan: ``["./scan", "hub"]``), set
        ``options`` with ``set-param`` and wait until it is ready.

        ``timeout`` is how many seconds the engine may stay silent during the
        start-up, or past the time limit of a search, before it is given up
        as hung and stopped (None waits for ever). Searches without a time
        limit are waited for as long as they take.

        :raises EngineError: if the program cannot be started or does not
            complete the start-up.
        """
        engine = cls(_hub.Process.start(command), timeout=timeout)
        try:
            engine._handshake(options or {})
        except BaseException:
            engine._process.kill()
            raise
        return engine

    @property
    def name(self) -> str:
        return self.id.get("name", "Hub engine")

    def _handshake(self, options: dict[str, str]) -> None:
        self._process.send("hub")
        while True:
            command, args = self._process.receive(self._timeout, "the reply to 'hub'")
            if command == "id":
                self.id.update(args)
            elif command == "param" and "name" in args:
                self.params[args["name"]] = args
            elif command == "wait":
                break
        for key, value in options.items():
            self._process.send(_hub.format_line("set-param", name=key, value=value))
        self._process.send("init")
        while self._process.receive(self._timeout, "the reply to 'init'")[0] != "ready":
            pass

    def play(self, board: Board, limit: Limit | None = None) -> PlayResult:
        _require_moves(board)
        done, analysis = self._go(board, limit, "think")
        move = self._move(board, done.get("move"), "move")
        ponder = None
        if done.get("ponder"):
            # A wrong guess about the reply is harmless: it is only dropped.
            after = board.copy(stack=False)
            after.push(move)
            ponder = _hub.parse_move(done["ponder"], list(after.legal_moves))
        return PlayResult(move, ponder, analysis)

    def analyse(self, board: Board, limit: Limit | None = None) -> Analysis:
        _require_moves(board)
        done, analysis = self._go(board, limit, "analyze")
        if not analysis.pv:
            analysis = attrs.evolve(analysis, pv=(self._move(board, done.get("move"), "move"),))
        return analysis

    def _go(self, board: Board, limit: Limit | None,
            mode: str) -> tuple[dict[str, str], Analysis]:
        process = self._process
        position, history = _hub.position(board)
        if history:
            process.send(_hub.format_line("pos", pos=position, moves=" ".join(history)))
        else:
            process.send(_hub.format_line("pos", pos=position))
        limit = limit or Limit()
        level: dict[str, str] = {}
        if limit.time is not None:
            level["move-time"] = f"{limit.time:g}"
        if limit.depth is not None:
            level["depth"] = str(limit.depth)
        if limit.nodes is not None:
            level["nodes"] = str(limit.nodes)
        if level:
            process.send(_hub.format_line("level", **level))
        process.send(f"go {mode}")
        # Only a time limit says when the answer is due; a search limited by
        # depth or nodes may take as long as it takes.
        wait = None if self._timeout is None or limit.time is None else self._timeout + limit.time
        last_info: dict[str, str] = {}
        while True:
            command, args = process.receive(wait, f"the answer to 'go {mode}'")
            if command == "info":
                last_info.update(args)
            elif command == "done":
                break
            elif command == "error":
                raise EngineProtocolError(
                    f"{self.name} reported an error: {args.get('message', '')!r}")
        return args, self._analysis(board, last_info)

    def _analysis(self, board: Board, info: dict[str, str]) -> Analysis:
        score = depth = nodes = seconds = None
        try:
            if "score" in info:
                score = Score(float(info["score"]))
            if "depth" in info:
                depth = int(info["depth"])
            if "nodes" in info:
                nodes = int(info["nodes"])
            if "time" in info:
                seconds = float(info["time"])
        except ValueError as error:
            raise EngineProtocolError(f"{self.name} sent a bad info line {info!r}") from error
        pv: list[Move] = []
        line = board.copy(stack=False)
        for text in info.get("pv", "").split():
            move = _hub.parse_move(text, list(line.legal_moves))
            if move is None:
                break  # a PV may run past the end of the game or be cut short
            pv.append(move)
            line.push(move)
        return Analysis(score, depth, tuple(pv), nodes, seconds)

    def _move(self, board: Board, text: str | None, what: str) -> Move:
        if text is None:
            raise EngineProtocolError(f"{self.name} answered 'done' without a {what}")
        move = _hub.parse_move(text, list(board.legal_moves))
        if move is None:
            raise EngineProtocolError(
                f"{self.name} played {text!r}, which is not a legal move in {board.fen()}")
        return move

    def ping(self) -> None:
        """Check that the engine still answers (``ping``/``pong``).

        :raises EngineError: if it does not.
        """
        self._process.send("ping")
        while self._process.receive(self._timeout, "the reply to 'ping'")[0] != "pong":
            pass

    def quit(self) -> None:
        """Send ``quit`` and wait for the process to end (killing it if it
        does not within a few seconds). Calling it twice is harmless."""
        self._process.close()

