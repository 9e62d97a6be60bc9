"""Where the time goes: cProfile of this library's hot paths.

    python benchmarks/hotspots.py                   # every workload, top 15 functions
    python benchmarks/hotspots.py legal push_pop --top 25 --variant russian
    python benchmarks/hotspots.py --breakdown       # legal_moves cost by layer, no profiler

Workloads (on the positions of ``positions.json``):

* ``legal``: ``list(board.legal_moves)`` with the board's move cache cleared,
  the generation itself (as ``compare.py`` times it);
* ``push_pop``: push and pop the first legal move;
* ``perft``: ``legal_moves`` + ``push``/``pop`` from the start position;
* ``perft_fn``: ``draughts.perft`` from the start position;
* ``fen``: ``Board(fen).fen()``.

cProfile's own cost per call inflates small functions; use the ``tottime``
column to rank, and ``compare.py`` for real figures. ``--breakdown`` times,
without the profiler and in CPU time, what one ``legal_moves`` call costs at
each layer (the capture search, the steps, the raw list of legal moves, the
list of ``Move`` objects, the board's public list) on each kind of position,
as a Markdown table.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import draughts  # noqa: E402

WORKLOADS = ("legal", "push_pop", "perft", "perft_fn", "fen")


def _api_perft(board: draughts.Board, depth: int) -> int:
    moves = list(board.legal_moves)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += _api_perft(board, depth - 1)
        board.pop()
    return total


def workload(name: str, variant: str, fens: list[str]) -> Callable[[], object]:
    boards = [draughts.Board(fen, variant=variant) for fen in fens]
    if name == "legal":

        def run() -> object:
            for _ in range(40):
                for board in boards:
                    board._legal = None  # time the generation, not the cache
                    list(board.legal_moves)
            return None
    elif name == "push_pop":
        pairs = [(board, next(iter(board.legal_moves))) for board in boards]

        def run() -> object:
            for _ in range(400):
                for board, move in pairs:
                    board.push(move)
                    board.pop()
            return None
    elif name == "perft":

        def run() -> object:
            return _api_perft(draughts.Board(variant=variant), 5)
    elif name == "perft_fn":

        def run() -> object:
            return draughts.perft(draughts.Board(variant=variant), 6)
    elif name == "fen":

        def run() -> object:
            for _ in range(100):
                for fen in fens:
                    draughts.Board(fen, variant=variant).fen()
            return None
    else:
        raise ValueError(f"unknown workload {name!r}")
    return run


def breakdown(positions: dict[str, object], rounds: int = 7, repeat: int = 300) -> None:
    """Print microseconds per position for each layer of ``legal_moves``."""
    from draughts._core.pure import movegen as _movegen

    print(
        "| position set | `captures()` | `steps()` | `_movegen.legal_moves()` "
        "| `_movegen.board_moves()` | `list(board.legal_moves)` |"
    )
    print("|---|---|---|---|---|---|")
    for variant in ("international", "russian", "brazilian"):
        spots = positions[variant]["positions"]  # type: ignore[index]
        for kind in ("quiet", "capture", "king"):
            boards = [draughts.Board(p["fen"], variant=variant) for p in spots if p["kind"] == kind]
            cases = []
            for b in boards:
                c = b._turn
                occupied = b._men[0] | b._men[1] | b._kings[0] | b._kings[1]
                cases.append(
                    (
                        b,
                        (b._ctx.core, c, b._men[c], b._kings[c], b._men[1 - c], b._kings[1 - c]),
                        (b._ctx.core, c, b._men[c], b._kings[c], occupied),
                    )
                )

            def fresh_list(b: draughts.Board) -> object:
                b._legal = None
                return list(b.legal_moves)

            layers: list[Callable[[tuple[draughts.Board, tuple, tuple]], object]] = [
                lambda case: _movegen.captures(*case[1]),
                lambda case: _movegen.steps(*case[2]),
                lambda case: _movegen.legal_moves(*case[1]),
                lambda case: _movegen.board_moves(*case[1]),
                lambda case: fresh_list(case[0]),
            ]
            samples: list[list[float]] = [[] for _ in layers]
            for _ in range(rounds):
                for layer, out in zip(layers, samples, strict=True):
                    start = time.process_time()
                    for _ in range(repeat):
                        for case in cases:
                            layer(case)
                    out.append((time.process_time() - start) / (repeat * len(cases)) * 1e6)
            cells = " | ".join(f"{statistics.median(s):.2f}" for s in samples)
            print(f"| {variant} {kind} | {cells} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "workloads", nargs="*", default=list(WORKLOADS), help=f"any of {', '.join(WORKLOADS)}"
    )
    parser.add_argument("--variant", default="international")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="time legal_moves layer by layer instead of profiling",
    )
    args = parser.parse_args()
    positions = json.loads((HERE / "positions.json").read_text())["variants"]
    if args.breakdown:
        breakdown(positions)
        return
    fens = [p["fen"] for p in positions[args.variant]["positions"]]
    for name in args.workloads:
        run = workload(name, args.variant, fens)
        profiler = cProfile.Profile()
        profiler.runcall(run)
        print(f"== {name} ({args.variant})")
        stats = pstats.Stats(profiler)
        stats.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
