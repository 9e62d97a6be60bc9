"""External engines speaking the Hub protocol: :class:`HubEngine`, the
protocol's text and the engine process behind it.

Hub (version 2, spoken by Scan 3.x; described in the ``protocol.txt`` that
comes with Scan) is line based: every line is ``command name=value ...``,
values that contain spaces or ``=`` are double-quoted, and a name without
``=value`` is a flag. Unknown commands and arguments are ignored in both
directions. Positions are the side to move (``W``/``B``) followed by one
letter per square in numbering order (``w``/``b`` men, ``W``/``B`` kings,
``e`` empty). Moves are ``from-to``, or for captures ``fromxto`` followed
by ``x`` and every captured square, in any order.
"""

from __future__ import annotations

import collections
import contextlib
import queue
import re
import subprocess
import threading

import attrs

from draughts.board import Board
from draughts.engine.base import (
    Analysis,
    Engine,
    EngineError,
    EngineProtocolError,
    EngineTerminatedError,
    Limit,
    PlayResult,
    Score,
    require_moves,
)
from draughts.move import Move
from draughts.piece import KING
from draughts.variant import Variant, find_variant

_TOKEN = re.compile(r'\s*([^\s="]+)(?:\s*=\s*(?:"([^"]*)"|([^\s="]+)))?')
_MOVE = re.compile(r"([0-9]+)([-x])([0-9]+)((?:x[0-9]+)*)")
_SAFE_VALUE = re.compile(r'[^\s="]+')
_STDERR_LINES = 20  # how much of the engine's stderr an error message quotes
# Scan's names for our variants, where they differ (its ``variant`` parameter).
_SCAN_NAMES = {"international": "normal", "breakthrough": "bt", "antidraughts": "losing"}


def parse_line(line: str) -> tuple[str, dict[str, str]]:
    """Split a protocol line into its command and arguments (flags map to
    ``""``).

    :raises ValueError: if the line is empty or badly quoted.
    """
    pos = 0
    parts: list[tuple[str, str]] = []
    text = line.rstrip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:
            raise ValueError(f"cannot read {line!r} at column {pos + 1}")
        value = match.group(2) if match.group(2) is not None else match.group(3) or ""
        parts.append((match.group(1), value))
        pos = match.end()
    if not parts:
        raise ValueError("empty line")
    command = parts[0][0]
    return command, dict(parts[1:])


def format_line(command: str, **args: str) -> str:
    """A protocol line; values are quoted when they need it.

    :raises ValueError: for a value that contains a double quote (Hub
        cannot carry it).
    """
    words = [command]
    for name, value in args.items():
        if '"' in value:
            raise ValueError(f"a Hub value cannot contain a double quote: {value!r}")
        words.append(f"{name}={value}" if _SAFE_VALUE.fullmatch(value) else f'{name}="{value}"')
    return " ".join(words)


def format_position(board: Board) -> str:
    """The ``pos=`` value of ``board``."""
    letters = [board.turn.letter]
    for square in board.variant.squares:
        piece = board.piece_at(square)
        letters.append("e" if piece is None else piece.symbol())
    return "".join(letters)


def format_move(move: Move) -> str:
    """A move in Hub notation."""
    if not move.captures:
        return f"{move.from_square}-{move.to_square}"
    return "x".join(map(str, (move.from_square, move.to_square, *sorted(move.captures))))


def position(board: Board) -> tuple[str, list[str]]:
    """The position to send and the moves leading from it to ``board``.

    Like the Hub GUI, only the trailing king moves that capture nothing are
    sent as moves (they are the ones that can repeat a position); the
    position before them is sent whole.
    """
    start = board.copy()
    moves: list[Move] = []
    while start.move_stack:
        move = start.pop()
        piece = start.piece_at(move.from_square)
        if move.is_capture or piece is None or piece.kind != KING:
            start.push(move)
            break
        moves.append(move)
    moves.reverse()
    return format_position(start), [format_move(m) for m in moves]


def parse_move(text: str, legal: list[Move]) -> Move | None:
    """The move of ``legal`` that ``text`` names in Hub notation, or None.

    A capture written without its captured squares (``28x19``) is accepted
    when only one legal capture goes from 28 to 19.
    """
    match = _MOVE.fullmatch(text.strip())
    if match is None:
        return None
    origin, kind, target = int(match.group(1)), match.group(2), int(match.group(3))
    captured = [int(s) for s in match.group(4).split("x") if s]
    found = [
        m
        for m in legal
        if m.from_square == origin
        and m.to_square == target
        and m.is_capture == (kind == "x")
        and (not captured or sorted(m.captures) == sorted(captured))
    ]
    return found[0] if len(found) == 1 else None


class Process:
    """An engine program on pipes: lines in, lines out, with timeouts.

    A thread reads the engine's output into a queue, so that waiting for an
    answer can give up after a timeout instead of blocking for ever; another
    keeps the last lines of its standard error for error messages.
    """

    def __init__(self, popen: subprocess.Popen[str], command: list[str]) -> None:
        self._popen = popen
        self._command = command
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=_STDERR_LINES)
        self._ended = False
        self._readers = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    @classmethod
    def start(cls, command: list[str]) -> Process:
        """Run ``command``.

        :raises EngineError: if it cannot be started.
        """
        try:
            popen = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        except OSError as error:
            raise EngineError(f"cannot start engine {command!r}: {error}") from error
        return cls(popen, command)

    def _read_stdout(self) -> None:
        assert self._popen.stdout is not None
        for line in self._popen.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _read_stderr(self) -> None:
        assert self._popen.stderr is not None
        for line in self._popen.stderr:
            self._stderr.append(line.rstrip())

    def _name(self) -> str:
        return " ".join(self._command)

    def _terminated(self, what: str) -> Exception:
        try:
            code = self._popen.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        message = f"engine {self._name()!r} ended (exit code {code}) while waiting for {what}"
        for reader in self._readers[1:]:
            reader.join(timeout=1)
        if self._stderr:
            message += "; its last error output:\n" + "\n".join(self._stderr)
        return EngineTerminatedError(message)

    def send(self, line: str) -> None:
        """Write one line to the engine.

        :raises EngineTerminatedError: if the engine is gone.
        """
        stdin = self._popen.stdin
        assert stdin is not None
        try:
            stdin.write(line + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._terminated(f"it to read {line!r}") from None

    def receive(self, timeout: float | None, what: str) -> tuple[str, dict[str, str]]:
        """The next meaningful line, parsed; blank lines are skipped.

        :raises EngineTerminatedError: if the engine ends first.
        :raises EngineError: if it stays silent for ``timeout`` seconds (it is
            then killed).
        :raises EngineProtocolError: for a line that cannot be parsed.
        """
        while True:
            if self._ended:
                raise self._terminated(what)
            try:
                line = self._lines.get(timeout=timeout)
            except queue.Empty:
                self.kill()
                raise EngineError(
                    f"engine {self._name()!r} sent nothing for {timeout:g} s while we "
                    f"waited for {what}; it was stopped"
                ) from None
            if line is None:
                self._ended = True
                continue
            if not line.strip():
                continue
            try:
                return parse_line(line)
            except ValueError as error:
                raise EngineProtocolError(
                    f"engine {self._name()!r} sent {line.rstrip()!r} while we waited for "
                    f"{what}: {error}"
                ) from None

    def kill(self) -> None:
        """Stop the process at once."""
        if self._popen.poll() is None:
            self._popen.kill()
        self._popen.wait()
        self._close_pipes()

    def close(self) -> None:
        """Ask the engine to quit, and make sure it does."""
        if self._popen.poll() is None:
            with contextlib.suppress(Exception):  # it is going away either way
                self.send("quit")
            try:
                self._popen.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self._popen.kill()
                self._popen.wait()
        self._close_pipes()

    def _close_pipes(self) -> None:
        # The readers stop at the end of the output, which the process's end
        # guarantees; only then are their pipes closed, under nobody's feet.
        if self._popen.stdin is not None:
            with contextlib.suppress(OSError):
                self._popen.stdin.close()
        for reader in self._readers:
            reader.join(timeout=2)
        for pipe in (self._popen.stdout, self._popen.stderr):
            if pipe is not None and not any(r.is_alive() for r in self._readers):
                pipe.close()


class HubEngine(Engine):
    """An external engine speaking the Hub protocol (version 2, as Scan 3.x
    does), started with :meth:`popen`.

    Positions are sent in the board's own square numbering, so a Hub engine
    for another variant than international draughts must use the same
    numbering as the variant's PDN. The variant is a parameter the engine
    reads when it starts: :meth:`popen`'s ``variant`` sets it. ``Limit.time`` is sent as
    ``move-time``, ``depth`` as ``depth`` and ``nodes`` as ``nodes`` (an
    extension some engines ignore).

    >>> import draughts
    >>> with HubEngine.popen(["./scan", "hub"]) as scan:  # doctest: +SKIP
    ...     print(scan.name, scan.play(draughts.Board(), Limit(time=1)).move)
    Scan 32-28
    """

    def __init__(
        self, process: Process, *, timeout: float | None = 10.0, variant: Variant | None = None
    ) -> None:
        self._process = process
        self._timeout = timeout
        self.variant = variant
        """The variant the engine was told to play, or None if it was not told."""
        self.id: dict[str, str] = {}
        """What the engine said about itself (``name``, ``version``, ...)."""
        self.params: dict[str, dict[str, str]] = {}
        """The parameters the engine declared, by name."""

    @classmethod
    def popen(
        cls,
        command: list[str],
        *,
        variant: Variant | str | None = None,
        options: dict[str, str] | None = None,
        timeout: float | None = 10.0,
    ) -> HubEngine:
        """Start ``command`` (for Scan: ``["./scan", "hub"]``), set
        ``options`` with ``set-param`` and wait until it is ready.

        ``variant`` (a :class:`~draughts.variant.Variant` or its name) is
        sent as the engine's ``variant`` parameter, in Scan's name where it
        has one (``normal``, ``bt``, ``losing``), unless ``options`` sets it;
        the engine then refuses boards of other variants. Without it the
        engine plays whatever it starts with (international for Scan).

        ``timeout`` is how many seconds the engine may stay silent during the
        start-up, or past the time limit of a search, before it is given up
        as hung and stopped (None waits for ever). Searches without a time
        limit are waited for as long as they take.

        :raises EngineError: if the program cannot be started or does not
            complete the start-up, or offers no such variant.
        """
        if isinstance(variant, str):
            variant = find_variant(variant)
        engine = cls(Process.start(command), timeout=timeout, variant=variant)
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
        if self.variant is not None and "variant" not in options:
            options = {**self._variant_option(self.variant), **options}
        for key, value in options.items():
            self._process.send(format_line("set-param", name=key, value=value))
        self._process.send("init")
        while self._process.receive(self._timeout, "the reply to 'init'")[0] != "ready":
            pass

    def _variant_option(self, variant: Variant) -> dict[str, str]:
        """The ``set-param`` that tells the engine ``variant`` (none where it
        already plays it)."""
        names = [_SCAN_NAMES.get(variant.name, variant.name), variant.name]
        declared = self.params.get("variant")
        if declared is None:
            if variant.name == "international":
                return {}
            raise EngineError(
                f"{self.name} has no variant parameter: it cannot play {variant.name}"
            )
        offered = declared.get("values", "").split()
        name = next((n for n in names if n in offered), None if offered else names[0])
        if name is None:
            raise EngineError(
                f"{self.name} does not play {variant.name}: its variants are {', '.join(offered)}"
            )
        return {} if declared.get("value") == name else {"variant": name}

    def _check_variant(self, board: Board) -> None:
        require_moves(board)
        if self.variant is not None and board.variant != self.variant:
            raise EngineError(
                f"{self.name} was started for {self.variant.name}, not {board.variant.name}"
            )

    def play(self, board: Board, limit: Limit | None = None) -> PlayResult:
        self._check_variant(board)
        done, analysis = self._go(board, limit, "think")
        move = self._move(board, done.get("move"), "move")
        ponder = None
        if done.get("ponder"):
            # A wrong guess about the reply is harmless: it is only dropped.
            after = board.copy(stack=False)
            after.push(move)
            ponder = parse_move(done["ponder"], list(after.legal_moves))
        return PlayResult(move, ponder, analysis)

    def analyse(self, board: Board, limit: Limit | None = None) -> Analysis:
        self._check_variant(board)
        done, analysis = self._go(board, limit, "analyze")
        if not analysis.pv:
            analysis = attrs.evolve(analysis, pv=(self._move(board, done.get("move"), "move"),))
        return analysis

    def _go(self, board: Board, limit: Limit | None, mode: str) -> tuple[dict[str, str], Analysis]:
        process = self._process
        pos, history = position(board)
        if history:
            process.send(format_line("pos", pos=pos, moves=" ".join(history)))
        else:
            process.send(format_line("pos", pos=pos))
        limit = limit or Limit()
        level: dict[str, str] = {}
        if limit.time is not None:
            level["move-time"] = f"{limit.time:g}"
        if limit.depth is not None:
            level["depth"] = str(limit.depth)
        if limit.nodes is not None:
            level["nodes"] = str(limit.nodes)
        if level:
            process.send(format_line("level", **level))
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
                    f"{self.name} reported an error: {args.get('message', '')!r}"
                )
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
            move = parse_move(text, list(line.legal_moves))
            if move is None:
                break  # a PV may run past the end of the game or be cut short
            pv.append(move)
            line.push(move)
        return Analysis(score, depth, tuple(pv), nodes, seconds)

    def _move(self, board: Board, text: str | None, what: str) -> Move:
        if text is None:
            raise EngineProtocolError(f"{self.name} answered 'done' without a {what}")
        move = parse_move(text, list(board.legal_moves))
        if move is None:
            raise EngineProtocolError(
                f"{self.name} played {text!r}, which is not a legal move in {board.fen()}"
            )
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
