"""Fit the built-in engine's learned patterns (draughts/engine/patterns.py)
to the results of master games.

Every quiet position (no capture for the side to move) from ply 4 on of
every game of the PDN files with a result is turned into its windows'
configurations and the hand-written evaluation's score. A logistic model of
White's result (1, 1/2 or 0) on ``base + sum(table[window][configuration])``
is fitted: first its scale alone (the hand-written score only), then the
tables, by Adam on the log-loss with an L2 pull towards zero (most of the
729 configurations of a window are rare). Every position is also used seen
from the other side (board turned, colours swapped, result reversed), so
the fitted tables are symmetric; rounding keeps them exactly so.

The games are split by game into a training and a held-out part (one game
in five): the log-loss of the held-out positions, with and without the
patterns, is the figure that says whether they learned anything; the
tables written are then fitted to all the games.

    python benchmarks/tune_patterns.py international \
        --out draughts/engine/patterns-international.bin.gz

Needs numpy (the ``ml`` extra) and the game corpus beside the repository
(``../shared/data/pdn``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from draughts import pdn  # noqa: E402
from draughts._context import context  # noqa: E402
from draughts.engine import patterns as P  # noqa: E402
from draughts.engine.evaluation import Evaluator  # noqa: E402
from draughts.engine.search import raw_position, searcher  # noqa: E402
from draughts.variant import find_variant  # noqa: E402

# The searches that label positions use the hand-written evaluation alone.
os.environ["DRAUGHTS_PATTERNS"] = "0"
CORPUS = HERE.parents[1] / "shared/data/pdn"
SOURCES = {
    "international": ["international/*.pdn", "international/*/*.pdn"],
    "english": ["english/*.pdn"],
}


def samples(
    name: str, depth: int = 0, budget: float = 0.0, max_games: int = 5000
) -> dict[str, np.ndarray]:
    """Configurations, hand-written score, White's result and game number per
    position; with ``depth``, also White's score of a search that deep
    (``deep``), for every game (those without a result too, whose result is
    NaN), every second position, until ``budget`` seconds are spent."""
    variant = find_variant(name)
    t = context(variant).core
    base = Evaluator(t, patterns=False)
    zero = P.Patterns(t, [[0] * P.CONFIGURATIONS for _ in P.windows(t)])  # type: ignore[misc]
    configs: list[list[int]] = []
    scores: list[int] = []
    results: list[float] = []
    games: list[int] = []
    deep: list[float] = []
    count = 0
    keys = context(variant).keys
    stop = time.perf_counter() + budget
    for pattern in SOURCES[name]:
        for path in sorted(CORPUS.glob(pattern)):
            with pdn.open_pdn(path) as handle:
                while (game := pdn.read_game(handle, variant=variant)) is not None:
                    # White's points: the first number is the first player's
                    # (Black's in English; read as White's, the hand-written
                    # score and the result correlate at -0.21 over 2,000 OCA
                    # games, read as Black's at +0.21).
                    points = pdn.result_points(game.headers.get("Result", "*"), variant)
                    result = float("nan") if points in (None, (0.0, 0.0)) else points[0]
                    if (np.isnan(result) and not depth) or game.errors:
                        continue
                    if (depth and time.perf_counter() > stop) or count >= max_games:
                        break
                    board = game.board()
                    for ply, move in enumerate(game.mainline_moves()):
                        quiet = ply >= 4 and not board.has_captures() and board.legal_moves
                        if quiet and (not depth or ply % 2 == 0):
                            pos = raw_position(board, t)
                            _turn, m0, m1, k0, k1 = pos
                            if depth:
                                _d, score, _pv = searcher(t, keys).iterate(pos, depth, depth)
                                if abs(score) >= 5000:  # a win or loss found: no score to learn
                                    continue
                                deep.append(score if pos[0] == 0 else -score)
                            configs.append(zero.configurations(m0, m1))
                            scores.append(base.score(0, m0, m1, k0, k1))
                            results.append(result)
                            games.append(count)
                        if move not in board.legal_moves:
                            break
                        board.push(move)
                    count += 1
    print(f"{name}: {count} games, {len(results)} positions", file=sys.stderr)
    return {
        "deep": np.array(deep),
        "configs": np.array(configs, dtype=np.int64),
        "scores": np.array(scores, dtype=float),
        "results": np.array(results),
        "games": np.array(games),
    }


def mirror_maps(name: str) -> tuple[np.ndarray, np.ndarray]:
    """Per window its opposite, per configuration its mirror."""
    t = context(find_variant(name)).core
    n = len(P.windows(t))
    return (
        np.array([P.opposite(t, w) for w in range(n)]),
        np.array([P.mirrored(c) for c in range(P.CONFIGURATIONS)]),
    )


def augmented(
    data: dict[str, np.ndarray], maps: tuple[np.ndarray, np.ndarray]
) -> dict[str, np.ndarray]:
    """The positions and the same positions seen from the other side."""
    opposite, mirror = maps
    flipped = np.empty_like(data["configs"])
    flipped[:, opposite] = mirror[data["configs"]]
    return {
        "configs": np.concatenate([data["configs"], flipped]),
        "scores": np.concatenate([data["scores"], -data["scores"]]),
        "results": np.concatenate([data["results"], 1 - data["results"]]),
    }


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit_scale(scores: np.ndarray, y: np.ndarray) -> float:
    """The scale of sigmoid(scale * score) of least log-loss (a grid, then finer)."""
    grid = np.exp(np.linspace(np.log(1e-4), np.log(0.1), 200))
    losses = [log_loss(1 / (1 + np.exp(-k * scores)), y) for k in grid]
    return float(grid[int(np.argmin(losses))])


def fit_tables(
    data: dict[str, np.ndarray], scale: float, l2: float, steps: int, windows: int
) -> np.ndarray:
    """Adam on the log-loss of sigmoid(scale * (score + sum of table weights))."""
    size = windows * P.CONFIGURATIONS
    flat = data["configs"] + np.arange(windows) * P.CONFIGURATIONS
    table = np.zeros(size)
    m = np.zeros(size)
    v = np.zeros(size)
    n = len(data["results"])
    for step in range(1, steps + 1):
        s = data["scores"] + table[flat].sum(axis=1)
        p = 1 / (1 + np.exp(-np.clip(scale * s, -30, 30)))
        error = (p - data["results"]) * scale
        grad = np.bincount(flat.ravel(), np.repeat(error, windows), minlength=size) / n
        grad += l2 * table
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        table -= 1.0 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-12)
    return table.reshape(windows, P.CONFIGURATIONS)


def predict(data: dict[str, np.ndarray], table: np.ndarray, scale: float) -> np.ndarray:
    windows = table.shape[0]
    s = data["scores"] + table.ravel()[data["configs"] + np.arange(windows) * P.CONFIGURATIONS].sum(
        1
    )
    return 1 / (1 + np.exp(-scale * s))


def symmetric_ints(table: np.ndarray, maps: tuple[np.ndarray, np.ndarray]) -> list[list[int]]:
    """Rounded, with each weight exactly minus its mirror's."""
    opposite, mirror = maps
    out = np.rint((table - table[opposite][:, mirror]) / 2).astype(int)
    for w in range(len(out)):
        if w < opposite[w]:
            out[opposite[w]] = -out[w][mirror]
    return np.clip(out, -32768, 32767).tolist()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant", choices=sorted(SOURCES))
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--l2", type=float, nargs="+", default=[1e-9, 1e-8, 1e-7, 1e-6])
    parser.add_argument("--out", type=Path)
    parser.add_argument(
        "--search-depth",
        type=int,
        default=0,
        help="fit to the scores of searches this deep (every game, results or not) instead",
    )
    parser.add_argument("--budget", type=float, default=600, help="seconds for those searches")
    parser.add_argument("--cache", type=Path, help="an .npz file keeping the searched positions")
    args = parser.parse_args()
    begin = time.perf_counter()
    data = samples(args.variant)
    del data["deep"]
    if args.search_depth:
        # The scale that turns scores into expected results comes from the
        # games with a result; the searches then give the targets.
        scale = fit_scale(data["scores"], data["results"])
        if args.cache and args.cache.exists():
            data = dict(np.load(args.cache))
        else:
            data = samples(args.variant, args.search_depth, args.budget)
            if args.cache:
                np.savez_compressed(args.cache, **data)
        data["results"] = 1 / (1 + np.exp(-scale * data.pop("deep")))
    maps = mirror_maps(args.variant)
    windows = data["configs"].shape[1]
    held = data["games"] % 5 == 0
    train = augmented({k: v[~held] for k, v in data.items()}, maps)
    test = {k: v[held] for k, v in data.items()}
    if not args.search_depth:
        scale = fit_scale(train["scores"], train["results"])
    base_loss = log_loss(1 / (1 + np.exp(-scale * test["scores"])), test["results"])
    target = "searches' scores" if args.search_depth else "results"
    print(
        f"scale {scale:.5f}; held-out log-loss to the {target}, hand-written only: {base_loss:.5f}"
    )
    best = (base_loss, 0.0)
    for l2 in args.l2:
        table = fit_tables(train, scale, l2, args.steps, windows)
        loss = log_loss(predict(test, table, scale), test["results"])
        print(f"  l2 {l2:g}: held-out log-loss with patterns {loss:.5f}")
        best = min(best, (loss, l2))
    spent = time.perf_counter() - begin
    print(f"best l2 {best[1]:g} ({best[0]:.5f} against {base_loss:.5f}), {spent:.0f} s")
    if args.out and best[1]:
        every = augmented({k: v for k, v in data.items() if k != "games"}, maps)
        tables = symmetric_ints(fit_tables(every, scale, best[1], args.steps, windows), maps)
        args.out.write_bytes(P.encode(tables))
        nonzero = sum(w != 0 for table in tables for w in table)
        print(f"wrote {args.out}: {nonzero} weights not zero, {args.out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
