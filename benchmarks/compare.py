"""Time this library against py-draughts and pydraughts on the same work.

    python benchmarks/compare.py              # full run, about 6 minutes
    python benchmarks/compare.py --quick      # fewer rounds, smaller samples
    python benchmarks/compare.py --baseline 8dc0dd7 --peers ''   # ours before/after

The first run makes one virtual environment per peer under
``benchmarks/.venvs/`` (git-ignored) and installs the pinned peer there: all
three libraries install a package named ``draughts``, so each runs in its own
interpreter (see ``_worker.py``); this library runs from the repository.

Every workload runs on the same positions (``positions.json``) or the same game
records in each library, one sample at a time in turn (ours, py-draughts,
pydraughts, ours, ...), and the table shows each library's median over the
rounds and the ratio to ours (above 1: we are faster). Samples are the CPU time
of each library's process (``--wall`` for the wall clock). The libraries must
agree on the work: the same perft leaf count, the same number of legal moves
over the position set, the same plies replayed; a row where they do not says
so in its note.

pydraughts is two to three orders of magnitude slower, so it gets smaller
samples (a lower perft depth, fewer repetitions and games); its figures are
rates per operation and remain comparable, and the table says where its work
was smaller.

``--baseline REV`` also times this library as it was at the git revision REV,
to measure a change before and after in one run: REV's tree is checked out
once with ``git worktree add --detach`` under ``benchmarks/.baseline/<sha>/``
(git-ignored, reused by later runs; ``git worktree remove`` it when done) and
gets a column ``ours@<short sha>`` of its own, whose worker imports
``draughts`` from that worktree. It does exactly our work, its samples
alternate with the others', its results must agree with ours, and its ``x`` is
its time over ours (above 1: the current code is faster). ``--peers ''`` leaves
the peers out, for ours against the baseline only.

Where ours runs the native core, a column ``pure`` times this same checkout
with ``DRAUGHTS_PURE=1`` (the pure-Python core): same work, results that must
agree, and ``x`` its time over ours, against issue 16's targets for the native
core (``--no-pure`` leaves it out). The row ``draughts.perft, international
start d8`` is there for issue 16's absolute target (60 M leaves/s).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import venv
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
VENVS = HERE / ".venvs"
BASELINES = HERE / ".baseline"
SHARED = REPO.parent / "shared"
PDN_DIR = SHARED / "data" / "pdn" / "international"

# The versions the adapters in _worker.py were written against.
PEERS = {"py-draughts": "py-draughts==1.10.1", "pydraughts": "pydraughts==0.6.7"}
VARIANTS = ("international", "russian", "brazilian")
# Start-position perft depths: leaf counts of 10^5 to 10^6 (rules-research.md §4.2).
START_DEPTH = {"international": 6, "russian": 7, "brazilian": 7, "english": 7}
SLOW_START_DEPTH = {"international": 3, "russian": 4, "brazilian": 4, "english": 4}
SLOW_PDN_GAMES = 6


# -- Environments and workers --------------------------------------------------


def _peer_python(peer: str) -> Path:
    return VENVS / peer / "bin" / "python"


def ensure_peer(peer: str) -> Path:
    """The peer's interpreter, making its virtual environment on first use."""
    python = _peer_python(peer)
    if not python.exists():
        print(f"setting up {VENVS / peer} ...", file=sys.stderr, flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(VENVS / peer)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", PEERS[peer]], check=True)
    return python


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(REPO), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def ensure_baseline(rev: str) -> tuple[str, Path]:
    """The short commit id of ``rev`` and a worktree of it, made on first use."""
    try:
        sha = _git("rev-parse", "--verify", "--end-of-options", f"{rev}^{{commit}}")
    except subprocess.CalledProcessError as error:
        raise SystemExit(f"--baseline: {rev!r} is not a commit: {error.stderr.strip()}") from None
    short = _git("rev-parse", "--short", sha)
    root = BASELINES / sha
    if not (root / ".git").exists():
        print(f"checking out {short} in {root} ...", file=sys.stderr, flush=True)
        try:
            _git("worktree", "prune")  # forget a worktree whose folder was deleted
            _git("worktree", "add", "--detach", str(root), sha)
        except subprocess.CalledProcessError as error:
            raise SystemExit(f"--baseline: cannot make {root}: {error.stderr.strip()}") from None
    return short, root


@dataclass
class Lib:
    """How to run one column's library."""

    python: Path
    adapter: str  # the worker's --lib
    repo: Path | None = None
    """The repository root ``draughts`` is imported from (ours and the baseline)."""
    env: dict[str, str] = field(default_factory=dict)
    """Environment variables set for its processes (``DRAUGHTS_PURE`` for pure)."""

    @property
    def cwd(self) -> Path:
        # The peers run with the venv as working directory so that this
        # repository's draughts package is not on their path; ours and the
        # baseline from their repository, so that ``python -c`` finds theirs.
        return self.repo if self.repo is not None else VENVS


class Worker:
    """A library's worker process, answering one request per line."""

    def __init__(self, name: str, lib: Lib, cpu: int | None) -> None:
        self.lib = name
        command = [str(lib.python), str(HERE / "_worker.py"), "--lib", lib.adapter]
        if lib.repo is not None:
            command += ["--repo", str(lib.repo)]
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=lib.cwd,
            env={**os.environ, **lib.env},
        )
        if cpu is not None:
            # Every worker on the same CPU: the samples alternate, so each
            # library then runs on the same core, not one on a core that
            # another tenant of the machine keeps busy.
            os.sched_setaffinity(self.proc.pid, {cpu})
        hello = self._read()
        self.error: str | None = hello.get("error")

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            return {"error": f"{self.lib} worker exited"}
        answer: dict[str, Any] = json.loads(line)
        return answer

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        if self.error:
            return {"error": self.error}
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def _output(lib: Lib, code: str, *, check: bool = False) -> str:
    """What ``code`` prints in a fresh interpreter of that library."""
    return subprocess.run(
        [str(lib.python), "-c", code],
        cwd=lib.cwd,
        check=check,
        capture_output=True,
        text=True,
        env={**os.environ, **lib.env},
    ).stdout.strip()


def import_time(lib: Lib, clock: str) -> float:
    """Seconds to ``import draughts`` in a fresh interpreter."""
    now = "time.process_time()" if clock == "cpu" else "time.perf_counter()"
    code = f"import time; t = {now}; import draughts; print({now} - t)"
    return float(_output(lib, code, check=True).split()[-1])


def _backend(lib: Lib) -> str:
    """The core ``draughts`` runs on in that library's interpreter."""
    return _output(lib, "import draughts; print(getattr(draughts, 'BACKEND', 'pure'))")


def version(name: str, lib: Lib) -> str:
    """The library's version; for ours and the baseline also their commit."""
    if lib.repo is None:
        code = f"import importlib.metadata as m; print(m.version({name!r}))"
    else:
        code = (
            "import importlib.metadata as m, draughts; "
            "print(getattr(draughts, '__version__', None) or m.version('draughtslib'), "
            "getattr(draughts, 'BACKEND', 'pure'))"
        )
    number = _output(lib, code) or "?"
    if name != "ours":
        return number
    try:
        head = _git("rev-parse", "--short", "HEAD")
        changed = _git("status", "--porcelain", "--", "draughts")
    except (OSError, subprocess.CalledProcessError):
        return number  # not a git checkout
    return f"{number} at {head}" + (" + uncommitted changes" if changed else "")


# -- Rows ----------------------------------------------------------------------


@dataclass
class Row:
    """One line of the table: a workload and each library's samples."""

    name: str
    unit: str  # "leaves/s", "us", "games/s" or "ms"
    higher_is_better: bool
    requests: dict[str, dict[str, Any]]  # per library
    samples: dict[str, list[float]] = field(default_factory=dict)
    checks: dict[str, Any] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    references: dict[str, Any] = field(default_factory=dict)
    """Our result on a peer's smaller work, to check the peer's against."""
    note: str = ""
    target: float | None = None
    """The least ``x`` against py-draughts that issue 6 asks for."""
    native_target: float | None = None
    """The least ``x`` against the pure core that issue 16 asks of the native one."""

    def add(self, lib: str, answer: dict[str, Any]) -> None:
        if "error" in answer:
            self.errors.setdefault(lib, answer["error"])
            return
        seconds, ops = answer["seconds"], answer["ops"]
        if self.unit == "us":
            value = seconds / ops * 1e6
        elif self.unit == "ms":
            value = seconds * 1e3
        else:
            value = ops / seconds
        self.samples.setdefault(lib, []).append(value)
        self.checks[lib] = answer.get("check")

    def median(self, lib: str) -> float | None:
        values = self.samples.get(lib)
        return statistics.median(values) if values else None

    def ratio(self, lib: str) -> float | None:
        """How many times faster ours is than ``lib`` (above 1: ours wins)."""
        ours, other = self.median("ours"), self.median(lib)
        if ours is None or other is None or ours == 0 or other == 0:
            return None
        return ours / other if self.higher_is_better else other / ours


def _fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "leaves/s":
        return f"{value / 1e3:,.0f} k/s"
    if unit == "games/s":
        return f"{value:,.1f} g/s"
    if unit == "ms":
        return f"{value:,.1f} ms"
    return f"{value:,.2f} us" if value < 100 else f"{value:,.0f} us"


def build_rows(positions: dict[str, Any], peers: list[str], quick: bool) -> list[Row]:
    scale = 0.25 if quick else 1.0
    rows: list[Row] = []
    slow = "pydraughts"

    def per_lib(
        request: dict[str, Any], slow_request: dict[str, Any] | None = None
    ) -> dict[str, dict[str, Any]]:
        out = {lib: request for lib in ["ours", *peers]}
        if slow in out and slow_request is not None:
            out[slow] = slow_request
        return out

    def perft_rows(
        where: str, variant: str, fen: str | None, depth: int, slow_depth: int, note: str = ""
    ) -> None:
        request = {"variant": variant, "fen": fen, "depth": depth, "workload": "perft_api"}
        slow_request = {**request, "depth": slow_depth}
        label = f"{variant} {where} d{depth}"
        slow_note = f"pydraughts d{slow_depth}"
        target = None if variant == "english" else 1.5
        rows.append(
            Row(
                f"perft legal_moves+push/pop, {label}",
                "leaves/s",
                True,
                per_lib(request, slow_request),
                note=f"{note}{slow_note}",
                target=target,
            )
        )
        # Peers have no perft function in their API: theirs is legal_moves+push/pop.
        fn = per_lib(request, slow_request)
        fn["ours"] = {**request, "workload": "perft_fn"}
        rows.append(
            Row(
                f"perft draughts.perft, {label}",
                "leaves/s",
                True,
                fn,
                note=f"{note}peers: legal_moves+push/pop; {slow_note}",
                target=target,
            )
        )

    for variant in (*VARIANTS, "english"):
        depth = START_DEPTH[variant] - (1 if quick else 0)
        # py-draughts plays English with optional captures (wrong rules), so
        # its tree is bigger: compare leaves per second at the same depth.
        note = "py-draughts: optional captures, other tree; " if variant == "english" else ""
        perft_rows("start", variant, None, depth, SLOW_START_DEPTH[variant], note)
        if variant == "english":
            continue
        for i, spot in enumerate(positions[variant]["perft"], 1):
            depth = spot["depth"] - (1 if quick else 0)
            perft_rows(f"mid-game {i}", variant, spot["fen"], depth, max(1, depth - 2))

    for variant in VARIANTS:
        spots = positions[variant]["positions"]
        for kind in ("quiet", "capture", "king", None):
            fens = [p["fen"] for p in spots if kind is None or p["kind"] == kind]
            what = f"{kind} ({len(fens)})" if kind else f"all {len(fens)}"
            rows.append(
                Row(
                    f"legal_moves, {variant} {what}",
                    "us",
                    False,
                    per_lib(
                        {
                            "workload": "legal_moves",
                            "variant": variant,
                            "fens": fens,
                            "repeat": max(1, int(40 * scale)),
                        },
                        {"workload": "legal_moves", "variant": variant, "fens": fens, "repeat": 1},
                    ),
                    target=1.5,
                    native_target=2.5,
                )
            )
        fens = [p["fen"] for p in spots]
        rows.append(
            Row(
                f"push+pop, {variant} (first move, {len(fens)} positions)",
                "us",
                False,
                per_lib(
                    {
                        "workload": "push_pop",
                        "variant": variant,
                        "fens": fens,
                        "repeat": max(1, int(400 * scale)),
                    },
                    {"workload": "push_pop", "variant": variant, "fens": fens, "repeat": 2},
                ),
                target=1.0,
                native_target=2.0,
            )
        )
        rows.append(
            Row(
                f"FEN parse+write, {variant} ({len(fens)} FENs)",
                "us",
                False,
                per_lib(
                    {
                        "workload": "fen",
                        "variant": variant,
                        "fens": fens,
                        "repeat": max(1, int(100 * scale)),
                    },
                    {"workload": "fen", "variant": variant, "fens": fens, "repeat": 2},
                ),
                target=2.0,
                native_target=1.0,
            )
        )
    return rows


def pdn_rows(workers: dict[str, Worker], quick: bool, corpus: Path) -> list[Row]:
    """Read + replay of the International games every library replays fully,
    told their variant; then, for this library only (the others cannot), the
    same games with the variant of each game that has no ``GameType`` tag
    inferred (no target: the issue's row is the first)."""
    sys.path.insert(0, str(HERE))
    from _worker import _split_games

    if not corpus.is_dir():
        print(f"skipping PDN: {corpus} not found", file=sys.stderr)
        return []
    games: list[str] = []
    for path in sorted(corpus.rglob("*.pdn")):
        raw = path.read_bytes()
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
        games += _split_games(text.replace("\r\n", "\n"))
    if quick:
        games = games[::4]
    replayed: dict[str, dict[int, int]] = {}
    errors: dict[str, str] = {}
    for lib, worker in workers.items():
        chunk = games if lib != "pydraughts" else games[: SLOW_PDN_GAMES * 3]
        answer = worker.ask({"workload": "pdn_check", "variant": "international", "games": chunk})
        if "error" in answer:
            errors[lib] = answer["error"]
            continue
        replayed[lib] = {index: plies for index, plies in answer["check"]}
    full = [lib for lib in replayed if lib != "pydraughts"]
    common = (
        [
            i
            for i in range(len(games))
            if all(i in replayed[lib] for lib in full)
            and len({replayed[lib][i] for lib in full}) == 1
            and replayed[full[0]][i] > 0
        ]
        if full
        else []
    )
    text = "\n\n".join(games[i] for i in common)
    request = {"workload": "pdn", "variant": "international", "text": text}
    slow_common = [i for i in common if i in replayed.get("pydraughts", {})][:SLOW_PDN_GAMES]
    slow_request = {**request, "text": "\n\n".join(games[i] for i in slow_common)}
    row = Row(
        f"PDN read+replay, {len(common)} of {len(games)} International games",
        "games/s",
        True,
        {lib: slow_request if lib == "pydraughts" else request for lib in workers},
        note=f"pydraughts: {len(slow_common)} games",
        target=2.0,
        native_target=4.0,
    )
    for lib, message in errors.items():
        row.errors[lib] = message
    ours_only = [lib for lib in workers if lib not in PEERS]
    inferred = Row(
        f"PDN read+replay, {len(common)} International games, variant inferred",
        "games/s",
        True,
        {lib: {**request, "infer": True} for lib in ours_only},
        note="no GameType tag in 2/3 of them: each read ahead and tried as 4 variants",
    )
    return [row, inferred]


# -- Running and printing ------------------------------------------------------


def machine_line() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"machine: {cpu}; Python {platform.python_version()} "
        f"({platform.python_implementation()}); {now}"
    )


def run_rows(rows: list[Row], workers: dict[str, Worker], rounds: int, clock: str) -> None:
    for row in rows:
        print(f"  {row.name}", file=sys.stderr, flush=True)
        for round_ in range(rounds):
            for lib, worker in workers.items():
                if lib in row.errors or lib not in row.requests:
                    continue
                if lib == "pydraughts" and round_ >= max(1, rounds // 2):
                    continue  # its samples are long; half the rounds suffice
                row.add(lib, worker.ask({**row.requests[lib], "clock": clock}))
        # A peer given smaller work is checked against ours on that same work
        # (untimed), so its figures are not from a different computation.
        ours = workers.get("ours")
        for lib, request in row.requests.items():
            if (
                lib != "ours"
                and ours is not None
                and lib in row.checks
                and _work(request) != _work(row.requests["ours"])
            ):
                answer = ours.ask(request)
                if "error" not in answer:
                    row.references[lib] = answer.get("check")


def _work(request: dict[str, Any]) -> str:
    """What a request computes, leaving out how often and through which call."""
    same = {k: v for k, v in request.items() if k not in ("repeat", "workload")}
    return json.dumps(same, sort_keys=True)


def check_agreement(row: Row) -> str:
    """Empty if the libraries that did the same work as ours agree on it."""
    if "ours" not in row.requests:
        return ""
    ours = _work(row.requests["ours"])
    checks = {lib: c for lib, c in row.checks.items() if _work(row.requests[lib]) == ours}
    if row.name.startswith("perft") and "english" in row.name:
        checks.pop("py-draughts", None)  # optional captures: a different tree
    if len({json.dumps(c) for c in checks.values()}) > 1:
        return "DIFFERENT RESULTS: " + ", ".join(f"{lib}={c}" for lib, c in checks.items())
    wrong = [
        f"{lib}={row.checks[lib]}, ours={ref} on the same work"
        for lib, ref in row.references.items()
        if row.checks.get(lib) != ref
    ]
    return "DIFFERENT RESULTS: " + "; ".join(wrong) if wrong else ""


def _verdict(row: Row, ratio: float | None) -> str:
    """The row's target and whether it is met, e.g. ``>=1.5 ok``."""
    if row.target is None:
        return ""
    met = ratio is not None and ratio >= row.target
    if row.unit == "ms":
        ours = row.median("ours")
        met = met and ours is not None and ours <= 50
    return f">={row.target:g} {'ok' if met else 'MISS'}"


PERFT_TARGET = 60e6
"""Issue 16: draughts.perft from the International start at depth 8, leaves/s."""


def _native_verdict(row: Row, ratio: float | None) -> str:
    """Issue 16's target for the row, against the pure core, and whether it is met."""
    if row.name.startswith("draughts.perft"):
        ours = row.median("ours")
        met = ours is not None and ours >= PERFT_TARGET
        return f">={PERFT_TARGET / 1e6:g}M/s {'ok' if met else 'MISS'}"
    if row.native_target is None:
        return ""
    met = ratio is not None and ratio >= row.native_target
    return f">={row.native_target:g} {'ok' if met else 'MISS'}"


def print_table(rows: list[Row], libs: list[str], header: list[str]) -> None:
    peers = [lib for lib in libs if lib != "ours"]
    columns = ["workload", "ours"]
    for peer in peers:
        columns += [peer, "x"]
        if peer in ("py-draughts", "pure"):
            columns.append("target")
    columns.append("note")
    table = [columns]
    for row in rows:
        line = [row.name, _fmt(row.median("ours"), row.unit)]
        for peer in peers:
            ratio = row.ratio(peer)
            line += [_fmt(row.median(peer), row.unit), f"{ratio:.2f}" if ratio else "-"]
            if peer == "py-draughts":
                line.append(_verdict(row, ratio))
            elif peer == "pure":
                line.append(_native_verdict(row, ratio))
        # A note about a peer that did not run says nothing.
        absent = [lib for lib in PEERS if lib not in row.samples]
        if len(absent) == len(PEERS):
            absent.append("peers")
        notes = [
            part
            for part in row.note.split("; ")
            if part
            and not any(part.startswith(f"{lib} ") or part.startswith(f"{lib}:") for lib in absent)
        ]
        disagreement = check_agreement(row)
        if disagreement:
            notes.append(disagreement)
        notes += [f"{lib}: {msg}" for lib, msg in row.errors.items()]
        line.append("; ".join(n for n in notes if n))
        table.append(line)
    widths = [max(len(r[i]) for r in table) for i in range(len(columns) - 1)]
    for text in header:
        print(text)
    print()
    for n, line in enumerate(table):
        cells = [line[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(line[1:-1], widths[1:], strict=True)]
        print("| " + " | ".join(cells) + " | " + line[-1])
        if n == 0:
            print("|" + "|".join("-" * (w + 2) for w in widths) + "|---")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="samples per library and row")
    parser.add_argument("--quick", action="store_true", help="smaller samples, 3 rounds")
    parser.add_argument(
        "--peers",
        default=",".join(PEERS),
        help="comma-separated peers to compare with (default: both)",
    )
    parser.add_argument(
        "--corpus",
        type=Path,
        default=PDN_DIR,
        help="folder of International PDN files (default: %(default)s)",
    )
    parser.add_argument(
        "--wall",
        action="store_true",
        help="time with the wall clock instead of each process's CPU time",
    )
    parser.add_argument(
        "--json",
        type=Path,
        default=None,
        help="also write every row, samples included, to this JSON file",
    )
    parser.add_argument(
        "--only", default="", help="run only the rows whose name contains this text"
    )
    parser.add_argument(
        "--no-pin",
        action="store_true",
        help="let the system place the workers instead of pinning them all to one CPU",
    )
    parser.add_argument(
        "--baseline",
        metavar="REV",
        default=None,
        help="also time this library at git revision REV (a worktree under "
        "benchmarks/.baseline/), as column ours@REV",
    )
    parser.add_argument(
        "--no-pure",
        action="store_true",
        help="leave out the column of this checkout on its pure-Python core (DRAUGHTS_PURE=1)",
    )
    args = parser.parse_args()
    rounds = 3 if args.quick and args.rounds == 5 else args.rounds
    clock = "wall" if args.wall else "cpu"
    peers = [p for p in args.peers.split(",") if p]
    for peer in peers:
        if peer not in PEERS:
            parser.error(f"unknown peer {peer!r}; choose from {', '.join(PEERS)}")

    libs = {"ours": Lib(Path(sys.executable), "ours", REPO)}
    baseline = None
    if args.baseline is not None:
        short, root = ensure_baseline(args.baseline)
        baseline = f"ours@{short}"
        libs[baseline] = Lib(Path(sys.executable), "ours", root)
    pure = not args.no_pure and _backend(libs["ours"]) == "native"
    if pure:
        libs["pure"] = Lib(Path(sys.executable), "ours", REPO, {"DRAUGHTS_PURE": "1"})
    libs |= {p: Lib(ensure_peer(p), p) for p in peers}
    positions = json.loads((HERE / "positions.json").read_text())["variants"]
    cpu = None
    if not args.no_pin and hasattr(os, "sched_setaffinity"):
        cpu = max(os.sched_getaffinity(0))
    workers = {name: Worker(name, lib, cpu) for name, lib in libs.items()}
    versions = {name: version(name, lib) for name, lib in libs.items()}
    try:
        rows = build_rows(positions, peers, args.quick)
        if baseline is not None:
            # The baseline does exactly our work, through the same calls.
            for row in rows:
                row.requests[baseline] = row.requests["ours"]
        if pure:
            # The pure core does exactly our work, through the same calls.
            for row in rows:
                row.requests["pure"] = row.requests["ours"]
            deep = {"workload": "perft_fn", "variant": "international", "fen": None, "depth": 8}
            rows.insert(
                0,
                Row(
                    "draughts.perft, international start d8",
                    "leaves/s",
                    True,
                    {"ours": deep, "pure": deep},
                    note="issue 16: ours at least 60 M leaves/s",
                ),
            )
        rows += pdn_rows(workers, args.quick, args.corpus)
        rows = [row for row in rows if args.only in row.name]
        run_rows(rows, workers, rounds, clock)
    finally:
        for worker in workers.values():
            worker.close()

    if not args.only or args.only in "import draughts":
        # pip compiled the peers to bytecode when it installed them; do the same
        # for ours, or the timing would include compiling its source.
        for lib in libs.values():
            if lib.repo is not None:
                subprocess.run(
                    [str(lib.python), "-m", "compileall", "-q", str(lib.repo / "draughts")],
                    check=True,
                )
        imports = Row(
            "import draughts (fresh interpreter)",
            "ms",
            False,
            {},
            target=1.0,
            native_target=1.0,
            note="target also: ours <= 50 ms" if "py-draughts" in libs else "",
        )
        for _ in range(max(rounds, 5)):
            for name, lib in libs.items():
                imports.add(name, {"seconds": import_time(lib, clock), "ops": 1})
        rows.append(imports)

    header = [
        machine_line(),
        "versions: " + ", ".join(f"{lib} {v}" for lib, v in versions.items()),
        f"command: python benchmarks/compare.py {shlex.join(sys.argv[1:])}".rstrip(),
        f"medians of {rounds} alternating samples per library, "
        + ("wall-clock time" if args.wall else "CPU time of each library's process")
        + ("" if cpu is None else f", every worker on CPU {cpu}")
        + "; x = how many times faster ours is (their time / our time"
        + ("" if baseline is None else f"; for {baseline}: above 1, the current code is faster")
        + ")",
    ]
    if baseline is not None:
        header.insert(
            2, f"baseline: {baseline} is {args.baseline} = {root.name}, imported from {root}"
        )
    if pure:
        header.insert(2, "pure: this checkout with DRAUGHTS_PURE=1 (ours runs the native core)")
    print_table(rows, list(libs), header)
    if args.json is not None:
        args.json.write_text(
            json.dumps(
                {
                    "header": header,
                    "baseline": None
                    if baseline is None
                    else {"column": baseline, "rev": args.baseline, "commit": root.name},
                    "rows": [
                        {
                            "workload": row.name,
                            "unit": row.unit,
                            "median": {lib: row.median(lib) for lib in row.samples},
                            "samples": row.samples,
                            "x": {lib: row.ratio(lib) for lib in row.samples if lib != "ours"},
                            "target": row.target,
                            "verdict": _verdict(row, row.ratio("py-draughts")),
                            "native_verdict": _native_verdict(row, row.ratio("pure")),
                            "note": row.note,
                            "errors": row.errors,
                            "disagreement": check_agreement(row),
                        }
                        for row in rows
                    ],
                },
                indent=1,
            )
            + "\n"
        )


if __name__ == "__main__":
    main()
