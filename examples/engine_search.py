"""Ask the built-in engine for the best move of a position.

    python examples/engine_search.py --variant english "B:W18,K25:B14,10" --depth 6

Prints the score (for the side to move), the depth reached, the nodes
searched and the best line in PDN, starting with the move to play.
"""

from __future__ import annotations

import argparse

import draughts
from draughts.engine import Limit, builtin


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fen", nargs="?", help="the position (default: the variant's start)")
    parser.add_argument("--variant", default="international")
    parser.add_argument("--depth", type=int, default=6)
    args = parser.parse_args()
    board = draughts.Board(args.fen, variant=args.variant)
    analysis = builtin("hard").analyse(board, Limit(depth=args.depth))
    line = board.variation_pdn(analysis.pv) if analysis.pv else "(none)"
    print(f"score {analysis.score}, depth {analysis.depth}, {analysis.nodes} nodes")
    print(f"best line: {line}")


if __name__ == "__main__":
    main()
