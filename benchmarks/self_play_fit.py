"""Fit the built-in engine's International evaluation to the results of
fast self-play games, as Scan's public documentation describes learning its
evaluation (logistic regression on the results of many fast games).

``play`` has the engine (the C search, the features alone) play itself at a
fixed shallow depth, every search full width: each game starts from a
2-move ballot of ``benchmarks/openings/international-2move.pdn`` and a few
random plies after it, so games differ. A game ends when the side to move
has no move (it loses), when a search finds a forced win or loss, after 50
plies without a man moved or a piece taken (the 25-move rule of kings), at a
third repetition, or at ``--max-plies`` (draws). Every quiet position (no
capture for the side to move) after the random plies is written with the
game's result for White, its game number and the search's score::

    python benchmarks/self_play_fit.py play --depth 4 --budget 1800 --out sp.npz

``--full-width 2`` makes the searches as selective as the hard level's
(8 plies so cost about 2.4 times fewer games a second than 6 in full).

``fit`` turns those positions into the evaluator's feature counts (and the
pattern windows' configurations) and fits, on four games in five, by the
log-loss of ``sigmoid(scale * score)`` to the results (every position also
seen from the other side): the features' weights (a man fixed at 100,
opening and endgame parts, the king's held where ``--king`` says), and the
pattern tables with them (``--tables``). The held-out games (one in five)
give the log-loss of today's weights and of each fit, and the scale is
fitted to today's weights on the training games::

    python benchmarks/self_play_fit.py fit sp.npz --king 139,442

``--blend 0.5`` trains on half the game's result and half the expected
result of the search's score in the game; ``--corpus`` adds each fit's
log-loss on the master games of the corpus; several files are joined.

Needs numpy (the ``ml`` extra).
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

# tune_patterns sets DRAUGHTS_PATTERNS=0 first: the games use the features alone.
import tune_patterns as T  # noqa: E402

from draughts import pdn  # noqa: E402
from draughts._context import context  # noqa: E402
from draughts.engine import patterns as P  # noqa: E402
from draughts.engine._raw import Position, legal, play  # noqa: E402
from draughts.engine.evaluation import FEATURES, Evaluator  # noqa: E402
from draughts.engine.native_search import searcher  # noqa: E402
from draughts.engine.search import WON, Searcher, raw_position  # noqa: E402
from draughts.variant import INTERNATIONAL  # noqa: E402

BALLOTS = HERE / "openings/international-2move.pdn"


def ballots() -> list[Position]:
    """The positions after each 2-move ballot."""
    t = context(INTERNATIONAL).core
    out = []
    with pdn.open_pdn(BALLOTS) as handle:
        while (game := pdn.read_game(handle, variant=INTERNATIONAL)) is not None:
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)
            out.append(raw_position(board, t))
    return out


def one_game(
    s: Searcher, start: Position, depth: int, max_plies: int, full_width: int | None = None
) -> tuple[float, list[Position], list[int]]:
    """White's result of a game of ``s`` against itself from ``start``, its
    quiet positions and the search's score of each (White's view)."""
    t = s.t
    pos, reversible = start, 0
    seen: dict[Position, int] = {}
    quiet: list[Position] = []
    scores: list[int] = []
    for _ply in range(max_plies):
        moves = legal(t, pos)
        if not moves:
            return (0.0 if pos[0] == 0 else 1.0), quiet, scores
        _d, score, pv = s.iterate(pos, depth, depth, reversible=reversible, full_width=full_width)
        white = score if pos[0] == 0 else -score
        if abs(score) > WON:
            return (1.0 if white > 0 else 0.0), quiet, scores
        if not moves[0].captured:
            quiet.append(pos)
            scores.append(white)
        after = play(pos, pv[0])
        man_moved = (pos[1] | pos[2]) != (after[1] | after[2])
        taken = (pos[1] | pos[2] | pos[3] | pos[4]).bit_count() != (
            after[1] | after[2] | after[3] | after[4]
        ).bit_count()
        reversible = 0 if man_moved or taken else reversible + 1
        if reversible == 0:
            seen.clear()
        pos = after
        seen[pos] = seen.get(pos, 0) + 1
        if reversible >= 50 or seen[pos] >= 3:
            break
    return 0.5, quiet, scores


def generate(args: argparse.Namespace) -> None:
    """Self-play games until ``--games`` or ``--budget`` seconds, saved to ``--out``."""
    t = context(INTERNATIONAL).core
    s = searcher(t, context(INTERNATIONAL).keys)
    rng = random.Random(args.seed)
    starts = ballots()
    raw: list[list[int]] = []
    turns: list[int] = []
    results: list[float] = []
    games: list[int] = []
    deep: list[int] = []
    tally = {1.0: 0, 0.5: 0, 0.0: 0}
    begin = time.perf_counter()
    count = 0
    while count < args.games and time.perf_counter() - begin < args.budget:
        pos = rng.choice(starts)
        for _ in range(args.random_plies):
            moves = legal(t, pos)
            if not moves:
                break
            pos = play(pos, rng.choice(moves))
        if not legal(t, pos):
            continue
        result, quiet, scores = one_game(s, pos, args.depth, args.max_plies, args.full_width)
        tally[result] += 1
        for p, score in zip(quiet, scores, strict=True):
            raw.append([half for bits in p[1:] for half in T.split(bits)])
            turns.append(p[0])
            results.append(result)
            games.append(count)
            deep.append(score)
        count += 1
        if count % 500 == 0:
            print(f"{count} games, {len(results)} positions, {tally}", file=sys.stderr)
    seconds = time.perf_counter() - begin
    print(f"{count} games (W/D/L for White {tally[1.0]}/{tally[0.5]}/{tally[0.0]}),")
    width = f" ({args.full_width} in full)" if args.full_width else ""
    print(f"{len(results)} quiet positions, {seconds:.0f} s, depth {args.depth}{width}")
    np.savez_compressed(
        args.out,
        raw=np.array(raw, dtype=np.uint64).reshape(-1, 8),
        turns=np.array(turns, dtype=np.int8),
        results=np.array(results),
        games=np.array(games),
        deep=np.array(deep, dtype=float),
    )


def prepared(path: Path, every: int, tables: bool) -> dict[str, np.ndarray]:
    """The saved positions (every ``every``-th) with their feature counts,
    men, scores by today's weights and (``tables``) windows' configurations."""
    saved = dict(np.load(path))
    keep = np.arange(len(saved["results"])) % every == 0
    data = {k: v[keep] for k, v in saved.items()}
    t = context(INTERNATIONAL).core
    e = Evaluator(t, patterns=False)
    data["features"] = T.features_of(e, data["raw"], data.get("turns"))
    men = [T.joined(row) for row in data["raw"]]
    data["men"] = np.array([(m0 | m1).bit_count() for m0, m1, _k0, _k1 in men], dtype=float)
    data["scores"] = T.rescored(data, e)
    if tables:
        zero = P.Patterns(t, [[0] * P.CONFIGURATIONS for _ in P.windows(t)])  # type: ignore[misc]
        data["configs"] = np.array([zero.configurations(m0, m1) for m0, m1, _k, _l in men])
    else:
        # No window active: the tables' columns stay zero (and small).
        data["configs"] = np.zeros((len(men), len(P.windows(t))), dtype=np.int16)
    return data


def fit(args: argparse.Namespace) -> None:
    """Today's weights and the fits, by the held-out games' log-loss (and,
    ``--corpus``, by that of the corpus's master games)."""
    begin = time.perf_counter()
    data = joined_files(args.data, args.every, args.tables)
    print(f"{len(data['results'])} positions of {len(set(data['games']))} games")
    maps = T.mirror_maps("international") if args.tables else None
    held = data["games"] % 5 == 0
    part = {k: v[~held] for k, v in data.items() if k not in ("raw", "turns")}
    test = {k: v[held] for k, v in data.items() if k not in ("raw", "turns")}
    part["results"] = blended(part, args.blend)
    train = T.augmented(part, maps) if maps else flipped(part)
    scale = T.fit_scale(train["scores"], train["results"])
    e = Evaluator(context(INTERNATIONAL).core, patterns=False)
    windows = len(P.windows(e.t))
    none = np.zeros(windows, bool)
    masters = T.samples("international") if args.corpus else None
    print(f"scale {scale:.5f}; held-out log-loss to the games' results")
    report("today's weights", T.Model(e, False, none), test, scale, masters)
    for l2 in args.l2 if args.tables else [0.0]:
        active = None if args.tables else none
        model = T.Model(e, True, active, args.king, args.free).fit(train, scale, l2, args.steps)
        label = f"features and tables, l2 {l2:g}" if args.tables else "features refitted"
        report(label, model, test, scale, masters)
        theta = np.rint(model.theta).astype(int).tolist()
        half = len(theta) // 2
        print(f"    opening: (100, {', '.join(map(str, theta[:half]))})")
        print(f"    endgame: (100, {', '.join(map(str, theta[half:]))})")
        if args.tables and args.out and maps is not None:
            args.out.write_bytes(P.encode(T.symmetric_ints(model.tables(), maps)))
            print(f"    wrote {args.out}")
    print(f"{time.perf_counter() - begin:.0f} s")


def joined_files(paths: list[Path], every: int, tables: bool) -> dict[str, np.ndarray]:
    """The positions of several ``play`` files, their games numbered apart."""
    parts = [prepared(path, every, tables) for path in paths]
    for before, after in itertools.pairwise(parts):
        after["games"] = after["games"] + before["games"].max() + 1
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def blended(data: dict[str, np.ndarray], share: float) -> np.ndarray:
    """Training targets: ``share`` of the game's result and the rest the
    expected result of the search's score in the game, through the scale
    that best turns those scores into the games' results. A game's result
    is one noisy outcome shared by all its positions, many decided by later
    errors; the search's score is steady but knows only what the evaluation
    and a few plies see: the blend trades one for the other (held-out
    log-loss to the results decides the share)."""
    if share >= 1:
        return data["results"]
    k = T.fit_scale(data["deep"], data["results"])
    print(f"targets: {share:g} of the results, the rest the searches' scores (scale {k:.5f})")
    return share * data["results"] + (1 - share) / (1 + np.exp(-k * data["deep"]))


def report(
    label: str,
    model: T.Model,
    test: dict[str, np.ndarray],
    scale: float,
    masters: dict[str, np.ndarray] | None,
) -> None:
    """A model's held-out log-loss on the self-play games and (``masters``)
    on the master games, the scale fitted to those."""
    line = f"  {label}: {T.figures(model, test, scale)[0]:.5f}"
    for name, data in (("its own scale", test), ("master games", masters)):
        if data is not None:
            line += f"; {name} {own_scale_loss(model.score(data), data['results'])}"
    print(line, flush=True)


def own_scale_loss(scores: np.ndarray, results: np.ndarray) -> str:
    """The log-loss of scores through the scale that suits them best: the
    targets' blend changes the training scale, so fits with different
    blends are compared so (one number fitted to thousands of positions)."""
    k = T.fit_scale(scores, results)
    return f"{T.log_loss(1 / (1 + np.exp(-k * scores)), results):.5f} (scale {k:.5f})"


def flipped(data: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The positions and the same seen from the other side (features alone)."""
    out = {k: np.concatenate([data[k], data[k]]) for k in ("men", "configs", "games")}
    out["features"] = np.concatenate([data["features"], -data["features"]])
    out["scores"] = np.concatenate([data["scores"], -data["scores"]])
    out["results"] = np.concatenate([data["results"], 1 - data["results"]])
    return out


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="self-play games to an .npz file")
    p.add_argument("--depth", type=int, default=4, help="every search this deep, full width")
    p.add_argument(
        "--full-width",
        type=int,
        help="only this many plies full width, deeper ones reduced as hard's (default: all)",
    )
    p.add_argument("--games", type=int, default=100_000)
    p.add_argument("--budget", type=float, default=1800, help="seconds")
    p.add_argument("--random-plies", type=int, default=2, help="random plies after the ballot")
    p.add_argument("--max-plies", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit", help="fit the evaluation to those games' results")
    f.add_argument("data", type=Path, nargs="+", help="files of play, joined")
    f.add_argument("--every", type=int, default=1, help="keep every N-th position")
    f.add_argument("--steps", type=int, default=600)
    f.add_argument("--tables", action="store_true", help="fit pattern tables too")
    f.add_argument("--l2", type=float, nargs="+", default=[1e-8, 1e-7, 1e-6])
    f.add_argument("--out", type=Path, help="write the fitted tables here (with --tables)")
    f.add_argument(
        "--blend",
        type=float,
        default=1.0,
        help="share of the game's result in the targets, the rest the search's score",
    )
    f.add_argument(
        "--corpus", action="store_true", help="also the log-loss on the corpus's master games"
    )
    f.add_argument(
        "--king",
        type=lambda text: tuple(int(v) for v in text.split(",")),
        help="OPENING,ENDGAME: hold the king's weights at these",
    )
    f.add_argument(
        "--free",
        nargs="+",
        default=(),
        choices=FEATURES[1:],
        help="fit only these features' weights, the others held",
    )
    return parser.parse_args()


def main() -> None:
    args = arguments()
    generate(args) if args.command == "play" else fit(args)


if __name__ == "__main__":
    main()
