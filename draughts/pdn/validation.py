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
``"evidence"``
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

Each game is read once, as its tags, the caller or its evidence say. From
the first game whose moves leave its variant open, the reports are kept
aside (in a temporary file beyond a few megabytes: memory does not grow
with the file) with what decides each game's variant
(:class:`~draughts.pdn.settling.Seen`). Once the whole file is read, the
games its moves leave open are settled by its decided games
(:mod:`draughts.pdn.settling`); the few whose variant changes are read
again, and the reports come out in file order. A piece of a file is read
the same in this process, in worker processes (``jobs``) or on a Dask
cluster (:mod:`draughts.dask`), and the settling depends on the whole file
only, so the reports are the same however the file was split.

For ``jobs`` and Dask, the file is cut at byte offsets and each task finds
the games of its piece itself; this process numbers the games and counts
their lines as the results come back in file order, and checks each
piece's start against where the piece before says the next game starts
(``draughts.pdn._chunking`` tells how).
"""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from sys import intern
from typing import IO, Any

import attrs

from draughts.board import Board
from draughts.move import Move
from draughts.pdn._chunking import (
    Chunk,
    Follow,
    Next,
    Span,
    chunk_starts,
    in_order,
    open_chunk,
    read_span,
    spans,
)
from draughts.pdn._fastgame import each_game, fast_game
from draughts.pdn._pool import Pool, piece_sizes
from draughts.pdn._spool import Spool
from draughts.pdn._text import source_list, source_name
from draughts.pdn.headers import BaseVisitor, PdnError
from draughts.pdn.infer import Choice
from draughts.pdn.offsets import GameStart, _open_binary, seek_game
from draughts.pdn.reader import read
from draughts.pdn.settling import (
    PIECE_BYTES,
    Decided,
    DecidedBy,
    Seen,
    SeenFields,
    Verdict,
    named_by_tags,
    pieces_of,
    seen_fields,
    variant_name,
)
from draughts.variant import Variant

__all__ = ["DecidedBy", "FileSummary", "GameReport", "Summary", "Validation"]

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

    >>> FileSummary("a.pdn", 2, 80, 0, (), (("english", 2),), (("evidence", 2),)).ok
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


# -- Reading a game once ---------------------------------------------------------

_Read = tuple[str, int, list[PdnError], list[PdnError], str | None, str | None, Choice | None]


class _Checker(BaseVisitor[_Read]):
    """Counts a game's moves (side lines too) and keeps its variant, errors
    and warnings, its ``Event`` tag, the variant its tags name and the
    inference's choice, without building a tree."""

    def begin_game(self) -> None:
        self.variant = NOT_SET_UP
        self.plies = 0
        self.errors: list[PdnError] = []
        self.warnings: list[PdnError] = []
        self.event: str | None = None
        self.tags: dict[str, str] = {}  # the first GameType and Variant tags
        self.choice: Choice | None = None

    def visit_header(self, name: str, value: str) -> None:
        if name == "Event" and self.event is None:
            self.event = value
        elif name in ("GameType", "Variant"):
            self.tags.setdefault(name, value)

    def visit_choice(self, choice: Choice) -> None:
        self.choice = choice

    def visit_board(self, board: Board) -> None:
        self.variant = board.variant.name

    def visit_move(self, board: Board, move: Move) -> None:
        self.plies += 1

    def handle_error(self, error: PdnError) -> None:
        self.errors.append(error)

    def handle_warning(self, warning: PdnError) -> None:
        if warning.kind != "inferred":  # the report says it: decided_by, reason
            self.warnings.append(warning)

    def result(self) -> _Read:
        named = named_by_tags(self.tags) if self.tags else None
        return (
            self.variant,
            self.plies,
            self.errors,
            self.warnings,
            self.event,
            named,
            self.choice,
        )


Flat = tuple[tuple[Any, ...], tuple[int, int, int, int], SeenFields]
"""A game read once, as the fields of its :class:`GameReport`, of its
:class:`~draughts.pdn.offsets.GameStart` and of the
:class:`~draughts.pdn.settling.Seen` that decides its variant: plain tuples
as it goes to and from worker processes and the spool (pickling the attrs
classes themselves took a fifth of the time of validating the OCA with the
fast check, and making each twice, in the worker then where it is read, a
tenth); the objects are made only where needed."""


def check(
    handle: IO[str],
    file: str,
    starts: Iterable[GameStart],
    variant: str | None,
    data: bytes,
    encoding: str,
) -> Iterator[Flat]:
    """Read each game of ``handle`` once (``starts``: where each starts), as
    its tags name it, else as ``variant``, else as its evidence chooses:
    its report, start and :class:`~draughts.pdn.settling.Seen`, each as the
    tuple of its fields.

    This is the one place a game is checked. ``data`` is the bytes
    ``handle`` reads (in ``encoding``): a game whose record
    :func:`~draughts.pdn._fastgame.fast_game` reads is checked from its
    bytes, in one call into the native core; the reader reads the rest
    (and inference replays the candidates of a game it reads in C where it
    can, :meth:`draughts.pdn.reader._GameReader.replays`)."""
    checker = _Checker()
    for start, fast, slow in each_game(
        handle,
        starts,
        data,
        encoding,
        lambda text, _: fast_game(text, variant),
        lambda handle, _: read(handle, checker, variant),
    ):
        errors: tuple[PdnError, ...] = ()
        warnings: tuple[PdnError, ...] = ()
        if fast is not None:
            read_as, plies, event, named, choice = fast
        else:
            assert slow is not None
            read_as, plies, found, noted, event, named, choice = slow
            errors, warnings = tuple(found), tuple(noted)
        decided_by: DecidedBy = "tag" if named is not None else "caller"
        reason = None
        if choice is not None:
            decided_by = "guess" if choice.alike else "evidence"  # "guess" until the file settles
            reason = choice.reason
        offset, line, _, number = start
        report = (file, number, offset, line, read_as, decided_by, reason, plies, errors, warnings)
        if choice is None:  # seen_fields' answer, without the call (most games)
            seen: SeenFields = (event if event is None else intern(event), named, None)
        else:
            seen = seen_fields(event, named, choice)
        yield report, start, seen


def _checked(path: str, name: str, chunk: Chunk | None, variant: str | None) -> Iterator[Flat]:
    """Each game of a piece of a file, read once (None: the whole file, a
    piece of :data:`CHUNK_BYTES` at a time)."""
    for piece, data in pieces_of(path, chunk):
        with open_chunk(piece, data) as handle:
            starts = chunk_starts(piece, data)
            yield from check(handle, name, starts, variant, data, piece.encoding)


def _read_span(
    path: str, name: str, span: Span | None, variant: str | None
) -> tuple[Iterator[Flat], Next, int]:
    """The games of a span (None: the whole file), where the next game
    starts and where the span ends (see :func:`read_span`)."""
    if span is None:
        return _checked(path, name, None, variant), None, 0
    chunk, following, end = read_span(path, span)
    games = _checked(path, name, chunk, variant) if chunk is not None else iter(())
    return games, following, end


def check_piece(
    path: str, name: str, span: Span | None, variant: str | None
) -> tuple[list[Flat], Follow]:
    """Read the games of a span of a file once (None: the whole file, a
    piece of :data:`CHUNK_BYTES` at a time)."""
    games, following, end = _read_span(path, name, span, variant)
    items = list(games)
    return items, (len(items), following, end)


Problems = tuple["Tally", Decided, list[Flat]]
"""A piece read for its problems: the games it does not send added up, what
its games decide of their file's variants, and the games it sends (see
:func:`check_problems`)."""


def check_problems(
    path: str, name: str, span: Span | None, variant: str | None
) -> tuple[Problems, Follow]:
    """:func:`check_piece` for a validation that reports problems only:
    the games with an error or a warning, and those whose moves leave their
    variant open (the file settles them), go back as they are; the others
    are only added up here. Nothing then crosses between processes, or is
    made into a report, for the many games of an archive that are fine:
    the parent of ``jobs=N`` had been made to do per-game work that bounded
    how far more workers could take it."""
    tally = Tally(name)
    decided = Decided()
    sent: list[Flat] = []
    games, following, end = _read_span(path, name, span, variant)
    count = 0
    for item in games:
        fields, _, seen = item
        count += 1
        decided.add_fields(seen)
        if fields[8] or fields[9] or (seen[2] is not None and seen[2][1]):
            sent.append(item)
        else:
            tally.add_fields(fields[7], fields[4], fields[5])
    return (tally, decided, sent), (count, following, end)


def _shifted(items: list[Flat], games: int, lines: int) -> list[Flat]:
    """A span's games numbered, and their lines counted, from the file's
    start: ``games`` and ``lines`` come before the span."""
    if not (games or lines):
        return items
    moved: list[Flat] = []
    for fields, start, seen in items:
        file, number, offset, line, *rest, errors, warnings = fields
        if errors or warnings:
            errors = tuple(_moved(error, lines) for error in errors)
            warnings = tuple(_moved(warning, lines) for warning in warnings)
        fields = (file, number + games, offset, line + lines, *rest, errors, warnings)
        start = (start[0], start[1] + lines, start[2], start[3] + games)
        moved.append((fields, start, seen))
    return moved


def _moved(error: PdnError, lines: int) -> PdnError:
    return attrs.evolve(error, line=error.line + lines)


def recheck(path: str, report: GameReport, start: GameStart, variant: str) -> GameReport:
    """A game read again as ``variant`` (its file settled it so)."""
    with _open_text(path) as handle:
        seek_game(handle, start)
        found = read(handle, _Checker(), variant, False)
    assert found is not None, "the game was read before"
    read_as, plies, errors, warnings, *_ = found
    return attrs.evolve(
        report, variant=read_as, plies=plies, errors=tuple(errors), warnings=tuple(warnings)
    )


def strict_violations(path: str) -> list[PdnError]:
    """The PDN 3.0 violations of a whole file."""
    from draughts.pdn import check_strict  # the package imports this module

    with _open_text(path) as handle:
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
        # add_fields' counting without the call (with check()'s Seen fields
        # made inline: 1 % of the instructions of validating the
        # International corpus, callgrind).
        self.games += 1
        self.plies += report.plies
        self.variants[report.variant] += 1
        self.decided[report.decided_by] += 1
        if report.errors:
            self.bad += 1
            self.kinds.update({e.kind for e in report.errors})
        if report.warnings:
            self.warnings += report.warnings

    def add_fields(self, plies: int, variant: str, decided_by: str) -> None:
        """Count a game without errors or warnings."""
        self.games += 1
        self.plies += plies
        self.variants[variant] += 1
        self.decided[decided_by] += 1

    def merge(self, other: Tally) -> None:
        """Count the games ``other`` counted (of a later piece of the file)."""
        self.games += other.games
        self.plies += other.plies
        self.bad += other.bad
        self.kinds += other.kinds
        self.variants += other.variants
        self.decided += other.decided
        self.warnings += other.warnings

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


# -- Running: the files, their pieces, in this process or elsewhere ------------------

Call = tuple[Callable[..., Any], tuple[Any, ...]]
"""A task: a function of this module and its arguments (they pickle)."""

Runner = Callable[[Iterable[Call]], Iterator[Any]]
"""Runs tasks and gives their results in their order (here, in a process
pool, on a Dask cluster)."""

Source = str | os.PathLike[str] | IO[bytes] | IO[str]
CHUNK_BYTES = PIECE_BYTES
"""The bytes of games of a piece of a file sent to a worker."""


def run_here(calls: Iterable[Call]) -> Iterator[Any]:
    """A :data:`Runner` that runs the tasks in this process."""
    for function, args in calls:
        yield function(*args)


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
        problems_only: bool = False,
        progress: Callable[[str, int], None] | None = None,
    ) -> None:
        if jobs < 1 or chunk_size < 1:
            raise ValueError(f"jobs and chunk_size must be at least 1, not {jobs}, {chunk_size}")
        self.variant = variant_name(variant)
        self.strict = strict
        self.problems_only = problems_only
        self._progress = progress
        self.chunk_size = chunk_size
        self._sources: list[Any] = source_list(sources, "validate")
        self._pool = Pool(jobs) if jobs > 1 and runner is None else None
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

    def _run_calls(self, calls: Iterable[Call], split: bool) -> Iterator[Any]:
        if not split or (self._runner is None and self._pool is None):
            return run_here(calls)
        if self._runner is not None:
            return self._runner(calls)
        assert self._pool is not None
        return self._pool(calls)

    def _one_file(self, name: str, path: str) -> Iterator[GameReport]:
        pieces, split = self._pieces(path)
        check_one = check_problems if self.problems_only else check_piece
        # The tasks are made as the file is cut, so that the workers start
        # on its first pieces while the rest is cut.
        cut: list[Span] = []

        def calls() -> Iterator[Call]:
            for piece in pieces:
                if piece is not None:
                    cut.append(piece)
                yield check_one, (path, name, piece, self.variant)

        results = self._in_order(path, name, cut, self._run_calls(calls(), split))
        tally = Tally(name)
        if self.problems_only:
            yield from self._problems(path, results, tally)
        elif self.variant is not None:  # every game decided by its tags or the caller
            for items in results:
                for item in items:
                    report = GameReport(*item[0])
                    tally.add(report)
                    yield report
        else:
            yield from self._settled(path, results, tally)
        violations = None
        if self.strict:
            (violations,) = self._run_calls([(strict_violations, (path,))], split)
        self._files.append(tally.summary(violations))

    def _in_order(
        self, path: str, name: str, cut: list[Span], results: Iterator[Any]
    ) -> Iterator[Any]:
        """The results of a file's spans in order (``cut``: the spans whose
        tasks were made), their games numbered and their lines counted
        from the file's start (:func:`draughts.pdn._chunking.in_order`)."""
        check_one = check_problems if self.problems_only else check_piece

        def again(span: Span) -> Any:
            return check_one(path, name, span, self.variant)

        first = next(results, None)
        if first is None:
            return
        if not cut:  # the whole file, read as one piece
            yield first[0]
            return
        for result, games, lines, end in in_order(cut, itertools.chain([first], results), again):
            if self._progress is not None:
                self._progress(name, end)
            if self.problems_only:
                counted, decided, sent = result
                yield counted, decided, _shifted(sent, games, lines)
            else:
                yield _shifted(result, games, lines)

    def _pieces(self, path: str) -> tuple[Iterator[Span | None], bool]:
        """The pieces a file is read in (None: the whole file, here), as it
        is cut, and whether they go to the workers (or to a caller told of
        the progress, piece by piece). A file of one piece is read here,
        unless the tasks go to a cluster."""
        whole: Iterator[Span | None] = iter([None])
        if not (self._split or self._progress is not None):
            return whole, self._runner is not None
        stream, encoding = _open_binary(path)
        plain = isinstance(stream, io.BufferedReader) and isinstance(stream.raw, io.FileIO)
        size: int | Callable[[int], int] = self.chunk_size
        if plain and self._pool is not None:
            size = piece_sizes(self.chunk_size, os.fstat(stream.fileno()).st_size, self._pool.jobs)
        # Cut at byte offsets: the workers find the games of their spans.
        found = spans(stream, size, encoding)
        first = next(found)
        if first.stop is None:
            stream.close()
            return whole, self._runner is not None

        def rest() -> Iterator[Span | None]:
            with stream:
                yield first
                yield from found

        return rest(), True

    def _problems(self, path: str, results: Iterator[Any], tally: Tally) -> Iterator[GameReport]:
        """:meth:`_settled` for the problems only: each piece's games added
        up where it was read, the games it sent settled as the whole file's
        decided games say (counted before the spool is replayed)."""
        decided = Decided()

        def sent() -> Iterator[list[Flat]]:
            for counted, decided_here, items in results:
                tally.merge(counted)
                decided.merge(decided_here)
                yield items

        yield from self._settled(path, sent(), tally, decided)

    def _settled(
        self,
        path: str,
        results: Iterator[Any],
        tally: Tally,
        counted: Decided | None = None,
    ) -> Iterator[GameReport]:
        """The reports of a file's games once the file has settled the
        variants their moves leave open. The reports before the first such
        game are final as they come (a file whose tags name every game's
        variant is never kept aside); from it on, they wait in the spool.
        ``counted``: the file's decided games, counted already."""
        decided = Decided() if counted is None else counted
        spool: Spool[Flat] = Spool()
        # A verdict for each game the file settles: the same for every game
        # of one Event, choice and reason (a file repeats a few).
        verdicts: dict[tuple[SeenFields, str | None], Verdict] = {}
        try:
            for items in results:
                for item in items:
                    seen = item[2]
                    if counted is None:
                        decided.add_fields(seen)
                    if spool.count or (seen[2] is not None and seen[2][1]):
                        spool.add(item)  # an open game's report is a guess
                    else:
                        report = GameReport(*item[0])
                        tally.add(report)
                        yield report
            for fields, start, seen in spool:
                if fields[5] == "guess":  # the file may say more
                    key = (seen, fields[6])
                    verdict = verdicts.get(key)
                    if verdict is None:
                        verdict = verdicts[key] = decided.verdict(Seen(*seen), fields[6])
                    report = self._verdict(path, fields, start, verdict)
                else:
                    report = GameReport(*fields)
                tally.add(report)
                yield report
        finally:
            spool.close()

    @staticmethod
    def _verdict(
        path: str, fields: tuple[Any, ...], start: tuple[int, int, int, int], verdict: Verdict
    ) -> GameReport:
        """The report of a game the file settled (``fields``: its report's
        as first read)."""
        assert verdict.variant is not None
        if verdict.variant != fields[4]:
            report = recheck(path, GameReport(*fields), GameStart(*start), verdict.variant)
            return attrs.evolve(report, decided_by=verdict.decided_by, reason=verdict.reason)
        decided = (*fields[:5], verdict.decided_by, verdict.reason, *fields[7:])
        return GameReport(*decided)
