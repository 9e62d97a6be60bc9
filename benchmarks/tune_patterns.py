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

With ``--search-depth N`` the targets are instead the scores of N-ply
searches (with the features alone) of every game's positions, results or
not, ``--full-width 2`` making them as selective as ``hard``'s; ``--joint``
fits the features' weights with the tables (a man fixed at 100), and
prints them, and the features' weights fitted alone, for ``WEIGHTS`` in
``draughts/engine/evaluation.py``; ``--keep N`` refits the N windows whose
weights vary most; ``--pdn`` adds games to search (those lost to an
opponent); ``--king OPENING,ENDGAME`` holds the king's weights in the
joint fit. A ``--cache`` keeps each searched position's pieces (``raw``),
so the features are counted again as the evaluator counts them when the
cache is read (a feature added later gets its column). Each row printed
gives the held-out log-loss and the root-mean-square gap to the searches'
scores (hundredths of a man), and with ``--pdn`` those of the corpus's
held-out games and the added games' apart; ``--max-games`` bounds the games
searched in all (5,000 unless said); ``--max-gap N`` trains only on the
positions whose static score is within N of the search's, and ``--thin K``
on one K-th of the ``--pdn`` games (a learning curve)::

    python benchmarks/tune_patterns.py international --search-depth 8 \
        --full-width 2 --every 4 --budget 1300 --cache d8.npz --joint --keep 16

Needs numpy (the ``ml`` extra) and the game corpus beside the repository
(``../shared/data/pdn``, or the folder ``DRAUGHTS_CORPUS`` names).
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from draughts import pdn  # noqa: E402
from draughts._context import context  # noqa: E402
from draughts.engine import patterns as P  # noqa: E402
from draughts.engine.evaluation import FEATURES, Evaluator  # noqa: E402
from draughts.engine.native_search import searcher  # noqa: E402
from draughts.engine.search import raw_position  # noqa: E402
from draughts.variant import find_variant  # noqa: E402

# The searches that label positions use the hand-written evaluation alone.
os.environ["DRAUGHTS_PATTERNS"] = "0"
# The corpus beside the repository, or where DRAUGHTS_CORPUS says.
CORPUS = Path(os.environ.get("DRAUGHTS_CORPUS", HERE.parents[1] / "shared/data/pdn"))
SOURCES = {
    "international": ["international/*.pdn", "international/*/*.pdn"],
    "english": ["english/*.pdn"],
}


def samples(
    name: str,
    depth: int = 0,
    budget: float = 0.0,
    max_games: int = 5000,
    full_width: int | None = None,
    every: int = 2,
    extra: Sequence[Path] = (),
    only_extra: bool = False,
) -> dict[str, np.ndarray]:
    """Configurations, hand-written score, White's result and game number per
    position; with ``depth``, also White's score of a search that deep
    (``deep``), for every game (those without a result too, whose result is
    NaN), the corpus's games and those of ``extra`` files (or those alone,
    ``only_extra``), every ``every``-th position, until ``budget`` seconds are spent.
    ``full_width`` plies of those searches are full width, the rest
    selective as the engine's hard level searches (None: all of them).
    Each position also keeps both sides' feature counts (``features``:
    White's minus Black's, :data:`FEATURES` order) and its men (``men``),
    for a joint fit of the features' weights."""
    # One function over 80 lines: one pass reads each game once and fills
    # seven lists together; split, the parts would pass them all around.
    variant = find_variant(name)
    t = context(variant).core
    base = Evaluator(t, patterns=False)
    zero = P.Patterns(t, [[0] * P.CONFIGURATIONS for _ in P.windows(t)])  # type: ignore[misc]
    configs: list[list[int]] = []
    scores: list[int] = []
    results: list[float] = []
    games: list[int] = []
    deep: list[float] = []
    features: list[list[int]] = []
    men: list[int] = []
    raw: list[list[int]] = []
    turns: list[int] = []
    count = 0
    keys = context(variant).keys
    stop = time.perf_counter() + budget
    # One searcher for every position: its table is keyed by the position,
    # so entries of other positions are only hints, and a table cleared per
    # position cost about a third of the time at depth 8.
    search = searcher(t, keys)
    files = [path for pattern in SOURCES[name] for path in sorted(CORPUS.glob(pattern))]
    for path in [*files, *extra] if not only_extra else extra:
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
                    if quiet and (not depth or ply % every == 0):
                        pos = raw_position(board, t)
                        turn, m0, m1, k0, k1 = pos
                        if depth:
                            _d, score, _pv = search.iterate(
                                pos,
                                depth,
                                depth if full_width is None else 1,
                                full_width=full_width,
                            )
                            if abs(score) >= 5000:  # a win or loss found: no score to learn
                                continue
                            deep.append(score if pos[0] == 0 else -score)
                        configs.append(zero.configurations(m0, m1))
                        score = base.score(turn, m0, m1, k0, k1)
                        scores.append(score if turn == 0 else -score)
                        white = base.features(0, m0, k0, m1 | k1, k1, turn == 0)
                        black = base.features(1, m1, k1, m0 | k0, k0, turn == 1)
                        features.append([a - b for a, b in zip(white, black, strict=True)])
                        men.append((m0 | m1).bit_count())
                        raw.append([half for b in (m0, m1, k0, k1) for half in split(b)])
                        turns.append(turn)
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
        "features": np.array(features, dtype=float).reshape(-1, len(FEATURES)),
        "men": np.array(men, dtype=float),
        "raw": np.array(raw, dtype=np.uint64).reshape(-1, 8),
        "turns": np.array(turns, dtype=np.int8),
    }


@functools.cache
def corpus_games(name: str) -> int:
    """How many of the corpus's games :func:`samples` numbers when it
    searches (every game read without errors): the games of ``extra``
    files are numbered from there."""
    variant = find_variant(name)
    count = 0
    for path in [path for pattern in SOURCES[name] for path in sorted(CORPUS.glob(pattern))]:
        with pdn.open_pdn(path) as handle:
            while (game := pdn.read_game(handle, variant=variant)) is not None:
                count += not game.errors
    return count


def subset(data: dict[str, np.ndarray], mask: np.ndarray) -> dict[str, np.ndarray]:
    return {k: v[mask] for k, v in data.items()}


def split(bits: int) -> tuple[int, int]:
    """A bitboard (up to 128 bits) as its low and high 64 bits, for NumPy."""
    return bits & (1 << 64) - 1, bits >> 64


def joined(row: np.ndarray) -> tuple[int, int, int, int]:
    """White's men, Black's men, White's kings, Black's kings of a ``raw`` row."""
    halves = [int(h) for h in row]
    return tuple(halves[i] | halves[i + 1] << 64 for i in range(0, 8, 2))  # type: ignore[return-value]


def features_of(e: Evaluator, raw: np.ndarray, turns: np.ndarray | None = None) -> np.ndarray:
    """White's feature counts minus Black's for each ``raw`` position, as
    the evaluator counts them now (a cache made before a feature was added
    gets it), with the side to move of ``turns``. A cache made before the
    side to move was kept has none: White moves in all of its positions
    when it was searched with an even ``--every`` (positions at plies
    divisible by it, the games from the start)."""
    out = []
    for i, row in enumerate(raw):
        m0, m1, k0, k1 = joined(row)
        turn = 0 if turns is None else int(turns[i])
        white = e.features(0, m0, k0, m1 | k1, k1, turn == 0)
        black = e.features(1, m1, k1, m0 | k0, k0, turn == 1)
        out.append([a - b for a, b in zip(white, black, strict=True)])
    return np.array(out, dtype=float).reshape(-1, len(FEATURES))


def rescored(data: dict[str, np.ndarray], e: Evaluator) -> np.ndarray:
    """The hand-written scores of kept positions with the evaluator's
    weights as they are now (the features do not change with them), as the
    engine rounds them (the draw rules' divisors of small endings aside)."""
    start = e.men_at_start
    share = np.minimum(data["men"], start)[:, None]
    blended = np.array(e.opening) * share + np.array(e.endgame) * (start - share)
    return np.trunc((blended * data["features"]).sum(axis=1) / start)


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
    out = {
        "configs": np.concatenate([data["configs"], flipped]),
        "scores": np.concatenate([data["scores"], -data["scores"]]),
        "results": np.concatenate([data["results"], 1 - data["results"]]),
    }
    if "features" in data:
        out["features"] = np.concatenate([data["features"], -data["features"]])
        out["men"] = np.concatenate([data["men"], data["men"]])
    return out


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit_scale(scores: np.ndarray, y: np.ndarray) -> float:
    """The scale of sigmoid(scale * score) of least log-loss (a grid, then finer)."""
    grid = np.exp(np.linspace(np.log(1e-4), np.log(0.1), 200))
    losses = [log_loss(1 / (1 + np.exp(-k * scores)), y) for k in grid]
    return float(grid[int(np.argmin(losses))])


class Model:
    """A score: the hand-written one (or, ``joint``, the features with
    weights being fitted, a man fixed at 100, opening and endgame parts
    blended by the men on the board as the engine does) plus the tables of
    the ``active`` windows (every window if None). The features' weights
    start from those of ``e``, the variant's evaluator; ``king`` (opening,
    endgame) fixes the king's instead of fitting them."""

    def __init__(
        self,
        e: Evaluator,
        joint: bool = False,
        active: np.ndarray | None = None,
        king: tuple[int, int] | None = None,
        free: Sequence[str] = (),
    ) -> None:
        self.windows = len(P.windows(e.t))
        self.joint = joint
        self.men_at_start = float(e.men_at_start)
        self.table = np.zeros(self.windows * P.CONFIGURATIONS)
        self.active = np.ones(self.windows, bool) if active is None else active
        self.theta = np.array(e.opening[1:] + e.endgame[1:], dtype=float)
        # The king's weights (opening, endgame) are held where given: fitted
        # to searches they drift low with every man on the board, where a
        # king is rare (a crowning would then cost material).
        self.held = np.zeros(len(self.theta), bool)
        if king is not None:
            half = len(self.theta) // 2
            self.theta[[0, half]] = king
            self.held[[0, half]] = True
        # Or only the features named are fitted, every other weight held.
        if free:
            names = FEATURES[1:]
            self.held |= np.array([name not in free for name in names * 2])

    def design(self, data: dict[str, np.ndarray]) -> np.ndarray:
        """The joint fit's columns: each feature but the man, opening then endgame part."""
        start = self.men_at_start
        share = np.minimum(data["men"], start)[:, None] / start
        f = data["features"][:, 1:]
        return np.hstack([share * f, (1 - share) * f])

    def score(self, data: dict[str, np.ndarray], x: np.ndarray | None = None) -> np.ndarray:
        flat = data["configs"][:, self.active] + (np.flatnonzero(self.active) * P.CONFIGURATIONS)
        tables = self.table[flat].sum(axis=1)
        if not self.joint:
            return data["scores"] + tables
        x = self.design(data) if x is None else x
        return 100 * data["features"][:, 0] + x @ self.theta + tables

    def fit(self, data: dict[str, np.ndarray], scale: float, l2: float, steps: int) -> Model:
        """Adam on the log-loss of sigmoid(scale * score), an L2 pull of the
        tables towards zero (most configurations are rare)."""
        size = self.windows * P.CONFIGURATIONS
        flat = (data["configs"] + np.arange(self.windows) * P.CONFIGURATIONS)[:, self.active]
        x = self.design(data) if self.joint else None
        params = [self.table, self.theta] if self.joint else [self.table]
        moments = [(np.zeros_like(q), np.zeros_like(q)) for q in params]
        n = len(data["results"])
        for step in range(1, steps + 1):
            s = self.score(data, x)
            p = 1 / (1 + np.exp(-np.clip(scale * s, -30, 30)))
            error = (p - data["results"]) * scale
            grads = [
                np.bincount(flat.ravel(), np.repeat(error, flat.shape[1]), minlength=size) / n
                + l2 * self.table
            ]
            if x is not None:
                grads.append(np.where(self.held, 0.0, x.T @ error / n))
            for q, g, (m, v) in zip(params, grads, moments, strict=True):
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g**2
                q -= (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-12)
        return self

    def tables(self) -> np.ndarray:
        return self.table.reshape(self.windows, P.CONFIGURATIONS)


def figures(model: Model, data: dict[str, np.ndarray], scale: float) -> tuple[float, float]:
    """Log-loss to the targets, and (where they are searches' scores) the
    root-mean-square gap to them in hundredths of a man (else NaN)."""
    s = model.score(data)
    loss = log_loss(1 / (1 + np.exp(-scale * s)), data["results"])
    gap = float(np.sqrt(np.mean((s - data["deep"]) ** 2))) if "deep" in data else float("nan")
    return loss, gap


def strongest_windows(
    model: Model, data: dict[str, np.ndarray], keep: int, opposite: np.ndarray
) -> np.ndarray:
    """The ``keep`` windows whose weights vary most over the positions (a
    window and its opposite go together, so the tables stay symmetric)."""
    flat = data["configs"] + np.arange(model.windows) * P.CONFIGURATIONS
    spread = model.table[flat].std(axis=0)
    spread = spread + spread[opposite]
    order = np.argsort(-spread, kind="stable")
    active = np.zeros(model.windows, bool)
    for w in order:
        if active.sum() >= keep:
            break
        active[w] = active[opposite[w]] = True
    return active


def symmetric_ints(table: np.ndarray, maps: tuple[np.ndarray, np.ndarray]) -> list[list[int]]:
    """Rounded, with each weight exactly minus its mirror's."""
    opposite, mirror = maps
    out = np.rint((table - table[opposite][:, mirror]) / 2).astype(int)
    for w in range(len(out)):
        if w < opposite[w]:
            out[opposite[w]] = -out[w][mirror]
    return np.clip(out, -32768, 32767).tolist()


def arguments() -> argparse.Namespace:
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
    parser.add_argument(
        "--full-width",
        type=int,
        help="plies of those searches searched in full, the rest selective as hard (default: all)",
    )
    parser.add_argument("--every", type=int, default=2, help="search every N-th quiet position")
    parser.add_argument(
        "--max-gap",
        type=float,
        help="train on positions whose static score is within this of the search's only",
    )
    parser.add_argument(
        "--thin", type=int, help="train on one in N blocks of five of the --pdn games only"
    )
    parser.add_argument(
        "--max-games", type=int, default=5000, help="search at most this many games in all"
    )
    parser.add_argument("--cache", type=Path, help="an .npz file keeping the searched positions")
    parser.add_argument("--also", type=Path, nargs="*", default=[], help="more such files to fit")
    parser.add_argument("--pdn", type=Path, nargs="*", default=[], help="more games to search")
    parser.add_argument("--only-pdn", action="store_true", help="search those games alone")
    parser.add_argument(
        "--keep", type=int, help="then keep only the N windows whose weights vary most, refitted"
    )
    parser.add_argument(
        "--joint", action="store_true", help="fit the features' weights with the tables"
    )
    parser.add_argument(
        "--free",
        nargs="+",
        default=(),
        choices=FEATURES[1:],
        help="fit only these features' weights (with --joint), the others held",
    )
    parser.add_argument(
        "--king",
        type=lambda text: tuple(int(v) for v in text.split(",")),
        help="OPENING,ENDGAME: hold the king's weights at these (with --joint)",
    )
    return parser.parse_args()


def searched(args: argparse.Namespace, scale: float) -> dict[str, np.ndarray]:
    """The searched positions (from ``--cache`` and ``--also`` or searched
    now), scored with the weights in place, their targets the searches'
    scores through ``scale``."""
    if args.cache and args.cache.exists():
        data = dict(np.load(args.cache))
    else:
        data = samples(
            args.variant,
            args.search_depth,
            args.budget,
            max_games=args.max_games,
            full_width=args.full_width,
            every=args.every,
            extra=args.pdn,
            only_extra=args.only_pdn,
        )
        if args.cache:
            np.savez_compressed(args.cache, **data)
    for path in args.also:
        more = dict(np.load(path))
        more["games"] = more["games"] + data["games"].max() + 1
        # A cache without the pieces (made before they were kept) keeps
        # its features as counted then, and so do the others it joins.
        data = {k: np.concatenate([data[k], more[k]]) for k in data if k in more}
    e = Evaluator(context(find_variant(args.variant)).core, patterns=False)
    if "raw" in data:
        data["features"] = features_of(e, data["raw"], data.get("turns"))
    data["scores"] = rescored(data, e)
    data["results"] = 1 / (1 + np.exp(-scale * data["deep"]))
    return data


def kept_positions(args: argparse.Namespace, data: dict[str, np.ndarray]) -> np.ndarray:
    """Which positions the tables are trained on (the held-out figures keep
    them all): with ``--max-gap``, those whose static score is within that
    of the search's (what a search finds in a shot or a man lost, no
    formation foretells); with ``--thin``, the ``--pdn`` games of one block
    of five game numbers in that many (a learning curve)."""
    kept = np.ones(len(data["games"]), bool)
    if args.max_gap and args.search_depth:
        kept = np.abs(data["deep"] - data["scores"]) <= args.max_gap
        print(f"training on {kept.sum()} of {len(kept)} positions (gap <= {args.max_gap})")
    if args.thin and args.pdn and not args.only_pdn:
        added = data["games"] >= corpus_games(args.variant)
        kept &= ~added | (data["games"] // 5 % args.thin == 0)
        print(f"training on the added games of one block of five in {args.thin}")
    return kept


def main() -> None:
    args = arguments()
    begin = time.perf_counter()
    data = samples(args.variant)
    if args.search_depth:
        # The scale that turns scores into expected results comes from the
        # games with a result; the searches then give the targets.
        scale = fit_scale(data["scores"], data["results"])
        data = searched(args, scale)
    else:
        del data["deep"]
    maps = mirror_maps(args.variant)
    windows = data["configs"].shape[1]
    held = data["games"] % 5 == 0
    kept = kept_positions(args, data)
    train = augmented(subset(data, ~held & kept), maps)
    test = subset(data, held)
    if not args.search_depth:
        scale = fit_scale(train["scores"], train["results"])
    target = "searches' scores" if args.search_depth else "results"
    print(f"scale {scale:.5f}; held-out figures to the {target}: log-loss, rms gap")
    t = context(find_variant(args.variant)).core
    e = Evaluator(t, patterns=False)
    shipped = Model(e)
    shipped.table = np.array(P.learned(t).weights, dtype=float).ravel()  # type: ignore[union-attr]
    rows = [("hand-written only", Model(e)), ("shipped tables", shipped)]
    best: tuple[float, float, Model | None] = (figures(rows[0][1], test, scale)[0], 0.0, None)
    for l2 in args.l2:
        model = Model(e, args.joint, king=args.king, free=args.free).fit(
            train, scale, l2, args.steps
        )
        rows.append((f"tables, l2 {l2:g}" + (" with features" if args.joint else ""), model))
        best = min(best, (figures(model, test, scale)[0], l2, model), key=lambda b: b[:2])
    if args.joint:
        none = np.zeros(windows, bool)
        alone = Model(e, True, none, args.king, args.free).fit(train, scale, 0, args.steps)
        rows.append(("features alone", alone))
    active = None
    if args.keep and best[2] is not None:
        active = strongest_windows(best[2], train, args.keep, maps[0])
        model = Model(e, args.joint, active, args.king, args.free).fit(
            train, scale, best[1], args.steps
        )
        rows.append((f"{active.sum()} windows, l2 {best[1]:g}", model))
    # With games of --pdn beside the corpus's, the held-out figures of each
    # part too: tables fitted mostly to self-play must still serve the
    # master games' positions.
    parts = {}
    if args.search_depth and args.pdn and not args.only_pdn:
        first = corpus_games(args.variant)
        mask = test["games"] < first
        parts = {"corpus": mask, "added": ~mask}
        print("  (then the corpus's held-out games alone, and the added games')")
    for label, model in rows:
        loss, gap = figures(model, test, scale)
        more = "".join(
            "; {}: {:.5f}, {:.1f}".format(part, *figures(model, subset(test, mask), scale))
            for part, mask in parts.items()
        )
        print(f"  {label}: {loss:.5f}, {gap:.1f}{more}")
        if model.joint:
            print("    features:", np.rint(model.theta).astype(int).tolist())
    print(f"best l2 {best[1]:g}; {time.perf_counter() - begin:.0f} s")
    if args.out and best[1]:
        every = augmented({k: v[kept] for k, v in data.items() if k != "games"}, maps)
        final = Model(e, args.joint, active, args.king, args.free).fit(
            every, scale, best[1], args.steps
        )
        tables = symmetric_ints(final.tables(), maps)
        args.out.write_bytes(P.encode(tables))
        nonzero = sum(w != 0 for table in tables for w in table)
        print(f"wrote {args.out}: {nonzero} weights not zero, {args.out.stat().st_size} bytes")
        if final.joint:
            print("  its features:", np.rint(final.theta).astype(int).tolist())


if __name__ == "__main__":
    main()
