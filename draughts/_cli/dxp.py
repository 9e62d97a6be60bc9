"""``python -m draughts dxp``: the built-in engine playing a DXP program,
as follower (``--listen PORT``) or as initiator (``--connect HOST:PORT``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

import draughts
from draughts import pdn
from draughts._cli.arguments import integer, port, positive
from draughts._cli.engine_options import add_engine_options, engine_options
from draughts.engine import EngineError, Limit, builtin
from draughts.engine.dxp import DEFAULT_PORT, initiate, serve
from draughts.engine.matches import load_openings


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``dxp`` subcommand."""
    parser = commands.add_parser(
        "dxp", help="play the built-in engine against a DXP program (international)"
    )
    role = parser.add_mutually_exclusive_group(required=True)
    role.add_argument(
        "--listen",
        type=port,
        metavar="PORT",
        help=f"wait for a program to connect and ask for games (DXP's port: {DEFAULT_PORT})",
    )
    role.add_argument("--connect", metavar="HOST:PORT", help="ask a waiting program for games")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument(
        "--level",
        default="hard",
        choices=["easy", "medium", "hard"],
        help="the built-in engine's strength (default hard)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the easy level's mistakes")
    parser.add_argument("--name", default="draughts", help="the name we give in DXP")
    parser.add_argument("--games", type=integer(1), help="stop after this many games")
    parser.add_argument(
        "--idle-timeout",
        type=positive,
        default=300.0,
        metavar="SECONDS",
        help="follower: drop a program silent this long when we wait for it (default: 300)",
    )
    parser.add_argument(
        "--accept-timeout",
        type=positive,
        metavar="SECONDS",
        help="follower: stop when no program connects for this long (default: wait for ever)",
    )
    parser.add_argument(
        "--move-time", type=positive, help="seconds per move (default: from the clock)"
    )
    parser.add_argument(
        "--minutes", type=integer(1), default=10, help="initiator: minutes per side"
    )
    parser.add_argument("--moves", type=integer(0), default=0, help="initiator: moves in that time")
    parser.add_argument("--fen", help="initiator: start from this position")
    parser.add_argument("--openings", help="initiator: play each opening of this file twice")
    parser.add_argument("--pdn", help="append every game to this PDN file")
    add_engine_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The ``dxp`` subcommand: 0, 1 when the other program misbehaves (as
    initiator; the follower reports it and serves the next one), 2 for bad
    arguments."""
    return run_dxp(args, sys.stdout, sys.stderr)


def run_dxp(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run the ``dxp`` subcommand, printing to ``out`` and ``err``."""
    # Long only because it checks each option in turn, each with its own
    # message, before it listens or connects.
    for option, value in (
        ("--idle-timeout", args.idle_timeout),
        ("--accept-timeout", args.accept_timeout),
    ):
        if value is not None and not 0 < value < float("inf"):
            print(
                f"draughts dxp: {option} wants a positive number of seconds, not {value}", file=err
            )
            return 2
    if args.pdn and (problem := _unwritable(args.pdn)):
        print(f"draughts dxp: cannot write the games to --pdn {args.pdn}: {problem}", file=err)
        return 2
    try:
        book, bitbases = engine_options(args, "international")  # DXP plays it only
    except (ValueError, OSError) as error:
        print(f"draughts dxp: {error}", file=err)
        return 2
    engine = builtin(args.level, seed=args.seed, book=book, egtb=bitbases)
    limit = None if args.move_time is None else Limit(time=args.move_time)

    def record(game: pdn.Game) -> None:
        headers = game.headers
        print(
            f"{headers['White']} - {headers['Black']}  {headers['Result']}  "
            f"({headers['Termination']}, {len(game.mainline_moves())} plies)",
            file=out,
            flush=True,
        )
        if args.pdn:
            with Path(args.pdn).open("a", encoding="utf-8") as handle:
                handle.write(str(game).rstrip("\n") + "\n\n")

    try:
        if args.listen is not None:
            serve(
                engine,
                args.listen,
                host=args.host,
                name=args.name,
                limit=limit,
                games=args.games,
                on_listening=lambda port: print(
                    f"{engine.name} waits for a DXP program on {args.host}:{port}",
                    file=out,
                    flush=True,
                ),
                on_game=record,
                on_error=lambda message: print(f"draughts dxp: {message}", file=err, flush=True),
                idle_timeout=args.idle_timeout,
                accept_timeout=args.accept_timeout,
            )
            return 0
        host, _, port = args.connect.rpartition(":")
        if not host or not port.isdigit():
            print(f"draughts dxp: --connect wants HOST:PORT, not {args.connect!r}", file=err)
            return 2
        boards, colors = _games(args)
        initiate(
            engine,
            host,
            int(port),
            boards=boards,
            colors=colors,
            name=args.name,
            minutes=args.minutes,
            moves=args.moves,
            limit=limit,
            on_game=record,
        )
    except BrokenPipeError:
        raise  # the reader of standard output went away: main() ends quietly
    except (ValueError, OSError) as error:  # OSError: an openings file, a port in use
        print(f"draughts dxp: {error}", file=err)
        return 2
    except EngineError as error:
        print(f"draughts dxp: {error}", file=err)
        return 1
    except KeyboardInterrupt:
        print("draughts dxp: interrupted", file=err)
        return 130
    return 0


def _unwritable(path: str) -> str | None:
    """Why games cannot be appended to ``path`` (checked before the first
    game, so that a typo does not cost a game played), or None."""
    try:
        with Path(path).open("a", encoding="utf-8"):
            return None
    except OSError as error:
        return error.strerror or str(error)


def _games(args: argparse.Namespace) -> tuple[list[draughts.Board], list[draughts.Color]]:
    """The initiator's games: each opening twice (we play white, then
    black), or one game from ``--fen`` or the start, we playing white."""
    if args.openings:
        openings = load_openings(args.openings)
        boards = [board for board in openings for _ in range(2)]
        colors = [draughts.WHITE, draughts.BLACK] * len(openings)
        if args.games is not None:
            boards, colors = boards[: args.games], colors[: args.games]
        return boards, colors
    board = draughts.Board(args.fen)
    count = args.games or 1
    return [board] * count, [draughts.WHITE, draughts.BLACK] * count
