"""Build ``benchmarks/positions.json``: the fixed positions every library is timed on.

Run once (the file is committed; rerun only to change the set)::

    python benchmarks/make_positions.py

For each variant, random legal playouts from the start position with a fixed
seed supply 50 positions in three kinds:

* ``quiet``: no piece can capture and there is no king yet (opening and
  middle game);
* ``capture``: the side to move must capture;
* ``king``: at least one king is on the board (flying-king move generation).

It also picks two middle-game positions per variant for perft, each with the
depth whose leaf count first exceeds ``--perft-leaves``. The legal-move counts
recorded next to each FEN are this library's; ``compare.py`` checks that every
peer finds the same number before it times anything, so a row in the table is
never two libraries doing different work.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import draughts  # noqa: E402

VARIANTS = ("international", "russian", "brazilian")
QUOTA = {"quiet": 17, "capture": 17, "king": 16}


def _kind(board: draughts.Board) -> str | None:
    has_king = bool(
        board.pieces(draughts.KING, draughts.WHITE) or board.pieces(draughts.KING, draughts.BLACK)
    )
    if has_king:
        return "king"
    if board.has_captures():
        return "capture"
    return "quiet"


def _positions(variant: str, rng: random.Random) -> list[dict[str, object]]:
    found: dict[str, list[dict[str, object]]] = {kind: [] for kind in QUOTA}
    seen: set[str] = set()
    while any(len(found[k]) < QUOTA[k] for k in QUOTA):
        board = draughts.Board(variant=variant)
        # Skip a random stretch of the opening so positions spread over the game.
        take_from = rng.randrange(6, 40)
        for ply in range(300):
            moves = list(board.legal_moves)
            if not moves:
                break
            if ply >= take_from and rng.random() < 0.15:
                kind = _kind(board)
                fen = board.fen()
                if kind is not None and len(found[kind]) < QUOTA[kind] and fen not in seen:
                    seen.add(fen)
                    found[kind].append({"kind": kind, "fen": fen, "moves": len(moves)})
            board.push(rng.choice(moves))
    return [p for kind in QUOTA for p in found[kind]]


def _perft_positions(variant: str, rng: random.Random, leaves: int) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    while len(out) < 2:
        board = draughts.Board(variant=variant)
        for _ in range(rng.randrange(14, 24)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.has_captures() or not board.legal_moves:
            continue
        depth = 1
        while draughts.perft(board, depth) < leaves:
            depth += 1
        out.append({"fen": board.fen(), "depth": depth, "leaves": draughts.perft(board, depth)})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--perft-leaves", type=int, default=60_000)
    parser.add_argument("--out", type=Path, default=HERE / "positions.json")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    data: dict[str, object] = {
        "seed": args.seed,
        "made_with": f"draughts {draughts.__version__}",
        "variants": {
            v: {
                "positions": _positions(v, rng),
                "perft": _perft_positions(v, rng, args.perft_leaves),
            }
            for v in VARIANTS
        },
    }
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
