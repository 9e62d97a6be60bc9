"""The ``perft`` subcommand of the command line: count the move sequences
from a position to each depth, with the time taken."""

from __future__ import annotations

import argparse
import sys
import time

import draughts
from draughts._cli.arguments import integer


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``perft`` subcommand."""
    perft = commands.add_parser("perft", help="count move sequences to a depth")
    perft.add_argument(
        "--variant",
        default="international",
        help="variant name or GameType (see 'draughts variants'; default international)",
    )
    perft.add_argument(
        "--depth",
        type=integer(1),
        default=5,
        help="count to this many plies, one line per depth (default 5)",
    )
    perft.add_argument("--fen", default=None, help="start from this position (default: the start)")
    perft.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The ``perft`` subcommand: one line per depth; exits with 2 for an
    unknown variant or a bad position."""
    try:
        variant = draughts.find_variant(args.variant)
        board = draughts.Board(args.fen, variant=variant)
    except ValueError as error:
        print(f"draughts perft: {error}", file=sys.stderr)
        return 2
    # Each line is flushed as it is made: the deeper depths take long.
    print(f"variant {variant.name}, position {board.fen()}", flush=True)
    for depth in range(1, args.depth + 1):
        start = time.perf_counter()
        nodes = draughts.perft(board, depth)
        seconds = time.perf_counter() - start
        rate = nodes / seconds if seconds > 0 else float("inf")
        print(
            f"depth {depth:2d}  {nodes:>14,d} nodes  {seconds:8.3f} s  {rate:>12,.0f} nodes/s",
            flush=True,
        )
    return 0
