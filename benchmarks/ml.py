"""Steps per second of ``draughts.ml.VectorEnv`` beside py-draughts and OpenSpiel.

    python benchmarks/ml.py                   # ours, and the peers whose venvs exist
    python benchmarks/ml.py --seconds 2 --num-envs 256
    python benchmarks/ml.py --install         # make the peers' venvs first (pip)
    python benchmarks/ml.py --peers ''        # ours only

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
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import venv
from pathlib import Path
from typing import IO

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


def _run(python: Path, code: str, args: list[str], env: dict[str, str], cwd: Path) -> dict:
    out = subprocess.run(
        [str(python), "-c", code, *args],
        env={**os.environ, **env},
        cwd=cwd,
        capture_output=True,
        text=True,
    )
    if out.returncode:
        return {"error": out.stderr.strip().splitlines()[-1] if out.stderr else "failed"}
    result: dict = json.loads(out.stdout.strip().splitlines()[-1])
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
    args = parser.parse_args()
    seconds, n = str(args.seconds), str(args.num_envs)
    rows: list[tuple[str, float | None, str]] = []
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
    for variant in ("international", "english"):
        for name, step, threads, pure, dtype in runs:
            result = _run(
                Path(sys.executable),
                OURS,
                [variant, n, seconds, step, str(threads), dtype],
                {"DRAUGHTS_PURE": pure},
                REPO,
            )
            rate = result["steps"] / result["seconds"] if "steps" in result else None
            rows.append((f"ours VectorEnv {variant} ({name})", rate, _note(result)))
    for peer in [p for p in args.peers.split(",") if p]:
        if peer not in PEERS:
            parser.error(f"unknown peer {peer!r}; choose from {', '.join(PEERS)}")
        python = _peer_python(peer, args.install)
        label = {"py-draughts": "py-draughts international", "open_spiel": "OpenSpiel checkers"}[
            peer
        ]
        if python is None:
            rows.append((label, None, f"skipped: no {VENVS / peer} (use --install)"))
            continue
        code = PY_DRAUGHTS if peer == "py-draughts" else OPEN_SPIEL
        result = _run(python, code, [seconds], {}, VENVS)
        rate = result["steps"] / result["seconds"] if "steps" in result else None
        rows.append((label, rate, _note(result)))
    sys.path.insert(0, str(REPO))
    c_rate, python_rate = _encode_rates(args.seconds)
    rows.append(("ours encode_batch international (boards/s)", c_rate, ""))
    rows.append(("ours encode_batch international, Python reading (boards/s)", python_rate, ""))
    if args.pdn.exists():
        fast, count, slow, expanded = _dataset_rates(args.pdn, args.games, args.reader_games)
        rows.append((DATASET_ROW.format(args.pdn.name), fast, f"{count:,} games"))
        rows.append((READER_ROW.format(args.pdn.name), slow, f"{args.reader_games:,} games"))
        rows.append(("ours dataset observations in batches (positions/s)", expanded, ""))
    else:
        rows.append(("ours dataset", None, f"skipped: {args.pdn} is absent"))
    _report(rows, args)


def _note(result: dict) -> str:
    """A row's note: its error, or its steps per CPU second (the process's
    time on all its threads, the stepping threads' spinning included)."""
    if "steps" not in result:
        return str(result.get("error", ""))
    return f"{result['steps'] / result['cpu']:,.0f} per CPU second" if result.get("cpu") else ""


def _both_cores(variant: str, threads: int) -> str:
    """The row the targets are about: random self-play on both cores
    (``threads`` threads, sample_step(), the default float32 observations)."""
    return f"ours VectorEnv {variant} (native, {threads} threads, sample_step)"


DATASET_ROW = "ours dataset {}, from its path (games/s)"
READER_ROW = "ours dataset {}, the reader alone (games/s)"


def _report(rows: list[tuple[str, float | None, str]], args: argparse.Namespace) -> None:
    rates = {label: rate for label, rate, _ in rows}
    print(f"{'row':<72} {'per second':>12}  note")
    for label, rate, note in rows:
        shown = f"{rate:12,.0f}" if rate is not None else f"{'-':>12}"
        print(f"{label:<72} {shown}  {note}")
    international, english = (_both_cores(v, args.threads) for v in ("international", "english"))
    print(f"ratios against the peers: ours from the rows {international!r} and {english!r}")
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
            print(f"ratio {ours} / {peer}: {mine / theirs:.2f}")
    # The targets, on both cores: steps/s, and ratios to the peers.
    py_draughts, open_spiel = (
        rates.get("py-draughts international"),
        rates.get("OpenSpiel checkers"),
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
            print(f"target {what} >= {target:,}: {shown}, {verdict}")
    print(
        f"num_envs {args.num_envs}, {args.seconds} s a row, load average {os.getloadavg()} "
        f"on {os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
