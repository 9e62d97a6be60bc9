"""Digests of everything ``draughts.ml.VectorEnv``'s C step writes, to hold two builds
byte for byte the same.

For every preset the C step plays, both observation types, with and without
perspective, one and two threads, and three settings (plain; ``max_plies``
with claimed draws; illegal actions that lose, some actions made illegal on
purpose), 70 games are stepped ``steps`` times, ``step(sample())`` and
``sample_step()`` in turns; the observations, masks, rewards, flags, final
observations, end codes and winners after each step go into one SHA-256 per
configuration.

    PYTHONPATH=<tree> python benchmarks/ml_outputs.py OUT.json [--steps 1000]
    python benchmarks/ml_outputs.py --compare BEFORE.json AFTER.json

Run it from each build's tree (the build before as a ``git archive`` copy
with its C built in place), then compare the two files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

import draughts
from draughts.ml import VectorEnv

SETTINGS: dict[str, dict[str, object]] = {
    "plain": {},
    "plies_claim": {"max_plies": 60, "claim_draw": True},
    "lose": {"illegal": "lose", "max_plies": 300},
}
GAMES = 70


def digest(env: VectorEnv, steps: int, setting: str) -> str:
    """The SHA-256 of env's outputs over steps steps."""
    h = hashlib.sha256()
    h.update(env.observations.tobytes())
    h.update(env.masks.tobytes())
    bad = np.random.default_rng(3)
    for step in range(steps):
        if setting == "lose" and step % 3 == 0:
            actions = env.sample()
            pick = bad.random(GAMES) < 0.02
            actions[pick] = bad.integers(0, env.action_space_size, int(pick.sum()))
            env.step(actions)
        elif step % 2 == 0:
            env.step(env.sample())
        else:
            env.sample_step()
        for array in (
            env.observations,
            env.masks,
            env.rewards,
            env.terminated,
            env.truncated,
            env.final_observations,
            env._codes,
            env._winners,
        ):
            h.update(array.tobytes())
    return h.hexdigest()


def run(steps: int) -> dict[str, str]:
    """Every configuration's digest."""
    found: dict[str, str] = {}
    for variant in draughts.VARIANTS:
        for perspective in (True, False):
            for dtype in (np.float32, np.uint8):
                for threads in (1, 2):
                    for setting, options in SETTINGS.items():
                        try:
                            env = VectorEnv(
                                variant, GAMES, seed=7, perspective=perspective, dtype=dtype,
                                threads=threads, native=True, **options,  # type: ignore[arg-type]
                            )  # fmt: skip
                        except ValueError:  # not in C, or no perspective on this board
                            continue
                        view = "perspective" if perspective else "white"
                        key = f"{variant.name}/{view}/{np.dtype(dtype).name}/{threads}/{setting}"
                        found[key] = digest(env, steps, setting)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", nargs="?", help="the JSON file to write")
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        before, after = (json.loads(Path(path).read_text()) for path in args.compare)
        differ = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        print(f"{len(before)} and {len(after)} configurations, {len(differ)} differ")
        for key in differ:
            print("  differs:", key)
        sys.exit(1 if differ else 0)
    if not args.out:
        parser.error("give OUT.json or --compare")
    found = run(args.steps)
    with open(args.out, "w") as out:
        json.dump(found, out, indent=1, sort_keys=True)
    print(f"{len(found)} configurations, {args.steps} steps of {GAMES} games each")


if __name__ == "__main__":
    main()
