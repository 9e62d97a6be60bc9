"""Where a step of ``draughts.ml.VectorEnv`` spends its instructions, by phase.

Runs 450 ``sample_step()`` calls of 256 games on one thread under
callgrind (``--toggle-collect=vec_step_sampled``, as docs/ml.rst counts a
step), annotates the C sources line by line (``callgrind_annotate
--auto=yes``: inlined code counted on its own lines), gives each line of
draughts/ml/_native/ to the function whose body holds it, and sums the
functions by phase (the stores into the mask inside the move generators
counted as the mask's). Lines of other sources (the core's bit helpers,
the C library, Python) are listed apart; "the games" in docs/ml.rst's
table adds the step's bookkeeping to those outside the core's helpers.

    python benchmarks/ml_phases.py international [--dtype uint8] [--keep DIR]

Needs valgrind and callgrind_annotate; a phase moves by ten or so
instructions between builds as the compiler places the inlined code.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NATIVE = ROOT / "draughts" / "ml" / "_native"
CALLS, GAMES = 450, 256

PHASES = {
    "the move": "find_action push_key keep_action apply number_move move_bits ml_grow",
    "draw rules and end": "update_starts ml_holding count_rules count_each rule_count "
    "occurrences decide met strong_side next_repeats rule_value",
    "quiet moves": "quiet_moves quiet_moves_as men_movers steps_to king_reach",
    "captures": "single_jumps single_jumps_as men_jumps kings_may_capture men_routes "
    "men_onward king_onward men_route generate ml_generate rank_of put_route rank_shared",
    "mask": "clear_marks mark",
    "observation": "observe_pieces observe fill_plane fill_stores fill redraw_pieces "
    "spread_planes spread_planes_as spread_plane put_cells pdep byte_at shown redraw_as "
    "draw_as put_pieces put to_byte put_squares redraw_values redraw_view pieces_may_serve",
    "random pick": "pick pcg_double ml_pcg_advance ml_draw_uniforms ml_pcg_double draw_first",
    "games (the step's own lines)": "step_one ml_step_games start_again ml_restart "
    "prefetch_game prefetch_state prefetch_arrays ml_step_all ml_pool_run run_step "
    "vec_step_sampled",
}
PHASE_OF = {name: phase for phase, names in PHASES.items() for name in names.split()}
NOT_A_NAME = {"__attribute__", "if", "for", "while", "switch", "sizeof", "defined"}


def functions(path: Path) -> list[tuple[int, int, str]]:
    """(first line, last line, name) of each function defined in a C file
    (a plain scan: a name and its parameters at the start of a line, the
    body's closing brace at the start of a later one)."""
    found: list[tuple[int, int, str]] = []
    lines = path.read_text().split("\n")
    name, start = "", 0
    for number, line in enumerate(lines, 1):
        if not name:
            match = re.match(r"^(?!typedef|#|/\*| \*|\s)[^;=]*?\b(\w+)\(", line)
            if match is None or match.group(1) in NOT_A_NAME or line.rstrip().endswith(";"):
                continue
            if re.search(r"\{.*\}\s*$", line):  # a function on one line
                found.append((number, number, match.group(1)))
                continue
            for ahead in lines[number - 1 : number + 3]:  # its opening brace
                if ahead.rstrip().endswith("{"):
                    name, start = match.group(1), number
                    break
                if ahead.rstrip().endswith(";"):
                    break
        elif line.startswith("}"):
            found.append((start, number, name))
            name = ""
    return found


def mask_lines(path: Path) -> set[int]:
    """The lines of a C file that store into the mask."""
    text = path.read_text().split("\n")
    return {n for n, line in enumerate(text, 1) if re.search(r"\bmask\[.*\]\s*=[^=]", line)}


def phases(annotated: str) -> tuple[collections.Counter[str], collections.Counter[str]]:
    """Instructions by phase (lines of draughts/ml/_native) and by other source file."""
    ours: collections.Counter[str] = collections.Counter()
    others: collections.Counter[str] = collections.Counter()
    source: Path | None = None
    other: str | None = None  # the other source file's name; None before the first
    line = 0
    bodies: list[tuple[int, int, str]] = []
    masks: set[int] = set()
    for raw in annotated.split("\n"):
        if "events annotated" in raw:
            break
        header = re.match(r"-- (?:Auto|User)-annotated source: (.*)", raw)
        if header:
            path = Path(header.group(1).strip())
            source = NATIVE / path.name if "/ml/_native/" in str(path) else None
            other, line = ("" if source else path.name), 0
            if source is not None and source.exists():
                bodies, masks = functions(source), mask_lines(source)
            continue
        count = re.match(r"\s*([\d,]+|\.)\s", raw)
        if source is None and other is None:
            continue  # the summaries before the first source
        if count is None or re.match(r"\s*[\d,]+\s+(=>|<\s)", raw):
            continue  # a call's inclusive cost, or no source line
        line += 1
        if count.group(1) == ".":
            continue
        n = int(count.group(1).replace(",", ""))
        if source is None:
            if other is not None:
                others[other] += n
            continue
        name = next((f for first, last, f in bodies if first <= line <= last), "?")
        ours["mask" if line in masks else PHASE_OF.get(name, "other: " + name)] += n
    return ours, others


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("variant", nargs="?", default="international")
    parser.add_argument("--dtype", default="float32", choices=("float32", "uint8"))
    parser.add_argument("--keep", help="a folder for callgrind's output (else a temporary one)")
    args = parser.parse_args()
    folder = Path(args.keep or tempfile.mkdtemp(prefix="ml-phases-"))
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"callgrind.{args.variant}.{args.dtype}"
    program = (
        "import numpy as np, draughts.ml as ml\n"
        f"env = ml.VectorEnv({args.variant!r}, {GAMES}, seed=1, threads=1, dtype=np.{args.dtype})\n"
        f"for _ in range({CALLS}): env.sample_step()\n"
    )
    subprocess.run(
        ["valgrind", "--tool=callgrind", "--toggle-collect=vec_step_sampled", "--dump-instr=yes",
         f"--callgrind-out-file={out}", sys.executable, "-c", program],
        check=True, cwd=ROOT, capture_output=True,
        env=dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(ROOT)),
    )  # fmt: skip
    annotated = subprocess.run(
        ["callgrind_annotate", "--auto=yes", "--show-percs=no", "--context=100000",
         "--threshold=100", str(out)],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    totals = re.search(r"([\d,]+)\s+PROGRAM TOTALS", annotated)
    if totals is None:
        sys.exit("callgrind_annotate gave no total")
    total = int(totals.group(1).replace(",", ""))
    steps = CALLS * GAMES
    ours, others = phases(annotated)
    print(f"{args.variant}, {args.dtype}: {total / steps:,.1f} instructions a step")
    for phase, n in ours.most_common():
        print(f"  {phase:32s} {n / steps:7.1f}")
    for name, n in others.most_common(6):
        print(f"  {'(' + name + ')':32s} {n / steps:7.1f}")
    rest = total - sum(ours.values()) - sum(others.values())
    print(f"  {'(outside any annotated line)':32s} {rest / steps:7.1f}")


if __name__ == "__main__":
    main()
