"""A validation written out: the lines ``draughts validate`` prints, and its
``--json`` report (:mod:`draughts.pdn.validation`'s types as JSON values).
:mod:`draughts.dask` and the command line both write through this module.

>>> import io
>>> from draughts.pdn import validate
>>> text = "1. 32-28 19-23 2. 28-22 *\\n"
>>> for line in text_lines(validate(io.BytesIO(text.encode()))):  # doctest: +ELLIPSIS
...     print(line)
<stream>:1:19: illegal move '28-22' in W:W28,31,33-50:B1-18,20,23: ...
<stream>: 1 game read as international 1 (by the evidence 1)
1 file, 1 game, 2 moves, 1 game with errors (illegal 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Protocol

from draughts.pdn.headers import PdnError
from draughts.pdn.validation import FileSummary, GameReport, Summary


class Validated(Protocol):
    """What is written out: the reports, then their summary (a
    :class:`~draughts.pdn.validation.Validation`)."""

    def __iter__(self) -> Iterator[GameReport]: ...

    def summary(self) -> Summary: ...


_DECIDED = {
    "tag": "by tags",
    "caller": "as asked",
    "evidence": "by the evidence",
    "file": "by the file's other games",
    "guess": "guessed",
}
"""How a variant was decided, as the summary line of a file says it."""


class _FileLines:
    """The entries of one file, gathered while its reports come."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.entries: list[tuple[int, int, str]] = []  # line, column, text
        self.json_errors: list[dict[str, Any]] = []
        self.guessed: list[dict[str, Any]] = []
        # A record the end of the file or the next game may have cut: told
        # as a warning, though the game has no error (an error of strict
        # mode, where it is among the file's PDN 3.0 violations).
        self.cut: list[tuple[int, int, str]] = []
        self.json_warnings: list[dict[str, Any]] = []

    def add(self, report: GameReport) -> None:
        for error in report.errors:
            self.entries.append((error.line, error.column, error.message))
            self.json_errors.append(error_entry(report.number, error))
        for warning in report.warnings:
            if warning.kind == "incomplete":
                text = f"game {report.number}: warning: {warning.message}"
                self.cut.append((warning.line, warning.column, text))
                self.json_warnings.append(error_entry(report.number, warning))
        if report.guessed:
            self.entries.append((report.line, 1, f"game {report.number}: {report.reason}"))
            self.guessed.append(
                {
                    "game": report.number,
                    "line": report.line,
                    "offset": report.offset,
                    "variant": report.variant,
                    "decided_by": report.decided_by,
                    "reason": report.reason,
                }
            )


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun``, plural but for one: ``counted(1, "game")`` is
    ``'1 game'``, ``counted(2, "game")`` is ``'2 games'``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _gather(reports: Iterable[GameReport]) -> list[_FileLines]:
    """Each file's entries (its reports may be its problems only: a file's
    game numbers grow, and start again with the next file)."""
    files: list[_FileLines] = []
    last = 0
    for report in reports:
        if not files or report.number <= last or files[-1].file != report.file:
            files.append(_FileLines(report.file))
        last = report.number
        files[-1].add(report)
    return files


def _pair(summary: Summary, gathered: list[_FileLines]) -> Iterator[tuple[FileSummary, _FileLines]]:
    """Each file's summary with its gathered entries (a file without games has none)."""
    left = iter(gathered)
    pending = next(left, None)
    for file in summary.files:
        if pending is not None and pending.file == file.file and file.games:
            yield file, pending
            pending = next(left, None)
        else:
            yield file, _FileLines(file.file)


def text_lines(validation: Validated) -> list[str]:
    """What ``draughts validate`` prints: each file's errors, the records
    that may be cut (in strict mode, its PDN 3.0 violations instead, which
    count them) and the games whose variant its moves left open, by line; a
    line per file; the summary."""
    gathered = _gather(validation)
    summary = validation.summary()
    lines: list[str] = []
    for file, found in _pair(summary, gathered):
        entries = list(found.entries)
        if file.pdn3_violations is None:
            entries += found.cut
        entries += [(e.line, e.column, e.message) for e in file.pdn3_violations or ()]
        entries.sort(key=lambda entry: (entry[0], entry[1]))
        lines += [f"{file.file}:{line}:{column}: {text}" for line, column, text in entries]
    lines += [_variant_line(file) for file in summary.files]
    by_kind = ", ".join(f"{kind} {count}" for kind, count in summary.errors_by_kind)
    lines.append(
        f"{counted(len(summary.files), 'file')}, {counted(summary.games, 'game')}, "
        f"{counted(summary.plies, 'move')}, {counted(summary.games_with_errors, 'game')} "
        "with errors" + (f" ({by_kind})" if by_kind else "")
    )
    violations = summary.pdn3_violations
    if violations is not None:
        lines.append(counted(violations, "PDN 3.0 violation"))
    return lines


def _variant_line(file: FileSummary) -> str:
    """Which variants a file's games were read as, and how they were decided."""
    read_as = ", ".join(f"{name or '(not set up)'} {count}" for name, count in file.variants)
    how = ", ".join(f"{_DECIDED[how]} {count}" for how, count in file.decided_by)
    games = file.games
    return (
        f"{file.file}: {games} game{'s' if games != 1 else ''}"
        + (f" read as {read_as}" if read_as else "")
        + (f" ({how})" if how else "")
    )


def json_report(validation: Validated) -> dict[str, Any]:
    """The ``--json`` report: per file its :class:`FileSummary`, its errors
    (in strict mode its PDN 3.0 violations too), the warnings of records
    that may be cut (kind ``"incomplete"``, in strict mode among the
    violations as well) and the games whose variant its moves left open;
    and whether all is ok."""
    gathered = _gather(validation)
    summary = validation.summary()
    files = []
    for file, found in _pair(summary, gathered):
        errors = list(found.json_errors)
        entry: dict[str, Any] = {
            "file": file.file,
            "games": file.games,
            "moves": file.plies,
            "games_with_errors": file.games_with_errors,
            "errors_by_kind": dict(file.errors_by_kind),
            "variants": dict(file.variants),
            "decided_by": dict(file.decided_by),
            "inferred": sum(
                n for how, n in file.decided_by if how in ("evidence", "file", "guess")
            ),
            "guessed": found.guessed,
        }
        if file.pdn3_violations is not None:
            entry["pdn3_violations"] = len(file.pdn3_violations)
            errors += [error_entry(None, e) for e in file.pdn3_violations]
            errors.sort(key=lambda e: (e["line"], e["column"]))
        entry["errors"] = errors
        entry["warnings"] = found.json_warnings
        files.append(entry)
    return {"files": files, "ok": summary.ok}


def error_entry(game: int | None, error: PdnError) -> dict[str, Any]:
    """An error as a JSON object (``game`` None: a violation of the file)."""
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
