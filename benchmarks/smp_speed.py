"""The native search on 1 and 2 threads (Lazy SMP): on the International
positions of ``positions.json``, the wall-clock seconds the hard level
takes to complete a fixed depth, and the depth it completes in a fixed
time, one thread and two alternated position by position (so that a change
in the machine's load falls on both alike)::

    python benchmarks/smp_speed.py --depth 13 --positions 50
    python benchmarks/smp_speed.py --time 1.0 --positions 50
    python benchmarks/smp_speed.py --depth 13 --threads 1 3   # other counts

Each search starts from a new engine (an empty table). Helper threads need
a free core: the load average (``os.getloadavg``) is printed before and
after each round of positions, and the wall-clock figures mean little when
it is near or above the machine's cores. Two figures depend less on the
load: the main search's nodes to the depth, and the CPU seconds of its
thread (the work on the path to the result, which the helper's table
entries shorten). The trees differ from run to run on two
threads (the threads' timing decides what each finds in the table first).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import draughts  # noqa: E402
from draughts.engine import Limit  # noqa: E402
from draughts.engine.builtin import BuiltinEngine  # noqa: E402


def one(fen: str, threads: int, limit: Limit) -> tuple[float, int, int, int, float]:
    """Wall seconds, depth completed, nodes (of every thread), nodes of the
    main search and CPU seconds of the main search's thread (this one) of
    one search."""
    board = draughts.Board(fen)
    engine = BuiltinEngine("hard", threads=threads)
    start, cpu = time.perf_counter(), time.thread_time()
    analysis = engine.analyse(board, limit)
    seconds, cpu = time.perf_counter() - start, time.thread_time() - cpu
    searcher = engine._kept[board.variant]  # hard keeps its searcher
    main_nodes = getattr(searcher, "_own_nodes", searcher.nodes)
    return seconds, analysis.depth, analysis.nodes, main_nodes, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--depth", type=int, help="seconds to complete this depth")
    group.add_argument("--time", type=float, help="depth completed in this many seconds")
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--threads", type=int, nargs=2, default=[1, 2], metavar=("A", "B"))
    args = parser.parse_args()
    if draughts.BACKEND != "native":
        sys.exit("the native core is not built (or DRAUGHTS_PURE=1 is set)")
    data = json.loads((HERE / "positions.json").read_text())
    fens = [p["fen"] for p in data["variants"]["international"]["positions"]][: args.positions]
    limit = Limit(depth=args.depth) if args.depth else Limit(time=args.time)
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    results: dict[int, list[tuple[float, int, int, int, float]]] = {n: [] for n in args.threads}
    for i, fen in enumerate(fens):
        # Alternated: A first on even positions, B first on odd ones.
        order = args.threads if i % 2 == 0 else args.threads[::-1]
        for n in order:
            results[n].append(one(fen, n, limit))
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    a, b = args.threads
    for n in args.threads:
        seconds = [r[0] for r in results[n]]
        depths = [r[1] for r in results[n]]
        nodes = sum(r[2] for r in results[n])
        main_nodes = sum(r[3] for r in results[n])
        cpu = sum(r[4] for r in results[n])
        print(
            f"{n} thread(s): {sum(seconds):.2f} s in all ({cpu:.2f} CPU s on the main "
            f"search's thread), depth {statistics.mean(depths):.2f} on average, "
            f"{nodes / sum(seconds) / 1e6:.2f} M nodes/s (all threads), "
            f"{nodes:,} nodes, {main_nodes:,} of them the main search's"
        )
    ratios = [x[0] / y[0] for x, y in zip(results[a], results[b], strict=True)]
    if args.depth:
        total = sum(r[0] for r in results[a]) / sum(r[0] for r in results[b])
        median = statistics.median(ratios)
        print(f"time {a}/{b} threads: {total:.2f} in all, median per position {median:.2f}")
    if args.time:
        for n in args.threads:
            # The stop's delay: a search ends at its next look at the clock,
            # and waits for its helpers to see theirs.
            late = [1000 * (r[0] - args.time) for r in results[n]]
            print(
                f"{n} thread(s): ms beyond the time, median {statistics.median(late):.1f}, "
                f"most {max(late):.1f}"
            )
    deeper = sum(y[1] > x[1] for x, y in zip(results[a], results[b], strict=True))
    shallower = sum(y[1] < x[1] for x, y in zip(results[a], results[b], strict=True))
    print(f"positions {b} threads searched deeper: {deeper}, shallower: {shallower}")


if __name__ == "__main__":
    main()
