"""The shot suite: positions from games lost to Moby Dam where hard's move
at 0.2 s was followed by a fall in material within 12 plies and a longer
search of ours scores it at least half a man below another move; and how
much search hard needs to play another move there.

    python benchmarks/shots.py --nodes 4000000

searches each position of ``shots.json`` (beside this script) with hard's
settings (reductions past 2 plies, ProbCut, no threats answered in
quiescence) on a new searcher, deepening until ``--nodes`` (or
``--seconds``), and prints for each position the depth, nodes and seconds
of the first iteration from which on every iteration's best move is not
the losing one ("solved"), or "not solved", then the choice of every
iteration from depth 1 (L the losing move, S the safe one, . another).
Nodes are the measure the machine's load does not move: the totals line
sums them, a position not solved counting its nodes at the limit.
``--set NAME=VALUE`` sets a constant of ``draughts.engine.search`` first,
to measure a search change. The positions were chosen because hard as it
was played the losing move there, so any change to the search, tactical or
not, tends to "solve" some of them: compare a change with a neutral one
(``--set ASPIRATION=0``, say), not only with hard as it was.

    python benchmarks/shots.py --find GAMES.pdn --seconds 3

proposes positions instead: in every game of the PDN file that
``builtin:hard`` lost, our last three free choices (a quiet move among
several) before our material fell for good by a man or more within 12
plies, where a search of ``--seconds`` picks another move and scores the
move played at least half a man below it, while some iteration from depth
6 on (hard's least) chose the move played. Its lines are the JSON entries
the suite reads (the move the long search prefers is kept as the safe
move).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from engine_match import material  # noqa: E402

import draughts  # noqa: E402
from draughts import pdn  # noqa: E402
from draughts._context import context  # noqa: E402
from draughts.engine import native_search as _native_search  # noqa: E402
from draughts.engine import search as _search  # noqa: E402
from draughts.engine.builtin import _moves  # noqa: E402

SUITE = HERE / "shots.json"
FULL_WIDTH = 2  # hard's: every line gets two plies unreduced
MIN_DEPTH = 6  # hard's least depth: a move chosen only below it is never played
INTERNATIONAL = draughts.variant.INTERNATIONAL


def deepen(
    fen: str, seconds: float, only: str | None = None, nodes: int | None = None
) -> list[tuple[int, int, int, float, str]]:
    """(depth, score, nodes, seconds, best move) of every complete
    iteration of hard's search of ``fen`` within ``seconds`` (a new
    searcher); ``only``: the root searches that move alone."""
    board = draughts.Board(fen, variant=INTERNATIONAL)
    ctx = context(board.variant)
    start = time.monotonic()
    searcher = _native_search.searcher(
        ctx.core, ctx.keys, deadline=None if nodes else start + seconds, max_nodes=nodes
    )
    searcher.threat_budget = searcher.threat_extensions = 0
    pos = _search.raw_position(board, ctx.core)
    if only is not None:
        raw = _search.legal(ctx.core, pos)
        searcher.root = [
            r for r, m in zip(raw, _moves(ctx.core, raw), strict=True) if str(m) == only
        ]
        if not searcher.root:
            raise SystemExit(f"{fen}: {only} is not legal")
    rows = []

    def report(depth: int, score: int, pv: list[object]) -> None:
        move = str(_moves(ctx.core, pv)[0]) if pv else "?"  # type: ignore[arg-type]
        rows.append((depth, score, searcher.nodes, time.monotonic() - start, move))

    with contextlib.suppress(_search.LimitReached):
        searcher.iterate(pos, 64, 1, report=report, full_width=FULL_WIDTH)
    return rows


def solve(entry: dict[str, str], seconds: float, nodes: int | None) -> tuple[str, int]:
    rows = deepen(entry["fen"], seconds, nodes=nodes)
    losing = entry["losing"]
    solved = None
    for row in rows:
        if row[4] == losing:
            solved = None
        elif solved is None:
            solved = row
    last = rows[-1]
    # The iterations' choices: L the losing move, S the safe one, . another.
    trace = "".join("L" if r[4] == losing else "S" if r[4] == entry["safe"] else "." for r in rows)
    if solved is None:
        return (
            f"not solved      depth {last[0]:>2}  {last[2]:>11,} nodes {last[3]:6.2f} s  {trace}",
            last[2],
        )
    depth, _score, nodes, spent, move = solved
    return (
        f"solved by {move:<6} depth {depth:>2}  {nodes:>11,} nodes {spent:6.2f} s  {trace}",
        nodes,
    )


def run_suite(seconds: float, nodes: int | None) -> None:
    entries = json.loads(SUITE.read_text())
    total = 0
    solved = 0
    for i, entry in enumerate(entries, 1):
        line, spent = solve(entry, seconds, nodes)
        total += spent
        solved += line.startswith("solved")
        print(f"{i:>2} {entry['game']:<14} {entry['losing']:>6}: {line}", flush=True)
    limit = f"{nodes:,} nodes" if nodes else f"{seconds} s"
    print(f"solved {solved} of {len(entries)} within {limit}; nodes {total:,}")


def lead(board: draughts.Board, color: draughts.Color) -> int:
    """``color``'s material lead in men, a king counting three."""
    return material(board) if color == draughts.WHITE else -material(board)


def find(paths: list[Path], seconds: float) -> None:
    for path in paths:
        with pdn.open_pdn(path) as handle:
            number = 0
            while (game := pdn.read_game(handle)) is not None:
                number += 1
                find_in_game(game, f"{path.stem}#{number}", seconds)


def find_in_game(game: object, name: str, seconds: float) -> None:
    headers = game.headers  # type: ignore[attr-defined]
    ours = draughts.WHITE if headers.get("White", "").startswith("builtin") else draughts.BLACK
    if headers.get("Result") != ("0-2" if ours == draughts.WHITE else "2-0"):
        return
    board = game.board()  # type: ignore[attr-defined]
    seen = []  # (fen, move played, balance, a free choice)
    for move in game.mainline_moves():  # type: ignore[attr-defined]
        if board.turn == ours:
            legal = list(board.legal_moves)
            free = len(legal) > 1 and not legal[0].is_capture
            seen.append((board.fen(), str(move), lead(board, ours), free))
        else:
            seen.append((board.fen(), str(move), lead(board, ours), False))
        board.push(move)
    balance = [row[2] for row in seen]
    for i in range(len(seen)):
        _fen, _played, before, free = seen[i]
        after = balance[i + 1 : i + 13]
        if not free or before < 0 or len(after) < 12 or max(after[-4:]) > before - 1:
            continue
        if any(seen[j][3] for j in range(i + 1, i + 13) if balance[j] >= before):
            continue  # a later free choice before the fall
        # The fall's first: our last three free choices before it, latest first.
        choices = [j for j in range(i, max(-1, i - 8), -1) if seen[j][3]][:3]
        for j in choices:
            check(seen[j][0], seen[j][1], f"{name} ply {j + 1}", seconds)
        return


def check(fen: str, played: str, name: str, seconds: float) -> None:
    rows = deepen(fen, seconds)
    best = rows[-1]
    if not any(row[4] == played for row in rows if row[0] >= MIN_DEPTH):
        print(f"# {name}: {played} not chosen from depth {MIN_DEPTH} on", flush=True)
        return
    if best[4] == played:
        print(f"# {name}: {played} also chosen by {seconds} s (depth {best[0]})", flush=True)
        return
    mine = deepen(fen, seconds, only=played)[-1]
    if mine[1] > best[1] - 50:
        print(f"# {name}: {played} {mine[1]} against {best[4]} {best[1]}", flush=True)
        return
    game, _, ply = name.partition(" ply ")
    entry = {"game": game, "ply": int(ply), "fen": fen, "losing": played, "safe": best[4]}
    print(
        json.dumps(entry) + ",", f"  # {mine[1]} against {best[1]} at depth {best[0]}", flush=True
    )


def set_search_constants(settings: list[str]) -> None:
    """Sets each ``NAME=VALUE`` of ``--set`` as a constant of
    ``draughts.engine.search`` (a whole number)."""
    for name, _, value in (setting.partition("=") for setting in settings):
        if not hasattr(_search, name):
            raise SystemExit(f"draughts.engine.search has no {name}")
        setattr(_search, name, int(value))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--nodes", type=int, help="a limit in nodes instead of --seconds")
    parser.add_argument("--find", type=Path, nargs="+", help="PDN files of games to look in")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    set_search_constants(args.set)
    if args.find:
        find(args.find, args.seconds)
    else:
        run_suite(args.seconds, args.nodes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
