"""``python -m draughts hub``: the built-in engine speaking Hub on standard
input and output, for Hub GUIs, tournament managers and bot bridges."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from typing import BinaryIO, TextIO

from draughts._cli.engine_options import add_engine_options
from draughts.engine.hub_server import HubInputError, run_hub


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``hub`` subcommand."""
    parser = commands.add_parser(
        "hub",
        help="run the built-in engine as a Hub engine (Scan's protocol) on stdin/stdout",
        description=(
            "The built-in engine as a Hub engine: it reads the GUI's commands on standard "
            "input and answers on standard output (the protocol of Scan 3.x). The options "
            "give the parameters' values before the GUI sets them."
        ),
    )
    parser.add_argument(
        "--variant", default="international", help="variant name or alias (or Scan's: normal, bt)"
    )
    parser.add_argument(
        "--level",
        default="hard",
        choices=["easy", "medium", "hard"],
        help="the built-in engine's strength at the start (default hard)",
    )
    parser.add_argument(
        "--hash",
        type=int,
        default=0,
        help="transposition table size in MB (default 0: the level's own, which for hard"
        " grows with the time a move may take, to 128 MB)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the easy level's mistakes")
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="threads the search runs on (default 1; the pure core uses one)",
    )
    add_engine_options(parser)  # read (and refused if bad) as the Hub parameters
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The ``hub`` subcommand: 0 after ``quit`` or the end of the input, 2
    for a bad option."""
    return run_session(args, sys.stdin.buffer, sys.stdout, sys.stderr)


def run_session(args: argparse.Namespace, source: BinaryIO, out: TextIO, err: TextIO) -> int:
    """Serve one Hub session from ``source`` (bytes, read a line at a time)
    to ``out``."""

    def write(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    try:
        run_hub(
            _lines(source),
            write,
            variant=args.variant,
            level=args.level,
            hash_mb=args.hash,
            seed=args.seed,
            book=args.book,
            egtb=args.egtb,
            threads=args.threads,
        )
    except HubInputError as error:
        print(f"draughts hub: {error}", file=err)
        return 2
    return 0


def _lines(source: BinaryIO) -> Iterator[str]:
    """The lines of ``source`` as text: bytes that are not UTF-8 become
    U+FFFD, which no command contains, so such a line is answered with an
    error instead of ending the session."""
    lines: Iterable[bytes] = iter(source.readline, b"")
    for raw in lines:
        yield raw.decode("utf-8", errors="replace")
