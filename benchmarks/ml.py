"""Steps per second of ``draughts.ml.VectorEnv`` beside py-draughts and OpenSpiel.

    python benchmarks/ml.py                   # ours, and the peers whose venvs exist
    python benchmarks/ml.py --seconds 2 --num-envs 256
    python benchmarks/ml.py --install         # make the peers' venvs first (pip)
    python benchmarks/ml.py --peers ''        # ours only
    python benchmarks/ml.py --repeat 5        # 5 rounds: medians, ranges, ratios per round

Every row is random self-play with an observation and a legal-move mask at
every step (what a learning loop needs), timed for about ``--seconds``:

- ours: ``VectorEnv`` (International and English) on the native core with
  its games stepped in C (on one thread, and on ``--threads``; with
  ``step(sample())``, and with ``sample_step()``, which picks the random
  actions in the same C call, on the stepping threads), the same
  with ``uint8`` observations (``dtype=np.uint8``: a quarter of the bytes
  to write), with the games stepped in Python on ``Board``
  (``native=False``: how it ran before the C step), and in a child process
  on the pure core (``DRAUGHTS_PURE=1``);
- py-draughts 1.10.1 (International): ``to_tensor()`` and
  ``legal_moves_mask()``, then a random legal move;
- OpenSpiel (its ``checkers``, the English rules without a flying king):
  ``observation_tensor()`` and ``legal_actions()``, then a random one.

Each peer runs in its own virtual environment under ``benchmarks/.venvs/``
(git-ignored; py-draughts and pydraughts both install a module named
``draughts``); a peer without one is skipped. Also measured: ``encode_batch``
(boards/s; its C reading of the boards and its Python one) and ``dataset`` on
a PDN file (games/s; default the whole OCA file of the shared corpus,
skipped when absent), from its path (the C replay) and from an open handle
(the reader alone, as it ran before; its first 2,000 games), and the
observations of that dataset made in batches (positions/s). Ratios are ours
over the peer's (or over our own earlier path), from one run; the load
average is printed, since the machine may be shared.

The issue's targets are about both cores: the ratios to the peers and the
target lines use the rows ``native, 2 threads, sample_step`` (``--threads``;
the default float32 observations), named in the output. Each row's note
gives its steps per CPU second (the process's CPU time on all its threads,
the step threads' spinning included): a figure less bound to the load than
steps per second, where the machine is shared.

On a shared machine one run tells little: the two-thread rows moved
two-fold from one run to the next on the 2-core test machine while the
one-thread rows moved by a tenth. ``--repeat N`` runs N rounds of every row,
each round running ours and the peers in alternation (a variant's rows of
ours, then a peer; every other round a peer first), and prints per row the
median, the lowest and the highest rate and their spread (highest over
lowest), each ratio from the medians and, in brackets, the median and range
of the rounds' own ratios (each from rows a few seconds apart), and the
targets from the medians. A row whose spread is large measured the
machine's other work as much as our code; a ratio whose rounds agree holds
even where the rates moved.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import subprocess
import sys
import time
import venv
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
VENVS = HERE / ".venvs"
OCA = REPO.parent / "shared" / "data" / "pdn" / "english" / "OCA_2.0.pdn"
PEERS = {"py-draughts": "py-draughts==1.10.1", "open_spiel": "open_spiel"}

# Each loop prints {"steps": n, "seconds": s} after running for the given time.
OURS = """
import json, sys, time
import draughts, draughts.ml as ml
variant, num_envs, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
native = {"c": None, "fused": None, "python": False}[sys.argv[4]]
threads, fused = int(sys.argv[5]), sys.argv[4] == "fused"
env = ml.VectorEnv(variant, num_envs, seed=1, native=native, threads=threads, dtype=sys.argv[6])
env.step(env.sample())
steps, start, cpu = 0, time.perf_counter(), time.process_time()
while time.perf_counter() - start < seconds:
    if fused:
        env.sample_step()
    else:
        env.step(env.sample())
    steps += num_envs
print(json.dumps({"steps": steps, "seconds": time.perf_counter() - start,
                  "cpu": time.process_time() - cpu,
                  "backend": draughts.BACKEND, "c_step": env.native}))
"""

PY_DRAUGHTS = """
import json, random, sys, time
import draughts
seconds = float(sys.argv[1])
rng = random.Random(1)
board = draughts.StandardBoard()
steps, start, cpu = 0, time.perf_counter(), time.process_time()
while time.perf_counter() - start < seconds:
    board.to_tensor()
    board.legal_moves_mask()
    moves = board.legal_moves
    if not moves or board.game_over:
        board = draughts.StandardBoard()
        continue
    board.push(rng.choice(moves))
    steps += 1
print(json.dumps({"steps": steps, "seconds": time.perf_counter() - start,
                  "cpu": time.process_time() - cpu}))
"""

OPEN_SPIEL = """
import json, random, sys, time
import pyspiel
seconds = float(sys.argv[1])
rng = random.Random(1)
game = pyspiel.load_game("checkers")
state = game.new_initial_state()
steps, start, cpu = 0, time.perf_counter(), time.process_time()
while time.perf_counter() - start < seconds:
    state.observation_tensor()
    actions = state.legal_actions()
    state.apply_action(rng.choice(actions))
    steps += 1
    if state.is_terminal():
        state = game.new_initial_state()
print(json.dumps({"steps": steps, "seconds": time.perf_counter() - start,
                  "cpu": time.process_time() - cpu}))
"""


def _run(
    python: Path, code: str, args: list[str], env: dict[str, str], cwd: Path
) -> dict[str, Any]:
    out = subprocess.run(
        [str(python), "-c", code, *args],
        env={**os.environ, **env},
        cwd=cwd,
        capture_output=True,
        text=True,
    )
    if out.returncode:
        return {"error": out.stderr.strip().splitlines()[-1] if out.stderr else "failed"}
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def _peer_python(peer: str, install: bool) -> Path | None:
    python = VENVS / peer / "bin" / "python"
    if not python.exists() and install:
        print(f"setting up {VENVS / peer} ...", file=sys.stderr, flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(VENVS / peer)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", PEERS[peer]], check=True)
    return python if python.exists() else None


def _encode_rates(seconds: float) -> tuple[float, float]:
    """encode_batch's boards/s: its C reading of the boards (where the native
    core is built), and its Python one (Layout.state and Layout.fill, what
    encode_batch ran before)."""
    import numpy as np

    import draughts
    import draughts.ml as ml
    from draughts.ml.encoding import layout

    env = ml.VectorEnv("international", 64, seed=2, native=False)
    boards: list[draughts.Board] = []
    while len(boards) < 1024:
        env.step(env.sample())
        boards += [b.copy() for b in env.boards]
    boards = boards[:1024]
    out = ml.encode_batch(boards)
    lay = layout(boards[0].variant)

    def python(batch: list[draughts.Board]) -> None:
        lay.fill([lay.state(b, None) for b in batch], out)

    rates = []
    for encode in (lambda batch: ml.encode_batch(batch, out=out), python):
        count, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            encode(boards)
            count += len(boards)
        rates.append(count / (time.perf_counter() - start))
    assert (ml.encode_batch(boards) == np.asarray(out)).all()  # the same planes
    return rates[0], rates[1]


def _dataset_rates(
    path: Path, games: int | None, reader_games: int
) -> tuple[float, int, float, float]:
    """dataset's games/s on the first ``games`` games of ``path`` (all of
    them for None) from its path (the C replay where the native core is
    built; the best of three runs: on this virtual machine the first writes
    of a run's arrays into memory the process has not used yet may cost more
    than all the rest), the games it read, the games/s from an open handle
    on the first ``reader_games`` (the reader alone: how dataset ran
    before), and the positions/s of the observations made from the dataset
    in batches of 1,024 (Dataset.batches, shuffled)."""
    import draughts.ml as ml
    from draughts.pdn import open_pdn

    def rate(source: Path | IO[str], most: int | None, runs: int) -> tuple[float, int]:
        best, count = float("inf"), 0
        for _ in range(runs):
            start = time.perf_counter()
            data = ml.dataset(source, max_games=most)
            best = min(best, time.perf_counter() - start)
            count = int(data.games.max()) + 1 if len(data) else 0
            del data
        return count / best, count

    fast, count = rate(path, games, 3)
    with open_pdn(path) as handle:
        slow, _ = rate(handle, reader_games, 1)
    data = ml.dataset(path, max_games=games)
    start, done = time.perf_counter(), 0
    for observations, _, _ in data.batches(1024, shuffle=True, seed=1):
        done += len(observations)
    return fast, count, slow, done / (time.perf_counter() - start)


# A row: its label, its rate, its note (an error, or what it measured), and
# its steps per CPU second where it has them.
Row = tuple[str, float | None, str, float | None]


def _ours(args: argparse.Namespace, variant: str) -> list[Row]:
    """One variant's rows of ours, each in a child process."""
    seconds, n = str(args.seconds), str(args.num_envs)
    rows: list[Row] = []
    runs = (
        ("native", "c", 1, "0", "float32"),
        (f"native, {args.threads} threads", "c", args.threads, "0", "float32"),
        ("native, sample_step", "fused", 1, "0", "float32"),
        (f"native, {args.threads} threads, sample_step", "fused", args.threads, "0", "float32"),
        ("native, uint8, sample_step", "fused", 1, "0", "uint8"),
        (
            f"native, {args.threads} threads, uint8, sample_step",
            "fused",
            args.threads,
            "0",
            "uint8",
        ),
        ("native core, Python step", "python", 1, "0", "float32"),
        ("pure", "python", 1, "1", "float32"),
    )
    for name, step, threads, pure, dtype in runs:
        result = _run(
            Path(sys.executable),
            OURS,
            [variant, n, seconds, step, str(threads), dtype],
            {"DRAUGHTS_PURE": pure},
            REPO,
        )
        rows.append(
            (f"ours VectorEnv {variant} ({name})", _rate(result), _note(result), _cpu(result))
        )
    return rows


PEER_LABELS = {"py-draughts": "py-draughts international", "open_spiel": "OpenSpiel checkers"}


def _peer(args: argparse.Namespace, peer: str) -> list[Row]:
    """A peer's row, in its own venv (skipped without one)."""
    python = _peer_python(peer, args.install)
    label = PEER_LABELS[peer]
    if python is None:
        return [(label, None, f"skipped: no {VENVS / peer} (use --install)", None)]
    code = PY_DRAUGHTS if peer == "py-draughts" else OPEN_SPIEL
    result = _run(python, code, [str(args.seconds)], {}, VENVS)
    return [(label, _rate(result), _note(result), _cpu(result))]


def _round(args: argparse.Namespace, peers: list[str], peers_first: bool) -> list[Row]:
    """One round of every row: ours and the peers in alternation (each
    variant's rows of ours, then a peer), so that the ratios of a round
    compare runs a few seconds apart; peers_first starts with a peer."""
    # Each run is made when its turn comes, in the order of the rows.
    ours: list[Callable[[], list[Row]]] = [
        functools.partial(_ours, args, variant) for variant in ("international", "english")
    ]
    theirs: list[Callable[[], list[Row]]] = [functools.partial(_peer, args, peer) for peer in peers]
    rows: list[Row] = []
    blocks = [ours, theirs] if not peers_first else [theirs, ours]
    for k in range(max(len(ours), len(theirs))):
        for block in blocks:
            if k < len(block):
                rows += block[k]()
    c_rate, python_rate = _encode_rates(args.seconds)
    rows.append(("ours encode_batch international (boards/s)", c_rate, "", None))
    rows.append(
        ("ours encode_batch international, Python reading (boards/s)", python_rate, "", None)
    )
    if args.pdn.exists():
        fast, count, slow, expanded = _dataset_rates(args.pdn, args.games, args.reader_games)
        rows.append((DATASET_ROW.format(args.pdn.name), fast, f"{count:,} games", None))
        rows.append((READER_ROW.format(args.pdn.name), slow, f"{args.reader_games:,} games", None))
        rows.append(("ours dataset observations in batches (positions/s)", expanded, "", None))
    else:
        rows.append(("ours dataset", None, f"skipped: {args.pdn} is absent", None))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per row (default 3)")
    parser.add_argument("--num-envs", type=int, default=256, help="games per VectorEnv (256)")
    parser.add_argument(
        "--threads", type=int, default=2, help="threads of the second and third rows (2)"
    )
    parser.add_argument("--peers", default=",".join(PEERS), help="peers to run, comma-separated")
    parser.add_argument("--install", action="store_true", help="make missing peer venvs")
    parser.add_argument("--pdn", type=Path, default=OCA, help="file for the dataset row")
    parser.add_argument(
        "--games", type=int, default=None, help="games of the dataset row (default: all)"
    )
    parser.add_argument(
        "--reader-games", type=int, default=2000, help="games of the reader-alone row (2000)"
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="rounds of every row (default 1); above 1, each row's median and range, "
        "and the ratios from the medians and per round",
    )
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    peers = [p for p in args.peers.split(",") if p]
    for peer in peers:
        if peer not in PEERS:
            parser.error(f"unknown peer {peer!r}; choose from {', '.join(PEERS)}")
    sys.path.insert(0, str(REPO))  # for the encode and dataset rows, run in this process
    rounds: list[list[Row]] = []
    loads: list[float] = []
    for k in range(args.repeat):
        loads.append(os.getloadavg()[0])
        rounds.append(_round(args, peers, peers_first=k % 2 == 1))
        if args.repeat > 1:
            print(
                f"round {k + 1} of {args.repeat} done, load average {os.getloadavg()}",
                file=sys.stderr,
                flush=True,
            )
    loads.append(os.getloadavg()[0])
    _report(rounds, args, loads)


def _note(result: dict[str, Any]) -> str:
    """A row's note: its error, or its steps per CPU second (the process's
    time on all its threads, the stepping threads' spinning included)."""
    if "steps" not in result:
        return str(result.get("error", ""))
    cpu = _cpu(result)
    return f"{cpu:,.0f} per CPU second" if cpu else ""


def _rate(result: dict[str, Any]) -> float | None:
    """A run's steps per second (wall clock), where it ran."""
    return result["steps"] / result["seconds"] if "steps" in result else None


def _cpu(result: dict[str, Any]) -> float | None:
    """A run's steps per CPU second, where it has them."""
    return result["steps"] / result["cpu"] if "steps" in result and result.get("cpu") else None


def _both_cores(variant: str, threads: int) -> str:
    """The row the targets are about: random self-play on both cores
    (``threads`` threads, sample_step(), the default float32 observations)."""
    return f"ours VectorEnv {variant} (native, {threads} threads, sample_step)"


DATASET_ROW = "ours dataset {}, from its path (games/s)"
READER_ROW = "ours dataset {}, the reader alone (games/s)"


def _report(rounds: list[list[Row]], args: argparse.Namespace, loads: list[float]) -> None:
    """Every row's rate (one round), or its median and range over the rounds;
    the ratios from the medians, and with rounds the median (and range) of
    each round's own ratio; the targets from the medians."""
    labels = [row[0] for row in rounds[0]]
    notes = {row[0]: row[2] for row in rounds[0]}
    per_round = [{row[0]: row[1] for row in rows} for rows in rounds]
    cpus = {
        label: [row[3] for rows in rounds for row in rows if row[0] == label and row[3]]
        for label in labels
    }
    for label, values in cpus.items():  # with rounds, the median per CPU second
        if values and len(rounds) > 1:
            notes[label] = f"{statistics.median(values):,.0f} per CPU second (median)"
    series: dict[str, list[float]] = {
        label: [rate for r in per_round if (rate := r.get(label)) is not None] for label in labels
    }
    rates = {label: statistics.median(v) if v else None for label, v in series.items()}
    several = len(rounds) > 1
    if several:
        print(f"{len(rounds)} rounds; per row the median and the range (lowest - highest)")
        print(f"{'row':<72} {'median':>12} {'lowest':>12} {'highest':>12} {'spread':>7}  note")
    else:
        print(f"{'row':<72} {'per second':>12}  note")
    for label in labels:
        rate, values = rates[label], series[label]
        if rate is None:
            print(f"{label:<72} {'-':>12}  {notes[label]}")
        elif several:
            spread = max(values) / min(values) if min(values) else float("inf")
            print(
                f"{label:<72} {rate:12,.0f} {min(values):12,.0f} {max(values):12,.0f} "
                f"{spread:6.2f}x  {notes[label]}"
            )
        else:
            print(f"{label:<72} {rate:12,.0f}  {notes[label]}")
    international, english = (_both_cores(v, args.threads) for v in ("international", "english"))
    print(f"ratios against the peers: ours from the rows {international!r} and {english!r}")
    if several:
        print("ratio of the medians; [the median of the rounds' own ratios, lowest - highest]")
    pairs = (
        (international, "py-draughts international"),
        (international, "OpenSpiel checkers"),
        (english, "OpenSpiel checkers"),
        (
            "ours VectorEnv international (native)",
            "ours VectorEnv international (native core, Python step)",
        ),
        ("ours VectorEnv english (native)", "ours VectorEnv english (native core, Python step)"),
        (
            "ours encode_batch international (boards/s)",
            "ours encode_batch international, Python reading (boards/s)",
        ),
        (DATASET_ROW.format(args.pdn.name), READER_ROW.format(args.pdn.name)),
        *[
            (
                f"ours VectorEnv {variant} (native, {args.threads} threads{kind})",
                f"ours VectorEnv {variant} (native{kind})",
            )
            for variant in ("international", "english")
            for kind in ("", ", sample_step", ", uint8, sample_step")
        ],
    )
    for ours, peer in pairs:
        mine, theirs = rates.get(ours), rates.get(peer)
        if mine and theirs:
            print(
                f"ratio {ours} / {peer}: {mine / theirs:.2f}{_round_ratios(per_round, ours, peer)}"
            )
    # The targets, on both cores: steps/s, and ratios to the peers.
    py_draughts, open_spiel = (
        rates.get(PEER_LABELS["py-draughts"]),
        rates.get(PEER_LABELS["open_spiel"]),
    )
    for what, value, over, target in (
        (f"{international} steps/s", rates.get(international), 1.0, 10_000_000),
        (f"{english} steps/s", rates.get(english), 1.0, 10_000_000),
        (f"{international} / py-draughts", rates.get(international), py_draughts, 1_000),
        (f"{international} / OpenSpiel", rates.get(international), open_spiel, 100),
        (f"{english} / OpenSpiel", rates.get(english), open_spiel, 100),
    ):
        if value and over:
            got = value / over
            verdict = "met" if got >= target else f"missed ({got / target:.2f} of it)"
            shown = f"{got:,.0f}" if over == 1.0 else f"{got:,.1f}"
            median = " (medians)" if several else ""
            print(f"target {what} >= {target:,}: {shown}{median}, {verdict}")
    print(
        f"num_envs {args.num_envs}, {args.seconds} s a row, {len(rounds)} round(s), "
        f"load average {min(loads):.2f} to {max(loads):.2f} (1 minute; at each round's start "
        f"and the end), now {os.getloadavg()} on {os.cpu_count()} cores"
    )


def _round_ratios(per_round: list[dict[str, float | None]], ours: str, peer: str) -> str:
    """With rounds, the median, lowest and highest of each round's own
    ratio of the two rows (the rows of a round a few seconds apart)."""
    ratios = [a / b for r in per_round if (a := r.get(ours)) and (b := r.get(peer))]
    if len(per_round) < 2 or not ratios:
        return ""
    return f" [{statistics.median(ratios):.2f}, {min(ratios):.2f} - {max(ratios):.2f}]"


if __name__ == "__main__":
    main()
