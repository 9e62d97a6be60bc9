"""Deep perft runs: nodes per second, checked against published tables.

    python benchmarks/perft.py --variant international --depth 8
    python benchmarks/perft.py --variant russian --depth 9
    python benchmarks/perft.py --position woldouby --depth 10
    python benchmarks/perft.py --all --depth 7        # every variant with a table

Each depth is counted from scratch with :func:`draughts.perft` (routes that
capture the same pieces count once, the "drop duplicates" convention) and
printed with its time, its nodes per second and whether it matches the
published count. The exit status is 1 if any count differs.

Reference counts: ``../shared/reference/rules-research.md`` §4.2 (start
positions) and §4.3 (test positions), which collect them from DCTL's test
suite (Rein Halbersma), Aart Bik's blog and OEIS A133046, the shashki.com
"Standard validation generator moves" thread and damforum threads 2308 and
2822. Only "drop duplicates" columns are used, since that is what
``draughts.perft`` counts.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import draughts

# Start positions, drop-duplicates counts from depth 1 (rules-research.md §4.2).
START: dict[str, list[int]] = {
    "international": [
        9,
        81,
        658,
        4_265,
        27_117,
        167_140,
        1_049_442,
        6_483_961,
        41_022_423,
        258_895_763,
        1_665_861_398,
    ],
    # Killer draughts plays like International from the start position (DCTL).
    "killer": [
        9,
        81,
        658,
        4_265,
        27_117,
        167_140,
        1_049_442,
        6_483_961,
        41_022_423,
        258_895_763,
        1_665_861_398,
    ],
    "english": [
        7,
        49,
        302,
        1_469,
        7_361,
        36_768,
        179_740,
        845_931,
        3_963_680,
        18_391_564,
        85_242_128,
        388_617_999,
        1_766_564_893,
    ],
    "russian": [
        7,
        49,
        302,
        1_469,
        7_482,
        37_986,
        190_146,
        929_899,
        4_570_586,
        22_444_032,
        110_917_189,
        544_770_444,
        2_673_979_569,
    ],
    "brazilian": [
        7,
        49,
        302,
        1_469,
        7_473,
        37_628,
        187_302,
        907_830,
        4_431_766,
        21_560_022,
        105_491_257,
        511_882_477,
        2_481_546_396,
    ],
    "pool": [
        7,
        49,
        302,
        1_469,
        7_482,
        37_986,
        190_146,
        929_896,
        4_570_534,
        22_435_955,
        110_833_952,
        544_005_148,
        2_668_385_616,
    ],
    "czech": [
        7,
        49,
        302,
        1_469,
        7_361,
        36_768,
        179_740,
        845_931,
        3_963_671,
        18_368_918,
        84_967_210,
        386_262_109,
        1_749_707_352,
    ],
    "spanish": [
        7,
        49,
        302,
        1_469,
        7_361,
        36_473,
        177_532,
        828_783,
        3_860_866,
        17_743_464,
        81_383_200,
        365_728_331,
        1_637_958_247,
    ],
    "italian": [
        7,
        49,
        302,
        1_469,
        7_361,
        36_473,
        177_532,
        828_783,
        3_860_875,
        17_761_384,
        81_647_058,
        367_911_475,
        1_655_211_086,
    ],
    "canadian": [
        11,
        121,
        1_222,
        10_053,
        79_049,
        584_100,
        4_369_366,
        31_839_056,
        237_209_258,
        1_761_652_936,
    ],
}

# Test positions (rules-research.md §4.3), International rules, drop duplicates.
POSITIONS: dict[str, tuple[str, str, list[int]]] = {
    "random178": (
        "international",
        "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
        [14, 55, 1_168, 5_432, 87_195, 629_010, 9_041_010, 86_724_219, 1_216_917_193],
    ),
    "woldouby": (
        "international",
        "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
        [
            6,
            12,
            30,
            73,
            215,
            590,
            1_944,
            6_269,
            22_369,
            88_050,
            377_436,
            1_910_989,
            9_872_645,
            58_360_286,
            346_184_885,
        ],
    ),
    "allkings": (
        "international",
        "W:W"
        + ",".join(f"K{n}" for n in range(31, 51))
        + ":B"
        + ",".join(f"K{n}" for n in range(1, 21)),
        [17, 79, 352, 1_399, 7_062, 37_589, 217_575, 1_333_217, 8_558_321, 58_381_162, 417_920_283],
    ),
    "almostpromotion": (
        "international",
        "W:W6,7,8,9,10:B41,42,43,44,45",
        [9, 81, 795, 7_578, 86_351, 936_311, 11_448_262, 138_362_698, 1_799_526_674],
    ),
    # The same positions under Killer rules (Fabien Letouzey via DCTL).
    "random178-killer": (
        "killer",
        "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
        [14, 55, 1_168, 5_165, 84_326, 573_965, 8_476_150, 78_944_517, 1_133_545_351],
    ),
    "woldouby-killer": (
        "killer",
        "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
        [
            6,
            12,
            30,
            73,
            215,
            590,
            1_944,
            6_269,
            22_369,
            88_043,
            377_339,
            1_908_829,
            9_850_540,
            58_116_971,
            343_968_214,
        ],
    ),
}


def run(variant: str, fen: str | None, expected: list[int], depth: int, label: str) -> bool:
    """Print one line per depth; return whether every count matched."""
    board = draughts.Board(fen, variant=variant)
    print(f"{label}: {board.variant.name}, {board.fen()}")
    ok = True
    for d in range(1, depth + 1):
        start = time.perf_counter()
        nodes = draughts.perft(board, d)
        seconds = time.perf_counter() - start
        rate = nodes / seconds if seconds > 0 else float("inf")
        if d <= len(expected):
            want = expected[d - 1]
            verdict = "match" if nodes == want else f"MISMATCH (published {want:,})"
            ok = ok and nodes == want
        else:
            verdict = "no published count"
        print(
            f"  depth {d:2d} {nodes:>15,} nodes {seconds:9.3f} s {rate:>12,.0f} nodes/s  {verdict}",
            flush=True,
        )
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="international", choices=sorted(START))
    parser.add_argument(
        "--position",
        choices=sorted(POSITIONS),
        help="a published test position instead of the start position",
    )
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument(
        "--all", action="store_true", help="every variant's start position and every test position"
    )
    args = parser.parse_args()
    if args.depth < 1:
        parser.error("--depth must be at least 1")

    ok = True
    if args.all:
        for variant, counts in START.items():
            ok &= run(variant, None, counts, args.depth, "start")
        for name, (variant, fen, counts) in POSITIONS.items():
            ok &= run(variant, fen, counts, args.depth, name)
    elif args.position:
        variant, fen, counts = POSITIONS[args.position]
        ok = run(variant, fen, counts, args.depth, args.position)
    else:
        ok = run(args.variant, None, START[args.variant], args.depth, "start")
    print("all counts match the published tables" if ok else "SOME COUNTS DIFFER")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
