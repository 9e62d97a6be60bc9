"""The ``validate`` and ``convert`` subcommands of the command line."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import IO, Any, get_args

from draughts import pdn
from draughts.pdn import _validation_text as _text
from draughts.pdn import settling
from draughts.pdn.writer import Results
from draughts.variant import INTERNATIONAL, find_variant

_PROGRESS_BYTES = 1 << 20  # files at least this large get a progress bar on a terminal
_PROGRESS_SECONDS = 0.25  # between updates of the bar


_CHUNK_BYTES = pdn.validation.CHUNK_BYTES  # a worker's piece of a file


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
    # Long only because it declares two commands' options, one call each.
    validate = commands.add_parser(
        "validate",
        help="read PDN files and check every move",
        description="Read every game of the PDN files, replay every move and report each "
        "problem as file:line:col: message. Exits with 1 when a game has an error. Files may "
        "be compressed (.gz, .bz2, .xz; .zst with the zstd extra); - reads standard input. "
        "Large inputs are split at game boundaries and checked in worker processes; the "
        "output is the same as with --jobs 1.",
    )
    validate.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="PDN files (compressed too), or - for standard input",
    )
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
        "the dask extra; the workers read the files by the same paths)",
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
        "IN may be compressed (.gz, .bz2, .xz; .zst with the zstd extra); - reads "
        "standard input, and an OUT of - writes standard output.",
    )
    convert.add_argument(
        "input", metavar="IN", help="the PDN file to read, or - for standard input"
    )
    convert.add_argument(
        "output", metavar="OUT", help="the PDN file to write, or - for standard output"
    )
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


class _Progress:
    """A percentage on standard error while a large file is read on a
    terminal, from the offsets of the games reported."""

    def __init__(self) -> None:
        self.file: str | None = None
        self.size = 0
        self.on = False
        self.shown = time.monotonic()

    def update(self, report: pdn.GameReport) -> None:
        self.read(report.file, report.offset)

    def read(self, file: str, offset: int) -> None:
        """``file`` is read up to byte ``offset`` (a game reported there, or
        a piece of the file checked)."""
        if file != self.file:
            self.clear()
            self.file = file
            try:
                self.size = 0 if file == "-" else os.path.getsize(file)
            except OSError:
                self.size = 0
            self.on = self.size >= _PROGRESS_BYTES and sys.stderr.isatty()
        if self.on and time.monotonic() - self.shown >= _PROGRESS_SECONDS:
            done = min(offset, self.size)
            print(f"\r{self.file}: {100 * done // max(self.size, 1):3d}%", end="", file=sys.stderr)
            sys.stderr.flush()
            self.shown = time.monotonic()

    def clear(self) -> None:
        if self.on and self.file is not None:
            print("\r" + " " * (len(self.file) + 6) + "\r", end="", file=sys.stderr)
        self.on = False

    def watch(self, reports: Iterator[pdn.GameReport]) -> Iterator[pdn.GameReport]:
        for report in reports:
            self.update(report)
            yield report
        self.clear()


_READ_ERRORS = (OSError, ValueError, ImportError, EOFError)


def _validate(args: argparse.Namespace) -> int:
    jobs = args.jobs or _cpus()
    try:
        find_variant(args.variant) if args.variant is not None else None
    except ValueError as error:  # a usage error: before any file is read
        print(f"draughts validate: --variant: {error}", file=sys.stderr)
        return 2
    sources: list[Any] = [sys.stdin.buffer if name == "-" else name for name in args.files]
    validation: pdn.Validation | None = None
    progress = _Progress()
    try:
        if args.scheduler is not None:
            validation = _on_cluster(args, sources)
        else:
            validation = pdn.validate(
                sources,
                variant=args.variant,
                strict=args.strict,
                jobs=jobs,
                chunk_size=args.chunk_size,
                problems_only=True,  # what text_lines and json_report write out
                # Only the games with problems are reported: the bar also
                # moves as the pieces of a file are checked.
                progress=progress.read if sys.stderr.isatty() else None,
            )
        watched = _Shown(validation, progress)
        if args.json:
            report = _text.json_report(watched)
            print(json.dumps(report, indent=2, ensure_ascii=False))
            return 0 if report["ok"] else 1
        lines = _text.text_lines(watched)
    except _READ_ERRORS as error:
        name = validation.file if validation is not None else None
        if isinstance(error, ImportError) and name is not None and name in str(error):
            name = None  # the message names the file
        print(f"draughts validate: {name + ': ' if name else ''}{error}", file=sys.stderr)
        return 2
    except _ClusterError as error:
        print(f"draughts validate: {error}", file=sys.stderr)
        return 2
    finally:
        if validation is not None:
            validation.close()
    for line in lines:
        print(line)
    return 0 if validation.summary().ok else 1


class _Shown:
    """A validation seen through the progress bar: what text_lines and
    json_report read."""

    def __init__(self, validation: pdn.Validation, progress: _Progress) -> None:
        self.validation = validation
        self.reports = progress.watch(validation)

    def __iter__(self) -> Iterator[pdn.GameReport]:
        return self.reports

    def summary(self) -> pdn.Summary:
        return self.validation.summary()


class _ClusterError(Exception):
    """The cluster cannot be used: why."""


def _on_cluster(args: argparse.Namespace, sources: list[Any]) -> pdn.Validation:
    if "-" in args.files:
        raise _ClusterError("-: standard input cannot be read on a cluster")
    try:
        from draughts import dask as draughts_dask
    except ImportError as error:
        message = f"--scheduler: needs Dask: pip install 'dask[bag]' distributed ({error})"
        raise _ClusterError(message) from None
    try:
        return draughts_dask.validation(
            sources,
            address=args.scheduler,
            variant=args.variant,
            strict=args.strict,
            blocksize=args.chunk_size,
            problems_only=True,
        )
    except (OSError, TimeoutError) as error:  # the scheduler cannot be reached
        raise _ClusterError(f"--scheduler {args.scheduler}: {error}") from error


def _convert(args: argparse.Namespace) -> int:
    if args.variant is not None:
        try:
            find_variant(args.variant)
        except ValueError as error:
            print(f"draughts convert: --variant: {error}", file=sys.stderr)
            return 2
    games = bad = 0
    source: IO[str] | None = None
    copy: str | None = None
    try:
        path = args.input
        if path == "-":  # read twice: the variants of its games, then the games
            path = copy = _copy_of_stdin()
        # Each game's variant as validate decides it, its whole file in view.
        variants = settling.variants_of(path, args.variant)
        source = pdn.open_pdn(path)
        with _output(args.output) as target:
            exporter = pdn.FileExporter(target, results=args.results)
            while True:
                game = pdn.read_game(source, variant=next(variants, args.variant))
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
        if copy is not None:
            os.unlink(copy)
    where = "standard output" if args.output == "-" else args.output
    print(
        f"{_text.counted(games, 'game')} written to {where}, {bad} with errors",
        file=sys.stderr if args.output == "-" else sys.stdout,
    )
    return 1 if bad else 0


def _copy_of_stdin() -> str:
    """Standard input copied to a temporary file: its path."""
    with tempfile.NamedTemporaryFile(prefix="draughts-stdin-", delete=False) as copy:
        shutil.copyfileobj(sys.stdin.buffer, copy, 1 << 20)
    return copy.name


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
