"""The native search's speed at a fixed tree: nodes per second of the
built-in engine's C search to a fixed depth on the International positions
of ``positions.json``, and a fingerprint of the tree it searched (per
position the nodes, the score and the principal variation), so that a
change meant to make the search faster and nothing else can be checked to
leave every tree as it was::

    python benchmarks/native_speed.py --depth 9
    python benchmarks/native_speed.py --depth 9 --expect 3f2a...   # exit 1 if the trees differ
    python benchmarks/native_speed.py --depth 9 --repeat 3          # best of 3 per position

Each search starts from a new searcher (an empty table), as ``search_nodes.py``
does. The seconds are the process's CPU seconds in the searches alone (the
search runs in this thread); the machine's load average is printed with
them, since other jobs on the same cores still slow them (caches, clock). Instruction
counts (``valgrind --tool=callgrind``) are the load-independent measure.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import draughts  # noqa: E402
from draughts._context import context  # noqa: E402
from draughts.engine import native_search as _native_search  # noqa: E402
from draughts.engine import search as _search  # noqa: E402


def search_one(fen: str, depth: int) -> tuple[int, int, list[object], float]:
    """Nodes, score, principal variation and seconds of one search."""
    board = draughts.Board(fen)
    ctx = context(board.variant)
    searcher = _native_search.searcher(ctx.core, ctx.keys)
    pos = _search.raw_position(board, ctx.core)
    start = time.process_time()
    _depth, score, pv = searcher.iterate(pos, depth, full_width=4)
    seconds = time.process_time() - start
    return searcher.nodes, score, list(pv), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=9)
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=1, help="best time of this many runs")
    parser.add_argument("--expect", help="the fingerprint the trees must have")
    parser.add_argument("--quiet", action="store_true", help="no line per position")
    args = parser.parse_args()
    if draughts.BACKEND != "native":
        sys.exit("the native core is not built (or DRAUGHTS_PURE=1 is set)")
    data = json.loads((HERE / "positions.json").read_text())
    fens = [p["fen"] for p in data["variants"]["international"]["positions"]][: args.positions]
    digest = hashlib.sha256()
    total_nodes, total_seconds = 0, 0.0
    for i, fen in enumerate(fens):
        best = float("inf")
        for _ in range(args.repeat):
            nodes, score, pv, seconds = search_one(fen, args.depth)
            best = min(best, seconds)
        digest.update(repr((nodes, score, pv)).encode())
        total_nodes += nodes
        total_seconds += best
        if not args.quiet:
            print(f"{i + 1:2} {nodes:10,} nodes {score:7} {best:7.3f} s {nodes / best:12,.0f}/s")
    fingerprint = digest.hexdigest()[:16]
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"{len(fens)} positions, depth {args.depth}: {total_nodes:,} nodes, "
        f"{total_seconds:.2f} s, {total_nodes / total_seconds:,.0f} nodes/s; "
        f"fingerprint {fingerprint}; load average {load}"
    )
    if args.expect is not None and args.expect != fingerprint:
        sys.exit(f"the trees differ: fingerprint {fingerprint}, expected {args.expect}")


if __name__ == "__main__":
    main()
