"""The cost of inferring the variant of games without tags.

    python benchmarks/infer.py                   # the OCA (22,621 English games, no tags)
    python benchmarks/infer.py --repeat 3 FILE   # another file

Each file is read into memory, then read game by game three ways, in turns,
``--repeat`` times (the median is printed): with ``variant=`` the file's
variant given (``--variant``, default english: no inference), with nothing
given (the variant of each game is inferred) and with
``infer_variant=False`` (PDN 3.0's international, which rejects an English
game at its first move). The visitor only counts moves, as ``draughts
validate`` does. Times are CPU seconds of this process.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from draughts import pdn
from draughts.board import Board
from draughts.move import Move

OCA = Path(__file__).resolve().parents[2] / "shared" / "data" / "pdn" / "english" / "OCA_2.0.pdn"


class _Count(pdn.BaseVisitor[tuple[int, int]]):
    def begin_game(self) -> None:
        self.moves = self.errors = 0

    def visit_move(self, board: Board, move: Move) -> None:
        self.moves += 1

    def handle_error(self, error: pdn.PdnError) -> None:
        self.errors += 1

    def result(self) -> tuple[int, int]:
        return self.moves, self.errors


def _reader(text: str, **options: object) -> Callable[[], tuple[int, int, int]]:
    def read() -> tuple[int, int, int]:
        handle = io.StringIO(text)
        games = moves = bad = 0
        while (found := pdn.read_game(handle, Visitor=_Count, **options)) is not None:  # type: ignore[call-overload]
            games += 1
            moves += found[0]
            bad += found[1] > 0
        return games, moves, bad

    return read


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", type=Path, default=[OCA])
    parser.add_argument("--variant", default="english")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for path in args.files:
        with pdn.open_pdn(path) as handle:
            text = handle.read()
        ways = {
            f"variant={args.variant!r}": _reader(text, variant=args.variant),
            "inferred": _reader(text),
            "infer_variant=False": _reader(text, infer_variant=False),
        }
        times: dict[str, list[float]] = {name: [] for name in ways}
        counts: dict[str, tuple[int, int, int]] = {}
        for _ in range(args.repeat):
            for name, read in ways.items():
                start = time.process_time()
                counts[name] = read()
                times[name].append(time.process_time() - start)
        given = statistics.median(times[f"variant={args.variant!r}"])
        print(f"{path.name}:")
        for name, samples in times.items():
            games, moves, bad = counts[name]
            median = statistics.median(samples)
            print(
                f"  {name:24} {games / median:8.0f} games/s  {median:6.2f} s  "
                f"x{median / given:4.2f}  ({games} games, {moves} moves, {bad} with errors)"
            )


if __name__ == "__main__":
    main()
