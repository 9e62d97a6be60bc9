"""How often the built-in engine wins a won ending, with and without the
bitbases: positions of few pieces that the bitbases say are won for the side
to move, played out against the engine without them at a fixed time a move.

    python benchmarks/egtb_conversion.py --variant english --positions 12 --time 0.05

For each engine it prints the wins, the games where the win slipped to a
draw or a loss by the bitbases' values (a drawn or lost position reached),
the games a draw rule ended (a repetition, a move count: the bitbases know
no distances, so a won position can be played round in circles) and the
games still undecided at ``--max-plies``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import draughts
from draughts.engine import Limit, builtin
from draughts.engine.egtb import Bitbases, Wdl


def won_positions(bases: Bitbases, count: int, seed: int) -> list[draughts.Board]:
    """``count`` random positions of exactly ``bases.pieces`` pieces (two
    white, the rest black), with no capture to make, won for the side to
    move."""
    rng = random.Random(seed)
    squares = draughts.Board(variant=bases.variant).variant.square_count
    found: list[draughts.Board] = []
    while len(found) < count:
        chosen = rng.sample(range(1, squares + 1), bases.pieces)
        sides: list[list[str]] = [[], []]
        for i, square in enumerate(chosen):
            sides[0 if i < 2 else 1].append(("K" if rng.random() < 0.6 else "") + str(square))
        fen = f"{rng.choice('WB')}:W{','.join(sides[0])}:B{','.join(sides[1])}"
        try:
            board = draughts.Board(fen, variant=bases.variant)
        except ValueError:
            continue
        capture = any(move.captures for move in board.legal_moves)
        if not capture and bases.probe(board) == Wdl.WIN:
            found.append(board)
    return found


def play_out(
    board: draughts.Board,
    attacker: draughts.engine.Engine,
    args: argparse.Namespace,
    bases: Bitbases,
) -> str:
    defender = builtin("hard")
    side = board.turn
    for _ply in range(args.max_plies):
        if board.is_game_over(claim_draw=True):
            break
        engine = attacker if board.turn == side else defender
        board.push(engine.play(board, Limit(time=args.time)).move)
        value = bases.probe(board)  # for the side to move now
        if value is not None and value != (Wdl.WIN if board.turn == side else Wdl.LOSS):
            return "slipped"
    outcome = board.outcome(claim_draw=True)
    if outcome is None:
        return "undecided"
    if outcome.winner is None:
        return "drawn by a rule"  # a repetition or a move count: no value was lost
    return "won" if outcome.winner == side else "slipped"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="english")
    parser.add_argument("--pieces", type=int, default=3)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--time", type=float, default=0.05)
    parser.add_argument("--max-plies", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--egtb", help="read the bitbases from this directory instead")
    args = parser.parse_args()
    start = time.monotonic()
    loaded = None if args.egtb is None else Bitbases.load(args.egtb, args.variant)
    bases = loaded or Bitbases.build(args.variant, args.pieces)
    print(f"bitbases: {time.monotonic() - start:.1f} s", flush=True)
    boards = won_positions(bases, args.positions, args.seed)
    for label, egtb in (("with bitbases", bases), ("without", None)):
        tally = dict.fromkeys(("won", "slipped", "drawn by a rule", "undecided"), 0)
        for board in boards:
            tally[play_out(board.copy(), builtin("hard", egtb=egtb), args, bases)] += 1
        print(f"{label}: {tally}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
