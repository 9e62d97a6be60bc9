"""The ``validate`` and ``convert`` subcommands of the command line."""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import IO, Any, get_args

from draughts import pdn
from draughts.board import Board
from draughts.move import Move
from draughts.pdn.offsets import _Chunk, _chunks, _open_binary, _open_chunk
from draughts.pdn.writer import Results
from draughts.variant import INTERNATIONAL, find_variant

_PROGRESS_BYTES = 1 << 20  # files at least this large get a progress bar on a terminal
_PROGRESS_SECONDS = 0.25  # between updates of the bar


_CHUNK_BYTES = 4 << 20  # a worker's piece of a file


def _count(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text}")
    return value


def _cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def add_parsers(commands: Any) -> None:
    """Register ``validate`` and ``convert`` on the subcommand parser."""
    validate = commands.add_parser(
        "validate",
        help="read PDN files and check every move",
        description="Read every game of the PDN files, replay every move and report each "
        "problem as file:line:col: message. Exits with 1 when a game has an error. Files may "
        "be compressed (.gz, .bz2, .xz; .zst with draughtslib[zstd]); - reads standard input. "
        "Large inputs are split at game boundaries and checked in worker processes; the "
        "output is the same as with --jobs 1.",
    )
    validate.add_argument("files", nargs="+", metavar="FILE")
    validate.add_argument(
        "--variant", default=None, help="variant of games without GameType/Variant tags"
    )
    validate.add_argument(
        "--strict", action="store_true", help="also report every violation of the PDN 3.0 grammar"
    )
    validate.add_argument("--json", action="store_true", help="print a JSON report")
    validate.add_argument(
        "-j",
        "--jobs",
        type=_count,
        default=None,
        metavar="N",
        help="worker processes (default: the number of CPUs; 1: read in this process only)",
    )
    validate.add_argument(
        "--chunk-size",
        type=_count,
        default=_CHUNK_BYTES,
        metavar="BYTES",
        help=f"bytes of games per piece sent to a worker (default: {_CHUNK_BYTES}); inputs "
        "smaller than one piece are read in this process",
    )
    validate.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="check the files on a Dask cluster, e.g. tcp://host:8786 (needs "
        "draughtslib[dask]; the workers read the files by the same paths)",
    )
    validate.set_defaults(run=_validate)

    convert = commands.add_parser(
        "convert",
        help="rewrite a PDN file as clean PDN 3.0",
        description="Read every game of IN and write it to OUT as PDN 3.0 (UTF-8), every game "
        "of the input, with its tags as they were read (--results and --tag-variant change "
        "them). Text an error left out of a game (a "
        "rejected move and the rest of its line, the moves of a game whose FEN tag or "
        "variant is unknown) is written back as it was, so that reading OUT finds the same "
        "errors. Each error is printed as file:line:col: game N: message on standard error "
        "(and each game without a result marker, a record the end of the file may have cut); "
        "exits with 1 when a game has an error, 2 when a file cannot be read or written. "
        "IN may be compressed (.gz, .bz2, .xz; .zst with draughtslib[zstd]); - reads "
        "standard input, and an OUT of - writes standard output.",
    )
    convert.add_argument("input", metavar="IN")
    convert.add_argument("output", metavar="OUT")
    convert.add_argument(
        "--variant", default=None, help="variant of games without GameType/Variant tags"
    )
    convert.add_argument(
        "--results",
        choices=get_args(Results),
        default=None,
        help="write every result (the Result tag and the terminator) in one style: 2-0 "
        "(2-0, 1-1, 0-2), 1-0 (1-0, 1/2-1/2, 0-1) or variant (each game's variant's own); "
        "without it results are written as they were read",
    )
    convert.add_argument(
        "--tag-variant",
        action="store_true",
        help="write the variant each game was read as in its GameType tag (and Variant tag, "
        "for variants that share a GameType or a numbering of their own)",
    )
    convert.set_defaults(run=_convert)


_Checked = tuple[int, list[pdn.PdnError], list[pdn.PdnError], str]

_NOT_SET_UP = "(not set up)"
"""The variant a summary counts a game under whose board could not be set up."""


class _Checker(pdn.BaseVisitor[_Checked]):
    """Counts the moves of a game (side lines too) and keeps its errors,
    warnings and variant, without building a tree."""

    def begin_game(self) -> None:
        self.moves = 0
        self.errors: list[pdn.PdnError] = []
        self.warnings: list[pdn.PdnError] = []
        self.variant = _NOT_SET_UP

    def visit_board(self, board: Board) -> None:
        self.variant = board.variant.name

    def visit_move(self, board: Board, move: Move) -> None:
        self.moves += 1

    def handle_error(self, error: pdn.PdnError) -> None:
        self.errors.append(error)

    def handle_warning(self, warning: pdn.PdnError) -> None:
        self.warnings.append(warning)

    def result(self) -> _Checked:
        return self.moves, self.errors, self.warnings, self.variant


# -- What is found: one file's report, made of the reports of its pieces --------
#
# A piece's report ("part") has the counts, the error entries and the notation
# warnings of its games; a file's report adds up its pieces' in file order, so
# it is the same whether the file was read in one piece or in many, here or in
# worker processes or on a cluster.


def _new_report(name: str) -> dict[str, Any]:
    return {
        "file": name,
        "games": 0,
        "moves": 0,
        "games_with_errors": 0,
        "errors_by_kind": Counter(),
        "variants": Counter(),  # games read as each variant
        "inferred": 0,  # games whose variant no tag named
        "errors": [],
        "warnings": [],
    }


def _check_games(
    handle: IO[str],
    variant: str | None,
    strict: bool,
    number: int = 1,
    count: int | None = None,
    progress: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """The report of the next ``count`` games of ``handle`` (all if None),
    the first being game ``number`` of its file; with the notation warnings
    if ``strict`` (they are PDN 3.0 violations)."""
    part = _new_report("")
    games = 0
    while count is None or games < count:
        result = pdn.read_game(handle, variant=variant, Visitor=_Checker)
        if result is None:
            break
        moves, errors, warnings, read_as = result
        games += 1
        part["variants"][read_as] += 1
        if any(w.kind == "inferred" for w in warnings):
            part["inferred"] += 1
        if strict:  # every warning is a PDN 3.0 violation, but a variant chosen for want of tags
            part["warnings"] += [w for w in warnings if w.kind != "inferred"]
        part["moves"] += moves
        if errors:
            part["games_with_errors"] += 1
            part["errors_by_kind"].update({e.kind for e in errors})
            for error in errors:
                part["errors"].append(_error_entry(number + games - 1, error))
        if progress is not None:
            progress()
    part["games"] = games
    return part


def _check_chunk(chunk: _Chunk, variant: str | None, strict: bool) -> dict[str, Any]:
    """The report of a piece of a file (in a worker process)."""
    with _open_chunk(chunk) as handle:
        return _check_games(handle, variant, strict, chunk.start.number, chunk.games)


def _strict_violations(path: str) -> list[pdn.PdnError]:
    """The PDN 3.0 violations of a whole file (in a worker process)."""
    with pdn.open_pdn(path) as handle:
        return pdn.check_strict(handle)


def _add(report: dict[str, Any], part: dict[str, Any]) -> None:
    for key in (
        "games",
        "moves",
        "games_with_errors",
        "errors_by_kind",
        "variants",
        "inferred",
        "errors",
        "warnings",
    ):
        report[key] += part[key]


def _finish(report: dict[str, Any], violations: list[pdn.PdnError] | None) -> dict[str, Any]:
    """The file's report once all its games are in (with its PDN 3.0
    violations in strict mode)."""
    warnings = report.pop("warnings")
    if violations is not None:
        violations = violations + warnings
        report["pdn3_violations"] = len(violations)
        report["errors"] += [_error_entry(None, e) for e in violations]
        report["errors"].sort(key=lambda e: (e["line"], e["column"]))
    return report


def _error_entry(game: int | None, error: pdn.PdnError) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "game": game,
        "line": error.line,
        "column": error.column,
        "kind": error.kind,
        "message": error.message,
    }
    if error.fen is not None:
        entry["fen"] = error.fen
    return entry


# -- Reading the inputs --------------------------------------------------------------


class _Input:
    """A FILE argument: a path, or ``-`` for standard input (copied to a
    temporary file when it must be read twice, for --strict)."""

    def __init__(self, name: str, strict: bool) -> None:
        self.name = name
        self.path: str | None = None if name == "-" else name
        self.temporary: str | None = None
        if name == "-" and strict:
            with tempfile.NamedTemporaryFile(prefix="draughts-stdin-", delete=False) as copy:
                self.temporary = self.path = copy.name
                shutil.copyfileobj(sys.stdin.buffer, copy, _CHUNK_BYTES)

    def size(self) -> int | None:
        return os.path.getsize(self.path) if self.path is not None else None

    def text(self) -> IO[str]:
        return pdn.open_pdn(self.path if self.path is not None else sys.stdin.buffer)

    def binary(self) -> tuple[IO[bytes], str]:
        return _open_binary(self.path if self.path is not None else sys.stdin.buffer, self.name)

    def close(self) -> None:
        if self.temporary is not None:
            os.unlink(self.temporary)
            self.temporary = None


def _position(stream: Any) -> int:
    """How far the operating system has read the file under ``stream``."""
    try:
        return os.lseek(stream.fileno(), 0, os.SEEK_CUR)
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return 0


class _Progress:
    """A percentage on standard error, for large files on a terminal."""

    def __init__(self, item: _Input) -> None:
        size = item.size()
        self.name = item.name
        self.size = size or 0
        self.shown = time.monotonic()
        self.on = size is not None and size >= _PROGRESS_BYTES and sys.stderr.isatty()

    def update(self, stream: Any) -> None:
        if self.on and time.monotonic() - self.shown >= _PROGRESS_SECONDS:
            done = min(_position(stream), self.size)
            print(
                f"\r{self.name}: {100 * done // max(self.size, 1):3d}%",
                end="",
                file=sys.stderr,
                flush=True,
            )
            self.shown = time.monotonic()

    def clear(self) -> None:
        if self.on:
            print("\r" + " " * (len(self.name) + 6) + "\r", end="", file=sys.stderr)


def _check_file(item: _Input, variant: str | None, strict: bool) -> dict[str, Any]:
    """One file's report, read in this process."""
    progress = _Progress(item)
    with item.text() as handle:
        buffer = getattr(handle, "buffer", None)
        part = _check_games(handle, variant, strict, progress=lambda: progress.update(buffer))
    progress.clear()
    report = _new_report(item.name)
    _add(report, part)
    violations = None
    if strict:
        assert item.path is not None
        violations = _strict_violations(item.path)
    return _finish(report, violations)


class _Pieces:
    """Runs the pieces of the files: here while they add up to less than a
    piece (small inputs stay in this process), else in a process pool, a
    few pieces ahead of the reports that are added up in file order."""

    def __init__(self, jobs: int, chunk_size: int, variant: str | None, strict: bool) -> None:
        self.jobs, self.chunk_size, self.variant, self.strict = jobs, chunk_size, variant, strict
        self.pool: concurrent.futures.ProcessPoolExecutor | None = None
        self.held: list[tuple[Any, ...]] = []  # (kind, report, argument) not yet running
        self.held_bytes = 0
        self.running: collections.deque[tuple[str, dict[str, Any], Any]] = collections.deque()
        self.reports: list[dict[str, Any]] = []

    def start_file(self, name: str) -> dict[str, Any]:
        report = _new_report(name)
        self.reports.append(report)
        return report

    def piece(self, report: dict[str, Any], chunk: _Chunk) -> None:
        self._submit(("piece", report, chunk), chunk.end - chunk.start.offset)

    def end_file(self, report: dict[str, Any], strict_path: str | None) -> None:
        self._submit(("end", report, strict_path), 0)

    def _submit(self, task: tuple[Any, ...], size: int) -> None:
        if self.pool is None:
            self.held.append(task)
            self.held_bytes += size
            if self.held_bytes < self.chunk_size:
                return
            self.pool = concurrent.futures.ProcessPoolExecutor(self.jobs)
            held, self.held = self.held, []
            for task in held:
                self._start(task)
            return
        self._start(task)

    def _start(self, task: tuple[Any, ...]) -> None:
        assert self.pool is not None
        kind, report, argument = task
        if kind == "piece":
            future: Any = self.pool.submit(_check_chunk, argument, self.variant, self.strict)
        elif argument is not None:
            future = self.pool.submit(_strict_violations, argument)
        else:
            future = None
        self.running.append((kind, report, future))
        while len(self.running) > 2 * self.jobs:
            self._collect()

    def _collect(self) -> None:
        kind, report, future = self.running.popleft()
        result: Any = future.result() if future is not None else None
        if kind == "piece":
            _add(report, result)
        else:
            _finish(report, result)

    def finish(self) -> list[dict[str, Any]]:
        """The reports of all the files, once every piece is checked."""
        for kind, report, argument in self.held:  # a small input: here
            if kind == "piece":
                _add(report, _check_chunk(argument, self.variant, self.strict))
            else:
                _finish(report, _strict_violations(argument) if argument is not None else None)
        self.held = []
        while self.running:
            self._collect()
        return self.reports

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)


def _check_in_pieces(
    items: list[_Input], variant: str | None, strict: bool, jobs: int, chunk_size: int
) -> list[dict[str, Any]]:
    """The files' reports, their games checked in pieces by worker processes."""
    pieces = _Pieces(jobs, chunk_size, variant, strict)
    try:
        for item in items:
            report = pieces.start_file(item.name)
            progress: _Progress | None = None
            try:
                progress = _Progress(item)
                stream, encoding = item.binary()
                with stream:
                    for chunk in _chunks(stream, chunk_size, keep=True, encoding=encoding):
                        pieces.piece(report, chunk)
                        progress.update(stream)
            except _READ_ERRORS as error:
                raise _InputError(item.name, error) from error
            finally:
                if progress is not None:
                    progress.clear()
            pieces.end_file(report, item.path if strict else None)
        return pieces.finish()
    finally:
        pieces.close()


class _InputError(Exception):
    """A file that cannot be read: its name and why."""

    def __init__(self, name: str, error: Exception) -> None:
        super().__init__(name, error)
        self.name, self.error = name, error

    def __str__(self) -> str:
        if isinstance(self.error, ImportError) and self.name in str(self.error):
            return str(self.error)
        return f"{self.name}: {self.error}"


_READ_ERRORS = (OSError, ValueError, ImportError, EOFError)


def _validate(args: argparse.Namespace) -> int:
    jobs = args.jobs or _cpus()
    items: list[_Input] = []
    try:
        for name in args.files:
            try:
                items.append(_Input(name, args.strict))
            except _READ_ERRORS as error:
                raise _InputError(name, error) from error
        if args.scheduler is not None:
            reports = _check_on_cluster(args)
        elif jobs == 1:
            reports = []
            for item in items:
                try:
                    reports.append(_check_file(item, args.variant, args.strict))
                except _READ_ERRORS as error:
                    raise _InputError(item.name, error) from error
        else:
            reports = _check_in_pieces(items, args.variant, args.strict, jobs, args.chunk_size)
    except _InputError as error:
        print(f"draughts validate: {error}", file=sys.stderr)
        return 2
    finally:
        for item in items:
            item.close()
    return _print_reports(reports, args.json, args.strict)


def _check_on_cluster(args: argparse.Namespace) -> list[dict[str, Any]]:
    if "-" in args.files:
        raise _InputError("-", ValueError("standard input cannot be read on a cluster"))
    try:
        from draughts import dask as draughts_dask
    except ImportError as error:
        raise _InputError(
            "--scheduler", ImportError(f"needs Dask: pip install draughtslib[dask] ({error})")
        ) from None
    try:
        return draughts_dask._reports(
            args.files,
            variant=args.variant,
            strict=args.strict,
            address=args.scheduler,
            chunk_size=args.chunk_size,
        )
    except (OSError, TimeoutError) as error:  # the scheduler cannot be reached
        raise _InputError(f"--scheduler {args.scheduler}", error) from error


def _print_reports(reports: list[dict[str, Any]], as_json: bool, strict: bool) -> int:
    failed = any(r["games_with_errors"] or r.get("pdn3_violations") for r in reports)
    if as_json:
        for report in reports:
            report["errors_by_kind"] = dict(report["errors_by_kind"])
            report["variants"] = dict(sorted(report["variants"].items()))
        print(json.dumps({"files": reports, "ok": not failed}, indent=2, ensure_ascii=False))
        return 1 if failed else 0
    for line in _report_lines(reports, strict):
        print(line)
    return 1 if failed else 0


def _report_lines(reports: list[dict[str, Any]], strict: bool) -> list[str]:
    """What ``validate`` prints: each error, then the summary."""
    lines = []
    kinds: Counter[str] = Counter()
    for report in reports:
        for entry in report["errors"]:
            lines.append(f"{report['file']}:{entry['line']}:{entry['column']}: {entry['message']}")
        kinds.update(report["errors_by_kind"])
    lines += [_variant_line(report) for report in reports]
    games = sum(r["games"] for r in reports)
    moves = sum(r["moves"] for r in reports)
    bad = sum(r["games_with_errors"] for r in reports)
    by_kind = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
    lines.append(
        f"{len(reports)} file{'s' if len(reports) != 1 else ''}, {games} games, "
        f"{moves} moves, {bad} games with errors" + (f" ({by_kind})" if by_kind else "")
    )
    if strict:
        violations = sum(r["pdn3_violations"] for r in reports)
        lines.append(f"{violations} PDN 3.0 violation{'s' if violations != 1 else ''}")
    return lines


def _variant_line(report: dict[str, Any]) -> str:
    """Which variants a file's games were read as, and how many of them no
    tag named (their variant was inferred)."""
    read_as = ", ".join(f"{name} {count}" for name, count in sorted(report["variants"].items()))
    games = report["games"]
    return (
        f"{report['file']}: {games} game{'s' if games != 1 else ''}"
        + (f" read as {read_as}" if read_as else "")
        + f", {report['inferred']} inferred"
    )


def _convert(args: argparse.Namespace) -> int:
    if args.variant is not None:
        try:
            find_variant(args.variant)
        except ValueError as error:
            print(f"draughts convert: --variant: {error}", file=sys.stderr)
            return 2
    games = bad = 0
    source: IO[str] | None = None
    try:
        source = pdn.open_pdn(sys.stdin.buffer if args.input == "-" else args.input)
        with _output(args.output) as target:
            exporter = pdn.FileExporter(target, results=args.results)
            while True:
                game = pdn.read_game(source, variant=args.variant)
                if game is None:
                    break
                games += 1
                bad += 1 if game.errors else 0
                # A cut record is written whole-looking: its warning is told too.
                cut = [w for w in game.warnings if w.kind == "incomplete"]
                for found in sorted([*game.errors, *cut], key=lambda e: (e.line, e.column)):
                    print(
                        f"{args.input}:{found.line}:{found.column}: game {games}: "
                        + ("warning: " if found in cut else "")
                        + found.message,
                        file=sys.stderr,
                    )
                if args.tag_variant:
                    _tag_variant(game)
                game.accept(exporter)
    except _READ_ERRORS as error:
        print(f"draughts convert: {error}", file=sys.stderr)
        return 2
    finally:
        if source is not None:
            source.close()
    where = "standard output" if args.output == "-" else args.output
    print(
        f"{games} games written to {where}, {bad} with errors",
        file=sys.stderr if args.output == "-" else sys.stdout,
    )
    return 1 if bad else 0


@contextlib.contextmanager
def _output(name: str) -> Iterator[IO[str]]:
    """OUT opened for writing as UTF-8; standard output (left open) for ``-``."""
    if name != "-":
        with open(name, "w", encoding="utf-8", newline="\n") as target:
            yield target
        return
    sys.stdout.flush()
    target = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n")
    try:
        yield target
    finally:
        target.flush()
        target.detach()


def _tag_variant(game: pdn.Game) -> None:
    """Write the variant the game was read as in its tags (international too,
    which a new game leaves untagged), unless its tags name a variant the
    library does not know: they are kept, and so is the error reading them gives."""
    try:
        variant = game.variant
    except ValueError:
        return
    pdn.set_variant_tags(game.headers, variant)
    if variant == INTERNATIONAL:
        game.headers["GameType"] = "20"
