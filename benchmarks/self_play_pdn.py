"""International self-play games of the built-in engine, written as PDN,
for ``benchmarks/tune_patterns.py --pdn`` to search and fit the pattern
tables to (the corpus holds too few International games for them).

Each game starts from a random 2-move ballot of
``benchmarks/openings/international-2move.pdn`` and ``--random-plies``
random plies after it; then each move is the C search's at a fixed depth
(``--full-width`` plies of it in full, the rest selective as ``hard``'s),
except that each of the next ``--noise-plies`` plies is, with probability
``--noise``, a random legal move instead: games that share a ballot part
early and reach positions no master game and no single line of the engine
would. A game ends when the side to move has no move (it loses), when a
search finds a forced win or loss, after 50 plies without a man moved or a
piece taken, at a third repetition, or at ``--max-plies`` (draws). Games are
appended to ``--out`` one by one (a run stopped early keeps what it played),
from the initial position, ballot and random plies included::

    python benchmarks/self_play_pdn.py --depth 4 --budget 600 --seed 1 \
        --out /tmp/sp-games.pdn

The features alone play (``DRAUGHTS_PATTERNS=0``, as the labelling searches
of tune_patterns.py run), one process on one core.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
os.environ["DRAUGHTS_PATTERNS"] = "0"

import draughts  # noqa: E402
from draughts import pdn  # noqa: E402
from draughts._context import context  # noqa: E402
from draughts.engine._raw import legal  # noqa: E402
from draughts.engine.native_search import searcher  # noqa: E402
from draughts.engine.search import WON, Searcher, raw_position  # noqa: E402
from draughts.variant import INTERNATIONAL  # noqa: E402

BALLOTS = HERE / "openings/international-2move.pdn"


def ballots() -> list[list[draughts.Move]]:
    """The moves of each 2-move ballot."""
    out = []
    with pdn.open_pdn(BALLOTS) as handle:
        while (game := pdn.read_game(handle, variant=INTERNATIONAL)) is not None:
            out.append(list(game.mainline_moves()))
    return out


def one_game(
    s: Searcher, board: draughts.Board, rng: random.Random, args: argparse.Namespace
) -> str:
    """Plays ``board`` (after its opening) to its end; the PDN result."""
    t = s.t
    reversible = 0
    seen: dict[tuple[int, int, int, int, int], int] = {}
    for ply in range(args.max_plies):
        pos = raw_position(board, t)
        moves = legal(t, pos)
        if not moves:
            return "0-2" if pos[0] == 0 else "2-0"
        if ply < args.noise_plies and rng.random() < args.noise:
            raw = rng.choice(moves)
        else:
            _d, score, pv = s.iterate(
                pos, args.depth, args.depth, reversible=reversible, full_width=args.full_width
            )
            if abs(score) > WON:
                white_wins = (score > 0) == (pos[0] == 0)
                return "2-0" if white_wins else "0-2"
            raw = pv[0]
        board.push(t.moves.move(raw))
        after = raw_position(board, t)
        # Reversible: no man moved (the men's squares the same) and nothing
        # taken (as many pieces); the count of the 25-move rule of kings.
        men, pieces = pos[1] | pos[2], (pos[1] | pos[2] | pos[3] | pos[4]).bit_count()
        same = men == after[1] | after[2] and pieces == sum(b.bit_count() for b in after[1:])
        reversible = reversible + 1 if same else 0
        if not same:
            seen.clear()
        seen[after] = seen.get(after, 0) + 1
        if reversible >= 50 or seen[after] >= 3:
            break
    return "1-1"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--full-width", type=int, help="plies in full (default: all)")
    parser.add_argument("--random-plies", type=int, default=2)
    parser.add_argument("--noise", type=float, default=0.1)
    parser.add_argument("--noise-plies", type=int, default=16)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--budget", type=float, default=600, help="seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    ctx = context(INTERNATIONAL)
    s = searcher(ctx.core, ctx.keys)
    rng = random.Random(args.seed)
    openings = ballots()
    tally = {"2-0": 0, "1-1": 0, "0-2": 0}
    plies = 0
    begin = time.perf_counter()
    count = 0
    with args.out.open("a", encoding="utf-8") as out:
        while count < args.games and time.perf_counter() - begin < args.budget:
            board = draughts.Board(variant="international")
            for move in rng.choice(openings):
                board.push(move)
            for _ in range(args.random_plies):
                if not board.legal_moves:
                    break
                board.push(rng.choice(list(board.legal_moves)))
            result = one_game(s, board, rng, args) if board.legal_moves else "1-1"
            tally[result] += 1
            plies += len(board.move_stack)
            game = pdn.Game.from_board(board)
            game.headers["Event"] = f"self-play depth {args.depth} seed {args.seed}"
            game.headers["Round"] = str(count + 1)
            game.headers["Result"] = result
            out.write(f"{game}\n\n")
            out.flush()
            count += 1
            if count % 200 == 0:
                spent = time.perf_counter() - begin
                print(f"{count} games, {spent:.0f} s, {tally}", file=sys.stderr, flush=True)
    spent = time.perf_counter() - begin
    print(
        f"{count} games (White {tally['2-0']}, draws {tally['1-1']}, Black {tally['0-2']}),"
        f" {plies} plies, {spent:.0f} s, {count / spent:.2f} games a second"
    )


if __name__ == "__main__":
    main()
