"""Game records at scale: games/s and MB/s of splitting, checking and
reading whole PDN files, with the ratio to a baseline commit timed in the
same invocation (issue 21's targets).

    python benchmarks/records.py                      # this checkout only
    python benchmarks/records.py --baseline 897af24   # and the library at 897af24
    python benchmarks/records.py --rows split,oca-fast --rounds 5
    python benchmarks/records.py --big-mb 100         # the --jobs rows on a 100 MB file

Each sample runs in a fresh process (this script with ``--worker``) that
imports ``draughts`` from the checkout it times; the checkouts alternate
round by round and each row prints the median. The baseline is checked out
with ``git worktree add`` under ``benchmarks/.baseline/<sha>/`` (as
``compare.py --baseline`` does) and its native core built there in place.

Rows (a row a library cannot run prints ``n/a``):

``split``
    :func:`draughts.pdn.scan_offsets` over the OCA file: MB/s.
``oca-fast``
    The OCA with no variant given, one process: the games split at their
    starts, each movetext replayed with ``fast_replay`` over the candidates
    variant inference tries (in their order until one replays every move,
    then the rest on their first 6 moves, as ``infer.choose`` does at
    most), the full reader for a game the fast path leaves to it. Where
    ``_fastcheck`` is absent (the baseline), the reader infers each game.
``oca-cli``
    ``draughts validate OCA --jobs 1``.
``intl-fast``
    The International corpus files, variant given: ``fast_check`` per game
    (the reader where it answers None); the reader where it is absent.
``intl-cli``
    ``draughts validate --variant international FILES --jobs 1``.
``tree``
    ``read_game`` building the tree, the International corpus, variant given.
``validate-api``
    ``draughts.pdn.validate`` on the OCA (no variant), once it exists.
``intl-api``
    ``draughts.pdn.validate`` on the International corpus files, variant given.
``pieces``, ``jobs1``, ``jobs2``
    On the OCA copied to about ``--big-mb`` MB (in a temporary folder): the
    parent's work for ``--jobs N`` alone (the file cut into the 4 MB pieces
    sent to the workers: at byte offsets where the workers find the games
    themselves, else scanned for every game start; MB/s and peak memory), and
    ``draughts validate --variant english BIG --jobs N``; the ratio of the
    two is printed after the table.

Each library's Python files are compiled to bytecode before the timing
(``compileall``), as an installed package's are: where a process may not
write its bytecode (``PYTHONDONTWRITEBYTECODE``, a read-only checkout) every
``--jobs`` worker would otherwise compile the library's source again, which
on this project's 2-core machine took ``--jobs 2`` on 100 MB from 1.82x to
1.60x ``--jobs 1``.

The load average is printed before and after: the machine may be shared.
``games/cpu-s`` divides by the CPU time of the sample's process and its
children (for the ``--jobs`` rows, every worker's), steadier than the wall
clock when other work shares the machine; the ratios are of wall times.
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BASELINES = HERE / ".baseline"
SHARED_PDN = ROOT.parent / "shared" / "data" / "pdn"
ROWS = (
    "split",
    "oca-fast",
    "oca-cli",
    "intl-fast",
    "intl-cli",
    "tree",
    "validate-api",
    "intl-api",
)
JOB_ROWS = ("pieces", "jobs1", "jobs2")


# -- The worker: one sample of one row, in the checkout it times ------------------


def _movetexts(data: bytes) -> Iterator[tuple[str, str | None]]:
    """Each game's movetext and FEN tag, the game split at the starts
    ``scan_offsets`` finds and its tag lines taken off."""
    import io

    from draughts import pdn

    offsets = list(pdn.scan_offsets(io.BytesIO(data)))
    for start, end in zip(offsets, [*offsets[1:], len(data)], strict=True):
        at, fen = start, None
        while data.startswith(b"[", at):
            line_end = data.find(b"\n", at, end)
            line_end = end if line_end < 0 else line_end + 1
            if data.startswith(b'[FEN "', at):
                fen = data[at + 6 : data.rfind(b'"', at, line_end)].decode("utf-8", "replace")
            at = line_end
        yield data[at:end].decode("utf-8", "replace"), fen


def _checker() -> Any:
    """A visitor that has the moves checked and keeps nothing (no tree)."""
    from draughts import pdn

    class Checker(pdn.BaseVisitor[bool]):
        def result(self) -> bool:
            return True

    return Checker


def _reader_games(data: bytes, variant: Any) -> int:
    import io

    from draughts import pdn

    handle = pdn.open_pdn(io.BytesIO(data))
    games = 0
    checker = _checker()
    while pdn.read_game(handle, variant=variant, Visitor=checker) is not None:
        games += 1
    return games


def _fast_infer(data: bytes) -> tuple[int, int]:
    """The games of ``data`` with their variant chosen by fast replays (the
    reader for those the fast path leaves to it): games, games read by the
    reader. The candidates after the chosen one are probed on their first
    moves unless an earlier game of the file ruled them out (as issue 21
    asks of inference)."""
    import io

    from draughts import pdn
    from draughts.pdn._fastcheck import fast_replay
    from draughts.pdn.infer import CANDIDATES

    games = slow = 0
    ruled_out: set[int] = set()  # candidates a probe of an earlier game refuted
    for movetext, fen in _movetexts(data):
        games += 1
        chosen = None
        for index, variant in enumerate(CANDIDATES):
            replay = fast_replay(movetext, variant, fen, None)
            if replay is None:
                break
            if replay[0]:
                chosen = index
                break
        if chosen is None:
            slow += 1
            pdn.read_game(io.StringIO(movetext), Visitor=_checker())
            continue
        for index in range(chosen + 1, len(CANDIDATES)):
            if index not in ruled_out:
                probe = fast_replay(movetext, CANDIDATES[index], fen, 6)
                if probe is not None and not probe[0]:
                    ruled_out.add(index)
    return games, slow


def _fast_check(data: bytes, variant: Any) -> tuple[int, int]:
    import io

    from draughts import pdn
    from draughts.pdn._fastcheck import fast_check

    games = slow = 0
    for movetext, fen in _movetexts(data):
        games += 1
        if fast_check(movetext, variant, fen) is None:
            slow += 1
            head = f'[FEN "{fen}"]\n' if fen is not None else ""
            pdn.read_game(io.StringIO(head + movetext), variant=variant, Visitor=_checker())
    return games, slow


def _run_fast(row: str, datas: list[bytes], intl: Any) -> tuple[int, int]:
    """The fast rows' games and games read by the reader."""
    games = slow = 0
    for data in datas:
        counts = _fast_infer(data) if row == "oca-fast" else _fast_check(data, intl)
        games, slow = games + counts[0], slow + counts[1]
    return games, slow


def _cli(arguments: list[str]) -> None:
    subprocess.run(
        [sys.executable, "-m", "draughts", "validate", *arguments],
        check=False,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _count_games(paths: list[str]) -> int:
    import io

    from draughts import pdn

    return sum(
        sum(1 for _ in pdn.scan_offsets(io.BytesIO(Path(path).read_bytes()))) for path in paths
    )


def worker(row: str, paths: list[str]) -> dict[str, Any]:
    """Time one sample of ``row`` on ``paths``: seconds, games, bytes, notes."""
    import io

    import draughts
    from draughts import pdn

    size = sum(os.path.getsize(path) for path in paths)
    # In memory before the timing, but for the rows that read the file themselves.
    datas = [] if row in ("pieces", *JOB_ROWS) else [Path(p).read_bytes() for p in paths]
    note = f"{draughts.BACKEND}"
    games = 0
    fast_module: Any = None
    with contextlib.suppress(ImportError):  # the baseline may not have it
        from draughts.pdn import _fastcheck as fast_module
    from draughts.variant import INTERNATIONAL as intl

    if row in ("oca-fast", "intl-fast"):  # a first game outside the timing: imports, tables
        warm = [b"1. 32-28 19-23 *\n"]
        _run_fast(row, warm, intl) if fast_module else _reader_games(warm[0], intl)
    started, cpu_started = time.perf_counter(), _cpu()
    if row == "split":
        games = sum(sum(1 for _ in pdn.scan_offsets(io.BytesIO(data))) for data in datas)
    elif row in ("oca-fast", "intl-fast"):
        if fast_module is None:
            note += ", the reader (no _fastcheck)"
            variant = None if row == "oca-fast" else "international"
            games = sum(_reader_games(data, variant) for data in datas)
        else:
            games, slow = _run_fast(row, datas, intl)
            note += f", {slow} games by the reader"
    elif row == "pieces":
        from draughts.pdn import _chunking

        with open(paths[0], "rb") as stream:  # as Validation cuts a file for --jobs N
            if hasattr(_chunking, "spans"):  # cut at byte offsets: the workers find the games
                with open(paths[0], "rb") as counted:  # (not timed: the parent no longer counts)
                    games = sum(1 for _ in pdn.scan_offsets(counted))
                started, cpu_started = time.perf_counter(), _cpu()
                pieces = sum(1 for _ in _chunking.spans(stream, 4 << 20, "utf-8"))
            else:
                pieces = 0
                for chunk in _chunking.chunks(stream, 4 << 20, keep=False):
                    games += chunk.games
                    pieces += 1
        note += f", {pieces} pieces, peak RSS {_peak_mb():.0f} MB"
    elif row == "tree":
        for data in datas:
            handle = pdn.open_pdn(io.BytesIO(data))
            while pdn.read_game(handle, variant="international") is not None:
                games += 1
    elif row in ("validate-api", "intl-api"):
        validate = getattr(pdn, "validate", None)
        if validate is None:
            return {"na": "draughts.pdn.validate is absent"}
        variant = "international" if row == "intl-api" else None
        for _report in validate(paths, variant=variant, jobs=1):
            games += 1
    else:  # the command line: count the games apart
        arguments = {
            "oca-cli": [*paths, "--jobs", "1"],
            "intl-cli": ["--variant", "international", *paths, "--jobs", "1"],
            "jobs1": ["--variant", "english", *paths, "--jobs", "1"],
            "jobs2": ["--variant", "english", *paths, "--jobs", "2"],
        }[row]
        _cli(arguments)
        seconds, cpu = time.perf_counter() - started, _cpu() - cpu_started
        games = _count_games(paths)
        return {"seconds": seconds, "cpu": cpu, "games": games, "bytes": size, "note": note}
    seconds, cpu = time.perf_counter() - started, _cpu() - cpu_started
    return {"seconds": seconds, "cpu": cpu, "games": games, "bytes": size, "note": note}


def _peak_mb() -> float:
    """This process's peak resident memory in MB (Linux counts in KB)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu() -> float:
    """The CPU seconds of this process and of its finished children (the
    command line, its workers): on a shared machine a steadier measure than
    the wall clock."""
    import resource

    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


# -- The driver --------------------------------------------------------------------


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()


def ensure_baseline(rev: str) -> tuple[str, Path]:
    """The short id of ``rev`` and a worktree of it with its native core built."""
    try:
        sha = _git("rev-parse", "--verify", "--end-of-options", f"{rev}^{{commit}}")
    except subprocess.CalledProcessError as error:
        raise SystemExit(f"--baseline: {rev!r} is not a commit: {error.stderr.strip()}") from None
    short = _git("rev-parse", "--short", sha)
    root = BASELINES / sha
    if not (root / ".git").exists():
        print(f"checking out {short} in {root} ...", file=sys.stderr, flush=True)
        _git("worktree", "prune")
        _git("worktree", "add", "--detach", str(root), sha)
    if not list((root / "draughts" / "_core" / "native").glob("_native*.so")):
        print(f"building the native core of {short} ...", file=sys.stderr, flush=True)
        subprocess.run(
            [sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
            cwd=root,
            check=True,
            capture_output=True,
        )
    return short, root


def sample(root: Path, row: str, paths: list[str]) -> dict[str, Any]:
    """One sample of ``row`` with ``draughts`` imported from ``root``."""
    env = dict(os.environ, PYTHONPATH=str(root))
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", row, *paths],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def big_file(folder: Path, source: Path, megabytes: float) -> Path:
    """``source`` copied end to end to about ``megabytes`` MB."""
    data = source.read_bytes()
    if not data.endswith(b"\n"):
        data += b"\n"
    copies = max(1, round(megabytes * 1e6 / len(data)))
    path = folder / f"big-{copies}x-{source.name}"
    with path.open("wb") as out:
        for _ in range(copies):
            out.write(data + b"\n")
    return path


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("paths", nargs="*", help=argparse.SUPPRESS)
    parser.add_argument("--baseline", metavar="REV", help="also time the library at REV")
    parser.add_argument("--rounds", type=int, default=3, help="samples per row and library")
    parser.add_argument("--rows", default=",".join(ROWS), help=f"of {', '.join(ROWS + JOB_ROWS)}")
    parser.add_argument("--big-mb", type=float, default=0, help="run jobs1/jobs2 on this size")
    parser.add_argument("--oca", type=Path, default=SHARED_PDN / "english" / "OCA_2.0.pdn")
    parser.add_argument("--international", type=Path, default=SHARED_PDN / "international")
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.worker, args.paths)))
        return 0
    libs = {"ours": ROOT}
    if args.baseline:
        short, root = ensure_baseline(args.baseline)
        libs[f"ours@{short}"] = root
    for root in libs.values():  # as installed: see the module's docstring
        compileall.compile_dir(root / "draughts", quiet=1)
    intl = sorted(str(path) for path in args.international.glob("*.pdn"))
    inputs: dict[str, list[str]] = {
        "split": [str(args.oca)],
        "oca-fast": [str(args.oca)],
        "oca-cli": [str(args.oca)],
        "intl-fast": intl,
        "intl-cli": intl,
        "tree": intl,
        "validate-api": [str(args.oca)],
        "intl-api": intl,
    }
    rows = [row for row in args.rows.split(",") if row]
    with tempfile.TemporaryDirectory() as folder:
        if args.big_mb:
            big = str(big_file(Path(folder), args.oca, args.big_mb))
            inputs["pieces"] = inputs["jobs1"] = inputs["jobs2"] = [big]
            if not set(JOB_ROWS) & set(rows):  # all three unless some are named
                rows += JOB_ROWS
        print(f"load average before: {load()}")
        table = run(rows, libs, inputs, args.rounds)
        print(f"load average after: {load()}")
    report(table, list(libs))
    return 0


Table = dict[str, dict[str, list[dict[str, Any]]]]


def run(rows: list[str], libs: dict[str, Path], inputs: dict[str, list[str]], rounds: int) -> Table:
    table: Table = {row: {lib: [] for lib in libs} for row in rows}
    for round_number in range(rounds):
        for row in rows:
            order = list(libs) if round_number % 2 == 0 else list(reversed(libs))
            for lib in order:
                table[row][lib].append(sample(libs[lib], row, inputs[row]))
    return table


def _median(samples: list[dict[str, Any]], key: Callable[[dict[str, Any]], float]) -> float:
    return statistics.median(key(sample) for sample in samples)


def report(table: Table, libs: list[str]) -> None:
    base = libs[1] if len(libs) > 1 else None
    print(
        f"\n{'row':<14}{'library':<16}{'games/s':>12}{'MB/s':>10}{'seconds':>9}{'x base':>8}"
        f"{'games/cpu-s':>13}  notes"
    )
    for row, by_lib in table.items():
        base_seconds = None
        if base is not None and not any("na" in s for s in by_lib[base]):
            base_seconds = _median(by_lib[base], lambda s: s["seconds"])
        for lib in libs:
            samples = by_lib[lib]
            if any("na" in s for s in samples):
                print(f"{row:<14}{lib:<16}{'n/a':>12}  {samples[0]['na']}")
                continue
            seconds = _median(samples, lambda s: s["seconds"])
            games, size = samples[0]["games"], samples[0]["bytes"]
            cpu = _median(samples, lambda s: s["cpu"])
            ratio = f"{base_seconds / seconds:.2f}" if base_seconds and lib != base else "-"
            print(
                f"{row:<14}{lib:<16}{games / seconds:>12,.0f}{size / seconds / 1e6:>10.1f}"
                f"{seconds:>9.3f}{ratio:>8}{games / cpu:>13,.0f}  {samples[0]['note']}"
            )
    if "jobs1" in table and "jobs2" in table:
        for lib in libs:
            one = _median(table["jobs1"][lib], lambda s: s["seconds"])
            two = _median(table["jobs2"][lib], lambda s: s["seconds"])
            print(f"--jobs 2 against --jobs 1 ({lib}): {one / two:.2f}x")


if __name__ == "__main__":
    sys.exit(main())
