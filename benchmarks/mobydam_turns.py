"""How soon our search sees the men Moby Dam won: the turn positions of the
games hard lost to it.

    python benchmarks/mobydam_turns.py --nodes 1000000 [--set NAME=VALUE]

``mobydam_turns.json`` (beside this script) holds the 29 turn positions of
a 40-game match at 0.2 s a move (``benchmarks/mobydam_losses.py --turns``,
December 2026): Moby Dam to move, its 0.2 s search having just found a man
won by force, and the move it played (``wins``). Each is searched for that
move alone, with hard's settings on a new searcher, to ``--nodes`` nodes
(a measure the machine's load does not move); the script prints each
score for Moby Dam's side and how often it comes to half a man or more.
``--set NAME=VALUE`` sets a constant of ``draughts.engine.search`` first,
``--full-width`` the plies every line keeps unreduced (hard: 2). Hard as it
was at 1,000,000 nodes: 11 of 29 (``docs/engine_strength.rst``, "Where the
games against Moby Dam are lost"). ``--seen`` changes the threshold (for
weights with a man other than 100: half a man); ``--free`` searches every
move instead and counts how often the search picks Moby Dam's.

``--terms`` asks what our evaluation makes of the man Moby Dam wins: after
its move, hard searches our reply to ``--nodes`` nodes, and at the end of
the principal variation each feature's share of the static score (its
count for White less Black's, times its weight blended for the men on the
board) is printed for Moby Dam's side, then averaged over the positions.
A positional feature far below 0 there is "compensation" our evaluation
sees for the side a man down, where the games showed none.

``--first`` asks how soon each engine sees the man, every move searched:
our search deepens to ``--nodes``, and the first iteration from which on
its best move scores half a man or more is printed (seconds, nodes, depth,
move); with ``--mobydam`` (its ``main/mobydam``), Moby Dam's own search of
the position too (its profiling mode, cut to ``--mobydam-ms`` by its
``time`` command, a log line an iteration with ``verbose``): the first
iteration from which on it scores half a man or more (seconds, depth,
move). Seconds are the common measure (the two engines count nodes
differently), so run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import shots  # noqa: E402
from mobydam_losses import VAL_MAN, mobydam_log  # noqa: E402

import draughts  # noqa: E402
from draughts._context import context  # noqa: E402
from draughts.engine import Limit, builtin  # noqa: E402
from draughts.engine._raw import raw_position  # noqa: E402
from draughts.engine.evaluation import FEATURES, Evaluator  # noqa: E402

SUITE = HERE / "mobydam_turns.json"
SEEN = 50  # hundredths of a man: half the man Moby Dam wins


def terms(entry: dict[str, str], nodes: int, ev: Evaluator) -> tuple[str, list[float]]:
    """Our reply to Moby Dam's move searched to ``nodes`` nodes, and each
    feature's share (hundredths of a man, Moby Dam's side) of the static
    score at the end of its principal variation."""
    board = draughts.Board(entry["fen"], variant="international")
    sign = 1 if board.turn == draughts.WHITE else -1
    board.push(board.parse_pdn(entry["wins"]))
    analysis = builtin("hard").analyse(board, Limit(nodes=nodes))
    for move in analysis.pv:
        board.push(move)
    turn, m0, m1, k0, k1 = raw_position(board, ev.t)
    white = ev.features(0, m0, k0, m1 | k1, k1, turn == 0)
    black = ev.features(1, m1, k1, m0 | k0, k0, turn == 1)
    weights = ev.blended[(m0 | m1).bit_count()]
    shares = [
        sign * (w - b) * weight / ev.men_at_start
        for w, b, weight in zip(white, black, weights, strict=True)
    ]
    return str(analysis.score), shares


def print_terms(nodes: int) -> None:
    ev = Evaluator(context(draughts.variant.INTERNATIONAL).core, patterns=False)
    entries = json.loads(SUITE.read_text())
    totals = [0.0] * len(FEATURES)
    for entry in entries:
        score, shares = terms(entry, nodes, ev)
        totals = [t + s for t, s in zip(totals, shares, strict=True)]
        large = " ".join(
            f"{name} {share:+.0f}"
            for name, share in zip(FEATURES, shares, strict=True)
            if abs(share) >= 15
        )
        print(
            f"game {entry['game']:>2} ply {entry['ply']:>3}: ours {score:>6}; {large}", flush=True
        )
    print(f"mean share for Moby Dam's side over the {len(entries)} positions:")
    for name, total in zip(FEATURES, totals, strict=True):
        if total:
            print(f"  {name:<14} {total / len(entries):+7.1f}")


def held_from(scores: list[int], seen: int) -> int | None:
    """The first index from which on every score is ``seen`` or more: an
    early iteration can score a move highly and a later one drop it."""
    start = None
    for i, score in enumerate(scores):
        if score < seen:
            start = None
        elif start is None:
            start = i
    return start


def iterations(text: str) -> list[tuple[int, int, int, str]]:
    """(depth, milliseconds, score in hundredths of a man, move) of every
    iteration in a Moby Dam log written with ``verbose`` on."""
    return [
        (int(depth), int(spent), round(int(score) * 100 / VAL_MAN), move)
        for depth, spent, score, move in re.findall(
            r"^(\d+)\.complete, (\d+) ms, score=(-?\d+) move=(\S+)", text, re.MULTILINE
        )
    ]


def mobydam_first(engine: Path, fen: str, port: int, ms: int) -> tuple[int, int, str] | None:
    """Moby Dam's first iteration (depth, milliseconds, move) from which on
    its score is half a man or more for the side to move, within ``ms``."""
    rows = iterations(mobydam_log(engine, fen, port, f"verbose\ntime {ms}\n".encode()))
    first = held_from([score for _depth, _ms, score, _move in rows], SEEN)
    if first is None:
        return None
    depth, spent, _score, move = rows[first]
    return depth, spent, move


def print_first(args: argparse.Namespace) -> None:
    """Each engine's first sight of the man, every move searched."""
    ours: list[float] = []
    theirs: list[float] = []
    for entry in json.loads(SUITE.read_text()):
        rows = shots.deepen(entry["fen"], 1e9, nodes=args.nodes)
        held = held_from([row[1] for row in rows], args.seen)
        first = None if held is None else rows[held]
        line = f"game {entry['game']:>2} ply {entry['ply']:>3} {entry['wins']:<6}"
        if first is None:
            ours.append(float("inf"))
            line += f" ours: not within {args.nodes:,} nodes"
        else:
            depth, _score, nodes, seconds, move = first
            ours.append(seconds)
            line += f" ours: {seconds:6.3f} s {nodes:>10,} nodes d{depth:<2} {move:<6}"
        if args.mobydam is not None:
            seen = mobydam_first(args.mobydam, entry["fen"], args.port, args.mobydam_ms)
            theirs.append(float("inf") if seen is None else seen[1] / 1000)
            line += " Moby Dam: " + (
                "not seen" if seen is None else f"{seen[1] / 1000:6.3f} s d{seen[0]:<2} {seen[2]}"
            )
        print(line, flush=True)
    for name, times in (("ours", ours), ("Moby Dam", theirs)):
        if times:
            within = sum(t <= 0.2 for t in times), sum(t < float("inf") for t in times)
            print(
                f"{name}: seen within 0.2 s in {within[0]}, at all in {within[1]} of {len(times)};"
                f" median {statistics.median(times):.3f} s"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=1_000_000)
    parser.add_argument("--full-width", type=int, default=shots.FULL_WIDTH)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--seen", type=int, default=SEEN, help="hundredths of a man")
    parser.add_argument("--free", action="store_true", help="search every move")
    parser.add_argument("--terms", action="store_true", help="the features at our line's end")
    parser.add_argument("--first", action="store_true", help="each engine's first sight of the man")
    parser.add_argument("--mobydam", type=Path, help="main/mobydam, for --first")
    parser.add_argument("--mobydam-ms", type=int, default=1000, help="Moby Dam's time, for --first")
    parser.add_argument("--port", type=int, default=27555, help="for --mobydam (it listens)")
    args = parser.parse_args()
    shots.set_search_constants(args.set)
    if args.terms:
        print_terms(args.nodes)
        return 0
    shots.FULL_WIDTH = args.full_width
    if args.first:
        print_first(args)
        return 0
    seen = picked = 0
    depths = []
    for entry in json.loads(SUITE.read_text()):
        depth, score, nodes, _seconds, move = shots.deepen(
            entry["fen"], 1e9, only=None if args.free else entry["wins"], nodes=args.nodes
        )[-1]
        seen += score >= args.seen
        picked += move == entry["wins"]
        depths.append(depth)
        where = f"game {entry['game']:>2} ply {entry['ply']:>3} {entry['wins']:<6}"
        print(f"{where} {score:>5} {move:<6} (d{depth}, {nodes:,} nodes)", flush=True)
    depth = sum(depths) / len(depths)
    print(f"seen ({args.seen} or more) in {seen} of {len(depths)}, depth {depth:.1f} on average")
    if args.free:
        print(f"Moby Dam's move picked in {picked} of {len(depths)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
