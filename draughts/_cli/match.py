"""``python -m draughts match``: two engines play a match and are scored."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from draughts._cli.arguments import integer, positive
from draughts.engine import Limit
from draughts.engine.matches import MatchGame, MatchScore, TimeControl, engine_spec, match

_EPILOG = """\
engines: builtin:LEVEL (easy, medium, hard; builtin:easy:SEED for another seed;
options after commas: builtin:hard,book=default,egtb=DIR with book=none, default
or a book file and egtb= a directory of bitbase files), hub:"COMMAND ARGS" (a
program speaking Hub), dxp:HOST:PORT (a DXP follower).
Each opening is played twice, colours swapped. A game ends by the variant's
rules, and as soon as the player to move may claim a draw (unless
--no-draw-claims); then by the adjudications asked for."""


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``match`` subcommand."""
    parser = commands.add_parser(
        "match",
        help="play a match between two engines",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("engine_a", help="the first engine")
    parser.add_argument("engine_b", help="the second engine")
    parser.add_argument("--variant", default="international", help="variant name or GameType")
    parser.add_argument("--games", type=integer(1), default=2, help="number of games (default 2)")
    parser.add_argument("--openings", help="a PDN file of openings, or a file of FEN lines")
    parser.add_argument("--time", help="clock per side: SECONDS or SECONDS+INCREMENT")
    parser.add_argument("--move-time", type=positive, help="fixed seconds per move (no clock)")
    parser.add_argument("--depth", type=integer(1), help="fixed search depth per move")
    parser.add_argument("--pdn", help="write every game to this PDN file")
    parser.add_argument("--concurrency", type=integer(1), default=1, help="games played at once")
    parser.add_argument(
        "--max-plies", type=integer(1), help="adjudicate a draw after this many plies"
    )
    parser.add_argument(
        "--material", type=positive, help="adjudicate a win for a side this many men ahead"
    )
    parser.add_argument(
        "--material-plies",
        type=integer(1),
        default=10,
        help="plies the material lead must last (default 10)",
    )
    parser.add_argument(
        "--no-draw-claims",
        dest="claim_draws",
        action="store_false",
        help="play on where the player to move may claim a draw (repetition, the "
        "40-move rule...): by default he claims it and the game ends",
    )
    parser.add_argument("--event", default="draughts match", help="the PDN Event tag")
    parser.add_argument("--quiet", action="store_true", help="print only the result table")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The ``match`` subcommand; 0, or 2 for bad arguments."""
    return run_match(args, sys.stdout, sys.stderr)


def run_match(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run the match ``args`` describe, printing to ``out``."""
    try:
        specs = [engine_spec(args.engine_a), engine_spec(args.engine_b)]
        time_control = TimeControl.parse(args.time) if args.time else None
        limit = None
        if args.move_time is not None or args.depth is not None:
            limit = Limit(time=args.move_time, depth=args.depth)
    except (ValueError, OSError) as error:  # OSError: a book file that cannot be read
        print(f"draughts match: {error}", file=err)
        return 2
    if time_control is None and limit is None:
        time_control = TimeControl(60, 1)
    described = _describe(time_control, limit)
    if not args.quiet:
        print(f"{specs[0].label} v {specs[1].label}, {args.games} games, {described}", file=out)

    def show(record: MatchGame, score: MatchScore) -> None:
        if args.quiet:
            return
        # White's score first, as the players are listed; the PDN result
        # follows where it gives Black's first (English draughts).
        result = record.result_white_first
        if result != record.result:
            result += f" (PDN {record.result})"
        print(
            f"game {record.index + 1:>3}/{args.games}  opening {record.opening + 1:>3}  "
            f"{record.white} - {record.black}  {result:<7} {record.reason}, "
            f"{record.plies} plies   score {score.points:g}-{score.games - score.points:g}",
            file=out,
            flush=True,
        )

    try:
        result = match(
            specs[0],
            specs[1],
            variant=args.variant,
            games=args.games,
            openings=args.openings,
            time_control=time_control,
            limit=limit,
            max_plies=args.max_plies,
            material_margin=args.material,
            material_plies=args.material_plies,
            concurrency=args.concurrency,
            pdn_path=args.pdn,
            event=args.event,
            on_game=show,
            claim_draws=args.claim_draws,
        )
    except BrokenPipeError:
        raise  # the reader of standard output went away: main() ends quietly
    except (ValueError, OSError) as error:
        print(f"draughts match: {error}", file=err)
        return 2
    print(result.score.table(), file=out)
    for line in thinking_lines(result.games):
        print(line, file=out)
    return 0


def thinking_lines(games: Sequence[MatchGame]) -> list[str]:
    """Per engine, its moves' average time and reported depth.

    >>> from draughts.engine import match, Limit
    >>> result = match("builtin:medium", "builtin:easy", variant="english", games=2,
    ...                limit=Limit(depth=2), max_plies=10)
    >>> [line.split(": ")[0] for line in thinking_lines(result.games)]
    ['builtin:medium', 'builtin:easy']
    """
    moves: dict[str, list[tuple[float, int]]] = {}
    for game in games:
        for label, thinking in zip((game.white, game.black), game.thinking, strict=True):
            moves.setdefault(label, []).extend(thinking)
    lines = []
    for label, spent in moves.items():
        if not spent:
            continue
        seconds = sum(s for s, _ in spent) / len(spent)
        depths = [d for _, d in spent if d]
        depth = (
            f"depth {sum(depths) / len(depths):.1f} on average" if depths else "no depth reported"
        )
        lines.append(f"{label}: {len(spent)} moves, {seconds:.3f} s a move, {depth}")
    return lines


def _describe(clock: TimeControl | None, limit: Limit | None) -> str:
    """The time control in words, as the match's first line shows it.

    >>> _describe(TimeControl(60, 1), None)
    'a clock of 60 s per side plus 1 s a move'
    >>> _describe(None, Limit(time=0.5, depth=6))
    'depth 6 or 0.5 s a move, whichever comes first'
    """
    parts = []
    if clock is not None:
        more = f" plus {clock.increment:g} s a move" if clock.increment else ""
        parts.append(f"a clock of {clock.base:g} s per side{more}")
    if limit is not None:
        steps = [f"depth {limit.depth}"] if limit.depth is not None else []
        steps += [f"{limit.time:g} s"] if limit.time is not None else []
        both = ", whichever comes first" if len(steps) == 2 else ""
        parts.append(" or ".join(steps) + f" a move{both}")
    return "; ".join(parts)
