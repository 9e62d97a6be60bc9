"""Two builds of ``draughts.ml``'s C step against each other: steps per CPU second.

Each run is a fresh process in one build's tree (``PYTHONPATH`` and the
working directory that tree): a ``VectorEnv`` of 256 games on one thread,
50 calls of ``sample_step()`` to warm up, then ``sample_step()`` for the
given CPU seconds, the steps over the process's CPU time. A round runs
both builds, in turns (every other round the second build first), for
International and English, ``float32`` and ``uint8``; each round's own
ratio (second build over first) is printed with the load average, then
per configuration the median ratio and in how many rounds the second
build was faster. Ratios of alternated rounds, not rates, are what to
read where other work shares the machine.

    python benchmarks/ml_versus.py BEFORE_TREE AFTER_TREE [--rounds 8] [--seconds 2]

Each tree with its C built in place (``python setup.py -q build_ext
--inplace``), the one before as a ``git archive`` copy.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CHILD = """
import json, sys, time
import draughts.ml as ml
variant, dtype, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
env = ml.VectorEnv(variant, 256, seed=1, threads=1, dtype=dtype)
for _ in range(50):
    env.sample_step()
steps, cpu = 0, time.process_time()
while time.process_time() - cpu < seconds:
    for _ in range(20):
        env.sample_step()
    steps += 20 * 256
print(json.dumps({"rate": steps / (time.process_time() - cpu), "c_step": env.native}))
"""


def rate(tree: str, variant: str, dtype: str, seconds: float) -> float:
    """Steps per CPU second of one run in tree."""
    env = {**os.environ, "PYTHONPATH": tree}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, variant, dtype, str(seconds)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    result = json.loads(out)
    if not result["c_step"]:
        raise SystemExit(f"{tree}: the C step is not built")
    return float(result["rate"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="the first build's tree")
    parser.add_argument("after", help="the second build's tree")
    parser.add_argument("--rounds", type=int, default=8, help="rounds per configuration (8)")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds a run (2)")
    args = parser.parse_args()
    for variant in ("international", "english"):
        for dtype in ("float32", "uint8"):
            ratios = []
            for r in range(args.rounds):
                order = (args.before, args.after) if r % 2 == 0 else (args.after, args.before)
                rates = {tree: rate(tree, variant, dtype, args.seconds) for tree in order}
                ratios.append(rates[args.after] / rates[args.before])
                print(
                    f"{variant} {dtype} round {r}: before {rates[args.before] / 1e6:.3f} "
                    f"after {rates[args.after] / 1e6:.3f} M steps/CPU s, "
                    f"ratio {ratios[-1]:.4f}, load {os.getloadavg()[0]:.2f}",
                    flush=True,
                )
            faster = sum(x > 1 for x in ratios)
            print(
                f"== {variant} {dtype}: median ratio {statistics.median(ratios):.4f}, "
                f"after faster in {faster}/{args.rounds} rounds "
                f"({min(ratios):.4f} to {max(ratios):.4f})",
                flush=True,
            )


if __name__ == "__main__":
    main()
