"""Validation of PDN files: every game checked, with a typed report for each
and a summary, the variant of each game decided with its whole file in view.

>>> import os, tempfile
>>> from draughts.pdn import validate
>>> path = os.path.join(tempfile.mkdtemp(), "games.pdn")
>>> _ = open(path, "w").write('[GameType "21"]\\n1. 11-15 23-19 *\\n\\n1. 9-14 22-17 2. 11-15 *\\n')
>>> validation = validate(path)
>>> [(r.number, r.variant, r.decided_by, r.plies, len(r.errors)) for r in validation]
[(1, 'english', 'tag', 2, 0), (2, 'english', 'file', 3, 0)]
>>> summary = validation.summary()
>>> summary.games, summary.ok, summary.files[0].variants
(2, True, (('english', 2),))

How each game's variant is decided (:attr:`GameReport.decided_by`):

``"tag"``
    its ``GameType`` or ``Variant`` tag names it;
``"caller"``
    no tag names one, and ``variant=`` was given;
``"moves"``
    no tag, no ``variant=``: the evidence of the game (its squares, its FEN
    tag, which variants replay its moves) leaves one variant
    (:func:`draughts.pdn.infer.choose`);
``"file"``
    the evidence leaves several variants, and the decided games of its file
    (by tag or by their moves) chose one of them: the one most of them chose
    among the games with its ``Event`` tag, else in the whole file;
``"guess"``
    the evidence leaves several, and the file decided none of them: the one
    the evidence ranks first (the commoner variant on a tie).

A file is read in two passes: a survey that collects what decides each
game's variant (its tags, or the inference's :class:`~draughts.pdn.infer.Choice`,
never the moves' errors), then the check of every game as the variant
settled for it. The survey of a piece of a file depends on that piece alone,
and the settling on the whole file's survey in file order, so the reports
are the same whether a file is read in one piece or many, in this process,
in worker processes (``jobs``) or on a Dask cluster (:mod:`draughts.dask`).
"""

from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import io
import itertools
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import IO, Any, Literal

import attrs

from draughts.board import Board
from draughts.move import Move
from draughts.pdn.headers import SKIP, BaseVisitor, PdnError, SkipType, variant_of_tags
from draughts.pdn.infer import CANDIDATES, Choice
from draughts.pdn.offsets import (
    _Chunk,
    _chunk_starts,
    _chunks,
    _open_binary,
    _open_chunk,
    scan_starts,
)
from draughts.pdn.reader import read
from draughts.variant import Variant, find_variant

__all__ = [
    "DecidedBy",
    "FileSummary",
    "GameReport",
    "Seen",
    "Summary",
    "Validation",
    "Verdict",
    "settle",
    "survey",
    "variants_of",
]

DecidedBy = Literal["tag", "caller", "moves", "file", "guess"]
"""How a game's variant was decided (see the module's documentation)."""

NOT_SET_UP = ""
"""The variant of a game whose board could not be set up (an unknown
``GameType``, a bad ``FEN``)."""


@attrs.frozen
class GameReport:
    """What checking one game found.

    >>> report = GameReport("a.pdn", 3, 120, 9, "czech", "file", "read as czech (...)", 41)
    >>> report.ok, report.guessed
    (True, True)
    """

    file: str
    """The file, as given (``-`` for standard input)."""
    number: int
    """The game's place in its file, from 1."""
    offset: int
    """The byte where the game starts (see :func:`draughts.pdn.scan_starts`)."""
    line: int
    """The line it starts on, from 1."""
    variant: str
    """The name of the variant its moves were checked under (:data:`NOT_SET_UP`
    when its board could not be set up)."""
    decided_by: DecidedBy
    """How that variant was decided."""
    reason: str | None
    """Why, in words, when no tag and no caller named it: the evidence, and
    for ``"file"`` the file's games that decided it."""
    plies: int
    """The legal moves read, side lines included."""
    errors: tuple[PdnError, ...] = ()
    warnings: tuple[PdnError, ...] = ()
    """Its warnings (the PDN 3.0 violations the reader tolerates)."""

    @property
    def ok(self) -> bool:
        """Whether the game has no error."""
        return not self.errors

    @property
    def guessed(self) -> bool:
        """Whether its moves leave its variant open (it was settled by its
        file, or guessed)."""
        return self.decided_by in ("file", "guess")


@attrs.frozen
class FileSummary:
    """What checking one file found, its games added up.

    >>> FileSummary("a.pdn", 2, 80, 0, (), (("english", 2),), (("moves", 2),)).ok
    True
    """

    file: str
    games: int
    plies: int
    """The legal moves of all its games, side lines included."""
    games_with_errors: int
    errors_by_kind: tuple[tuple[str, int], ...]
    """``(kind, games with an error of that kind)``, by kind."""
    variants: tuple[tuple[str, int], ...]
    """``(variant, games read as it)``, by name."""
    decided_by: tuple[tuple[str, int], ...]
    """``(how, games whose variant was decided so)``, by how."""
    pdn3_violations: tuple[PdnError, ...] | None = None
    """In strict mode, its PDN 3.0 violations (those of
    :func:`draughts.pdn.check_strict`, then the reader's warnings); else None."""

    @property
    def ok(self) -> bool:
        """Whether no game has an error (and, in strict mode, no violation)."""
        return not (self.games_with_errors or self.pdn3_violations)


@attrs.frozen
class Summary:
    """What checking all the files found.

    >>> summary = Summary((FileSummary("a.pdn", 2, 80, 1, (("illegal", 1),), (), ()),))
    >>> summary.games, summary.games_with_errors, summary.ok
    (2, 1, False)
    """

    files: tuple[FileSummary, ...]

    @property
    def games(self) -> int:
        return sum(f.games for f in self.files)

    @property
    def plies(self) -> int:
        return sum(f.plies for f in self.files)

    @property
    def games_with_errors(self) -> int:
        return sum(f.games_with_errors for f in self.files)

    @property
    def errors_by_kind(self) -> tuple[tuple[str, int], ...]:
        """``(kind, games with an error of that kind)`` over all files, by kind."""
        kinds: Counter[str] = Counter()
        for summary in self.files:
            kinds.update(dict(summary.errors_by_kind))
        return tuple(sorted(kinds.items()))

    @property
    def pdn3_violations(self) -> int | None:
        """In strict mode, the PDN 3.0 violations of all the files; else None."""
        found = [f.pdn3_violations for f in self.files if f.pdn3_violations is not None]
        return sum(len(v) for v in found) if found else None

    @property
    def ok(self) -> bool:
        return all(f.ok for f in self.files)


# -- The survey: what decides each game's variant -----------------------------------


@attrs.frozen
class Seen:
    """What the survey found of one game: its ``Event`` tag, and either the
    variant its tags name or the inference's choice (None: the variant was
    given, nothing was surveyed)."""

    event: str | None
    named: str | None
    """The variant its tags name (``""`` for one the library does not know),
    None if they name none."""
    choice: tuple[str, tuple[str, ...], str] | None = None
    """The inference's choice: the variant, the others the moves leave, the
    reason; None for a game whose tags name its variant."""


class _Chosen(Exception):
    """Ends the survey of a game once its variant is chosen: its moves are
    read in the check, as the variant settled for it."""


class _Surveyor(BaseVisitor[Seen]):
    """Reads a game's tags; for a game whose tags name no variant, stops
    the reader once the inference has chosen one (the reader has read the
    game's movetext ahead: the handle is at the next game)."""

    def begin_game(self) -> None:
        self.event: str | None = None
        self.tags: dict[str, str] = {}
        self.named: str | None = None
        self.choice: Choice | None = None

    def visit_header(self, name: str, value: str) -> None:
        if name == "Event" and self.event is None:
            self.event = value
        elif name in ("GameType", "Variant"):
            self.tags.setdefault(name, value)

    def end_headers(self) -> SkipType | None:
        tags = self.tags
        if not any(value.strip() for value in tags.values()):
            return None  # the reader infers the variant: see visit_choice
        try:
            self.named = variant_of_tags(tags.get("GameType"), tags.get("Variant"), None).name
        except ValueError:
            self.named = ""
        return SKIP

    def visit_choice(self, choice: Choice) -> None:
        self.choice = choice
        raise _Chosen

    def result(self) -> Seen:
        return Seen(self.event, self.named)


def survey(handle: IO[str], count: int | None = None) -> list[Seen]:
    """What decides the variant of each of the next ``count`` games of
    ``handle`` (all if None), without checking their moves.

    >>> import io
    >>> text = '[GameType "21"]\\n1. 11-15 *\\n[Event "E"]\\n1. 32-28 19-23 *\\n'
    >>> [(s.event, s.named, s.choice and s.choice[0]) for s in survey(io.StringIO(text))]
    [(None, 'english', None), ('E', None, 'international')]
    """
    seen: list[Seen] = []
    surveyor = _Surveyor()
    while count is None or len(seen) < count:
        try:
            found: Seen | None = read(handle, surveyor, None)
        except _Chosen:
            choice = surveyor.choice
            assert choice is not None
            alike = tuple(v.name for v in choice.alike)
            found = Seen(surveyor.event, None, (choice.variant.name, alike, choice.reason))
        if found is None:
            break
        seen.append(found)
    return seen


# -- Settling: the file decides what the moves cannot -----------------------------


@attrs.frozen
class Verdict:
    """The variant a game is to be checked as, and how it was decided
    (``variant`` None: as its tags name it)."""

    variant: str | None
    decided_by: DecidedBy
    reason: str | None = None


_RANK = {variant.name: place for place, variant in enumerate(CANDIDATES)}


def _most(counts: Counter[str]) -> tuple[str, int]:
    """The variant most games chose, the commoner on a tie."""
    return min(counts.items(), key=lambda item: (-item[1], _RANK.get(item[0], 99), item[0]))


def settle(seen: Sequence[Seen], variant: str | None = None) -> list[Verdict]:
    """The verdict of each game of a file from its survey: a game whose
    tags or moves decide its variant keeps it; a game its moves leave open
    takes, of the variants they leave, the one most decided games with its
    ``Event`` tag chose, else the one most decided games of the file chose,
    else the one the evidence ranks first (a guess).

    >>> czech = Seen("E", None, ("czech", (), "read as czech (...)"))
    >>> open_ = Seen("E", None, ("russian", ("czech",), "read as russian (...; a guess: ...)"))
    >>> [(v.variant, v.decided_by) for v in settle([czech, open_])]
    [('czech', 'moves'), ('czech', 'file')]
    >>> [(v.variant, v.decided_by) for v in settle([open_])]
    [('russian', 'guess')]
    """
    if variant is not None:
        return [Verdict(None if s.named is not None else variant, "caller") for s in seen]
    by_event: dict[str | None, Counter[str]] = {}
    in_file: Counter[str] = Counter()
    for s in seen:
        decided = s.named if s.choice is None else (s.choice[0] if not s.choice[1] else None)
        if decided:
            by_event.setdefault(s.event, Counter())[decided] += 1
            in_file[decided] += 1
    return [_verdict(s, by_event.get(s.event, Counter()), in_file) for s in seen]


def variants_of(path: str, variant: Variant | str | int | None = None) -> Iterator[str | None]:
    """The variant to read each game of the file ``path`` as, in order,
    decided as :func:`draughts.pdn.validate` decides it (None: as its tags
    name it); what ``draughts convert`` and the index read games with.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "a.pdn")
    >>> _ = open(path, "w").write('[GameType "21"] 1. 11-15 *\\n1. 32-28 19-23 *\\n')
    >>> list(variants_of(path)), list(variants_of(path, "russian"))
    ([None, 'international'], [None, 'russian'])
    """
    name = variant_name(variant)
    for verdict in settle(survey_piece(path, None), name):
        yield verdict.variant


def _verdict(seen: Seen, event: Counter[str], in_file: Counter[str]) -> Verdict:
    if seen.choice is None:
        return Verdict(None, "tag")
    chosen, alike, reason = seen.choice
    if not alike:
        return Verdict(chosen, "moves", reason)
    fits = (chosen, *alike)
    for counts, where in ((event, "with its Event tag"), (in_file, "of its file")):
        found = Counter({name: counts[name] for name in fits if counts[name]})
        if found:
            best, games = _most(found)
            others = ", ".join(name for name in fits if name != best)
            because = (
                f"read as {best} ({games} other game{'s' if games != 1 else ''} {where} "
                f"{'were' if games != 1 else 'was'} {best} by their tags or moves; "
                f"its moves fit {others} too)"
            )
            return Verdict(best, "file", because)
    return Verdict(chosen, "guess", reason)


# -- The check: every game read as its verdict says --------------------------------


class _Checker(BaseVisitor[tuple[str, int, list[PdnError], list[PdnError]]]):
    """Counts a game's moves (side lines too) and keeps its variant,
    errors and warnings, without building a tree."""

    def begin_game(self) -> None:
        self.variant = NOT_SET_UP
        self.tagged = False  # a GameType or Variant tag names the variant
        self.plies = 0
        self.errors: list[PdnError] = []
        self.warnings: list[PdnError] = []

    def visit_header(self, name: str, value: str) -> None:
        if name in ("GameType", "Variant") and value.strip():
            self.tagged = True

    def visit_board(self, board: Board) -> None:
        self.variant = board.variant.name

    def visit_move(self, board: Board, move: Move) -> None:
        self.plies += 1

    def handle_error(self, error: PdnError) -> None:
        self.errors.append(error)

    def handle_warning(self, warning: PdnError) -> None:
        self.warnings.append(warning)

    def result(self) -> tuple[str, int, list[PdnError], list[PdnError]]:
        return self.variant, self.plies, self.errors, self.warnings


def check(
    handle: IO[str],
    file: str,
    starts: Iterable[tuple[int, int, int]],
    verdicts: Iterable[Verdict],
) -> Iterator[GameReport]:
    """The report of each game of ``handle``, read as its verdict says;
    ``starts`` gives each game's ``(offset, line, number)``.

    This is the one place a game is checked: a faster check of a game
    (one that gives its variant, plies, errors and warnings as
    :class:`_Checker` does) plugs in here."""
    checker = _Checker()
    for (offset, line, number), verdict in zip(starts, verdicts, strict=False):
        found = read(handle, checker, verdict.variant, False)
        if found is None:
            break
        variant, plies, errors, warnings = found
        tagged = checker.tagged
        yield GameReport(
            file=file,
            number=number,
            offset=offset,
            line=line,
            variant=variant,
            decided_by="tag" if tagged else verdict.decided_by,
            reason=None if tagged else verdict.reason,
            plies=plies,
            errors=tuple(errors),
            warnings=tuple(warnings),
        )


# -- Pieces of files, read by path (here, in worker processes, on a cluster) -------


def read_piece(path: str, chunk: _Chunk) -> bytes:
    """A piece's bytes, read from the file (decompressed)."""
    stream, _ = _open_binary(path)
    with stream:
        if stream.seekable():
            stream.seek(chunk.start.offset)
        else:
            left = chunk.start.offset
            while left > 0:
                skipped = stream.read(min(left, 1 << 20))
                if not skipped:
                    break
                left -= len(skipped)
        size = chunk.end - chunk.start.offset
        parts = []
        while size > 0:
            part = stream.read(size)
            if not part:
                break
            parts.append(part)
            size -= len(part)
    return b"".join(parts)


def survey_piece(path: str, chunk: _Chunk | None) -> list[Seen]:
    """The survey of a piece of a file (None: the whole file)."""
    if chunk is None:
        with _open_text(path) as handle:
            return survey(handle)
    data = chunk.data if chunk.data is not None else read_piece(path, chunk)
    with _open_chunk(chunk, data) as handle:
        return survey(handle, chunk.games)


def check_piece(
    path: str, name: str, chunk: _Chunk | None, verdicts: Verdict | Sequence[Verdict]
) -> list[GameReport]:
    """The reports of a piece of a file (None: the whole file), named
    ``name``; ``verdicts`` has one verdict per game, or is one for all."""
    each: Iterable[Verdict] = (
        itertools.repeat(verdicts) if isinstance(verdicts, Verdict) else verdicts
    )
    if chunk is None:
        with _open_text(path) as handle, _open_binary(path)[0] as raw:
            starts = ((s.offset, s.line, s.number) for s in scan_starts(raw))
            return list(check(handle, name, starts, each))
    data = chunk.data if chunk.data is not None else read_piece(path, chunk)
    with _open_chunk(chunk, data) as handle:
        starts = ((s.offset, s.line, s.number) for s in _chunk_starts(chunk, data))
        return list(check(handle, name, starts, each))


def strict_violations(path: str) -> list[PdnError]:
    """The PDN 3.0 violations of a whole file."""
    from draughts.pdn import check_strict, open_pdn  # the package imports this module

    with open_pdn(path) as handle:
        return check_strict(handle)


def _open_text(path: str) -> IO[str]:
    from draughts.pdn import open_pdn  # the package imports this module

    return open_pdn(path)


# -- Adding up --------------------------------------------------------------------


class Tally:
    """A file's summary, made of its games' reports as they come."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.games = self.plies = self.bad = 0
        self.kinds: Counter[str] = Counter()
        self.variants: Counter[str] = Counter()
        self.decided: Counter[str] = Counter()
        self.warnings: list[PdnError] = []

    def add(self, report: GameReport) -> None:
        self.games += 1
        self.plies += report.plies
        self.variants[report.variant] += 1
        self.decided[report.decided_by] += 1
        if report.errors:
            self.bad += 1
            self.kinds.update({e.kind for e in report.errors})
        self.warnings += report.warnings

    def summary(self, violations: Sequence[PdnError] | None) -> FileSummary:
        """The file's summary; in strict mode (``violations`` given) the
        reader's warnings count as PDN 3.0 violations."""
        found = None
        if violations is not None:
            found = tuple(violations) + tuple(self.warnings)
        return FileSummary(
            file=self.file,
            games=self.games,
            plies=self.plies,
            games_with_errors=self.bad,
            errors_by_kind=tuple(sorted(self.kinds.items())),
            variants=tuple(sorted(self.variants.items())),
            decided_by=tuple(sorted(self.decided.items())),
            pdn3_violations=found,
        )


def variant_name(variant: Variant | str | int | None) -> str | None:
    """The name of the variant given (None for None).

    :raises ValueError: for a variant the library does not know.
    """
    if variant is None:
        return None
    return variant.name if isinstance(variant, Variant) else find_variant(variant).name


def source_name(source: Any) -> str:
    """The name a report gives a file: a path as given, ``-`` for standard
    input, a handle's ``name``, else ``<stream>``."""
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    name = getattr(source, "name", None)
    if name in ("<stdin>", 0) or source is getattr(io, "_stdin_marker", None):
        return "-"
    return name if isinstance(name, str) else "<stream>"


# -- Running: the files, their pieces, in this process or elsewhere ------------------

Call = tuple[Callable[..., Any], tuple[Any, ...]]
"""A task: a function of this module and its arguments (they pickle)."""

Runner = Callable[[Sequence[Call]], Iterator[Any]]
"""Runs tasks and gives their results in their order (here, in a process
pool, on a Dask cluster)."""

Source = str | os.PathLike[str] | IO[bytes] | IO[str]
CHUNK_BYTES = 4 << 20
"""The bytes of games of a piece of a file sent to a worker."""


def run_here(calls: Sequence[Call]) -> Iterator[Any]:
    """A :data:`Runner` that runs the tasks in this process."""
    for function, args in calls:
        yield function(*args)


class _Pool:
    """A :data:`Runner` on a process pool, a few tasks ahead of the results
    taken (two per process)."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.pool: concurrent.futures.ProcessPoolExecutor | None = None

    def __call__(self, calls: Sequence[Call]) -> Iterator[Any]:
        if self.pool is None:
            self.pool = concurrent.futures.ProcessPoolExecutor(self.jobs)
        pool = self.pool
        running: collections.deque[concurrent.futures.Future[Any]] = collections.deque()
        for function, args in calls:
            running.append(pool.submit(function, *args))
            while len(running) > 2 * self.jobs:
                yield running.popleft().result()
        while running:
            yield running.popleft().result()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)


class Validation(Iterator[GameReport]):
    """The games of PDN files being checked: iterate it for each game's
    :class:`GameReport`, in file order; :meth:`summary` says what all of
    them came to (made by :func:`draughts.pdn.validate`).

    Use it as a context manager, or call :meth:`close`, when you stop
    before the end: worker processes and temporary copies are then let go.

    :raises ValueError: for a variant the library does not know.
    """

    def __init__(
        self,
        sources: Source | Iterable[Source],
        *,
        variant: Variant | str | int | None = None,
        strict: bool = False,
        jobs: int = 1,
        chunk_size: int = CHUNK_BYTES,
        runner: Runner | None = None,
        on_close: Callable[[], None] | None = None,
    ) -> None:
        if jobs < 1 or chunk_size < 1:
            raise ValueError(f"jobs and chunk_size must be at least 1, not {jobs}, {chunk_size}")
        self.variant = variant_name(variant)
        self.strict = strict
        self.chunk_size = chunk_size
        single = isinstance(sources, (str, os.PathLike)) or hasattr(sources, "read")
        self._sources: list[Any] = [sources] if single else list(sources)  # type: ignore[arg-type]
        self._pool = _Pool(jobs) if jobs > 1 and runner is None else None
        self._runner = runner
        self._on_close = on_close
        self._split = jobs > 1 or runner is not None
        self._temporary: list[str] = []
        self._files: list[FileSummary] = []
        self.file: str | None = None
        """The file being read (to name it when it cannot be read)."""
        self._reports: Generator[GameReport, None, None] = self._run()

    def __iter__(self) -> Validation:
        return self

    def __next__(self) -> GameReport:
        return next(self._reports)

    def summary(self) -> Summary:
        """What all the games came to (the games not iterated yet are
        checked first)."""
        for _ in self._reports:
            pass
        return Summary(tuple(self._files))

    def close(self) -> None:
        """Stop: let worker processes and temporary copies go."""
        self._reports.close()
        if self._pool is not None:
            self._pool.close()
        self.close_temporary()
        if self._on_close is not None:
            self._on_close()
            self._on_close = None

    def __enter__(self) -> Validation:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self) -> Generator[GameReport, None, None]:
        try:
            for source in self._sources:
                self.file = source_name(source)
                path = self._path(source)
                yield from self._one_file(self.file, path)
            self.file = None
        finally:
            self.close_temporary()

    def close_temporary(self) -> None:
        for path in self._temporary:
            with contextlib.suppress(OSError):
                os.unlink(path)
        self._temporary = []

    def _path(self, source: Any) -> str:
        """A path to read ``source`` by (a handle is copied to a temporary
        file: it is read twice, maybe in other processes)."""
        if isinstance(source, (str, os.PathLike)):
            return os.fspath(source)
        with tempfile.NamedTemporaryFile(prefix="draughts-pdn-", delete=False) as copy:
            self._temporary.append(copy.name)
            if isinstance(source, io.TextIOBase):
                while block := source.read(1 << 20):
                    copy.write(block.encode("utf-8"))
            else:
                shutil.copyfileobj(source, copy, 1 << 20)
        return copy.name

    def _run_calls(self, calls: Sequence[Call], split: bool) -> Iterator[Any]:
        if not split:
            return run_here(calls)
        if self._runner is not None:
            return self._runner(calls)
        assert self._pool is not None
        return self._pool(calls)

    def _one_file(self, name: str, path: str) -> Iterator[GameReport]:
        pieces: list[_Chunk | None] = [None]
        if self._split:
            stream, encoding = _open_binary(path)
            with stream:
                found = list(_chunks(stream, self.chunk_size, keep=False, encoding=encoding))
            pieces = list(found) if len(found) > 1 else [None]
        # A file of one piece is read here, unless the tasks go to a cluster.
        split = pieces != [None] or self._runner is not None
        verdicts: Iterator[Verdict] = iter(())
        if self.variant is None:
            calls: list[Call] = [(survey_piece, (path, piece)) for piece in pieces]
            seen = [s for part in self._run_calls(calls, split) for s in part]
            verdicts = iter(settle(seen))
        checks: list[Call] = []
        for piece in pieces:
            own: Verdict | list[Verdict] = Verdict(self.variant, "caller")
            if self.variant is None:
                own = list(verdicts if piece is None else itertools.islice(verdicts, piece.games))
            checks.append((check_piece, (path, name, piece, own)))
        if self.strict:
            checks.append((strict_violations, (path,)))
        tally = Tally(name)
        results = self._run_calls(checks, split)
        for _ in pieces:
            for report in next(results):
                tally.add(report)
                yield report
        self._files.append(tally.summary(next(results) if self.strict else None))
