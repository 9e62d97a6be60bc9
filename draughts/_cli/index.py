"""The ``index`` and ``search`` subcommands of the command line: a SQLite
index of PDN files (:mod:`draughts.pdn.index`) and queries on it."""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
from typing import Any

import attrs

from draughts._cli.arguments import integer
from draughts.pdn._validation_text import counted
from draughts.pdn.index import FileReport, Hit, Index


def add_parsers(commands: Any) -> None:
    """Register ``index`` and ``search`` on the subcommand parser."""
    index = commands.add_parser(
        "index",
        help="index PDN files in a SQLite database",
        description="Read every game of the PDN files and write one row per game (file, "
        "offset, variant, result, plies, final FEN, errors, tags) to a SQLite database; with "
        "--positions also the position key after every ply of the main line. A file indexed "
        "already and unchanged is skipped; each file is written in one transaction.",
    )
    index.add_argument("files", nargs="+", metavar="FILE", help="PDN files to add (compressed too)")
    index.add_argument("--db", required=True, help="the database file (created if absent)")
    index.add_argument(
        "--positions",
        action="store_true",
        help="also index every position of the main lines (for search --fen)",
    )
    index.add_argument(
        "--variant", default=None, help="variant of games without GameType/Variant tags"
    )
    index.add_argument("--json", action="store_true", help="print a JSON report")
    index.set_defaults(run=_index)

    search = commands.add_parser(
        "search",
        help="find games in a database made by index",
        description="List the games of an index that meet every condition given: one line "
        "per game (file:game number: White - Black result, and the ply where the position "
        "was reached), or a JSON list with --json. Exits with 1 when no game is found.",
    )
    search.add_argument("--db", required=True, help="the database made by draughts index")
    search.add_argument(
        "--fen", help="a position the game reached, by any move order (needs --positions)"
    )
    search.add_argument("--moves", help='the first moves of the game, e.g. "11-15 23-19"')
    search.add_argument(
        "--tag",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a tag the game has (repeatable); * ? [ make VALUE a glob pattern",
    )
    search.add_argument("--player", help="part of the White or Black tag, any case")
    search.add_argument(
        "--variant",
        default=None,
        help="variant of --fen and --moves (default: the database's, if it has one only, "
        "else international)",
    )
    search.add_argument("--limit", type=integer(1), default=None, help="list at most N games")
    search.add_argument("--json", action="store_true", help="print a JSON list")
    search.set_defaults(run=_search)


def _index(args: argparse.Namespace) -> int:
    reports = []
    try:
        with Index(args.db) as index:
            for path in args.files:
                report = index.add_file(path, variant=args.variant, positions=args.positions)
                reports.append(report)
                if not args.json:
                    print(_report_line(report), flush=True)
    except (OSError, ValueError, sqlite3.Error) as error:
        print(f"draughts index: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([attrs.asdict(r) for r in reports], indent=2, ensure_ascii=False))
    return 0


def _report_line(report: FileReport) -> str:
    if report.status == "unchanged":
        return f"{report.path}: unchanged, {counted(report.games, 'game')}"
    text = f"{report.path}: {report.status}, {counted(report.games, 'game')}"
    if report.games_with_errors:
        text += f" ({report.games_with_errors} with errors)"
    if report.positions:
        text += f", {report.positions} positions"
    return text + f" in {report.seconds:.1f} s"


def _search(args: argparse.Namespace) -> int:
    tags = []
    for item in args.tag:
        name, equals, value = item.partition("=")
        if not equals or not name:
            print(f"draughts search: --tag wants NAME=VALUE, not {item!r}", file=sys.stderr)
            return 2
        tags.append((name, value))
    criteria: dict[str, Any] = {
        "position": args.fen,
        "moves": args.moves,
        "tags": tags,
        "player": args.player,
        "variant": args.variant,
    }
    if not os.path.exists(args.db):
        print(f"draughts search: no database {args.db}", file=sys.stderr)
        return 2
    try:
        with Index(args.db) as index:
            if args.fen is not None and not any(keys for _, _, keys in index.files()):
                print(
                    f"draughts search: {args.db} has no positions: index with --positions",
                    file=sys.stderr,
                )
                return 2
            hits = index.search(**criteria, limit=args.limit)
            total = len(hits)
            if args.limit is not None and total == args.limit:
                total = index.count(**criteria)
    except (OSError, ValueError, sqlite3.Error) as error:
        print(f"draughts search: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([attrs.asdict(hit) for hit in hits], indent=2, ensure_ascii=False))
    else:
        for hit in hits:
            print(_hit_line(hit))
        shown = f"{len(hits)} of {total}" if total > len(hits) else f"{total}"
        print(f"{shown} game{'s' if total != 1 else ''}")
    return 0 if hits else 1


def _hit_line(hit: Hit) -> str:
    players = f"{hit.white or '?'} - {hit.black or '?'}"
    text = f"{hit.file}:{hit.number}: {players} {hit.result or '?'}"
    if hit.ply is not None:
        text += f" (ply {hit.ply})"
    return text
