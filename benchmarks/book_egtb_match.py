"""The built-in engine with and without its opening book and endgame
bitbases, at a fixed small time a move: W/D/L of the engine that has them.

Each game starts from the variant's start position; the engine with the
book draws its book moves with a new seed each game, so the games differ.
The bitbases (3 pieces unless ``--pieces``) are built first, in a few
seconds for English checkers, about a minute for international draughts.
``--no-book`` and ``--no-egtb`` measure one of the two alone.

    python benchmarks/book_egtb_match.py --variant english --games 8 --time 0.1
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import draughts
from draughts.engine import Limit, builtin, default_book, match
from draughts.engine.egtb import Bitbases

_SEEDS = itertools.count(1)
_BASES: dict[str, Bitbases | None] = {}
_BOOK: list[bool] = [True]


def with_knowledge() -> draughts.engine.Engine:
    (bases,) = _BASES.values()
    book = default_book() if _BOOK[0] else None
    return builtin("hard", seed=next(_SEEDS), book=book, egtb=bases)


def without() -> draughts.engine.Engine:
    return builtin("hard")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="english")
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--time", type=float, default=0.1, help="seconds a move")
    parser.add_argument("--pieces", type=int, default=3)
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--no-book", action="store_true", help="bitbases only")
    parser.add_argument("--no-egtb", action="store_true", help="book only")
    args = parser.parse_args()
    start = time.monotonic()
    _BOOK[0] = not args.no_book
    _BASES[args.variant] = None if args.no_egtb else Bitbases.build(args.variant, args.pieces)
    print(f"bitbases: {time.monotonic() - start:.1f} s", flush=True)
    result = match(
        with_knowledge,
        without,
        variant=args.variant,
        games=args.games,
        limit=Limit(time=args.time),
        max_plies=args.max_plies,
        on_game=lambda g, score: print(
            f"{g.white} - {g.black}: {g.result_white_first} ({g.termination}, {g.plies} plies)",
            flush=True,
        ),
    )
    print(result.score)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
