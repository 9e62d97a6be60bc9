"""PDN speed: games/s and moves/s for reading with replay, and for export.

    python benchmarks/pdn.py                       # every international corpus file
    python benchmarks/pdn.py --repeat 5 FILE...    # given files (international unless
                                                   # they say otherwise: --variant)

Three workloads on the same games, each timed ``--repeat`` times (the median
is printed): ``read+replay`` builds each game's tree with
:func:`draughts.pdn.read_game`, checking every move against the legal moves,
and drops it before reading the next (as a program streaming a file does);
``read+replay (no tree)`` does the same with a visitor that only counts, as
``draughts validate`` does; ``export`` writes every game back as PDN 3.0 text.
The files are read into memory first, so disk speed does not count. Times are
CPU seconds of this process (``time.process_time``), which drift less than
wall time on a shared machine.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

# This checkout's package, not another one installed in the environment.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from draughts import pdn
from draughts.board import Board
from draughts.move import Move

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "data" / "pdn" / "international"


class _Count(pdn.BaseVisitor[int]):
    def begin_game(self) -> None:
        self.moves = 0

    def visit_move(self, board: Board, move: Move) -> None:
        self.moves += 1

    def result(self) -> int:
        return self.moves


def _texts(paths: list[Path]) -> list[str]:
    texts = []
    for path in paths:
        with pdn.open_pdn(path) as handle:
            texts.append(handle.read())
    return texts


def _read_all(texts: list[str], variant: str | None) -> list[pdn.Game]:
    games = []
    for text in texts:
        handle = io.StringIO(text)
        while (game := pdn.read_game(handle, variant=variant)) is not None:
            games.append(game)
    return games


def _stream(texts: list[str], variant: str | None) -> int:
    count = 0
    for text in texts:
        handle = io.StringIO(text)
        while pdn.read_game(handle, variant=variant) is not None:
            count += 1
    return count


def _count_all(texts: list[str], variant: str | None) -> int:
    moves = 0
    for text in texts:
        handle = io.StringIO(text)
        while (count := pdn.read_game(handle, variant=variant, Visitor=_Count)) is not None:
            moves += count
    return moves


def _timed(work: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--variant", default=None, help="variant of tagless games")
    args = parser.parse_args(argv)
    paths = args.files or sorted(CORPUS.rglob("*.pdn"))
    if not paths:
        print(f"no files: give some, or put the corpus at {CORPUS}", file=sys.stderr)
        return 2
    texts = _texts(paths)
    games = _read_all(texts, args.variant)
    errors = sum(1 for game in games if game.errors)
    moves = sum(len(game.mainline_moves()) for game in games)
    all_moves = _count_all(texts, args.variant)
    print(
        f"{len(paths)} files, {len(games)} games, {moves} main-line moves "
        f"({all_moves} with side lines), {errors} games with errors; "
        f"median of {args.repeat} runs, CPU time"
    )
    rows = [
        ("read+replay", _timed(lambda: _stream(texts, args.variant), args.repeat)),
        ("read+replay (no tree)", _timed(lambda: _count_all(texts, args.variant), args.repeat)),
        ("export", _timed(lambda: [str(game) for game in games], args.repeat)),
    ]
    for name, seconds in rows:
        print(
            f"{name:22s} {seconds:7.3f} s  {len(games) / seconds:9,.0f} games/s  "
            f"{all_moves / seconds:11,.0f} moves/s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
