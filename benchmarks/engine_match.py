"""A small engine match: two engines from ballot openings, colours swapped.

Each opening (a FEN per line) is played twice, each engine having White
once. The game ends by the variant's rules (:meth:`draughts.Board.outcome`,
draws claimed as soon as they may be), or is adjudicated: a draw after
``--max-plies``, a win for the side ahead by ``--adjudicate`` men or more
(a king counting as three men, as the built-in engine counts a flying king)
for 12 plies in a row, in a quiet position. Engines::

    builtin:hard           this library's engine at a level
    builtin:hard:N=V,...   the same with constants of draughts.engine.search
                           set to other values while it plays (experiments,
                           e.g. builtin:hard:THREAT_EXTENSIONS=0), or fields
                           of the level (builtin:hard:min_depth=1 keeps to
                           the time limit from the first ply on)
    old:hard               the engine as it was before the strength work
                           (commit d73f3fd, see _old_engine.py)
    hub:COMMAND ARGS       a Hub engine, e.g.
                           "hub:benchmarks/.venvs/py-draughts/bin/python benchmarks/turbo_hub.py"

Examples::

    python benchmarks/engine_match.py builtin:hard old:hard --games 20 --time 1
    python benchmarks/engine_match.py builtin:hard \\
        "hub:benchmarks/.venvs/py-draughts/bin/python benchmarks/turbo_hub.py" --games 20

Prints one line per game and then W/D/L and the score of the first engine,
with the Elo difference and its 95 % margin (normal approximation of the
per-game scores).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import math
import shlex
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

import attrs  # noqa: E402

import draughts  # noqa: E402
from draughts.engine import Analysis, Engine, HubEngine, Limit, PlayResult, builtin  # noqa: E402
from draughts.engine import evaluation as _evaluation  # noqa: E402
from draughts.engine import search as _search  # noqa: E402

OPENINGS = HERE.parents[1] / "shared/data/pdn/positions/international/mobydam_2-move_ballots.fen"


_HELD_PLIES = 12


def make_engine(spec: str) -> Engine:
    """An engine from its ``kind:argument`` spelling (see the module docstring)."""
    kind, _, argument = spec.partition(":")
    if kind == "builtin":
        level, _, settings = argument.partition(":")
        engine = builtin(level or "hard")  # type: ignore[arg-type]
        if not settings:
            return engine
        pairs = dict(item.split("=") for item in settings.split(","))
        fields = {name for name in pairs if hasattr(engine._settings, name)}
        engine._settings = attrs.evolve(
            engine._settings, **{name: int(pairs.pop(name)) for name in fields}
        )
        if not pairs:
            return engine
        return Tweaked(engine, {name: int(value) for name, value in pairs.items()})
    if kind == "old":
        from _old_engine import old_engine_class

        return old_engine_class()(argument or "hard")
    if kind == "hub":
        return HubEngine.popen(shlex.split(argument), timeout=30)
    raise SystemExit(f"unknown engine {spec!r}: builtin:LEVEL, old:LEVEL or hub:COMMAND")


class Tweaked(Engine):
    """An engine that plays with some of the search module's constants
    changed (both engines of a game share a process, so they are set back
    after every move)."""

    def __init__(self, engine: Engine, settings: dict[str, int]) -> None:
        self.engine = engine
        self.weights = {n: v for n, v in settings.items() if n in _evaluation.FEATURES}
        self.settings = {n: v for n, v in settings.items() if n not in self.weights}
        self.evaluators: dict[object, _evaluation.Evaluator] = {}
        for name in self.settings:
            if not hasattr(_search, name):
                raise SystemExit(f"draughts.engine.search has no constant {name}")

    @property
    def name(self) -> str:
        return f"{self.engine.name} {self.settings} {self.weights}"

    def _evaluator(self, t: object) -> _evaluation.Evaluator:
        """The variant's evaluator with :attr:`weights` in place (built once)."""
        if t in self.evaluators:
            return self.evaluators[t]
        phases = _evaluation.WEIGHTS[_evaluation.family(t)]  # type: ignore[arg-type]
        changed = tuple(
            tuple(self.weights.get(n, w) for n, w in zip(_evaluation.FEATURES, phase, strict=True))
            for phase in phases
        )
        made = self.evaluators[t] = _evaluation.Evaluator(t, changed)  # type: ignore[arg-type]
        return made

    def play(self, board: draughts.Board, limit: Limit | None = None) -> PlayResult:
        saved = {name: getattr(_search, name) for name in self.settings}
        for name, value in self.settings.items():
            setattr(_search, name, value)
        evaluator = _search.evaluator
        if self.weights:
            _search.evaluator = self._evaluator  # type: ignore[assignment]
        try:
            return self.engine.play(board, limit)
        finally:
            _search.evaluator = evaluator  # type: ignore[assignment]
            for name, value in saved.items():
                setattr(_search, name, value)

    def analyse(self, board: draughts.Board, limit: Limit | None = None) -> Analysis:
        analysis = self.play(board, limit).analysis
        assert analysis is not None  # the built-in engine always reports one
        return analysis


def material(board: draughts.Board) -> int:
    """White's material lead in men, a king counting three."""
    lead = 0
    for color, sign in ((draughts.WHITE, 1), (draughts.BLACK, -1)):
        lead += sign * (
            len(board.pieces(draughts.MAN, color)) + 3 * len(board.pieces(draughts.KING, color))
        )
    return lead


def play_game(
    specs: tuple[str, str], fen: str, variant: str, limit: Limit, max_plies: int, lead: int
) -> tuple[float, str, int, str, tuple[list[tuple[float, int]], list[tuple[float, int]]]]:
    """One game, ``specs[0]`` White: White's score, how it ended, plies,
    moves and, per side, the seconds and the depth (0: none reported) of each move."""
    engines = [make_engine(spec) for spec in specs]
    board = draughts.Board(fen, variant=variant)
    clocks: tuple[list[tuple[float, int]], list[tuple[float, int]]] = ([], [])
    result = play_out(engines, board, limit, max_plies, lead, clocks)
    start = draughts.Board(fen, variant=variant)
    return (*result, start.variation_pdn(board.move_stack), clocks)


def play_out(
    engines: list[Engine],
    board: draughts.Board,
    limit: Limit,
    max_plies: int,
    lead: int,
    clocks: tuple[list[tuple[float, int]], list[tuple[float, int]]],
) -> tuple[float, str, int]:
    """Play ``board`` to its end: White's score, how it ended, plies; the
    seconds and depth of every move of White and Black are added to ``clocks``."""
    held, side = 0, 1  # plies the current lead of ``lead`` men has lasted, and whose
    try:
        while True:
            outcome = board.outcome(claim_draw=True)
            if outcome is not None:
                score = 0.5 if outcome.winner is None else float(outcome.winner == draughts.WHITE)
                return score, outcome.termination.name.lower(), board.ply()
            ahead = material(board)
            # A lead counts once it has lasted (a sacrifice is often won back).
            held = held + 1 if abs(ahead) >= lead and ahead * side > 0 else 0
            side = 1 if ahead > 0 else -1
            if not board.has_captures():
                if held >= _HELD_PLIES:
                    return float(ahead > 0), "adjudicated win", board.ply()
                if board.ply() >= max_plies:
                    return 0.5, "adjudicated draw", board.ply()
            mover = 0 if board.turn == draughts.WHITE else 1
            began = time.perf_counter()
            played = engines[mover].play(board, limit)
            board.push(played.move)
            depth = played.analysis.depth if played.analysis else None
            clocks[mover].append((time.perf_counter() - began, depth or 0))
    finally:
        for engine in engines:
            engine.quit()


def elo(score: float, games: int, variance: float) -> str:
    """The Elo difference of a score fraction, with its 95 % margin."""
    if games == 0 or score <= 0 or score >= 1:
        return "Elo: not finite (all games won or lost)"

    def to_elo(p: float) -> float:
        p = min(max(p, 1e-6), 1 - 1e-6)
        return -400 * math.log10(1 / p - 1)

    margin = 1.96 * math.sqrt(variance / games)
    low, high = to_elo(score - margin), to_elo(score + margin)
    return f"Elo {to_elo(score):+.0f} (95 %: {low:+.0f} .. {high:+.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--variant", default="international")
    parser.add_argument("--openings", type=Path, default=OPENINGS, help="one FEN per line")
    parser.add_argument("--games", type=int, default=20, help="games (two per opening)")
    parser.add_argument("--skip", type=int, default=0, help="openings to skip first")
    parser.add_argument("--time", type=float, default=1.0, help="seconds per move")
    parser.add_argument("--depth", type=int, help="plies per move instead of a time")
    parser.add_argument("--max-plies", type=int, default=240)
    parser.add_argument("--adjudicate", type=int, default=3, help="men ahead that win")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--moves", action="store_true", help="print every game's moves")
    args = parser.parse_args()
    if args.openings.exists():
        fens = [line.strip() for line in args.openings.read_text().splitlines() if line.strip()]
    else:
        # Every game from one position: say so, a match of repeats measures little.
        print(
            f"{args.openings}: not found, every game starts from the start position",
            file=sys.stderr,
        )
        fens = [draughts.Board(variant=args.variant).fen()]
    jobs = []
    for game in range(args.games):
        fen = fens[(args.skip + game // 2) % len(fens)]
        first_white = game % 2 == 0
        specs = (args.first, args.second) if first_white else (args.second, args.first)
        jobs.append((game, first_white, fen, specs))
    limit = Limit(depth=args.depth) if args.depth else Limit(time=args.time)
    points: list[float] = []
    # per move of each engine: seconds and depth
    seconds: tuple[list[tuple[float, int]], list[tuple[float, int]]] = ([], [])
    wins = draws = losses = 0
    with concurrent.futures.ProcessPoolExecutor(args.concurrency) as pool:
        futures = {
            pool.submit(
                play_game, specs, fen, args.variant, limit, args.max_plies, args.adjudicate
            ): (game, first_white, fen)
            for game, first_white, fen, specs in jobs
        }
        for future in concurrent.futures.as_completed(futures):
            game, first_white, fen = futures[future]
            white_score, how, plies, moves, clocks = future.result()
            mine_first = clocks if first_white else clocks[::-1]
            for engine_seconds, spent in zip(seconds, mine_first, strict=True):
                engine_seconds.extend(spent)
            mine = white_score if first_white else 1 - white_score
            points.append(mine)
            wins += mine == 1
            draws += mine == 0.5
            losses += mine == 0
            colour = "White" if first_white else "Black"
            print(
                f"game {game + 1:3}: {args.first} as {colour}: {mine:.1f} ({how}, {plies} plies)"
                f"  [{wins}-{draws}-{losses}]  {fen}",
                flush=True,
            )
            if args.moves:
                print(f"    {moves}", flush=True)
    n = len(points)
    mean = sum(points) / n
    variance = sum((p - mean) ** 2 for p in points) / max(1, n - 1)
    per_move = f"{args.depth} plies" if args.depth else f"{args.time:g} s"
    print(f"{args.first} vs {args.second}, {args.variant}, {per_move}/move, {n} games")
    print(f"W/D/L {wins}/{draws}/{losses}, score {100 * mean:.1f} %, {elo(mean, n, variance)}")
    for spec, moves in zip((args.first, args.second), seconds, strict=True):
        spent = sorted(s for s, _ in moves)
        depths = [d for _, d in moves if d]
        depth = f", depth {statistics.mean(depths):.1f} on average" if depths else ""
        print(
            f"{spec}: {statistics.mean(spent):.2f} s a move on average, median "
            f"{statistics.median(spent):.2f} s, 90th percentile "
            f"{spent[len(spent) * 9 // 10]:.2f} s{depth}"
        )


if __name__ == "__main__":
    main()
