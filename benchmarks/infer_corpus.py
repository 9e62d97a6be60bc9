"""Every corpus file read as it is and with its GameType/Variant tags removed.

    python benchmarks/infer_corpus.py              # ../shared/data/pdn, a Markdown table
    python benchmarks/infer_corpus.py FILE...

For each file: its games; the variants they were read as (the tags as they
are); how many of those were inferred (no tag named a variant); the variants
with the tags removed (blanked out, so that lines and columns stay); how many
games changed variant with the tags removed, and how many of those the
warning calls a guess; the games with errors both ways, and how many games
have errors that differ between the two readings.
"""

from __future__ import annotations

import io
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from draughts import pdn

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "data" / "pdn"
TAG = re.compile(r'\[[ \t]*(?:GameType|Variant)[ \t]*"[^"\n]*"[ \t]*\]')


def without_variant_tags(text: str) -> str:
    """``text`` with every GameType and Variant tag blanked out."""
    return TAG.sub(lambda match: " " * len(match.group(0)), text)


def games_of(text: str) -> list[pdn.Game]:
    handle = io.StringIO(text)
    games = []
    while (game := pdn.read_game(handle)) is not None:
        games.append(game)
    return games


def is_guess(game: pdn.Game) -> bool:
    return any(w.kind == "inferred" and "a guess" in w.message for w in game.warnings)


def errors(game: pdn.Game) -> list[tuple[int, int, str, str]]:
    return [(e.line, e.column, e.kind, e.message) for e in game.errors]


def compare(path: Path) -> dict[str, object]:
    with pdn.open_pdn(path) as handle:
        text = handle.read()
    stripped = without_variant_tags(text)
    as_is = games_of(text)
    bare = as_is if stripped == text else games_of(stripped)
    changed = [(a, b) for a, b in zip(as_is, bare, strict=True) if a.variant != b.variant]
    return {
        "file": str(path.relative_to(CORPUS)) if path.is_relative_to(CORPUS) else str(path),
        "games": len(as_is),
        "read as": Counter(g.variant.name for g in as_is),
        "inferred": sum(any(w.kind == "inferred" for w in g.warnings) for g in as_is),
        "tags removed": Counter(g.variant.name for g in bare),
        "changed": len(changed),
        "changed, a guess": sum(is_guess(b) for _, b in changed),
        "errors": sum(bool(g.errors) for g in as_is),
        "errors, tags removed": sum(bool(g.errors) for g in bare),
        "errors differ": sum(errors(a) != errors(b) for a, b in zip(as_is, bare, strict=True)),
    }


def corpus_files() -> list[Path]:
    return sorted(
        path
        for path in CORPUS.rglob("*")
        if path.suffix in (".pdn", ".phn") and path.parts[len(CORPUS.parts)] not in ("perft",)
    )


def _counts(counter: object) -> str:
    assert isinstance(counter, Counter)
    return ", ".join(f"{name} {count}" for name, count in sorted(counter.items()))


def main() -> None:
    paths = [Path(arg).resolve() for arg in sys.argv[1:]] or corpus_files()
    columns = [
        "file",
        "games",
        "read as",
        "inferred",
        "tags removed",
        "changed",
        "changed, a guess",
        "errors",
        "errors, tags removed",
        "errors differ",
    ]
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for path in paths:
        row = compare(path)
        cells = [_counts(row[c]) if isinstance(row[c], Counter) else str(row[c]) for c in columns]
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
