"""Engine matches: two engines, a set of openings each played with both
colours, a clock per side, every game recorded, and the score with its Elo
difference.

>>> import draughts.engine
>>> result = draughts.engine.match("builtin:easy", "builtin:easy", variant="english",
...                                games=2, limit=draughts.engine.Limit(depth=1),
...                                max_plies=20)
>>> result.score.games, len(result.games)
(2, 2)

Engines are given as text (see :func:`engine_spec`): ``builtin:LEVEL``
(with options: ``builtin:hard,book=default,egtb=DIR``),
``hub:COMMAND ARGS`` or ``dxp:HOST:PORT``, or as any function without
arguments that returns a new :class:`~draughts.engine.Engine`.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import math
import multiprocessing
import re
import shlex
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import attrs

from draughts import pdn
from draughts.board import Board
from draughts.engine._match_score import MatchScore, elo_difference, elo_error_margin
from draughts.engine.base import Engine, EngineError, Limit
from draughts.engine.book import Book, book_option
from draughts.engine.builtin import builtin
from draughts.engine.dxp import DxpEngine, DxpGameEnded
from draughts.engine.egtb import egtb_option
from draughts.engine.hub import HubEngine
from draughts.outcome import Outcome
from draughts.piece import BLACK, KING, MAN, WHITE, Color
from draughts.variant import Variant, find_variant

__all__ = [
    "EngineSpec",
    "MatchGame",
    "MatchResult",
    "MatchScore",
    "TimeControl",
    "elo_difference",
    "elo_error_margin",
    "engine_spec",
    "load_openings",
    "match",
    "play_game",
]

EngineFactory = Callable[[], Engine]

_DXP_MOVES = 75  # moves per GAMEREQ time period, as MatchMaker sends them


@attrs.frozen
class TimeControl:
    """A clock per side: ``base`` seconds, plus ``increment`` after each move.

    >>> TimeControl.parse("60+1")
    TimeControl(base=60.0, increment=1.0)
    >>> str(TimeControl(90, 0.5))
    '90+0.5'

    Each move an engine is given ``Limit(time=..., remaining=...,
    increment=...)``: its clock, and as ``time`` a share of its remaining
    time, ``remaining / 25 + 0.9 * increment``, never more than 40 % of what
    remains. An engine that overruns its clock loses on time
    (or draws, where the variant's rules say so).
    """

    base: float
    increment: float = 0.0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Read ``SECONDS`` or ``SECONDS+INCREMENT``.

        :raises ValueError: naming the text.
        """
        match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*(?:\+\s*([0-9]*\.?[0-9]+))?\s*", text)
        if match is None or float(match.group(1)) <= 0:
            raise ValueError(f"a time control is SECONDS or SECONDS+INCREMENT, not {text!r}")
        return cls(float(match.group(1)), float(match.group(2) or 0))

    def budget(self, remaining: float) -> float:
        """The time given for one move with ``remaining`` seconds left."""
        share = remaining / 25 + 0.9 * self.increment
        return max(0.01, min(share, 0.4 * remaining))

    def __str__(self) -> str:
        return f"{self.base:g}+{self.increment:g}"


@attrs.frozen
class EngineSpec:
    """An engine described as text, which can be made again in another
    process (see :func:`engine_spec`).

    >>> engine_spec("builtin:medium").label
    'builtin:medium'
    """

    kind: str
    argument: str

    @property
    def label(self) -> str:
        """The text it was read from."""
        return f"{self.kind}:{self.argument}"

    def make(
        self, time_control: TimeControl | None = None, variant: Variant | None = None
    ) -> Engine:
        """A new engine. A Hub engine is told ``variant`` (its ``variant``
        parameter; None: it is not told, and plays its default). A DXP
        follower is asked for games whose clock is ``time_control`` spread
        over 75 moves, or without one for games of 10 minutes (the whole
        game: a match of fixed move times or depths).

        :raises EngineError: if it cannot be started or reached.
        """
        if self.kind == "builtin":
            level, seed, options = _builtin_options(self.argument)
            return builtin(
                level,  # type: ignore[arg-type]  # checked by engine_spec
                seed=seed,
                book=_book(options.get("book", "none")),
                egtb=egtb_option(options.get("egtb", "none")),
            )
        if self.kind == "hub":
            return HubEngine.popen(shlex.split(self.argument), variant=variant)
        host, _, port = self.argument.rpartition(":")
        if time_control is None:
            # No clock: ten minutes for the whole game (moves 0). A count of
            # moves would end the game there for some programs (Moby Dam
            # sends GAMEEND once its 75 moves are played).
            return DxpEngine.connect(host, int(port), minutes=10, moves=0)
        total = time_control.base + _DXP_MOVES * time_control.increment
        minutes = max(1, math.ceil(total / 60))
        return DxpEngine.connect(host, int(port), minutes=minutes, moves=_DXP_MOVES)


_BUILTIN_OPTIONS = ("book", "egtb")


def _builtin_options(argument: str) -> tuple[str, int, dict[str, str]]:
    """``LEVEL[:SEED][,NAME=VALUE...]`` as (level, seed, options), unchecked."""
    head, *pairs = argument.split(",")
    level, _, seed = head.partition(":")
    options = dict(pair.partition("=")[::2] for pair in pairs)
    return level, int(seed) if seed.isdigit() else 0, options


@functools.lru_cache(maxsize=8)
def _book(value: str) -> Book | None:
    """A book read once per process: every game of a match makes its engines."""
    return book_option(value)


def engine_spec(text: str) -> EngineSpec:
    """Read an engine description: ``builtin:LEVEL`` (``easy``, ``medium`` or
    ``hard``, optionally ``:SEED``, then options ``,book=BOOK`` (``default``,
    ``none`` or a book file) and ``,egtb=DIR`` (a directory of bitbase
    files), ``hub:COMMAND ARGS`` (a program speaking Hub, split like a shell
    line) or ``dxp:HOST:PORT`` (a DXP follower). A book or a directory
    named is checked (read) here.

    >>> engine_spec("hub:/opt/scan/scan hub").argument
    '/opt/scan/scan hub'
    >>> engine_spec("builtin:hard:7,book=default").make().book is not None
    True

    :raises ValueError: naming what is wrong (a
        :class:`~draughts.engine.book.BookError` or
        :class:`~draughts.engine.egtb.BitbaseError` for a book or directory
        that is not one).
    :raises OSError: for a book file that cannot be read.
    """
    kind, _, argument = text.partition(":")
    if kind == "builtin":
        head, *pairs = argument.split(",")
        level = head.partition(":")[0]
        if level not in ("easy", "medium", "hard") or not re.fullmatch(r"\w+(:\d+)?", head):
            raise ValueError(f"{text!r}: builtin engines are builtin:easy, :medium or :hard")
        names = [pair.partition("=")[0] for pair in pairs]
        for pair, name in zip(pairs, names, strict=True):
            if name not in _BUILTIN_OPTIONS or "=" not in pair or names.count(name) > 1:
                raise ValueError(
                    f"{text!r}: {pair!r} is not an option of builtin engines "
                    "(book=BOOK and egtb=DIR, each once)"
                )
        _level, _seed, options = _builtin_options(argument)
        _book(options.get("book", "none"))
        egtb_option(options.get("egtb", "none"))
    elif kind == "hub":
        if not shlex.split(argument):
            raise ValueError(f"{text!r}: give the command after hub:, e.g. 'hub:./scan hub'")
    elif kind == "dxp":
        if not re.fullmatch(r".+:\d+", argument):
            raise ValueError(f"{text!r}: a DXP engine is dxp:HOST:PORT")
    else:
        raise ValueError(f"{text!r}: an engine is builtin:LEVEL, hub:COMMAND or dxp:HOST:PORT")
    return EngineSpec(kind, argument)


# -- Openings ------------------------------------------------------------------

_FEN_LINE = re.compile(r"\s*\"?[WB]:")


def load_openings(path: str | Path, variant: Variant | str | int = "international") -> list[Board]:
    """The openings of a file: a PDN file (each game's start position and
    main line) or a text file of FEN positions, one a line (blank lines and
    lines starting with ``#`` are skipped).

    :raises ValueError: naming the file, and the game or line, of a bad opening.
    :raises OSError: if the file cannot be read.
    """
    variant = find_variant(variant)
    text = Path(path).read_text(encoding="utf-8")
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1)]
    lines = [(n, line) for n, line in lines if line and not line.startswith("#")]
    if lines and all(_FEN_LINE.match(line) for _, line in lines):
        boards: list[Board] = []
        for number, line in lines:
            try:
                boards.append(Board(line.strip('"'), variant=variant))
            except ValueError as error:
                raise ValueError(f"{path}, line {number}: {error}") from None
        return boards
    return _pdn_openings(path, variant)


def _pdn_openings(path: str | Path, variant: Variant) -> list[Board]:
    boards: list[Board] = []
    with pdn.open_pdn(path) as handle:
        while (game := pdn.read_game(handle, variant=variant)) is not None:
            if game.errors:
                raise ValueError(f"{path}, game {len(boards) + 1}: {game.errors[0]}")
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)
            if board.outcome() is not None:
                raise ValueError(f"{path}, game {len(boards) + 1}: the opening ends the game")
            boards.append(board)
    if not boards:
        raise ValueError(f"{path}: no opening found (expected PDN games or FEN lines)")
    return boards


# -- Playing one game -----------------------------------------------------------


@attrs.frozen
class MatchGame:
    """One game of a match and how it ended."""

    index: int
    """The game's number in the match, from 0."""
    opening: int
    """The index of its opening."""
    white: str
    black: str
    result: str
    """The PDN result (``*`` when the game has none)."""
    termination: str
    """How it ended: a :class:`~draughts.outcome.Termination` value, or
    ``adjudication``, ``engine-error`` or ``abandoned``."""
    reason: str
    """The ending in words."""
    winner: Color | None
    plies: int
    game: pdn.Game
    """The record, with the opening's moves, headers and a closing comment."""
    thinking: tuple[tuple[tuple[float, int], ...], ...] = ((), ())
    """White's moves, then Black's (after the opening): per move, the
    seconds the engine took and the depth it reported (0 if none; DXP
    engines report none)."""

    @property
    def result_white_first(self) -> str:
        """:attr:`result` with White's score first, in the order the players
        are listed (``white``, then ``black``). A PDN result gives
        first the score of the side that moves first: where that is Black
        (English draughts), the two scores are swapped, so that an English
        ``1-0``, a win for Black, reads ``0-1``."""
        if self.game.variant.first_color == WHITE:
            return self.result
        first, dash, second = self.result.partition("-")
        return f"{second}{dash}{first}" if dash else self.result


def _material(board: Board, color: Color) -> float:
    king = 3.0 if board.variant.flying_kings else 1.5
    return len(board.pieces(MAN, color)) + king * len(board.pieces(KING, color))


@attrs.frozen
class _Ending:
    termination: str
    reason: str
    outcome: Outcome | None


def _adjudicate(
    board: Board, max_plies: int | None, margin: float | None, plies: int, ahead: list[int]
) -> _Ending | None:
    """A decision for a game the rules have not ended: a draw at
    ``max_plies``, or a win for the side ``margin`` men ahead for ``plies``
    plies in a row (counted in ``ahead``, one entry per ply)."""
    if margin is not None and not any(m.is_capture for m in board.legal_moves):
        difference = _material(board, WHITE) - _material(board, BLACK)
        ahead.append(1 if difference >= margin else -1 if difference <= -margin else 0)
        if len(ahead) >= plies and len(set(ahead[-plies:])) == 1 and ahead[-1]:
            winner = WHITE if ahead[-1] > 0 else BLACK
            return _Ending(
                "adjudication",
                f"adjudicated: {winner.name.lower()} {margin:g} men ahead for {plies} plies",
                board.outcome_on_resignation(BLACK if winner is WHITE else WHITE),
            )
    if max_plies is not None and len(board.move_stack) >= max_plies:
        return _Ending(
            "adjudication",
            f"adjudicated a draw at {max_plies} plies",
            board.outcome_by_agreement(),
        )
    return None


def play_game(
    white: Engine,
    black: Engine,
    board: Board,
    *,
    time_control: TimeControl | None = None,
    limit: Limit | None = None,
    max_plies: int | None = None,
    material_margin: float | None = None,
    material_plies: int = 10,
    thinking: dict[Color, list[tuple[float, int]]] | None = None,
    claim_draws: bool = True,
) -> tuple[Board, str, str, Outcome | None]:
    """Play ``board`` (a copy) to its end; returns the final board, the
    termination (see :attr:`MatchGame.termination`), the ending in words
    and the outcome (None without a result). Each move's seconds and
    reported depth are appended to the mover's list in ``thinking`` (see
    :attr:`MatchGame.thinking`).

    The rules decide first (:meth:`Board.outcome
    <draughts.Board.outcome>`), then the clock, then the adjudications.
    With ``claim_draws`` (the default) the player to move claims every
    draw the variant lets him claim (:meth:`Board.can_claim_draw
    <draughts.Board.can_claim_draw>`: the English repetition and 40-move
    rule, say) as soon as he may, so a game the rules let either side
    end as a draw is not played on. An engine that fails (an
    :class:`~draughts.engine.EngineError`, an illegal move) loses the game.
    """
    board = board.copy()
    clocks = {WHITE: 0.0, BLACK: 0.0}
    if time_control is not None:
        clocks = {WHITE: time_control.base, BLACK: time_control.base}
    ahead: list[int] = []
    engines = {WHITE: white, BLACK: black}
    while True:
        outcome = board.outcome()
        if outcome is not None:
            return board, outcome.termination.value, _words(outcome), outcome
        claimed = board.outcome(claim_draw=True) if claim_draws else None
        if claimed is not None:
            claim = f"draw claimed by {board.turn.name.lower()} ({_reason(claimed)})"
            return board, claimed.termination.value, claim, claimed
        decided = _adjudicate(board, max_plies, material_margin, material_plies, ahead)
        if decided is not None:
            return board, decided.termination, decided.reason, decided.outcome
        side = board.turn
        move_limit = limit
        if time_control is not None:
            budget = time_control.budget(clocks[side])
            base = limit or Limit()
            # The clock too, for engines that share their time out themselves
            # (the built-in one answers a forced move at once); ``time`` is for
            # those that only take a time per move.
            move_limit = Limit(
                time=budget,
                depth=base.depth,
                nodes=base.nodes,
                remaining=max(clocks[side], 0.001),
                increment=time_control.increment,
            )
        began = time.monotonic()
        try:
            played = engines[side].play(board, move_limit)
            move = played.move
        except DxpGameEnded as ended:
            outcome = ended.outcome(board, side)
            termination = outcome.termination.value if outcome else "abandoned"
            return board, termination, str(ended), outcome
        except EngineError as error:
            loss = board.outcome_on_resignation(side)
            return board, "engine-error", f"{side.name.lower()}'s engine failed: {error}", loss
        if thinking is not None:
            depth = played.analysis.depth if played.analysis is not None else None
            thinking[side].append((time.monotonic() - began, depth or 0))
        if time_control is not None:
            clocks[side] -= time.monotonic() - began
            if clocks[side] < 0:
                outcome = board.outcome_on_timeout(side)
                return board, "timeout", f"{side.name.lower()} ran out of time", outcome
            clocks[side] += time_control.increment
        if move not in board.legal_moves:
            loss = board.outcome_on_resignation(side)
            return board, "engine-error", f"{side.name.lower()} played an illegal move", loss
        board.push(move)


def _reason(outcome: Outcome) -> str:
    return outcome.termination.value.replace("-", " ")


def _words(outcome: Outcome) -> str:
    reason = _reason(outcome)
    if outcome.winner is None:
        return f"draw ({reason})"
    return f"{outcome.winner.name.lower()} wins ({reason})"


# -- The match -------------------------------------------------------------------


@attrs.frozen
class MatchResult:
    """What :func:`match` returns: the games in the order they were
    numbered, and the score of the first engine."""

    games: tuple[MatchGame, ...]
    score: MatchScore


@attrs.frozen
class _Settings:
    time_control: TimeControl | None
    limit: Limit | None
    max_plies: int | None
    material_margin: float | None
    material_plies: int
    event: str
    claim_draws: bool = True


@attrs.frozen
class _Job:
    index: int
    opening: int
    board: Board
    white: EngineSpec | EngineFactory
    black: EngineSpec | EngineFactory
    white_label: str
    black_label: str
    settings: _Settings


_reused: dict[EngineSpec, Engine] = {}  # DXP connections kept between games of one process


def _make(
    spec: EngineSpec | EngineFactory, time_control: TimeControl | None, variant: Variant
) -> Engine:
    if not isinstance(spec, EngineSpec):
        return spec()
    if spec.kind != "dxp":
        return spec.make(time_control, variant)
    # A DXP connection plays game after game; making one per game would ask
    # the follower to accept a new connection each time.
    if spec not in _reused:
        _reused[spec] = spec.make(time_control)
    return _reused[spec]


def _release(engine: Engine, board: Board, outcome: Outcome | None) -> None:
    if isinstance(engine, DxpEngine):
        engine.end_game(board, outcome)
    else:
        engine.quit()


def _play_job(job: _Job) -> MatchGame:
    settings = job.settings
    white = _make(job.white, settings.time_control, job.board.variant)
    try:
        black = _make(job.black, settings.time_control, job.board.variant)
    except BaseException:
        _release(white, job.board, None)
        raise
    board = job.board
    outcome: Outcome | None = None
    thinking: dict[Color, list[tuple[float, int]]] = {WHITE: [], BLACK: []}
    try:
        board, termination, reason, outcome = play_game(
            white,
            black,
            job.board,
            time_control=settings.time_control,
            limit=settings.limit,
            max_plies=settings.max_plies,
            material_margin=settings.material_margin,
            material_plies=settings.material_plies,
            thinking=thinking,
            claim_draws=settings.claim_draws,
        )
    finally:
        for engine in (white, black) if white is not black else (white,):
            # The game is over: a peer that fails to say goodbye changes nothing.
            with contextlib.suppress(EngineError):
                _release(engine, board, outcome)
    return _record(
        job, board, termination, reason, outcome, (tuple(thinking[WHITE]), tuple(thinking[BLACK]))
    )


def _record(
    job: _Job,
    board: Board,
    termination: str,
    reason: str,
    outcome: Outcome | None,
    thinking: tuple[tuple[tuple[float, int], ...], ...] = ((), ()),
) -> MatchGame:
    game = pdn.Game.from_board(board)
    headers = game.headers
    headers["Event"] = job.settings.event
    headers["Site"] = "draughts match"
    headers["Date"] = time.strftime("%Y.%m.%d")
    headers["Round"] = str(job.index + 1)
    headers["White"] = job.white_label
    headers["Black"] = job.black_label
    headers["Result"] = outcome.result() if outcome else "*"
    headers["Termination"] = termination
    if job.settings.time_control is not None:
        headers["TimeControl"] = str(job.settings.time_control)
    game.end().comment = reason
    return MatchGame(
        job.index,
        job.opening,
        job.white_label,
        job.black_label,
        headers["Result"],
        termination,
        reason,
        None if outcome is None else outcome.winner,
        len(board.move_stack),
        game,
        thinking,
    )


def _label(engine: str | EngineSpec | EngineFactory, fallback: str) -> str:
    if isinstance(engine, EngineSpec):
        return engine.label
    return fallback


def _jobs(
    a: EngineSpec | EngineFactory,
    b: EngineSpec | EngineFactory,
    labels: tuple[str, str],
    openings: Sequence[Board],
    games: int,
    settings: _Settings,
) -> Iterator[_Job]:
    for index in range(games):
        opening = (index // 2) % len(openings)
        if index % 2 == 0:
            yield _Job(index, opening, openings[opening], a, b, *labels, settings)
        else:
            yield _Job(index, opening, openings[opening], b, a, labels[1], labels[0], settings)


def match(
    engine_a: str | EngineSpec | EngineFactory,
    engine_b: str | EngineSpec | EngineFactory,
    *,
    variant: Variant | str | int = "international",
    games: int = 2,
    openings: str | Path | Sequence[Board] | None = None,
    time_control: str | TimeControl | None = None,
    limit: Limit | None = None,
    max_plies: int | None = None,
    material_margin: float | None = None,
    material_plies: int = 10,
    concurrency: int = 1,
    pdn_path: str | Path | None = None,
    event: str = "draughts match",
    on_game: Callable[[MatchGame, MatchScore], None] | None = None,
    claim_draws: bool = True,
) -> MatchResult:
    """Play ``games`` games between two engines and score them.

    Games go in pairs on each opening (a file for :func:`load_openings`, or
    boards; default: the variant's start position), ``engine_a`` white in
    the first game of a pair and black in the second. Each side has a clock
    (``time_control``, e.g. ``"60+1"``) or a fixed ``limit`` per move, or
    both (the clock's time with the limit's depth or nodes). A game ends
    when the rules end it or, with ``claim_draws`` (the default), as soon as
    the player to move may claim a draw (see :func:`play_game`). Games the
    rules do not end can be adjudicated: a draw after ``max_plies`` plies, or a win
    for the side ``material_margin`` men ahead (kings counted as the built-in
    engine counts them) for ``material_plies`` plies in a row.

    ``concurrency`` games are played at once, each in its own process with
    its own engines (a function given as an engine must then be picklable:
    defined at module level). Every game is appended to ``pdn_path`` as it
    ends, and passed to ``on_game`` with the score so far.

    :raises ValueError: for a bad engine description, time control or
        openings file.
    """
    specs = [engine_spec(e) if isinstance(e, str) else e for e in (engine_a, engine_b)]
    labels = (_label(specs[0], "engine A"), _label(specs[1], "engine B"))
    if labels[0] == labels[1]:
        labels = (labels[0] + " (A)", labels[1] + " (B)")
    if isinstance(time_control, str):
        time_control = TimeControl.parse(time_control)
    if openings is None:
        boards: Sequence[Board] = [Board(variant=variant)]
    elif isinstance(openings, str | Path):
        boards = load_openings(openings, variant)
    else:
        boards = openings
    if games < 1 or concurrency < 1:
        raise ValueError(f"games and concurrency must be at least 1, not {games}, {concurrency}")
    settings = _Settings(
        time_control, limit, max_plies, material_margin, material_plies, event, claim_draws
    )
    jobs = list(_jobs(specs[0], specs[1], labels, boards, games, settings))
    score = MatchScore(*labels)
    records: list[MatchGame] = []
    out = None if pdn_path is None else open(pdn_path, "w", encoding="utf-8")  # noqa: SIM115
    try:
        for record in _run(jobs, concurrency):
            records.append(record)
            a_won = (
                None
                if record.winner is None
                else (record.white == labels[0]) == (record.winner == WHITE)
            )
            score = score.add(a_won, finished=record.result != "*")
            if out is not None:
                out.write(str(record.game).rstrip("\n") + "\n\n")
                out.flush()
            if on_game is not None:
                on_game(record, score)
    finally:
        if out is not None:
            out.close()
        for engine in _reused.values():
            engine.quit()
        _reused.clear()
    return MatchResult(tuple(sorted(records, key=lambda r: r.index)), score)


def _run(jobs: list[_Job], concurrency: int) -> Iterator[MatchGame]:
    """The games' records in the order they finish."""
    if concurrency == 1:
        for job in jobs:
            yield _play_job(job)
        return
    # Separate processes: the built-in engine is pure Python, and threads
    # would share one interpreter lock. "spawn" starts clean processes,
    # without copies of this one's threads or sockets.
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(concurrency, mp_context=context) as pool:
        futures = [pool.submit(_play_job, job) for job in jobs]
        try:
            for future in concurrent.futures.as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                future.cancel()
