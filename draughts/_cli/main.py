"""The ``draughts`` command line.

Subcommands live in small functions registered in :func:`_parser`; each
returns the process exit code.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import draughts
from draughts._cli import pdn as _pdn_cli
from draughts._cli import play as _play


def _perft(args: argparse.Namespace) -> int:
    try:
        variant = draughts.find_variant(args.variant)
        board = draughts.Board(args.fen, variant=variant)
    except ValueError as error:
        print(f"draughts perft: {error}", file=sys.stderr)
        return 2
    print(f"variant {variant.name}, position {board.fen()}")
    for depth in range(1, args.depth + 1):
        start = time.perf_counter()
        nodes = draughts.perft(board, depth)
        seconds = time.perf_counter() - start
        rate = nodes / seconds if seconds > 0 else float("inf")
        print(f"depth {depth:2d}  {nodes:>14,d} nodes  {seconds:8.3f} s  {rate:>12,.0f} nodes/s")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="draughts", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    perft = commands.add_parser("perft", help="count move sequences to a depth")
    perft.add_argument("--variant", default="international", help="variant name or GameType")
    perft.add_argument("--depth", type=int, default=5)
    perft.add_argument("--fen", default=None, help="start from this position")
    perft.set_defaults(run=_perft)
    _play.add_parser(commands)
    _pdn_cli.add_parsers(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``)."""
    args = _parser().parse_args(argv)
    code: int = args.run(args)
    return code
