"""The engine that comes with the library: :class:`BuiltinEngine`, its
levels, and the conversion of a :class:`~draughts.Board` to the raw position
that :mod:`draughts.engine.search` searches.

Users import these names from :mod:`draughts.engine`.
"""

from __future__ import annotations

import math
import os
import random
import threading
import time
from collections.abc import Callable
from typing import Literal

import attrs

from draughts._context import context
from draughts._core import RawMove, Tables
from draughts.board import Board
from draughts.engine import native_search as _native_search
from draughts.engine import search as _search
from draughts.engine.base import Analysis, Engine, Limit, PlayResult, Score, require_moves
from draughts.engine.book import Book
from draughts.engine.draw_table import _draw_table
from draughts.engine.egtb import Bitbases, Probe, Wdl, load_shared
from draughts.engine.search import Position, Searcher, StopSignal
from draughts.move import Move
from draughts.outcome import Goal
from draughts.piece import KING
from draughts.variant import Variant

__all__ = ["BuiltinEngine", "Level", "builtin"]

Level = Literal["easy", "medium", "hard"]


@attrs.frozen
class _LevelSettings:
    depth: int  # the deepest search unless the limit gives a depth
    min_depth: int  # depth completed even if time or nodes run out first
    full_width: int  # iterations up to this depth reduce no move
    time: float | None  # default seconds when the limit gives nothing
    mistake: float  # probability of playing another move than the best
    threats: int  # threatened quiet positions a line answers in quiescence
    keep: bool = False  # the search's table kept from one move to the next
    threads: int = 1  # threads the native search runs on (Searcher.threads)


_LEVELS: dict[str, _LevelSettings] = {
    "easy": _LevelSettings(depth=2, min_depth=1, full_width=2, time=None, mistake=0.3, threats=1),
    "medium": _LevelSettings(depth=4, min_depth=2, full_width=4, time=None, mistake=0.0, threats=1),
    # hard reduces from ply 3 on, as selective as Moby Dam's search, and
    # answers no threat in quiescence (it looks deeper instead): see
    # docs/engine_strength.rst for the matches that chose both.
    "hard": _LevelSettings(
        depth=64, min_depth=6, full_width=2, time=1.0, mistake=0.0, threats=0, keep=True
    ),
}


class BuiltinEngine(Engine):
    """The engine that comes with the library: iterative-deepening
    alpha-beta over the rules of any :class:`~draughts.Variant`.

    It searches with a transposition table keyed by the Zobrist key, killer
    and history move ordering, late move reductions beyond the level's
    full-width depth, forced moves without using up depth, and every capture
    sequence followed to its end (and, at the easy and medium levels, a
    threat at the horizon answered) before a position is judged. The
    evaluation (in hundredths of a man) is that of
    :mod:`draughts.engine.evaluation`: material, tempo, centre, back rank,
    mobility, formation, outposts, runaway men, breakthroughs and kings' mobility,
    weighted per board family. A side without a legal move has lost, as the
    variant's :class:`~draughts.outcome.Goal` says: in antidraughts it has
    won (and the evaluation is negated), in breakthrough the first king also
    wins. A repetition of the game or of the line is a draw, and so are the
    variant's no-progress count and its drawn endings; the Frisian limit on
    king moves is followed at the root only.

    Levels (see :func:`builtin`):

    - ``easy``: 2 plies, and 30 % of its moves are another legal move chosen
      at random (from the engine's seeded random generator, so a game
      against it can be replayed).
    - ``medium``: 4 plies, every move searched to the full depth, always the
      best move it found.
    - ``hard``: iterative deepening for 1 second (or the given limit), but
      never fewer than 6 plies (the first 2 searched in full, the rest
      selectively: late quiet moves reduced, and cut where a search of half
      the depth shows them far better than needed). It answers no threat
      at the horizon: the plies that saves go deeper. It keeps its
      transposition table from one move to the next (see
      ``Searcher.renew()``).
      Under a clock (``Limit(remaining=..., increment=...)``) it takes a
      share of the remaining time, and the 6 plies are no longer a minimum:
      on a slow machine or a short clock they can take longer than the
      clock has, and losing on time is worse than a shallower search.

    With a ``book`` (a :class:`~draughts.engine.book.Book`, or the path of
    a book file), :meth:`play` plays a book move, drawn with the engine's
    seeded random generator weighted by how often it was played and how it
    scored, whenever the position is in the book, and searches only
    outside it (:meth:`analyse` always searches). ``book=None``, the
    default, plays without one; :func:`~draughts.engine.book.default_book`
    is the book that comes with the library.

    With ``egtb`` (:class:`~draughts.engine.egtb.Bitbases`, or a directory
    of bitbase files written by ``draughts egtb build``), a position the
    bitbases cover is played by them: only the moves that keep its value
    (a win won, a draw drawn) are searched, the search choosing among them.
    Above them, a move into a covered won position is played if there is
    one, moves into covered lost positions are left out, and the search
    (native or pure alike) takes the exact value of every position of its
    tree the bitbases cover, a win scoring more the nearer it is. Endings
    that a counting draw rule of the variant governs (the 16- and 5-move
    rules of international draughts) are left to the search: the bitbases
    know no counts.

    An explicit ``Limit(depth=...)`` replaces the level's depth.
    ``table_entries`` sets the transposition table's size in entries,
    rounded down to a power of two (default
    ``draughts.engine.search.TABLE_ENTRIES``, 2**18: 8 MB in C, about
    30 MB in pure Python); the table keeps that size, each new position
    taking an old one's place. Without it, the table ``hard`` keeps from
    move to move in C grows with the time a move may take: 2**18 entries
    up to about 0.1 s a move, 2**20 (32 MB) from 0.25 s, 2**22 (128 MB)
    from 1 s, since a longer search fills a small table and then searches
    again what it pushed out (to depth 17, 2**22 entries took 0.64 times
    the CPU time of 2**18).

    :meth:`play` and :meth:`analyse` also take ``info``, called with an
    :class:`Analysis` as each depth is complete, and ``stop``, a
    :class:`~draughts.engine.search.StopSignal` that another thread sets to
    end the search early (once its first depth is complete) with the best
    move found so far.

    ``threads`` (default 1) is the number of threads the native search
    runs on: with 2 or more, helper threads search the same position beside
    the main search, sharing its transposition table (Lazy SMP, as Scan's
    ``threads`` setting), so that it gets deeper in the same time. The move
    played is the main search's; which one it is can change from one run to
    the next, as the threads' timing does. A node limit counts every
    thread's nodes. The pure core (``DRAUGHTS_PURE=1``, or no C compiler)
    accepts ``threads`` and searches on one thread.

    A ``strict`` engine keeps to the limit's time and nodes even before the
    level's least depth is complete, within the first ply too: a server
    that must answer in time (the web board) uses it. When the first ply is
    cut short it plays the best root move searched so far, or, if none was
    finished, the move whose position evaluates best (depth 0).

    >>> import draughts
    >>> engine = BuiltinEngine("hard")
    >>> board = draughts.Board("B:W18:B14,K1", variant="english")
    >>> engine.play(board, Limit(depth=6)).move
    Move(14, 23, captures=(18,), path=(14, 23))
    >>> BuiltinEngine("hard", threads=2).play(board, Limit(depth=6)).move
    Move(14, 23, captures=(18,), path=(14, 23))
    """

    def __init__(
        self,
        level: Level = "hard",
        *,
        seed: int = 0,
        table_entries: int | None = None,
        strict: bool = False,
        book: Book | str | os.PathLike[str] | None = None,
        egtb: Bitbases | str | os.PathLike[str] | None = None,
        threads: int | None = None,
    ) -> None:
        if level not in _LEVELS:
            raise ValueError(f"unknown engine level {level!r}: choose one of {', '.join(_LEVELS)}")
        if table_entries is not None and not 1 <= table_entries <= 10**8:
            raise ValueError(f"table_entries must be from 1 to 10**8, not {table_entries!r}")
        if threads is not None and not (
            isinstance(threads, int) and 1 <= threads <= _search.MAX_THREADS
        ):
            raise ValueError(f"threads must be from 1 to {_search.MAX_THREADS}, not {threads!r}")
        self._threads = threads
        self.level: Level = level
        """The playing strength."""
        self._settings = _LEVELS[level]
        self._random = random.Random(seed)
        self._table_entries = table_entries
        self.strict = strict
        """Whether the limit's time and nodes hold even before the least depth."""
        self.book: Book | None = book if book is None or isinstance(book, Book) else Book.load(book)
        """The opening book :meth:`play` plays from, if any."""
        self._egtb = egtb
        self._bitbases: dict[Variant, Bitbases | None] = {}
        # The last search per variant, whose table the next one starts
        # from (the level's keep), and a lock so that two threads playing
        # with one engine at once do not share it (the second makes its own).
        self._kept: dict[Variant, Searcher] = {}
        self._kept_lock = threading.Lock()

    @property
    def name(self) -> str:
        return f"draughts built-in ({self.level})"

    def analyse(
        self,
        board: Board,
        limit: Limit | None = None,
        *,
        info: Callable[[Analysis], None] | None = None,
        stop: _search.StopSignal | None = None,
    ) -> Analysis:
        require_moves(board)
        analysis, _root = self._search(board, limit, info, stop)
        return analysis

    def play(
        self,
        board: Board,
        limit: Limit | None = None,
        *,
        info: Callable[[Analysis], None] | None = None,
        stop: _search.StopSignal | None = None,
    ) -> PlayResult:
        require_moves(board)
        if self.book is not None:
            booked = self.book.choose(board, self._random)
            if booked is not None:
                return PlayResult(booked, None, Analysis(None, 0, (booked,), 0, 0.0))
        analysis, root = self._search(board, limit, info, stop)
        move = analysis.pv[0]
        if (
            self._settings.mistake
            and len(root) > 1
            and (self._random.random() < self._settings.mistake)
        ):
            others = [m for m in root if m != move]
            move = others[self._random.randrange(len(others))]
            return PlayResult(move, None, analysis)
        return PlayResult(move, analysis.pv[1] if len(analysis.pv) > 1 else None, analysis)

    def _search(
        self,
        board: Board,
        limit: Limit | None,
        info: Callable[[Analysis], None] | None = None,
        stop: _search.StopSignal | None = None,
    ) -> tuple[Analysis, list[Move]]:
        settings = self._settings
        if limit is None or limit == Limit():
            limit = Limit(time=settings.time, depth=None if settings.time else settings.depth)
        start = time.monotonic()
        seconds = _budget(limit, board.legal_moves.count())
        game_keys = _reversible_keys(board)
        deadline = None if seconds is None else start + seconds
        bases = self._bitbases_of(board.variant)
        held = settings.keep and bases is None and self._kept_lock.acquire(blocking=False)
        try:
            searcher = self._searcher(board, held, deadline, limit.nodes, game_keys)
            return self._run(searcher, board, limit, bases, seconds, start, game_keys, info, stop)
        finally:
            if held:
                self._kept_lock.release()

    def _searcher(
        self,
        board: Board,
        keep: bool,
        deadline: float | None,
        max_nodes: int | None,
        game_keys: list[int],
    ) -> Searcher:
        """A search for ``board``: with ``keep``, the last one for its
        variant renewed (so its table is kept), else a new one."""
        searcher = self._kept.get(board.variant) if keep else None
        if searcher is not None:
            searcher.renew(deadline=deadline, max_nodes=max_nodes, game_keys=game_keys)
            return searcher
        ctx = context(board.variant)
        searcher = _native_search.searcher(
            ctx.core, ctx.keys, deadline=deadline, max_nodes=max_nodes, game_keys=game_keys
        )
        if keep:
            self._kept = {board.variant: searcher}
        return searcher

    def _run(
        self,
        searcher: Searcher,
        board: Board,
        limit: Limit,
        bases: Bitbases | None,
        seconds: float | None,
        start: float,
        game_keys: list[int],
        info: Callable[[Analysis], None] | None,
        stop: StopSignal | None,
    ) -> tuple[Analysis, list[Move]]:
        """:meth:`_search` with its searcher made."""
        settings = self._settings
        t = searcher.t
        pos = _search.raw_position(board, t)
        if bases is not None:
            searcher = self._with_bitbases(searcher, bases, pos)
        if self._table_entries is not None:
            searcher.table_entries = self._table_entries
        elif searcher is self._kept.get(board.variant) and isinstance(
            searcher, _native_search.NativeSearcher
        ):
            searcher.table_entries = max(searcher.table_entries, _kept_table_entries(seconds))
        searcher.threat_budget = searcher.threat_extensions = settings.threats
        searcher.threads = self._threads or settings.threads
        max_depth = limit.depth if limit.depth is not None else settings.depth
        root = list(board.legal_moves)
        raw_root = searcher.root if searcher.root is not None else _search.legal(t, pos)
        if len(_search.legal(t, pos)) != len(root):
            allowed = set(root)
            searcher.root = [
                r for r, m in zip(raw_root, _moves(t, raw_root), strict=True) if m in allowed
            ] or None
        # Under a clock the clock rules: no depth is worth a loss on time.
        min_depth = 1 if limit.remaining is not None else settings.min_depth

        def report(depth: int, score: int, raw_pv: list[RawMove]) -> None:
            assert info is not None
            spent = time.monotonic() - start
            info(Analysis(_score(score), depth, tuple(_moves(t, raw_pv)), searcher.nodes, spent))

        if stop is not None:
            stop.watch(searcher)
        try:
            depth, score, raw_pv = searcher.iterate(
                pos,
                max_depth,
                0 if self.strict else min(min_depth, max_depth),
                report=None if info is None else report,
                reversible=len(game_keys) - 1,
                full_width=min(settings.full_width, max_depth),
                soft_deadline=_soft_deadline(start, seconds, limit),
            )
        except _search.LimitReached:  # only a strict engine, within the first ply
            depth, score, raw_pv = 0, *_first_ply_so_far(searcher, pos, t)
        finally:
            if stop is not None:
                stop.forget(searcher)
        pv = _moves(t, raw_pv)
        if not pv or pv[0] not in root:
            # Only when the game was already decided at the root (a king on
            # the board in breakthrough): any legal move will do.
            pv = [root[0]]
        analysis = Analysis(
            _score(score), depth, tuple(pv), searcher.nodes, time.monotonic() - start
        )
        return analysis, root

    def _bitbases_of(self, variant: Variant) -> Bitbases | None:
        """The engine's bitbases for ``variant`` (read from its directory
        the first time), None if it has none."""
        egtb = self._egtb
        if egtb is None or variant.goal is not Goal.STANDARD:
            return None
        if isinstance(egtb, Bitbases):
            return egtb if egtb.variant == variant else None
        if variant not in self._bitbases:
            self._bitbases[variant] = load_shared(egtb, variant)
        return self._bitbases[variant]

    def _with_bitbases(self, searcher: Searcher, bases: Bitbases, pos: Position) -> Searcher:
        """``searcher`` set to use the bitbases on ``pos``. At the root the
        moves are chosen by what the bitbases say of the positions they
        lead to: inside the bitbases, only the moves that keep the value;
        above them, only the moves into a covered won position if there
        are any, else none into a covered lost one, and the search probes
        every covered position of its tree. Inside the bitbases nothing is
        probed below the root, so that the evaluation and the search of the
        game's end make progress among the moves that keep a win. The
        materials a counting draw rule governs are never probed: the
        bitbases know no counts."""
        draws = _draw_table(bases.variant)
        # DrawTable's materials are (white kings, white men, black kings, black men).
        probe = bases.prober([(wm, wk, bm, bk) for wk, wm, bk, bm in draws.endings])
        moves = _search.legal(searcher.t, pos)
        # Each move's value for the side to move, from the position it leads to.
        values = [_value_after(probe, pos, move) for move in moves]
        inside = (pos[1] | pos[2] | pos[3] | pos[4]).bit_count() <= bases.pieces
        if inside and probe(pos) is not None and None not in values:
            best = max(v for v in values if v is not None)
            searcher.root = [m for m, v in zip(moves, values, strict=True) if v == best]
            return searcher
        if Wdl.WIN in values:
            searcher.root = [m for m, v in zip(moves, values, strict=True) if v == Wdl.WIN]
        elif Wdl.LOSS in values and any(v != Wdl.LOSS for v in values):
            searcher.root = [m for m, v in zip(moves, values, strict=True) if v != Wdl.LOSS]
        searcher.use_bitbases(probe)
        return searcher


def _value_after(probe: Probe, pos: Position, move: RawMove) -> int | None:
    """The value of ``move`` for the side that plays it, from the bitbases'
    value of the position it leads to (a capture of the last piece wins)."""
    child = _search.play(pos, move)
    if not (child[2] | child[4] if child[0] else child[1] | child[3]):
        return Wdl.WIN
    value = probe(child)
    return None if value is None else -value


# Against the engine without it, clock 6 s + 0.05 s a move: 9 wins, 5 draws,
# 6 losses in 20 games (+53 +/- 141 Elo; docs/engine_strength.rst).
_SOFT_SHARE = 0.5


# The most entries (128 MB) of the table hard keeps in C: see _kept_table_entries.
_KEPT_TABLE_ENTRIES = 2**22


def _kept_table_entries(seconds: float | None) -> int:
    """The entries of the table ``hard`` keeps in C for a move of ``seconds``:
    ``_KEPT_TABLE_ENTRIES`` for each second, rounded down to a power of
    two, from ``draughts.engine.search.TABLE_ENTRIES`` (a move of about
    0.1 s or less, or a search to a given depth) to ``_KEPT_TABLE_ENTRIES``
    (1 s or more; 128 MB).

    Why: a second's search visits some ten million nodes, forty times the
    2**18 entries of the default table, whose entries then give way before
    they are used again. The same 24 searches (6 moves played from each of
    4 positions of ``benchmarks/positions.json``, one searcher renewed
    between moves, as ``hard`` plays) took, with 2**22 entries rather than
    2**18, 0.84 times the CPU time to depth 15 and 0.64 times to depth 17
    (0.79 and 0.57 times the nodes; a node cost 2 to 11 % more, its table
    read further from the cache); 2**20 entries took 0.88 and 0.79 times.
    The pure search keeps the default: its entries take about 120 bytes.

    >>> _kept_table_entries(1.0) == _KEPT_TABLE_ENTRIES
    True
    >>> _kept_table_entries(0.3) == 2**20
    True
    """
    if seconds is None:
        return _search.TABLE_ENTRIES
    wanted = int(min(seconds, 1.0) * _KEPT_TABLE_ENTRIES)
    if wanted <= _search.TABLE_ENTRIES:
        return _search.TABLE_ENTRIES
    return 1 << (wanted.bit_length() - 1)


def _budget(limit: Limit, legal: int) -> float | None:
    """The seconds to search: the limit's ``time``, or under a clock a share
    of the remaining time (as if 25 more moves had to be made in it) plus
    most of the increment, never more than a third of what is left; a
    forced move is answered at once."""
    if limit.remaining is None:
        return limit.time
    if legal == 1:
        return 0.0
    increment = limit.increment or 0.0
    share = min(limit.remaining / 25 + 0.8 * increment, limit.remaining / 3)
    return share if limit.time is None else min(share, limit.time)


def _soft_deadline(start: float, seconds: float | None, limit: Limit) -> float | None:
    """Under a clock, the instant after which no new depth starts: a depth
    takes about as long as all the ones before it together, so one started
    after :data:`_SOFT_SHARE` of the move's budget would most likely be cut
    off, its time lost to the moves still to come."""
    if seconds is None or limit.remaining is None:
        return None
    return start + _SOFT_SHARE * seconds


def _first_ply_so_far(
    searcher: _search.Searcher, pos: _search.Position, t: Tables
) -> tuple[int, list[RawMove]]:
    """The score and move of a first ply cut short by the limit: its best
    move searched so far, else the move whose position (unsearched: forty
    flying kings can make one ply of captures millions of positions long)
    evaluates best for the side to move."""
    if searcher.partial is not None:
        score, move = searcher.partial
        return score, [move]
    moves = searcher.root if searcher.root is not None else _search.legal(t, pos)

    def value(move: RawMove) -> int:
        after = _search.play(pos, move)
        # The score for the side that moves next, negated: the mover's.
        return -searcher.sign * searcher.e.score(*after)

    best = max(moves, key=value)
    return value(best), [best]


def _reversible_keys(board: Board) -> list[int]:
    """The position keys of ``board``'s game since its last man move or
    capture, oldest first, its current position last (what a repetition can
    return to)."""
    keys = [board.position_key]
    if not board.move_stack:
        return keys
    past = board.copy()
    while past.move_stack:
        move = past.pop()
        piece = past.piece_at(move.from_square)
        if move.captures or piece is None or piece.kind != KING:
            break
        keys.append(past.position_key)
    keys.reverse()
    return keys


def builtin(
    level: Level = "hard",
    *,
    seed: int = 0,
    strict: bool = False,
    book: Book | str | os.PathLike[str] | None = None,
    egtb: Bitbases | str | os.PathLike[str] | None = None,
    threads: int | None = None,
) -> BuiltinEngine:
    """The built-in engine at ``level`` (``"easy"``, ``"medium"`` or
    ``"hard"``); ``seed`` fixes the easy level's mistakes and the choice of
    book moves; a ``strict`` engine keeps to the limit's time before the
    level's least depth; ``book`` is an opening book or its path, ``egtb``
    endgame bitbases or their directory; ``threads`` the threads the native
    search runs on (1 unless given; see :class:`BuiltinEngine`).

    >>> builtin("easy", seed=3).name
    'draughts built-in (easy)'
    >>> builtin("hard", threads=2).name
    'draughts built-in (hard)'

    :raises ValueError: for an unknown level, ``threads`` out of range (1 to
        64), or a book file that is not one
        (:class:`~draughts.engine.book.BookError`).
    :raises OSError: if the book file cannot be read.

    A bitbase file that is not one raises
    :class:`~draughts.engine.egtb.BitbaseError` when the engine first reads
    it (at its first move in that variant).
    """
    return BuiltinEngine(level, seed=seed, strict=strict, book=book, egtb=egtb, threads=threads)


def _moves(t: Tables, raw: list[RawMove]) -> list[Move]:
    return [t.moves.move(r) for r in raw]


def _score(value: int) -> Score:
    if value > _search.WON:
        return Score(math.inf, _search.WIN - value)
    if value < -_search.WON:
        return Score(-math.inf, -(_search.WIN + value))
    return Score(value / 100)
