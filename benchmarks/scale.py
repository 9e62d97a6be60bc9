"""Validating one large PDN file: one process, worker processes, a Dask cluster.

    python benchmarks/scale.py                          # files of 500 MB and 1 GB
    python benchmarks/scale.py --size-mb 100 200        # smaller (a few minutes each)
    python benchmarks/scale.py --size-mb 50 --runs jobs1 jobs2 --json out.json
    python benchmarks/scale.py --size-mb 100 --runs dask dask-noprof --trace 20

Builds a file of each size by concatenating, again and again, the files of
the shared corpus (``../shared/data/pdn``) that validate without an error, so
that the report stays small and memory measures the reading alone. The files
are made under ``--data`` (default ``/tmp/draughts-scale``, outside the
repository) and kept for the next run. Each file is then validated:

- ``jobs1``: ``python -m draughts validate --jobs 1 FILE``;
- ``jobs2``: ``python -m draughts validate --jobs 2 FILE`` (the file split at
  game boundaries, two worker processes);
- ``dask``: ``draughts.dask.validate`` on a ``distributed.LocalCluster`` of two
  worker processes of one thread, started for the run, with Dask's default
  configuration;
- ``dask-noprof``: the same with the workers' statistical profiler off
  (``distributed.worker.profile.enabled: False``). The profiler keeps a call
  tree of every second of work, for the last
  ``distributed.admin.low-level-log-length`` (1000) seconds: a worker's
  memory grows with that history, whatever it runs, and this run shows the
  memory of the checking alone.

Each run is a new interpreter. For each: wall time, games/s, the speed-up
over ``jobs1``, the CPU time of all its processes, the peak resident memory
of the main process (``VmHWM``) and of the largest worker (for the command
line, ``ru_maxrss`` of its largest child, pages shared with the main process
included; for Dask, each worker's ``VmHWM``), and the load average before it
(other work on the machine, which the wall times depend on). All runs must
print the same summary (checked). At two sizes, the peaks show whether memory
stays flat as the file grows. With ``--trace SECONDS``, the Dask runs also
print, every SECONDS, the resident memory of the largest worker and the
seconds of profile it keeps. Also timed: finding the game starts alone
(``scan_offsets``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from draughts import pdn  # noqa: E402

CORPUS = REPO.parent / "shared" / "data" / "pdn"
RUNS = ("jobs1", "jobs2", "dask", "dask-noprof")

# The peak resident memory of this process: VmHWM where there is a /proc
# (ru_maxrss of a process started by fork and exec counts the peak of the
# process it was forked from), else ru_maxrss.
_PEAK = """
def peak_mb():
    import resource
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
"""

# Run in a new interpreter: validate, then report the peaks of the process
# and of its largest child (the pool's workers, reaped when the pool ends:
# forked, so they count the pages they share with the main process).
_CLI = (
    _PEAK
    + """
import json, resource, sys, time
from draughts._cli import main
start = time.perf_counter()
code = main(["validate", *sys.argv[1:]])
seconds = time.perf_counter() - start
self, children = (resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
print(json.dumps({"code": code, "seconds": seconds,
    "cpu": self.ru_utime + self.ru_stime + children.ru_utime + children.ru_stime,
    "main_mb": peak_mb(), "worker_mb": children.ru_maxrss / 1024}), file=sys.stderr)
"""
)

# The same on a LocalCluster of two worker processes of one thread, started
# first (not timed), with the workers' profiler on or off; each worker
# reports its own peak and CPU time. With a trace interval, a thread samples
# the workers' memory and kept profile while validate runs.
_DASK = (
    _PEAK
    + """
import json, resource, sys, threading, time
import dask, distributed
import draughts.dask

def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

def memory(dask_worker):
    with open("/proc/self/status") as status:
        rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    return rss / 1024, len(getattr(dask_worker, "profile_history", ()))

def sample(client, every, stop, trace):
    start = time.perf_counter()
    while not stop.wait(every):
        workers = client.run(memory).values()
        trace.append((round(time.perf_counter() - start), max(rss for rss, _ in workers),
                      max(kept for _, kept in workers)))

if __name__ == "__main__":
    path, profile, every = sys.argv[1], sys.argv[2] == "on", float(sys.argv[3])
    trace, stop = [], threading.Event()
    with dask.config.set({"distributed.worker.profile.enabled": profile}), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                     dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        client.run(lambda: __import__("draughts.dask"))
        before = client.run(cpu)
        sampler = threading.Thread(target=sample, args=(client, every, stop, trace))
        if every > 0:
            sampler.start()
        start, own = time.perf_counter(), cpu()
        summary = draughts.dask.validate(path, client)
        seconds, own = time.perf_counter() - start, cpu() - own
        stop.set()
        if every > 0:
            sampler.join()
        after = client.run(cpu)
        workers = client.run(peak_mb)
    print(summary.lines[-1])
    print(json.dumps({"code": 0 if summary.ok else 1, "seconds": seconds,
        "cpu": own + sum(after[w] - before[w] for w in after),
        "main_mb": peak_mb(), "worker_mb": max(workers.values()), "trace": trace}),
        file=sys.stderr)
"""
)


def clean_files() -> list[Path]:
    """The corpus files whose every game validates without an error (not
    the conformance suite's: small files of a game or two that may end
    without a game terminator, which would run into the next file)."""
    files = []
    for path in sorted(CORPUS.rglob("*.pdn")):
        if path.stat().st_size > 1 << 20 or "pdn3-conformance" in path.parts:
            continue  # OCA: its games have no GameType tag (they are English)
        with pdn.validate(path) as validation:
            summary = validation.summary()
        if summary.games and summary.ok:
            files.append(path)
    return files


def build(size_mb: int, data: Path) -> Path:
    """A file of about ``size_mb`` MB of corpus games (kept for later runs)."""
    data.mkdir(parents=True, exist_ok=True)
    target = data / f"corpus-{size_mb}mb.pdn"
    if target.exists() and target.stat().st_size >= size_mb << 20:
        return target
    sources = [path.read_bytes().rstrip() + b"\n\n" for path in clean_files()]
    written = 0
    with open(str(target) + ".part", "wb") as out:
        while written < size_mb << 20:
            for source in sources:
                out.write(source)
                written += len(source)
    os.replace(str(target) + ".part", target)
    return target


def run(code: str, *args: str) -> dict[str, Any]:
    """Run ``code`` with ``args`` in a new interpreter; the figures it prints."""
    script = Path(tempfile.mkdtemp()) / "run.py"
    script.write_text(code)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, str(script), *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stderr.strip().splitlines()[-1])
    result["summary"] = done.stdout.strip().splitlines()[-1]
    return result


def run_cli(path: Path, jobs: int) -> dict[str, Any]:
    return run(_CLI, "--jobs", str(jobs), str(path))


def run_dask(path: Path, profile: bool, trace: float) -> dict[str, Any]:
    return run(_DASK, str(path), "on" if profile else "off", str(trace))


def trace_line(trace: list[list[float]]) -> str:
    """A Dask run's trace: seconds, the largest worker's MB and the seconds
    of profile it keeps."""
    samples = ", ".join(f"{seconds:.0f}s {mb:.0f} ({kept})" for seconds, mb, kept in trace)
    return f"{'':11} worker MB (profile s kept) by time: {samples}"


def scan_speed(path: Path) -> float:
    start = time.perf_counter()
    with open(path, "rb") as handle:
        for _ in pdn.scan_offsets(handle):
            pass
    return (path.stat().st_size >> 20) / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--size-mb", type=int, nargs="+", default=[500, 1000], help="file sizes (MB)"
    )
    parser.add_argument("--runs", nargs="+", choices=RUNS, default=list(RUNS))
    parser.add_argument("--data", type=Path, default=Path("/tmp/draughts-scale"))
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument(
        "--trace", type=float, default=0, help="sample Dask workers' memory every TRACE seconds"
    )
    args = parser.parse_args()
    if not CORPUS.is_dir():
        print(f"{CORPUS} is absent: the benchmark is made from the shared corpus", file=sys.stderr)
        return 2
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}", flush=True)
    results: list[dict[str, Any]] = []
    for size in args.size_mb:
        path = build(size, args.data)
        mb = path.stat().st_size / (1 << 20)
        print(f"\n{path}: {mb:.0f} MB; scan_offsets alone: {scan_speed(path):.1f} MB/s")
        print(
            f"{'run':11} {'seconds':>8} {'games/s':>8} {'speed-up':>8} {'CPU s':>7} "
            f"{'main MB':>8} {'worker MB':>9} {'load':>5}  summary"
        )
        base = None
        for name in args.runs:
            load = os.getloadavg()[0]  # other work on the machine, before the run
            if name.startswith("dask"):
                result = run_dask(path, name == "dask", args.trace)
            else:
                result = run_cli(path, int(name[-1]))
            result["load"] = load
            games = int(result["summary"].split(" games,")[0].split()[-1])
            result.update(run=name, size_mb=round(mb), games=games)
            result["games_per_s"] = games / result["seconds"]
            if name == "jobs1":
                base = result["seconds"]
            speedup = f"{base / result['seconds']:.2f}x" if base else "-"
            worker = f"{result['worker_mb']:.0f}" if name != "jobs1" else "-"
            print(
                f"{name:11} {result['seconds']:8.1f} {result['games_per_s']:8.0f} {speedup:>8} "
                f"{result['cpu']:7.1f} {result['main_mb']:8.0f} {worker:>9} {load:5.1f}  "
                f"{result['summary']}",
                flush=True,
            )
            if result.get("trace"):
                print(trace_line(result["trace"]), flush=True)
            results.append(result)
        summaries = {r["summary"] for r in results if r["size_mb"] == round(mb)}
        if len(summaries) != 1:
            print(f"DIFFERENT SUMMARIES: {summaries}")
            return 1
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
