"""``python -m draughts book build``: an opening book from PDN files (see
:mod:`draughts.engine.book`)."""

from __future__ import annotations

import argparse
import sys
import time

from draughts._cli.arguments import integer


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``book`` subcommand and its ``build`` action."""
    parser = commands.add_parser("book", help="build an opening book from PDN games")
    actions = parser.add_subparsers(dest="action", required=True, help="what to do (build)")
    build = actions.add_parser(
        "build",
        help="count the moves of the games' first plies into a book file",
        description=(
            "Read the games of the PDN files (each in the variant its tags name, else the one "
            "validate decides with the whole file in view) and "
            "write the positions of their first plies, with the moves played and how the "
            "games ended, as a book the built-in engine plays from (book=...)."
        ),
    )
    build.add_argument("files", nargs="+", help="PDN files (compressed ones too)")
    build.add_argument(
        "--plies", type=integer(1), default=16, help="plies of each game to count (default 16)"
    )
    build.add_argument(
        "--min-games",
        type=integer(1),
        default=1,
        help="keep a move only if this many games played it (default 1)",
    )
    build.add_argument(
        "--out", required=True, help="the book file to write (gzip-compressed if it ends in .gz)"
    )
    build.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """``book build``: 0 once the book is written, 1 if a file cannot be
    read or written."""
    from draughts.engine.book import build

    start = time.monotonic()
    try:
        book = build(args.files, args.plies, min_games=args.min_games)
        book.save(args.out)
    except OSError as error:
        print(f"draughts book: {error}", file=sys.stderr)
        return 1
    moves = sum(len(entries) for entries in book.entries.values())
    print(
        f"{args.out}: {len(book):,d} positions, {moves:,d} moves ({time.monotonic() - start:.1f} s)"
    )
    return 0
