"""The ``validate`` and ``convert`` subcommands of the command line."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from typing import IO, Any

from draughts import pdn
from draughts.board import Board
from draughts.move import Move

_PROGRESS_BYTES = 1 << 20  # files at least this large get a progress bar on a terminal
_PROGRESS_SECONDS = 0.25  # between updates of the bar


def add_parsers(commands: Any) -> None:
    """Register ``validate`` and ``convert`` on the subcommand parser."""
    validate = commands.add_parser(
        "validate",
        help="read PDN files and check every move",
        description="Read every game of the PDN files, replay every move and report each "
        "problem as file:line:col: message. Exits with 1 when a game has an error.",
    )
    validate.add_argument("files", nargs="+", metavar="FILE")
    validate.add_argument(
        "--variant", default=None, help="variant of games without GameType/Variant tags"
    )
    validate.add_argument(
        "--strict", action="store_true", help="also report every violation of the PDN 3.0 grammar"
    )
    validate.add_argument("--json", action="store_true", help="print a JSON report")
    validate.set_defaults(run=_validate)

    convert = commands.add_parser(
        "convert",
        help="rewrite a PDN file as clean PDN 3.0",
        description="Read every game of IN and write it to OUT as PDN 3.0 (UTF-8). Moves after "
        "an error are left out and reported; exits with 1 when a game has an error.",
    )
    convert.add_argument("input", metavar="IN")
    convert.add_argument("output", metavar="OUT")
    convert.add_argument(
        "--variant", default=None, help="variant of games without GameType/Variant tags"
    )
    convert.set_defaults(run=_convert)


_Checked = tuple[int, list[pdn.PdnError], list[pdn.PdnError]]


class _Checker(pdn.BaseVisitor[_Checked]):
    """Counts the moves of a game (side lines too) and keeps its errors and
    warnings, without building a tree."""

    def begin_game(self) -> None:
        self.moves = 0
        self.errors: list[pdn.PdnError] = []
        self.warnings: list[pdn.PdnError] = []

    def visit_move(self, board: Board, move: Move) -> None:
        self.moves += 1

    def handle_error(self, error: pdn.PdnError) -> None:
        self.errors.append(error)

    def handle_warning(self, warning: pdn.PdnError) -> None:
        self.warnings.append(warning)

    def result(self) -> _Checked:
        return self.moves, self.errors, self.warnings


def _progress(handle: IO[str], path: str, size: int) -> None:
    buffer = getattr(handle, "buffer", None)
    done = buffer.tell() if buffer is not None else 0
    print(f"\r{path}: {100 * done // max(size, 1):3d}%", end="", file=sys.stderr, flush=True)


def _check_file(path: str, variant: str | None, strict: bool) -> dict[str, Any]:
    report: dict[str, Any] = {
        "file": path,
        "games": 0,
        "moves": 0,
        "games_with_errors": 0,
        "errors_by_kind": Counter(),
        "errors": [],
    }
    notation: list[pdn.PdnError] = []
    size = os.path.getsize(path)
    show = sys.stderr.isatty() and size >= _PROGRESS_BYTES
    shown = time.monotonic()
    with pdn.open_pdn(path) as handle:
        while True:
            result = pdn.read_game(handle, variant=variant, Visitor=_Checker)
            if result is None:
                break
            moves, errors, warnings = result
            notation += warnings
            report["games"] += 1
            report["moves"] += moves
            if errors:
                report["games_with_errors"] += 1
                report["errors_by_kind"].update({e.kind for e in errors})
                for error in errors:
                    report["errors"].append(_error_entry(report["games"], error))
            if show and time.monotonic() - shown >= _PROGRESS_SECONDS:
                _progress(handle, path, size)
                shown = time.monotonic()
    if show:
        print("\r" + " " * (len(path) + 6) + "\r", end="", file=sys.stderr)
    if strict:
        with pdn.open_pdn(path) as handle:
            violations = pdn.check_strict(handle) + notation
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


def _validate(args: argparse.Namespace) -> int:
    reports = []
    for path in args.files:
        try:
            reports.append(_check_file(path, args.variant, args.strict))
        except (OSError, ValueError) as error:
            print(f"draughts validate: {path}: {error}", file=sys.stderr)
            return 2
    failed = any(r["games_with_errors"] or r.get("pdn3_violations") for r in reports)
    if args.json:
        for report in reports:
            report["errors_by_kind"] = dict(report["errors_by_kind"])
        print(json.dumps({"files": reports, "ok": not failed}, indent=2, ensure_ascii=False))
        return 1 if failed else 0
    kinds: Counter[str] = Counter()
    for report in reports:
        for entry in report["errors"]:
            print(f"{report['file']}:{entry['line']}:{entry['column']}: {entry['message']}")
        kinds.update(report["errors_by_kind"])
    games = sum(r["games"] for r in reports)
    moves = sum(r["moves"] for r in reports)
    bad = sum(r["games_with_errors"] for r in reports)
    by_kind = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
    print(
        f"{len(reports)} file{'s' if len(reports) != 1 else ''}, {games} games, "
        f"{moves} moves, {bad} games with errors" + (f" ({by_kind})" if by_kind else "")
    )
    if args.strict:
        violations = sum(r["pdn3_violations"] for r in reports)
        print(f"{violations} PDN 3.0 violation{'s' if violations != 1 else ''}")
    return 1 if failed else 0


def _convert(args: argparse.Namespace) -> int:
    games = bad = 0
    try:
        with (
            pdn.open_pdn(args.input) as source,
            open(args.output, "w", encoding="utf-8", newline="\n") as target,
        ):
            exporter = pdn.FileExporter(target)
            while True:
                game = pdn.read_game(source, variant=args.variant)
                if game is None:
                    break
                games += 1
                if game.errors:
                    bad += 1
                    for error in game.errors:
                        print(f"{args.input}:{error}", file=sys.stderr)
                if "GameType" not in game.headers:
                    pdn.set_variant_tags(game.headers, game.variant)
                game.accept(exporter)
    except (OSError, ValueError) as error:
        print(f"draughts convert: {error}", file=sys.stderr)
        return 2
    print(f"{games} games written to {args.output}, {bad} with errors")
    return 1 if bad else 0
