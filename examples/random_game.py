"""Play a game of random legal moves and print it as PDN.

    python examples/random_game.py --variant russian --seed 7

Every move is drawn from ``board.legal_moves``; the game stops when it is
over by the variant's rules (or after 300 plies), and its PDN record, with
the result and the reason, is printed.
"""

from __future__ import annotations

import argparse
import random

import draughts
from draughts.pdn import Game


def play(variant: str, seed: int, plies: int = 300) -> draughts.Board:
    """The board after a random game of at most ``plies`` plies."""
    chooser = random.Random(seed)
    board = draughts.Board(variant=variant)
    while not board.is_game_over() and len(board.move_stack) < plies:
        board.push(chooser.choice(list(board.legal_moves)))
    return board


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="international")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    board = play(args.variant, args.seed)
    print(Game.from_board(board))
    outcome = board.outcome()
    # A line starting with "%" is a PDN escape line: readers skip it.
    ended = outcome.termination.name.lower().replace("_", " ") if outcome else "not over"
    print(f"% ended: {ended}")


if __name__ == "__main__":
    main()
