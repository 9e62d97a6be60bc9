"""Nodes the built-in engine's search takes to complete a fixed depth, on the
International positions of ``positions.json``, with the search's tunable
constants as they are and as given: a measure of search changes (aspiration
windows, extensions) that the machine's load does not move.

    python benchmarks/search_nodes.py --depth 8 --set ASPIRATION=0

prints, per setting, the total nodes, the nodes per position's median ratio
to the first setting, and how many positions chose another first move.

    python benchmarks/search_nodes.py --depth 9 --plies 30 --set TABLE_ENTRIES=65536

plays instead, from each position, ``--plies`` plies of the searches' first
moves with one searcher renewed between moves (its table kept, as
``hard`` keeps it), and prints the nodes and seconds of all the searches:
the table's size and replacement matter there, and a big table also
costs time per node. Every setting plays the moves the first one chose;
``--line FILE`` keeps them, so that another source tree can search the same
positions.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import draughts  # noqa: E402
from draughts._context import context  # noqa: E402
from draughts.engine import native_search as _native_search  # noqa: E402
from draughts.engine import search as _search  # noqa: E402
from draughts.engine.builtin import _reversible_keys  # noqa: E402


def run(fens: list[str], depth: int, settings: dict[str, int]) -> list[tuple[int, object]]:
    """(nodes, first move) per position, with ``settings`` in force."""
    saved = {name: getattr(_search, name) for name in settings}
    for name, value in settings.items():
        setattr(_search, name, value)
    try:
        found = []
        for fen in fens:
            board = draughts.Board(fen)
            ctx = context(board.variant)
            searcher = _native_search.searcher(ctx.core, ctx.keys)
            pos = _search.raw_position(board, ctx.core)
            _depth, _score, pv = searcher.iterate(pos, depth, full_width=4)
            found.append((searcher.nodes, pv[0] if pv else None))
        return found
    finally:
        for name, value in saved.items():
            setattr(_search, name, value)


def run_games(
    fens: list[str], depth: int, plies: int, settings: dict[str, int], line: list[list[int]]
) -> tuple[int, float]:
    """Nodes and seconds of ``plies`` moves played from each position, each
    searched to ``depth`` by one renewed searcher. ``line`` holds, per
    position, the moves to play (indices into ``board.legal_moves``): where
    it has none yet, the searches' first moves are played and added, so
    that every setting searches the same positions."""
    saved = {name: getattr(_search, name) for name in settings}
    for name, value in settings.items():
        setattr(_search, name, value)
    nodes, seconds = 0, 0.0
    try:
        for fen, played in zip(fens, line, strict=True):
            board = draughts.Board(fen)
            ctx = context(board.variant)
            searcher = _native_search.searcher(ctx.core, ctx.keys)
            for ply in range(plies):
                if not board.legal_moves:
                    break
                if ply:
                    searcher.renew(game_keys=_reversible_keys(board))
                pos = _search.raw_position(board, ctx.core)
                reversible = len(_reversible_keys(board)) - 1
                start = time.perf_counter()
                _depth, _score, pv = searcher.iterate(
                    pos, depth, full_width=4, reversible=reversible
                )
                seconds += time.perf_counter() - start
                nodes += searcher.nodes
                legal = list(board.legal_moves)
                if len(played) == ply:
                    played.append(legal.index(ctx.core.moves.move(pv[0])))
                board.push(legal[played[ply]])
        return nodes, seconds
    finally:
        for name, value in saved.items():
            setattr(_search, name, value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--plies", type=int, default=0, help="play this many plies from each")
    parser.add_argument(
        "--line",
        type=Path,
        help="with --plies: the moves to play, read from this JSON file, or written to it",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        help="NAME=VALUE[,NAME=VALUE...]: constants of the search module, set together",
    )
    args = parser.parse_args()
    data = json.loads((HERE / "positions.json").read_text())
    fens = [p["fen"] for p in data["variants"]["international"]["positions"]][: args.positions]
    if args.plies:
        print(f"{len(fens)} positions, {args.plies} plies each, depth {args.depth}")
        line: list[list[int]] = [[] for _ in fens]
        if args.line is not None and args.line.exists():
            line = json.loads(args.line.read_text())
        for text in ["", *args.set]:
            pairs = (item.partition("=") for item in text.split(",") if item)
            nodes, seconds = run_games(
                fens, args.depth, args.plies, {name: int(value) for name, _, value in pairs}, line
            )
            if args.line is not None and not args.line.exists():
                args.line.write_text(json.dumps(line))
            rate = nodes / seconds
            print(f"{text or 'as it is'}: {nodes:,} nodes, {seconds:.2f} s, {rate:,.0f} nodes/s")
        return
    base = run(fens, args.depth, {})
    print(f"{len(fens)} positions, depth {args.depth}, backend {draughts.BACKEND}")
    print(f"as it is: {sum(n for n, _ in base):,} nodes")
    for text in args.set:
        pairs = (item.partition("=") for item in text.split(","))
        other = run(fens, args.depth, {name: int(value) for name, _, value in pairs})
        ratio = statistics.median(o[0] / b[0] for o, b in zip(other, base, strict=True))
        moved = sum(o[1] != b[1] for o, b in zip(other, base, strict=True))
        total = sum(n for n, _ in other)
        print(f"{text}: {total:,} nodes, median ratio to as-it-is {ratio:.3f}, {moved} other moves")


if __name__ == "__main__":
    main()
