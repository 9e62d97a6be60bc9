"""The built-in engine's search in C against the pure backend's, in one run,
alternating: nodes per second for the same depth, and the depth the "hard"
level reaches in the same time.

The native side runs in this process; the pure side in a child interpreter
started with ``DRAUGHTS_PURE=1`` (the pure generator and the Python search,
as without a C compiler), fed one position per line. The positions are those
of ``engine_speed.py``: ply 40 of the first ``--positions`` International
master games of the corpus (``../shared/data/pdn/international``)::

    python benchmarks/engine_native.py --positions 20 --depth 5
    python benchmarks/engine_native.py --positions 20 --time 1

With ``--depth`` both sides must visit the same nodes (the C search is the
Python one node for node): the run stops with an error if they do not.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

from engine_speed import middle_games  # noqa: E402

import draughts  # noqa: E402
from draughts.engine import Limit, builtin  # noqa: E402


def analyse(fen: str, depth: int | None, seconds: float) -> dict[str, object]:
    """One search by the hard level, as plain values."""
    board = draughts.Board(fen, variant="international")
    limit = Limit(depth=depth) if depth else Limit(time=seconds)
    analysis = builtin("hard").analyse(board, limit)
    assert analysis.nodes is not None and analysis.time
    return {
        "depth": analysis.depth,
        "nodes": analysis.nodes,
        "time": analysis.time,
        "pv": [str(move) for move in analysis.pv],
        "score": str(analysis.score),
    }


def worker() -> None:
    """The pure side: one JSON request per line on stdin, one answer each."""
    if draughts.BACKEND != "pure":
        sys.exit("the worker must run with DRAUGHTS_PURE=1")
    for line in sys.stdin:
        request = json.loads(line)
        answer = analyse(request["fen"], request["depth"], request["time"])
        print(json.dumps(answer), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--ply", type=int, default=40)
    parser.add_argument("--time", type=float, default=1.0)
    parser.add_argument("--depth", type=int, help="search to this depth instead")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    if draughts.BACKEND != "native":
        sys.exit("the native core is not built (or DRAUGHTS_PURE=1 is set)")
    env = dict(os.environ, DRAUGHTS_PURE="1")
    child = subprocess.Popen(
        [sys.executable, __file__, "--worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert child.stdin is not None and child.stdout is not None

    def pure(fen: str) -> dict[str, object]:
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(json.dumps({"fen": fen, "depth": args.depth, "time": args.time}) + "\n")
        child.stdin.flush()
        answer: dict[str, object] = json.loads(child.stdout.readline())
        return answer

    rates: dict[str, list[float]] = {"native": [], "pure": []}
    depths: dict[str, list[int]] = {"native": [], "pure": []}
    for i, board in enumerate(middle_games(args.positions, args.ply)):
        fen = board.fen()
        order = ["native", "pure"] if i % 2 == 0 else ["pure", "native"]
        results = {
            side: analyse(fen, args.depth, args.time) if side == "native" else pure(fen)
            for side in order
        }
        line = []
        for side in ("native", "pure"):
            r = results[side]
            nodes, seconds, depth = int(r["nodes"]), float(r["time"]), int(r["depth"])  # type: ignore[call-overload]
            rates[side].append(nodes / seconds)
            depths[side].append(depth)
            line.append(f"{side} depth {depth:2} {nodes:8} nodes {seconds:6.2f} s")
        if args.depth and (results["native"]["nodes"], results["native"]["pv"]) != (
            results["pure"]["nodes"],
            results["pure"]["pv"],
        ):
            sys.exit(f"the searches differ on {fen}: {results}")
        ratio = rates["native"][-1] / rates["pure"][-1]
        print(f"{i + 1:2} {fen[:36]:36}  " + "  ".join(line) + f"  x{ratio:.1f}", flush=True)
    child.stdin.close()
    child.wait()
    ratios = [n / p for n, p in zip(rates["native"], rates["pure"], strict=True)]
    gains = [n - p for n, p in zip(depths["native"], depths["pure"], strict=True)]
    for side in ("native", "pure"):
        print(
            f"{side}: median {statistics.median(rates[side]):.0f} nodes/s, "
            f"mean depth {statistics.mean(depths[side]):.2f} "
            f"(min {min(depths[side])}, max {max(depths[side])})"
        )
    print(
        f"native/pure nodes/s: median x{statistics.median(ratios):.1f} "
        f"(min x{min(ratios):.1f}, max x{max(ratios):.1f}); depth gained: mean "
        f"{statistics.mean(gains):.2f} (min {min(gains)}, max {max(gains)}); "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )


if __name__ == "__main__":
    main()
