"""Fit the built-in engine's evaluation weights to the results of real games.

For every game of the PDN files with a decisive or drawn result, every quiet
position (no capture for the side to move) from ply 8 on is turned into the
features of :mod:`draughts.engine.evaluation`, White's minus Black's, each
split into an opening part (times the share of men still on the board) and
an endgame part (times the rest). A logistic model of White's result (1,
1/2 or 0) on the score ``sum(weight * feature)``, with a man fixed at 100
hundredths and a fitted scale, is then fitted by gradient descent (Adam) on
the log-loss with a small pull towards the current weights (the method is
known as Texel tuning, after the chess engine it was first described for).
It prints the weights to paste into ``WEIGHTS`` in
``draughts/engine/evaluation.py``.

    python benchmarks/tune_evaluation.py large   # international games
    python benchmarks/tune_evaluation.py flying  # russian and brazilian games
    python benchmarks/tune_evaluation.py short --max-games 4000  # english games

Needs numpy (a benchmark-only dependency) and the game corpus beside the
repository (``../shared/data/pdn``, or the folder ``DRAUGHTS_CORPUS`` names).
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
from draughts.engine.evaluation import FEATURES, WEIGHTS, Evaluator  # noqa: E402
from draughts.engine.search import raw_position as _position  # noqa: E402

# The corpus beside the repository, or where DRAUGHTS_CORPUS says (as in tune_patterns).
CORPUS = Path(os.environ.get("DRAUGHTS_CORPUS", HERE.parents[1] / "shared/data/pdn"))
SOURCES = {
    "large": ("international", ["international/*.pdn", "international/*/*.pdn"]),
    "flying": ("russian", ["russian/*.pdn", "brazilian/*.pdn"]),
    "short": ("english", ["english/*.pdn"]),
}


def samples(family: str, max_games: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features (opening and endgame parts), material term and White's result."""
    variant, patterns = SOURCES[family]
    rows: list[list[float]] = []
    material: list[float] = []
    results: list[float] = []
    games = 0
    for pattern in patterns:
        for path in sorted(CORPUS.glob(pattern)):
            with pdn.open_pdn(path) as handle:
                while games < max_games:
                    game = pdn.read_game(handle, variant=variant)
                    if game is None:
                        break
                    # White's points (English results give Black's first).
                    points = pdn.result_points(game.headers.get("Result", "*"), variant)
                    if points is None or points == (0.0, 0.0) or game.errors:
                        continue
                    result = points[0]
                    games += 1
                    _add_game(game, result, rows, material, results)
    print(f"{family}: {games} games, {len(rows)} positions", file=sys.stderr)
    return np.array(rows), np.array(material), np.array(results)


def _add_game(
    game: pdn.Game,
    result: float,
    rows: list[list[float]],
    material: list[float],
    results: list[float],
) -> None:
    board = game.board()
    t = context(board.variant).core
    e = Evaluator(t)
    for ply, move in enumerate(game.mainline_moves()):
        if ply >= 8 and not board.has_captures():
            _turn, m0, m1, k0, k1 = _position(board, t)
            white = e.features(0, m0, k0, m1 | k1, k1)
            black = e.features(1, m1, k1, m0 | k0, k0)
            phase = (white[0] + black[0]) / e.men_at_start
            diff = [w - b for w, b in zip(white, black, strict=True)]
            material.append(100.0 * diff[0])
            rows.append([d * phase for d in diff[1:]] + [d * (1 - phase) for d in diff[1:]])
            results.append(result)
        if move not in board.legal_moves:
            break
        board.push(move)


def fit(
    x: np.ndarray, material: np.ndarray, y: np.ndarray, start: np.ndarray, steps: int
) -> tuple[np.ndarray, float]:
    """Adam on the log-loss of sigmoid(scale * (material + x @ w))."""
    w, log_scale = start.astype(float).copy(), np.log(0.005)
    m = np.zeros(len(w) + 1)
    v = np.zeros(len(w) + 1)
    pull = 4e-6  # keeps rarely seen features (kings in the opening) near their start
    for step in range(1, steps + 1):
        scale = np.exp(log_scale)
        s = material + x @ w
        p = 1 / (1 + np.exp(-np.clip(scale * s, -30, 30)))
        error = p - y
        grad_w = scale * (x.T @ error) / len(y) + pull * (w - start)
        grad_scale = np.mean(error * s) * scale
        grad = np.concatenate([grad_w, [grad_scale]])
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        rate = np.concatenate([np.full(len(w), 0.5), [0.01]])
        update = rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-12)
        w -= update[:-1]
        log_scale -= update[-1]
        if step % 500 == 0:
            loss = -np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))
            print(f"step {step}: log-loss {loss:.5f} scale {scale:.5f}", file=sys.stderr)
    return w, float(np.exp(log_scale))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("family", choices=sorted(SOURCES))
    parser.add_argument("--max-games", type=int, default=3000)
    parser.add_argument("--steps", type=int, default=3000)
    args = parser.parse_args()
    begin = time.perf_counter()
    x, material, y = samples(args.family, args.max_games)
    opening, endgame = WEIGHTS[args.family]
    start = np.array(opening[1:] + endgame[1:], dtype=float)
    w, scale = fit(x, material, y, start, args.steps)
    half = len(FEATURES) - 1
    fitted_opening = (100, *(round(v) for v in w[:half]))
    fitted_endgame = (100, *(round(v) for v in w[half:]))
    print(f"# {len(y)} positions, scale {scale:.5f}, {time.perf_counter() - begin:.0f} s")
    for name, o, e in zip(FEATURES, fitted_opening, fitted_endgame, strict=True):
        print(f"#   {name:14} opening {o:5}  endgame {e:5}")
    print(f'"{args.family}": (\n    {fitted_opening},\n    {fitted_endgame},\n),')


if __name__ == "__main__":
    main()
