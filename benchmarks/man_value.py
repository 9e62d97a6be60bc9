"""What one man is worth in the static evaluation, and how far the
positional terms move the score: International, the weights in use
(``DRAUGHTS_WEIGHTS`` applies).

    python benchmarks/man_value.py

Positions: the 29 turn positions of ``mobydam_turns.json`` and the 50
International positions of ``positions.json``. For every man on the board,
the static score with and without it (from its owner's side: the man's
marginal value), by the rows it has advanced and by the men on the board;
and per position the *positional sum*, the score less the material (men at
100, kings at the blended king weight), from White's side.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import draughts  # noqa: E402
from draughts._context import context  # noqa: E402
from draughts.engine._raw import raw_position  # noqa: E402
from draughts.engine.evaluation import Evaluator  # noqa: E402


def line(name: str, values: list[int]) -> str:
    ordered = sorted(values)
    mean = statistics.mean(values)
    low, high = ordered[len(values) // 10], ordered[len(values) * 9 // 10]
    return f"  {name:<8} n={len(values):<5} mean {mean:6.1f}  p10 {low:4}  p90 {high:4}"


def main() -> int:
    t = context(draughts.variant.INTERNATIONAL).core
    ev = Evaluator(t, patterns=False)
    fens = [e["fen"] for e in json.loads((HERE / "mobydam_turns.json").read_text())]
    turns = len(fens)
    table = json.loads((HERE / "positions.json").read_text())
    fens += [p["fen"] for p in table["variants"]["international"]["positions"]]
    by_row: dict[int, list[int]] = {}
    by_men: dict[int, list[int]] = {}
    positional = []

    def white(turn: int, m0: int, m1: int, k0: int, k1: int) -> int:
        score = ev.score(turn, m0, m1, k0, k1)
        return score if turn == 0 else -score

    for fen in fens:
        board = draughts.Board()
        board.set_fen(fen)
        turn, m0, m1, k0, k1 = raw_position(board, t)
        men = (m0 | m1).bit_count()
        here = white(turn, m0, m1, k0, k1)
        king = ev.blended[men][1] // ev.men_at_start
        material = 100 * (m0.bit_count() - m1.bit_count()) + king * (
            k0.bit_count() - k1.bit_count()
        )
        positional.append(here - material)
        for color, own in ((0, m0), (1, m1)):
            rest = own
            while rest:
                low = rest & -rest
                rest ^= low
                if color == 0:
                    value = here - white(turn, m0 & ~low, m1, k0, k1)
                else:
                    value = white(turn, m0, m1 & ~low, k0, k1) - here
                row = (low.bit_length() - 1) // t.stride
                by_row.setdefault(row if color == 0 else t.height - 1 - row, []).append(value)
                by_men.setdefault(men // 10 * 10, []).append(value)
    every = [v for values in by_row.values() for v in values]
    print(f"{len(fens)} positions, {len(every)} men")
    print(line("all", every))
    print("by rows advanced (0: the own back row)")
    for row in sorted(by_row):
        print(line(str(row), by_row[row]))
    print("by men on the board")
    for men in sorted(by_men):
        print(line(f"{men}-{men + 9}", by_men[men]))
    for name, values in (("all", positional), ("turns", positional[:turns])):
        spread = statistics.pstdev(values)
        mean = statistics.mean(abs(v) for v in values)
        print(f"positional sum, {name}: sd {spread:.1f}, mean |sum| {mean:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
