"""The SQLite index of PDN files: indexing time, database size, query times.

    python benchmarks/index.py                   # english/OCA_2.0.pdn (22,621 games), positions
    python benchmarks/index.py --db /tmp/oca.sqlite --keep
    python benchmarks/index.py path/to/file.pdn --variant international --fen "W:W..."

Indexes the file with every position of every main line into a new database
(``draughts.pdn.index.Index.add_file(..., positions=True)``; the wall clock
and the CPU time of this process, which does all the work), prints the
database's size and each table's share (SQLite's ``dbstat``), times indexing
the same file again (nothing to do), then times searches on a fresh
connection: the first call and the median of ``--repeat`` more. The
searches, for English files: the positions after ``11-15`` and after
``11-15 23-19`` (by any move order), the position after ``11-15 23-19 8-11
22-17`` by any order against those four moves in that order, a player, and
``draughts search`` as a command (its own process: start-up included).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from draughts import Board  # noqa: E402
from draughts.pdn.index import Index  # noqa: E402

OCA = HERE.parent.parent / "shared" / "data" / "pdn" / "english" / "OCA_2.0.pdn"
ENGLISH_LINES = ("11-15", "11-15 23-19", "11-15 23-19 8-11 22-17")


def _timed(work: Callable[[], Any], repeat: int) -> tuple[Any, float, float]:
    """The result, the first call's time and the median of ``repeat`` more (ms)."""
    start = time.perf_counter()
    result = work()
    first = (time.perf_counter() - start) * 1000
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        samples.append((time.perf_counter() - start) * 1000)
    return result, first, statistics.median(samples) if samples else first


def _fen_after(moves: str, variant: str) -> str:
    board = Board(variant=variant)
    for move in moves.split():
        board.push_pdn(move)
    return board.fen()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=OCA)
    parser.add_argument("--variant", default="english", help="variant of games without tags")
    parser.add_argument("--db", type=Path, default=None, help="database (default: a temp file)")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument("--fen", action="append", default=[], help="more positions to query")
    parser.add_argument("--repeat", type=int, default=9, help="timed calls after the first")
    args = parser.parse_args()
    if not args.path.exists():
        print(f"{args.path} not found", file=sys.stderr)
        return 2
    folder = tempfile.mkdtemp(prefix="draughts-index-")
    db_path = args.db or Path(folder) / "games.sqlite"
    for suffix in ("", "-journal", "-wal", "-shm"):
        Path(f"{db_path}{suffix}").unlink(missing_ok=True)

    print(f"{args.path} ({args.path.stat().st_size / 1e6:.1f} MB), variant {args.variant}")
    wall, cpu = time.perf_counter(), time.process_time()
    with Index(db_path) as index:
        report = index.add_file(args.path, variant=args.variant, positions=True)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(
        f"indexed: {report.games:,} games ({report.games_with_errors:,} with errors), "
        f"{report.positions:,} positions in {wall:.1f} s wall, {cpu:.1f} s CPU "
        f"({report.games / wall:,.0f} games/s)"
    )
    size = os.path.getsize(db_path)
    print(f"database: {size / 1e6:.1f} MB ({size / max(report.positions, 1):.1f} bytes/position)")
    db = sqlite3.connect(db_path)
    try:
        shares = db.execute(
            "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC"
        ).fetchall()
        print("  " + ", ".join(f"{name} {pages / 1e6:.1f} MB" for name, pages in shares[:6]))
    except sqlite3.OperationalError:
        print("  (this SQLite has no dbstat table: no breakdown)")
    db.close()

    start = time.perf_counter()
    with Index(db_path) as index:
        again = index.add_file(args.path, variant=args.variant, positions=True)
    print(f"indexed again: {again.status} in {(time.perf_counter() - start) * 1000:.1f} ms")

    queries: list[tuple[str, dict[str, Any]]] = []
    if args.variant == "english":
        for line in ENGLISH_LINES:
            fen = _fen_after(line, args.variant)
            queries.append((f"position after {line} (any order)", {"position": fen}))
        queries.append((f"moves {ENGLISH_LINES[-1]} (this order)", {"moves": ENGLISH_LINES[-1]}))
        queries.append(("moves 11-15 23-19", {"moves": "11-15 23-19"}))
        queries.append(("player tinsley", {"player": "tinsley"}))
    queries += [(f"position {fen}", {"position": fen}) for fen in args.fen]
    print(f"\nsearches (ms; first call, then the median of {args.repeat}):")
    print(f"{'search':48} {'games':>7} {'first':>8} {'median':>8} {'count()':>8}")
    with Index(db_path) as index:
        for name, criteria in queries:
            hits, first, median = _timed(
                lambda c=criteria: index.search(variant=args.variant, **c), args.repeat
            )
            _, _, counted = _timed(
                lambda c=criteria: index.count(variant=args.variant, **c), args.repeat
            )
            print(f"{name:48} {len(hits):>7,} {first:>8.1f} {median:>8.1f} {counted:>8.1f}")

    if queries:
        fen = _fen_after(ENGLISH_LINES[1], args.variant) if args.variant == "english" else None
        if fen is not None:
            command = [sys.executable, "-m", "draughts", "search", "--db", str(db_path)]
            command += ["--fen", fen, "--json"]
            environment = {**os.environ, "PYTHONPATH": str(HERE.parent)}
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True, env=environment)
            took = (time.perf_counter() - start) * 1000
            print(f"\n`draughts search --fen <after 11-15 23-19> --json`: {took:.0f} ms, process")

    if args.keep:
        print(f"\ndatabase kept: {db_path}")
    else:
        for suffix in ("", "-journal", "-wal", "-shm"):
            Path(f"{db_path}{suffix}").unlink(missing_ok=True)
    if not any(Path(folder).iterdir()):
        os.rmdir(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
