"""Peak memory while reading a large PDN file game by game.

    python benchmarks/memory.py                      # english/OCA_2.0.pdn (22,621 games)
    python benchmarks/memory.py path/to/file.pdn --variant english --limit 1000

Reads every game with ``draughts.pdn.read_game`` (each move checked by playing
it), keeping nothing from one game to the next, and prints games, plies, time
and the process's peak resident memory (``ru_maxrss``; issue 6 asks for under
80 MB on the OCA file). A baseline line shows the peak after importing the
library and before reading, so the reader's own share is visible.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import draughts  # noqa: E402

OCA = HERE.parent.parent / "shared" / "data" / "pdn" / "english" / "OCA_2.0.pdn"


def _peak_mb() -> float:
    # ru_maxrss is in kilobytes on Linux.
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=OCA)
    parser.add_argument(
        "--variant", default="english", help="variant of games without a GameType tag"
    )
    parser.add_argument("--limit", type=int, default=0, help="stop after this many games")
    args = parser.parse_args()
    if not args.path.exists():
        print(f"{args.path} not found", file=sys.stderr)
        return 2
    try:
        import draughts.pdn as pdn
    except ImportError as error:
        print(f"draughts.pdn is not available yet: {error}", file=sys.stderr)
        return 2

    draughts.Board(variant=args.variant)  # tables built before the baseline
    print(f"baseline peak RSS after import: {_peak_mb():.1f} MB")
    games = plies = with_errors = 0
    start = time.perf_counter()
    with args.path.open(encoding="utf-8", errors="replace") as handle:
        while (game := pdn.read_game(handle, variant=args.variant)) is not None:
            games += 1
            plies += len(game.mainline_moves())
            with_errors += bool(game.errors)
            if args.limit and games >= args.limit:
                break
    seconds = time.perf_counter() - start
    print(
        f"{args.path.name}: {games:,} games ({with_errors:,} with errors), {plies:,} plies "
        f"in {seconds:.1f} s ({games / seconds:,.0f} games/s)"
    )
    print(f"peak RSS: {_peak_mb():.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
