"""The built-in engine as a Hub engine: what ``python -m draughts hub`` runs.

Hub (version 2, spoken by Scan 3.x and the Hub GUI; described in the
``protocol.txt`` that comes with Scan) is line based; :mod:`draughts.engine.hub`
reads and writes its lines, positions and moves, for both ends. A session is
a :class:`HubServer`: :meth:`HubServer.handle` answers one line from the GUI,
and a search runs in a thread of its own, so that ``stop``, ``ping`` and
``ponder-hit`` are answered while it thinks. :func:`run_hub` reads a whole
session.

What the server answers:

- ``hub``: ``id`` (name and version), one ``param`` line per
  parameter, ``wait``. The parameters are ``variant`` (a variant name or
  alias, or one of Scan's names: ``normal``, ``killer``, ``bt``,
  ``frisian``, ``losing``), ``level`` (``easy``, ``medium``, ``hard``),
  ``hash`` (the transposition table's size in MB, about; 0, the default,
  leaves it to the level: ``hard``'s grows with the time a move may take,
  as :func:`~draughts.engine.builtin`'s does), ``threads``
  (the threads the search runs on; the pure core searches on one), ``seed``
  (the easy level's mistakes and the choice among book moves), ``book``
  (``none``, ``default`` for the library's book, or a book file) and
  ``egtb`` (``none`` or a directory of bitbase files), both read when set;
- ``set-param name=... value=...``; ``init`` (answered ``ready``);
- ``pos pos=... [moves="..."]`` (without ``pos=``: the variant's start);
- ``level`` with ``depth``, ``nodes``, ``move-time``, ``[moves] time
  [inc]`` or ``infinite``: it applies to the next search only;
- ``go think``, ``go ponder``, ``go analyze``: ``info`` lines (depth, score
  in men, nodes, time, nps in millions of nodes a second, pv) as each depth
  is complete, then ``done move=... [ponder=...]``;
- during a search ``stop`` (the search ends once its first depth is
  complete), ``ponder-hit`` (the clock of a ``go ponder`` starts) and
  ``ping``;
- ``ping`` (``pong``), ``new-game``, ``quit``.

Anything else, or a line that cannot be read, a position or move that is
not right, a bad value, is answered with ``error message="..."`` and
changes nothing (a bad ``pos`` leaves no position, so that no search runs
on a position the GUI did not mean).

>>> lines = []
>>> server = HubServer(lines.append, variant="english", level="medium")
>>> server.handle("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww")
True
>>> server.handle("level depth=2")
True
>>> server.handle("go think")
True
>>> server.wait()
>>> lines[-1].startswith("done move=")
True
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

import attrs

import draughts
from draughts.board import Board
from draughts.engine import search as _search
from draughts.engine.base import Analysis, Limit, Score
from draughts.engine.book import Book, book_option
from draughts.engine.builtin import _LEVELS, BuiltinEngine, Level, _budget
from draughts.engine.egtb import egtb_option
from draughts.engine.hub import format_line, format_move, parse_line, parse_move
from draughts.piece import BLACK, KING, MAN, WHITE, Piece
from draughts.variant import VARIANTS, Variant, find_variant

__all__ = [
    "HubInputError",
    "HubServer",
    "hub_variant",
    "parse_position",
    "run_hub",
    "table_entries",
]

# Scan's names for the variants it plays, where ours differ.
_SCAN_NAMES = {"normal": "international", "bt": "breakthrough", "losing": "antidraughts"}
_DEPTH_CAP = 64  # the deepest search asked for when the GUI gives no depth (hard's own)
# MB; 0: the level's own table, as builtin() makes it (hard's grows with the
# move's time, to 128 MB in C), so that the Hub engine plays as builtin:hard.
_DEFAULT_HASH = 0
# The whole-number parameters and their bounds, as announced and checked.
_INT_PARAMS = {
    "hash": (0, 8192),
    "threads": (1, _search.MAX_THREADS),
    "seed": (0, 2**31 - 1),
}
_DURING_SEARCH = {"stop", "ping", "ponder-hit", "quit"}
_PIECES = {"w": Piece(MAN, WHITE), "b": Piece(MAN, BLACK), "W": Piece(KING, WHITE)}
_PIECES["B"] = Piece(KING, BLACK)


class HubInputError(ValueError):
    """A line from the GUI that cannot be obeyed; its text is the ``error``
    message sent back.

    >>> str(HubInputError("no position"))
    'no position'
    """


def hub_variant(name: str) -> Variant:
    """The variant a ``variant`` parameter names: ours (names, aliases,
    GameType numbers) or Scan's.

    >>> hub_variant("bt").name, hub_variant("Russian").name
    ('breakthrough', 'russian')

    :raises HubInputError: for a name nobody uses.
    """
    try:
        return find_variant(_SCAN_NAMES.get(name.lower(), name))
    except ValueError:
        raise HubInputError(f"unknown variant {name!r}") from None


def table_entries(megabytes: int) -> int:
    """The transposition table entries that fit in about ``megabytes``:
    the C table's entries take 32 bytes, the Python one's about 120 (a
    tuple and its place in a list). The search rounds the size down to a
    power of two.

    >>> table_entries(32) == (2**20 if draughts.BACKEND == "native" else 279_620)
    True
    """
    per_entry = 32 if draughts.BACKEND == "native" else 120
    return max(1000, min(10**8, megabytes * 2**20 // per_entry))


def parse_position(text: str, variant: Variant) -> Board:
    """The board of a ``pos=`` value: the side to move, then one letter per
    square in numbering order (``w``/``b`` men, ``W``/``B`` kings, ``e``
    empty).

    >>> parse_position("Beeeeeeeeeeeeebeeeweeeeeeeeeeeeee", draughts.variant.ENGLISH).fen()
    'B:W18:B14'

    :raises HubInputError: for a value of the wrong length, an unknown
        letter or a man on its crowning row.
    """
    squares = list(variant.squares)
    if len(text) != len(squares) + 1:
        raise HubInputError(
            f"a position of {variant.name} is {len(squares) + 1} characters (the side to "
            f"move, then one per square), not {len(text)}: {text!r}"
        )
    if text[0] not in "WB":
        raise HubInputError(f"the side to move is W or B, not {text[0]!r}, in {text!r}")
    board = Board.empty(variant=variant)
    for square, letter in zip(squares, text[1:], strict=True):
        if letter == "e":
            continue
        if letter not in _PIECES:
            raise HubInputError(f"square {square} holds {letter!r}, not one of wbWBe, in {text!r}")
        try:
            board.set_piece_at(square, _PIECES[letter])
        except ValueError as error:
            raise HubInputError(f"{error}, in {text!r}") from None
    board.turn = WHITE if text[0] == "W" else BLACK
    return board


@attrs.define
class _Level:
    """The limits of the next search, as ``level`` lines gave them."""

    depth: int | None = None
    nodes: int | None = None
    move_time: float | None = None
    moves: int | None = None
    time: float | None = None
    inc: float | None = None
    infinite: bool = False

    def limit(self, mode: str) -> Limit:
        """The search's limit; with no level, the engine's own default to
        think and no limit but the depth cap to analyse or ponder."""
        if self == _Level():
            return Limit() if mode == "think" else Limit(depth=_DEPTH_CAP)
        if self.infinite:
            return Limit(depth=self.depth or _DEPTH_CAP, nodes=self.nodes)
        if self.time is None:
            return Limit(time=self.move_time, depth=self.depth, nodes=self.nodes)
        share = self.time / self.moves if self.moves else None
        seconds = self.move_time if share is None else min(share, self.move_time or share)
        return Limit(
            time=seconds,
            depth=self.depth,
            nodes=self.nodes,
            remaining=max(self.time, 0.001),  # a clock at 0 still gets a move
            increment=self.inc,
        )


_MOST = {"depth": 1000, "nodes": 2**62, "moves": 10**6}  # beyond: a GUI's mistake


def _number(args: dict[str, str], name: str, kind: type[int] | type[float]) -> float | None:
    """``args[name]`` as a positive ``kind`` (None when absent; ``inc``,
    ``moves`` and ``time`` may be 0).

    :raises HubInputError: for anything else.
    """
    if name not in args:
        return None
    try:
        value = kind(args[name])
    except ValueError:
        value = -1
    low_ok = value > 0 or (value == 0 and name in ("inc", "moves", "time"))
    if not low_ok or value == math.inf or value > _MOST.get(name, math.inf):
        raise HubInputError(f"level: {name}={args[name]!r} is not a valid {name}")
    return value


@attrs.define
class _Running:
    """The search in progress: its thread, the signal that stops it, and
    what ``ponder-hit`` does."""

    mode: str
    signal: _search.StopSignal
    thread: threading.Thread | None = None
    after_hit: float | None = None  # seconds left to think once the ponder is hit
    timer: threading.Timer | None = None


class HubServer:
    """One Hub session with the built-in engine: feed it the GUI's lines
    with :meth:`handle`; answers go to ``write``, one line (without its
    newline) per call, from this thread or the search's.

    The keyword arguments are the parameters' values before any
    ``set-param``.

    :raises HubInputError: for a bad parameter value.
    """

    def __init__(
        self,
        write: Callable[[str], None],
        *,
        variant: str = "international",
        level: str = "hard",
        hash_mb: int = _DEFAULT_HASH,
        seed: int = 0,
        book: str = "none",
        egtb: str = "none",
        threads: int = 1,
    ) -> None:
        self._write = write
        self._lock = threading.RLock()  # whole lines, and the search's state
        self._engine: BuiltinEngine | None = None
        self._board: Board | None = None
        self._level = _Level()
        self._params: dict[str, str] = {}
        for name, value in (("variant", variant), ("level", level), ("hash", str(hash_mb))):
            self._set_param(name, value)
        self._set_param("seed", str(seed))
        self._set_param("threads", str(threads))
        self._book: Book | None = None
        self._egtb: Path | None = None
        self._set_param("book", book)
        self._set_param("egtb", egtb)
        self._running: _Running | None = None
        self.closed = False
        """Set by ``quit``, by :meth:`close` and when ``write`` fails."""

    # -- Output ----------------------------------------------------------------

    def _send(self, line: str) -> None:
        with self._lock:
            if self.closed:
                return
            try:
                self._write(line)
            except (OSError, ValueError):  # the GUI is gone (a closed pipe or file)
                self.closed = True

    def _error(self, message: str) -> None:
        # ASCII, so that no output encoding can fail on what the GUI sent.
        flat = " ".join(message.replace('"', "'").split()).encode("ascii", "backslashreplace")
        self._send(format_line("error", message=flat.decode("ascii")))

    # -- Input -----------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Answer one line; False once the session is over (``quit``)."""
        if not line.strip():
            return not self.closed
        try:
            command, args = parse_line(line)
        except ValueError as error:
            self._error(f"cannot read the line {line.strip()!r}: {error}")
            return not self.closed
        with self._lock:
            busy = self._running is not None
        handler = _HANDLERS.get(command)
        try:
            if handler is None:
                raise HubInputError(f"unknown command {command!r}")
            if busy and command not in _DURING_SEARCH:
                raise HubInputError(f"{command!r} cannot be obeyed during a search (stop it first)")
            handler(self, args)
        except HubInputError as error:
            self._error(str(error))
        except Exception as error:  # a bug must not end the session the GUI relies on
            self._error(f"internal error while obeying {line.strip()!r}: {error!r}")
        return not self.closed

    def _hub(self, args: dict[str, str]) -> None:
        self._send(format_line("id", name="draughts", version=draughts.__version__))
        names = " ".join([v.name for v in VARIANTS] + list(_SCAN_NAMES))
        params = [
            ("variant", "enum", {"values": names}),
            ("level", "enum", {"values": " ".join(_LEVELS)}),
            *(
                (name, "int", {"min": str(low), "max": str(high)})
                for name, (low, high) in _INT_PARAMS.items()
            ),
            ("book", "string", {}),
            ("egtb", "string", {}),
        ]
        for name, kind, bounds in params:
            self._send(
                format_line("param", name=name, value=self._params[name], type=kind, **bounds)
            )
        self._send("wait")

    def _set_param(self, name: str, value: str) -> None:
        if name == "variant":
            hub_variant(value)
        elif name == "level":
            if value not in _LEVELS:
                raise HubInputError(f"level must be one of {', '.join(_LEVELS)}, not {value!r}")
        elif name in _INT_PARAMS:
            low, high = _INT_PARAMS[name]
            if not (value.isdigit() and low <= int(value) <= high):
                raise HubInputError(f"{name} must be a whole number from {low} to {high}")
        elif name in ("book", "egtb"):
            self._set_file(name, value)
        else:
            raise HubInputError(f"unknown parameter {name!r}")
        if name == "variant" and name in self._params and value != self._params[name]:
            self._board = None  # a position of the old variant means nothing now
        self._params[name] = value
        self._engine = None

    def _set_file(self, name: str, value: str) -> None:
        """Read the book, or the bitbases of the current variant, now: a
        file that is not one is an error line here, not at a search."""
        try:
            if name == "book":
                self._book = book_option(value)
            else:
                self._egtb = egtb_option(value, hub_variant(self._params["variant"]))
        except (OSError, ValueError) as error:  # BookError, BitbaseError
            raise HubInputError(f"{name}: {error}") from None

    def _set_param_command(self, args: dict[str, str]) -> None:
        if "name" not in args or "value" not in args:
            raise HubInputError("set-param needs name=... and value=...")
        self._set_param(args["name"], args["value"])

    def _init(self, args: dict[str, str]) -> None:
        self._make_engine()
        self._send("ready")

    def _make_engine(self) -> BuiltinEngine:
        if self._engine is None:
            level: Level = self._params["level"]  # type: ignore[assignment]  # checked
            hash_mb = int(self._params["hash"])
            self._engine = BuiltinEngine(
                level,
                seed=int(self._params["seed"]),
                table_entries=table_entries(hash_mb) if hash_mb else None,
                threads=int(self._params["threads"]),
                book=self._book,
                egtb=self._egtb,
            )
        return self._engine

    def _new_game(self, args: dict[str, str]) -> None:
        # Every search starts with an empty table: only the easy level's
        # random moves carry over, and they restart from the seed.
        self._engine = None

    def _pos(self, args: dict[str, str]) -> None:
        self._board = None
        self._level = _Level()
        variant = hub_variant(self._params["variant"])
        board = (
            Board(variant=variant) if "pos" not in args else parse_position(args["pos"], variant)
        )
        for text in args.get("moves", "").split():
            move = parse_move(text, list(board.legal_moves))
            if move is None:
                raise HubInputError(f"{text!r} is not a legal move in {board.fen()}")
            board.push(move)
        self._board = board

    def _level_command(self, args: dict[str, str]) -> None:
        new = attrs.evolve(self._level)
        for name, kind in (("depth", int), ("nodes", int), ("moves", int)):
            value = _number(args, name, kind)
            if value is not None:
                setattr(new, name, int(value))
        for name, field in (("move-time", "move_time"), ("time", "time"), ("inc", "inc")):
            value = _number(args, name, float)
            if value is not None:
                setattr(new, field, float(value))
        new.infinite = new.infinite or "infinite" in args
        self._level = new

    def _ping(self, args: dict[str, str]) -> None:
        self._send("pong")

    def _stop(self, args: dict[str, str]) -> None:
        with self._lock:
            running = self._running
        if running is not None:  # else it ended already: nothing to stop
            running.signal.set()

    def _ponder_hit(self, args: dict[str, str]) -> None:
        with self._lock:
            running = self._running
            if running is None or running.mode != "ponder" or running.after_hit is None:
                return
            running.mode = "think"
            running.timer = threading.Timer(running.after_hit, running.signal.set)
            running.timer.daemon = True
            running.timer.start()

    def _quit(self, args: dict[str, str]) -> None:
        self.close()

    # -- Searching -------------------------------------------------------------

    def _go(self, args: dict[str, str]) -> None:
        modes = [mode for mode in ("think", "ponder", "analyze") if mode in args]
        if len(modes) > 1:
            raise HubInputError(f"go: choose one of think, ponder, analyze, not {modes}")
        mode = modes[0] if modes else "think"
        board = self._board
        if board is None:
            raise HubInputError("go: no position (send pos first)")
        if not board.legal_moves:
            raise HubInputError(f"go: the game is over in {board.fen()}")
        engine = self._make_engine()
        limit = self._level.limit("think" if mode == "ponder" else mode)
        self._level = _Level()
        running = _Running(mode, _search.StopSignal())
        if mode == "ponder":
            limit, running.after_hit = self._ponder_limit(limit, board)
        thread = threading.Thread(
            target=self._think, args=(engine, board.copy(), limit, running), daemon=True
        )
        running.thread = thread
        with self._lock:
            self._running = running
        thread.start()

    def _ponder_limit(self, limit: Limit, board: Board) -> tuple[Limit, float | None]:
        """The search while pondering, and its seconds once the ponder is
        hit: a search limited by time searches without a limit until then."""
        if limit == Limit():
            seconds = _LEVELS[self._params["level"]].time
            if seconds is None:  # the level's default is a depth
                return limit, None
            return Limit(depth=_DEPTH_CAP), seconds
        if limit.time is None and limit.remaining is None:
            return limit, None
        seconds = _budget(limit, board.legal_moves.count())
        return Limit(depth=limit.depth or _DEPTH_CAP, nodes=limit.nodes), seconds

    def _think(self, engine: BuiltinEngine, board: Board, limit: Limit, running: _Running) -> None:
        try:
            if running.mode == "analyze":
                analysis = engine.analyse(board, limit, info=self._info, stop=running.signal)
                move, ponder = analysis.pv[0], analysis.pv[1:2]
            else:
                result = engine.play(board, limit, info=self._info, stop=running.signal)
                move, ponder = result.move, (result.ponder,) if result.ponder else ()
            answer = {"move": format_move(move)}
            if ponder:
                answer["ponder"] = format_move(ponder[0])
            line = format_line("done", **answer)
        except Exception as error:  # a failure of one search must not end the session
            line = format_line("error", message=f"the search failed: {error!r}".replace('"', "'"))
        finally:
            if running.timer is not None:
                running.timer.cancel()
        with self._lock:
            # The search is over before the GUI can read that it is.
            self._running = None
            self._send(line)

    def _info(self, analysis: Analysis) -> None:
        words: dict[str, str] = {}
        if analysis.depth is not None:
            words["depth"] = str(analysis.depth)
        if analysis.score is not None:
            words["score"] = f"{_men(analysis.score):.2f}"
        if analysis.nodes is not None:
            words["nodes"] = str(analysis.nodes)
        if analysis.time is not None:
            words["time"] = f"{analysis.time:.3f}"
            if analysis.nodes and analysis.time > 0:
                words["nps"] = f"{analysis.nodes / analysis.time / 1e6:.3f}"
        if analysis.pv:
            words["pv"] = " ".join(format_move(move) for move in analysis.pv)
        self._send(format_line("info", **words))

    def wait(self, timeout: float | None = None) -> None:
        """Wait until the search in progress (if any) has answered."""
        with self._lock:
            running = self._running
        if running is not None and running.thread is not None:
            running.thread.join(timeout)

    def close(self) -> None:
        """End the session: stop the search in progress and wait for it
        (briefly: it stops within a few thousand nodes once its first depth
        is complete); nothing more is written."""
        with self._lock:
            running = self._running
        if running is not None:
            running.signal.set()
            self.wait(10)
        with self._lock:
            self.closed = True


def _men(score: Score) -> float:
    """A score as the number Hub carries: men, a forced win or loss in
    ``n`` plies as ``±(10000 - n / 100)`` (the search's own scale)."""
    if score.plies is None:
        return score.men
    plies = abs(score.plies)
    value = (_search.WIN - plies) / 100
    return value if score.plies > 0 else -value


_HANDLERS: dict[str, Callable[[HubServer, dict[str, str]], None]] = {
    "hub": HubServer._hub,
    "set-param": HubServer._set_param_command,
    "init": HubServer._init,
    "new-game": HubServer._new_game,
    "pos": HubServer._pos,
    "level": HubServer._level_command,
    "go": HubServer._go,
    "ping": HubServer._ping,
    "stop": HubServer._stop,
    "ponder-hit": HubServer._ponder_hit,
    "quit": HubServer._quit,
}


def run_hub(
    lines: Iterable[str],
    write: Callable[[str], None],
    *,
    variant: str = "international",
    level: str = "hard",
    hash_mb: int = _DEFAULT_HASH,
    seed: int = 0,
    book: str = "none",
    egtb: str = "none",
    threads: int = 1,
) -> None:
    """A whole session: answer ``lines`` until ``quit`` or their end (the GUI
    is gone: the search in progress is stopped). The keyword arguments are
    those of :class:`HubServer`.

    >>> out = []
    >>> run_hub(["hub", "init", "ping", "quit", "ping"], out.append)
    >>> out[0].startswith("id name=draughts"), out[-3:]
    (True, ['wait', 'ready', 'pong'])

    :raises HubInputError: for a bad parameter value.
    """
    server = HubServer(
        write,
        variant=variant,
        level=level,
        hash_mb=hash_mb,
        seed=seed,
        book=book,
        egtb=egtb,
        threads=threads,
    )
    try:
        for line in lines:
            if not server.handle(line):
                break
    finally:
        server.close()
