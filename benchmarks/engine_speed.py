"""Nodes per second and depth reached: the new built-in engine against the
old one (commit d73f3fd, taken from git by ``_old_engine.py``), in the same
run, alternating.

The positions are middle games: the position after ply 40 of the first
``--positions`` International master games of the corpus that reach it
(``../shared/data/pdn/international``). Each is searched for ``--time``
seconds by each engine, one after the other, or with ``--depth`` to that
depth, which says how much work each needs for the same depth (a measure
that a loaded machine does not change)::

    python benchmarks/engine_speed.py --positions 20 --time 1
    python benchmarks/engine_speed.py --positions 20 --depth 7
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

from _old_engine import old_engine_class  # noqa: E402

import draughts  # noqa: E402
from draughts import pdn  # noqa: E402
from draughts.engine import Limit, builtin  # noqa: E402

CORPUS = HERE.parents[1] / "shared/data/pdn/international"


def middle_games(count: int, ply: int) -> list[draughts.Board]:
    """The position after ``ply`` plies of the first ``count`` games that
    last longer (the side to move having more than one move)."""
    boards: list[draughts.Board] = []
    for path in sorted(CORPUS.glob("*.pdn")):
        with pdn.open_pdn(path) as handle:
            while len(boards) < count:
                game = pdn.read_game(handle, variant="international")
                if game is None:
                    break
                moves = game.mainline_moves()
                if game.errors or len(moves) <= ply + 10:
                    continue
                board = game.board()
                for move in moves[:ply]:
                    board.push(move)
                if board.legal_moves.count() > 1:
                    boards.append(board.copy(stack=False))
    return boards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--ply", type=int, default=40)
    parser.add_argument("--time", type=float, default=1.0)
    parser.add_argument("--depth", type=int, help="search to this depth instead")
    args = parser.parse_args()
    limit = Limit(depth=args.depth) if args.depth else Limit(time=args.time)
    boards = middle_games(args.positions, args.ply)
    engines = {"new": builtin("hard"), "old": old_engine_class()("hard")}
    rates: dict[str, list[float]] = {name: [] for name in engines}
    depths: dict[str, list[int]] = {name: [] for name in engines}
    nodes: dict[str, list[int]] = {name: [] for name in engines}
    seconds: dict[str, list[float]] = {name: [] for name in engines}
    for i, board in enumerate(boards):
        order = list(engines.items()) if i % 2 == 0 else list(engines.items())[::-1]
        line = []
        for name, engine in order:
            analysis = engine.analyse(board, limit)
            assert analysis.nodes is not None and analysis.time and analysis.depth
            rates[name].append(analysis.nodes / analysis.time)
            depths[name].append(analysis.depth)
            nodes[name].append(analysis.nodes)
            seconds[name].append(analysis.time)
            line.append(
                f"{name} depth {analysis.depth:2} {analysis.nodes:7} nodes"
                f" {analysis.time:5.2f} s {analysis.nodes / analysis.time:6.0f} n/s"
            )
        print(f"{i + 1:2} {board.fen()[:40]:40}  " + "  ".join(sorted(line)), flush=True)
    for name in engines:
        print(
            f"{name}: median {statistics.median(rates[name]):.0f} nodes/s, "
            f"mean depth {statistics.mean(depths[name]):.2f} "
            f"(min {min(depths[name])}, max {max(depths[name])}), "
            f"{sum(nodes[name])} nodes in {sum(seconds[name]):.1f} s over {len(boards)} positions"
        )


if __name__ == "__main__":
    main()
